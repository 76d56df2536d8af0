/*
 * sw_decide: the decision stage of the switch core.  Every completed frame waits in the
 * pending FIFO, in completion order; mmu_core answers the good ones in request order (the
 * same order) a fixed number of clocks after the request, with no back-pressure, and its
 * responses wait in the response FIFO.  The stage takes the head of the pending FIFO: a good
 * frame with the response at the head of the response FIFO is admitted -> enqueued on its
 * (egress port, queue) frame list, or dropped -> handed to the walker; a bad frame (or one
 * the ingress did not forward) goes to the walker without a response, and a frame that holds
 * no cell is simply popped (docs/switch_core.md "Admission core").
 *
 * Each deep FIFO (pending PEND_DEPTH, responses PEND_DEPTH) is followed by a 2-entry FIFO
 * that the decision pops (pend_head_inst, resp_head_inst): the head reload the decision
 * drives is a 2:1 select beside the decision logic, while the deep FIFO's read moves on
 * registered handshakes.  One clock more from the deep FIFO to the decision; two entries more
 * of capacity.  There are never more responses waiting than good frames pending, so the
 * response FIFOs cannot overflow.
 *
 * Interfaces:
 *   s_pend_*          a completed frame from the write stage: {tag, iport, pg, eport, queue,
 *                     len, head, cells, good, eport_ok, empty} (the three flags computed at
 *                     the push, so the decision tests bits, not fields)
 *   s_resp_*          mmu_core's response (valid, admit, cells, tag); no ready
 *   m_walk_*          a dropped frame's {head, cells} to the walker
 *   enq_valid         this clock's decision enqueues the frame at the head (to sw_status)
 *   enq_q             the queue {eport, queue} of the frame at the head (sw_queues registers
 *                     its tail a clock ahead)
 *   m_enq_*           the enqueue, registered: valid, head cell, descriptor {len, iport, pg,
 *                     cells, len <= word, len <= cell}, queue one-hot; sw_queues links the
 *                     frame and the descriptor RAM is written from these registers
 *   stat_drop_admission  frames dropped by mmu_core, per ingress port at [p*32 +: 32]
 *   err_response      sticky: a response whose tag (or, admitted, cells) does not match the
 *                     good frame at the pending head
 *
 * Latency: a pushed frame reaches the head through the deep FIFO's input register and head
 * and the 2-entry FIFO's head (a response through the two heads); the decision and the pops
 * in the clock the head and its response are there, combinational; the enqueue registered one
 * clock after it (m_enq_*); err_response two clocks after a mismatch is at the head (the
 * compare is registered).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_decide #(
    // number of ports
    parameter PORT_COUNT = 4,
    // stream width in bits (bounds the rate at which frames complete)
    parameter DATA_WIDTH = 64,
    // bytes per buffer word and per cell (the descriptor's two length flags)
    parameter WORD_BYTES = 64,
    parameter CELL_BYTES = 256,
    // port number width, $clog2(PORT_COUNT)
    parameter P_W = 2,
    // cell address width
    parameter CA_W = 8,
    // admission counter width in cells (mmu_core CELL_W)
    parameter CELL_W = 16,
    // frame length width in bytes
    parameter LEN_W = 14,
    // admission request tag width
    parameter TAG_W = 8
) (
    input  wire                        clk,
    input  wire                        rst,

    /*
     * Completed frames from the write stage
     */
    input  wire                        s_pend_valid,
    output wire                        s_pend_ready,
    input  wire [TAG_W+P_W+3+P_W+3+LEN_W+CA_W+CELL_W+3-1:0] s_pend_data,

    /*
     * mmu_core's responses (no back-pressure)
     */
    input  wire                        s_resp_valid,
    input  wire                        s_resp_admit,
    input  wire [CELL_W-1:0]           s_resp_cells,
    input  wire [TAG_W-1:0]            s_resp_tag,

    /*
     * Dropped frames to the walker
     */
    output wire                        m_walk_valid,
    input  wire                        m_walk_ready,
    output wire [CA_W-1:0]             m_walk_head,
    output wire [CELL_W-1:0]           m_walk_cells,

    /*
     * Enqueue: the decision, the head's queue, and the enqueue registered
     */
    output wire                        enq_valid,
    output wire [P_W+3-1:0]            enq_q,
    output wire                        m_enq_valid,
    output wire [CA_W-1:0]             m_enq_cell,
    output wire [LEN_W+P_W+3+CELL_W+2-1:0] m_enq_desc,
    output wire [PORT_COUNT*8-1:0]     m_enq_oh,

    /*
     * Status
     */
    output wire [PORT_COUNT*32-1:0]    stat_drop_admission,
    output wire                        err_response
);

