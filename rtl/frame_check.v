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
 * otherwise ignored.  Frames arrive without FCS.  stat_errors counts the frames that landed in
 * stat_corrupt, stat_misrouted or stat_reorder (one of the three per frame), so a top needs
 * one adder per checker instead of three.
 *
 * Pipeline (the checker is a tap, so it never stalls; the counters follow the last beat by
 * six clocks):
 *
 *   in   input register (beat with missing octets zeroed, its position in the frame as a
 *        one-hot beat index)
 *   s2   header fields captured one octet at a time, expected payload octets precomputed
 *   s3   payload compare per lane; at the last beat the frame's fields are frozen and the
 *        expected sequence number of its flow and the flow's valid bit are read
 *   cmp  classification; one 33-bit subtraction gives the sequence difference and, in its
 *        borrow, "went backwards"
 *   ev   one event per counter (an in-order frame's difference, 0 if nothing was skipped, goes
 *        to lost or gaps); expected sequence number written back
 *   cnt  counters
 *
 * Timing (125 MHz on ECP5, issue 8): no stage has more than a carry chain or about three LUT
 * levels.  The flow's valid bit is an AND-OR of the valid bits with a one-hot flow (registered
 * a clock after the header fields), not a 32:1 multiplexer; a flow not seen since reset reads
 * as expected number 0, so the compare needs no separate "first frame" case.
 *
 * The expected-sequence table is read at the edge that freezes a frame (s3) and written two
 * clocks later (ev): a frame's read must see the previous frame's write, which holds because
 * a test frame has at least 22 octets, so at least three beats, and its last beat comes at
 * least three clocks after the previous frame's.  The one-hot flow is registered from the
 * header fields a clock after they are captured; the fields (octets 11 and 14) are in the
 * input register at least two clocks before a test frame's last beat reaches the freeze.
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
    output wire [31:0]           stat_errors,
    output wire                  error
);

initial begin
    if (DATA_WIDTH != 8 && DATA_WIDTH != 64) begin
        $error("frame_check: DATA_WIDTH must be 8 or 64");
        $finish;
    end
end

localparam SRC_W = (SRC_COUNT > 1) ? $clog2(SRC_COUNT) : 1;
localparam FLOWS = (1 << SRC_W) * 8;
// header octets 0..21 (MACs, tag, EtherType, sequence number); payload from octet 22
localparam HDR_OCTETS = 22;
// beats that carry header octets; the last of them carries octet 21 (the sequence LSB)
localparam HDR_BEATS = (HDR_OCTETS + KEEP_WIDTH - 1) / KEEP_WIDTH;
localparam SEQ_BEAT = HDR_BEATS - 1;
// one-hot beat index: bit j for beat j < HDR_BEATS, bit HDR_BEATS for every later beat
localparam OH_W = HDR_BEATS + 1;

// ---------------------------------------------------------------- in: input register
reg [OH_W-1:0]       oh_in_reg;       // beat index of the next input beat
reg                  v1_reg, l1_reg;
reg [DATA_WIDTH-1:0] d1_reg;
reg [KEEP_WIDTH-1:0] k1_reg;
reg [OH_W-1:0]       oh1_reg;
integer              li;              // lane loop variable of the input register

