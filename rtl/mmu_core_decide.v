/*
 * mmu_core's decision (stages E5 to E8): DEC1a compares the counters committed after pair k-5
 * (each candidate entry: the commit register's arrival bus, its release bus, stage 5's) with
 * the decision constants; DEC1b selects the view's candidate and combines the compares into
 * verdicts; DEC2 decides (models.mmu_pipe._decide order) and splits the admitted cells into
 * reserved / shared / headroom and egress reserved / shared.  The pair's entries are brought
 * up to pair k-3 on the way (forwarding from the commit register), with their running sums,
 * for mmu_core_commit; the response is registered here.
 *
 * Interfaces: the per-pair fields (mmu_core_carry, *_bus), the stage 5 registers
 * (mmu_core_view), the commit register and the classes of pairs k-2 / k-1 in flight
 * (mmu_core_commit), the committed total and pools (mmu_core_eval, global_lag 6); out the
 * response (m_resp_*, mmu_core's outputs), the decision register and amounts, DEC2's entries,
 * running sums and selects (stage 8) for mmu_core_commit, T and the XON point carried.
 *
 * Latency: DEC1a E5-E6, DEC1b E6-E7, DEC2 E7-E8 (the decision register at E8), the response
 * at E9 (9 clocks after the request's edge).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_decide #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of port index fields (carries out-of-range values)
    parameter PORT_W = 8,
    // width of the PG and queue index fields
    parameter PG_W = 4,
    parameter Q_W = 4,
    // width of the request tag
    parameter TAG_W = 8,
    // 1: DEC1a compares the candidate that the forwarding selects (one set of compares, one
    // LUT level more in E5-E6) instead of every candidate (three sets, the select last);
    // about 700 fewer LUTs at 2 ports, for builds whose clock leaves room (the i5)
    parameter COMPACT = 0,
    // test only: 1 turns the "shared below T" check into "at or below T" (negative test of the
    // benches); 2 lets the buffer guard admit one cell beyond the buffer (negative test of the
    // formal run, formal/mmu_core.sby)
    parameter FAULT_INJECT = 0,
    // derived, left at their defaults by mmu_core: the PG / queue index; cell counts, signed
    // decision values, T and what is compared with it (alpha up to 2^7), carry-save sums; the
    // PG entry {class, res, shared, hdrm} and the queue entry {class, res, shared}
    parameter IW = $clog2(PORT_COUNT) + 3,
    parameter W = CELL_W,
    // the in-flight charge (the cells of the pairs not yet committed; mmu_core INFLIGHT_W)
    parameter FW = CELL_W + 3,
    parameter SW = FW + 3,
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
    input  wire [12-1:0]        a_v_bus,
    input  wire [12-1:0]        a_ok_bus,
    input  wire [12-1:0]        a_badlen_bus,
    input  wire [12-1:0]        a_badidx_bus,
    input  wire [12*IW-1:0]     a_i_bus,
    input  wire [12*IW-1:0]     a_j_bus,
    input  wire [12*TAG_W-1:0]  a_tag_bus,
    input  wire [11*W-1:0]      a_cells_bus,
    input  wire [12-1:0]        r_ok_bus,
    input  wire [12*IW-1:0]     r_i_bus,
    input  wire [12*IW-1:0]     r_j_bus,
    input  wire [12*W-1:0]      r_c_bus,
    input  wire [12*IW-1:0]     sc_bus,

    /*
     * Stage 5 registers (mmu_core_view): entries, decision constants ({lossy, lossless} pool
     * pairs as buses), T and XON step 1, in-flight matches, DEC1a's forwarding selects, the
     * configuration carried
     */
    input  wire [PGE_W-1:0]     eA5,
    input  wire [PGE_W-1:0]     eR5,
    input  wire [PGE_W-1:0]     eS5,
    input  wire [QE_W-1:0]      qA5,
    input  wire [QE_W-1:0]      qR5,
    input  wire signed [SW-1:0] kR, k1, kG, kH1, kH2, kHP1, kHP2,
    input  wire [2*SW-1:0]      kP1_bus,
    input  wire [2*SW-1:0]      kP2_bus,
    input  wire [2*TW-1:0]      kT_bus,
    input  wire [2*TW-1:0]      kTQ_bus,
    input  wire signed [SW-1:0] kQR, kQ1,
    input  wire [2*SW-1:0]      kE1_bus,
    input  wire [2*SW-1:0]      kE2_bus,
    input  wire                 hp_none5,
    input  wire signed [TW-1:0] tA5, tR5, tS5, xA5, xR5, xS5,
    input  wire                 f_same1_pg5, f_same2_pg5, f_same3_pg5, f_same4_pg5,
    input  wire                 f_same1_q5, f_same2_q5, f_same3_q5, f_same4_q5,
    input  wire                 mA5_a, mA5_r, mR5_a, mR5_r, mS5_a, mS5_r, nA5_a, nA5_r, nR5_a,
    input  wire                 nR5_r,
    input  wire                 emptyA5, emptyQ5,
    input  wire                 cA_ll6,
    input  wire                 cQ_ll6,
    input  wire [W-1:0]         cA_xon5,
    input  wire [W-1:0]         cR_xon5,
    input  wire [W-1:0]         cS_xon5,

    /*
     * The commit register, its copy for DEC1's compares, the classes of the pairs in C2 and
     * after it (mmu_core_commit); the committed total and pools (mmu_core_eval)
     */
    input  wire                 adm9, cls9, qcls9, cls10, qcls10,
    input  wire [2*PGE_W-1:0]   cm_pg_val_reg,
    input  wire [2*QE_W-1:0]    cm_q_val_reg,
    input  wire [2*(W+2)-1:0]   cm_pg_hs_reg, cm_pg_hsr_reg, cm_q_qsr_reg,
    input  wire                 cm_pg_empty_reg, cm_q_empty_reg,
    input  wire [2*PGE_W-1:0]   cmd_pg_val_reg,
    input  wire [2*QE_W-1:0]    cmd_q_val_reg,
    input  wire [W-1:0]         total_reg,
    input  wire [W-1:0]         hpool_reg,
    // headroom_policy dsh (mmu_core_dsh): the pair's policy and its port's headroom counter
    // (stage 5), compared in place of the headroom pool
    input  wire                 dsh5,
    input  wire [W-1:0]         pcnt5,
    input  wire [2*W-1:0]       pool_bus,
    input  wire [2*W-1:0]       epool_bus,

    /*
     * Admission responses (mmu_core's outputs)
     */
    output wire                 m_resp_valid,
    output wire                 m_resp_admit,
    output wire [2:0]           m_resp_reason,
    output wire [W-1:0]         m_resp_cells,
    output wire [W-1:0]         m_resp_res,
    output wire [W-1:0]         m_resp_shared,
    output wire [W-1:0]         m_resp_hdrm,
    output wire [W-1:0]         m_resp_eres,
    output wire [W-1:0]         m_resp_eshared,
    output wire [TAG_W-1:0]     m_resp_tag,

    /*
     * The decision: its admit unregistered (for the forwarding compares of stage 1) and
     * registered, the decision register, DEC2's amounts (for PRE), their admit gates (copies:
     * PRE's buses 0, 1; C1's 2, 3), the admitted amounts; the response register (counters)
     */
    output wire                 d_admit,
    // the decision register (DEC's output), read by earlier stages for their forwarding selects
    output reg                  dec_valid_reg, dec_admit_reg, dec_class_reg, dec_qclass_reg,
    output reg  [2:0]           dec_reason_reg,
    output reg  [W-1:0]         dec_tr_reg, dec_etr_reg, dec_esh_reg, dec_rem_reg,
    output wire [W-1:0]         d2_rem, d2_to_res, d2_erem, d2_eto_res,
    output wire [3:0]           dg_admit, dg_shared,
    output wire [W-1:0]         g_sh, g_hd, g_cl, g_esh,
    output reg                  resp_valid_reg, resp_admit_reg,

    /*
     * Stage 8 registers for C1 (mmu_core_commit): the entries brought up to pair k-3 and
     * their running sums, T and the XON point, C1's forwarding selects; whether the pair's
     * release and arrival name one PG / queue (stage 7) and one PG (stage 8)
     */
    output reg  [PGE_W-1:0]     e2A, e2R, e2S,
    output reg  [QE_W-1:0]      q2A, q2R,
    output reg  [W+1:0]         hsA8, hsrA8, hsR8, hsrR8, qsrA8, qsrR8,
    output reg  signed [TW-1:0] tA8, tR8, tS8, xA8, xR8, xS8,
    output reg                  mA8_a, mA8_r, mR8_a, mR8_r, mS8_a, mS8_r, nA8_a, nA8_r, nR8_a,
    output reg                  nR8_r,
    output reg                  same_pg7, same_q7,
    output reg                  c_same_pg
);

