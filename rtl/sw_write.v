/*
 * sw_write: the write stage of the switch core.  One write slot per clock, round robin over
 * the ingress ports (the slot counters are switch_core's): the slot owner may write one word
 * of its ingress word FIFO into the data RAM; a word that starts a cell takes the port's spare
 * cell (refilled from the free list, one port per clock) and links it behind the frame's
 * previous cell; the last word of a frame enters the pending FIFO (sw_decide) and, for a good
 * frame, loads the mmu_core request (only once the configuration is loaded: until then the
 * last word waits in its slot).  The RAM writes (data word, cell link) land one clock after
 * the slot: nothing reads a word or link that early (a frame is read only after its
 * admission, a dropped frame is walked only after the decision stage).
 *
 * The slot port's write-stage state and its ingress word's fields are captured into ws_* in
 * the clock before the slot (from the port's registers and the head of its word FIFO: both
 * change only in the port's own slot, except a word arriving into an empty FIFO or a spare
 * refilled then, which just wait for the next slot); the slot works on registers.  Each
 * port's state (word index, current cell, head cell, cell count, spare) lives in its own
 * generate block (port[p]), which also computes the port's values for its next word from its
 * own registers, so the capture only selects.
 *
 * Interfaces:
 *   slot, slot_d      the slot port (two copies of switch_core's slot register: the per-port
 *                     updates, the data word select)
 *   pslot             the port whose slot is next clock (the capture's copy)
 *   in_*              each ingress port's word FIFO head (sw_ingress), port p at its slice;
 *                     in_pop the word taken (registered: a clock after its slot)
 *   cfg_*             the ports' priority -> PG / queue maps; cfg_loaded the admission image
 *                     is loaded (sw_mmu_csr's gate, the write stage's copy)
 *   fl_pop*           the free list's head cell and its pop (the spare refill)
 *   data_*            the data RAM's write port (sw_ram registers it)
 *   link_*            the cell-link RAMs' write port (registered here)
 *   m_pend_*          the completed frame to the pending FIFO (sw_decide's s_pend_*)
 *   req_*             the admission request to mmu_core (registered, no ready); req_go the
 *                     slot loads one (to the PFC guards' prevention counters)
 *   spare_valid, spare_cell  each port's spare cell (status, and the benches' cell map)
 *
 * Latency: the capture one clock before the slot (ws_*); in the slot the data RAM write and
 * the pending push (combinational from the captured registers), the link write, the ingress
 * pop and the mmu_core request registered one clock after it; a spare refilled the clock
 * after the refill port's choice (refill_port_reg) if the free list has a cell.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_write #(
    // number of ports
    parameter PORT_COUNT = 4,
    // tdest width (egress port number)
    parameter DEST_WIDTH = 8,
    // buffer word width in bits
    parameter WORD_W = 512,
    // bytes per buffer word and per cell (a multiple of the word)
    parameter WORD_BYTES = 64,
    parameter CELL_BYTES = 256,
    // word index width, $clog2(WPC) (at least 1)
    parameter WI_W = 2,
    // cell address width
    parameter CA_W = 8,
    // data RAM address width (cells * WPC)
    parameter ADDR_W = 10,
    // admission counter width in cells (mmu_core CELL_W)
    parameter CELL_W = 16,
    // frame length width in bytes
    parameter LEN_W = 14,
    // port number width, $clog2(PORT_COUNT)
    parameter P_W = 2,
    // admission request tag width
    parameter TAG_W = 8
) (
    input  wire                        clk,
    input  wire                        rst,

    /*
     * The slot
     */
    input  wire [P_W-1:0]              slot,
    input  wire [P_W-1:0]              slot_d,
    input  wire [P_W-1:0]              pslot,

    /*
     * Ingress words, port p at its slice
     */
    input  wire [PORT_COUNT-1:0]       in_valid,
    output wire [PORT_COUNT-1:0]       in_pop,
    input  wire [PORT_COUNT*WORD_W-1:0] in_data,
    input  wire [PORT_COUNT-1:0]       in_last,
    input  wire [PORT_COUNT-1:0]       in_store,
    input  wire [PORT_COUNT*LEN_W-1:0] in_len,
    input  wire [PORT_COUNT*3-1:0]     in_prio,
    input  wire [PORT_COUNT*DEST_WIDTH-1:0] in_dest,
    input  wire [PORT_COUNT*4-1:0]     in_kind,

    /*
     * Configuration
     */
    input  wire [PORT_COUNT*8*3-1:0]   cfg_prio_to_pg,
    input  wire [PORT_COUNT*8*3-1:0]   cfg_prio_to_queue,
    input  wire                        cfg_loaded,

    /*
     * Free list (spare refill)
     */
    input  wire                        fl_pop_valid,
    input  wire [CA_W-1:0]             fl_pop_cell,
    output reg                         fl_pop,

    /*
     * Data RAM and cell-link RAM writes
     */
    output reg                         data_we,
    output reg  [ADDR_W-1:0]           data_waddr,
    output reg  [WORD_W-1:0]           data_wdata,
    output wire                        link_we,
    output wire [CA_W-1:0]             link_waddr,
    output wire [CA_W-1:0]             link_wdata,

    /*
     * Completed frames to the pending FIFO
     */
    output reg                         m_pend_valid,
    input  wire                        m_pend_ready,
    output reg  [TAG_W+P_W+3+P_W+3+LEN_W+CA_W+CELL_W+3-1:0] m_pend_data,

    /*
     * Admission request to mmu_core
     */
    output wire                        req_valid,
    output wire [P_W-1:0]              req_port,
    output wire [2:0]                  req_pg,
    output wire [DEST_WIDTH-1:0]       req_eport,
    output wire [2:0]                  req_queue,
    output wire [LEN_W-1:0]            req_len,
    output wire [TAG_W-1:0]            req_tag,
    output wire                        req_go,

    /*
     * Spare cells
     */
    output wire [PORT_COUNT-1:0]       spare_valid,
    output wire [PORT_COUNT*CA_W-1:0]  spare_cell
);

