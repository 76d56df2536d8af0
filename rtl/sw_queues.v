/*
 * sw_queues: the switch core's queue lists, one per (egress port, queue): frames linked by
 * their head cells, head and tail of each list, its frame count, and the frame-link RAM
 * (next frame of the same queue, indexed by head cell).
 *
 * One enqueue and one dequeue commit per clock, each as a one-hot over the queues.  The
 * enqueue is registered after the decision stage (enq_*): the queue of the frame at the
 * decision head comes in a clock ahead (s_enq_q), and its list's tail and whether it holds a
 * frame are registered then (enq_tail_reg / enq_ne_reg, forwarded from the enqueue applied in
 * that clock when it is to the same queue), so the frame-link write of the enqueue starts at
 * registers.  Per queue, the flags q_ne_reg / q_gt1_reg / q_gt2_reg (count != 0, > 1, > 2)
 * are kept with the count: the count moves by one at most, so each flag follows from its
 * neighbour and the scheduler and the list updates test flags instead of comparing counts.
 *
 * The frame-link RAM is read for the dequeue at the read stage's capture (rd_head_next, the
 * clock before the slot) through its output register; a link written in that clock or in the
 * slot itself is not in the read, so it is bypassed (byp_*_reg; the later write wins).  A
 * write to the tail of a queue that a dequeue empties in the same clock is harmless: that
 * frame's link is never read again.
 *
 * Interfaces:
 *   s_enq_q           the queue {port, queue} of the frame at the decision head (this clock,
 *                     whether or not it is enqueued)
 *   enq_valid         an enqueue applied this clock (registered after the decision stage),
 *                     to the queue enq_oh (one-hot), frame head cell enq_cell
 *   deq_oh            the dequeue commit of this clock (one-hot)
 *   rd_head_next      the head cell the read stage captures now (its dequeue commits two
 *                     clocks later); rd_head: the same, a clock later
 *   q_head, q_ne      each queue's head cell and "holds frames" (queue {p, q} at [p*8 + q])
 *   q_cnt             each queue's frame count (the benches watch it)
 *
 * Latency: a commit moves head, tail, count and flags on the next clock; the next head of a
 * dequeue is the frame link read two clocks before the commit (addressed at the capture).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_queues #(
    // number of ports
    parameter PORT_COUNT = 4,
    // cells in the shared buffer
    parameter BUFFER_CELLS = 256,
    // cell index width, $clog2(BUFFER_CELLS)
    parameter CA_W = 8,
    // frame count width of a queue, $clog2(BUFFER_CELLS + 1)
    parameter CNT_W = 9,
    // queue index width {port, queue}: $clog2(PORT_COUNT) + 3
    parameter QN_W = 5
) (
    input  wire                           clk,
    input  wire                           rst,

    /*
     * Enqueue (decision stage)
     */
    input  wire [QN_W-1:0]                s_enq_q,
    input  wire                           enq_valid,
    input  wire [PORT_COUNT*8-1:0]        enq_oh,
    input  wire [CA_W-1:0]                enq_cell,

    /*
     * Dequeue (read stage)
     */
    input  wire [PORT_COUNT*8-1:0]        deq_oh,
    input  wire [CA_W-1:0]                rd_head_next,
    input  wire [CA_W-1:0]                rd_head,

    /*
     * Queue state
     */
    output wire [PORT_COUNT*8*CA_W-1:0]   q_head,
    output wire [PORT_COUNT*8-1:0]        q_ne,
    output wire [PORT_COUNT*8*CNT_W-1:0]  q_cnt
);

localparam QN = PORT_COUNT * 8;

// the next frame of a dequeued one (frame-link RAM or its bypass)
wire [CA_W-1:0]      deq_fnext;
wire [QN*CA_W-1:0]   q_tail;

