/*
 * sw_buffer: switch_core's shared cell buffer and the stages that move frames through it
 * (docs/switch_core.md "Architecture"): the slot counters, the write stage (sw_write), the
 * decision stage (sw_decide), the queue lists (sw_queues), the scheduler (sw_sched), the read
 * stage (sw_read), the walker (sw_walker), the free list (sw_free_list) and the RAMs: data
 * words, cell links and frame descriptors (sw_ram).
 *
 * Words come in from the ports' ingress FIFOs, one write slot per clock, round robin; a good
 * frame's last word sends its admission request to mmu_core, and its response decides: the
 * frame is linked into its (egress port, queue) list or its cells go back to the free list.
 * One read slot per clock, round robin: each port's scheduler picks a queue, the frame's words
 * go to the port's egress, its cells are freed as they are read, and the release goes to
 * mmu_core with the last word.
 *
 * Interfaces:
 *   in_*                    each port's gathered words (sw_port / sw_ingress; port p at
 *                           [p*W +: W]), in_pop the word taken
 *   out_*                   words to each port's egress (sw_port / sw_egress): out_push[p],
 *                           one data word, byte count and last flag for all; out_count the
 *                           words each egress holds
 *   req_*, req_go           the admission request to mmu_core (registered, no ready), and the
 *                           slot (write_slot) loads a good frame's request
 *   resp_*                  mmu_core's responses (fixed latency, in request order)
 *   rel_*                   the release to mmu_core (registered, no ready)
 *   sched_pause, qdrop      pause as the scheduler sees it, the queues whose frames are
 *                           discarded at dequeue (sw_pfc_guard)
 *   q_ne, deq_*             each queue holds frames; the read stage's dequeue commit
 *   spare_valid, fl_*, enq_valid
 *                           the spare cells, the free list's count, low watermark and error
 *                           flags, a frame linked into a queue (sw_status)
 *   cfg_*                   the priority maps; cfg_loaded: requests may go to mmu_core
 *   stat_drop_admission, err_response
 *                           the decision stage's counters and response check
 *
 * Latency: the data RAM write lands a clock after the port's write slot; the mmu_core request
 * and release leave registers loaded in the slot of the frame's last word (req_*, rel_*);
 * each stage's own are in sw_write, sw_decide and sw_read (docs/switch_core.md
 * "Pipelining").
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_buffer #(
    // number of ports
    parameter PORT_COUNT = 4,
    // stream width in bits
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // tdest width (egress port number)
    parameter DEST_WIDTH = 8,
    // stream beats per buffer word
    parameter WORD_BEATS = 8,
    // bytes per cell, a multiple of the word
    parameter CELL_BYTES = 256,
    // cells in the shared buffer
    parameter BUFFER_CELLS = 256,
    // admission counter width in cells (mmu_core CELL_W)
    parameter CELL_W = 16,
    // frame length width in bytes
    parameter LEN_W = 14,
    // admission tag width
    parameter TAG_W = 8,
    // port index width, $clog2(PORT_COUNT)
    parameter P_W = 2,
    // cell index width, $clog2(BUFFER_CELLS) (at least 1)
    parameter CA_W = 8,
    // cell count width, $clog2(BUFFER_CELLS + 1)
    parameter CNT_W = 9,
    // width of the byte count of one word, $clog2(WORD_BEATS*KEEP_WIDTH + 1)
    parameter WB_W = 7,
    // egress staging words of each port (sw_egress FIFO_DEPTH) and the width of its pointer
    parameter OUT_DEPTH = 2,
    parameter OUT_PTR_W = 1,
    // test only: sw_free_list FAULT_INJECT; 0 in every real build
    parameter FREE_LIST_FAULT_INJECT = 0
) (
    input  wire                                       clk,
    input  wire                                       rst,

    /*
     * Words from the ports' ingress
     */
    input  wire [PORT_COUNT-1:0]                      in_valid,
    output wire [PORT_COUNT-1:0]                      in_pop,
    input  wire [PORT_COUNT*WORD_BEATS*DATA_WIDTH-1:0] in_data,
    input  wire [PORT_COUNT-1:0]                      in_last,
    input  wire [PORT_COUNT-1:0]                      in_store,
    input  wire [PORT_COUNT*LEN_W-1:0]                in_len,
    input  wire [PORT_COUNT*3-1:0]                    in_prio,
    input  wire [PORT_COUNT*DEST_WIDTH-1:0]           in_dest,
    input  wire [PORT_COUNT*4-1:0]                    in_kind,

    /*
     * Words to the ports' egress
     */
    output wire [PORT_COUNT-1:0]                      out_push,
    output wire [WORD_BEATS*DATA_WIDTH-1:0]           out_data,
    output wire [WB_W-1:0]                            out_bytes,
    output wire                                       out_last,
    input  wire [PORT_COUNT*(OUT_PTR_W+1)-1:0]        out_count,

    /*
     * Admission (mmu_core): requests, responses, releases
     */
    output wire                                       req_valid,
    output wire [P_W-1:0]                             req_port,
    output wire [2:0]                                 req_pg,
    output wire [DEST_WIDTH-1:0]                      req_eport,
    output wire [2:0]                                 req_queue,
    output wire [LEN_W-1:0]                           req_len,
    output wire [TAG_W-1:0]                           req_tag,
    output wire                                       req_go,
    output wire [P_W-1:0]                             write_slot,
    input  wire                                       resp_valid,
    input  wire                                       resp_admit,
    input  wire [CELL_W-1:0]                          resp_cells,
    input  wire [TAG_W-1:0]                           resp_tag,
    output wire                                       rel_valid,
    output wire [P_W-1:0]                             rel_port,
    output wire [2:0]                                 rel_pg,
    output wire [P_W-1:0]                             rel_eport,
    output wire [2:0]                                 rel_queue,
    output wire [CELL_W-1:0]                          rel_cells,

    /*
     * PFC guards (sw_pfc_guard): queue {p, q} at [p*8 + q]
     */
    input  wire [PORT_COUNT*8-1:0]                    sched_pause,
    input  wire [PORT_COUNT*8-1:0]                    qdrop,
    output wire [PORT_COUNT*8-1:0]                    q_ne,
    output wire                                       deq_valid,
    output wire [P_W-1:0]                             deq_port,
    output wire [P_W+3-1:0]                           deq_q,

    /*
     * Status (sw_status)
     */
    output wire [PORT_COUNT-1:0]                      spare_valid,
    output wire [CNT_W-1:0]                           fl_count,
    output wire [CNT_W-1:0]                           fl_low_wm,
    output wire                                       fl_err_underflow,
    output wire                                       fl_err_overflow,
    output wire                                       enq_valid,

    /*
     * Configuration: priority k of port p at [(p*8+k)*3 +: 3]
     */
    input  wire [PORT_COUNT*8*3-1:0]                  cfg_prio_to_pg,
    input  wire [PORT_COUNT*8*3-1:0]                  cfg_prio_to_queue,
    input  wire                                       cfg_loaded,

    /*
     * Status: admission drops per ingress port p at [p*32 +: 32]; the response check (sticky)
     */
    output wire [PORT_COUNT*32-1:0]                   stat_drop_admission,
    output wire                                       err_response
);

