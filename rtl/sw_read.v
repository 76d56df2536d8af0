/*
 * sw_read: the read stage of the switch core.  One read slot per clock, round robin over the
 * egress ports (the slot counters are switch_core's): an idle port starts a dequeue of the
 * queue its scheduler picks (sw_sched; the descriptor is read for the commit a clock later);
 * a reading port reads one word of its frame from the data RAM to its sw_egress, frees the
 * cell with the cell's last word and follows the cell link; the frame's last word sends the
 * release to mmu_core.  A frame dequeued from a queue in storm recovery with action drop
 * (WATCHDOG_ENABLE) is discarded whole: a cell per slot back to the free list, the same
 * release, no word out.  The next frame's dequeue can start in the slot that reads the
 * current frame's last word.
 *
 * The slot port's state is captured into rs_* in the clock before its slot (from the port's
 * registers, the scheduler's registered choice and a queue head selected a clock earlier
 * still), with the compares and the RAM address computed there, so the slot works on
 * registers.  The word read follows the data RAM's read latency through a register chain
 * (sw_pipe_reg: rdp, then rdq, rdr, rds) to the egress port's word FIFO; a port's words in
 * that chain count against its FIFO's room.
 *
 * Interfaces:
 *   slot, pslot       the slot port and the port whose slot is next clock (switch_core's
 *                     copies for the read stage)
 *   pick_*, idx_same  the scheduler's registered choice per port (sw_sched)
 *   q_head            each queue's head cell (sw_queues), queue {p, q} at [(p*8 + q)*CA_W]
 *   qdrop             queue {p, q} is in storm recovery with action drop (sw_pfc_guard)
 *   raddr_next        the data RAM's read address (registered in sw_ram: read at the slot)
 *   cell_next         the cell-link RAM's read address (its link there a clock after the slot)
 *   link_rd           the link read
 *   head_next, head   the descriptor / frame-link RAMs' read address (the head of the queue
 *                     the slot may dequeue) and its register (sw_queues)
 *   desc_rd           the descriptor read, at the dequeue commit
 *   deq_*             the dequeue commit (valid, port, queue, queue one-hot; registered)
 *   out_count         each egress port's word FIFO count; out_push, out_bytes, out_last:
 *                     the word read into port p's FIFO (the data RAM's word beside them)
 *   rd_free*          a cell freed (registered; to the walker, which frees it)
 *   rel_*             the release to mmu_core (registered, no ready)
 *
 * Latency: the capture one clock before the slot; the dequeue commit one clock after the
 * slot that issues it, the port reads from its next slot; a word read in the slot at clock t
 * is in the pipeline's stage k at t + 1 + k and pushed into its egress FIFO from the last
 * stage, at t + RD_PIPE_DEPTH, beside the data RAM's word; the release and the free are
 * registered one clock after the slot.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_read #(
    // number of ports
    parameter PORT_COUNT = 4,
    // bytes per buffer word and per cell (a multiple of the word)
    parameter WORD_BYTES = 64,
    parameter CELL_BYTES = 256,
    // word index width, $clog2(words per cell) (at least 1)
    parameter WI_W = 2,
    // cell address width
    parameter CA_W = 8,
    // data RAM address width (cells * words per cell)
    parameter ADDR_W = 10,
    // admission counter width in cells (mmu_core CELL_W)
    parameter CELL_W = 16,
    // frame length width in bytes
    parameter LEN_W = 14,
    // byte count width of a word, $clog2(WORD_BYTES + 1)
    parameter WB_W = 7,
    // port number width, $clog2(PORT_COUNT)
    parameter P_W = 2,
    // egress word FIFO depth and its pointer width
    parameter OUT_DEPTH = 2,
    parameter OUT_PTR_W = 1,
    // the data RAM's read latency after the slot's address register: the word read is
    // followed through this many registers (rdp, rdq, rdr, rds at 4)
    parameter RD_PIPE_DEPTH = 4
) (
    input  wire                        clk,
    input  wire                        rst,

    /*
     * The slot
     */
    input  wire [P_W-1:0]              slot,
    input  wire [P_W-1:0]              pslot,

    /*
     * Scheduler, queues, watchdog
     */
    input  wire [PORT_COUNT-1:0]       pick_any,
    input  wire [PORT_COUNT*3-1:0]     pick_idx,
    input  wire [PORT_COUNT*8-1:0]     pick_oh,
    input  wire [PORT_COUNT-1:0]       idx_same,
    input  wire [PORT_COUNT*8*CA_W-1:0] q_head,
    input  wire [PORT_COUNT*8-1:0]     qdrop,

    /*
     * RAM reads
     */
    output reg  [ADDR_W-1:0]           raddr_next,
    output reg  [CA_W-1:0]             cell_next,
    input  wire [CA_W-1:0]             link_rd,
    output reg  [CA_W-1:0]             head_next,
    output wire [CA_W-1:0]             head,
    input  wire [LEN_W+P_W+3+CELL_W+2-1:0] desc_rd,

    /*
     * Dequeue commit
     */
    output wire                        deq_valid,
    output wire [P_W-1:0]              deq_port,
    output wire [P_W+3-1:0]            deq_q,
    output wire [PORT_COUNT*8-1:0]     deq_oh,

    /*
     * Egress words
     */
    input  wire [PORT_COUNT*(OUT_PTR_W+1)-1:0] out_count,
    output reg  [PORT_COUNT-1:0]       out_push,
    output wire [WB_W-1:0]             out_bytes,
    output wire                        out_last,

    /*
     * Cells freed, release to mmu_core
     */
    output wire                        rd_free,
    output wire [CA_W-1:0]             rd_free_cell,
    output wire                        rel_valid,
    output wire [P_W-1:0]              rel_port,
    output wire [2:0]                  rel_pg,
    output wire [P_W-1:0]              rel_eport,
    output wire [2:0]                  rel_queue,
    output wire [CELL_W-1:0]           rel_cells
);