// a missing octet (tkeep low) is zeroed here, as in a frame too short to carry it, so the
// header compares below see plain octets
always @(posedge clk) begin
    v1_reg <= s_axis_tvalid && s_axis_tready;
    for (li = 0; li < KEEP_WIDTH; li = li + 1) begin
        d1_reg[8*li +: 8] <= s_axis_tkeep[li] ? s_axis_tdata[8*li +: 8] : 8'd0;
    end
    k1_reg <= s_axis_tkeep;
    l1_reg <= s_axis_tlast;
    oh1_reg <= oh_in_reg;
    if (s_axis_tvalid && s_axis_tready) begin
        if (s_axis_tlast) begin
            oh_in_reg <= {{(OH_W-1){1'b0}}, 1'b1};
        end else if (!oh_in_reg[OH_W-1]) begin
            oh_in_reg <= oh_in_reg << 1;
        end
    end
    if (rst) begin
        v1_reg <= 1'b0;
        oh_in_reg <= {{(OH_W-1){1'b0}}, 1'b1};
    end
end

// ---------------------------------------------------------------- s2: header capture
// octet k of the frame is lane k % KEEP_WIDTH of beat k / KEEP_WIDTH (zero if missing)
function [7:0] octet;
    input [DATA_WIDTH-1:0] data;
    input integer          k;
    begin
        octet = data[8 * (k % KEEP_WIDTH) +: 8];
    end
endfunction

// octet k is in the beat in the input register
function at;
    input            valid;
    input [OH_W-1:0] beat;
    input integer    k;
    begin
        at = valid && beat[k / KEEP_WIDTH];
    end
endfunction

// PCP: the top three bits of octet 14
wire [2:0] pcp_in = d1_reg[8 * (14 % KEEP_WIDTH) + 5 +: 3];

reg         dest_ok_reg, src_ok_reg, t12_reg, t13_reg, t16_reg, t17_reg;
reg [7:0]   src_reg;
reg [2:0]   prio_reg;
reg [31:0]  seq_reg;

always @(posedge clk) begin
    if (at(v1_reg, oh1_reg, 5)) dest_ok_reg <= octet(d1_reg, 5) == PORT[7:0];
    if (at(v1_reg, oh1_reg, 11)) begin
        src_reg <= octet(d1_reg, 11);
        src_ok_reg <= octet(d1_reg, 11) < SRC_COUNT[7:0];
    end
    if (at(v1_reg, oh1_reg, 12)) t12_reg <= octet(d1_reg, 12) == 8'h81;
    if (at(v1_reg, oh1_reg, 13)) t13_reg <= octet(d1_reg, 13) == 8'h00;
    if (at(v1_reg, oh1_reg, 14)) prio_reg <= pcp_in;
    if (at(v1_reg, oh1_reg, 16)) t16_reg <= octet(d1_reg, 16) == 8'h88;
    if (at(v1_reg, oh1_reg, 17)) t17_reg <= octet(d1_reg, 17) == 8'hb5;
    if (at(v1_reg, oh1_reg, 18)) seq_reg[31:24] <= octet(d1_reg, 18);
    if (at(v1_reg, oh1_reg, 19)) seq_reg[23:16] <= octet(d1_reg, 19);
    if (at(v1_reg, oh1_reg, 20)) seq_reg[15:8] <= octet(d1_reg, 20);
    if (at(v1_reg, oh1_reg, 21)) seq_reg[7:0] <= octet(d1_reg, 21);
end

// expected payload octet i = (seq[7:0] + i) ^ source port (frame_gen).  Lane b of lane_base_reg
// is seq[7:0] + the frame offset of lane b in the next payload beat; in the beat that brings
// the sequence LSB it comes from the beat itself.  s2 registers the difference of each octet
// from its expected value (XOR), so s3 only tests it for zero.
reg [DATA_WIDTH-1:0] lane_base_reg;   // lane b at [8*b +: 8]
reg [DATA_WIDTH-1:0] diff2_reg;       // octet XOR expected octet
reg [KEEP_WIDTH-1:0] pay2_reg;        // lane carries a payload octet
reg                  v2_reg, l2_reg, long2_reg;

localparam [7:0] SEQ_OFFSET = SEQ_BEAT * KEEP_WIDTH;
localparam [7:0] PAY_OFFSET = HDR_BEATS * KEEP_WIDTH;
localparam [7:0] BEAT_OCTETS = KEEP_WIDTH;
wire [7:0] seq_lsb_in = octet(d1_reg, HDR_OCTETS - 1);
integer b2;                           // lane loop variable of s2

always @(posedge clk) begin
    v2_reg <= v1_reg;
    l2_reg <= l1_reg;
    long2_reg <= oh1_reg[SEQ_BEAT] || oh1_reg[HDR_BEATS];
    for (b2 = 0; b2 < KEEP_WIDTH; b2 = b2 + 1) begin
        pay2_reg[b2] <= k1_reg[b2] && (oh1_reg[HDR_BEATS]
                       || (oh1_reg[SEQ_BEAT] && SEQ_BEAT * KEEP_WIDTH + b2 >= HDR_OCTETS));
        if (oh1_reg[SEQ_BEAT]) begin
            diff2_reg[8*b2 +: 8] <= d1_reg[8*b2 +: 8]
                                    ^ (seq_lsb_in + SEQ_OFFSET + b2[7:0]) ^ src_reg;
        end else begin
            diff2_reg[8*b2 +: 8] <= d1_reg[8*b2 +: 8] ^ lane_base_reg[8*b2 +: 8] ^ src_reg;
        end
        if (v1_reg) begin
            if (oh1_reg[SEQ_BEAT]) begin
                lane_base_reg[8*b2 +: 8] <= seq_lsb_in + PAY_OFFSET + b2[7:0];
            end else begin
                lane_base_reg[8*b2 +: 8] <= lane_base_reg[8*b2 +: 8] + BEAT_OCTETS;
            end
        end
    end
    if (rst) begin
        v2_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------- s3: compare, freeze, read
reg [KEEP_WIDTH-1:0] mis3_reg;        // payload lane differs from the pattern
reg                  v3_reg, l3_reg;
reg                  frm_test_reg, frm_route_ok_reg, frm_lossless_reg;
reg [31:0]           frm_seq_reg, frm_seq_inc_reg, frm_mem_reg;
reg                  frm_valid_reg;
reg [SRC_W+2:0]      frm_flow_reg;

// expected next sequence number per (source, priority): distributed RAM plus a valid bit per
// flow, so only the valid bits need a reset (a flow starts at 0)
reg [31:0]      exp_mem [0:FLOWS-1];
reg [FLOWS-1:0] exp_valid_reg;
wire [SRC_W+2:0] flow = {src_reg[SRC_W-1:0], prio_reg};
reg [FLOWS-1:0] flow_oh_reg;          // flow, one-hot, a clock after the header fields
integer b3;                           // lane loop variable of s3

always @(posedge clk) begin
    v3_reg <= v2_reg;
    l3_reg <= l2_reg;
    flow_oh_reg <= {{(FLOWS-1){1'b0}}, 1'b1} << flow;
    for (b3 = 0; b3 < KEEP_WIDTH; b3 = b3 + 1) begin
        mis3_reg[b3] <= pay2_reg[b3] && diff2_reg[8*b3 +: 8] != 8'd0;
    end
    if (v2_reg && l2_reg) begin
        // the header fields are complete; the next frame overwrites them from this edge on
        frm_test_reg <= long2_reg && t12_reg && t13_reg && t16_reg && t17_reg;
        frm_route_ok_reg <= dest_ok_reg && src_ok_reg;
        frm_lossless_reg <= cfg_lossless[prio_reg];
        frm_seq_reg <= seq_reg;
        frm_seq_inc_reg <= seq_reg + 1'b1;
        frm_flow_reg <= flow;
        frm_mem_reg <= exp_mem[flow];
        frm_valid_reg <= |(exp_valid_reg & flow_oh_reg);
    end
    if (rst) begin
        v3_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------- cmp: classify, compare
reg        bad_reg;                   // payload mismatch earlier in this frame
reg        cmp_end_reg, cmp_other_reg, cmp_misrouted_reg, cmp_corrupt_reg, cmp_checked_reg;
reg        cmp_back_reg, cmp_lossless_reg;
reg [31:0] cmp_diff_reg, cmp_seq_inc_reg;
reg [SRC_W+2:0] cmp_flow_reg;

wire frame_bad = bad_reg || (|mis3_reg);
wire frame_end = v3_reg && l3_reg;
// the expected number: a flow not seen since reset expects sequence number 0
wire [31:0] frm_expect = frm_valid_reg ? frm_mem_reg : 32'd0;

always @(posedge clk) begin
    if (v3_reg) begin
        bad_reg <= l3_reg ? 1'b0 : frame_bad;
    end
    cmp_end_reg <= frame_end;
    cmp_other_reg <= !frm_test_reg;
    cmp_misrouted_reg <= frm_test_reg && !frm_route_ok_reg;
    cmp_corrupt_reg <= frm_test_reg && frm_route_ok_reg && frame_bad;
    cmp_checked_reg <= frm_test_reg && frm_route_ok_reg && !frame_bad;
    // borrow: the sequence number went backwards
    {cmp_back_reg, cmp_diff_reg} <= {1'b0, frm_seq_reg} - {1'b0, frm_expect};
    cmp_lossless_reg <= frm_lossless_reg;
    cmp_flow_reg <= frm_flow_reg;
    cmp_seq_inc_reg <= frm_seq_inc_reg;
    if (rst) begin
        bad_reg <= 1'b0;
        cmp_end_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------- ev: count events, write back
// An in-order frame adds its sequence difference (0 if nothing was skipped) to lost or gaps;
// only the sticky error flag needs "skipped", from the difference's two halves.
reg        ev_other_reg, ev_misrouted_reg, ev_corrupt_reg, ev_reorder_reg, ev_ok_reg;
reg        ev_lost_reg, ev_gap_reg;
reg [31:0] ev_diff_reg;
reg [1:0]  ev_skip_reg;               // per half: the difference is not zero

wire seq_ok = cmp_end_reg && cmp_checked_reg && !cmp_back_reg;

always @(posedge clk) begin
    ev_other_reg <= cmp_end_reg && cmp_other_reg;
    ev_misrouted_reg <= cmp_end_reg && cmp_misrouted_reg;
    ev_corrupt_reg <= cmp_end_reg && cmp_corrupt_reg;
    ev_reorder_reg <= cmp_end_reg && cmp_checked_reg && cmp_back_reg;
    ev_ok_reg <= seq_ok;
    ev_lost_reg <= seq_ok && cmp_lossless_reg;
    ev_gap_reg <= seq_ok && !cmp_lossless_reg;
    ev_diff_reg <= cmp_diff_reg;
    ev_skip_reg <= {cmp_diff_reg[31:16] != 16'd0, cmp_diff_reg[15:0] != 16'd0};
    if (rst) begin
        ev_other_reg <= 1'b0;
        ev_misrouted_reg <= 1'b0;
        ev_corrupt_reg <= 1'b0;
        ev_reorder_reg <= 1'b0;
        ev_ok_reg <= 1'b0;
        ev_lost_reg <= 1'b0;
        ev_gap_reg <= 1'b0;
    end
end

always @(posedge clk) begin
    if (seq_ok) begin
        exp_mem[cmp_flow_reg] <= cmp_seq_inc_reg;
    end
end

always @(posedge clk) begin
    if (seq_ok) begin
        exp_valid_reg[cmp_flow_reg] <= 1'b1;
    end
    if (rst) begin
        exp_valid_reg <= {FLOWS{1'b0}};
    end
end

// ---------------------------------------------------------------- cnt: counters
reg [31:0] ok_reg, other_reg, corrupt_reg, misrouted_reg, reorder_reg, lost_reg, gaps_reg;
reg [31:0] errors_reg;
reg        error_reg;

always @(posedge clk) begin
    if (ev_ok_reg) ok_reg <= ok_reg + 1'b1;
    if (ev_other_reg) other_reg <= other_reg + 1'b1;
    if (ev_misrouted_reg) misrouted_reg <= misrouted_reg + 1'b1;
    if (ev_corrupt_reg) corrupt_reg <= corrupt_reg + 1'b1;
    if (ev_reorder_reg) reorder_reg <= reorder_reg + 1'b1;
    if (ev_misrouted_reg || ev_corrupt_reg || ev_reorder_reg) errors_reg <= errors_reg + 1'b1;
    if (ev_lost_reg) lost_reg <= lost_reg + ev_diff_reg;
    if (ev_gap_reg) gaps_reg <= gaps_reg + ev_diff_reg;
    // sticky: equal to "corrupt, misrouted, reorder or lost is not zero" until a counter wraps
    if (ev_misrouted_reg || ev_corrupt_reg || ev_reorder_reg || (ev_lost_reg && |ev_skip_reg)) begin
        error_reg <= 1'b1;
    end
    if (rst) begin
        ok_reg <= 32'd0;
        other_reg <= 32'd0;
        corrupt_reg <= 32'd0;
        misrouted_reg <= 32'd0;
        reorder_reg <= 32'd0;
        lost_reg <= 32'd0;
        gaps_reg <= 32'd0;
        errors_reg <= 32'd0;
        error_reg <= 1'b0;
    end
end

assign stat_frames_ok = ok_reg;
assign stat_other = other_reg;
assign stat_corrupt = corrupt_reg;
assign stat_misrouted = misrouted_reg;
assign stat_reorder = reorder_reg;
assign stat_lost = lost_reg;
assign stat_gaps = gaps_reg;
assign stat_errors = errors_reg;
assign error = error_reg;

endmodule

`resetall