localparam [2:0] REASON_NONE = 3'd0, REASON_BAD_LEN = 3'd1, REASON_BAD_INDEX = 3'd2,
                 REASON_BUFFER_FULL = 3'd3, REASON_INGRESS_LOSSY = 3'd4,
                 REASON_HEADROOM_FULL = 3'd5, REASON_EGRESS = 3'd6;

`include "mmu_core_functions.vh"

function lt_t;      // a < b, signed threshold-width values, as a subtraction's sign
    input signed [TW-1:0] a;
    input signed [TW-1:0] b;
    reg [TW:0] d;
    begin
        d = {a[TW-1], a} - {b[TW-1], b};
        lt_t = d[TW];
    end
endfunction
// compares written as the sign of a subtraction, so that synthesis builds one carry chain
// (a relational operator was sometimes mapped to a tree of LUTs five levels deep)
// a <= k, as the sign of a + ~k (= a - k - 1)
function le1;
    input signed [SW-1:0] a;
    input signed [SW-1:0] k;
    reg [SW:0] d;
    begin
        d = {a[SW-1], a} + ~{k[SW-1], k};
        le1 = d[SW];
    end
endfunction
// a >= k, as the sign of a - k
function ge1;
    input signed [SW-1:0] a;
    input signed [SW-1:0] k;
    reg [SW:0] d;
    begin
        d = {a[SW-1], a} - {k[SW-1], k};
        ge1 = !d[SW];
    end
endfunction
// a + b <= k, as the sign of a + b + ~k (= a + b - k - 1)
function le2;
    input signed [SW-1:0] a;
    input signed [SW-1:0] b;
    input signed [SW-1:0] k;
    reg [SW+1:0] x, y, w, sum;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [SW+1:0] maj;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        x = {{2{a[SW-1]}}, a};
        y = {{2{b[SW-1]}}, b};
        w = ~{{2{k[SW-1]}}, k};
        maj = (x & y) | (x & w) | (y & w);
        sum = (x ^ y ^ w) + {maj[SW:0], 1'b0};
        le2 = sum[SW+1];
    end
endfunction

// "a <= k or f", "a + b <= k or f": the same chains, f giving k's sign-extension bits the
// value 0..01 (k then reads at least 2^(SW-1), above any count or sum of two counts: counts
// are below 2^W, W <= SW - 3); the mux sits in the LUTs of those top bits, nothing follows
// the chain's sign.  For checks the configuration switches off (dsh's PG headroom, no
// headroom pool limit).
function le1_or;
    input signed [SW-1:0] a;
    input signed [SW-1:0] k;
    input f;
    reg [SW:0] d;
    begin
        d = {a[SW-1], a} + ~{f ? 2'b01 : {2{k[SW-1]}}, k[SW-2:0]};
        le1_or = d[SW];
    end
endfunction
function le2_or;
    input signed [SW-1:0] a;
    input signed [SW-1:0] b;
    input signed [SW-1:0] k;
    input f;
    reg [SW+1:0] x, y, w, sum;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [SW+1:0] maj;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        x = {{2{a[SW-1]}}, a};
        y = {{2{b[SW-1]}}, b};
        w = ~{f ? 3'b001 : {3{k[SW-1]}}, k[SW-2:0]};
        maj = (x & y) | (x & w) | (y & w);
        sum = (x ^ y ^ w) + {maj[SW:0], 1'b0};
        le2_or = sum[SW+1];
    end
endfunction

// the per-pair fields of the pipeline (mmu_core_view), stage p of each at bus slot p - 1
// (a_cells: p - 2); a part reads only some of the stages
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg a_v [1:12];
(* mem2reg *) reg a_ok [1:12];
(* mem2reg *) reg a_badlen [1:12];
(* mem2reg *) reg a_badidx [1:12];
(* mem2reg *) reg [IW-1:0] a_i [1:12];
(* mem2reg *) reg [IW-1:0] a_j [1:12];
(* mem2reg *) reg [TAG_W-1:0] a_tag [1:12];
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
    always @* a_v[pk] = a_v_bus[pk-1];
    always @* a_ok[pk] = a_ok_bus[pk-1];
    always @* a_badlen[pk] = a_badlen_bus[pk-1];
    always @* a_badidx[pk] = a_badidx_bus[pk-1];
    always @* a_i[pk] = a_i_bus[(pk-1)*IW +: IW];
    always @* a_j[pk] = a_j_bus[(pk-1)*IW +: IW];
    always @* a_tag[pk] = a_tag_bus[(pk-1)*TAG_W +: TAG_W];
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

// the inputs that the code reads as arrays
(* mem2reg *) reg signed [SW-1:0] kP1 [0:1];
always @* kP1[0] = kP1_bus[0 +: SW];
always @* kP1[1] = kP1_bus[SW +: SW];
(* mem2reg *) reg signed [SW-1:0] kP2 [0:1];
always @* kP2[0] = kP2_bus[0 +: SW];
always @* kP2[1] = kP2_bus[SW +: SW];
(* mem2reg *) reg signed [SW-1:0] kE1 [0:1];
always @* kE1[0] = kE1_bus[0 +: SW];
always @* kE1[1] = kE1_bus[SW +: SW];
(* mem2reg *) reg signed [SW-1:0] kE2 [0:1];
always @* kE2[0] = kE2_bus[0 +: SW];
always @* kE2[1] = kE2_bus[SW +: SW];
(* mem2reg *) reg signed [TW-1:0] kT [0:1];
always @* kT[0] = kT_bus[0 +: TW];
always @* kT[1] = kT_bus[TW +: TW];
(* mem2reg *) reg signed [TW-1:0] kTQ [0:1];
always @* kTQ[0] = kTQ_bus[0 +: TW];
always @* kTQ[1] = kTQ_bus[TW +: TW];
(* mem2reg *) reg [W-1:0] pool_reg [0:1];
always @* pool_reg[0] = pool_bus[0 +: W];
always @* pool_reg[1] = pool_bus[W +: W];
(* mem2reg *) reg [W-1:0] epool_reg [0:1];
always @* epool_reg[0] = epool_bus[0 +: W];
always @* epool_reg[1] = epool_bus[W +: W];

function [W+1:0] sum3;      // a + b + c, carry-save: one LUT level and one carry chain
    input [W+1:0] a;
    input [W+1:0] b;
    input [W+1:0] c;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [W+1:0] maj;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        maj = (a & b) | (a & c) | (b & c);
        sum3 = (a ^ b ^ c) + {maj[W:0], 1'b0};
    end
endfunction
// running sums of an entry (hdrm + shared, + reserved; queue shared + reserved)
// (the class bit, and the fields a sum does not take, are unused)
/* verilator lint_off UNUSEDSIGNAL */
function [W+1:0] hs_of;     // hdrm + shared of a PG entry
    input [PGE_W-1:0] e;
    begin
        hs_of = {2'b00, e[0 +: W]} + {2'b00, e[W +: W]};
    end
endfunction
function [W+1:0] hsr_of;    // hdrm + shared + reserved
    input [PGE_W-1:0] e;
    begin
        hsr_of = sum3({2'b00, e[0 +: W]}, {2'b00, e[W +: W]}, {2'b00, e[2*W +: W]});
    end
endfunction
function [W+1:0] qsr_of;    // shared + reserved of a queue entry
    input [QE_W-1:0] e;
    begin
        qsr_of = {2'b00, e[0 +: W]} + {2'b00, e[W +: W]};
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// ------------------------------------------------------------------------------ DEC1a
// the counters committed after pair k-5 (stage 5 merged up to k-6, the commit register holds
// k-5): every compare of the decision against each candidate entry (the commit register's
// arrival bus, its release bus, stage 5's entry), each against a constant of stage 5, and
// registered; DEC1b selects and combines them.  The compares start at registers and end at
// registers.  COMPACT: the compares of the selected candidate only (DEC1b has nothing to
// select).
// dsh: the headroom check is the port's (its counter against kHP1 / kHP2, which then hold
// its limit), not the PG's: the mode selects the counter before the compare (beside the
// entry's operand, not after the chain); the PG's headroom checks under dsh and the headroom
// pool check without a limit are switched on in the compares themselves (le1_or / le2_or),
// so DEC1b reads one bit each
wire [W-1:0] hp_v = dsh5 ? pcnt5 : hpool_reg;
wire [PGE_W-1:0] eA_d = sel_pg(mA5_a, mA5_r, cm_pg_val_reg, eA5);
wire [PGE_W-1:0] eR_d = sel_pg(mR5_a, mR5_r, cm_pg_val_reg, eR5);
wire [PGE_W-1:0] eS_d = sel_pg(mS5_a, mS5_r, cm_pg_val_reg, eS5);
wire [QE_W-1:0]  qA_d = sel_q(nA5_a, nA5_r, cm_q_val_reg, qA5);
wire [QE_W-1:0]  qR_d = sel_q(nR5_a, nR5_r, cm_q_val_reg, qR5);

// per candidate: {rem_all, rem_none, dsh or hdrm <= kH1, dsh or hdrm + res <= kH2, no limit
// or hpool (dsh: the port's count) + res <= kHP2, shared below T [1:0], pool + res <= kP2
// [1:0]}; per queue candidate: {erem_all, erem_none, queue shared below T [1:0],
// epool + qres <= kE2 [1:0]}
localparam CP_W = 9;
localparam CQ_W = 6;
localparam NC = COMPACT != 0 ? 1 : 3;     // candidates compared
genvar pp, cs;
reg [NC*CP_W-1:0] d1a_cp;
reg [NC*CQ_W-1:0] d1a_cq;
generate
for (cs = 0; cs < NC; cs = cs + 1) begin : d_src
    // (the class bit is not compared)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [PGE_W-1:0] e = (NC == 1) ? sel_pg(mA5_a, mA5_r, cmd_pg_val_reg, eA5)
                       : (cs == 0) ? cmd_pg_val_reg[PGE_W +: PGE_W]
                       : (cs == 1) ? cmd_pg_val_reg[0 +: PGE_W] : eA5;
    wire [QE_W-1:0] q = (NC == 1) ? sel_q(nA5_a, nA5_r, cmd_q_val_reg, qA5)
                      : (cs == 0) ? cmd_q_val_reg[QE_W +: QE_W]
                      : (cs == 1) ? cmd_q_val_reg[0 +: QE_W] : qA5;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [W-1:0] hdrm = e[0 +: W], sh = e[W +: W], res = e[2*W +: W];
    wire [W-1:0] qsh = q[0 +: W], qres = q[W +: W];
    wire [1:0] sh_ok, p_mid, q_ok, e_mid;
    for (pp = 0; pp < 2; pp = pp + 1) begin : pool
        // every compare is its own term (no "c ? a <= b : a < b": Icarus 11 then compares
        // the words of a signed array unsigned)
        assign sh_ok[pp] = lt_t(tx(sh), kT[pp]) || (FAULT_INJECT == 1 && tx(sh) == kT[pp]);
        assign p_mid[pp] = le2(sx(pool_reg[pp]), sx(res), kP2[pp]);
        assign q_ok[pp] = lt_t(tx(qsh), kTQ[pp]);
        assign e_mid[pp] = le2(sx(epool_reg[pp]), sx(qres), kE2[pp]);
    end
    always @(posedge clk) begin
        d1a_cp[cs*CP_W +: CP_W] <= {ge1(sx(res), kR), le1(sx(res), k1),
                                    le1_or(sx(hdrm), kH1, dsh5),
                                    le2_or(sx(hdrm), sx(res), kH2, dsh5),
                                    le2_or(sx(hp_v), sx(res), kHP2, hp_none5),
                                    sh_ok, p_mid};
        d1a_cq[cs*CQ_W +: CQ_W] <= {ge1(sx(qres), kQR), le1(sx(qres), kQ1), q_ok, e_mid};
    end
end
endgenerate

// the view's entries (committed after pair k-5), whether the arrival's is empty, which
// candidate the compares use; the compares of the global counters; DEC1b's forwarding selects
// (pair k-4 is in the commit register then)
reg [PGE_W-1:0] v1A, v1R, v1S;
// their running sums (the commit register's own, or summed here)
reg [W+1:0]     v1A_hs, v1R_hs, v1R_hsr, v1A_qsr, v1R_qsr;
// the arrival's hdrm + shared + reserved: its three candidates registered apart (the carry
// chain's sum ends at a register), DEC1b selects (in its select of the commit register)
reg [W+1:0]     v1A_hsr_z, v1A_hsr_a, v1A_hsr_r;
reg [QE_W-1:0]  v1Q, v1QR;
reg         v1_emptyA, v1_emptyQ, v1_a, v1_r, v1_qa, v1_qr;
wire [W+1:0]    v1A_hsr = v1_a ? v1A_hsr_a : v1_r ? v1A_hsr_r : v1A_hsr_z;
reg         d1a_guard, d1a_hp1;
reg [1:0]   d1a_p_all, d1a_e_all;
reg signed [SW-1:0] k1_6, kR_6, kQ1_6, kQR_6;
reg signed [TW-1:0] tA6, tR6, tS6, xA6, xR6, xS6;
reg signed [TW-1:0] tmA6, tmR6, tmS6;    // T - 1
reg         mA6_a, mA6_r, mR6_a, mR6_r, mS6_a, mS6_r, nA6_a, nA6_r, nR6_a, nR6_r;
reg         f_same1_pg6, f_same2_pg6, f_same3_pg6, f_same4_pg6;
reg         f_same1_q6, f_same2_q6, f_same3_q6, f_same4_q6;
// the buffer guard's constant (FAULT_INJECT 2, test only: one cell more)
wire signed [SW-1:0] kG_chk = (FAULT_INJECT == 2) ? kG + $signed({{(SW-1){1'b0}}, 1'b1}) : kG;
always @(posedge clk) begin
    v1A <= eA_d;
    v1R <= eR_d;
    v1S <= eS_d;
    v1Q <= qA_d;
    v1QR <= qR_d;
    v1A_hs <= mA5_a ? cm_pg_hs_reg[W+2 +: W+2] : mA5_r ? cm_pg_hs_reg[0 +: W+2] : hs_of(eA5);
    v1A_hsr_a <= cm_pg_hsr_reg[W+2 +: W+2];
    v1A_hsr_r <= cm_pg_hsr_reg[0 +: W+2];
    v1A_hsr_z <= hsr_of(eA5);
    v1R_hs <= mR5_a ? cm_pg_hs_reg[W+2 +: W+2] : mR5_r ? cm_pg_hs_reg[0 +: W+2] : hs_of(eR5);
    v1R_hsr <= mR5_a ? cm_pg_hsr_reg[W+2 +: W+2] : mR5_r ? cm_pg_hsr_reg[0 +: W+2]
               : hsr_of(eR5);
    v1A_qsr <= nA5_a ? cm_q_qsr_reg[W+2 +: W+2] : nA5_r ? cm_q_qsr_reg[0 +: W+2] : qsr_of(qA5);
    v1R_qsr <= nR5_a ? cm_q_qsr_reg[W+2 +: W+2] : nR5_r ? cm_q_qsr_reg[0 +: W+2] : qsr_of(qR5);
    // an arrival bus entry is never empty; a release bus entry says so itself
    v1_emptyA <= mA5_a ? 1'b0 : mA5_r ? cm_pg_empty_reg : emptyA5;
    v1_emptyQ <= nA5_a ? 1'b0 : nA5_r ? cm_q_empty_reg : emptyQ5;
    v1_a <= mA5_a;
    v1_r <= mA5_r;
    v1_qa <= nA5_a;
    v1_qr <= nA5_r;
    d1a_guard <= sx(total_reg) > kG_chk;
    d1a_hp1 <= le1_or(sx(hp_v), kHP1, hp_none5);
    d1a_p_all[0] <= sx(pool_reg[0]) <= kP1[0];
    d1a_p_all[1] <= sx(pool_reg[1]) <= kP1[1];
    d1a_e_all[0] <= sx(epool_reg[0]) <= kE1[0];
    d1a_e_all[1] <= sx(epool_reg[1]) <= kE1[1];
    k1_6 <= k1;
    kR_6 <= kR;
    kQ1_6 <= kQ1;
    kQR_6 <= kQR;
    tA6 <= tA5; tR6 <= tR5; tS6 <= tS5;
    tmA6 <= tA5 - 1; tmR6 <= tR5 - 1; tmS6 <= tS5 - 1;
    // XON point, step 2: max(xon, T - xon_offset)
    xA6 <= lt_t(xA5, tx(cA_xon5)) ? tx(cA_xon5) : xA5;
    xR6 <= lt_t(xR5, tx(cR_xon5)) ? tx(cR_xon5) : xR5;
    xS6 <= lt_t(xS5, tx(cS_xon5)) ? tx(cS_xon5) : xS5;
    // pair k-4 is in C2 now (in the commit register at DEC1b)
    mA6_a <= adm9 && a_i[9] == a_i[5];
    mA6_r <= r_ok[9] && r_i[9] == a_i[5];
    mR6_a <= adm9 && a_i[9] == r_i[5];
    mR6_r <= r_ok[9] && r_i[9] == r_i[5];
    mS6_a <= adm9 && a_i[9] == sc[5];
    mS6_r <= r_ok[9] && r_i[9] == sc[5];
    nA6_a <= adm9 && a_j[9] == a_j[5];
    nA6_r <= r_ok[9] && r_j[9] == a_j[5];
    nR6_a <= adm9 && a_j[9] == r_j[5];
    nR6_r <= r_ok[9] && r_j[9] == r_j[5];
    f_same1_pg6 <= f_same1_pg5;
    f_same2_pg6 <= f_same2_pg5;
    f_same3_pg6 <= f_same3_pg5;
    f_same4_pg6 <= f_same4_pg5;
    f_same1_q6 <= f_same1_q5;
    f_same2_q6 <= f_same2_q5;
    f_same3_q6 <= f_same3_q5;
    f_same4_q6 <= f_same4_q5;
end

// ------------------------------------------------------------------------------ DEC1b
// the verdicts of the decision: DEC1a's compares of the view's candidate, combined.  Per pool
// (class) p: the shared segment can take the rest (below T, room in the pool) and the egress
// queue can take it.  The view's entries brought up to pair k-4 for DEC2.
wire [CP_W-1:0] d_cp = (NC == 1) ? d1a_cp[0 +: CP_W] : v1_a ? d1a_cp[0 +: CP_W]
                       : v1_r ? d1a_cp[(NC-1)/2*CP_W +: CP_W] : d1a_cp[(NC-1)*CP_W +: CP_W];
wire [CQ_W-1:0] d_cq = (NC == 1) ? d1a_cq[0 +: CQ_W] : v1_qa ? d1a_cq[0 +: CQ_W]
                       : v1_qr ? d1a_cq[(NC-1)/2*CQ_W +: CQ_W] : d1a_cq[(NC-1)*CQ_W +: CQ_W];
wire d_rem_all = d_cp[8], d_rem_none = d_cp[7], d_hd1 = d_cp[6], d_hd2 = d_cp[5];
wire d_hp2 = d_cp[4];
wire [1:0] d_sh_ok = d_cp[3:2], d_p_mid = d_cp[1:0];
wire d_erem_all = d_cq[5], d_erem_none = d_cq[4];
wire [1:0] d_q_ok = d_cq[3:2], d_e_mid = d_cq[1:0];
wire d_hdrm_ok = d_rem_all ? d_hd1 && d1a_hp1 : d_hd2 && d_hp2;
wire [1:0] d_shared_ok = d_sh_ok & (({2{d_rem_all}} & d1a_p_all) | ({2{!d_rem_all}} & d_p_mid));
wire [1:0] d_egress_ok = d_q_ok & (({2{d_erem_all}} & d1a_e_all) | ({2{!d_erem_all}} & d_e_mid));
// the admit's parts for either class combined per candidate first, selected last (the
// candidate select is the last LUT level): {ok_ly, ok_ll} and {eok_ly, eok_ll}
// (everything they read is an argument: a continuous assignment is re-evaluated on its
// arguments only, in Icarus)
function [1:0] ok_of;
    input [CP_W-1:0] cp;
    input guard, hp1;
    input [1:0] p_all;
    reg ra;
    reg hok;
    reg [1:0] shok;
    begin
        ra = cp[8];
        hok = ra ? cp[6] && hp1 : cp[5] && cp[4];
        shok = cp[3:2] & (({2{ra}} & p_all) | ({2{!ra}} & cp[1:0]));
        ok_of = {!guard && (cp[7] || shok[1]), !guard && (cp[7] || shok[0] || hok)};
    end
endfunction
function [1:0] eok_of;
    input [CQ_W-1:0] cq;
    input [1:0] e_all;
    reg [1:0] qok;
    begin
        qok = cq[3:2] & (({2{cq[5]}} & e_all) | ({2{!cq[5]}} & cq[1:0]));
        eok_of = {cq[4] || qok[1], cq[4] || qok[0]};
    end
endfunction
// (with one candidate, (NC-1)*k is 0: every term below is that candidate's)
wire [1:0] d_ok_a = ok_of(d1a_cp[0 +: CP_W], d1a_guard, d1a_hp1, d1a_p_all);
wire [1:0] d_ok_r = ok_of(d1a_cp[(NC-1)/2*CP_W +: CP_W], d1a_guard, d1a_hp1, d1a_p_all);
wire [1:0] d_ok_x = ok_of(d1a_cp[(NC-1)*CP_W +: CP_W], d1a_guard, d1a_hp1, d1a_p_all);
wire [1:0] d_ok = (NC == 1) ? d_ok_a : v1_a ? d_ok_a : v1_r ? d_ok_r : d_ok_x;
wire [1:0] d_eok = (NC == 1) ? eok_of(d1a_cq[0 +: CQ_W], d1a_e_all)
                   : v1_qa ? eok_of(d1a_cq[0 +: CQ_W], d1a_e_all)
                   : v1_qr ? eok_of(d1a_cq[(NC-1)/2*CQ_W +: CQ_W], d1a_e_all)
                   : eok_of(d1a_cq[(NC-1)*CQ_W +: CQ_W], d1a_e_all);
// in the case that selects them, x and room lie in 1 .. cells - 1: their upper bits are
// unused
/* verilator lint_off UNUSEDSIGNAL */
wire signed [SW-1:0] d_x = sx(v1A[2*W +: W]) - k1_6;
wire signed [SW-1:0] d_room = kR_6 - sx(v1A[2*W +: W]);
wire signed [SW-1:0] d_ex = sx(v1Q[W +: W]) - kQ1_6;
wire signed [SW-1:0] d_eroom = kQR_6 - sx(v1Q[W +: W]);
/* verilator lint_on UNUSEDSIGNAL */

// class of the decision: that of the latest arrival in flight to the same PG, else the
// configured one for an empty PG, else the recorded one
reg         d1_class_reg, d1_qclass_reg;
wire d_class = f_same1_pg6 ? d1_class_reg : f_same2_pg6 ? dec_class_reg : f_same3_pg6 ? cls9
               : f_same4_pg6 ? cls10 : v1_emptyA ? cA_ll6 : v1A[3*W];
wire d_qclass = f_same1_q6 ? d1_qclass_reg : f_same2_q6 ? dec_qclass_reg : f_same3_q6 ? qcls9
                : f_same4_q6 ? qcls10 : v1_emptyQ ? cQ_ll6 : v1Q[2*W];

reg         d1_rem_none, d1_erem_all, d1_erem_none, d1_rem_all, d1_guard, d1_hdrm_ok;
// the admit's ingress and egress parts for either class (DEC2 picks by the class)
reg         d1_ok_ll, d1_ok_ly, d1_eok_ll, d1_eok_ly;
// per pool (class): the shared segment can take the rest / the egress queue can take it
reg [1:0]    d1_shared_ok, d1_egress_ok;
reg [W-1:0]  d1_x, d1_room, d1_ex, d1_eroom;
reg [PGE_W-1:0] e1A, e1R, e1S;
reg [W+1:0]     e1A_hs, e1A_hsr, e1R_hs, e1R_hsr, q1A_qsr, q1R_qsr;
reg [QE_W-1:0]  q1A, q1R;
reg signed [TW-1:0] tA7, tR7, tS7, xA7, xR7, xS7;
// DEC2's forwarding selects (pair k-3 is in the commit register then)
reg         mA7_a, mA7_r, mR7_a, mR7_r, mS7_a, mS7_r, nA7_a, nA7_r, nR7_a, nR7_r;
// this pair's release and arrival name one PG / queue
always @(posedge clk) begin
    d1_x <= d_x[W-1:0];
    d1_room <= d_room[W-1:0];
    d1_rem_all <= d_rem_all;
    d1_rem_none <= d_rem_none;
    d1_hdrm_ok <= d_hdrm_ok;
    d1_ex <= d_ex[W-1:0];
    d1_eroom <= d_eroom[W-1:0];
    d1_erem_all <= d_erem_all;
    d1_erem_none <= d_erem_none;
    d1_egress_ok <= d_egress_ok;
    d1_guard <= d1a_guard;
    e1A <= sel_pg(mA6_a, mA6_r, cm_pg_val_reg, v1A);
    e1R <= sel_pg(mR6_a, mR6_r, cm_pg_val_reg, v1R);
    e1S <= sel_pg(mS6_a, mS6_r, cm_pg_val_reg, v1S);
    q1A <= sel_q(nA6_a, nA6_r, cm_q_val_reg, v1Q);
    q1R <= sel_q(nR6_a, nR6_r, cm_q_val_reg, v1QR);
    e1A_hs <= mA6_a ? cm_pg_hs_reg[W+2 +: W+2] : mA6_r ? cm_pg_hs_reg[0 +: W+2] : v1A_hs;
    e1A_hsr <= mA6_a ? cm_pg_hsr_reg[W+2 +: W+2] : mA6_r ? cm_pg_hsr_reg[0 +: W+2] : v1A_hsr;
    e1R_hs <= mR6_a ? cm_pg_hs_reg[W+2 +: W+2] : mR6_r ? cm_pg_hs_reg[0 +: W+2] : v1R_hs;
    e1R_hsr <= mR6_a ? cm_pg_hsr_reg[W+2 +: W+2] : mR6_r ? cm_pg_hsr_reg[0 +: W+2] : v1R_hsr;
    q1A_qsr <= nA6_a ? cm_q_qsr_reg[W+2 +: W+2] : nA6_r ? cm_q_qsr_reg[0 +: W+2] : v1A_qsr;
    q1R_qsr <= nR6_a ? cm_q_qsr_reg[W+2 +: W+2] : nR6_r ? cm_q_qsr_reg[0 +: W+2] : v1R_qsr;
    tA7 <= tA6; tR7 <= tR6; tS7 <= tS6;
    // XON point, step 3: never at or above T
    xA7 <= lt_t(tmA6, xA6) ? tmA6 : xA6;
    xR7 <= lt_t(tmR6, xR6) ? tmR6 : xR6;
    xS7 <= lt_t(tmS6, xS6) ? tmS6 : xS6;
    // pair k-3 is in C2 now
    mA7_a <= adm9 && a_i[9] == a_i[6];
    mA7_r <= r_ok[9] && r_i[9] == a_i[6];
    mR7_a <= adm9 && a_i[9] == r_i[6];
    mR7_r <= r_ok[9] && r_i[9] == r_i[6];
    mS7_a <= adm9 && a_i[9] == sc[6];
    mS7_r <= r_ok[9] && r_i[9] == sc[6];
    nA7_a <= adm9 && a_j[9] == a_j[6];
    nA7_r <= r_ok[9] && r_j[9] == a_j[6];
    nR7_a <= adm9 && a_j[9] == r_j[6];
    nR7_r <= r_ok[9] && r_j[9] == r_j[6];
    same_pg7 <= r_ok[6] && a_ok[6] && r_i[6] == a_i[6];
    same_q7 <= r_ok[6] && a_ok[6] && r_j[6] == a_j[6];
end

// ------------------------------------------------------------------------------ DEC2
// the decision from DEC1's comparisons (models.mmu_pipe._decide order), the amounts; the
// entries brought up to pair k-3 and their running sums for COMMIT
wire [W-1:0] d2_cells = a_cells[7];
wire d2_pool = !d1_class_reg;     // pool index: 0 lossless, 1 lossy
wire d2_epool = !d1_qclass_reg;
wire d2_shared_ok = d1_shared_ok[d2_pool];
wire d2_hdrm_ok = d1_class_reg && d1_hdrm_ok;
wire d2_egress_ok = d1_egress_ok[d2_epool];
assign d2_rem = d1_rem_all ? d2_cells : d1_rem_none ? {W{1'b0}} : d1_x;
assign d2_to_res = d1_rem_all ? {W{1'b0}} : d1_rem_none ? d2_cells : d1_room;
assign d2_erem = d1_erem_all ? d2_cells : d1_erem_none ? {W{1'b0}} : d1_ex;
assign d2_eto_res = d1_erem_all ? {W{1'b0}} : d1_erem_none ? d2_cells : d1_eroom;
wire d2_badlen = a_badlen[7];
wire d2_badidx = a_badidx[7];
reg [2:0] d_reason;
always @* begin
    if (d2_badlen) begin
        d_reason = REASON_BAD_LEN;
    end else if (d2_badidx) begin
        d_reason = REASON_BAD_INDEX;
    end else if (d1_guard) begin
        d_reason = REASON_BUFFER_FULL;
    end else if (!d1_rem_none && !d2_shared_ok && !d2_hdrm_ok) begin
        d_reason = d1_class_reg ? REASON_HEADROOM_FULL : REASON_INGRESS_LOSSY;
    end else if (!d1_erem_none && !d2_egress_ok) begin
        d_reason = REASON_EGRESS;
    end else begin
        d_reason = REASON_NONE;
    end
end
// the admit flat (the reason's order does not matter for it): every gate of the amounts is
// registered from it
assign d_admit = a_ok[7] && (d1_class_reg ? d1_ok_ll : d1_ok_ly)
               && (d1_qclass_reg ? d1_eok_ll : d1_eok_ly);
// DEC1b's admit parts (kept: it has copies)
(* keep *) always @(posedge clk) begin
    d1_class_reg <= d_class;
    d1_qclass_reg <= d_qclass;
    d1_shared_ok <= d_shared_ok;
    d1_ok_ll <= d_ok[0];
    d1_ok_ly <= d_ok[1];
    d1_eok_ll <= d_eok[0];
    d1_eok_ly <= d_eok[1];
end
// the admit and the segment for the amount gates of PRE (copies 0, 1: its buses) and C1
// (2, 3), each from its own copy of DEC1b's registers (kept apart: one admit drove every gate)
genvar dg;
generate
for (dg = 0; dg < 4; dg = dg + 1) begin : adm_cp
    reg aok, cls, qcls, ok_ll, ok_ly, eok_ll, eok_ly;
    reg [1:0] sh;
    (* keep *) always @(posedge clk) begin
        // (a_ok written out: equal to a_ok[7], not merged with it)
        aok <= a_v[6] && !a_badlen[6] && !a_badidx[6] && !rst;
        cls <= d_class;
        qcls <= d_qclass;
        ok_ll <= d_ok[0];
        ok_ly <= d_ok[1];
        eok_ll <= d_eok[0];
        eok_ly <= d_eok[1];
        sh <= d_shared_ok;
    end
    assign dg_admit[dg] = aok && (cls ? ok_ll : ok_ly) && (qcls ? eok_ll : eok_ly);
    assign dg_shared[dg] = cls ? sh[0] : sh[1];
end
endgenerate

wire [PGE_W-1:0] e2A_n = sel_pg(mA7_a, mA7_r, cm_pg_val_reg, e1A);
wire [PGE_W-1:0] e2R_n = sel_pg(mR7_a, mR7_r, cm_pg_val_reg, e1R);
wire [PGE_W-1:0] e2S_n = sel_pg(mS7_a, mS7_r, cm_pg_val_reg, e1S);
wire [QE_W-1:0]  q2A_n = sel_q(nA7_a, nA7_r, cm_q_val_reg, q1A);
wire [QE_W-1:0]  q2R_n = sel_q(nR7_a, nR7_r, cm_q_val_reg, q1R);
// the decision's amounts (kept: it has copies)
(* keep *) always @(posedge clk) begin
    dec_tr_reg <= d2_to_res;
    dec_rem_reg <= d2_rem;
    dec_etr_reg <= d2_eto_res;
    dec_esh_reg <= d2_erem;
end


// stage 8 registers: the decision (m_resp_*), the entries brought up to pair k-3 and their
// running sums, and PRE: pair k-1's update of this pair's entries, composed ahead of C1
// the amounts as the view gives them, and whether the rest goes to shared; C1 and the
// response register apply the admit
reg         dec_segsh_reg;
// C1's forwarding selects (pair k-2 is in the commit register then)
always @(posedge clk) begin
    dec_valid_reg <= a_v[7];
    dec_admit_reg <= d_admit;
    dec_reason_reg <= d_reason;
    dec_class_reg <= d1_class_reg;
    dec_qclass_reg <= d1_qclass_reg;
    dec_segsh_reg <= d2_shared_ok;
    e2A <= e2A_n;
    e2R <= e2R_n;
    e2S <= e2S_n;
    q2A <= q2A_n;
    q2R <= q2R_n;
    // the running sums: the commit register's, else DEC1b's (summed in DEC1a)
    hsA8 <= mA7_a ? cm_pg_hs_reg[W+2 +: W+2] : mA7_r ? cm_pg_hs_reg[0 +: W+2] : e1A_hs;
    hsrA8 <= mA7_a ? cm_pg_hsr_reg[W+2 +: W+2] : mA7_r ? cm_pg_hsr_reg[0 +: W+2] : e1A_hsr;
    hsR8 <= mR7_a ? cm_pg_hs_reg[W+2 +: W+2] : mR7_r ? cm_pg_hs_reg[0 +: W+2] : e1R_hs;
    hsrR8 <= mR7_a ? cm_pg_hsr_reg[W+2 +: W+2] : mR7_r ? cm_pg_hsr_reg[0 +: W+2] : e1R_hsr;
    qsrA8 <= nA7_a ? cm_q_qsr_reg[W+2 +: W+2] : nA7_r ? cm_q_qsr_reg[0 +: W+2] : q1A_qsr;
    qsrR8 <= nR7_a ? cm_q_qsr_reg[W+2 +: W+2] : nR7_r ? cm_q_qsr_reg[0 +: W+2] : q1R_qsr;
    tA8 <= tA7; tR8 <= tR7; tS8 <= tS7;
    xA8 <= xA7; xR8 <= xR7; xS8 <= xS7;
    // pair k-2 is in C2 now
    c_same_pg <= same_pg7;
    if (rst) begin
        dec_valid_reg <= 1'b0;
        dec_admit_reg <= 1'b0;
    end
end

// the amounts of the admitted frame (0 when dropped), for the response and the globals (PRE
// and C1 gate their own)
wire [W-1:0] g_tr = dec_admit_reg ? dec_tr_reg : {W{1'b0}};
assign g_sh = (dec_admit_reg && dec_segsh_reg) ? dec_rem_reg : {W{1'b0}};
assign g_hd = (dec_admit_reg && !dec_segsh_reg) ? dec_rem_reg : {W{1'b0}};
assign g_cl = dec_admit_reg ? a_cells[8] : {W{1'b0}};
wire [W-1:0] g_etr = dec_admit_reg ? dec_etr_reg : {W{1'b0}};
assign g_esh = dec_admit_reg ? dec_esh_reg : {W{1'b0}};

// the response: the amounts of an admitted frame (0 when dropped), registered
reg [2:0]    resp_reason_reg;
reg [W-1:0]  resp_res_reg, resp_sh_reg, resp_hd_reg, resp_eres_reg, resp_esh_reg;
always @(posedge clk) begin
    resp_valid_reg <= dec_valid_reg;
    resp_admit_reg <= dec_admit_reg;
    resp_reason_reg <= dec_reason_reg;
    resp_res_reg <= g_tr;
    resp_sh_reg <= g_sh;
    resp_hd_reg <= g_hd;
    resp_eres_reg <= g_etr;
    resp_esh_reg <= g_esh;
    if (rst) begin
        resp_valid_reg <= 1'b0;
    end
end
assign m_resp_valid = resp_valid_reg;
assign m_resp_admit = resp_admit_reg;
assign m_resp_reason = resp_reason_reg;
assign m_resp_cells = a_cells[9];
assign m_resp_res = resp_res_reg;
assign m_resp_shared = resp_sh_reg;
assign m_resp_hdrm = resp_hd_reg;
assign m_resp_eres = resp_eres_reg;
assign m_resp_eshared = resp_esh_reg;
assign m_resp_tag = a_tag[9];

// C1's forwarding selects (kept: it has copies)
(* keep *) always @(posedge clk) begin
    mA8_a <= adm9 && a_i[9] == a_i[7];
    mA8_r <= r_ok[9] && r_i[9] == a_i[7];
    mR8_a <= adm9 && a_i[9] == r_i[7];
    mR8_r <= r_ok[9] && r_i[9] == r_i[7];
    mS8_a <= adm9 && a_i[9] == sc[7];
    mS8_r <= r_ok[9] && r_i[9] == sc[7];
    nA8_a <= adm9 && a_j[9] == a_j[7];
    nA8_r <= r_ok[9] && r_j[9] == a_j[7];
    nR8_a <= adm9 && a_j[9] == r_j[7];
    nR8_r <= r_ok[9] && r_j[9] == r_j[7];
end

endmodule

`resetall
