/*
 * IEEE 802.1Qbb priority flow control (PFC) frame generator, one per switch port.
 *
 * Sends a MAC Control frame (802.3 Annex 31B/31D) whenever the per-priority request vector
 * req_xoff differs from what was last advertised, and refreshes XOFF before the partner's
 * timers run out.  Optional 802.3x link-level PAUSE on req_link_pause (LINK_PAUSE_ENABLE).
 *
 * PFC frame (opcode 0x0101):
 *
 *  Field                       Length
 *  Destination MAC             6 octets   01-80-C2-00-00-01
 *  Source MAC                  6 octets   cfg_src_mac (bits 47:40 first)
 *  EtherType                   2 octets   0x8808 (MAC Control)
 *  Opcode                      2 octets   0x0101 (class-based flow control)
 *  class-enable vector         2 octets   0x00, then bit k = priority k
 *  time[0] .. time[7]          8 x 2      quanta, priority 0 first; XOFF: cfg_pause_quanta[k],
 *                                         XON: 0
 *  padding                     26 octets  0x00 (to 60 octets)
 *  FCS                         4 octets   only with FCS_ENABLE (CRC-32, 802.3 clause 3.2.9)
 *
 * 802.3x PAUSE frame (opcode 0x0001): same header, then one 2-octet time
 * (cfg_link_pause_quanta while req_link_pause is 1, else 0), zero padding to 60 octets, FCS.
 *
 * Rules (docs/pfc.md):
 *  - A frame carries the enable bit of every priority whose state changed since the last frame
 *    and of every priority currently in XOFF (so one frame refreshes all of them), each with
 *    its CURRENT state.  Changes before the content is frozen are merged into one frame.
 *  - Content is taken live from req_xoff until the first beat is accepted (that beat holds only
 *    the destination and source MAC) and frozen from then on; a change after that sends
 *    another frame.  Back-pressure therefore never loses a change.
 *  - While any priority is XOFF, a refresh frame is requested cfg_refresh_quanta quanta after
 *    the last frame was frozen (0: no refresh).  Quanta are counted by cfg_quanta_step per clock.
 *  - Latency: req_xoff rising in clock n gives tvalid in clock n+1 on an idle output.
 *  - m_axis_* are registers; the stat_* counters show a frame one clock after its last beat
 *    was accepted.
 *  - cfg_refresh_quanta (the limit and whether it is 0) acts through a registered comparison,
 *    so a new value takes effect one clock after it is set.
 *
 * Timing structure: every register is loaded from registers, req_* and cfg_* through a few
 * LUTs; m_axis_tready (which comes through the egress mux) only enters the last LUT of each,
 * as the output register's advance (!tvalid || tready), the start of a frame or the freeze.
 * The FCS is computed from the CRC two beats before the first FCS octet (the octets between
 * are zero padding), so no CRC logic sits in front of the output register.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module pfc_tx #(
    // stream width in bits (8 or 64)
    parameter DATA_WIDTH = 8,
    // tkeep width
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // 1: append the FCS (64-octet frames); 0: 60-octet frames, the MAC appends it
    parameter FCS_ENABLE = 0,
    // 1: also send 802.3x PAUSE on req_link_pause
    parameter LINK_PAUSE_ENABLE = 0
) (
    input  wire                  clk,
    input  wire                  rst,

    // per-priority request: priority k paused while bit k is 1
    input  wire [7:0]            req_xoff,
    // link-level PAUSE request (LINK_PAUSE_ENABLE only)
    input  wire                  req_link_pause,

    // frame stream to the MAC TX
    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,

    // configuration
    input  wire [47:0]           cfg_src_mac,
    input  wire [8*16-1:0]       cfg_pause_quanta,
    input  wire [15:0]           cfg_refresh_quanta,
    input  wire [23:0]           cfg_quanta_step,
    input  wire [15:0]           cfg_link_pause_quanta,

    // status
    output wire                  busy,
    output wire [8*32-1:0]       stat_xoff_frames,
    output wire [8*32-1:0]       stat_xon_frames,
    output wire [31:0]           stat_link_xoff_frames,
    output wire [31:0]           stat_link_xon_frames
);

// frame length with and without the FCS, and octets per beat, at counter width
localparam [6:0] FRAME_LEN = FCS_ENABLE != 0 ? 7'd64 : 7'd60;
localparam [6:0] DATA_LEN = 7'd60;
localparam [6:0] BEAT_BYTES = KEEP_WIDTH[6:0];

initial begin
    if (DATA_WIDTH != 8 && DATA_WIDTH != 64) begin
        $error("pfc_tx: DATA_WIDTH must be 8 or 64");
        $finish;
    end
    if (KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("pfc_tx: KEEP_WIDTH must be DATA_WIDTH / 8");
        $finish;
    end
end

// CRC-32 (802.3), reflected, one octet
function [31:0] crc32_byte;
    input [31:0] crc;
    input [7:0]  data;
    integer b;
    reg [31:0] c;
    begin
        c = crc ^ {24'd0, data};
        for (b = 0; b < 8; b = b + 1) begin
            c = c[0] ? ((c >> 1) ^ 32'hEDB88320) : (c >> 1);
        end
        crc32_byte = c;
    end
endfunction

// CRC-32 over n zero octets: a fixed linear map of the state (the padding after the PFC fields
// is all zeros, so the FCS is known from the CRC of the octets before the padding's end)
function [31:0] crc32_zeros;
    input [31:0] crc;
    input integer n;
    integer z;
    begin
        crc32_zeros = crc;
        for (z = 0; z < n; z = z + 1) begin
            crc32_zeros = crc32_byte(crc32_zeros, 8'h00);
        end
    end
endfunction

// columns of the CRC as a linear map: state bit b after n zero octets (the beat's octets are
// then added as data columns: data bit b alone, from state 0, over the beat's octets)
function [32*32-1:0] crc32_state_cols;
    input integer n;
    integer b;
    begin
        for (b = 0; b < 32; b = b + 1) begin
            crc32_state_cols[b*32 +: 32] = crc32_zeros(32'd1 << b, n);
        end
    end
endfunction

function [DATA_WIDTH*32-1:0] crc32_data_cols;
    input integer n;   // octets per beat
    integer b, o;
    reg [31:0] c;
    begin
        for (b = 0; b < DATA_WIDTH; b = b + 1) begin
            c = 32'd0;
            for (o = 0; o < n; o = o + 1) begin
                c = crc32_byte(c, o == b / 8 ? 8'd1 << (b % 8) : 8'd0);
            end
            crc32_data_cols[b*32 +: 32] = c;
        end
    end
endfunction

// the same linear maps by rows (bit r*n + c = bit c*32 + r of the columns, for n inputs):
// output bit r is the XOR of the inputs its row selects, a reduction that synthesis builds as
// a balanced tree
function [32*32-1:0] state_rows;
    input [32*32-1:0] cols;
    integer r, c;
    begin
        for (r = 0; r < 32; r = r + 1) begin
            for (c = 0; c < 32; c = c + 1) begin
                state_rows[r*32 + c] = cols[c*32 + r];
            end
        end
    end
endfunction

function [32*DATA_WIDTH-1:0] data_rows;
    input [DATA_WIDTH*32-1:0] cols;
    integer r, c;
    begin
        for (r = 0; r < 32; r = r + 1) begin
            for (c = 0; c < DATA_WIDTH; c = c + 1) begin
                data_rows[r*DATA_WIDTH + c] = cols[c*32 + r];
            end
        end
    end
endfunction

// The output beat is a register.  Beat 0 (destination MAC, start of the source MAC) is loaded
// when a frame starts; the clock it is accepted (the freeze) loads beat 1 (octets that do not
// depend on the content) and a shift register with octets 2*BEAT_BYTES up to the end of the PFC
// fields, built from the content being frozen; later beats shift out of it (zeros behind it
// are the padding), except the FCS.  So no beat is selected by a wide multiplexer.
// LAST_OFF: offset of the last beat.  The FCS is computed while the beat at PRE_FCS_OFF (two
// beats before the one that holds octet 60, the first FCS octet) is on the bus: the CRC of the
// octets before it then is final, and the octets from it to octet 59 are zero padding at both
// widths, a fixed linear map of the CRC.  So the FCS is a register by the time the beat before
// the FCS beat is accepted, and the FCS beat is loaded from it.
localparam [6:0] LAST_OFF = ((FRAME_LEN - 7'd1) / BEAT_BYTES) * BEAT_BYTES;
localparam [6:0] FCS_BEAT_OFF = (DATA_LEN / BEAT_BYTES) * BEAT_BYTES;
localparam [6:0] PRE_FCS_OFF = FCS_BEAT_OFF - 7'd2 * BEAT_BYTES;
localparam integer FCS_ZEROS = 60 - ((60 / KEEP_WIDTH) * KEEP_WIDTH - 2 * KEEP_WIDTH);
// octets in the shift register: from 2*BEAT_BYTES to the end of the PFC fields (octet 33),
// rounded up to whole beats (PRE_FCS_OFF is at or after its end: 58 >= 34, 40 >= 40)
localparam integer SR_END = ((34 + KEEP_WIDTH - 1) / KEEP_WIDTH) * KEEP_WIDTH;
localparam integer SR_BITS = (SR_END - 2 * KEEP_WIDTH) * 8;
localparam [32*32-1:0] CRC_STATE_COLS = crc32_state_cols(KEEP_WIDTH);
localparam [32*32-1:0] CRC_ZERO_COLS = crc32_state_cols(FCS_ZEROS);
localparam [DATA_WIDTH*32-1:0] CRC_DATA_COLS = crc32_data_cols(KEEP_WIDTH);
localparam [32*32-1:0] CRC_STATE_ROWS = state_rows(CRC_STATE_COLS);
localparam [32*32-1:0] CRC_ZERO_ROWS = state_rows(CRC_ZERO_COLS);
localparam [32*DATA_WIDTH-1:0] CRC_DATA_ROWS = data_rows(CRC_DATA_COLS);
// octets of the last beat
localparam [KEEP_WIDTH-1:0] LAST_KEEP = {KEEP_WIDTH{1'b1}} >> (LAST_OFF + BEAT_BYTES - FRAME_LEN);

// frame state
reg        tvalid_reg;
reg [6:0]  offset_reg;                 // octet offset of the beat on the bus
reg [6:0]  next_off_reg;               // offset_reg + BEAT_BYTES
reg        frozen_reg;                 // content latched (first beat accepted)
reg        first_pfc_reg;              // beat 0 of a PFC frame on the bus (tvalid, !frozen)
reg        first_link_reg;             // the same for an 802.3x PAUSE
reg        link_reg;                   // the current frame is an 802.3x PAUSE
reg [7:0]  start_en_reg;               // enable bits that started the frame
reg [7:0]  en_reg;                     // frozen class-enable vector
reg [7:0]  xoff_reg;                   // frozen state of the enabled priorities
reg        link_xoff_reg;
reg [31:0] crc_reg;                    // CRC of the beats accepted so far
reg [31:0] crc_data_reg;               // the beat on the bus's term of the CRC (see below)
reg [31:0] fcs_reg;                    // FCS (complemented), once computed

reg [SR_BITS-1:0]    sr_reg;            // octets after the next beat, octet 2*BEAT_BYTES first
reg [DATA_WIDTH-1:0] tdata_reg;
reg [KEEP_WIDTH-1:0] tkeep_reg;
reg                  tlast_reg;

// advertised state
reg [7:0]  sent_reg;
reg        sent_nz_reg;                // sent_reg != 0
reg        link_sent_reg;
reg        last_link_reg;              // kind of the last frame (fair choice)

// refresh timers: quanta since the last frame was frozen, 16 fraction bits, saturating.  The
// accumulator runs one clock ahead (it restarts at one step, not 0) and the comparison with the
// limit is registered, so ge_reg is what "accumulator >= limit" was in the unpipelined form,
// with no compare between the accumulator and the frame start.  The comparison also holds
// "refresh on" (cfg_refresh_quanta != 0), so cfg_refresh_quanta acts one clock after it is
// set, as a whole.
reg [33:0] refresh_acc_reg;
reg        refresh_ge_reg;
reg [33:0] link_acc_reg;
reg        link_ge_reg;

// counted the clock after the last beat was accepted
reg [7:0]  ev_xoff_reg, ev_xon_reg;
reg        ev_link_xoff_reg, ev_link_xon_reg;
reg [8*32-1:0] stat_xoff_reg;   // priority k at [k*32 +: 32]
reg [8*32-1:0] stat_xon_reg;
reg [31:0] stat_link_xoff_reg;
reg [31:0] stat_link_xon_reg;

// Every register below is written from registers (and req_xoff / req_link_pause / cfg_*)
// through at most a few LUTs; m_axis_tready, which comes through the egress mux, only enters
// in the last LUT of each: as the register slice's advance (adv: the output takes a beat or
// is idle), the start of a frame (start_ok) or the freeze.
wire link_req = LINK_PAUSE_ENABLE != 0 ? req_link_pause : 1'b0;
// accumulator >= {cfg_refresh_quanta, 16'd0}: its integer quanta against the limit (the
// fraction bits cannot matter), an 18-bit compare
wire refresh_reached = refresh_acc_reg[33:16] >= {2'b00, cfg_refresh_quanta};
wire link_reached = link_acc_reg[33:16] >= {2'b00, cfg_refresh_quanta};
wire refresh_on = cfg_refresh_quanta != 16'd0;
wire refresh_due = refresh_ge_reg && sent_nz_reg;
wire link_refresh_due = LINK_PAUSE_ENABLE != 0 && link_ge_reg && link_sent_reg;
wire pfc_need = req_xoff != sent_reg || refresh_due;
wire link_need = LINK_PAUSE_ENABLE != 0 && ((link_req ^ link_sent_reg) || link_refresh_due);
wire need = pfc_need || link_need;
wire pick_pfc = pfc_need && (!link_need || last_link_reg);

// live content (before the first beat is accepted): the priorities that changed, those in
// XOFF, and those that started the frame ((req_xoff ^ sent_reg) | req_xoff == req_xoff | sent_reg)
wire [7:0] en_live = req_xoff | sent_reg | start_en_reg;

wire accept = tvalid_reg && m_axis_tready;
wire adv = !tvalid_reg || m_axis_tready;          // the output register moves on
wire reload = !tvalid_reg || tlast_reg;           // ... and then holds beat 0
wire start_ok = !tvalid_reg || (m_axis_tready && tlast_reg);  // a frame may start
wire freeze_pfc = first_pfc_reg && m_axis_tready;
wire freeze_link = first_link_reg && m_axis_tready;

assign m_axis_tdata = tdata_reg;
assign m_axis_tkeep = tkeep_reg;
assign m_axis_tvalid = tvalid_reg;
assign m_axis_tlast = tlast_reg;
assign m_axis_tuser = 1'b0;
assign busy = tvalid_reg;
assign stat_xoff_frames = stat_xoff_reg;
assign stat_xon_frames = stat_xon_reg;
assign stat_link_xoff_frames = stat_link_xoff_reg;
assign stat_link_xon_frames = stat_link_xon_reg;

// live times: XOFF quanta for priorities in XOFF (all of them are enabled), 0 (XON) otherwise
wire [127:0] time_live;
wire [15:0]  link_time_live = link_req ? cfg_link_pause_quanta : 16'd0;

genvar g;
generate
    for (g = 0; g < 8; g = g + 1) begin : live_times
        assign time_live[g*16 +: 16] = req_xoff[g] ? cfg_pause_quanta[g*16 +: 16] : 16'd0;
    end
endgenerate

// value >= c for a constant c, written as logic: Yosys would map a compare to a carry chain,
// which logic synthesis cannot merge with what follows
function ge_const;
    input [6:0] value;
    input [6:0] c;
    integer b;
    begin
        ge_const = 1'b1;
        for (b = 0; b < 7; b = b + 1) begin
            ge_const = (value[b] & ~c[b]) | (~(value[b] ^ c[b]) & ge_const);
        end
    end
endfunction

// octet idx of the frame (idx < 60), from the frozen content
function [7:0] frame_byte;
    input [6:0] idx;
    input [47:0] src;
    input        link;
    input [7:0]  en;
    input [127:0] times;
    input [15:0] link_time;
    integer q;
    begin
        frame_byte = 8'h00;
        case (idx)
            7'd0: frame_byte = 8'h01;
            7'd1: frame_byte = 8'h80;
            7'd2: frame_byte = 8'hC2;
            7'd3: frame_byte = 8'h00;
            7'd4: frame_byte = 8'h00;
            7'd5: frame_byte = 8'h01;
            7'd6: frame_byte = src[47:40];
            7'd7: frame_byte = src[39:32];
            7'd8: frame_byte = src[31:24];
            7'd9: frame_byte = src[23:16];
            7'd10: frame_byte = src[15:8];
            7'd11: frame_byte = src[7:0];
            7'd12: frame_byte = 8'h88;
            7'd13: frame_byte = 8'h08;
            7'd14: frame_byte = link ? 8'h00 : 8'h01;
            7'd15: frame_byte = 8'h01;
            7'd16: frame_byte = link ? link_time[15:8] : 8'h00;
            7'd17: frame_byte = link ? link_time[7:0] : en;
            default: begin
                // times, priority 0 first, big endian (octets 18..33); equality with
                // constants, no arithmetic on idx (it would become a carry chain)
                for (q = 0; q < 16; q = q + 1) begin
                    if (!link && idx == 7'd18 + q[6:0]) begin
                        frame_byte = times[(q / 2) * 16 + (q % 2 == 0 ? 8 : 0) +: 8];
                    end
                end
            end
        endcase
    end
endfunction

integer i, k;  // one loop variable per always block (Yosys: one driver each)
integer i_z, i_o, i_d, i_n;
reg [6:0]  idx;
reg [31:0] crc_beat;    // crc_reg updated with the beat on the bus
reg [31:0] crc_data_next; // the data term of the beat loaded with tdata_next (below)
reg [DATA_WIDTH-1:0] crc_load; // that beat, as far as the CRC needs it
reg [31:0] crc_data_zero; // the data term of beat 0 (a constant at 8 bits)
reg [31:0] fcs_now;     // the FCS, valid while the beat at PRE_FCS_OFF is on the bus
reg [DATA_WIDTH-1:0] beat_zero; // beat 0
reg [DATA_WIDTH-1:0] beat_next; // the beat after the one on the bus, once frozen
reg [DATA_WIDTH-1:0] beat_one;  // beat 1
reg [SR_BITS-1:0]    sr_load;   // octets 2*BEAT_BYTES .. SR_END-1 of the content being frozen

// The next-state terms are five blocks, each with only its own inputs: one block over all of
// them re-ran the frame content (some sixty octet selects) and the CRC rows whenever any
// register in it changed, every clock of a frame (Icarus ran the switch 4x slower).

// CRC-32 is linear: the CRC after a beat is (state map) crc_reg XOR (data map) beat, each a
// flat XOR per bit of precomputed rows.  The data term is computed when the beat is loaded
// into the output register and registered with it (crc_data_reg), so the update on acceptance
// is the state map and one XOR.  The FCS is the zero map of crc_reg.
always @* begin
    for (i = 0; i < 32; i = i + 1) begin
        crc_beat[i] = (^(crc_reg & CRC_STATE_ROWS[i*32 +: 32])) ^ crc_data_reg[i];
        fcs_now[i] = ~^(crc_reg & CRC_ZERO_ROWS[i*32 +: 32]);
    end
end

// beat 0: destination MAC and the start of the source MAC, the same for both kinds
always @* begin
    for (i_z = 0; i_z < KEEP_WIDTH; i_z = i_z + 1) begin
        beat_zero[i_z*8 +: 8] = frame_byte(i_z[6:0], cfg_src_mac, 1'b0, 8'd0, 128'd0, 16'd0);
    end
end

// beat 1 and the shift register, from the content as it is frozen this clock (the live
// values: the freeze is the clock they are latched) and link_reg (set at the start)
always @* begin
    for (i_o = 0; i_o < KEEP_WIDTH; i_o = i_o + 1) begin
        beat_one[i_o*8 +: 8] = frame_byte(BEAT_BYTES + i_o[6:0], cfg_src_mac, link_reg, en_live,
                                          time_live, link_time_live);
    end
    for (i_o = 0; i_o < SR_BITS / 8; i_o = i_o + 1) begin
        sr_load[i_o*8 +: 8] = frame_byte(2 * BEAT_BYTES + i_o[6:0], cfg_src_mac, link_reg,
                                         en_live, time_live, link_time_live);
    end
end

// the beat loaded after the one on the bus, for the CRC: beat 1 or the head of the shift
// register (the FCS beats differ, but the CRC is not used after the FCS is computed)
always @* begin
    crc_load = frozen_reg ? sr_reg[DATA_WIDTH-1:0] : beat_one;
    for (i_d = 0; i_d < 32; i_d = i_d + 1) begin
        crc_data_next[i_d] = ^(crc_load & CRC_DATA_ROWS[i_d*DATA_WIDTH +: DATA_WIDTH]);
        crc_data_zero[i_d] = ^(beat_zero & CRC_DATA_ROWS[i_d*DATA_WIDTH +: DATA_WIDTH]);
    end
end

// after the freeze: the head of the shift register, or the FCS.  Offsets are multiples of
// BEAT_BYTES, so lane i of the beat at next_off is octet next_off | i.
always @* begin
    idx = 7'd0;
    i_n = 0;  // set on every path (Yosys infers a latch for a loop variable set in an if)
    beat_next = sr_reg[DATA_WIDTH-1:0];
    if (FCS_ENABLE != 0 && ge_const(next_off_reg, FCS_BEAT_OFF)) begin
        for (i_n = 0; i_n < KEEP_WIDTH; i_n = i_n + 1) begin
            idx = next_off_reg | i_n[6:0];
            if (!ge_const(idx, DATA_LEN)) begin
                beat_next[i_n*8 +: 8] = 8'h00;
            end else begin
                // FCS, least significant octet first
                beat_next[i_n*8 +: 8] = fcs_reg[{idx[1:0], 3'd0} +: 8];
            end
        end
    end
end

always @(posedge clk) begin
    // accumulators run every clock (saturating at the limit) and restart at the freeze
    if (freeze_pfc) begin
        refresh_acc_reg <= {10'd0, cfg_quanta_step};
    end else if (!refresh_reached) begin
        refresh_acc_reg <= refresh_acc_reg + {10'd0, cfg_quanta_step};
    end
    refresh_ge_reg <= !freeze_pfc && refresh_on && refresh_reached;
    if (freeze_link) begin
        link_acc_reg <= {10'd0, cfg_quanta_step};
    end else if (!link_reached) begin
        link_acc_reg <= link_acc_reg + {10'd0, cfg_quanta_step};
    end
    link_ge_reg <= !freeze_link && refresh_on && link_reached;

    // content follows the requests until the first beat is accepted
    if (!tvalid_reg || !frozen_reg) begin
        en_reg <= en_live;
        xoff_reg <= req_xoff;   // == req_xoff & en_live: every priority in XOFF is enabled
        link_xoff_reg <= link_req;
    end

    // the first beat accepted freezes the content: it is now what the partner will see
    // (each enabled priority advertises req_xoff, the others keep sent_reg: that is req_xoff
    // too, as every priority that differs from sent_reg is enabled)
    if (freeze_pfc) begin
        sent_reg <= req_xoff;
        sent_nz_reg <= req_xoff != 8'd0;
    end
    if (freeze_link) begin
        link_sent_reg <= link_req;
    end

    // start a frame when idle, or right after the last beat
    if (start_ok) begin
        tvalid_reg <= need;
        start_en_reg <= req_xoff | sent_reg;   // changed | req_xoff (used by PFC frames only)
        if (need) begin
            // (constant 0 without LINK_PAUSE_ENABLE, written so that synthesis sees it)
            link_reg <= LINK_PAUSE_ENABLE != 0 && !pick_pfc;
            last_link_reg <= LINK_PAUSE_ENABLE != 0 && !pick_pfc;
        end
    end
    frozen_reg <= start_ok ? 1'b0 : (frozen_reg || accept);
    if (adv) begin
        // a frame starts (reload: when idle, or after the last beat), or beat 0 was accepted
        first_pfc_reg <= reload && need && pick_pfc;
        first_link_reg <= LINK_PAUSE_ENABLE != 0 && reload && need && !pick_pfc;
    end

    // the output register: beat 0 after the last beat or when idle, then beat 1 and the
    // shift register (the freeze), then the shift register and the FCS
    if (adv) begin
        if (reload) begin
            offset_reg <= 7'd0;
            next_off_reg <= BEAT_BYTES;
            tdata_reg <= beat_zero;
            tkeep_reg <= {KEEP_WIDTH{1'b1}};
            tlast_reg <= 1'b0;
        end else begin
            offset_reg <= next_off_reg;
            next_off_reg <= next_off_reg + BEAT_BYTES;
            tdata_reg <= frozen_reg ? beat_next : beat_one;
            tkeep_reg <= next_off_reg == LAST_OFF ? LAST_KEEP : {KEEP_WIDTH{1'b1}};
            tlast_reg <= next_off_reg == LAST_OFF;
        end
        sr_reg <= frozen_reg ? (sr_reg >> DATA_WIDTH) : sr_load;
        crc_data_reg <= crc_data_next;
        crc_reg <= crc_beat;
    end
    // (the CRC restarts as a synchronous set / reset, so its data input is the XOR alone;
    // no reset: tvalid_reg is 0 after one clock of rst, and from then on this restarts it)
    if (adv && reload) begin
        crc_reg <= 32'hFFFFFFFF;
        crc_data_reg <= crc_data_zero;
    end
    if (offset_reg == PRE_FCS_OFF) begin
        fcs_reg <= fcs_now;
    end

    // frames are counted when their last beat is accepted (the counters a clock later)
    ev_xoff_reg <= 8'd0;
    ev_xon_reg <= 8'd0;
    ev_link_xoff_reg <= 1'b0;
    ev_link_xon_reg <= 1'b0;
    if (accept && tlast_reg) begin
        if (link_reg) begin
            ev_link_xoff_reg <= link_xoff_reg;
            ev_link_xon_reg <= !link_xoff_reg;
        end else begin
            ev_xoff_reg <= en_reg & xoff_reg;
            ev_xon_reg <= en_reg & ~xoff_reg;
        end
    end
    if (ev_link_xoff_reg) begin
        stat_link_xoff_reg <= stat_link_xoff_reg + 32'd1;
    end
    if (ev_link_xon_reg) begin
        stat_link_xon_reg <= stat_link_xon_reg + 32'd1;
    end
    for (k = 0; k < 8; k = k + 1) begin
        if (ev_xoff_reg[k]) begin
            stat_xoff_reg[k*32 +: 32] <= stat_xoff_reg[k*32 +: 32] + 32'd1;
        end
        if (ev_xon_reg[k]) begin
            stat_xon_reg[k*32 +: 32] <= stat_xon_reg[k*32 +: 32] + 32'd1;
        end
    end

    if (rst) begin
        tvalid_reg <= 1'b0;
        offset_reg <= 7'd0;
        next_off_reg <= BEAT_BYTES;
        frozen_reg <= 1'b0;
        first_pfc_reg <= 1'b0;
        first_link_reg <= 1'b0;
        link_reg <= 1'b0;
        start_en_reg <= 8'd0;
        tkeep_reg <= {KEEP_WIDTH{1'b0}};
        tlast_reg <= 1'b0;
        sent_reg <= 8'd0;
        sent_nz_reg <= 1'b0;
        link_sent_reg <= 1'b0;
        last_link_reg <= 1'b0;
        refresh_acc_reg <= 34'd0;
        refresh_ge_reg <= 1'b0;
        link_acc_reg <= 34'd0;
        link_ge_reg <= 1'b0;
        ev_xoff_reg <= 8'd0;
        ev_xon_reg <= 8'd0;
        ev_link_xoff_reg <= 1'b0;
        ev_link_xon_reg <= 1'b0;
        stat_link_xoff_reg <= 32'd0;
        stat_link_xon_reg <= 32'd0;
        stat_xoff_reg <= {8*32{1'b0}};
        stat_xon_reg <= {8*32{1'b0}};
    end
end

endmodule

`resetall
