/*
 * mmu_core's commit (stages E5 to E11): the exact per-PG and per-queue counters of each pair,
 * release first, then the decided amounts.  PRE composes pair k-1's update of this pair's
 * entries (its released cells gated in DEC1a's and DEC1b's clocks, its amounts in DEC2's),
 * C1 adds the entries after pair k-2 to both pairs' amounts, C2 takes the maxima and the
 * segments, so an entry's read-modify-write loop is two clocks (see COMMIT below).  The commit
 * register holds the pair's entries (both buses) for the state RAMs' write and for every
 * earlier stage's forwarding, with its history of two clocks; what the release takes from the
 * pools, and the admitted amounts, go to GLOBAL; the release underflow flag and count (the
 * release's part in C2: mmu_core_release, instantiated here).
 *
 * Interfaces: the per-pair fields (mmu_core_carry, *_bus); the decision, its amounts and the
 * stage 8 registers (mmu_core_decide); out the commit register and its history (to
 * mmu_core_view and _decide), the classes of the pairs in C2 and after it (DEC1b's class),
 * the entries before the pair and T / XON for EVAL0, the release's and the arrival's amounts
 * per pool for GLOBAL (mmu_core_eval), the underflow flag and count (status).
 *
 * Latency: the released cells gated E5-E7, PRE E7-E8, C1 E8-E9, C2 E9-E10 (the commit
 * register at E10, the state RAMs written at E11), GLOBAL's inputs at E10.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_commit #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of port index fields (carries out-of-range values)
    parameter PORT_W = 8,
    // width of the PG and queue index fields
    parameter PG_W = 4,
    parameter Q_W = 4,
    // derived, left at their defaults by mmu_core: the PG / queue index; cell counts, signed
    // decision values, T and what is compared with it (alpha up to 2^7), carry-save sums; the
    // PG entry {class, res, shared, hdrm} and the queue entry {class, res, shared}
    parameter IW = $clog2(PORT_COUNT) + 3,
    parameter W = CELL_W,
    parameter SW = CELL_W + 3,
    parameter TW = CELL_W + 10,
    parameter XW = CELL_W + 4,
    parameter PGE_W = 3 * CELL_W + 1,
    parameter QE_W = 2 * CELL_W + 1
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * The per-pair fields, stages 1 to 12 (mmu_core_carry)
     */
    input  wire [12-1:0]        a_ok_bus,
    input  wire [12-1:0]        a_badlen_bus,
    input  wire [12-1:0]        a_badidx_bus,
    input  wire [12*IW-1:0]     a_i_bus,
    input  wire [12*IW-1:0]     a_j_bus,
    input  wire [11*W-1:0]      a_cells_bus,
    input  wire [12-1:0]        r_ok_bus,
    input  wire [12*IW-1:0]     r_i_bus,
    input  wire [12*IW-1:0]     r_j_bus,
    input  wire [12*W-1:0]      r_c_bus,
    input  wire [12*IW-1:0]     sc_bus,

    /*
     * The decision (mmu_core_decide): the decision register, DEC2's amounts and their admit
     * gates, the admitted amounts; the stage 8 registers (entries brought up to pair k-3,
     * running sums, T and the XON point, C1's forwarding selects); the release and the
     * arrival name one PG / queue
     */
    input  wire                 dec_admit_reg, dec_class_reg, dec_qclass_reg,
    input  wire [W-1:0]         dec_tr_reg, dec_etr_reg, dec_esh_reg, dec_rem_reg,
    input  wire [W-1:0]         d2_rem, d2_to_res, d2_erem, d2_eto_res,
    input  wire [3:0]           dg_admit, dg_shared,
    input  wire [W-1:0]         g_sh, g_hd, g_cl, g_esh,
    input  wire [PGE_W-1:0]     e2A, e2R, e2S,
    input  wire [QE_W-1:0]      q2A, q2R,
    input  wire [W+1:0]         hsA8, hsrA8, hsR8, hsrR8, qsrA8, qsrR8,
    input  wire signed [TW-1:0] tA8, tR8, tS8, xA8, xR8, xS8,
    input  wire                 mA8_a, mA8_r, mR8_a, mR8_r, mS8_a, mS8_r, nA8_a, nA8_r, nR8_a,
    input  wire                 nR8_r,
    input  wire                 same_pg7, same_q7,
    input  wire                 c_same_pg,

    /*
     * A commit as every later stage sees it: PG and queue entries written by the release (0)
     * and by the arrival (1); the arrival's entry wins when both name the same index
     */
    output reg  [2*PGE_W-1:0]   cm_pg_val_reg,
    output reg  [2*QE_W-1:0]    cm_q_val_reg,
    // with the running sums COMMIT needs (hdrm + shared, + reserved; queue shared + reserved)
    // and whether the release bus's entry is empty after the commit (the arrival bus's never is)
    output reg  [2*(W+2)-1:0]   cm_pg_hs_reg, cm_pg_hsr_reg, cm_q_qsr_reg,
    output reg                  cm_pg_empty_reg, cm_q_empty_reg,
    // a copy of the commit register's entries for DEC1's compares, each copy driving half of
    // the loads (cleared by reset, which the commit register is not: synthesis merges
    // identical registers, keep or not)
    output reg  [2*PGE_W-1:0]   cmd_pg_val_reg,
    output reg  [2*QE_W-1:0]    cmd_q_val_reg,
    // the entries of the two clocks before (clock 1 at slot 0)
    output wire [2*2*PGE_W-1:0] cmh_pg_val_bus,
    output wire [2*2*QE_W-1:0]  cmh_q_val_bus,
    // the pair in C2: its admit and classes (it is in the commit register a clock later)
    output reg                  adm9, cls9, qcls9,
    // the pair after C2 (in the commit register): its classes
    output reg                  cls10, qcls10,

    /*
     * For EVAL0 and GLOBAL (mmu_core_eval): the arrival's and the scan PG's entries before
     * the pair, the pair's admit, the scan PG's selects, T and the XON point; C2's hdrm and
     * shared counts per bus (v_h_bus, v_s_bus: release at slot 0); what the release takes
     * (total, headroom, {lossy, lossless} pools and egress pools) and the admitted amounts
     */
    output reg  [PGE_W-1:0]     eA10, eS10,
    output reg  [QE_W-1:0]      qA10,
    output reg  signed [TW-1:0] tA10, tR10, tS10, xA10, xR10, xS10,
    output reg                  adm10,
    output reg                  same_pg10, eS10_a, eS10_r,
    output wire [2*XW-1:0]      v_h_bus,
    output wire [2*XW-1:0]      v_s_bus,
    // what the release takes, as candidates and the selects between them (GLOBAL and the
    // port headroom counters sum each candidate and select after the carry chains):
    //   total             gr_sel_t ? gr_rc : gr_uhsr
    //   headroom          gr_sel_h ? gr_rc : gr_uh       (gr_sel_p: the ports' copy)
    //   pool p            gr_zero_s[p] ? 0 : gr_sel_s[p] ? gr_uch[p] : gr_us[p]
    //   egress pool p     gr_sel_es[p] ? gr_rcq[p] : gr_uq[p]
    // (0 without a release; a pool's 0 when the release's PG or queue is of the other class)
    output wire [W-1:0]         gr_rc, gr_uhsr, gr_uh,
    output wire [2*W-1:0]       gr_uch_bus, gr_us_bus, gr_rcq_bus, gr_uq_bus,
    output wire                 gr_sel_t, gr_sel_h, gr_sel_p,
    output wire [1:0]           gr_zero_s, gr_sel_s, gr_sel_es,
    output reg  [W-1:0]         ga_c, ga_hd,
    output wire [2*W-1:0]       ga_sh_bus,
    output wire [2*W-1:0]       ga_esh_bus,

    /*
     * Release underflow: mmu_core's flag output, the error flags and the count (status)
     */
    output wire                 err_release_underflow,
    output wire [1:0]           err_flags_reg,
    output wire [31:0]          underflow_count_reg
);

