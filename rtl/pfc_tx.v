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

// The output beat is a register.  Beat 0 (destination MAC, start of the source MAC) is loaded
// when a frame starts; the clock it is accepted (the freeze) loads beat 1 (octets that do not
// depend on the content) and a shift register with octets 2*BEAT_BYTES up to the end of the PFC
// fields, built from the content being frozen; later beats shift out of it (zeros behind it
// are the padding), except the FCS.  So no beat is selected by a wide multiplexer.
// offset of the last beat, and the beat before the one that holds octet 60 (the first FCS
// octet): the FCS is computed the clock that beat is accepted, from the CRC of the octets
// before it and the zeros from it to octet 59 (it starts in the padding at both widths)
localparam [6:0] LAST_OFF = ((FRAME_LEN - 7'd1) / BEAT_BYTES) * BEAT_BYTES;
localparam [6:0] FCS_BEAT_OFF = (DATA_LEN / BEAT_BYTES) * BEAT_BYTES;
localparam [6:0] PRE_FCS_OFF = FCS_BEAT_OFF - BEAT_BYTES;
localparam integer FCS_ZEROS = 60 - ((60 / KEEP_WIDTH) * KEEP_WIDTH - KEEP_WIDTH);
// octets in the shift register: from 2*BEAT_BYTES to the end of the PFC fields (octet 33),
// rounded up to whole beats
localparam integer SR_END = ((34 + KEEP_WIDTH - 1) / KEEP_WIDTH) * KEEP_WIDTH;
localparam integer SR_BITS = (SR_END - 2 * KEEP_WIDTH) * 8;
localparam [32*32-1:0] CRC_STATE_COLS = crc32_state_cols(KEEP_WIDTH);
localparam [32*32-1:0] CRC_ZERO_COLS = crc32_state_cols(FCS_ZEROS);
localparam [DATA_WIDTH*32-1:0] CRC_DATA_COLS = crc32_data_cols(KEEP_WIDTH);
// octets of the last beat
localparam [KEEP_WIDTH-1:0] LAST_KEEP = {KEEP_WIDTH{1'b1}} >> (LAST_OFF + BEAT_BYTES - FRAME_LEN);

// frame state
reg        tvalid_reg, tvalid_next;
reg [6:0]  offset_reg, offset_next;    // octet offset of the beat on the bus
reg [6:0]  next_off_reg, next_off_next; // offset_reg + BEAT_BYTES
reg        frozen_reg, frozen_next;    // content latched (first beat accepted)
reg        link_reg, link_next;        // the current frame is an 802.3x PAUSE
reg [7:0]  start_en_reg, start_en_next; // enable bits that started the frame
reg [7:0]  en_reg, en_next;            // frozen class-enable vector
reg [7:0]  xoff_reg, xoff_next;        // frozen state of the enabled priorities
reg        link_xoff_reg, link_xoff_next;
reg [31:0] crc_reg, crc_next;          // CRC of the beats accepted so far
reg [31:0] fcs_reg, fcs_next;          // FCS (complemented), once computed

reg [SR_BITS-1:0]    sr_reg, sr_next;   // octets after the next beat, octet 2*BEAT_BYTES first
reg [DATA_WIDTH-1:0] tdata_reg, tdata_next;
reg [KEEP_WIDTH-1:0] tkeep_reg, tkeep_next;
reg                  tlast_reg, tlast_next;

// advertised state
reg [7:0]  sent_reg, sent_next;
reg        link_sent_reg, link_sent_next;
reg        last_link_reg, last_link_next; // kind of the last frame (fair choice)

// refresh timers: quanta since the last frame was frozen, 16 fraction bits, saturating.  The
// accumulator runs one clock ahead (it restarts at one step, not 0) and the comparison with the
// limit is registered, so due_reg is what "accumulator >= limit" was in the unpipelined form,
// with no compare between the accumulator and the frame start.
reg [33:0] refresh_acc_reg, refresh_acc_next;
reg        refresh_ge_reg, refresh_ge_next;
reg [33:0] link_acc_reg, link_acc_next;
reg        link_ge_reg, link_ge_next;

// counted the clock after the last beat was accepted
reg [7:0]  ev_xoff_reg, ev_xon_reg;
reg        ev_link_xoff_reg, ev_link_xon_reg;
reg [8*32-1:0] stat_xoff_reg;   // priority k at [k*32 +: 32]
reg [8*32-1:0] stat_xon_reg;
reg [31:0] stat_link_xoff_reg;
reg [31:0] stat_link_xon_reg;

wire       link_req = LINK_PAUSE_ENABLE != 0 ? req_link_pause : 1'b0;
wire [7:0] changed = req_xoff ^ sent_reg;
wire [33:0] refresh_limit = {2'b00, cfg_refresh_quanta, 16'd0};
wire       refresh_on = cfg_refresh_quanta != 16'd0;
wire       refresh_due = refresh_on && refresh_ge_reg && sent_reg != 8'd0;
wire       link_refresh_due = refresh_on && link_ge_reg && link_sent_reg;
wire       pfc_need = changed != 8'd0 || refresh_due;
wire       link_need = (link_req ^ link_sent_reg) || link_refresh_due;

// live content (before the first beat is accepted)
wire [7:0] en_live = changed | req_xoff | start_en_reg;

wire accept = tvalid_reg && m_axis_tready;

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

integer i, j, k;  // one loop variable per always block (Yosys: one driver each)
reg [6:0]  idx;
reg [31:0] crc_beat;    // crc_reg updated with the beat on the bus
reg [31:0] fcs_now;     // the FCS, valid the clock the beat at PRE_FCS_OFF is accepted
reg [DATA_WIDTH-1:0] beat_next; // the beat after the one on the bus, once frozen
reg [DATA_WIDTH-1:0] beat_one;  // beat 1
reg [SR_BITS-1:0]    sr_load;   // octets 2*BEAT_BYTES .. SR_END-1 of the content being frozen

always @* begin
    // CRC: the beat on the bus is a register, so this is a function of registers only
    // (CRC-32 is linear: the XOR of precomputed columns, a flat XOR tree per bit instead of
    // a sequence of octet steps)
    crc_beat = 32'd0;
    fcs_now = 32'd0;
    for (i = 0; i < 32; i = i + 1) begin
        if (crc_reg[i]) begin
            crc_beat = crc_beat ^ CRC_STATE_COLS[i*32 +: 32];
            fcs_now = fcs_now ^ CRC_ZERO_COLS[i*32 +: 32];
        end
    end
    for (i = 0; i < DATA_WIDTH; i = i + 1) begin
        if (tdata_reg[i]) begin
            crc_beat = crc_beat ^ CRC_DATA_COLS[i*32 +: 32];
        end
    end
    fcs_now = ~fcs_now;

    // beat 1 and the shift register, from the content as it is frozen this clock (the live
    // values: the freeze is the clock they are latched) and link_reg (set at the start)
    for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
        beat_one[i*8 +: 8] = frame_byte(BEAT_BYTES + i[6:0], cfg_src_mac, link_reg, en_live,
                                        time_live, link_time_live);
    end
    for (i = 0; i < SR_BITS / 8; i = i + 1) begin
        sr_load[i*8 +: 8] = frame_byte(2 * BEAT_BYTES + i[6:0], cfg_src_mac, link_reg, en_live,
                                       time_live, link_time_live);
    end

    idx = 7'd0;
    // after the freeze: the head of the shift register, or the FCS.  Offsets are multiples of
    // BEAT_BYTES, so lane i of the beat at next_off is octet next_off | i.
    beat_next = sr_reg[DATA_WIDTH-1:0];
    if (FCS_ENABLE != 0 && ge_const(next_off_reg, FCS_BEAT_OFF)) begin
        for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
            idx = next_off_reg | i[6:0];
            if (!ge_const(idx, DATA_LEN)) begin
                beat_next[i*8 +: 8] = 8'h00;
            end else if (!ge_const(idx, PRE_FCS_OFF + 2 * BEAT_BYTES)) begin
                // FCS, least significant octet first: the beat after PRE_FCS_OFF takes it
                // from fcs_now, later beats (8 bits only) from fcs_reg
                beat_next[i*8 +: 8] = fcs_now[{idx[1:0], 3'd0} +: 8];
            end else begin
                beat_next[i*8 +: 8] = fcs_reg[{idx[1:0], 3'd0} +: 8];
            end
        end
    end
end

always @* begin
    j = 0;
    tvalid_next = tvalid_reg;
    offset_next = offset_reg;
    next_off_next = next_off_reg;
    frozen_next = frozen_reg;
    link_next = link_reg;
    start_en_next = start_en_reg;
    en_next = en_reg;
    xoff_next = xoff_reg;
    link_xoff_next = link_xoff_reg;
    crc_next = crc_reg;
    fcs_next = fcs_reg;
    tdata_next = tdata_reg;
    sr_next = sr_reg;
    tkeep_next = tkeep_reg;
    tlast_next = tlast_reg;
    sent_next = sent_reg;
    link_sent_next = link_sent_reg;
    last_link_next = last_link_reg;

    refresh_acc_next = refresh_acc_reg;
    refresh_ge_next = refresh_acc_reg >= refresh_limit;
    if (!refresh_ge_next) begin
        refresh_acc_next = refresh_acc_reg + {10'd0, cfg_quanta_step};
    end
    link_acc_next = link_acc_reg;
    link_ge_next = link_acc_reg >= refresh_limit;
    if (!link_ge_next) begin
        link_acc_next = link_acc_reg + {10'd0, cfg_quanta_step};
    end

    if (!tvalid_reg || !frozen_reg) begin
        // content follows the requests until the first beat is accepted
        en_next = en_live;
        xoff_next = req_xoff & en_live;
        link_xoff_next = link_req;
    end

    if (accept) begin
        offset_next = next_off_reg;
        next_off_next = next_off_reg + BEAT_BYTES;
        crc_next = crc_beat;
        if (offset_reg == PRE_FCS_OFF) begin
            fcs_next = fcs_now;
        end
        tdata_next = frozen_reg ? beat_next : beat_one;
        sr_next = frozen_reg ? (sr_reg >> DATA_WIDTH) : sr_load;
        tkeep_next = next_off_reg == LAST_OFF ? LAST_KEEP : {KEEP_WIDTH{1'b1}};
        tlast_next = next_off_reg == LAST_OFF;
        if (!frozen_reg) begin
            // first beat accepted: freeze the content, it is now what the partner will see
            frozen_next = 1'b1;
            if (link_reg) begin
                link_sent_next = link_xoff_next;
                link_acc_next = {10'd0, cfg_quanta_step};
                link_ge_next = 1'b0;
            end else begin
                sent_next = (sent_reg & ~en_next) | xoff_next;
                refresh_acc_next = {10'd0, cfg_quanta_step};
                refresh_ge_next = 1'b0;
            end
        end
        if (tlast_reg) begin
            tvalid_next = 1'b0;
        end
    end

    // start a frame when idle, or right after the last beat
    if (!tvalid_reg || (accept && tlast_reg)) begin
        if (pfc_need && (!link_need || last_link_reg)) begin
            tvalid_next = 1'b1;
            link_next = 1'b0;
            last_link_next = 1'b0;
            start_en_next = changed | req_xoff;
        end else if (link_need) begin
            tvalid_next = 1'b1;
            link_next = 1'b1;
            last_link_next = 1'b1;
            start_en_next = 8'd0;
        end
        offset_next = 7'd0;
        next_off_next = BEAT_BYTES;
        frozen_next = 1'b0;
        crc_next = 32'hFFFFFFFF;
        // beat 0: destination MAC and the start of the source MAC, the same for both kinds
        for (j = 0; j < KEEP_WIDTH; j = j + 1) begin
            tdata_next[j*8 +: 8] = frame_byte(j[6:0], cfg_src_mac, 1'b0, 8'd0, 128'd0, 16'd0);
        end
        tkeep_next = {KEEP_WIDTH{1'b1}};
        tlast_next = 1'b0;
        if (!(pfc_need || link_need)) begin
            start_en_next = 8'd0;
        end
    end
end

always @(posedge clk) begin
    tvalid_reg <= tvalid_next;
    offset_reg <= offset_next;
    next_off_reg <= next_off_next;
    frozen_reg <= frozen_next;
    link_reg <= link_next;
    start_en_reg <= start_en_next;
    en_reg <= en_next;
    xoff_reg <= xoff_next;
    link_xoff_reg <= link_xoff_next;
    sr_reg <= sr_next;
    crc_reg <= crc_next;
    fcs_reg <= fcs_next;
    tdata_reg <= tdata_next;
    tkeep_reg <= tkeep_next;
    tlast_reg <= tlast_next;
    sent_reg <= sent_next;
    link_sent_reg <= link_sent_next;
    last_link_reg <= last_link_next;
    refresh_acc_reg <= refresh_acc_next;
    refresh_ge_reg <= refresh_ge_next;
    link_acc_reg <= link_acc_next;
    link_ge_reg <= link_ge_next;

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
        link_reg <= 1'b0;
        start_en_reg <= 8'd0;
        crc_reg <= 32'hFFFFFFFF;
        tkeep_reg <= {KEEP_WIDTH{1'b0}};
        tlast_reg <= 1'b0;
        sent_reg <= 8'd0;
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
