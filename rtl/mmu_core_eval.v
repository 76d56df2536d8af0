/*
 * mmu_core's global counters, PFC evaluation and watermarks (stages E10 to E14): GLOBAL
 * commits the total, the pools and the headroom pool (minus what the pair released, plus what
 * it admitted); EVAL0 to EVAL2 evaluate the PFC conditions of the release's PG, the arrival's
 * PG and the scan PG on their post-commit counters and decode them to every PG; EVAL3 applies
 * them to the Xoff state.  Under the headroom policy dsh the queue-level Xoff point is
 * X = T - headroom (mmu_core_dsh carries it), and EVAL0 to EVAL2 also evaluate each PG's
 * port-level request with T, for mmu_core_dsh, which applies them and drives pfc_xoff /
 * pfc_change.  The admitted arrival's PG and queue watermarks are raised in EVAL1 (written to
 * their RAMs, in mmu_core_view, a clock later).
 *
 * Interfaces: the per-pair fields (mmu_core_carry, *_bus); the commit register, the entries
 * before the pair, T and the XON point, the release's and the admitted amounts per pool
 * (mmu_core_commit); the watermarks carried to stage 11 (mmu_core_view); X, its XON point and
 * the pair's policy (mmu_core_dsh); out the queue-level Xoff state and its next value, the
 * decoded events and request conditions (mmu_core_dsh), the committed pools (T, the
 * decision, status) and their watermarks' copy, the watermark write register and its history.
 *
 * Latency: GLOBAL E10-E11 (global_lag 6), EVAL0 E10-E11, EVAL1 E11-E12, EVAL2 E12-E13, EVAL3
 * E13-E14 (pfc_xoff, in mmu_core_dsh, 14 clocks after the request's edge).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_eval #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of port index fields (carries out-of-range values)
    parameter PORT_W = 8,
    // width of the PG and queue index fields
    parameter PG_W = 4,
    parameter Q_W = 4,
    // test only: 1 leaves EVAL1's event selects out of the reset (a one-clock reset then lets
    // an event in flight set a PFC state after it; negative test)
    parameter RST_FAULT_INJECT = 0,
    // 1: the per-PG / per-queue watermarks; 0: their registers stay 0 (mmu_core WATERMARKS)
    parameter WATERMARKS = 1,
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
     * The per-pair fields, stages 1 to 12 (mmu_core_carry)
     */
    input  wire [12-1:0]        a_ok_bus,
    input  wire [12*IW-1:0]     a_i_bus,
    input  wire [12*IW-1:0]     a_j_bus,
    input  wire [12-1:0]        r_ok_bus,
    input  wire [12*IW-1:0]     r_i_bus,
    input  wire [12*IW-1:0]     sc_bus,
    input  wire [12-1:0]        sv_bus,

    /*
     * From COMMIT (mmu_core_commit): the commit register, the arrival's and the scan PG's
     * entries before the pair and their selects, T and the XON point, C2's hdrm and shared
     * counts (release at slot 0), what the release takes and the admitted amounts ({lossy,
     * lossless} pools as buses); the arrival's watermarks in stage 11 (mmu_core_view)
     */
    input  wire [2*PGE_W-1:0]   cm_pg_val_reg,
    // (of the queue entries only the arrival bus's is read here)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [2*QE_W-1:0]    cm_q_val_reg,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [PGE_W-1:0]     eA10, eS10,
    input  wire [QE_W-1:0]      qA10,
    input  wire signed [TW-1:0] tA10, tR10, tS10, xA10, xR10, xS10,
    input  wire                 adm10,
    input  wire                 same_pg10, eS10_a, eS10_r,
    input  wire [2*XW-1:0]      v_h_bus,
    input  wire [2*XW-1:0]      v_s_bus,
    // what the release takes, as candidates and selects (mmu_core_commit)
    input  wire [W-1:0]         gr_rc, gr_uhsr, gr_uh,
    input  wire [2*W-1:0]       gr_uch_bus, gr_us_bus, gr_rcq_bus, gr_uq_bus,
    input  wire                 gr_sel_t, gr_sel_h,
    input  wire [1:0]           gr_zero_s, gr_sel_s, gr_sel_es,
    input  wire [W-1:0]         ga_c, ga_hd,
    input  wire [2*W-1:0]       ga_sh_bus,
    input  wire [2*W-1:0]       ga_esh_bus,
    input  wire [PGW_W-1:0]     wA11,
    input  wire [QW_W-1:0]      wQ11,
    // headroom_policy dsh (mmu_core_dsh): X and its XON point (stage 10), the pair's policy
    // (stage 11)
    input  wire signed [TW-1:0] qtA10, qtR10, qtS10, qxA10, qxR10, qxS10,
    input  wire                 dsh11,

    /*
     * PFC: the queue-level Xoff state and its next value, EVAL2's events and port-level
     * request conditions decoded to every PG (mmu_core_dsh; the status port)
     */
    output reg  [PORT_COUNT*8-1:0] xoff_reg,
    output wire [PORT_COUNT*8-1:0] xoff_next,
    output reg  [PORT_COUNT*8-1:0] ev_hit_reg,
    output reg  [PORT_COUNT*8-1:0] ev_ron_reg,
    output reg  [PORT_COUNT*8-1:0] ev_roff_reg,

    /*
     * The committed total and pools ({lossy, lossless} as buses), the watermarks' copy of
     * them; the pair in EVAL1 (its watermark write is in the write register a clock later),
     * the watermark write register and its history (clock 1 at slot 0)
     */
    output reg  [W-1:0]         total_reg,
    output reg  [W-1:0]         hpool_reg,
    output wire [2*W-1:0]       pool_bus,
    output wire [2*W-1:0]       epool_bus,
    output reg  [W-1:0]         wc_hpool, wc_total,
    output wire [2*W-1:0]       wc_pool_bus,
    output wire [2*W-1:0]       wc_epool_bus,
    output reg                  adm11,
    // adm11's copies for the watermark memories' write decodes (PG, queue)
    output reg  [1:0]           adm11_wr,
    output reg                  wm_en_reg,
    output reg  [IW-1:0]        wm_i_reg, wm_j_reg,
    output reg  [PGW_W-1:0]     wm_pg_reg,
    output reg  [QW_W-1:0]      wm_q_reg,
    output wire [1:0]           wmh_en_bus,
    output wire [2*IW-1:0]      wmh_i_bus,
    output wire [2*IW-1:0]      wmh_j_bus,
    output wire [2*PGW_W-1:0]   wmh_pg_bus,
    output wire [2*QW_W-1:0]    wmh_q_bus
);

