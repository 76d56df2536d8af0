/*
 * mmu_core's counters and status read-back: the watermarks of the global counters, the
 * arrival, admission, drop (per reason) and release counters, and the status port, which reads
 * any global register, counter, PG or queue field (state, watermarks, configuration).
 *
 * Interfaces: stat_addr / stat_data (mmu_core's port; map in docs/mmu_core.md and
 * tb/mmu_core/regmap.py); the release's input registers (mmu_core_carry); the decision and
 * response registers (mmu_core_decide); the underflow flag and count (mmu_core_commit); the
 * committed pools, their copy for the watermarks and the Xoff state (mmu_core_eval); the
 * state RAMs' stat ports (mmu_core_view); the global fields, the configuration RAMs' stat
 * ports and flags (mmu_core_cfg).
 *
 * COUNTERS 0 leaves the event counters out: they read 0 (synthesis removes them and their
 * share of the read mux); the watermarks, the flags and every other word stay.
 * CFG_READBACK 0 leaves the configuration's read-back out: the global configuration fields
 * (0x20 - 0x27) and the PG's and queue's configuration fields (8 - 15) read 0 (synthesis
 * removes the configuration RAMs' stat ports, whose data is then unused, and their share of
 * the read mux); the configuration flags (0x19) are mmu_core_cfg's (CFG_CHECK).
 *
 * Latency: stat_addr registered at edge n, stat_data from n+5 (6 clocks after stat_addr);
 * counters a clock after the registers they count; a PG's Xoff bit is sampled at n+1 (the RAM
 * state fields read at n+1 show the state a clock later).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_status #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of port index fields (carries out-of-range values)
    parameter PORT_W = 8,
    // width of the PG and queue index fields
    parameter PG_W = 4,
    parameter Q_W = 4,
    // bytes per buffer cell
    parameter CELL_BYTES = 256,
    // 1: the event counters (admitted, release underflows and bad releases, drops by reason,
    // arrivals, releases); 0: they read 0 and are not built (mmu_core COUNTERS)
    parameter COUNTERS = 1,
    // 1: the configuration fields read back (globals 0x20 - 0x27, PG / queue fields 8 - 15);
    // 0: they read 0, the configuration RAMs' stat ports unused (mmu_core CFG_READBACK)
    parameter CFG_READBACK = 1,
    // derived, left at their defaults by mmu_core: the PG / queue index; cell counts, signed
    // decision values, T and what is compared with it (alpha up to 2^7), carry-save sums; the
    // PG entry {class, res, shared, hdrm} and the queue entry {class, res, shared}
    parameter IW = $clog2(PORT_COUNT) + 3,
    parameter W = CELL_W,
    parameter SW = CELL_W + 3,
    parameter TW = CELL_W + 10,
    parameter XW = CELL_W + 4,
    parameter PGE_W = 3 * CELL_W + 1,
    parameter QE_W = 2 * CELL_W + 1,
    // the watermark entries: PG {res_wm, shared_wm, hdrm_wm}, queue {wm}
    parameter PGW_W = 3 * CELL_W,
    parameter QW_W = CELL_W + 1
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * Status reads (mmu_core's port)
     */
    input  wire [15:0]          stat_addr,
    output wire [31:0]          stat_data,

    /*
     * What is counted: releases (input registers), drops (decision register), arrivals and
     * admissions (response register)
     */
    input  wire                 r_v0,
    input  wire [PORT_W-1:0]    r_port0,
    input  wire [PG_W-1:0]      r_pg0,
    input  wire [PORT_W-1:0]    r_eport0,
    input  wire [Q_W-1:0]       r_q0,
    input  wire                 dec_valid_reg, dec_admit_reg,
    input  wire [2:0]           dec_reason_reg,
    input  wire                 resp_valid_reg, resp_admit_reg,

    /*
     * What is read back: the error flags and underflow count, the committed counters and
     * their watermarks' copy ({lossy, lossless} pools as buses), the Xoff state, the state
     * RAMs' read data (stat ports: PG state 3, queue state 2, watermarks 1), the global
     * fields, the configuration RAMs' read data (stat ports: PG 3, queue 1) and flags
     */
    input  wire [1:0]           err_flags_reg,
    input  wire [31:0]          underflow_count_reg,
    input  wire [W-1:0]         total_reg,
    input  wire [W-1:0]         hpool_reg,
    input  wire [2*W-1:0]       pool_bus,
    input  wire [2*W-1:0]       epool_bus,
    input  wire [W-1:0]         wc_hpool, wc_total,
    input  wire [2*W-1:0]       wc_pool_bus,
    input  wire [2*W-1:0]       wc_epool_bus,
    input  wire [PORT_COUNT*8-1:0] xoff_reg,
    // (the read ports of the arrival, the release and the scan are read elsewhere)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [4*PGE_W-1:0]   pgs_rd,
    input  wire [3*QE_W-1:0]    qs_rd,
    input  wire [2*PGW_W-1:0]   pgw_rd,
    input  wire [2*QW_W-1:0]    qw_rd,
    input  wire [8*128-1:0]     pgc_rd_bus,
    input  wire [8*128-1:0]     qc_rd_bus,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [W-1:0]         g_buffer_reg,
    input  wire [31:0]          g_max_frame_reg,
    input  wire [2*W-1:0]       g_pool_bus,
    input  wire [W-1:0]         g_hdrm_pool_reg,
    input  wire [2*W-1:0]       g_epool_bus,
    // headroom_policy (global 0x27) and the addressed port's word (region 3, mmu_core_dsh)
    input  wire                 g_dsh_reg,
    input  wire [31:0]          st_port4,
    input  wire [8:0]           cfg_flags,
    input  wire                 cfg_bad
);

