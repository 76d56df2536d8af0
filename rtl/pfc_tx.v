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

// frame state
reg        tvalid_reg, tvalid_next;
reg [6:0]  offset_reg, offset_next;    // octet offset of the current beat
reg        frozen_reg, frozen_next;    // content latched (first beat accepted)
reg        link_reg, link_next;        // the current frame is an 802.3x PAUSE
reg [7:0]  start_en_reg, start_en_next; // enable bits that started the frame
reg [7:0]  en_reg, en_next;            // frozen class-enable vector
reg [7:0]  xoff_reg, xoff_next;        // frozen state of the enabled priorities
reg [127:0] time_reg, time_next;     // frozen times
reg        link_xoff_reg, link_xoff_next;
reg [15:0] link_time_reg, link_time_next;
reg [31:0] crc_reg, crc_next;

// advertised state
reg [7:0]  sent_reg, sent_next;
reg        link_sent_reg, link_sent_next;
reg        last_link_reg, last_link_next; // kind of the last frame (fair choice)

// refresh timers: quanta since the last frame was frozen, 16 fraction bits, saturating
reg [33:0] refresh_acc_reg, refresh_acc_next;
reg [33:0] link_acc_reg, link_acc_next;

reg [8*32-1:0] stat_xoff_reg;   // priority k at [k*32 +: 32]
reg [8*32-1:0] stat_xon_reg;
reg [31:0] stat_link_xoff_reg;
reg [31:0] stat_link_xon_reg;

// current beat
reg [DATA_WIDTH-1:0] tdata;
reg [KEEP_WIDTH-1:0] tkeep;
reg                  tlast;
reg [31:0]           crc_beat;

wire       link_req = LINK_PAUSE_ENABLE != 0 ? req_link_pause : 1'b0;
wire [7:0] changed = req_xoff ^ sent_reg;
wire [33:0] refresh_limit = {2'b00, cfg_refresh_quanta, 16'd0};
wire       refresh_on = cfg_refresh_quanta != 16'd0;
wire       refresh_due = refresh_on && refresh_acc_reg >= refresh_limit && sent_reg != 8'd0;
wire       link_refresh_due = refresh_on && link_acc_reg >= refresh_limit && link_sent_reg;
wire       pfc_need = changed != 8'd0 || refresh_due;
wire       link_need = (link_req ^ link_sent_reg) || link_refresh_due;

// live content (before the first beat is accepted)
wire [7:0] en_live = changed | req_xoff | start_en_reg;

wire accept = tvalid_reg && m_axis_tready;

assign m_axis_tdata = tdata;
assign m_axis_tkeep = tkeep;
assign m_axis_tvalid = tvalid_reg;
assign m_axis_tlast = tlast;
assign m_axis_tuser = 1'b0;
assign busy = tvalid_reg;
assign stat_xoff_frames = stat_xoff_reg;
assign stat_xon_frames = stat_xon_reg;
assign stat_link_xoff_frames = stat_link_xoff_reg;
assign stat_link_xon_frames = stat_link_xon_reg;

// live times: XOFF quanta for enabled priorities in XOFF, 0 (XON) otherwise
wire [127:0] time_live;

genvar g;
generate
    for (g = 0; g < 8; g = g + 1) begin : live_times
        assign time_live[g*16 +: 16] = req_xoff[g] && en_live[g] ? cfg_pause_quanta[g*16 +: 16]
                                                                 : 16'd0;
    end
endgenerate