localparam WPC = CELL_BYTES / WORD_BYTES;          // words per cell
localparam integer WIDX_LAST_I = WPC - 1;
localparam [WI_W-1:0] WIDX_LAST = WIDX_LAST_I[WI_W-1:0];
localparam integer PORT_LAST_I = PORT_COUNT - 1;
localparam [P_W-1:0] PORT_LAST = PORT_LAST_I[P_W-1:0];
localparam [3:0] KIND_GOOD = 4'd0;

// word_addr(): the data RAM address of a cell's word
`include "sw_functions.vh"

wire [P_W-1:0]       wp = slot;
wire [P_W-1:0]       ps = pslot;
wire [WORD_W-1:0]    wc_data = in_data[slot_d*WORD_W +: WORD_W];

// the ingress pop, registered: a word leaves its FIFO in the clock after its write slot
reg  [PORT_COUNT-1:0]        in_pop_reg;
// per port (the port[p] blocks below), gathered for the capture's selects
wire [PORT_COUNT*WI_W-1:0]   w_widx_reg;
wire [PORT_COUNT*CA_W-1:0]   w_cell_reg;
wire [PORT_COUNT-1:0]        spare_valid_reg;
wire [PORT_COUNT*CA_W-1:0]   spare_cell_reg;
reg  [P_W-1:0]               refill_reg, refill_next;
reg                          refill_any_reg, refill_any_next;
reg  [P_W-1:0]               refill_port_reg, refill_port_next;
// the slot port's write-stage state, captured one clock before its slot
reg                          ws_go_pre_reg, ws_go_pre_next;
reg                          ws_store_reg, ws_store_next;
reg                          ws_last_reg, ws_last_next;
reg  [3:0]                   ws_kind_reg, ws_kind_next;
reg                          ws_to_mmu_reg, ws_to_mmu_next;
// the slot's request may go as far as the configuration is concerned: not a request, or the
// image is loaded (the gate, sampled at the capture: it only ever opens, a clock later here)
reg                          ws_mmu_ok_reg, ws_mmu_ok_next;
reg  [LEN_W-1:0]             ws_len_reg, ws_len_next;
reg  [DEST_WIDTH-1:0]        ws_dest_reg, ws_dest_next;
// the word's PG (the ingress port's map) and queue (the egress port's map), looked up per
// port from its FIFO head before the capture
reg  [2:0]                   ws_pg_reg, ws_pg_next;
// the queue in two halves: at the capture, the queue each egress port's map gives the word's
// priority and the destination's index; after it, the destination selects (wc_queue)
reg  [PORT_COUNT*3-1:0]      ws_qv_reg, ws_qv_next;
reg  [P_W-1:0]               ws_didx_reg, ws_didx_next;
reg  [WI_W-1:0]              ws_widx_reg, ws_widx_next;
reg                          ws_wlast_reg, ws_wlast_next;   // ws_widx_reg == WIDX_LAST
reg  [CA_W-1:0]              ws_cell_reg, ws_cell_next;
reg  [CA_W-1:0]              ws_spare_reg, ws_spare_next;
reg                          ws_need_cell_reg, ws_need_cell_next;
reg  [ADDR_W-1:0]            ws_waddr_reg, ws_waddr_next;
reg                          ws_link_reg, ws_link_next;
reg  [CELL_W-1:0]            ws_cells_new_reg, ws_cells_new_next;
reg  [CA_W-1:0]              ws_head_new_reg, ws_head_new_next;
reg                          req_push;
reg                          req_valid_reg;
reg  [P_W-1:0]               req_port_reg, req_port_next;
reg  [2:0]                   req_pg_reg, req_pg_next;
reg  [DEST_WIDTH-1:0]        req_eport_reg, req_eport_next;
reg  [2:0]                   req_queue_reg, req_queue_next;
reg  [LEN_W-1:0]             req_len_reg, req_len_next;
reg  [TAG_W-1:0]             req_tag_reg, req_tag_next;
reg  [TAG_W-1:0]             tag_reg, tag_next;
reg                          link_we_c, link_we_reg;
reg  [CA_W-1:0]              link_waddr_c, link_waddr_reg;
reg  [CA_W-1:0]              link_wdata_c, link_wdata_reg;

// every port's write-stage values for its next word, computed from its own registers and
// its word FIFO's head (none of it behind the slot mux), then the capture selects ps's
wire [PORT_COUNT-1:0]        pw_need_cell;
wire [PORT_COUNT*ADDR_W-1:0] pw_waddr;
wire [PORT_COUNT*CELL_W-1:0] pw_cells_new;
wire [PORT_COUNT*CA_W-1:0]   pw_head_new;
wire [PORT_COUNT-1:0]        pw_cells_nz;
wire [PORT_COUNT-1:0]        pw_go_pre;
wire [PORT_COUNT*3-1:0]      pw_pg;
wire [PORT_COUNT*PORT_COUNT*3-1:0] pw_qv;
wire [PORT_COUNT*P_W-1:0]    pw_didx;

always @* begin
    ws_store_next = in_store[ps];
    ws_last_next = in_last[ps];
    ws_kind_next = in_kind[ps*4 +: 4];
    ws_to_mmu_next = in_last[ps] && in_kind[ps*4 +: 4] == KIND_GOOD;
    ws_mmu_ok_next = !(in_last[ps] && in_kind[ps*4 +: 4] == KIND_GOOD) || cfg_loaded;
    ws_len_next = in_len[ps*LEN_W +: LEN_W];
    ws_dest_next = in_dest[ps*DEST_WIDTH +: DEST_WIDTH];
    ws_widx_next = w_widx_reg[ps*WI_W +: WI_W];
    ws_wlast_next = w_widx_reg[ps*WI_W +: WI_W] == WIDX_LAST;
    ws_cell_next = w_cell_reg[ps*CA_W +: CA_W];
    ws_spare_next = spare_cell_reg[ps*CA_W +: CA_W];
    ws_need_cell_next = pw_need_cell[ps];
    ws_waddr_next = pw_waddr[ps*ADDR_W +: ADDR_W];
    ws_link_next = pw_cells_nz[ps];
    ws_cells_new_next = pw_cells_new[ps*CELL_W +: CELL_W];
    ws_head_new_next = pw_head_new[ps*CA_W +: CA_W];
    // the slot's go without the pending / request room (wc_go below), selected last
    ws_go_pre_next = pw_go_pre[ps];
end
// (AND-OR over the ports at constant positions: no index arithmetic into a DSP multiplier)
integer sp;
always @* begin
    ws_pg_next = 3'd0;
    ws_qv_next = {PORT_COUNT*3{1'b0}};
    ws_didx_next = {P_W{1'b0}};
    for (sp = 0; sp < PORT_COUNT; sp = sp + 1) begin
        ws_pg_next = ws_pg_next | (pw_pg[sp*3 +: 3] & {3{{{(32-P_W){1'b0}}, ps} == sp}});
        ws_qv_next = ws_qv_next | (pw_qv[sp*PORT_COUNT*3 +: PORT_COUNT*3]
                                   & {PORT_COUNT*3{{{(32-P_W){1'b0}}, ps} == sp}});
        ws_didx_next = ws_didx_next | (pw_didx[sp*P_W +: P_W]
                                       & {P_W{{{(32-P_W){1'b0}}, ps} == sp}});
    end
end
wire [LEN_W-1:0]     wc_len = ws_len_reg;
wire [DEST_WIDTH-1:0] wc_dest = ws_dest_reg;
wire [3:0]           wc_kind = ws_kind_reg;
wire [WI_W-1:0]      wc_widx = ws_widx_reg;
wire [CA_W-1:0]      wc_cell = ws_cell_reg;
wire [CA_W-1:0]      wc_spare = ws_spare_reg;
// PG and queue of the slot's word (captured; see pw_pg / pw_queue)
wire [2:0]           wc_pg = ws_pg_reg;
reg  [2:0]           wc_queue;
integer sq;
always @* begin
    wc_queue = 3'd0;
    for (sq = 0; sq < PORT_COUNT; sq = sq + 1) begin
        wc_queue = wc_queue | (ws_qv_reg[sq*3 +: 3]
                               & {3{{{(32-P_W){1'b0}}, ws_didx_reg} == sq}});
    end
end
wire                 wc_need_cell = ws_need_cell_reg;
wire                 wc_to_mmu = ws_to_mmu_reg;
// (ws_go_pre_reg: a word, and a cell for it if it starts one, prepared at the capture)
wire                 wc_go = ws_go_pre_reg && ws_mmu_ok_reg && (!ws_last_reg || m_pend_ready);
wire [CELL_W-1:0]    wc_cells_new = ws_cells_new_reg;
wire [CA_W-1:0]      wc_head_new = ws_head_new_reg;

// ---------------------------------------------------------------------------- per port
genvar gp;
generate
    for (gp = 0; gp < PORT_COUNT; gp = gp + 1) begin : port
        reg  [WI_W-1:0]   widx_reg, widx_next;
        // widx is 0 (the next word starts a cell), kept as a flag beside the index so that
        // the capture's "needs a cell" is one AND (no index compare in the capture's selects)
        reg               wzero_reg, wzero_next;
        reg  [CA_W-1:0]   cell_reg, cell_next;
        reg  [CA_W-1:0]   head_reg, head_next;
        reg  [CELL_W-1:0] cells_reg, cells_next;
        // the frame holds a cell (cells != 0), a flag beside the count: set when a cell is
        // taken, cleared at the frame's end (no 16-bit zero test in the capture's selects)
        reg               nz_reg, nz_next;
        reg               spare_valid_reg_p, spare_valid_next;
        reg  [CA_W-1:0]   spare_cell_reg_p, spare_cell_next;
        // the port's values for its next word
        reg               pw_need_cell_p, pw_cells_nz_p, pw_go_pre_p;
        reg  [ADDR_W-1:0] pw_waddr_p;
        reg  [CELL_W-1:0] pw_cells_new_p;
        reg  [CA_W-1:0]   pw_head_new_p;

        always @* begin : pw
            reg [WI_W-1:0]   widx;
            reg [CELL_W-1:0] cells, cells_inc;
            reg [CA_W-1:0]   spare;
            reg              need, nz;
            widx = widx_reg;
            cells = cells_reg;
            spare = spare_cell_reg_p;
            need = in_store[gp] && wzero_reg;
            nz = nz_reg;
            pw_need_cell_p = need;
            pw_cells_nz_p = nz;
            pw_waddr_p = word_addr(need ? spare : cell_reg, widx);
            // the count + 1 from the register alone, then selected by AND / OR: written as
            // `need ? cells + 1 : cells`, Yosys turns the select into the adder's carry-in,
            // and the whole need logic runs into the carry chain
            cells_inc = cells + 1'b1;
            pw_cells_new_p = (cells_inc & {CELL_W{need}}) | (cells & {CELL_W{!need}});
            // the slot's go without the pending / request room (wc_go), for this port; a pop
            // of this port being applied now (its slot was last clock: 2 ports) leaves the
            // head stale: capture nothing, the next slot writes the next word
            pw_go_pre_p = in_valid[gp] && !in_pop_reg[gp] && (!need || spare_valid_reg_p);
            pw_head_new_p = (need && !nz) ? spare : head_reg;
        end

        // the slot's updates of this port's state, and the spare refill
        always @* begin
            widx_next = widx_reg;
            wzero_next = wzero_reg;
            cell_next = cell_reg;
            head_next = head_reg;
            cells_next = cells_reg;
            nz_next = nz_reg;
            spare_valid_next = spare_valid_reg_p;
            spare_cell_next = spare_cell_reg_p;
            if (wc_go) begin
                if (ws_store_reg) begin
                    if ({{(32-P_W){1'b0}}, wp} == gp) begin
                        widx_next = (wc_widx == WIDX_LAST) ? {WI_W{1'b0}} : wc_widx + 1'b1;
                        wzero_next = ws_wlast_reg;
                    end
                    if (wc_need_cell) begin
                        if ({{(32-P_W){1'b0}}, wp} == gp) begin
                            spare_valid_next = 1'b0;
                            cell_next = wc_spare;
                            cells_next = wc_cells_new;
                            nz_next = 1'b1;
                            head_next = wc_head_new;
                        end
                    end
                end
                if (ws_last_reg) begin
                    if ({{(32-P_W){1'b0}}, wp} == gp) begin
                        widx_next = {WI_W{1'b0}};
                        wzero_next = 1'b1;
                        cells_next = {CELL_W{1'b0}};
                        nz_next = 1'b0;
                    end
                end
            end
            if (fl_pop && {{(32-P_W){1'b0}}, refill_port_reg} == gp) begin
                spare_valid_next = 1'b1;
                spare_cell_next = fl_pop_cell;
            end
        end

        always @(posedge clk) begin
            widx_reg <= widx_next;
            wzero_reg <= wzero_next;
            cell_reg <= cell_next;
            head_reg <= head_next;
            cells_reg <= cells_next;
            nz_reg <= nz_next;
            spare_valid_reg_p <= spare_valid_next;
            spare_cell_reg_p <= spare_cell_next;
            if (rst) begin
                widx_reg <= {WI_W{1'b0}};
                wzero_reg <= 1'b1;
                cell_reg <= {CA_W{1'b0}};
                head_reg <= {CA_W{1'b0}};
                cells_reg <= {CELL_W{1'b0}};
                nz_reg <= 1'b0;
                spare_valid_reg_p <= 1'b0;
                spare_cell_reg_p <= {CA_W{1'b0}};
            end
        end

        assign w_widx_reg[gp*WI_W +: WI_W] = widx_reg;
        assign w_cell_reg[gp*CA_W +: CA_W] = cell_reg;
        assign spare_valid_reg[gp] = spare_valid_reg_p;
        assign spare_cell_reg[gp*CA_W +: CA_W] = spare_cell_reg_p;
        assign pw_need_cell[gp] = pw_need_cell_p;
        assign pw_cells_nz[gp] = pw_cells_nz_p;
        assign pw_waddr[gp*ADDR_W +: ADDR_W] = pw_waddr_p;
        assign pw_cells_new[gp*CELL_W +: CELL_W] = pw_cells_new_p;
        assign pw_head_new[gp*CA_W +: CA_W] = pw_head_new_p;
        assign pw_go_pre[gp] = pw_go_pre_p;

        // the PG (this port's map) of the word at this port's FIFO head, from its priority,
        // and its queue (802.1Q: the egress port's map, as models/network.py) for every
        // egress port with the destination's index, so that the capture only selects the
        // slot port's and the destination picks the queue after it; a destination outside
        // the switch takes port 0's map (the frame is dropped as bad anyway)
        // (AND-OR selects at constant positions: no index arithmetic, which Yosys can map to
        // an ECP5 DSP multiplier, and no priority chain)
        reg [2:0] pw_pg_p;
        reg [PORT_COUNT*3-1:0] pw_qv_p;
        wire [DEST_WIDTH-1:0] pdest = in_dest[gp*DEST_WIDTH +: DEST_WIDTH];
        wire [P_W-1:0] pdest_idx = {{(32-DEST_WIDTH){1'b0}}, pdest} < PORT_COUNT
                                   ? pdest[P_W-1:0] : {P_W{1'b0}};
        wire [2:0] pprio = in_prio[gp*3 +: 3];
        integer pm;
        always @* begin
            pw_pg_p = 3'd0;
            pw_qv_p = {PORT_COUNT*3{1'b0}};
            for (pm = 0; pm < 8; pm = pm + 1) begin
                pw_pg_p = pw_pg_p | (cfg_prio_to_pg[(gp*8 + pm)*3 +: 3]
                                     & {3{{29'd0, pprio} == pm}});
            end
            // every egress port's queue for this priority (the destination selects after
            // the capture)
            for (pm = 0; pm < PORT_COUNT * 8; pm = pm + 1) begin
                pw_qv_p[(pm / 8)*3 +: 3] = pw_qv_p[(pm / 8)*3 +: 3]
                                           | (cfg_prio_to_queue[pm*3 +: 3]
                                              & {3{{29'd0, pprio} == pm % 8}});
            end
        end
        assign pw_pg[gp*3 +: 3] = pw_pg_p;
        assign pw_qv[gp*PORT_COUNT*3 +: PORT_COUNT*3] = pw_qv_p;
        assign pw_didx[gp*P_W +: P_W] = pdest_idx;
    end
endgenerate

// ---------------------------------------------------------------------------- the slot
reg [PORT_COUNT-1:0] in_pop_vec;
reg [PORT_COUNT-1:0] refill_mask;
integer              refill_idx;
integer i;
always @* begin
    refill_next = (refill_reg == PORT_LAST) ? {P_W{1'b0}} : refill_reg + 1'b1;
    req_push = 1'b0;
    req_port_next = wp;
    req_pg_next = wc_pg;
    req_eport_next = wc_dest;
    req_queue_next = wc_queue;
    req_len_next = wc_len;
    req_tag_next = tag_reg;
    tag_next = tag_reg;
    in_pop_vec = {PORT_COUNT{1'b0}};
    data_we = 1'b0;
    data_waddr = ws_waddr_reg;
    data_wdata = wc_data;
    link_we_c = 1'b0;
    link_waddr_c = wc_cell;
    link_wdata_c = wc_spare;
    m_pend_valid = 1'b0;
    m_pend_data = {tag_reg, wp, wc_pg, wc_dest[P_W-1:0], wc_queue, wc_len, wc_head_new,
                   wc_cells_new, wc_kind == KIND_GOOD,
                   {{(32-DEST_WIDTH){1'b0}}, wc_dest} < PORT_COUNT,
                   wc_cells_new == {CELL_W{1'b0}}};
    fl_pop = 1'b0;

    if (wc_go) begin
        in_pop_vec[wp] = 1'b1;
        if (ws_store_reg) begin
            data_we = 1'b1;
            if (wc_need_cell) begin
                link_we_c = ws_link_reg;
            end
        end
        if (ws_last_reg) begin
            m_pend_valid = 1'b1;
            if (wc_to_mmu) begin
                req_push = 1'b1;
                tag_next = tag_reg + 1'b1;
            end
        end
    end
    // spare refill, one port per clock, chosen one clock ahead (registered): the first port
    // without a spare from refill_reg on (a rotating start keeps it fair), leaving out the
    // port the registered choice refills now; a port is refilled only if it still lacks one
    refill_mask = spare_valid_reg;
    if (refill_any_reg) begin
        refill_mask[refill_port_reg] = 1'b1;
    end
    refill_port_next = refill_reg;
    refill_any_next = 1'b0;
    for (i = PORT_COUNT - 1; i >= 0; i = i - 1) begin
        refill_idx = {{(32-P_W){1'b0}}, refill_reg} + i;
        if (refill_idx >= PORT_COUNT) begin
            refill_idx = refill_idx - PORT_COUNT;
        end
        if (!refill_mask[refill_idx]) begin
            refill_any_next = 1'b1;
            refill_port_next = refill_idx[P_W-1:0];
        end
    end
    if (refill_any_reg && !spare_valid_reg[refill_port_reg] && fl_pop_valid) begin
        fl_pop = 1'b1;
    end
end

always @(posedge clk) begin
    refill_reg <= refill_next;
    refill_any_reg <= refill_any_next;
    refill_port_reg <= refill_port_next;
    ws_go_pre_reg <= ws_go_pre_next;
    ws_store_reg <= ws_store_next;
    ws_last_reg <= ws_last_next;
    ws_kind_reg <= ws_kind_next;
    ws_to_mmu_reg <= ws_to_mmu_next;
    ws_mmu_ok_reg <= ws_mmu_ok_next;
    ws_len_reg <= ws_len_next;
    ws_dest_reg <= ws_dest_next;
    ws_pg_reg <= ws_pg_next;
    ws_qv_reg <= ws_qv_next;
    ws_didx_reg <= ws_didx_next;
    ws_widx_reg <= ws_widx_next;
    ws_wlast_reg <= ws_wlast_next;
    ws_cell_reg <= ws_cell_next;
    ws_spare_reg <= ws_spare_next;
    ws_need_cell_reg <= ws_need_cell_next;
    ws_waddr_reg <= ws_waddr_next;
    ws_link_reg <= ws_link_next;
    ws_cells_new_reg <= ws_cells_new_next;
    ws_head_new_reg <= ws_head_new_next;
    tag_reg <= tag_next;
    link_we_reg <= link_we_c;
    link_waddr_reg <= link_waddr_c;
    link_wdata_reg <= link_wdata_c;
    in_pop_reg <= in_pop_vec;
    req_valid_reg <= req_push;
    req_port_reg <= req_port_next;
    req_pg_reg <= req_pg_next;
    req_eport_reg <= req_eport_next;
    req_queue_reg <= req_queue_next;
    req_len_reg <= req_len_next;
    req_tag_reg <= req_tag_next;
    if (rst) begin
        refill_reg <= {P_W{1'b0}};
        refill_any_reg <= 1'b0;
        refill_port_reg <= {P_W{1'b0}};
        ws_go_pre_reg <= 1'b0;
        ws_mmu_ok_reg <= 1'b0;
        tag_reg <= {TAG_W{1'b0}};
        link_we_reg <= 1'b0;
        in_pop_reg <= {PORT_COUNT{1'b0}};
        req_valid_reg <= 1'b0;
    end
end

assign in_pop = in_pop_reg;
assign link_we = link_we_reg;
assign link_waddr = link_waddr_reg;
assign link_wdata = link_wdata_reg;
assign req_valid = req_valid_reg;
assign req_port = req_port_reg;
assign req_pg = req_pg_reg;
assign req_eport = req_eport_reg;
assign req_queue = req_queue_reg;
assign req_len = req_len_reg;
assign req_tag = req_tag_reg;
assign req_go = wc_go && wc_to_mmu;
assign spare_valid = spare_valid_reg;
assign spare_cell = spare_cell_reg;

endmodule

`resetall
