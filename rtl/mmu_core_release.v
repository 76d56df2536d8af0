/*
 * mmu_core's release (stage C2, E9 to E10): the release's entries before pair k (the PG's and
 * the queue's after pair k-2, or pair k-1's commit when it names them), its released cells
 * compared with each running sum of them, and what it takes from each segment and pool, as
 * candidates and the selects between them for GLOBAL and the port headroom counters; the
 * release underflow (released cells beyond what the PG or the queue holds): flag and count.
 *
 * Interfaces: the per-pair fields (mmu_core_carry, *_bus) and the admit of the pair in C2;
 * from mmu_core_commit the commit register (with its hdrm + shared + reserved sums), the
 * release's entries carried to C2 (xR9, yR9 and their running sums) and C2's running sums per
 * bus (v_*_bus: release at slot 0); out the release's amounts and selects (gr_*: to
 * mmu_core_eval's GLOBAL and mmu_core_dsh, through mmu_core_commit), the underflow flag and
 * count (mmu_core's err_release_underflow, mmu_core_status).
 *
 * Latency: the selects and the released cells registered at E9 (the pair in C2), the compares
 * in C2, the amounts and selects at E10 (GLOBAL's inputs, as the commit register); the
 * underflow from the compares registered at E10, its flag and count at E12.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_release #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of port index fields (carries out-of-range values)
    parameter PORT_W = 8,
    // width of the PG and queue index fields
    parameter PG_W = 4,
    parameter Q_W = 4,
    // derived, given by mmu_core_commit: the PG / queue index; cell counts, signed decision
    // values, T and what is compared with it, carry-save sums; the PG entry {class, res,
    // shared, hdrm} and the queue entry {class, res, shared}
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
     * The per-pair fields, stages 1 to 12 (mmu_core_carry); the pair in C2 admitted
     */
    input  wire [12*IW-1:0]     a_i_bus,
    input  wire [12*IW-1:0]     a_j_bus,
    input  wire [12-1:0]        r_ok_bus,
    input  wire [12*IW-1:0]     r_i_bus,
    input  wire [12*IW-1:0]     r_j_bus,
    input  wire [12*W-1:0]      r_c_bus,
    input  wire                 adm9,

    /*
     * From mmu_core_commit: the commit register (release bus 0, arrival bus 1) with its
     * hdrm + shared + reserved sums; the release's PG and queue entries after pair k-2 in C2,
     * with their running sums (hdrm + shared, + reserved; queue shared + reserved); C2's
     * running sums per bus (release at slot 0)
     */
    input  wire [2*PGE_W-1:0]   cm_pg_val_reg,
    input  wire [2*QE_W-1:0]    cm_q_val_reg,
    input  wire [2*(W+2)-1:0]   cm_pg_hsr_reg,
    input  wire [PGE_W-1:0]     xR9,
    input  wire [QE_W-1:0]      yR9,
    input  wire [W+1:0]         xR9_hs, xR9_hsr, yR9_qsr,
    input  wire [2*XW-1:0]      v_h_bus, v_hs_bus, v_hsr_bus, v_qs_bus, v_qsr_bus,

    /*
     * What the release takes, as candidates and the selects between them (mmu_core_commit's
     * ports of the same names: GLOBAL and the port headroom counters sum each candidate and
     * select after the carry chains); release underflow: the flag output, the error flags and
     * the count (status)
     */
    output reg  [W-1:0]         gr_rc, gr_uhsr, gr_uh,
    output wire [2*W-1:0]       gr_uch_bus, gr_us_bus, gr_rcq_bus, gr_uq_bus,
    output reg                  gr_sel_t, gr_sel_h, gr_sel_p,
    output reg  [1:0]           gr_zero_s, gr_sel_s, gr_sel_es,
    output wire                 err_release_underflow,
    output reg  [1:0]           err_flags_reg,
    output reg  [31:0]          underflow_count_reg
);