// octet idx of the frame (idx < 60), from the frozen content
function [7:0] frame_byte;
    input [6:0] idx;
    input [47:0] src;
    input        link;
    input [7:0]  en;
    input [127:0] times;
    input [15:0] link_time;
    reg [2:0] t;   // time index (idx - 18) / 2, modulo 8
    begin
        t = idx[3:1] - 3'd1;
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
                // times, priority 0 first, big endian (octets 18..33)
                if (!link && idx >= 7'd18 && idx < 7'd34) begin
                    frame_byte = times[{t, !idx[0], 3'd0} +: 8];
                end
            end
        endcase
    end
endfunction

integer i, k;
reg [6:0] idx;

always @* begin
    crc_beat = crc_reg;
    tdata = {DATA_WIDTH{1'b0}};
    tkeep = {KEEP_WIDTH{1'b0}};
    for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
        idx = offset_reg + i[6:0];
        if (idx < DATA_LEN) begin
            tdata[i*8 +: 8] = frame_byte(idx, cfg_src_mac, link_reg, en_reg, time_reg,
                                         link_time_reg);
            crc_beat = crc32_byte(crc_beat, tdata[i*8 +: 8]);
            tkeep[i] = 1'b1;
        end else if (idx < FRAME_LEN) begin
            // FCS: complement of the CRC, least significant octet first
            tdata[i*8 +: 8] = ~crc_beat[{idx[1:0], 3'd0} +: 8];
            tkeep[i] = 1'b1;
        end
    end
    tlast = {1'b0, offset_reg} + {1'b0, BEAT_BYTES} >= {1'b0, FRAME_LEN};
end

always @* begin
    tvalid_next = tvalid_reg;
    offset_next = offset_reg;
    frozen_next = frozen_reg;
    link_next = link_reg;
    start_en_next = start_en_reg;
    en_next = en_reg;
    xoff_next = xoff_reg;
    time_next = time_reg;
    link_xoff_next = link_xoff_reg;
    link_time_next = link_time_reg;
    crc_next = crc_reg;
    sent_next = sent_reg;
    link_sent_next = link_sent_reg;
    last_link_next = last_link_reg;

    refresh_acc_next = refresh_acc_reg;
    if (refresh_acc_reg < refresh_limit) begin
        refresh_acc_next = refresh_acc_reg + {10'd0, cfg_quanta_step};
    end
    link_acc_next = link_acc_reg;
    if (link_acc_reg < refresh_limit) begin
        link_acc_next = link_acc_reg + {10'd0, cfg_quanta_step};
    end

    if (!tvalid_reg || !frozen_reg) begin
        // content follows the requests until the first beat is accepted
        en_next = en_live;
        xoff_next = req_xoff & en_live;
        time_next = time_live;
        link_xoff_next = link_req;
        link_time_next = link_req ? cfg_link_pause_quanta : 16'd0;
    end

    if (accept) begin
        offset_next = offset_reg + BEAT_BYTES;
        crc_next = crc_beat;
        if (!frozen_reg) begin
            // first beat accepted: freeze the content, it is now what the partner will see
            frozen_next = 1'b1;
            if (link_reg) begin
                link_sent_next = link_xoff_next;
                link_acc_next = 34'd0;
            end else begin
                sent_next = (sent_reg & ~en_next) | xoff_next;
                refresh_acc_next = 34'd0;
            end
        end
        if (tlast) begin
            tvalid_next = 1'b0;
        end
    end

    // start a frame when idle, or right after the last beat
    if (!tvalid_reg || (accept && tlast)) begin
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
        frozen_next = 1'b0;
        crc_next = 32'hFFFFFFFF;
        if (!(pfc_need || link_need)) begin
            start_en_next = 8'd0;
        end
    end
end

always @(posedge clk) begin
    tvalid_reg <= tvalid_next;
    offset_reg <= offset_next;
    frozen_reg <= frozen_next;
    link_reg <= link_next;
    start_en_reg <= start_en_next;
    en_reg <= en_next;
    xoff_reg <= xoff_next;
    time_reg <= time_next;
    link_xoff_reg <= link_xoff_next;
    link_time_reg <= link_time_next;
    crc_reg <= crc_next;
    sent_reg <= sent_next;
    link_sent_reg <= link_sent_next;
    last_link_reg <= last_link_next;
    refresh_acc_reg <= refresh_acc_next;
    link_acc_reg <= link_acc_next;

    // frames are counted when their last beat is accepted
    if (accept && tlast) begin
        if (link_reg) begin
            if (link_xoff_reg) begin
                stat_link_xoff_reg <= stat_link_xoff_reg + 32'd1;
            end else begin
                stat_link_xon_reg <= stat_link_xon_reg + 32'd1;
            end
        end else begin
            for (k = 0; k < 8; k = k + 1) begin
                if (en_reg[k] && xoff_reg[k]) begin
                    stat_xoff_reg[k*32 +: 32] <= stat_xoff_reg[k*32 +: 32] + 32'd1;
                end
                if (en_reg[k] && !xoff_reg[k]) begin
                    stat_xon_reg[k*32 +: 32] <= stat_xon_reg[k*32 +: 32] + 32'd1;
                end
            end
        end
    end

    if (rst) begin
        tvalid_reg <= 1'b0;
        offset_reg <= 7'd0;
        frozen_reg <= 1'b0;
        link_reg <= 1'b0;
        start_en_reg <= 8'd0;
        crc_reg <= 32'hFFFFFFFF;
        sent_reg <= 8'd0;
        link_sent_reg <= 1'b0;
        last_link_reg <= 1'b0;
        refresh_acc_reg <= 34'd0;
        link_acc_reg <= 34'd0;
        stat_link_xoff_reg <= 32'd0;
        stat_link_xon_reg <= 32'd0;
        stat_xoff_reg <= {8*32{1'b0}};
        stat_xon_reg <= {8*32{1'b0}};
    end
end

endmodule

`resetall