localparam QN = PORT_COUNT * 8;
localparam DESC_W = LEN_W + P_W + 3 + CELL_W + 2;
// frames waiting for their admission response (and the responses, whose FIFO cannot push back):
// frames complete at most one per clock and, per port, one per 64 bytes of beats; a response
// comes RTL_RESP_LATENCY (9) clocks after its request, some 16 clocks after the frame's push
// with the FIFOs' stages, so the depth covers 16 clocks of the fastest frames plus two
// (4 at DATA_WIDTH 8 up to 8 ports, 16 at DATA_WIDTH 64 from 4 ports; never above 16: a full
// FIFO holds the write stage back, it loses nothing)
localparam MIN_FRAME_CLOCKS = DATA_WIDTH >= 512 ? 1 : 512 / DATA_WIDTH;
localparam PEND_NEED = (16 * PORT_COUNT + MIN_FRAME_CLOCKS - 1) / MIN_FRAME_CLOCKS + 2;
localparam PEND_DEPTH = PEND_NEED <= 4 ? 4 : PEND_NEED <= 8 ? 8 : 16;
localparam PEND_PTR_W = $clog2(PEND_DEPTH);
// every completed frame, in completion order: {tag, iport, pg, eport, queue, len, head,
// cells, flags}; good frames wait here for their mmu_core response (same order)
// plus three flags computed at the push, so the decision stage tests bits, not fields:
// kind is good, the egress port exists, the frame holds no cell
localparam PEND_W = TAG_W + P_W + 3 + P_W + 3 + LEN_W + CA_W + CELL_W + 3;

// ---------------------------------------------------------------------------- pending frames
wire                pend_valid;
reg                 pend_pop;
wire [PEND_W-1:0]   pend_out;
wire [TAG_W-1:0]    ph_tag;
wire [P_W-1:0]      ph_iport;
wire [2:0]          ph_pg;
wire [P_W-1:0]      ph_eport;       // valid when ph_eport_ok
wire [2:0]          ph_queue;
wire [LEN_W-1:0]    ph_len;
wire [CA_W-1:0]     ph_head;
wire [CELL_W-1:0]   ph_cells;
wire                ph_good, ph_eport_ok, ph_empty;
assign {ph_tag, ph_iport, ph_pg, ph_eport, ph_queue, ph_len, ph_head, ph_cells,
        ph_good, ph_eport_ok, ph_empty} = pend_out;

/* verilator lint_off PINCONNECTEMPTY */
wire                pend_d_valid, pend_d_ready;
wire [PEND_W-1:0]   pend_d_data;
sw_fifo #(.WIDTH(PEND_W), .DEPTH(PEND_DEPTH), .PTR_W(PEND_PTR_W), .IN_REG(2)) pend_fifo_inst (
    .clk(clk), .rst(rst),
    .s_valid(s_pend_valid), .s_ready(s_pend_ready), .s_data(s_pend_data),
    .m_valid(pend_d_valid), .m_ready(pend_d_ready), .m_data(pend_d_data), .count());
sw_fifo #(.WIDTH(PEND_W), .DEPTH(2), .PTR_W(1)) pend_head_inst (
    .clk(clk), .rst(rst),
    .s_valid(pend_d_valid), .s_ready(pend_d_ready), .s_data(pend_d_data),
    .m_valid(pend_valid), .m_ready(pend_pop), .m_data(pend_out), .count());

// responses (mmu_core cannot be stalled): never more outstanding than good frames in the
// pending FIFOs (18 entries), so these 16 + 2 cannot overflow; 16 pending entries also cover
// mmu_core's response latency at line rate (switch benchmark: 100 %)
wire                resp_valid;
reg                 resp_pop;
wire                resp_admit;
wire [CELL_W-1:0]   resp_cells;
wire [TAG_W-1:0]    resp_tag;

wire                resp_d_valid, resp_d_ready;
wire [CELL_W+TAG_W:0] resp_d_data;
sw_fifo #(.WIDTH(1 + CELL_W + TAG_W), .DEPTH(PEND_DEPTH), .PTR_W(PEND_PTR_W)) resp_fifo_inst (
    .clk(clk), .rst(rst),
    .s_valid(s_resp_valid), .s_ready(), .s_data({s_resp_admit, s_resp_cells, s_resp_tag}),
    .m_valid(resp_d_valid), .m_ready(resp_d_ready), .m_data(resp_d_data), .count());
sw_fifo #(.WIDTH(1 + CELL_W + TAG_W), .DEPTH(2), .PTR_W(1)) resp_head_inst (
    .clk(clk), .rst(rst),
    .s_valid(resp_d_valid), .s_ready(resp_d_ready), .s_data(resp_d_data),
    .m_valid(resp_valid), .m_ready(resp_pop), .m_data({resp_admit, resp_cells, resp_tag}),
    .count());