`include "mmu_core_functions.vh"

// the inputs that the code reads as arrays
(* mem2reg *) reg [W-1:0] pool_reg [0:1];
always @* pool_reg[0] = pool_bus[0 +: W];
always @* pool_reg[1] = pool_bus[W +: W];
(* mem2reg *) reg [W-1:0] epool_reg [0:1];
always @* epool_reg[0] = epool_bus[0 +: W];
always @* epool_reg[1] = epool_bus[W +: W];
(* mem2reg *) reg [W-1:0] g_pool_reg [0:1];
always @* g_pool_reg[0] = g_pool_bus[0 +: W];
always @* g_pool_reg[1] = g_pool_bus[W +: W];
(* mem2reg *) reg [W-1:0] g_epool_reg [0:1];
always @* g_epool_reg[0] = g_epool_bus[0 +: W];
always @* g_epool_reg[1] = g_epool_bus[W +: W];
(* mem2reg *) reg [W-1:0] wc_pool [0:1];
always @* wc_pool[0] = wc_pool_bus[0 +: W];
always @* wc_pool[1] = wc_pool_bus[W +: W];
(* mem2reg *) reg [W-1:0] wc_epool [0:1];
always @* wc_epool[0] = wc_epool_bus[0 +: W];
always @* wc_epool[1] = wc_epool_bus[W +: W];
wire [4*32-1:0] pgc_rd [0:7];
wire [4*32-1:0] qc_rd [0:7];
genvar f;
generate
for (f = 0; f < 8; f = f + 1) begin : cfg_rd
    assign pgc_rd[f] = pgc_rd_bus[f*128 +: 128];
    assign qc_rd[f] = qc_rd_bus[f*128 +: 128];
end
endgenerate

// ------------------------------------------------------------------------------ counters
(* mem2reg *) reg [W-1:0]  pool_wm_reg [0:1];
(* mem2reg *) reg [W-1:0]  epool_wm_reg [0:1];
reg [W-1:0]  hpool_wm_reg, total_wm_reg;
(* mem2reg *) reg [31:0]   drop_reg [0:7];
reg [7:0]    drop_hit_reg;
reg [31:0]   admitted_reg, bad_release_reg, arrivals_reg, releases_reg;
reg         r_v1, r_bad1;
integer ci;
// the counters' copies (wc_*) are not reset: in the clock after a reset clock they may hold the
// sum from before it, and the watermarks skip that clock (rst's local register)
reg wm_skip;
(* keep *) always @(posedge clk) wm_skip <= rst;
always @(posedge clk) begin
    for (ci = 0; ci < 2; ci = ci + 1) begin
        if (!wm_skip && wc_pool[ci] > pool_wm_reg[ci]) pool_wm_reg[ci] <= wc_pool[ci];
        if (!wm_skip && wc_epool[ci] > epool_wm_reg[ci]) epool_wm_reg[ci] <= wc_epool[ci];
    end
    if (!wm_skip && wc_hpool > hpool_wm_reg) hpool_wm_reg <= wc_hpool;
    if (!wm_skip && wc_total > total_wm_reg) total_wm_reg <= wc_total;
    // from the response register: one counter enable each
    if (resp_valid_reg) begin
        arrivals_reg <= arrivals_reg + 1'b1;
    end
    if (resp_valid_reg && resp_admit_reg) begin
        admitted_reg <= admitted_reg + 1'b1;
    end
    for (ci = 1; ci < 7; ci = ci + 1) begin
        if (drop_hit_reg[ci]) begin
            drop_reg[ci] <= drop_reg[ci] + 1'b1;
        end
    end
    drop_hit_reg <= 8'd0;
    if (dec_valid_reg && !dec_admit_reg) begin
        drop_hit_reg[dec_reason_reg] <= 1'b1;
    end
    // releases counted from stage 1's registers
    r_v1 <= r_v0 && !rst;
    r_bad1 <= r_v0 && !rst && !idx_ok(r_port0, r_pg0, r_eport0, r_q0);
    if (r_v1) begin
        releases_reg <= releases_reg + 1'b1;
    end
    if (r_bad1) begin
        bad_release_reg <= bad_release_reg + 1'b1;
    end
    if (rst) begin
        for (ci = 0; ci < 2; ci = ci + 1) begin
            pool_wm_reg[ci] <= 0;
            epool_wm_reg[ci] <= 0;
        end
        for (ci = 0; ci < 8; ci = ci + 1) begin
            drop_reg[ci] <= 0;
        end
        drop_hit_reg <= 8'd0;
        hpool_wm_reg <= 0;
        total_wm_reg <= 0;
        admitted_reg <= 0;
        bad_release_reg <= 0;
        arrivals_reg <= 0;
        releases_reg <= 0;
    end
end

// ------------------------------------------------------------------------------ status
reg [15:0] st_addr_reg;
// stat_addr registered at edge n, the RAMs read at n+1 (data at n+2); at n+3 every source of
// the addressed region is registered (the global registers in groups of eight), at n+4 the
// field of each region, at n+5 stat_data
reg [15:0] st_addr2_reg;
// address bits above the index of the last PG / queue are not decoded
/* verilator lint_off UNUSEDSIGNAL */
reg [15:0] st_addr3_reg, st_addr4_reg;
/* verilator lint_on UNUSEDSIGNAL */
reg [31:0] stat_data_reg;
wire [31:0] st_glob4, st_pg4, st_q4;
reg [2:0]  st_region_reg;
reg [8*32-1:0] st_g_reg;          // the eight global registers of the addressed group
reg [8*32-1:0] st_p_reg;          // the addressed PG's fields 0 .. 7 or 8 .. 15
reg [8*32-1:0] st_q_reg;          // the addressed queue's likewise
function [31:0] z32;
    input [W:0] v;
    begin
        z32 = {{(31-W){1'b0}}, v};
    end
endfunction
// the five groups of eight globals
wire [8*32-1:0] st_g_reg_src [0:4];
assign st_g_reg_src[0] = {z32({1'b0, epool_wm_reg[0]}), z32({1'b0, epool_reg[0]}),
                           z32({1'b0, hpool_wm_reg}), z32({1'b0, hpool_reg}),
                           z32({1'b0, pool_wm_reg[1]}), z32({1'b0, pool_reg[1]}),
                           z32({1'b0, pool_wm_reg[0]}), z32({1'b0, pool_reg[0]})};
// (the event counters as read: 0 with COUNTERS 0)
wire [31:0] c_mask = COUNTERS != 0 ? 32'hffffffff : 32'd0;
assign st_g_reg_src[1] = {{30'd0, err_flags_reg | {cfg_bad, 1'b0}}, bad_release_reg & c_mask,
                           underflow_count_reg & c_mask, admitted_reg & c_mask,
                           z32({1'b0, total_wm_reg}), z32({1'b0, total_reg}),
                           z32({1'b0, epool_wm_reg[1]}), z32({1'b0, epool_reg[1]})};
assign st_g_reg_src[2] = {arrivals_reg & c_mask, drop_reg[6] & c_mask, drop_reg[5] & c_mask,
                           drop_reg[4] & c_mask, drop_reg[3] & c_mask, drop_reg[2] & c_mask,
                           drop_reg[1] & c_mask, drop_reg[0] & c_mask};
assign st_g_reg_src[3] = {CELL_BYTES[31:0], PORT_COUNT[31:0], 128'd0, 23'd0, cfg_flags,
                           releases_reg & c_mask};
// (the global configuration fields: 0 with CFG_READBACK 0)
assign st_g_reg_src[4] = CFG_READBACK == 0 ? 256'd0
                         : {31'd0, g_dsh_reg, z32({1'b0, g_epool_reg[1]}),
                            z32({1'b0, g_epool_reg[0]}), z32({1'b0, g_hdrm_pool_reg}),
                            z32({1'b0, g_pool_reg[1]}), z32({1'b0, g_pool_reg[0]}),
                            g_max_frame_reg, z32({1'b0, g_buffer_reg})};
// the group select at n+2, one-hot, a copy per 32-bit word of the group register, each stored
// inverted by its own mask (the word's index) so that synthesis keeps the copies apart: one
// select would drive every bit of the 256
(* mem2reg *) reg [4:0] st_gsel_reg [0:7];
integer sw, sgi;
always @(posedge clk) begin
    for (sw = 0; sw < 8; sw = sw + 1) begin
        for (sgi = 0; sgi < 5; sgi = sgi + 1) begin
            st_gsel_reg[sw][sgi] <= (st_addr_reg[5:3] == sgi[2:0]) ^ sw[sgi];
        end
    end
end
// the status address (kept: synthesis merges an unkept register into a kept copy with the same
// inputs)
(* keep *) always @(posedge clk) begin
    st_addr_reg <= stat_addr;
    st_addr2_reg <= st_addr_reg;
    st_addr3_reg <= st_addr2_reg;
end
integer sw2, sg2;
always @(posedge clk) begin : status
    reg [31:0] st_acc;
    st_addr4_reg <= st_addr3_reg;
    st_region_reg <= st_addr4_reg[15:13];
    // n+3: the group of eight globals (AND-OR by the one-hot select), the PG's and the
    // queue's fields
    for (sw2 = 0; sw2 < 8; sw2 = sw2 + 1) begin
        st_acc = 32'd0;
        for (sg2 = 0; sg2 < 5; sg2 = sg2 + 1) begin
            st_acc = st_acc | ({32{st_gsel_reg[sw2][sg2] ^ sw2[sg2]}}
                               & st_g_reg_src[sg2][sw2*32 +: 32]);
        end
        st_g_reg[sw2*32 +: 32] <= st_acc;
    end
    // (the PG's and the queue's fields: below, half of them by the address's bit 3)
    // n+5: the region (n+4, the field: below)
    case (st_region_reg)
        3'd0: stat_data_reg <= st_glob4;
        3'd1: stat_data_reg <= st_pg4;
        3'd2: stat_data_reg <= st_q4;
        3'd3: stat_data_reg <= st_port4;
        default: stat_data_reg <= 32'd0;
    endcase
end
// n+3: the PG's and the queue's sixteen fields (0 .. 7 the state, 8 .. 15 the configuration),
// the half the address's bit 3 names registered, by a copy of that bit per word (kept apart);
// the configuration half 0 with CFG_READBACK 0 (the RAMs' stat ports then unused)
// the addressed PG's Xoff bit, selected a clock ahead (n+1) by a copy of the index next to it
// (kept apart: EVAL's Xoff register and the index's other loads are far from each other)
reg [IW-1:0] st_xi1;
reg          st_x1;
(* keep *) always @(posedge clk) st_xi1 <= stat_addr[4 +: IW];
always @(posedge clk) st_x1 <= xoff_reg[st_xi1];
wire [8*32-1:0] st_p_lo = {{31'd0, pgs_rd[3*PGE_W + 3*W]}, {31'd0, st_x1},
                           z32({1'b0, pgw_rd[PGW_W +: W]}),
                           z32({1'b0, pgw_rd[PGW_W + W +: W]}),
                           z32({1'b0, pgw_rd[PGW_W + 2*W +: W]}),
                           z32({1'b0, pgs_rd[3*PGE_W +: W]}),
                           z32({1'b0, pgs_rd[3*PGE_W + W +: W]}),
                           z32({1'b0, pgs_rd[3*PGE_W + 2*W +: W]})};
wire [8*32-1:0] st_q_lo = {96'd0, {31'd0, qs_rd[2*QE_W + 2*W]},
                           z32(qw_rd[QW_W +: QW_W]),
                           z32({1'b0, qs_rd[2*QE_W +: W]} + {1'b0, qs_rd[2*QE_W + W +: W]}),
                           z32({1'b0, qs_rd[2*QE_W +: W]}),
                           z32({1'b0, qs_rd[2*QE_W + W +: W]})};
wire [31:0] cfg_mask = CFG_READBACK != 0 ? 32'hffffffff : 32'd0;
genvar sh;
generate
for (sh = 0; sh < 8; sh = sh + 1) begin : st_half
    reg p_hi_sel, q_hi_sel;
    (* keep *) always @(posedge clk) begin
        p_hi_sel <= st_addr_reg[3];
        q_hi_sel <= st_addr_reg[3];
    end
    always @(posedge clk) begin
        st_p_reg[sh*32 +: 32] <= p_hi_sel ? pgc_rd[sh][96 +: 32] & cfg_mask
                                          : st_p_lo[sh*32 +: 32];
        st_q_reg[sh*32 +: 32] <= q_hi_sel ? qc_rd[sh][32 +: 32] & cfg_mask
                                          : st_q_lo[sh*32 +: 32];
    end
end
endgenerate
// n+4: the field of each region, selected by a copy of the address per byte of each output
// (kept apart: one register drove every bit of the three selects)
genvar sb;
generate
for (sb = 0; sb < 4; sb = sb + 1) begin : st_field
    reg [2:0] g_sel, p_sel, q_sel;
    reg [7:0] g_b, p_b, q_b;
    (* keep *) always @(posedge clk) begin
        g_sel <= st_addr2_reg[2:0];
        p_sel <= st_addr2_reg[2:0];
        q_sel <= st_addr2_reg[2:0];
    end
    always @(posedge clk) begin
        g_b <= st_g_reg[g_sel*32 + sb*8 +: 8];
        p_b <= st_p_reg[p_sel*32 + sb*8 +: 8];
        q_b <= st_q_reg[q_sel*32 + sb*8 +: 8];
    end
    assign st_glob4[sb*8 +: 8] = g_b;
    assign st_pg4[sb*8 +: 8] = p_b;
    assign st_q4[sb*8 +: 8] = q_b;
end
endgenerate
assign stat_data = stat_data_reg;


endmodule

`resetall