`include "mmu_core_functions.vh"

// the per-pair fields of the pipeline (mmu_core_view), stage p of each at bus slot p - 1
// (a_cells: p - 2); a part reads only some of the stages
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg a_ok [1:12];
(* mem2reg *) reg a_badlen [1:12];
(* mem2reg *) reg a_badidx [1:12];
(* mem2reg *) reg [IW-1:0] a_i [1:12];
(* mem2reg *) reg [IW-1:0] a_j [1:12];
(* mem2reg *) reg [W-1:0] a_cells [2:12];
(* mem2reg *) reg r_ok [1:12];
(* mem2reg *) reg [IW-1:0] r_i [1:12];
(* mem2reg *) reg [IW-1:0] r_j [1:12];
(* mem2reg *) reg [W-1:0] r_c [1:12];
(* mem2reg *) reg [IW-1:0] sc [1:12];
/* verilator lint_on UNUSEDSIGNAL */
genvar pk;
generate
for (pk = 1; pk <= 12; pk = pk + 1) begin : carry
    always @* a_ok[pk] = a_ok_bus[pk-1];
    always @* a_badlen[pk] = a_badlen_bus[pk-1];
    always @* a_badidx[pk] = a_badidx_bus[pk-1];
    always @* a_i[pk] = a_i_bus[(pk-1)*IW +: IW];
    always @* a_j[pk] = a_j_bus[(pk-1)*IW +: IW];
    always @* r_ok[pk] = r_ok_bus[pk-1];
    always @* r_i[pk] = r_i_bus[(pk-1)*IW +: IW];
    always @* r_j[pk] = r_j_bus[(pk-1)*IW +: IW];
    always @* r_c[pk] = r_c_bus[(pk-1)*W +: W];
    always @* sc[pk] = sc_bus[(pk-1)*IW +: IW];
end
for (pk = 2; pk <= 12; pk = pk + 1) begin : carry_cells
    always @* a_cells[pk] = a_cells_bus[(pk-2)*W +: W];
end
endgenerate

// ------------------------------------------------------------------------------ entries
// the commit register's enables and indices (its entries: the ports above), and the same for
// the two clocks before (pairs whose RAM write the read may have missed)
reg [1:0]        cm_pg_en_reg;
reg [2*IW-1:0]   cm_pg_idx_reg;
reg [1:0]        cm_q_en_reg;
reg [2*IW-1:0]   cm_q_idx_reg;
(* mem2reg *) reg  [1:0]        cmh_pg_en_reg [1:2];
(* mem2reg *) reg  [2*IW-1:0]   cmh_pg_idx_reg [1:2];
(* mem2reg *) reg  [2*PGE_W-1:0] cmh_pg_val_reg [1:2];
(* mem2reg *) reg  [1:0]        cmh_q_en_reg [1:2];
(* mem2reg *) reg  [2*IW-1:0]   cmh_q_idx_reg [1:2];
(* mem2reg *) reg  [2*QE_W-1:0] cmh_q_val_reg [1:2];

// ------------------------------------------------------------------------------ released cells
// PRE's release gates (in DEC1a's clock): pair k-1's release (m1 / n1) and this pair's (m2 /
// n2) on this pair's release (0) and arrival (1) PG / queue
// (each computed a clock ahead from the stage before, then registered again: the indices
// shift every clock, and rst clears r_ok / a_ok as the carry stage does)
reg [1:0]   p_m1, p_m2, p_n1, p_n2;
reg [1:0]   p_m1e, p_m2e, p_n1e, p_n2e;
always @(posedge clk) begin
    p_m1e[0] <= !rst && r_ok[5] && r_i[5] == r_i[4];
    p_m1e[1] <= !rst && r_ok[5] && r_i[5] == a_i[4];
    p_m2e[0] <= !rst && r_ok[4];
    p_m2e[1] <= !rst && r_ok[4] && a_ok[4] && r_i[4] == a_i[4];
    p_n1e[0] <= !rst && r_ok[5] && r_j[5] == r_j[4];
    p_n1e[1] <= !rst && r_ok[5] && r_j[5] == a_j[4];
    p_n2e[0] <= !rst && r_ok[4];
    p_n2e[1] <= !rst && r_ok[4] && a_ok[4] && r_j[4] == a_j[4];
end
(* keep *) always @(posedge clk) begin
    p_m1 <= p_m1e;
    p_m2 <= p_m2e;
    p_n1 <= p_n1e;
    p_n2 <= p_n2e;
end
// the released cells on each bus, gated: pair k-1's (c1) and this pair's (c2), and
// their sum, per bus (0 release, 1 arrival) of the PG and of the queue
// the released cells of pair k-1 and of pair k on an entry (each if it names it)
function [W:0] c12_of;
    input m1, m2;
    input [W-1:0] c1, c2;
    begin
        c12_of = (m1 ? {1'b0, c1} : {(W+1){1'b0}}) + (m2 ? {1'b0, c2} : {(W+1){1'b0}});
    end
endfunction
// (c1 and c1 + c2 stored complemented, as PRE's sums take them: no inverter between these
// registers and PRE's carry chains; c2 is subtracted, the inversion inside the chain)
(* mem2reg *) reg  [W-1:0] p_c1n [0:1], p_c2 [0:1], p_c1qn [0:1], p_c2q [0:1];
(* mem2reg *) reg  [W:0]   p_c12n [0:1], p_c12qn [0:1];
(* mem2reg *) reg          p_c2nz [0:1], p_c2qnz [0:1];   // c2 > 0
always @(posedge clk) begin
    p_c1n[0] <= ~(p_m1[0] ? r_c[7] : {W{1'b0}});
    p_c1n[1] <= ~(p_m1[1] ? r_c[7] : {W{1'b0}});
    p_c2[0] <= p_m2[0] ? r_c[6] : {W{1'b0}};
    p_c2[1] <= p_m2[1] ? r_c[6] : {W{1'b0}};
    p_c1qn[0] <= ~(p_n1[0] ? r_c[7] : {W{1'b0}});
    p_c1qn[1] <= ~(p_n1[1] ? r_c[7] : {W{1'b0}});
    p_c2q[0] <= p_n2[0] ? r_c[6] : {W{1'b0}};
    p_c2q[1] <= p_n2[1] ? r_c[6] : {W{1'b0}};
    p_c2nz[0] <= p_m2[0] && r_c[6] != 0;
    p_c2nz[1] <= p_m2[1] && r_c[6] != 0;
    p_c2qnz[0] <= p_n2[0] && r_c[6] != 0;
    p_c2qnz[1] <= p_n2[1] && r_c[6] != 0;
    p_c12n[0] <= ~c12_of(p_m1[0], p_m2[0], r_c[7], r_c[6]);
    p_c12n[1] <= ~c12_of(p_m1[1], p_m2[1], r_c[7], r_c[6]);
    p_c12qn[0] <= ~c12_of(p_n1[0], p_n2[0], r_c[7], r_c[6]);
    p_c12qn[1] <= ~c12_of(p_n1[1], p_n2[1], r_c[7], r_c[6]);
end

// ------------------------------------------------------------------------------ COMMIT
// Exact counters, release first (headroom, shared, reserved; egress shared, reserved; each
// clamps at what is held), then the decided amounts.  With running sums hs = hdrm + shared
// and hsr = hs + reserved (queue: qs = shared, qsr = qs + reserved) each sum x of an entry
// changes as x -> max(x - c, 0) + a, c the released cells (if the release names the entry),
// a the sum's part of the admitted amounts (if the arrival names it).  Two such steps compose:
//     max(max(x - c1, 0) + a1 - c2, 0) + a2 = max(D, Q),
//     D = x + (a1 - c1 - c2) + a2,   Q = max(a1 - c2, 0) + a2,
// so an entry's loop is two clocks long: C1 adds x (the entry after pair k-2) to pair k-1's
// and pair k's amounts, C2 takes the maximum.  PRE (in DEC2's clock) composes pair k-1's part;
// the segments follow from which maxima the clamps took (shared = hs - hdrm has three cases:
// neither clamp, only hdrm's, both; reserved likewise).  Each bus of the pair (the release's
// PG / queue, the arrival's) is composed on its own; when both name one entry they agree.

// PRE: pair k-1 (amounts in the decision registers, cells r_c[7]) on pair k's entries
function [XW-1:0] gate;
    input en;
    input [W-1:0] v;
    begin
        gate = en ? xz(v) : {XW{1'b0}};
    end
endfunction
function neg;   // a - b < 0
    input [XW-1:0] a;
    input [XW-1:0] b;
    reg [XW-1:0] d;
    begin
        d = a + ~b + 1'b1;
        neg = d[XW-1];
    end
endfunction
function [XW-1:0] sub0;   // max(a - b, 0)
    input [XW-1:0] a;
    input [XW-1:0] b;
    reg [XW-1:0] d;
    begin
        d = a + ~b + 1'b1;
        sub0 = d[XW-1] ? {XW{1'b0}} : d;
    end
endfunction
// per bus (0 release, 1 arrival): pair k-1's amounts on the entry, pair k-1's and pair k's
// release on it, and the composed constants (mm = a1 - c1 - c2 - 1: C1 adds it with carry in)
wire [XW-1:0] z = {XW{1'b0}};
(* mem2reg *) reg  [XW-1:0] p_a1s [0:1], p_a1r [0:1], p_a1qr [0:1];
(* mem2reg *) reg  [XW-1:0] p_mmh [0:1], p_mmhs [0:1], p_mmhsr [0:1], p_mmqs [0:1], p_mmqsr [0:1];
(* mem2reg *) reg  [XW-1:0] p_q1h [0:1], p_q1hs [0:1], p_q1hsr [0:1], p_q1qs [0:1], p_q1qsr [0:1];
(* mem2reg *) reg  [XW-1:0] p_qs [0:1], p_qr [0:1], p_qqr [0:1];
(* mem2reg *) reg  [XW-1:0] p_m3s [0:1], p_m3r [0:1], p_m3qr [0:1];
(* mem2reg *) reg           p_cls1 [0:1], p_qcls1 [0:1];
// mm - q1 of each running sum (D - Q = x + (mm - q1) + 1: C1 takes C2's clamp choices)
(* mem2reg *) reg  [XW-1:0] p_dqh [0:1], p_dqhs [0:1], p_dqhsr [0:1], p_dqqs [0:1], p_dqqsr [0:1];
genvar pb;
generate
for (pb = 0; pb < 2; pb = pb + 1) begin : pre
    // (the released cells come gated from DEC1)
    // the gates of pair k-1's amounts on this bus, registered with its decision (admitted,
    // its arrival names this bus's PG / queue; headroom or shared): each its own register,
    // so the admit's fan-out is spread
    reg g1_h, g1_s, g1_a, g1_q;
    // pair k-1's arrival names this bus's PG / queue (compared a clock ahead)
    reg same_i7, same_j7;
    always @(posedge clk) begin
        same_i7 <= a_i[6] == (pb ? a_i[5] : r_i[5]);
        same_j7 <= a_j[6] == (pb ? a_j[5] : r_j[5]);
        g1_h <= dg_admit[pb] && !dg_shared[pb] && same_i7;
        g1_s <= dg_admit[pb] && dg_shared[pb] && same_i7;
        g1_a <= dg_admit[pb] && same_i7;
        g1_q <= dg_admit[pb] && same_j7;
    end
    // pair k-1's amounts ungated (R: the rest, C: the cells, T: to reserved; queue Rq, Tq):
    // every carry chain starts at registers, the gates select after it.  With a1 = 0 (gate
    // off) each composed constant is a function of the releases alone (c2 > 0 or not).
    // (PRE's own copy per bus of the decision's amounts: each feeds several carry chains)
    reg [W-1:0] r_p, c_p, t_p, rq_p, tq_p;
    (* keep *) always @(posedge clk) begin
        r_p <= d2_rem;
        c_p <= a_badlen[7] ? {W{1'b0}} : a_cells[7];   // (= a_cells[8]; not merged with it)
        t_p <= d2_to_res;
        rq_p <= d2_erem;
        tq_p <= d2_eto_res;
    end
    wire [XW-1:0] R = xz(r_p), C = xz(c_p), T = xz(t_p);
    wire [XW-1:0] Rq = xz(rq_p), Tq = xz(tq_p);
    // the released cells (c1, c1 + c2 complemented: ~c = -c - 1, in XW bits)
    wire [XW-1:0] nc1 = {{(XW-W){1'b1}}, p_c1n[pb]}, c2 = xz(p_c2[pb]);
    wire [XW-1:0] nc1q = {{(XW-W){1'b1}}, p_c1qn[pb]}, c2q = xz(p_c2q[pb]);
    wire [XW-1:0] nc12 = {{(XW-W-1){1'b1}}, p_c12n[pb]};
    wire [XW-1:0] nc12q = {{(XW-W-1){1'b1}}, p_c12qn[pb]};
    wire c2nz = p_c2nz[pb], c2qnz = p_c2qnz[pb];
    wire [XW-1:0] r_c2 = R - c2, c_c2 = C - c2;
    wire [XW-1:0] rq_c2 = Rq - c2q, c_c2q = C - c2q;
    wire [XW-1:0] r_m12 = R + nc12, c_m12 = C + nc12, rq_m12 = Rq + nc12q, c_m12q = C + nc12q;
    wire [XW-1:0] r_m1 = R + nc1, t_m1 = T + nc1, tq_m1 = Tq + nc1q;
    // the clamps' signs (R < c2, C < c2 and the queue's), compared a clock ahead from what
    // R, C, c2 and c2q are registered from: each is a register, not the end of a chain that
    // then selects every bit of a sum
    reg r_lt, c_lt, rq_lt, cq_lt;
    wire [W-1:0] c2_nx = p_m2[pb] ? r_c[6] : {W{1'b0}};
    wire [W-1:0] c2q_nx = p_n2[pb] ? r_c[6] : {W{1'b0}};
    wire [W-1:0] c_nx = a_badlen[7] ? {W{1'b0}} : a_cells[7];
    always @(posedge clk) begin
        r_lt <= d2_rem < c2_nx;
        c_lt <= c_nx < c2_nx;
        rq_lt <= d2_erem < c2q_nx;
        cq_lt <= c_nx < c2q_nx;
    end
    always @(posedge clk) begin
        p_a1s[pb] <= g1_s ? R : z;
        p_a1r[pb] <= g1_a ? T : z;
        p_a1qr[pb] <= g1_q ? Tq : z;
        p_mmh[pb] <= g1_h ? r_m12 : nc12;
        p_mmhs[pb] <= g1_a ? r_m12 : nc12;
        p_mmhsr[pb] <= g1_a ? c_m12 : nc12;
        p_mmqs[pb] <= g1_q ? rq_m12 : nc12q;
        p_mmqsr[pb] <= g1_q ? c_m12q : nc12q;
        p_q1h[pb] <= (g1_h && !r_lt) ? r_c2 : z;
        p_q1hs[pb] <= (g1_a && !r_lt) ? r_c2 : z;
        p_q1hsr[pb] <= (g1_a && !c_lt) ? c_c2 : z;
        p_q1qs[pb] <= (g1_q && !rq_lt) ? rq_c2 : z;
        p_q1qsr[pb] <= (g1_q && !cq_lt) ? c_c2q : z;
        // both clamps taken: what is left of pair k-1's shared / reserved amounts
        p_qs[pb] <= (g1_s && !r_lt) ? r_c2 : z;
        p_qr[pb] <= !g1_a ? z : !r_lt ? T : !c_lt ? c_c2 : z;
        p_qqr[pb] <= !g1_q ? z : !rq_lt ? Tq : !cq_lt ? c_c2q : z;
        // only the lower clamp taken (minus 1: C1 adds it with carry in)
        p_m3s[pb] <= g1_s ? (c2nz ? r_m12 : r_m1) : g1_h ? (r_lt ? r_m12 : nc1)
                     : (c2nz ? nc12 : nc1);
        p_m3r[pb] <= g1_a ? (r_lt ? c_m12 : t_m1) : (c2nz ? nc12 : nc1);
        p_m3qr[pb] <= g1_q ? (rq_lt ? c_m12q : tq_m1) : (c2qnz ? nc12q : nc1q);
        // mm - q1: r_m12 - r_c2 = -c1 - 1 = nc1 when the clamp leaves a rest, else mm
        p_dqh[pb] <= g1_h ? (r_lt ? r_m12 : nc1) : nc12;
        p_dqhs[pb] <= g1_a ? (r_lt ? r_m12 : nc1) : nc12;
        p_dqhsr[pb] <= g1_a ? (c_lt ? c_m12 : nc1) : nc12;
        p_dqqs[pb] <= g1_q ? (rq_lt ? rq_m12 : nc1q) : nc12q;
        p_dqqsr[pb] <= g1_q ? (cq_lt ? c_m12q : nc1q) : nc12q;
        // pair k-1's arrival names the entry: its class is the entry's
        p_cls1[pb] <= g1_a;
        p_qcls1[pb] <= g1_q;
    end
end
endgenerate

// C1: the entries after pair k-2 (the commit register or DEC2's), plus pair k's amounts
wire [PGE_W-1:0] xR = sel_pg(mR8_a, mR8_r, cm_pg_val_reg, e2R);
wire [PGE_W-1:0] xA = sel_pg(mA8_a, mA8_r, cm_pg_val_reg, e2A);
wire [PGE_W-1:0] xS = sel_pg(mS8_a, mS8_r, cm_pg_val_reg, e2S);
wire [QE_W-1:0]  yR = sel_q(nR8_a, nR8_r, cm_q_val_reg, q2R);
wire [QE_W-1:0]  yA = sel_q(nA8_a, nA8_r, cm_q_val_reg, q2A);
wire [W+1:0] xR_hs = mR8_a ? cm_pg_hs_reg[W+2 +: W+2] : mR8_r ? cm_pg_hs_reg[0 +: W+2] : hsR8;
wire [W+1:0] xR_hsr = mR8_a ? cm_pg_hsr_reg[W+2 +: W+2] : mR8_r ? cm_pg_hsr_reg[0 +: W+2]
                      : hsrR8;
wire [W+1:0] yR_qsr = nR8_a ? cm_q_qsr_reg[W+2 +: W+2] : nR8_r ? cm_q_qsr_reg[0 +: W+2]
                      : qsrR8;

// C1 registers, per bus: D and Q of each running sum, the three candidates of each segment
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg [XW-1:0] c_dh [0:1], c_dhs [0:1], c_dhsr [0:1], c_qh [0:1], c_qhs [0:1], c_qhsr [0:1];
(* mem2reg *) reg [XW-1:0] c_s1 [0:1], c_s2 [0:1], c_s3 [0:1], c_r1 [0:1], c_r2 [0:1], c_r3 [0:1];
(* mem2reg *) reg [XW-1:0] c_dqs [0:1], c_dqsr [0:1], c_qqs [0:1], c_qqsr [0:1];
(* mem2reg *) reg [XW-1:0] c_qr1 [0:1], c_qr2 [0:1], c_qr3 [0:1];
/* verilator lint_on UNUSEDSIGNAL */
(* mem2reg *) reg          c_cls [0:1], c_qcls [0:1];
generate
for (pb = 0; pb < 2; pb = pb + 1) begin : c1
    wire [PGE_W-1:0] x = pb ? xA : xR;
    wire [QE_W-1:0]  y = pb ? yA : yR;
    // the entry's fields after pair k-2: the commit register's arrival (a) or release (r) bus
    // when pair k-2 named the entry, else DEC2's; the selects in a copy per field (kept
    // apart: one select drove every bit of the entry into C1's sums and compares)
    reg [1:0] m_h, m_s, m_r, m_hs, m_hsr, n_qs, n_qr, n_qsr;
    // pair k-2's arrival / release names the entry: the index compares a clock ahead (the
    // indices shift every clock; r_ok is cleared by rst as the carry stage clears it)
    wire [IW-1:0] i6 = pb ? a_i[6] : r_i[6];
    wire [IW-1:0] j6 = pb ? a_j[6] : r_j[6];
    reg ea_i, er_i, ea_j, er_j;
    (* keep *) always @(posedge clk) begin
        ea_i <= a_i[8] == i6;
        er_i <= !rst && r_ok[8] && r_i[8] == i6;
        ea_j <= a_j[8] == j6;
        er_j <= !rst && r_ok[8] && r_j[8] == j6;
    end
    (* keep *) always @(posedge clk) begin
        m_h <= {adm9 && ea_i, er_i};
        m_s <= {adm9 && ea_i, er_i};
        m_r <= {adm9 && ea_i, er_i};
        m_hs <= {adm9 && ea_i, er_i};
        m_hsr <= {adm9 && ea_i, er_i};
        n_qs <= {adm9 && ea_j, er_j};
        n_qr <= {adm9 && ea_j, er_j};
        n_qsr <= {adm9 && ea_j, er_j};
    end
    // (the class bits come through x and y)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [PGE_W-1:0] e2 = pb ? e2A : e2R;
    wire [QE_W-1:0]  q2 = pb ? q2A : q2R;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [XW-1:0] xh = xz(m_h[1] ? cm_pg_val_reg[PGE_W +: W] : m_h[0] ? cm_pg_val_reg[0 +: W]
                          : e2[0 +: W]);
    wire [XW-1:0] xs = xz(m_s[1] ? cm_pg_val_reg[PGE_W + W +: W]
                          : m_s[0] ? cm_pg_val_reg[W +: W] : e2[W +: W]);
    wire [XW-1:0] xr = xz(m_r[1] ? cm_pg_val_reg[PGE_W + 2*W +: W]
                          : m_r[0] ? cm_pg_val_reg[2*W +: W] : e2[2*W +: W]);
    wire [XW-1:0] xhs = {{(XW-W-2){1'b0}}, m_hs[1] ? cm_pg_hs_reg[W+2 +: W+2]
                         : m_hs[0] ? cm_pg_hs_reg[0 +: W+2] : (pb ? hsA8 : hsR8)};
    wire [XW-1:0] xhsr = {{(XW-W-2){1'b0}}, m_hsr[1] ? cm_pg_hsr_reg[W+2 +: W+2]
                          : m_hsr[0] ? cm_pg_hsr_reg[0 +: W+2] : (pb ? hsrA8 : hsrR8)};
    wire [XW-1:0] yqs = xz(n_qs[1] ? cm_q_val_reg[QE_W +: W] : n_qs[0] ? cm_q_val_reg[0 +: W]
                           : q2[0 +: W]);
    wire [XW-1:0] yqr = xz(n_qr[1] ? cm_q_val_reg[QE_W + W +: W]
                           : n_qr[0] ? cm_q_val_reg[W +: W] : q2[W +: W]);
    wire [XW-1:0] yqsr = {{(XW-W-2){1'b0}}, n_qsr[1] ? cm_q_qsr_reg[W+2 +: W+2]
                          : n_qsr[0] ? cm_q_qsr_reg[0 +: W+2] : (pb ? qsrA8 : qsrR8)};
    // pair k's amounts on this bus (the arrival's own, or the release's when both name one)
    // the gates of this pair's amounts on this bus, registered with the decision (admitted,
    // and for the release's bus: the arrival names the same PG / queue)
    reg g2_h, g2_s, g2_a, g2_q;
    always @(posedge clk) begin
        g2_h <= dg_admit[2 + pb] && !dg_shared[2 + pb] && (pb ? a_ok[7] : same_pg7);
        g2_s <= dg_admit[2 + pb] && dg_shared[2 + pb] && (pb ? a_ok[7] : same_pg7);
        g2_a <= dg_admit[2 + pb] && (pb ? a_ok[7] : same_pg7);
        g2_q <= dg_admit[2 + pb] && (pb ? !a_badidx[7] : same_q7);
    end
    // (C1's own copy per bus of the arrival's cells, = a_cells[8]; kept: not merged with it,
    // whose other loads are across the core)
    reg [W-1:0] cells8;
    (* keep *) always @(posedge clk) cells8 <= a_cells[7];
    wire [XW-1:0] a2h = gate(g2_h, dec_rem_reg), a2hs = gate(g2_a, dec_rem_reg);
    wire [XW-1:0] a2hsr = gate(g2_a, cells8), a2s = gate(g2_s, dec_rem_reg);
    wire [XW-1:0] a2r = gate(g2_a, dec_tr_reg);
    wire [XW-1:0] a2qs = gate(g2_q, dec_esh_reg), a2qsr = gate(g2_q, cells8);
    wire [XW-1:0] a2qr = gate(g2_q, dec_etr_reg);
    always @(posedge clk) begin
        c_dh[pb] <= add3(xh, p_mmh[pb], a2h, 1'b1);
        c_dhs[pb] <= add3(xhs, p_mmhs[pb], a2hs, 1'b1);
        c_dhsr[pb] <= add3(xhsr, p_mmhsr[pb], a2hsr, 1'b1);
        c_qh[pb] <= p_q1h[pb] + a2h;
        c_qhs[pb] <= p_q1hs[pb] + a2hs;
        c_qhsr[pb] <= p_q1hsr[pb] + a2hsr;
        c_s1[pb] <= add3(xs, p_a1s[pb], a2s, 1'b0);
        c_s2[pb] <= p_qs[pb] + a2s;
        c_s3[pb] <= add3(xhs, p_m3s[pb], a2s, 1'b1);
        c_r1[pb] <= add3(xr, p_a1r[pb], a2r, 1'b0);
        c_r2[pb] <= p_qr[pb] + a2r;
        c_r3[pb] <= add3(xhsr, p_m3r[pb], a2r, 1'b1);
        c_dqs[pb] <= add3(yqs, p_mmqs[pb], a2qs, 1'b1);
        c_dqsr[pb] <= add3(yqsr, p_mmqsr[pb], a2qsr, 1'b1);
        c_qqs[pb] <= p_q1qs[pb] + a2qs;
        c_qqsr[pb] <= p_q1qsr[pb] + a2qsr;
        c_qr1[pb] <= add3(yqr, p_a1qr[pb], a2qr, 1'b0);
        c_qr2[pb] <= p_qqr[pb] + a2qr;
        c_qr3[pb] <= add3(yqsr, p_m3qr[pb], a2qr, 1'b1);
        // class: pair k's arrival's, else pair k-1's, else the entry's
        c_cls[pb] <= g2_a ? dec_class_reg : p_cls1[pb] ? cls9 : x[3*W];
        c_qcls[pb] <= g2_q ? dec_qclass_reg : p_qcls1[pb] ? qcls9 : y[2*W];
    end
    // C2's clamp choices (D >= Q): D - Q = x + (mm - q1) + 1 does not depend on pair k's
    // amounts, so the compare is made here; a copy per field it selects in C2 (kept apart:
    // one compare drove every bit of C2's selects)
    wire [XW-1:0] dq_h = xh + p_dqh[pb] + 1'b1, dq_hs = xhs + p_dqhs[pb] + 1'b1;
    wire [XW-1:0] dq_hsr = xhsr + p_dqhsr[pb] + 1'b1;
    wire [XW-1:0] dq_qs = yqs + p_dqqs[pb] + 1'b1, dq_qsr = yqsr + p_dqqsr[pb] + 1'b1;
    reg ge_h_h, ge_h_s, ge_hs_hs, ge_hs_s, ge_hs_r, ge_hsr_hsr, ge_hsr_r;
    reg ge_qs_qs, ge_qs_r, ge_qsr_qsr, ge_qsr_r;
    (* keep *) always @(posedge clk) begin
        ge_h_h <= !dq_h[XW-1];
        ge_h_s <= !dq_h[XW-1];
        ge_hs_hs <= !dq_hs[XW-1];
        ge_hs_s <= !dq_hs[XW-1];
        ge_hs_r <= !dq_hs[XW-1];
        ge_hsr_hsr <= !dq_hsr[XW-1];
        ge_hsr_r <= !dq_hsr[XW-1];
        ge_qs_qs <= !dq_qs[XW-1];
        ge_qs_r <= !dq_qs[XW-1];
        ge_qsr_qsr <= !dq_qsr[XW-1];
        ge_qsr_r <= !dq_qsr[XW-1];
    end
end
endgenerate

// the entries before pair k (for the release's amounts, the underflow flag and EVAL0): the
// entry after pair k-2, or pair k-1's commit when it names it (selects for C2)
reg [PGE_W-1:0] xR9, xA9, xS9;
reg [QE_W-1:0]  yR9, yA9;
reg [W+1:0]     xR9_hs, xR9_hsr, yR9_qsr;
reg            uA_a9, uA_r9, uS_a9, uS_r9, vA_a9, vA_r9;
reg            same_pg9;
reg [W-1:0]     g_cl9, g_sh9, g_hd9, g_esh9;
reg signed [TW-1:0] tA9, tR9, tS9, xA9t, xR9t, xS9t;
always @(posedge clk) begin
    xR9 <= xR;
    xA9 <= xA;
    xS9 <= xS;
    yR9 <= yR;
    yA9 <= yA;
    xR9_hs <= xR_hs;
    xR9_hsr <= xR_hsr;
    yR9_qsr <= yR_qsr;
    // pair k-1 is in C2 now: in the commit register at C2
    adm9 <= dec_admit_reg;
    cls9 <= dec_class_reg;
    qcls9 <= dec_qclass_reg;
    same_pg9 <= c_same_pg;
    g_cl9 <= g_cl;
    g_sh9 <= g_sh;
    g_hd9 <= g_hd;
    g_esh9 <= g_esh;
    tA9 <= tA8; tR9 <= tR8; tS9 <= tS8;
    xA9t <= xA8; xR9t <= xR8; xS9t <= xS8;
    // a reset clears the admitted amounts too: GLOBAL adds them without adm9 (a one-clock
    // reset with an admitted arrival in DEC2 left them in the pools; found by formal/mmu_core.sby)
    if (rst) begin
        adm9 <= 1'b0;
        g_cl9 <= {W{1'b0}};
        g_sh9 <= {W{1'b0}};
        g_hd9 <= {W{1'b0}};
        g_esh9 <= {W{1'b0}};
    end
end
// C2's forwarding selects (kept: it has copies; the release's are mmu_core_release's)
(* keep *) always @(posedge clk) begin
    uA_a9 <= adm9 && a_i[9] == a_i[8];
    uA_r9 <= r_ok[9] && r_i[9] == a_i[8];
    uS_a9 <= adm9 && a_i[9] == sc[8];
    uS_r9 <= r_ok[9] && r_i[9] == sc[8];
    vA_a9 <= adm9 && a_j[9] == a_j[8];
    vA_r9 <= r_ok[9] && r_j[9] == a_j[8];
end

// C2: each running sum the larger of D and Q; the segments by the clamps taken
function [XW-1:0] pick_max;
    input ge;
    input [XW-1:0] d;
    input [XW-1:0] q;
    begin
        pick_max = ge ? d : q;
    end
endfunction
/* verilator lint_off UNUSEDSIGNAL */
wire [XW-1:0] v_h [0:1], v_hs [0:1], v_hsr [0:1], v_s [0:1], v_r [0:1];
wire [XW-1:0] v_qs [0:1], v_qsr [0:1], v_qr [0:1];
/* verilator lint_on UNUSEDSIGNAL */
wire          v_empty [0:1], v_qempty [0:1];
generate
for (pb = 0; pb < 2; pb = pb + 1) begin : c2
    assign v_h[pb] = pick_max(c1[pb].ge_h_h, c_dh[pb], c_qh[pb]);
    assign v_hs[pb] = pick_max(c1[pb].ge_hs_hs, c_dhs[pb], c_qhs[pb]);
    assign v_hsr[pb] = pick_max(c1[pb].ge_hsr_hsr, c_dhsr[pb], c_qhsr[pb]);
    assign v_s[pb] = c1[pb].ge_h_s ? c_s1[pb] : c1[pb].ge_hs_s ? c_s3[pb] : c_s2[pb];
    assign v_r[pb] = c1[pb].ge_hs_r ? c_r1[pb] : c1[pb].ge_hsr_r ? c_r3[pb] : c_r2[pb];
    assign v_qs[pb] = pick_max(c1[pb].ge_qs_qs, c_dqs[pb], c_qqs[pb]);
    assign v_qsr[pb] = pick_max(c1[pb].ge_qsr_qsr, c_dqsr[pb], c_qqsr[pb]);
    assign v_qr[pb] = c1[pb].ge_qs_r ? c_qr1[pb] : c1[pb].ge_qsr_r ? c_qr3[pb] : c_qr2[pb];
    assign v_empty[pb] = c1[pb].ge_hsr_r ? c_dhsr[pb] == 0 : c_qhsr[pb] == 0;
    assign v_qempty[pb] = c1[pb].ge_qsr_r ? c_dqsr[pb] == 0 : c_qqsr[pb] == 0;
end
endgenerate

// the release (mmu_core_release): its entries before pair k (C2's selects of the commit
// register), what it takes from each segment and pool for GLOBAL, the underflow flag and count
mmu_core_release #(.PORT_COUNT(PORT_COUNT), .CELL_W(CELL_W), .PORT_W(PORT_W), .PG_W(PG_W),
                   .Q_W(Q_W), .IW(IW), .W(W), .SW(SW), .TW(TW), .XW(XW), .PGE_W(PGE_W),
                   .QE_W(QE_W))
release_inst (
    .clk(clk), .rst(rst), .a_i_bus(a_i_bus), .a_j_bus(a_j_bus), .r_ok_bus(r_ok_bus),
    .r_i_bus(r_i_bus), .r_j_bus(r_j_bus), .r_c_bus(r_c_bus), .adm9(adm9),
    .cm_pg_val_reg(cm_pg_val_reg), .cm_q_val_reg(cm_q_val_reg), .cm_pg_hsr_reg(cm_pg_hsr_reg),
    .xR9(xR9), .yR9(yR9), .xR9_hs(xR9_hs), .xR9_hsr(xR9_hsr), .yR9_qsr(yR9_qsr),
    .v_h_bus(v_h_bus), .v_hs_bus({v_hs[1], v_hs[0]}), .v_hsr_bus({v_hsr[1], v_hsr[0]}),
    .v_qs_bus({v_qs[1], v_qs[0]}), .v_qsr_bus({v_qsr[1], v_qsr[0]}), .gr_rc(gr_rc),
    .gr_uhsr(gr_uhsr), .gr_uh(gr_uh), .gr_uch_bus(gr_uch_bus), .gr_us_bus(gr_us_bus),
    .gr_rcq_bus(gr_rcq_bus), .gr_uq_bus(gr_uq_bus), .gr_sel_t(gr_sel_t), .gr_sel_h(gr_sel_h),
    .gr_sel_p(gr_sel_p), .gr_zero_s(gr_zero_s), .gr_sel_s(gr_sel_s), .gr_sel_es(gr_sel_es),
    .err_release_underflow(err_release_underflow), .err_flags_reg(err_flags_reg),
    .underflow_count_reg(underflow_count_reg)
);

// the admitted amounts for GLOBAL, gated by the pool the arrival's PG / queue is charged to
// (0 lossless, 1 lossy), as the release's amounts
(* mem2reg *) reg [W-1:0] ga_sh [0:1], ga_esh [0:1];
integer gpi;
always @(posedge clk) begin
    for (gpi = 0; gpi < 2; gpi = gpi + 1) begin
        ga_sh[gpi] <= (cls9 == (gpi == 0)) ? g_sh9 : {W{1'b0}};
        ga_esh[gpi] <= (qcls9 == (gpi == 0)) ? g_esh9 : {W{1'b0}};
    end
    ga_c <= g_cl9;
    ga_hd <= g_hd9;
    if (rst) begin
        for (gpi = 0; gpi < 2; gpi = gpi + 1) begin
            ga_sh[gpi] <= 0;
            ga_esh[gpi] <= 0;
        end
        ga_c <= 0;
        ga_hd <= 0;
    end
end

always @(posedge clk) begin
    cm_pg_en_reg <= {adm9, r_ok[9]};
    cm_pg_idx_reg <= {a_i[9], r_i[9]};
    cm_pg_empty_reg <= v_empty[0];
    cmd_pg_val_reg <= {c_cls[1], v_r[1][W-1:0], v_s[1][W-1:0], v_h[1][W-1:0],
                       c_cls[0], v_r[0][W-1:0], v_s[0][W-1:0], v_h[0][W-1:0]};
    cmd_q_val_reg <= {c_qcls[1], v_qr[1][W-1:0], v_qs[1][W-1:0],
                      c_qcls[0], v_qr[0][W-1:0], v_qs[0][W-1:0]};
    cm_q_en_reg <= {adm9, r_ok[9]};
    cm_q_idx_reg <= {a_j[9], r_j[9]};
    cm_q_empty_reg <= v_qempty[0];
    cmh_pg_en_reg[1] <= cm_pg_en_reg;
    cmh_pg_idx_reg[1] <= cm_pg_idx_reg;
    cmh_pg_val_reg[1] <= cm_pg_val_reg;
    cmh_q_en_reg[1] <= cm_q_en_reg;
    cmh_q_idx_reg[1] <= cm_q_idx_reg;
    cmh_q_val_reg[1] <= cm_q_val_reg;
    cmh_pg_en_reg[2] <= cmh_pg_en_reg[1];
    cmh_pg_idx_reg[2] <= cmh_pg_idx_reg[1];
    cmh_pg_val_reg[2] <= cmh_pg_val_reg[1];
    cmh_q_en_reg[2] <= cmh_q_en_reg[1];
    cmh_q_idx_reg[2] <= cmh_q_idx_reg[1];
    cmh_q_val_reg[2] <= cmh_q_val_reg[1];
    // the arrival's and the scan PG's entries before pair k (EVAL0 applies pair k's commit)
    eA10 <= sel_pg(uA_a9, uA_r9, cm_pg_val_reg, xA9);
    eS10 <= sel_pg(uS_a9, uS_r9, cm_pg_val_reg, xS9);
    qA10 <= sel_q(vA_a9, vA_r9, cm_q_val_reg, yA9);
    adm10 <= adm9;
    cls10 <= cls9;
    qcls10 <= qcls9;
    same_pg10 <= same_pg9;
    // the scan PG against this pair's own commit (EVAL0 sees it in the commit register)
    eS10_a <= adm9 && a_i[9] == sc[9];
    eS10_r <= r_ok[9] && r_i[9] == sc[9];
    tA10 <= tA9; tR10 <= tR9; tS10 <= tS9;
    xA10 <= xA9t; xR10 <= xR9t; xS10 <= xS9t;
    if (rst) begin
        cmd_pg_val_reg <= {(2*PGE_W){1'b0}};
        cmd_q_val_reg <= {(2*QE_W){1'b0}};
    end
    if (rst) begin
        cm_pg_en_reg <= 2'b00;
        cm_q_en_reg <= 2'b00;
        cmh_pg_en_reg[1] <= 2'b00;
        cmh_pg_en_reg[2] <= 2'b00;
        cmh_q_en_reg[1] <= 2'b00;
        cmh_q_en_reg[2] <= 2'b00;
        adm10 <= 1'b0;
    end
end
// the commit register (kept: it has copies)
(* keep *) always @(posedge clk) begin
    cm_pg_val_reg[PGE_W +: PGE_W] <= {c_cls[1], v_r[1][W-1:0], v_s[1][W-1:0], v_h[1][W-1:0]};
    cm_pg_hs_reg[W+2 +: W+2] <= v_hs[1][W+1:0];
    cm_pg_hsr_reg[W+2 +: W+2] <= v_hsr[1][W+1:0];
    cm_pg_val_reg[0 +: PGE_W] <= {c_cls[0], v_r[0][W-1:0], v_s[0][W-1:0], v_h[0][W-1:0]};
    cm_pg_hs_reg[0 +: W+2] <= v_hs[0][W+1:0];
    cm_pg_hsr_reg[0 +: W+2] <= v_hsr[0][W+1:0];
    cm_q_val_reg[QE_W +: QE_W] <= {c_qcls[1], v_qr[1][W-1:0], v_qs[1][W-1:0]};
    cm_q_qsr_reg[W+2 +: W+2] <= v_qsr[1][W+1:0];
    cm_q_val_reg[0 +: QE_W] <= {c_qcls[0], v_qr[0][W-1:0], v_qs[0][W-1:0]};
    cm_q_qsr_reg[0 +: W+2] <= v_qsr[0][W+1:0];
end


// the outputs that are arrays in the code, as buses
assign cmh_pg_val_bus = {cmh_pg_val_reg[2], cmh_pg_val_reg[1]};
assign cmh_q_val_bus = {cmh_q_val_reg[2], cmh_q_val_reg[1]};
assign v_h_bus = {v_h[1], v_h[0]};
assign v_s_bus = {v_s[1], v_s[0]};
assign ga_sh_bus = {ga_sh[1], ga_sh[0]};
assign ga_esh_bus = {ga_esh[1], ga_esh[0]};

endmodule

`resetall