localparam WORD_W = WORD_BEATS * DATA_WIDTH;
localparam WORD_BYTES = WORD_BEATS * KEEP_WIDTH;
localparam WPC = CELL_BYTES / WORD_BYTES;          // words per cell
localparam WI_W = WPC > 1 ? $clog2(WPC) : 1;
localparam ADDR_W = BUFFER_CELLS * WPC > 1 ? $clog2(BUFFER_CELLS * WPC) : 1;
localparam QN = PORT_COUNT * 8;
localparam QN_W = P_W + 3;
// descriptor: {len, iport, pg, cells, len <= word, len <= cell} (the two flags seed e_last /
// e_dlast at the dequeue, so no length compare follows the RAM read)
localparam DESC_W = LEN_W + P_W + 3 + CELL_W + 2;

localparam integer PORT_LAST_I = PORT_COUNT - 1;
localparam [P_W-1:0] PORT_LAST = PORT_LAST_I[P_W-1:0];
localparam [P_W-1:0] PSLOT_FIRST = 1;

// ---------------------------------------------------------------------------- slot counters
// the write and read slots, one port per clock each, round robin (slot_reg), and the port
// whose slot comes next clock (pslot_reg: its state is captured, ws_* / rs_*, this clock)
reg  [P_W-1:0]             slot_reg, slot_next;
reg  [P_W-1:0]             pslot_reg, pslot_next;
// keep: identical registers, not to be merged back into pslot_reg / slot_reg; slot_w_reg
// drives the write stage's per-port updates, slot_d_reg the data word select, slot_r_reg the
// read stage (slot_reg itself the rest)
reg [P_W-1:0] slot_w_reg, slot_d_reg, slot_r_reg;
(* keep *) always @(posedge clk) begin
    slot_w_reg <= rst ? {P_W{1'b0}} : slot_next;
end
(* keep *) always @(posedge clk) begin
    slot_d_reg <= rst ? {P_W{1'b0}} : slot_next;
end
(* keep *) always @(posedge clk) begin
    slot_r_reg <= rst ? {P_W{1'b0}} : slot_next;
end
// copies of pslot_reg for the write capture and the read capture (each drives a few hundred
// mux inputs)
reg [P_W-1:0] pslot_w_reg, pslot_r_reg;
(* keep *) always @(posedge clk) begin
    pslot_w_reg <= rst ? PSLOT_FIRST : pslot_next;
end
(* keep *) always @(posedge clk) begin
    pslot_r_reg <= rst ? PSLOT_FIRST : pslot_next;
end
wire [P_W-1:0] pslot_w = pslot_w_reg;
wire [P_W-1:0] pslot_r = pslot_r_reg;
// the write slot's port, for the prevention counters (sw_pfc_guard)
assign write_slot = slot_w_reg;

always @* begin
    slot_next = (slot_reg == PORT_LAST) ? {P_W{1'b0}} : slot_reg + 1'b1;
    pslot_next = (pslot_reg == PORT_LAST) ? {P_W{1'b0}} : pslot_reg + 1'b1;
end

always @(posedge clk) begin
    slot_reg <= slot_next;
    pslot_reg <= pslot_next;
    if (rst) begin
        slot_reg <= {P_W{1'b0}};
        pslot_reg <= PSLOT_FIRST;
    end
end

// ---------------------------------------------------------------------------- free list
wire                fl_pop;
wire                fl_pop_valid;
wire [CA_W-1:0]     fl_pop_cell;
wire                fl_push;
wire [CA_W-1:0]     fl_push_cell;

sw_free_list #(
    .BUFFER_CELLS(BUFFER_CELLS),
    .CA_W(CA_W),
    .CNT_W(CNT_W),
    .FAULT_INJECT(FREE_LIST_FAULT_INJECT)
) free_list_inst (
    .clk(clk),
    .rst(rst),
    .pop_valid(fl_pop_valid),
    .pop_cell(fl_pop_cell),
    .pop(fl_pop),
    .push(fl_push),
    .push_cell(fl_push_cell),
    .free_count(fl_count),
    .low_wm(fl_low_wm),
    .err_underflow(fl_err_underflow),
    .err_overflow(fl_err_overflow)
);

// ---------------------------------------------------------------------------- RAMs
// data: BUFFER_CELLS * WPC words; cell c word w at c*WPC + w
// write port: data_we/waddr/wdata from the write stage; read port: always enabled, the
// address computed one clock before the slot (rs_raddr_next).  sw_ram registers both in
// DATA_IN_COPIES copies next to its block RAMs (IN_COPIES): the write lands a clock after
// the slot and the word is read at the slot, as with one register here, but no address bit
// fans out to every block RAM of the buffer (128 on the ULX3S, spread over the die)
localparam DATA_IN_COPIES = 16;
// the data RAM's read latency from its address register (the word leaves sw_ram's third
// output register; the read stage follows it through as many registers: sw_read)
localparam RD_PIPE_DEPTH = 4;
wire                data_we;
wire [ADDR_W-1:0]   data_waddr;
wire [WORD_W-1:0]   data_wdata;
wire [ADDR_W-1:0]   rs_raddr_next;

sw_ram #(
    .WIDTH(WORD_W),
    .DEPTH(BUFFER_CELLS * WPC),
    .ADDR_W(ADDR_W),
    .OUT_REG(3),
    .IN_COPIES(DATA_IN_COPIES)
) data_ram_inst (
    .clk(clk),
    .wr_en(data_we),
    .wr_addr(data_waddr),
    .wr_data(data_wdata),
    .rd_en(1'b1),
    .rd_addr(rs_raddr_next),
    .rd_data(out_data)
);

// cell links (next cell of the same frame), two copies: this one for the read stage, the
// other in sw_walker (walker_inst), which returns the cells of dropped frames
// (written by the write stage, from its registers: sw_write's link_*)
wire                link_we_reg;
wire [CA_W-1:0]     link_waddr_reg;
wire [CA_W-1:0]     link_wdata_reg;
wire [CA_W-1:0]     rs_cell_next;
wire [CA_W-1:0]     link_a_rd;

// read port A is addressed at the capture (rs_cell_next) and has the output register
// (OUT_REG): the link is there in the clock after the slot, when the cell-link take uses it
sw_ram #(.WIDTH(CA_W), .DEPTH(BUFFER_CELLS), .ADDR_W(CA_W), .OUT_REG(1)) link_a_ram_inst (
    .clk(clk), .wr_en(link_we_reg), .wr_addr(link_waddr_reg), .wr_data(link_wdata_reg),
    .rd_en(1'b1), .rd_addr(rs_cell_next), .rd_data(link_a_rd));

// frame descriptors, indexed by head cell, written at the enqueue (registered after the
// decision stage: enq_*_reg), read for the dequeue: addressed at the capture (rs_head_next,
// the clock before the slot) through the RAM's output register (OUT_REG), so the data is
// there at the dequeue commit (deq_valid), from a register.  The frame links (next frame
// of the same queue) are the queue lists' (sw_queues), read the same way
wire                enq_valid_reg;
wire [CA_W-1:0]     enq_cell_reg;
wire [DESC_W-1:0]   enq_desc_reg;
wire [CA_W-1:0]     rs_head_reg, rs_head_next;
wire [DESC_W-1:0]   desc_rd;

sw_ram #(.WIDTH(DESC_W), .DEPTH(BUFFER_CELLS), .ADDR_W(CA_W), .OUT_REG(1)) desc_ram_inst (
    .clk(clk), .wr_en(enq_valid_reg), .wr_addr(enq_cell_reg), .wr_data(enq_desc_reg),
    .rd_en(1'b1), .rd_addr(rs_head_next), .rd_data(desc_rd));

// ---------------------------------------------------------------------------- pending frames
// every completed frame, in completion order, to the decision stage (sw_decide, below):
// {tag, iport, pg, eport, queue, len, head, cells} and three flags computed at the push, so
// the decision stage tests bits, not fields: kind is good, the egress port exists, the frame
// holds no cell
localparam PEND_W = TAG_W + P_W + 3 + P_W + 3 + LEN_W + CA_W + CELL_W + 3;
wire                pend_push;
wire [PEND_W-1:0]   pend_in;
wire                pend_ready;

// frames whose cells go back to the free list (the walker, below)
wire                walk_push;
wire [CA_W-1:0]     walk_head;
wire [CELL_W-1:0]   walk_cells;
wire                walk_ready;

// ---------------------------------------------------------------------------- stage wires
// queues (sw_queues): each queue's head cell and "holds frames"; the enqueue / dequeue
// commits as one-hot vectors, so the list updates test bits
wire [QN*CA_W-1:0]           q_head;
wire [QN-1:0]                enq_oh_reg;
wire [QN-1:0]                deq_oh_reg;
// the queue of the frame at the decision head (sw_queues registers its tail a clock ahead)
wire [QN_W-1:0]              enq_q;
// the scheduler's choice per port (sw_sched, registered): a queue eligible, its index, the
// choice one-hot, and the index unchanged since last clock
wire [PORT_COUNT-1:0]        pick_any;
wire [PORT_COUNT*3-1:0]      pick_idx;
wire [QN-1:0]                pick_oh;
wire [PORT_COUNT-1:0]        idx_same;
// the cells the read stage frees (sw_read)
wire                         rd_free_reg;
wire [CA_W-1:0]              rd_free_cell_reg;

// ---------------------------------------------------------------------------- write stage
// One write slot per clock, round robin: the slot port's word into the data RAM, a cell from
// its spare (refilled from the free list) linked behind the frame's previous one; the last
// word to the pending FIFO and, for a good frame once the configuration is loaded, the
// mmu_core request (sw_write).  The slot registers are shared with the read stage.
wire [P_W-1:0]       wp = slot_w_reg;

/* verilator lint_off PINCONNECTEMPTY */
sw_write #(
    .PORT_COUNT(PORT_COUNT),
    .DEST_WIDTH(DEST_WIDTH),
    .WORD_W(WORD_W),
    .WORD_BYTES(WORD_BYTES),
    .CELL_BYTES(CELL_BYTES),
    .WI_W(WI_W),
    .CA_W(CA_W),
    .ADDR_W(ADDR_W),
    .CELL_W(CELL_W),
    .LEN_W(LEN_W),
    .P_W(P_W),
    .TAG_W(TAG_W)
) write_inst (
    .clk(clk),
    .rst(rst),
    .slot(wp),
    .slot_d(slot_d_reg),
    .pslot(pslot_w),
    .in_valid(in_valid),
    .in_pop(in_pop),
    .in_data(in_data),
    .in_last(in_last),
    .in_store(in_store),
    .in_len(in_len),
    .in_prio(in_prio),
    .in_dest(in_dest),
    .in_kind(in_kind),
    .cfg_prio_to_pg(cfg_prio_to_pg),
    .cfg_prio_to_queue(cfg_prio_to_queue),
    .cfg_loaded(cfg_loaded),
    .fl_pop_valid(fl_pop_valid),
    .fl_pop_cell(fl_pop_cell),
    .fl_pop(fl_pop),
    .data_we(data_we),
    .data_waddr(data_waddr),
    .data_wdata(data_wdata),
    .link_we(link_we_reg),
    .link_waddr(link_waddr_reg),
    .link_wdata(link_wdata_reg),
    .m_pend_valid(pend_push),
    .m_pend_ready(pend_ready),
    .m_pend_data(pend_in),
    .req_valid(req_valid),
    .req_port(req_port),
    .req_pg(req_pg),
    .req_eport(req_eport),
    .req_queue(req_queue),
    .req_len(req_len),
    .req_tag(req_tag),
    .req_go(req_go),
    .spare_valid(spare_valid),
    .spare_cell()
);
/* verilator lint_on PINCONNECTEMPTY */

// ---------------------------------------------------------------------------- decision stage
// each completed frame in completion order, matched with mmu_core's response when it is good:
// admitted -> its queue (the enqueue registered, enq_*_reg, linked by sw_queues and written
// into the descriptor RAM in the next clock); dropped or bad -> the walker (sw_decide)
sw_decide #(
    .PORT_COUNT(PORT_COUNT),
    .DATA_WIDTH(DATA_WIDTH),
    .WORD_BYTES(WORD_BYTES),
    .CELL_BYTES(CELL_BYTES),
    .P_W(P_W),
    .CA_W(CA_W),
    .CELL_W(CELL_W),
    .LEN_W(LEN_W),
    .TAG_W(TAG_W)
) decide_inst (
    .clk(clk),
    .rst(rst),
    .s_pend_valid(pend_push),
    .s_pend_ready(pend_ready),
    .s_pend_data(pend_in),
    .s_resp_valid(resp_valid),
    .s_resp_admit(resp_admit),
    .s_resp_cells(resp_cells),
    .s_resp_tag(resp_tag),
    .m_walk_valid(walk_push),
    .m_walk_ready(walk_ready),
    .m_walk_head(walk_head),
    .m_walk_cells(walk_cells),
    .enq_valid(enq_valid),
    .enq_q(enq_q),
    .m_enq_valid(enq_valid_reg),
    .m_enq_cell(enq_cell_reg),
    .m_enq_desc(enq_desc_reg),
    .m_enq_oh(enq_oh_reg),
    .stat_drop_admission(stat_drop_admission),
    .err_response(err_response)
);

// ---------------------------------------------------------------------------- queue lists
// per (egress port, queue): head, tail and count of its frames, linked by the frame-link RAM;
// one enqueue (registered after the decision stage) and one dequeue commit per clock
// (sw_queues)
/* verilator lint_off PINCONNECTEMPTY */
sw_queues #(
    .PORT_COUNT(PORT_COUNT),
    .BUFFER_CELLS(BUFFER_CELLS),
    .CA_W(CA_W),
    .CNT_W(CNT_W),
    .QN_W(QN_W)
) queues_inst (
    .clk(clk),
    .rst(rst),
    .s_enq_q(enq_q),
    .enq_valid(enq_valid_reg),
    .enq_oh(enq_oh_reg),
    .enq_cell(enq_cell_reg),
    .deq_oh(deq_oh_reg),
    .rd_head_next(rs_head_next),
    .rd_head(rs_head_reg),
    .q_head(q_head),
    .q_ne(q_ne),
    .q_cnt()
);
/* verilator lint_on PINCONNECTEMPTY */

// ---------------------------------------------------------------------------- scheduler
// each port's strict-priority choice among its queues that hold frames and are not paused,
// one clock ahead of the capture (sw_sched)
sw_sched #(
    .PORT_COUNT(PORT_COUNT)
) sched_inst (
    .clk(clk),
    .rst(rst),
    .pause(sched_pause),
    .q_ne(q_ne),
    .cfg_prio_to_queue(cfg_prio_to_queue),
    .pick_any(pick_any),
    .pick_idx(pick_idx),
    .pick_oh(pick_oh),
    .idx_same(idx_same)
);

// ---------------------------------------------------------------------------- read stage
// One read slot per clock, round robin: an idle port dequeues the frame its scheduler picks,
// a reading port reads a word to its sw_egress (a discarded frame: a cell back to the free
// list), frees cells, follows the cell links, and sends the release with the frame's last
// word (sw_read)
sw_read #(
    .PORT_COUNT(PORT_COUNT),
    .WORD_BYTES(WORD_BYTES),
    .CELL_BYTES(CELL_BYTES),
    .WI_W(WI_W),
    .CA_W(CA_W),
    .ADDR_W(ADDR_W),
    .CELL_W(CELL_W),
    .LEN_W(LEN_W),
    .WB_W(WB_W),
    .P_W(P_W),
    .OUT_DEPTH(OUT_DEPTH),
    .OUT_PTR_W(OUT_PTR_W),
    .RD_PIPE_DEPTH(RD_PIPE_DEPTH)
) read_inst (
    .clk(clk),
    .rst(rst),
    .slot(slot_r_reg),
    .pslot(pslot_r),
    .pick_any(pick_any),
    .pick_idx(pick_idx),
    .pick_oh(pick_oh),
    .idx_same(idx_same),
    .q_head(q_head),
    .qdrop(qdrop),
    .raddr_next(rs_raddr_next),
    .cell_next(rs_cell_next),
    .link_rd(link_a_rd),
    .head_next(rs_head_next),
    .head(rs_head_reg),
    .desc_rd(desc_rd),
    .deq_valid(deq_valid),
    .deq_port(deq_port),
    .deq_q(deq_q),
    .deq_oh(deq_oh_reg),
    .out_count(out_count),
    .out_push(out_push),
    .out_bytes(out_bytes),
    .out_last(out_last),
    .rd_free(rd_free_reg),
    .rd_free_cell(rd_free_cell_reg),
    .rel_valid(rel_valid),
    .rel_port(rel_port),
    .rel_pg(rel_pg),
    .rel_eport(rel_eport),
    .rel_queue(rel_queue),
    .rel_cells(rel_cells)
);

// ---------------------------------------------------------------------------- walker
// returns the cells of dropped frames (walk_push from the decision stage) to the free list,
// following its own copy of the cell links.  The read stage's free is registered (rd_free_reg)
// and goes to the free list in the next clock, ahead of the walker, which so sees a register
// instead of this clock's slot logic
sw_walker #(
    .BUFFER_CELLS(BUFFER_CELLS),
    .CA_W(CA_W),
    .CELL_W(CELL_W),
    .WALK_DEPTH(8),
    .WALK_PTR_W(3)
) walker_inst (
    .clk(clk),
    .rst(rst),
    .s_walk_valid(walk_push),
    .s_walk_ready(walk_ready),
    .s_walk_head(walk_head),
    .s_walk_cells(walk_cells),
    .link_wr_en(link_we_reg),
    .link_wr_addr(link_waddr_reg),
    .link_wr_data(link_wdata_reg),
    .rd_free(rd_free_reg),
    .rd_free_cell(rd_free_cell_reg),
    .m_free_push(fl_push),
    .m_free_cell(fl_push_cell)
);

endmodule

`resetall