localparam QN = PORT_COUNT * 8;
localparam QN_W = P_W + 3;
localparam WPC = CELL_BYTES / WORD_BYTES;          // words per cell
localparam integer WIDX_LAST_I = WPC - 1;
localparam [WI_W-1:0] WIDX_LAST = WIDX_LAST_I[WI_W-1:0];
// a discarded frame is walked one cell per read slot (only the remainder matters, so a
// CELL_BYTES beyond LEN_W is never subtracted: such a frame is always in its last cell)
localparam [LEN_W-1:0] CELL_BYTES_LEN = CELL_BYTES[LEN_W-1:0];
localparam integer PORT_LAST_I = PORT_COUNT - 1;
localparam [P_W-1:0] PORT_LAST = PORT_LAST_I[P_W-1:0];
localparam integer PNEXT_FIRST_I = PORT_COUNT > 2 ? 2 : 0;
localparam [P_W-1:0] PNEXT_FIRST = PNEXT_FIRST_I[P_W-1:0];
localparam [1:0] E_IDLE = 2'd0, E_DEQ = 2'd1, E_READ = 2'd2;

// word_addr(): the data RAM address of a cell's word
`include "sw_functions.vh"

wire [P_W-1:0]             pslot_r = pslot;
wire [QN*CA_W-1:0]         q_head_w = q_head;
reg  [P_W-1:0]             pnext_reg, pnext_next;
// the head of the queue pnext_reg's scheduler picks, selected a clock before that port's
// capture, so the descriptor / frame-link RAMs are addressed from a register
reg  [CA_W-1:0]            rs_hpre_reg;
// the slot's read and dequeue decisions, prepared at the capture
reg                        rs_go_pre_reg, rs_go_pre_next;
reg                        rs_idle_issue_reg, rs_idle_issue_next;
reg                        rs_end_issue_reg, rs_end_issue_next;
reg  [QN-1:0]              deq_oh_reg, deq_oh_next;
reg  [QN-1:0]              rs_qoh_reg, rs_qoh_next;
// per egress port
reg  [PORT_COUNT*2-1:0]      e_state_reg, e_state_next;
reg  [PORT_COUNT*CA_W-1:0]   e_cell_reg, e_cell_next;
reg  [PORT_COUNT*WI_W-1:0]   e_widx_reg, e_widx_next;
reg  [PORT_COUNT*LEN_W-1:0]  e_left_reg, e_left_next;
// e_left <= WORD_BYTES (the next word is the frame's last) and e_left <= CELL_BYTES (a
// discarded frame's cell is its last), kept with e_left so the capture muxes a flag
reg  [PORT_COUNT-1:0]        e_last_reg, e_last_next;
reg  [PORT_COUNT-1:0]        e_dlast_reg, e_dlast_next;
reg  [PORT_COUNT*P_W-1:0]    e_iport_reg, e_iport_next;
reg  [PORT_COUNT*3-1:0]      e_pg_reg, e_pg_next;
reg  [PORT_COUNT*3-1:0]      e_queue_reg, e_queue_next;
reg  [PORT_COUNT*CELL_W-1:0] e_cells_reg, e_cells_next;
// the frame being read is discarded (PFC watchdog action drop), not sent
reg  [PORT_COUNT-1:0]        e_drop_reg, e_drop_next;
// the slot port's state, captured one clock before its slot
reg  [CA_W-1:0]              rs_cell_reg;
reg  [CA_W-1:0]              rs_head_reg;
reg  [WI_W-1:0]              rs_widx_reg, rs_widx_next;
reg                          rs_widx_last_reg, rs_widx_last_next;
reg                          rs_last_reg, rs_last_next;
reg                          rs_end_reg, rs_end_next;
reg                          rs_free_reg, rs_free_next;
reg  [LEN_W-1:0]             rs_left_dec_reg, rs_left_dec_next;
reg  [WB_W-1:0]              rs_bytes_reg, rs_bytes_next;
reg                          rs_drop_reg, rs_drop_next;
reg  [P_W-1:0]               rs_iport_reg, rs_iport_next;
reg  [2:0]                   rs_pg_reg, rs_pg_next;
reg  [2:0]                   rs_queue_reg, rs_queue_next;
reg  [CELL_W-1:0]            rs_cells_reg, rs_cells_next;
reg  [QN_W-1:0]              rs_q_reg, rs_q_next;
reg                          deq_issue;
reg                          deq_pend_reg, deq_pend_next;
reg  [P_W-1:0]               deq_port_reg, deq_port_next;
reg  [QN_W-1:0]              deq_q_reg, deq_q_next;
reg  [CA_W-1:0]              deq_head_reg, deq_head_next;
// the dequeue commit one clock back (the scheduler's choice may predate it)
reg                          deq_pend_d_reg;
reg  [P_W-1:0]               deq_port_d_reg;
reg                          lnk_take_reg, lnk_take_next;
reg                          rd_free_reg, rd_free_next;
reg  [CA_W-1:0]              rd_free_cell_reg;
reg  [P_W-1:0]               lnk_port_reg, lnk_port_next;
reg                          rdp_valid_next;
reg  [P_W-1:0]               rdp_port_next;
reg  [WB_W-1:0]              rdp_bytes_next;
reg                          rdp_last_next;
reg                          rel_valid_reg, rel_valid_next;
reg  [P_W-1:0]               rel_port_reg, rel_port_next;
reg  [2:0]                   rel_pg_reg, rel_pg_next;
reg  [P_W-1:0]               rel_eport_reg, rel_eport_next;
reg  [2:0]                   rel_queue_reg, rel_queue_next;
reg  [CELL_W-1:0]            rel_cells_reg, rel_cells_next;
wire [QN-1:0]                wd_qdrop = qdrop;

// ---------------------------------------------------------------------------- read pipeline
// the word read, following it through the data RAM's output registers (read latency
// RD_PIPE_DEPTH: rdp_* the clock after the slot, rdq_* one clock later, rdr_* two, rds_*
// three): {valid, bytes, last} reset, the port not (it matters only with valid)
localparam RD_W = 1 + WB_W + 1;
// the last stage (rds_*): the word enters its egress port's FIFO
wire                         rds_valid_reg;
wire [P_W-1:0]               rds_port_reg;
wire [WB_W-1:0]              rds_bytes_reg;
wire                         rds_last_reg;
wire [RD_PIPE_DEPTH*RD_W-1:0] rd_stages;
wire [RD_PIPE_DEPTH*P_W-1:0]  rd_port_stages;
sw_pipe_reg #(.WIDTH(RD_W), .DEPTH(RD_PIPE_DEPTH), .RESET(1)) rd_pipe_inst (
    .clk(clk), .rst(rst),
    .s_data({rdp_valid_next, rdp_bytes_next, rdp_last_next}),
    .stages(rd_stages), .m_data({rds_valid_reg, rds_bytes_reg, rds_last_reg}));
sw_pipe_reg #(.WIDTH(P_W), .DEPTH(RD_PIPE_DEPTH), .RESET(0)) rd_port_pipe_inst (
    .clk(clk), .rst(rst),
    .s_data(rdp_port_next),
    .stages(rd_port_stages), .m_data(rds_port_reg));
wire [RD_PIPE_DEPTH-1:0]      rd_valid;
wire [RD_PIPE_DEPTH*P_W-1:0]  rd_port = rd_port_stages;
genvar gs;
generate
    for (gs = 0; gs < RD_PIPE_DEPTH; gs = gs + 1) begin : rd_stage
        assign rd_valid[gs] = rd_stages[gs*RD_W + RD_W - 1];
    end
endgenerate

// ---------------------------------------------------------------------------- the slot
// The slot owner (the same slot_reg) may start a dequeue (idle) or read one word.  Its state
// was captured into rs_* in the clock before (ports' state only changes in their own slot,
// at the dequeue commit and at the cell-link take; p_block marks a capture that one of
// the latter two, or a dequeue commit the scheduler's choice predates, made stale: the slot
// is then skipped).  With PORT_COUNT >= 4 a port's own updates always land before its next
// capture, so nothing is ever skipped.
wire [P_W-1:0]       rp = slot;
wire                 rc_last = rs_last_reg;
// a discarded frame (watchdog action drop) is walked a cell per slot: the cell goes back to
// the free list, its link is read, nothing goes to sw_egress; its last cell sends the same
// release as a sent frame (rc_end: this slot completes the frame either way)
wire                 rc_drop = rs_drop_reg;
wire                 rc_end = rs_end_reg;
// (rs_go_pre_reg: not blocked, reading, and room or discarding, prepared at the capture)
// (mmu_core takes a release every clock, so the slot never waits for it)
wire                 rc_go = rs_go_pre_reg;

// ---------------------------------------------------------------------------- capture
// The read-stage state of port pslot_reg (whose slot is next clock), with the compares and
// the address computed here, so the slot itself works on registers only.
wire [P_W-1:0]       pr = pslot_r;
wire [LEN_W-1:0]     ps_left = e_left_reg[pr*LEN_W +: LEN_W];
wire [CA_W-1:0]      ps_cell = e_cell_reg[pr*CA_W +: CA_W];
wire [WI_W-1:0]      ps_widx = e_widx_reg[pr*WI_W +: WI_W];
wire                 ps_drop = e_drop_reg[pr];
wire                 ps_last = e_last_reg[pr];
wire                 ps_drop_last = e_dlast_reg[pr];
// every port's room (words held or on their way from the RAM below OUT_DEPTH), then the mux
reg  [PORT_COUNT-1:0] out_room;
reg  [OUT_PTR_W+1:0]  out_used;
integer ori, ors;
always @* begin
    out_used = {(OUT_PTR_W+2){1'b0}};
    for (ori = 0; ori < PORT_COUNT; ori = ori + 1) begin
        out_used = {1'b0, out_count[ori*(OUT_PTR_W+1) +: OUT_PTR_W+1]};
        for (ors = 0; ors < RD_PIPE_DEPTH; ors = ors + 1) begin
            out_used = out_used
                       + {{(OUT_PTR_W+1){1'b0}},
                          rd_valid[ors] && {{(32-P_W){1'b0}}, rd_port[ors*P_W +: P_W]} == ori};
        end
        out_room[ori] = out_used < OUT_DEPTH;
    end
end
// With three ports or more the capture uses the room as it was a clock earlier (registered):
// port p's capture at t is followed by its slot at t + 1, whose word enters rdp at t + 2; its
// previous slot's word entered rdp at t + 2 - PORT_COUNT <= t - 1, so the registered count of
// t - 1 holds every word read for p, and from t - 1 to t p's count can only fall (its egress
// took a word).  The registered room is never larger than the true one: no egress FIFO can
// overflow; a word taken in that clock is seen a slot later (the FIFO holds two words of eight
// bytes at least, each several clocks on the wire).  With two ports p's previous slot is at
// t - 1 and the room is used as computed.  (Registered so that the issue decision does not
// wait on the adder of the count and the words in flight.)
reg  [PORT_COUNT-1:0] out_room_reg;
always @(posedge clk) begin
    out_room_reg <= out_room;
end
wire [PORT_COUNT-1:0] out_room_cap = PORT_COUNT >= 3 ? out_room_reg : out_room;
wire [2:0]           ps_idx = pick_idx[pr*3 +: 3];
// each port's picked head first (8:1 on a registered index), then the slot port's (P:1)
reg  [PORT_COUNT*CA_W-1:0] pick_head;
integer ph_p, ph_q;
always @* begin
    pick_head = {(PORT_COUNT*CA_W){1'b0}};
    for (ph_p = 0; ph_p < PORT_COUNT; ph_p = ph_p + 1) begin
        // the 8:1 select as AND-OR at constant positions: no index arithmetic (Yosys can map
        // an index times CA_W to an ECP5 DSP multiplier) and no priority chain
        for (ph_q = 0; ph_q < 8; ph_q = ph_q + 1) begin
            pick_head[ph_p*CA_W +: CA_W] = pick_head[ph_p*CA_W +: CA_W]
                | (q_head_w[(ph_p*8 + ph_q)*CA_W +: CA_W]
                   & {CA_W{pick_idx[ph_p*3 +: 3] == ph_q[2:0]}});
        end
    end
end
wire [QN_W-1:0]      ps_q = {pr, ps_idx};
// the slot's issue decisions for every port first, from registers, then the slot port's (one
// P:1 select at the end instead of selects feeding an AND of five terms)
reg  [PORT_COUNT-1:0] p_block, p_head_ok, p_go_pre, p_idle_issue, p_end_issue;
integer pp;
always @* begin
    for (pp = 0; pp < PORT_COUNT; pp = pp + 1) begin
        p_block[pp] = (deq_pend_reg && {{(32-P_W){1'b0}}, deq_port_reg} == pp)
                      || (deq_pend_d_reg && {{(32-P_W){1'b0}}, deq_port_d_reg} == pp)
                      || (lnk_take_reg && {{(32-P_W){1'b0}}, lnk_port_reg} == pp);
        p_head_ok[pp] = idx_same[pp];
        p_go_pre[pp] = !p_block[pp] && e_state_reg[pp*2 +: 2] == E_READ
                       && (e_drop_reg[pp] || out_room_cap[pp]);
        p_idle_issue[pp] = pick_any[pp] && !p_block[pp] && p_head_ok[pp]
                           && e_state_reg[pp*2 +: 2] == E_IDLE;
        p_end_issue[pp] = pick_any[pp] && p_head_ok[pp] && p_go_pre[pp]
                          && (e_drop_reg[pp] ? e_dlast_reg[pp] : e_last_reg[pp]);
    end
end
integer k;
always @* begin
    cell_next = ps_cell;
    rs_widx_next = ps_widx;
    rs_widx_last_next = ps_widx == WIDX_LAST;
    raddr_next = word_addr(ps_cell, ps_widx);
    rs_last_next = ps_last;
    rs_end_next = ps_drop ? ps_drop_last : ps_last;
    // the slot frees its cell: a discarded frame's every cell, a sent frame's last word
    rs_free_next = ps_drop || ps_last || ps_widx == WIDX_LAST;
    rs_left_dec_next = ps_left - (ps_drop ? CELL_BYTES_LEN : WORD_BYTES[LEN_W-1:0]);
    rs_bytes_next = ps_last ? ps_left[WB_W-1:0] : WORD_BYTES[WB_W-1:0];
    rs_drop_next = ps_drop;
    rs_iport_next = e_iport_reg[pr*P_W +: P_W];
    rs_pg_next = e_pg_reg[pr*3 +: 3];
    rs_queue_next = e_queue_reg[pr*3 +: 3];
    rs_cells_next = e_cells_reg[pr*CELL_W +: CELL_W];
    rs_q_next = ps_q;
    for (k = 0; k < QN; k = k + 1) begin
        rs_qoh_next[k] = pick_oh[k] && {{(32-P_W){1'b0}}, pr} == k / 8;
    end
    // the head was selected a clock ago for this port (rs_hpre_*) by the scheduler's index
    // then; if the index changed since (a queue filled or emptied, a pause), that head may be
    // another queue's: this slot starts no dequeue (the next one will).  The head itself is
    // never stale when the index is the same: a queue's head changes only when the queue
    // fills from empty (then the index changes a clock later) or at its port's dequeue
    // commit, which p_block covers in this clock and the one before, and which in the
    // clock before that is seen by both the selection and the index.
    head_next = rs_hpre_reg;
    // the slot's decisions without the release handshake (rc_go, deq_issue below)
    rs_go_pre_next = p_go_pre[pr];
    rs_idle_issue_next = p_idle_issue[pr];
    rs_end_issue_next = p_end_issue[pr];
end

// the head pre-select for the port whose capture is next clock (pnext_reg)
always @* begin
    pnext_next = (pnext_reg == PORT_LAST) ? {P_W{1'b0}} : pnext_reg + 1'b1;
end
// the head pre-selected a clock ago is the slot port's current pick when the port's scheduler
// index is what it was then (pnext_reg then is the slot port now): sw_sched's idx_same
always @(posedge clk) begin
    rs_hpre_reg <= pick_head[pnext_reg*CA_W +: CA_W];
end

// dequeue commit (one clock after the issue): the descriptor
wire [LEN_W-1:0]     dd_len;
wire [P_W-1:0]       dd_iport;
wire [2:0]           dd_pg;
wire [CELL_W-1:0]    dd_cells;
wire                 dd_last, dd_dlast;
assign {dd_len, dd_iport, dd_pg, dd_cells, dd_last, dd_dlast} = desc_rd;
// the flags of the remainder after this slot's word (or cell, when discarding)
wire                 rs_dec_last = {{(32-LEN_W){1'b0}}, rs_left_dec_reg} <= WORD_BYTES;
wire                 rs_dec_dlast = {{(32-LEN_W){1'b0}}, rs_left_dec_reg} <= CELL_BYTES;

// ---------------------------------------------------------------------------- slot next state
// per-port updates go through a loop with a constant part-select each (a variable
// part-select on the left makes Yosys build a multiplier and shifter)
integer i, pi;
always @* begin
    pi = 0;     // loop index only: assigned on every path, so no latch
    e_state_next = e_state_reg;
    e_cell_next = e_cell_reg;
    e_widx_next = e_widx_reg;
    e_left_next = e_left_reg;
    e_last_next = e_last_reg;
    e_dlast_next = e_dlast_reg;
    e_iport_next = e_iport_reg;
    e_pg_next = e_pg_reg;
    e_queue_next = e_queue_reg;
    e_cells_next = e_cells_reg;
    e_drop_next = e_drop_reg;
    deq_pend_next = 1'b0;
    deq_port_next = rp;
    deq_q_next = rs_q_reg;
    deq_head_next = rs_head_reg;
    lnk_take_next = 1'b0;
    lnk_port_next = rp;
    rdp_valid_next = 1'b0;
    rdp_port_next = rp;
    rdp_bytes_next = rs_bytes_reg;
    rdp_last_next = rc_last;
    rel_valid_next = 1'b0;
    rel_port_next = rel_port_reg;
    rel_pg_next = rel_pg_reg;
    rel_eport_next = rel_eport_reg;
    rel_queue_next = rel_queue_reg;
    rel_cells_next = rel_cells_reg;
    rd_free_next = 1'b0;

    if (rc_go) begin
        // a sent frame reads the word (rdp_valid); a discarded one (watchdog action drop)
        // frees every cell and follows its link, no word out; the cell's last word frees it
        rdp_valid_next = !rc_drop;
        rd_free_next = rs_free_reg;
        if (rc_end) begin
            for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
                if ({{(32-P_W){1'b0}}, rp} == pi) begin
                    e_state_next[pi*2 +: 2] = E_IDLE;
                end
            end
            rel_valid_next = 1'b1;
            rel_port_next = rs_iport_reg;
            rel_pg_next = rs_pg_reg;
            rel_eport_next = rp;
            rel_queue_next = rs_queue_reg;
            rel_cells_next = rs_cells_reg;
        end else begin
            for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
                if ({{(32-P_W){1'b0}}, rp} == pi) begin
                    e_left_next[pi*LEN_W +: LEN_W] = rs_left_dec_reg;
                    e_last_next[pi] = rs_dec_last;
                    e_dlast_next[pi] = rs_dec_dlast;
                end
            end
            if (rc_drop || rs_widx_last_reg) begin
                for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
                    if ({{(32-P_W){1'b0}}, rp} == pi) begin
                        e_widx_next[pi*WI_W +: WI_W] = {WI_W{1'b0}};
                    end
                end
                lnk_take_next = 1'b1;
            end else begin
                for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
                    if ({{(32-P_W){1'b0}}, rp} == pi) begin
                        e_widx_next[pi*WI_W +: WI_W] = rs_widx_reg + 1'b1;
                    end
                end
            end
        end
    end
    // start the next frame: from idle, or in the slot that reads the current frame's last
    // word (back-to-back frames need no idle slot in between)
    // (rs_idle_issue_reg / rs_end_issue_reg: a queue picked, its head selected by the same
    // index, not blocked, and idle / reading the last word, prepared at the capture)
    deq_issue = rs_idle_issue_reg || rs_end_issue_reg;
    deq_oh_next = deq_issue ? rs_qoh_reg : {QN{1'b0}};
    if (deq_issue) begin
        deq_pend_next = 1'b1;
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, rp} == pi) begin
                e_state_next[pi*2 +: 2] = E_DEQ;
            end
        end
    end
    if (lnk_take_reg) begin
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, lnk_port_reg} == pi) begin
                e_cell_next[pi*CA_W +: CA_W] = link_rd;
            end
        end
    end
    if (deq_pend_reg) begin
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, deq_port_reg} == pi) begin
                e_state_next[pi*2 +: 2] = E_READ;
            end
        end
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, deq_port_reg} == pi) begin
                e_cell_next[pi*CA_W +: CA_W] = deq_head_reg;
            end
        end
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, deq_port_reg} == pi) begin
                e_widx_next[pi*WI_W +: WI_W] = {WI_W{1'b0}};
            end
        end
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, deq_port_reg} == pi) begin
                e_left_next[pi*LEN_W +: LEN_W] = dd_len;
                e_last_next[pi] = dd_last;
                e_dlast_next[pi] = dd_dlast;
            end
        end
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, deq_port_reg} == pi) begin
                e_iport_next[pi*P_W +: P_W] = dd_iport;
            end
        end
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, deq_port_reg} == pi) begin
                e_pg_next[pi*3 +: 3] = dd_pg;
            end
        end
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, deq_port_reg} == pi) begin
                e_queue_next[pi*3 +: 3] = deq_q_reg[2:0];
            end
        end
        for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
            if ({{(32-P_W){1'b0}}, deq_port_reg} == pi) begin
                e_cells_next[pi*CELL_W +: CELL_W] = dd_cells;
            end
        end
        e_drop_next[deq_port_reg] = wd_qdrop[deq_q_reg];
    end

end

always @* begin
    out_push = {PORT_COUNT{1'b0}};
    for (i = 0; i < PORT_COUNT; i = i + 1) begin
        out_push[i] = rds_valid_reg && {{(32-P_W){1'b0}}, rds_port_reg} == i;
    end
end

always @(posedge clk) begin
    deq_oh_reg <= deq_oh_next;
    rs_qoh_reg <= rs_qoh_next;
    e_state_reg <= e_state_next;
    e_cell_reg <= e_cell_next;
    e_widx_reg <= e_widx_next;
    e_left_reg <= e_left_next;
    e_last_reg <= e_last_next;
    e_dlast_reg <= e_dlast_next;
    e_iport_reg <= e_iport_next;
    e_pg_reg <= e_pg_next;
    e_queue_reg <= e_queue_next;
    e_cells_reg <= e_cells_next;
    e_drop_reg <= e_drop_next;
    rs_cell_reg <= cell_next;
    rs_widx_reg <= rs_widx_next;
    rs_widx_last_reg <= rs_widx_last_next;
    rs_last_reg <= rs_last_next;
    rs_end_reg <= rs_end_next;
    rs_free_reg <= rs_free_next;
    rs_left_dec_reg <= rs_left_dec_next;
    rs_bytes_reg <= rs_bytes_next;
    rs_drop_reg <= rs_drop_next;
    rs_iport_reg <= rs_iport_next;
    rs_pg_reg <= rs_pg_next;
    rs_queue_reg <= rs_queue_next;
    rs_cells_reg <= rs_cells_next;
    rs_q_reg <= rs_q_next;
    rs_head_reg <= head_next;
    rs_go_pre_reg <= rs_go_pre_next;
    rs_idle_issue_reg <= rs_idle_issue_next;
    rs_end_issue_reg <= rs_end_issue_next;
    pnext_reg <= pnext_next;
    deq_pend_reg <= deq_pend_next;
    deq_port_reg <= deq_port_next;
    deq_q_reg <= deq_q_next;
    deq_head_reg <= deq_head_next;
    deq_pend_d_reg <= deq_pend_reg;
    deq_port_d_reg <= deq_port_reg;
    lnk_take_reg <= lnk_take_next;
    rd_free_reg <= rd_free_next;
    rd_free_cell_reg <= rs_cell_reg;
    lnk_port_reg <= lnk_port_next;
    rel_valid_reg <= rel_valid_next;
    rel_port_reg <= rel_port_next;
    rel_pg_reg <= rel_pg_next;
    rel_eport_reg <= rel_eport_next;
    rel_queue_reg <= rel_queue_next;
    rel_cells_reg <= rel_cells_next;
    if (rst) begin
        deq_oh_reg <= {QN{1'b0}};
        e_state_reg <= {PORT_COUNT*2{1'b0}};
        e_cell_reg <= {PORT_COUNT*CA_W{1'b0}};
        e_widx_reg <= {PORT_COUNT*WI_W{1'b0}};
        e_left_reg <= {PORT_COUNT*LEN_W{1'b0}};
        e_last_reg <= {PORT_COUNT{1'b1}};
        e_dlast_reg <= {PORT_COUNT{1'b1}};
        e_drop_reg <= {PORT_COUNT{1'b0}};
        rs_go_pre_reg <= 1'b0;
        rs_idle_issue_reg <= 1'b0;
        rs_end_issue_reg <= 1'b0;
        pnext_reg <= PNEXT_FIRST;
        deq_pend_reg <= 1'b0;
        deq_pend_d_reg <= 1'b0;
        lnk_take_reg <= 1'b0;
        rd_free_reg <= 1'b0;
        rel_valid_reg <= 1'b0;
    end
end

assign head = rs_head_reg;
assign deq_valid = deq_pend_reg;
assign deq_port = deq_port_reg;
assign deq_q = deq_q_reg;
assign deq_oh = deq_oh_reg;
assign out_bytes = rds_bytes_reg;
assign out_last = rds_last_reg;
assign rd_free = rd_free_reg;
assign rd_free_cell = rd_free_cell_reg;
assign rel_valid = rel_valid_reg;
assign rel_port = rel_port_reg;
assign rel_pg = rel_pg_reg;
assign rel_eport = rel_eport_reg;
assign rel_queue = rel_queue_reg;
assign rel_cells = rel_cells_reg;

endmodule

`resetall