`include "mmu_core_functions.vh"

// compares written as the sign of a subtraction, so that synthesis builds one carry chain
// (a relational operator was sometimes mapped to a tree of LUTs five levels deep)
function le_u;      // a <= b, unsigned, up to W + 2 bits
    input [W+1:0] a;
    input [W+1:0] b;
    reg [W+2:0] d;
    begin
        d = {1'b0, b} - {1'b0, a};
        le_u = !d[W+2];
    end
endfunction

// the per-pair fields of the pipeline (mmu_core_carry), stage p of each at bus slot p - 1; a
// part reads only some of the stages
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg [IW-1:0] a_i [1:12];
(* mem2reg *) reg [IW-1:0] a_j [1:12];
(* mem2reg *) reg r_ok [1:12];
(* mem2reg *) reg [IW-1:0] r_i [1:12];
(* mem2reg *) reg [IW-1:0] r_j [1:12];
(* mem2reg *) reg [W-1:0] r_c [1:12];
/* verilator lint_on UNUSEDSIGNAL */
genvar pk;
generate
for (pk = 1; pk <= 12; pk = pk + 1) begin : carry
    always @* a_i[pk] = a_i_bus[(pk-1)*IW +: IW];
    always @* a_j[pk] = a_j_bus[(pk-1)*IW +: IW];
    always @* r_ok[pk] = r_ok_bus[pk-1];
    always @* r_i[pk] = r_i_bus[(pk-1)*IW +: IW];
    always @* r_j[pk] = r_j_bus[(pk-1)*IW +: IW];
    always @* r_c[pk] = r_c_bus[(pk-1)*W +: W];
end
endgenerate
// C2's running sums per bus (0 release, 1 arrival); their low W or W + 2 bits are read
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg [XW-1:0] v_h [0:1], v_hs [0:1], v_hsr [0:1], v_qs [0:1], v_qsr [0:1];
/* verilator lint_on UNUSEDSIGNAL */
genvar pb;
generate
for (pb = 0; pb < 2; pb = pb + 1) begin : c2
    always @* v_h[pb] = v_h_bus[pb*XW +: XW];
    always @* v_hs[pb] = v_hs_bus[pb*XW +: XW];
    always @* v_hsr[pb] = v_hsr_bus[pb*XW +: XW];
    always @* v_qs[pb] = v_qs_bus[pb*XW +: XW];
    always @* v_qsr[pb] = v_qsr_bus[pb*XW +: XW];
end
endgenerate

// the release's entry's selects for C2 (pair k-1, in C2 now, is in the commit register then),
// twice: the compares' and the values' (kept: copies)
reg            uRc_a9, uRc_r9, vRc_a9, vRc_r9;
(* keep *) always @(posedge clk) begin
    uRc_a9 <= adm9 && a_i[9] == r_i[8];
    uRc_r9 <= r_ok[9] && r_i[9] == r_i[8];
    vRc_a9 <= adm9 && a_j[9] == r_j[8];
    vRc_r9 <= r_ok[9] && r_j[9] == r_j[8];
end
reg            uR_a9, uR_r9, vR_a9, vR_r9;
(* keep *) always @(posedge clk) begin
    uR_a9 <= adm9 && a_i[9] == r_i[8];
    uR_r9 <= r_ok[9] && r_i[9] == r_i[8];
    vR_a9 <= adm9 && a_j[9] == r_j[8];
    vR_r9 <= r_ok[9] && r_j[9] == r_j[8];
end

// the release's entry before pair k: what the release takes from each segment and pool
wire [PGE_W-1:0] uR = sel_pg(uR_a9, uR_r9, cm_pg_val_reg, xR9);
wire [QE_W-1:0]  uQ = sel_q(vR_a9, vR_r9, cm_q_val_reg, yR9);
/* verilator lint_off UNUSEDSIGNAL */
wire [W+1:0] uR_hsr = uR_a9 ? cm_pg_hsr_reg[W+2 +: W+2] : uR_r9 ? cm_pg_hsr_reg[0 +: W+2]
                      : xR9_hsr;
/* verilator lint_on UNUSEDSIGNAL */
// the released cells in C2: a copy per candidate of the release's amounts (c_c_h below)
reg [W-1:0] rcp9, rcp_r9, rcp_x9;
// ... and one per compare (its three candidates), the copies above for the amounts
reg [W-1:0] rk_h9, rk_hs9, rk_hsr9, rk_q9, rk_qsr9;
(* keep *) always @(posedge clk) begin
    rcp9 <= r_ok[8] ? r_c[8] : {W{1'b0}};
    rcp_r9 <= r_ok[8] ? r_c[8] : {W{1'b0}};
    rcp_x9 <= r_ok[8] ? r_c[8] : {W{1'b0}};
    rk_h9 <= r_ok[8] ? r_c[8] : {W{1'b0}};
    rk_hs9 <= r_ok[8] ? r_c[8] : {W{1'b0}};
    rk_hsr9 <= r_ok[8] ? r_c[8] : {W{1'b0}};
    rk_q9 <= r_ok[8] ? r_c[8] : {W{1'b0}};
    rk_qsr9 <= r_ok[8] ? r_c[8] : {W{1'b0}};
end
wire [W+1:0] u_c = {2'b00, rcp9};
wire [W+1:0] u_c_r = {2'b00, rcp_r9};
wire [W+1:0] u_c_x = {2'b00, rcp_x9};
wire c_rel = r_ok[9];
// each compare against the three candidates in parallel, then selected
function csel;
    input a, r, va, vr, vx;
    begin
        csel = a ? va : r ? vr : vx;
    end
endfunction
// (the commit register's sums compared from a copy of their own: the commit register feeds
// every stage's forwarding)
reg [W-1:0] cc_h_a, cc_h_r, cc_q_a, cc_q_r;
reg [W+1:0] cc_hs_a, cc_hs_r, cc_hsr_a, cc_hsr_r, cc_qsr_a, cc_qsr_r;
(* keep *) always @(posedge clk) begin
    cc_h_a <= v_h[1][W-1:0];
    cc_h_r <= v_h[0][W-1:0];
    cc_hs_a <= v_hs[1][W+1:0];
    cc_hs_r <= v_hs[0][W+1:0];
    cc_hsr_a <= v_hsr[1][W+1:0];
    cc_hsr_r <= v_hsr[0][W+1:0];
    cc_q_a <= v_qs[1][W-1:0];
    cc_q_r <= v_qs[0][W-1:0];
    cc_qsr_a <= v_qsr[1][W+1:0];
    cc_qsr_r <= v_qsr[0][W+1:0];
end
wire [W+1:0] k_h = {2'b00, rk_h9}, k_hs = {2'b00, rk_hs9}, k_hsr = {2'b00, rk_hsr9};
wire [W+1:0] k_q = {2'b00, rk_q9}, k_qsr = {2'b00, rk_qsr9};
wire c_ch = csel(uRc_a9, uRc_r9, le_u(k_h, {2'b00, cc_h_a}), le_u(k_h, {2'b00, cc_h_r}),
                 le_u(k_h, {2'b00, xR9[0 +: W]}));
wire c_chs = csel(uRc_a9, uRc_r9, le_u(k_hs, cc_hs_a), le_u(k_hs, cc_hs_r), le_u(k_hs, xR9_hs));
wire c_chsr = csel(uRc_a9, uRc_r9, le_u(k_hsr, cc_hsr_a), le_u(k_hsr, cc_hsr_r),
                   le_u(k_hsr, xR9_hsr));
wire c_cq = csel(vRc_a9, vRc_r9, le_u(k_q, {2'b00, cc_q_a}), le_u(k_q, {2'b00, cc_q_r}),
                 le_u(k_q, {2'b00, yR9[0 +: W]}));
wire c_cqsr = csel(vRc_a9, vRc_r9, le_u(k_qsr, cc_qsr_a), le_u(k_qsr, cc_qsr_r),
                   le_u(k_qsr, yR9_qsr));
// the underflow flag from the registered compares (a clock later: a flag and a counter)
reg c_rel10, c_chsr10, c_cqsr10;
always @(posedge clk) begin
    c_rel10 <= c_rel && !rst;
    c_chsr10 <= c_chsr;
    c_cqsr10 <= c_cqsr;
end
wire c_underflow = c_rel10 && (!c_chsr10 || !c_cqsr10);
wire c_rclass = uR[3*W];
wire c_rqclass = uQ[2*W];
/* verilator lint_off UNUSEDSIGNAL */
wire [W+1:0] c_c_h = uRc_a9 ? u_c - {2'b00, cm_pg_val_reg[PGE_W +: W]}
                    : uRc_r9 ? u_c_r - {2'b00, cm_pg_val_reg[0 +: W]}
                    : u_c_x - {2'b00, xR9[0 +: W]};
/* verilator lint_on UNUSEDSIGNAL */
// the release's compares and the candidates of what it takes, registered and gated by the
// release and by the pool its PG / queue is charged to (0 lossless, 1 lossy; the admitted
// amounts, in mmu_core_commit, likewise): GLOBAL picks the amounts in front of its carry-save
// sums (in a copy per GLOBAL sum they select for: kept apart)
(* keep *) always @(posedge clk) begin
    gr_sel_t <= c_chsr;
    gr_sel_h <= c_ch;
    gr_sel_p <= c_ch;
    gr_zero_s <= {2{c_ch}};
    gr_sel_s <= {2{c_chs}};
    gr_sel_es <= {2{c_cq}};
end
(* mem2reg *) reg [W-1:0] c_us10 [0:1], c_uch10 [0:1], c_rcq10 [0:1], c_uq10 [0:1];
integer gpi;
always @(posedge clk) begin
    gr_rc <= c_rel ? r_c[9] : {W{1'b0}};
    gr_uhsr <= c_rel ? uR_hsr[W-1:0] : {W{1'b0}};
    gr_uh <= c_rel ? uR[0 +: W] : {W{1'b0}};
    for (gpi = 0; gpi < 2; gpi = gpi + 1) begin
        c_us10[gpi] <= (c_rel && c_rclass == (gpi == 0)) ? uR[W +: W] : {W{1'b0}};
        c_uch10[gpi] <= (c_rel && c_rclass == (gpi == 0)) ? c_c_h[W-1:0] : {W{1'b0}};
        c_rcq10[gpi] <= (c_rel && c_rqclass == (gpi == 0)) ? r_c[9] : {W{1'b0}};
        c_uq10[gpi] <= (c_rel && c_rqclass == (gpi == 0)) ? uQ[0 +: W] : {W{1'b0}};
    end
    if (rst) begin
        gr_rc <= 0;
        gr_uhsr <= 0;
        gr_uh <= 0;
        for (gpi = 0; gpi < 2; gpi = gpi + 1) begin
            c_us10[gpi] <= 0;
            c_uch10[gpi] <= 0;
            c_rcq10[gpi] <= 0;
            c_uq10[gpi] <= 0;
        end
    end
end
assign gr_uch_bus = {c_uch10[1], c_uch10[0]};
assign gr_us_bus = {c_us10[1], c_us10[0]};
assign gr_rcq_bus = {c_rcq10[1], c_rcq10[0]};
assign gr_uq_bus = {c_uq10[1], c_uq10[0]};

// the underflow flag a clock after c_underflow: the error flag and the count
reg        underflow_reg;
always @(posedge clk) begin
    underflow_reg <= c_underflow;
    if (underflow_reg) begin
        underflow_count_reg <= underflow_count_reg + 1'b1;
        err_flags_reg[0] <= 1'b1;
    end
    if (rst) begin
        underflow_count_reg <= 0;
        underflow_reg <= 1'b0;
        err_flags_reg <= 2'b00;
    end
end
assign err_release_underflow = err_flags_reg[0];

endmodule

`resetall