// ---------------------------------------------------------------------------- lists
genvar gp, gq;
generate
    for (gp = 0; gp < PORT_COUNT; gp = gp + 1) begin : port
        for (gq = 0; gq < 8; gq = gq + 1) begin : queue
            reg  [CA_W-1:0]  q_head_reg;
            reg  [CA_W-1:0]  q_tail_reg;
            reg  [CNT_W-1:0] q_cnt_reg;
            reg              q_ne_reg, q_gt1_reg, q_gt2_reg;
            wire             enq_i = enq_oh[gp*8 + gq];
            wire             deq_i = deq_oh[gp*8 + gq];

            always @(posedge clk) begin
                q_cnt_reg <= q_cnt_reg + {{(CNT_W-1){1'b0}}, enq_i}
                             - {{(CNT_W-1){1'b0}}, deq_i};
                if (enq_i && !deq_i) begin
                    q_ne_reg <= 1'b1;
                    q_gt1_reg <= q_ne_reg;
                    q_gt2_reg <= q_gt1_reg;
                end else if (deq_i && !enq_i) begin
                    q_ne_reg <= q_gt1_reg;
                    q_gt1_reg <= q_gt2_reg;
                    q_gt2_reg <= {{(32-CNT_W){1'b0}}, q_cnt_reg} > 3;
                end else begin
                    q_gt2_reg <= {{(32-CNT_W){1'b0}}, q_cnt_reg} > 2;
                end
                // count > 1: q_gt1_reg; count == deq_i: (deq_i ? count == 1 : count == 0)
                if (deq_i && q_gt1_reg) begin
                    q_head_reg <= deq_fnext;
                end else if (enq_i && (deq_i ? (q_ne_reg && !q_gt1_reg) : !q_ne_reg)) begin
                    q_head_reg <= enq_cell;
                end
                if (enq_i) begin
                    q_tail_reg <= enq_cell;
                end
                if (rst) begin
                    q_head_reg <= {CA_W{1'b0}};
                    q_tail_reg <= {CA_W{1'b0}};
                    q_cnt_reg <= {CNT_W{1'b0}};
                    q_ne_reg <= 1'b0;
                    q_gt1_reg <= 1'b0;
                    q_gt2_reg <= 1'b0;
                end
            end

            assign q_head[(gp*8 + gq)*CA_W +: CA_W] = q_head_reg;
            assign q_tail[(gp*8 + gq)*CA_W +: CA_W] = q_tail_reg;
            assign q_cnt[(gp*8 + gq)*CNT_W +: CNT_W] = q_cnt_reg;
            assign q_ne[gp*8 + gq] = q_ne_reg;
        end
    end
endgenerate

// ---------------------------------------------------------------------------- enqueue
// the queue's tail and whether it holds a frame when the enqueue is applied: the enqueue
// being applied now may be to the same queue
reg  [QN_W-1:0]      enq_q_reg;
reg  [CA_W-1:0]      enq_tail_reg;
reg                  enq_ne_reg;
always @(posedge clk) begin
    enq_q_reg <= s_enq_q;
    if (enq_valid && enq_q_reg == s_enq_q) begin
        enq_tail_reg <= enq_cell;
        enq_ne_reg <= 1'b1;
    end else begin
        enq_tail_reg <= q_tail[s_enq_q*CA_W +: CA_W];
        enq_ne_reg <= q_ne[s_enq_q];
    end
end

// ---------------------------------------------------------------------------- frame links
// next-frame link of the queue's tail frame
wire                 fnext_we = enq_valid && enq_ne_reg;
wire [CA_W-1:0]      fnext_rd;

sw_ram #(.WIDTH(CA_W), .DEPTH(BUFFER_CELLS), .ADDR_W(CA_W), .OUT_REG(1)) fnext_ram_inst (
    .clk(clk), .wr_en(fnext_we), .wr_addr(enq_tail_reg), .wr_data(enq_cell),
    .rd_en(1'b1), .rd_addr(rd_head_next), .rd_data(fnext_rd));

// the frame-link write one clock back (the read addressed then misses it too)
reg                  fnext_we_d_reg;
reg  [CA_W-1:0]      enq_tail_d_reg;
reg  [CA_W-1:0]      enq_cell_d_reg;
reg                  byp_valid_reg;
reg  [CA_W-1:0]      byp_cell_reg;
always @(posedge clk) begin
    fnext_we_d_reg <= fnext_we;
    enq_tail_d_reg <= enq_tail_reg;
    enq_cell_d_reg <= enq_cell;
    byp_valid_reg <= (fnext_we && enq_tail_reg == rd_head)
                     || (fnext_we_d_reg && enq_tail_d_reg == rd_head);
    byp_cell_reg <= (fnext_we && enq_tail_reg == rd_head) ? enq_cell : enq_cell_d_reg;
    if (rst) begin
        fnext_we_d_reg <= 1'b0;
        byp_valid_reg <= 1'b0;
    end
end
assign deq_fnext = byp_valid_reg ? byp_cell_reg : fnext_rd;

endmodule

`resetall