/* verilator lint_on PINCONNECTEMPTY */

// ---------------------------------------------------------------------------- decision
// frames whose cells go back to the free list (the walker): {head, cells}
reg                  walk_push;
reg  [CA_W+CELL_W-1:0] walk_in;
reg                  enq_valid_c;
reg                  enq_valid_reg;
reg  [CA_W-1:0]      enq_cell_reg;
reg  [DESC_W-1:0]    enq_desc_reg;
reg  [QN-1:0]        enq_oh_reg, enq_oh_next;
reg  [PORT_COUNT*32-1:0] drop_adm_reg, drop_adm_next;
reg                  err_response_reg, err_response_next;
// the decision head's response check, registered (the sticky flag follows a clock later)
reg                  resp_chk_reg, resp_mis_reg;

// the decision stage's enqueue (a good frame at the pending head, admitted, its egress port in
// range) and its queue decoded, each straight from registers, so the one-hot is one AND
wire                 enq_go = pend_valid && ph_good && resp_valid && resp_admit
                              && ph_eport_ok;
wire [QN-1:0]        enq_q_dec = {{(QN-1){1'b0}}, 1'b1} << {ph_eport, ph_queue};

// per-port updates go through a loop with a constant part-select each (a variable
// part-select on the left makes Yosys build a multiplier and shifter)
integer pi;
always @* begin
    pi = 0;     // loop index only: assigned on every path, so no latch
    // head of the pending FIFO; an admitted frame is registered here (enq_*_reg) and linked
    // into its queue in the next clock
    pend_pop = 1'b0;
    resp_pop = 1'b0;
    walk_push = 1'b0;
    walk_in = {ph_head, ph_cells};
    enq_valid_c = 1'b0;
    drop_adm_next = drop_adm_reg;
    err_response_next = err_response_reg || (resp_chk_reg && resp_mis_reg);
    // the enqueue's one-hot queue: the decode of the head's queue, ANDed with the go (below)
    enq_oh_next = enq_go ? enq_q_dec : {QN{1'b0}};
    if (pend_valid) begin
        if (!ph_good) begin
            if (m_walk_ready || ph_empty) begin
                pend_pop = 1'b1;
                walk_push = !ph_empty;
            end
        end else if (resp_valid) begin
            if (resp_admit && ph_eport_ok) begin
                pend_pop = 1'b1;
                resp_pop = 1'b1;
                enq_valid_c = 1'b1;
            end else if (m_walk_ready) begin
                pend_pop = 1'b1;
                resp_pop = 1'b1;
                walk_push = 1'b1;
                for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
                    if ({{(32-P_W){1'b0}}, ph_iport} == pi) begin
                        drop_adm_next[pi*32 +: 32] = drop_adm_reg[pi*32 +: 32] + 1'b1;
                    end
                end
            end
        end
    end
end

always @(posedge clk) begin
    enq_valid_reg <= enq_valid_c;
    enq_cell_reg <= ph_head;
    enq_desc_reg <= {ph_len, ph_iport, ph_pg, ph_cells,
                     {{(32-LEN_W){1'b0}}, ph_len} <= WORD_BYTES,
                     {{(32-LEN_W){1'b0}}, ph_len} <= CELL_BYTES};
    enq_oh_reg <= enq_oh_next;
    drop_adm_reg <= drop_adm_next;
    err_response_reg <= err_response_next;
    // a good frame at the pending head with its response: tag and cells must match
    resp_chk_reg <= pend_valid && ph_good && resp_valid;
    resp_mis_reg <= resp_tag != ph_tag || (resp_admit && resp_cells != ph_cells);
    if (rst) begin
        enq_oh_reg <= {QN{1'b0}};
        enq_valid_reg <= 1'b0;
        drop_adm_reg <= {PORT_COUNT*32{1'b0}};
        err_response_reg <= 1'b0;
        resp_chk_reg <= 1'b0;
    end
end

assign m_walk_valid = walk_push;
assign m_walk_head = walk_in[CA_W+CELL_W-1:CELL_W];
assign m_walk_cells = walk_in[CELL_W-1:0];
assign enq_valid = enq_valid_c;
assign enq_q = {ph_eport, ph_queue};
assign m_enq_valid = enq_valid_reg;
assign m_enq_cell = enq_cell_reg;
assign m_enq_desc = enq_desc_reg;
assign m_enq_oh = enq_oh_reg;
assign stat_drop_admission = drop_adm_reg;
assign err_response = err_response_reg;

endmodule

`resetall