localparam N = PORT_COUNT * 8;            // PGs, and queues

`include "mmu_core_functions.vh"

// the per-pair fields of the pipeline (mmu_core_view), stage p of each at bus slot p - 1
// (a_cells: p - 2); a part reads only some of the stages
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg a_ok [1:12];
(* mem2reg *) reg [IW-1:0] a_i [1:12];
(* mem2reg *) reg [IW-1:0] a_j [1:12];
(* mem2reg *) reg r_ok [1:12];
(* mem2reg *) reg [IW-1:0] r_i [1:12];
(* mem2reg *) reg [IW-1:0] sc [1:12];
(* mem2reg *) reg sv [1:12];
/* verilator lint_on UNUSEDSIGNAL */
genvar pk;
generate
for (pk = 1; pk <= 12; pk = pk + 1) begin : carry
    always @* a_ok[pk] = a_ok_bus[pk-1];
    always @* a_i[pk] = a_i_bus[(pk-1)*IW +: IW];
    always @* a_j[pk] = a_j_bus[(pk-1)*IW +: IW];
    always @* r_ok[pk] = r_ok_bus[pk-1];
    always @* r_i[pk] = r_i_bus[(pk-1)*IW +: IW];
    always @* sc[pk] = sc_bus[(pk-1)*IW +: IW];
    always @* sv[pk] = sv_bus[pk-1];
end
endgenerate

// the inputs that the code reads as arrays (of C2's counts only the W low bits)
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg [XW-1:0] v_h [0:1];
always @* v_h[0] = v_h_bus[0 +: XW];
always @* v_h[1] = v_h_bus[XW +: XW];
(* mem2reg *) reg [XW-1:0] v_s [0:1];
always @* v_s[0] = v_s_bus[0 +: XW];
always @* v_s[1] = v_s_bus[XW +: XW];
/* verilator lint_on UNUSEDSIGNAL */
(* mem2reg *) reg [W-1:0] ga_sh [0:1];
always @* ga_sh[0] = ga_sh_bus[0 +: W];
always @* ga_sh[1] = ga_sh_bus[W +: W];
(* mem2reg *) reg [W-1:0] ga_esh [0:1];
always @* ga_esh[0] = ga_esh_bus[0 +: W];
always @* ga_esh[1] = ga_esh_bus[W +: W];

// the watermark write register (EVAL3 below) and its history, merged by mmu_core_view
(* mem2reg *) reg              wmh_en_reg [1:2];
(* mem2reg *) reg [IW-1:0]     wmh_i_reg [1:2];
(* mem2reg *) reg [IW-1:0]     wmh_j_reg [1:2];
(* mem2reg *) reg [PGW_W-1:0]  wmh_pg_reg [1:2];
(* mem2reg *) reg [QW_W-1:0]   wmh_q_reg [1:2];

// ------------------------------------------------------------------------------ committed pools
(* mem2reg *) reg [W-1:0] pool_reg [0:1];
(* mem2reg *) reg [W-1:0] epool_reg [0:1];
integer gi;
initial begin
    for (gi = 0; gi < 2; gi = gi + 1) begin
        pool_reg[gi] = 0;
        epool_reg[gi] = 0;
    end
end

// ------------------------------------------------------------------------------ GLOBAL
// total, pools and headroom pool: minus what the pair released, plus what it admitted
// (committed at E11, a clock after the entries); each candidate of the release's amount
// summed on its own carry chain, the release's compares selecting after the chains
/* verilator lint_off UNUSEDSIGNAL */
wire [XW-1:0] gt_a = add3(xz(total_reg), ~xz(gr_rc), xz(ga_c), 1'b1);
wire [XW-1:0] gt_b = add3(xz(total_reg), ~xz(gr_uhsr), xz(ga_c), 1'b1);
wire [XW-1:0] gh_a = add3(xz(hpool_reg), ~xz(gr_rc), xz(ga_hd), 1'b1);
wire [XW-1:0] gh_b = add3(xz(hpool_reg), ~xz(gr_uh), xz(ga_hd), 1'b1);
wire [XW-1:0] gt_n = gr_sel_t ? gt_a : gt_b;
wire [XW-1:0] gh_n = gr_sel_h ? gh_a : gh_b;
wire [XW-1:0] gp_n [0:1];
wire [XW-1:0] ge_n [0:1];
genvar gq;
generate
for (gq = 0; gq < 2; gq = gq + 1) begin : g_pool_sum
    wire [XW-1:0] z = xz(pool_reg[gq]) + xz(ga_sh[gq]);
    wire [XW-1:0] c = add3(xz(pool_reg[gq]), ~xz(gr_uch_bus[gq*W +: W]), xz(ga_sh[gq]), 1'b1);
    wire [XW-1:0] u = add3(xz(pool_reg[gq]), ~xz(gr_us_bus[gq*W +: W]), xz(ga_sh[gq]), 1'b1);
    wire [XW-1:0] eq = add3(xz(epool_reg[gq]), ~xz(gr_rcq_bus[gq*W +: W]), xz(ga_esh[gq]), 1'b1);
    wire [XW-1:0] eu = add3(xz(epool_reg[gq]), ~xz(gr_uq_bus[gq*W +: W]), xz(ga_esh[gq]), 1'b1);
    assign gp_n[gq] = gr_zero_s[gq] ? z : gr_sel_s[gq] ? c : u;
    assign ge_n[gq] = gr_sel_es[gq] ? eq : eu;
end
endgenerate
wire [XW-1:0] gp_n0 = gp_n[0];
wire [XW-1:0] gp_n1 = gp_n[1];
wire [XW-1:0] ge_n0 = ge_n[0];
wire [XW-1:0] ge_n1 = ge_n[1];
/* verilator lint_on UNUSEDSIGNAL */
// (kept: the watermarks' copies have the same inputs)
(* keep *) always @(posedge clk) begin
    total_reg <= gt_n[W-1:0];
    hpool_reg <= gh_n[W-1:0];
    pool_reg[0] <= gp_n0[W-1:0];
    pool_reg[1] <= gp_n1[W-1:0];
    epool_reg[0] <= ge_n0[W-1:0];
    epool_reg[1] <= ge_n1[W-1:0];
    if (rst) begin
        total_reg <= 0;
        hpool_reg <= 0;
        pool_reg[0] <= 0;
        pool_reg[1] <= 0;
        epool_reg[0] <= 0;
        epool_reg[1] <= 0;
    end
end

// the watermarks' copy of the global counters (kept apart: the counters feed T, GLOBAL and
// the decision's constants), without reset: in a reset clock it takes the sum of the clock
// before, and mmu_core_status's watermarks ignore it a clock after reset (then it is 0)
(* mem2reg *) reg [W-1:0] wc_pool [0:1];
(* mem2reg *) reg [W-1:0] wc_epool [0:1];
(* keep *) always @(posedge clk) begin
    wc_total <= gt_n[W-1:0];
    wc_hpool <= gh_n[W-1:0];
    wc_pool[0] <= gp_n0[W-1:0];
    wc_pool[1] <= gp_n1[W-1:0];
    wc_epool[0] <= ge_n0[W-1:0];
    wc_epool[1] <= ge_n1[W-1:0];
end

// ------------------------------------------------------------------------------ EVAL0 .. 2
// PFC state of the release's PG, the arrival's PG and the scan PG on their post-commit
// counters (the commit register holds pair k): whether each would assert XOFF if off and
// release it if on (EVAL3 applies them to the current state); all three agree when they name
// one PG.  The arrival's watermarks.
// the arrival's post-commit entries, registered (its watermarks)
wire [PGE_W-1:0] eA_en = adm10 ? cm_pg_val_reg[PGE_W +: PGE_W]
                         : same_pg10 ? cm_pg_val_reg[0 +: PGE_W] : eA10;
// the queue's class is not needed for its watermark
/* verilator lint_off UNUSEDSIGNAL */
wire [QE_W-1:0]  qA_en = adm10 ? cm_q_val_reg[QE_W +: QE_W] : qA10;
reg [QE_W-1:0]  qA_e;
reg [PGE_W-1:0] eA_e;
/* verilator lint_on UNUSEDSIGNAL */
reg            wsel11, wqsel11;
// T and the XON point narrowed to the counters' width: {at or below 0, above every count,
// the low W bits}, so EVAL1 combines W-bit compares
localparam NT_W = W + 2;
function [NT_W-1:0] narrow;
    input signed [TW-1:0] v;
    begin
        narrow = {v <= 0, v > $signed({{(TW-W){1'b0}}, {W{1'b1}}}), v[W-1:0]};
    end
endfunction
reg [NT_W-1:0] tA11, tR11, tS11, xA11, xR11, xS11;
// EVAL0 compares each candidate post-commit entry (the commit register's arrival bus, its
// release bus, the entry before pair k) with the low bits of T and of the XON point, and
// selects: {class, shared != 0, hdrm != 0, shared >= T[W-1:0], shared <= XON[W-1:0]}
// (a >= b as a subtraction's sign: one carry chain; a relational operator became a tree of
// LUTs five levels deep)
function ge_w;
    input [W-1:0] a;
    input [W-1:0] b;
    reg [W:0] d;
    begin
        d = {1'b0, a} - {1'b0, b};
        ge_w = !d[W];
    end
endfunction
function [4:0] pfc_cmp;
    /* verilator lint_off UNUSEDSIGNAL */
    input [PGE_W-1:0] e;     // (the reserved count is unused)
    /* verilator lint_on UNUSEDSIGNAL */
    input [W-1:0] t;
    input [W-1:0] x;
    begin
        pfc_cmp = {e[3*W], e[W +: W] != 0, e[0 +: W] != 0, ge_w(e[W +: W], t),
                   ge_w(x, e[W +: W])};
    end
endfunction
// (the commit register's shared and headroom counts from a copy of their own: the commit
// register feeds every stage's forwarding)
reg [W-1:0] ev_sh_a, ev_sh_r, ev_h_a, ev_h_r;
(* keep *) always @(posedge clk) begin
    ev_sh_a <= v_s[1][W-1:0];
    ev_sh_r <= v_s[0][W-1:0];
    ev_h_a <= v_h[1][W-1:0];
    ev_h_r <= v_h[0][W-1:0];
end
wire [PGE_W-1:0] cm_a = {cm_pg_val_reg[PGE_W + 3*W], {W{1'b0}}, ev_sh_a, ev_h_a};
wire [PGE_W-1:0] cm_r = {cm_pg_val_reg[3*W], {W{1'b0}}, ev_sh_r, ev_h_r};
// (the watermark memories' write decodes, N entries each, from copies of their own: adm11's
// other loads are the forwarding selects of every stage)
(* keep *) always @(posedge clk) begin
    adm11_wr <= {2{adm10 && !rst}};
end
reg [4:0] fR11, fA11, fS11;
// the same compares against X and its XON point (dsh's queue level)
reg [4:0] gR11, gA11, gS11;
reg [NT_W-1:0] qtA11, qtR11, qtS11, qxA11, qxR11, qxS11;
always @(posedge clk) begin
    gR11 <= (adm10 && same_pg10) ? pfc_cmp(cm_a, qtR10[W-1:0], qxR10[W-1:0])
            : pfc_cmp(cm_r, qtR10[W-1:0], qxR10[W-1:0]);
    gA11 <= adm10 ? pfc_cmp(cm_a, qtA10[W-1:0], qxA10[W-1:0])
            : same_pg10 ? pfc_cmp(cm_r, qtA10[W-1:0], qxA10[W-1:0])
            : pfc_cmp(eA10, qtA10[W-1:0], qxA10[W-1:0]);
    gS11 <= eS10_a ? pfc_cmp(cm_a, qtS10[W-1:0], qxS10[W-1:0])
            : eS10_r ? pfc_cmp(cm_r, qtS10[W-1:0], qxS10[W-1:0])
            : pfc_cmp(eS10, qtS10[W-1:0], qxS10[W-1:0]);
    qtA11 <= narrow(qtA10); qtR11 <= narrow(qtR10); qtS11 <= narrow(qtS10);
    qxA11 <= narrow(qxA10); qxR11 <= narrow(qxR10); qxS11 <= narrow(qxS10);
end
always @(posedge clk) begin
    fR11 <= (adm10 && same_pg10) ? pfc_cmp(cm_a, tR10[W-1:0], xR10[W-1:0])
            : pfc_cmp(cm_r, tR10[W-1:0], xR10[W-1:0]);
    fA11 <= adm10 ? pfc_cmp(cm_a, tA10[W-1:0], xA10[W-1:0])
            : same_pg10 ? pfc_cmp(cm_r, tA10[W-1:0], xA10[W-1:0])
            : pfc_cmp(eA10, tA10[W-1:0], xA10[W-1:0]);
    fS11 <= eS10_a ? pfc_cmp(cm_a, tS10[W-1:0], xS10[W-1:0])
            : eS10_r ? pfc_cmp(cm_r, tS10[W-1:0], xS10[W-1:0])
            : pfc_cmp(eS10, tS10[W-1:0], xS10[W-1:0]);
    eA_e <= eA_en;
    qA_e <= qA_en;
    adm11 <= adm10 && !rst;
    // the watermark write of pair k-1 (EVAL1 now) names this pair's PG / queue
    wsel11 <= adm11 && a_i[11] == a_i[10];
    wqsel11 <= adm11 && a_j[11] == a_j[10];
    tA11 <= narrow(tA10); tR11 <= narrow(tR10); tS11 <= narrow(tS10);
    xA11 <= narrow(xA10); xR11 <= narrow(xR10); xS11 <= narrow(xS10);
end

// XOFF if off: lossless and (headroom in use or 0 < shared >= T); XON if on: lossy, or no
// headroom and shared 0 or at the XON point (PipelinedMmu._pfc_eval)
// (shared >= T: T at or below 0, or T within the counters' range and shared >= its low bits;
// shared <= XON point: the point above every count, or within range and shared <= it)
// (each reads the bits of its own condition)
/* verilator lint_off UNUSEDSIGNAL */
function pfc_on;
    input [4:0] fc;
    input [NT_W-1:0] t;
    begin
        pfc_on = fc[4] && (fc[2] || (fc[3] && (t[W+1] || (!t[W] && fc[1]))));
    end
endfunction
function pfc_off;
    input [4:0] fc;
    input [NT_W-1:0] xonp;
    begin
        pfc_off = !fc[4] || (!fc[2] && (!fc[3] || (xonp[W] || (!xonp[W+1] && fc[0]))));
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

reg [N-1:0] ev_on_reg, ev_off_reg;
// queue level: T, or under dsh X; port-level request (dsh only, else withdrawn): T
wire ev_onR = dsh11 ? pfc_on(gR11, qtR11) : pfc_on(fR11, tR11);
wire ev_offR = dsh11 ? pfc_off(gR11, qxR11) : pfc_off(fR11, xR11);
wire ev_onA = dsh11 ? pfc_on(gA11, qtA11) : pfc_on(fA11, tA11);
wire ev_offA = dsh11 ? pfc_off(gA11, qxA11) : pfc_off(fA11, xA11);
wire ev_onS = dsh11 ? pfc_on(gS11, qtS11) : pfc_on(fS11, tS11);
wire ev_offS = dsh11 ? pfc_off(gS11, qxS11) : pfc_off(fS11, xS11);
// the conditions and indices registered, then decoded to every PG a clock later
reg ev_onR_reg, ev_offR_reg, ev_onA_reg, ev_offA_reg, ev_onS_reg, ev_offS_reg;
reg ev_ronR_reg, ev_roffR_reg, ev_ronA_reg, ev_roffA_reg, ev_ronS_reg, ev_roffS_reg;
always @(posedge clk) begin
    ev_onR_reg <= ev_onR;
    ev_offR_reg <= ev_offR;
    ev_onA_reg <= ev_onA;
    ev_offA_reg <= ev_offA;
    ev_onS_reg <= ev_onS;
    ev_offS_reg <= ev_offS;
    ev_ronR_reg <= dsh11 && pfc_on(fR11, tR11);
    ev_roffR_reg <= !dsh11 || pfc_off(fR11, xR11);
    ev_ronA_reg <= dsh11 && pfc_on(fA11, tA11);
    ev_roffA_reg <= !dsh11 || pfc_off(fA11, xA11);
    ev_ronS_reg <= dsh11 && pfc_on(fS11, tS11);
    ev_roffS_reg <= !dsh11 || pfc_off(fS11, xS11);
end
// the three PGs' indices decoded in EVAL1, one-hot per port (with the event's valid) and per
// PG: EVAL2's hit of each of the N PGs is an AND of two registers (the port select drives 8
// PGs, the PG select PORT_COUNT)
reg [PORT_COUNT-1:0] ev_sp_reg, ev_ap_reg, ev_rp_reg;
reg [7:0]            ev_sg_reg, ev_ag_reg, ev_rg_reg;
integer xi;
always @(posedge clk) begin
    for (xi = 0; xi < PORT_COUNT; xi = xi + 1) begin
        ev_sp_reg[xi] <= sv[11] && sc[11][IW-1:3] == xi[IW-4:0];
        ev_ap_reg[xi] <= a_ok[11] && a_i[11][IW-1:3] == xi[IW-4:0];
        ev_rp_reg[xi] <= r_ok[11] && r_i[11][IW-1:3] == xi[IW-4:0];
    end
    for (xi = 0; xi < 8; xi = xi + 1) begin
        ev_sg_reg[xi] <= sc[11][2:0] == xi[2:0];
        ev_ag_reg[xi] <= a_i[11][2:0] == xi[2:0];
        ev_rg_reg[xi] <= r_i[11][2:0] == xi[2:0];
    end
    // a reset of one clock clears the events in flight here as well as the hits below
    if (rst && RST_FAULT_INJECT == 0) begin
        ev_sp_reg <= {PORT_COUNT{1'b0}};
        ev_ap_reg <= {PORT_COUNT{1'b0}};
        ev_rp_reg <= {PORT_COUNT{1'b0}};
    end
end
// the three events' hits on every PG (port select AND PG select), as vectors; a PG named by
// more than one takes the release's conditions, then the arrival's, then the scan's (all three
// agree when they name one PG)
wire [N-1:0] hit_s, hit_a, hit_r;
genvar gx;
generate
for (gx = 0; gx < PORT_COUNT; gx = gx + 1) begin : ev_dec
    assign hit_s[gx*8 +: 8] = {8{ev_sp_reg[gx]}} & ev_sg_reg;
    assign hit_a[gx*8 +: 8] = {8{ev_ap_reg[gx]}} & ev_ag_reg;
    assign hit_r[gx*8 +: 8] = {8{ev_rp_reg[gx]}} & ev_rg_reg;
end
endgenerate
wire [N-1:0] hit_any = hit_s | hit_a | hit_r;
wire [N-1:0] take_r = hit_r;
wire [N-1:0] take_a = hit_a & ~hit_r;
wire [N-1:0] take_s = hit_s & ~hit_a & ~hit_r;
always @(posedge clk) begin
    ev_hit_reg <= rst ? {N{1'b0}} : hit_any;
    ev_on_reg <= (take_r & {N{ev_onR_reg}}) | (take_a & {N{ev_onA_reg}})
                 | (take_s & {N{ev_onS_reg}}) | (~hit_any & ev_on_reg);
    ev_off_reg <= (take_r & {N{ev_offR_reg}}) | (take_a & {N{ev_offA_reg}})
                  | (take_s & {N{ev_offS_reg}}) | (~hit_any & ev_off_reg);
    ev_ron_reg <= (take_r & {N{ev_ronR_reg}}) | (take_a & {N{ev_ronA_reg}})
                  | (take_s & {N{ev_ronS_reg}}) | (~hit_any & ev_ron_reg);
    ev_roff_reg <= (take_r & {N{ev_roffR_reg}}) | (take_a & {N{ev_roffA_reg}})
                   | (take_s & {N{ev_roffS_reg}}) | (~hit_any & ev_roff_reg);
end

// ------------------------------------------------------------------------------ EVAL3
// (the queue-level state; mmu_core_dsh adds the port-level pause and drives pfc_xoff)
assign xoff_next = (xoff_reg & ~(ev_hit_reg & ev_off_reg))
                   | (~xoff_reg & ev_hit_reg & ev_on_reg);
always @(posedge clk) begin
    xoff_reg <= xoff_next;
    if (rst) begin
        xoff_reg <= {N{1'b0}};
    end
end

// watermarks of the admitted arrival's PG and queue, in EVAL1 from the registered post-commit
// entries (the write of pair k-1 merged by a select computed in EVAL0)
// max(v, old) with old the write register's (sel) or the carried one: both compares in
// parallel, the select last
function [W-1:0] wmax;
    input sel;
    input [W-1:0] v;
    input [W-1:0] o1;
    input [W-1:0] o2;
    begin
        wmax = sel ? ((v > o1) ? v : o1) : ((v > o2) ? v : o2);
    end
endfunction
wire [W-1:0]  w_h = eA_e[0 +: W], w_s = eA_e[W +: W], w_r = eA_e[2*W +: W];
wire [QW_W-1:0] w_qocc = {1'b0, qA_e[0 +: W]} + {1'b0, qA_e[W +: W]};
// shared + reserved > wm, as the sign of shared + reserved + ~wm (one carry chain, in
// parallel with the sum)
function qocc_gt;
    /* verilator lint_off UNUSEDSIGNAL */
    input [QE_W-1:0] q;    // (the class bit is unused)
    /* verilator lint_on UNUSEDSIGNAL */
    input [QW_W-1:0] wm;
    reg [W+2:0] a, b, c, sum;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [W+2:0] maj;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        a = {3'b000, q[0 +: W]};
        b = {3'b000, q[W +: W]};
        c = ~{2'b00, wm};
        maj = (a & b) | (a & c) | (b & c);
        sum = (a ^ b ^ c) + {maj[W+1:0], 1'b0};
        qocc_gt = !sum[W+2];
    end
endfunction
always @(posedge clk) begin
    wm_en_reg <= adm11;
    wm_i_reg <= a_i[11];
    wm_j_reg <= a_j[11];
    wm_pg_reg <= {wmax(wsel11, w_r, wm_pg_reg[2*W +: W], wA11[2*W +: W]),
                  wmax(wsel11, w_s, wm_pg_reg[W +: W], wA11[W +: W]),
                  wmax(wsel11, w_h, wm_pg_reg[0 +: W], wA11[0 +: W])};
    wm_q_reg <= wqsel11 ? (qocc_gt(qA_e, wm_q_reg) ? w_qocc : wm_q_reg)
                : (qocc_gt(qA_e, wQ11) ? w_qocc : wQ11);
    if (WATERMARKS == 0) begin
        wm_pg_reg <= {PGW_W{1'b0}};
        wm_q_reg <= {QW_W{1'b0}};
    end
    wmh_en_reg[1] <= wm_en_reg;
    wmh_i_reg[1] <= wm_i_reg;
    wmh_j_reg[1] <= wm_j_reg;
    wmh_pg_reg[1] <= wm_pg_reg;
    wmh_q_reg[1] <= wm_q_reg;
    wmh_en_reg[2] <= wmh_en_reg[1];
    wmh_i_reg[2] <= wmh_i_reg[1];
    wmh_j_reg[2] <= wmh_j_reg[1];
    wmh_pg_reg[2] <= wmh_pg_reg[1];
    wmh_q_reg[2] <= wmh_q_reg[1];
    if (rst) begin
        wm_en_reg <= 1'b0;
        wmh_en_reg[1] <= 1'b0;
        wmh_en_reg[2] <= 1'b0;
    end
end


// the outputs that are arrays in the code, as buses
assign pool_bus = {pool_reg[1], pool_reg[0]};
assign epool_bus = {epool_reg[1], epool_reg[0]};
assign wc_pool_bus = {wc_pool[1], wc_pool[0]};
assign wc_epool_bus = {wc_epool[1], wc_epool[0]};
assign wmh_en_bus = {wmh_en_reg[2], wmh_en_reg[1]};
assign wmh_i_bus = {wmh_i_reg[2], wmh_i_reg[1]};
assign wmh_j_bus = {wmh_j_reg[2], wmh_j_reg[1]};
assign wmh_pg_bus = {wmh_pg_reg[2], wmh_pg_reg[1]};
assign wmh_q_bus = {wmh_q_reg[2], wmh_q_reg[1]};

endmodule

`resetall
