/*
 * Test-frame checker for the board self-test: sits on a switch port's output and checks the
 * frames of frame_gen (EtherType 0x88B5) byte by byte:
 *
 *  - destination MAC names this port (else stat_misrouted);
 *  - every payload byte follows the pattern of (source, sequence number) (else stat_corrupt);
 *  - per (source port, priority) the sequence number never goes backwards (stat_reorder) and,
 *    on priorities set in cfg_lossless, never skips (a skipped number is a lost lossless frame:
 *    stat_lost); on other priorities skips are counted as stat_gaps (lossy drops, expected).
 *
 * Other frames (PFC frames the switch sends to this port's link partner) are counted and
 * otherwise ignored.  Frames arrive without FCS.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module frame_check #(
    parameter DATA_WIDTH = 8,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // number of source ports tracked
    parameter SRC_COUNT = 4,
    // this checker's port number
    parameter PORT = 0
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    input  wire                  s_axis_tready,
    input  wire                  s_axis_tlast,

    input  wire [7:0]            cfg_lossless,

    output wire [31:0]           stat_frames_ok,
    output wire [31:0]           stat_other,
    output wire [31:0]           stat_corrupt,
    output wire [31:0]           stat_misrouted,
    output wire [31:0]           stat_reorder,
    output wire [31:0]           stat_lost,
    output wire [31:0]           stat_gaps,
    output wire                  error
);

localparam SRC_W = (SRC_COUNT > 1) ? $clog2(SRC_COUNT) : 1;

reg [13:0]  pos_reg;
reg [175:0] hdr_reg;             // first 22 octets, octet i at [8*i +: 8]
reg         bad_reg;             // payload or header mismatch seen in this frame
reg [31:0]  exp_seq [0:SRC_COUNT*8-1];
reg [31:0]  ok_reg, other_reg, corrupt_reg, misrouted_reg, reorder_reg, lost_reg, gaps_reg;

// header as of the end of this beat
reg [175:0] hdr;
reg         beat_bad;
integer b;
reg [13:0] idx;
always @* begin
    hdr = hdr_reg;
    for (b = 0; b < KEEP_WIDTH; b = b + 1) begin
        idx = pos_reg + b[13:0];
        if (s_axis_tkeep[b] && idx < 14'd22) begin
            hdr[8*idx +: 8] = s_axis_tdata[8*b +: 8];
        end
    end
    beat_bad = 1'b0;
    for (b = 0; b < KEEP_WIDTH; b = b + 1) begin
        idx = pos_reg + b[13:0];
        if (s_axis_tkeep[b] && idx >= 14'd22) begin
            // byte i = seq[7:0] + i ^ source port (frame_gen)
            if (s_axis_tdata[8*b +: 8] != ((hdr[8*21 +: 8] + idx[7:0]) ^ hdr[8*11 +: 8])) begin
                beat_bad = 1'b1;
            end
        end
    end
end

wire        is_test = hdr[8*12 +: 8] == 8'h81 && hdr[8*13 +: 8] == 8'h00
                   && hdr[8*16 +: 8] == 8'h88 && hdr[8*17 +: 8] == 8'hb5;
wire [7:0]  src = hdr[8*11 +: 8];
wire [2:0]  prio = hdr[8*14 + 5 +: 3];
wire [31:0] seq = {hdr[8*18 +: 8], hdr[8*19 +: 8], hdr[8*20 +: 8], hdr[8*21 +: 8]};
wire        dest_ok = hdr[8*5 +: 8] == PORT[7:0];
wire        src_ok = src < SRC_COUNT[7:0];
wire [SRC_W+2:0] flow = {src[SRC_W-1:0], prio};
wire [31:0] seq_expected = exp_seq[flow];
wire        long_enough = pos_reg + KEEP_WIDTH[13:0] >= 14'd22;

assign stat_frames_ok = ok_reg;
assign stat_other = other_reg;
assign stat_corrupt = corrupt_reg;
assign stat_misrouted = misrouted_reg;
assign stat_reorder = reorder_reg;
assign stat_lost = lost_reg;
assign stat_gaps = gaps_reg;
assign error = (corrupt_reg | misrouted_reg | reorder_reg | lost_reg) != 32'd0;

integer i;
always @(posedge clk) begin
    if (s_axis_tvalid && s_axis_tready) begin
        pos_reg <= pos_reg + KEEP_WIDTH[13:0];
        hdr_reg <= hdr;
        if (beat_bad) begin
            bad_reg <= 1'b1;
        end
        if (s_axis_tlast) begin
            pos_reg <= 14'd0;
            hdr_reg <= 176'd0;
            bad_reg <= 1'b0;
            if (!long_enough || !is_test) begin
                other_reg <= other_reg + 1'b1;
            end else if (!dest_ok || !src_ok) begin
                misrouted_reg <= misrouted_reg + 1'b1;
            end else if (bad_reg || beat_bad) begin
                corrupt_reg <= corrupt_reg + 1'b1;
            end else if (seq < seq_expected) begin
                reorder_reg <= reorder_reg + 1'b1;
            end else begin
                ok_reg <= ok_reg + 1'b1;
                exp_seq[flow] <= seq + 1'b1;
                if (seq != seq_expected) begin
                    if (cfg_lossless[prio]) begin
                        lost_reg <= lost_reg + (seq - seq_expected);
                    end else begin
                        gaps_reg <= gaps_reg + (seq - seq_expected);
                    end
                end
            end
        end
    end
    if (rst) begin
        pos_reg <= 14'd0;
        hdr_reg <= 176'd0;
        bad_reg <= 1'b0;
        ok_reg <= 32'd0;
        other_reg <= 32'd0;
        corrupt_reg <= 32'd0;
        misrouted_reg <= 32'd0;
        reorder_reg <= 32'd0;
        lost_reg <= 32'd0;
        gaps_reg <= 32'd0;
        for (i = 0; i < SRC_COUNT * 8; i = i + 1) begin
            exp_seq[i] <= 32'd0;
        end
    end
end

endmodule

`resetall
