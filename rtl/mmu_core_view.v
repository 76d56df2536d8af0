/*
 * mmu_core's view (stages E1 to E5): the state RAMs (PG and queue counters, watermarks: the
 * RAMs in mmu_core_state), each entry of the pair read at E1 and merged with the commits its
 * read missed (stages 3 to 5; which commit, in mmu_core_pick), T, the XON point's first step,
 * and the decision constants (every limit minus the in-flight charge of pairs k-4 .. k-1), so
 * that DEC1 compares each counter against one register.
 *
 * Interfaces: the RAM read indices before their input registers and the input registers'
 * (mmu_core_carry, with the per-pair fields *_bus); from mmu_core_cfg the global fields and
 * the configuration RAMs' read data; from mmu_core_commit the commit register (RAM write data
 * and forwarding) and its history; from mmu_core_eval the watermark write register, its
 * history and the committed pools (T, t_lag 10); to mmu_core_decide the stage 5 registers; the
 * state RAMs' status read ports to mmu_core_status.
 *
 * Latency: the pair accepted at edge E0 is in the stage 5 registers at E5; the RAMs are read at
 * E1 (data at E2) and written a clock after the commit register (E11; WR_EARLY decodes a clock
 * before); the watermarks merged up to EVAL1 (wA11, wQ11 at E11).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_view #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of port index fields (carries out-of-range values)
    parameter PORT_W = 8,
    // width of the PG and queue index fields
    parameter PG_W = 4,
    parameter Q_W = 4,
    // 1: the per-PG / per-queue watermark RAMs; 0: not built, pgw_rd and qw_rd are 0
    // (mmu_core WATERMARKS)
    parameter WATERMARKS = 1,
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
    parameter QE_W = 2 * CELL_W + 1,
    // the watermark entries: PG {res_wm, shared_wm, hdrm_wm}, queue {wm}
    parameter PGW_W = 3 * CELL_W,
    parameter QW_W = CELL_W + 1
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * The RAM read indices before their input registers (arrival PG / queue, release PG /
     * queue, scan, status) and the input registers' (mmu_core_carry)
     */
    input  wire [IW-1:0]        a_i_in,
    input  wire [IW-1:0]        a_j_in,
    input  wire [IW-1:0]        r_i_in,
    input  wire [IW-1:0]        r_j_in,
    input  wire [IW-1:0]        st_idx_in,
    input  wire [IW-1:0]        scan_cnt_reg,
    input  wire [IW-1:0]        a_i0,
    input  wire [IW-1:0]        a_j0,
    input  wire [IW-1:0]        r_i0,
    input  wire [IW-1:0]        r_j0,
    input  wire [IW-1:0]        sc0,
    input  wire [12-1:0]        a_ok_bus,
    input  wire [12*IW-1:0]     a_i_bus,
    input  wire [12*IW-1:0]     a_j_bus,
    input  wire [11*W-1:0]      a_cells_bus,
    input  wire [12-1:0]        r_ok_bus,
    input  wire [12*IW-1:0]     r_i_bus,
    input  wire [12*IW-1:0]     r_j_bus,
    input  wire [12*IW-1:0]     sc_bus,

    /*
     * Configuration (mmu_core_cfg): global fields ({lossy, lossless} pools), per-PG and
     * per-queue fields (field f's read ports at bus slot f, 128 bits each)
     */
    input  wire [W-1:0]         g_buffer_reg,
    input  wire [2*W-1:0]       g_pool_bus,
    input  wire [W-1:0]         g_hdrm_pool_reg,
    // headroom_policy dsh (mmu_core_dsh): the pair's policy, its port's limit and in-flight
    // charge in stage 3; the headroom pool's constants become the port's
    input  wire                 dsh3,
    input  wire [W-1:0]         plim3,
    input  wire [FW-1:0]        fport3,
    input  wire [2*W-1:0]       g_epool_bus,
    input  wire [8*128-1:0]     pgc_rd_bus,
    input  wire [8*128-1:0]     qc_rd_bus,

    /*
     * Decision (mmu_core_decide), commit register and its history (mmu_core_commit),
     * watermark write register, its history and the committed pools (mmu_core_eval)
     */
    input  wire                 d_admit,
    input  wire                 dec_admit_reg,
    input  wire                 adm9,
    input  wire [2*PGE_W-1:0]   cm_pg_val_reg,
    input  wire [2*QE_W-1:0]    cm_q_val_reg,
    input  wire                 cm_pg_empty_reg,
    input  wire                 cm_q_empty_reg,
    input  wire [2*2*PGE_W-1:0] cmh_pg_val_bus,
    input  wire [2*2*QE_W-1:0]  cmh_q_val_bus,
    input  wire                 adm11,
    input  wire [1:0]           adm11_wr,
    input  wire                 wm_en_reg,
    input  wire [IW-1:0]        wm_i_reg,
    input  wire [IW-1:0]        wm_j_reg,
    input  wire [PGW_W-1:0]     wm_pg_reg,
    input  wire [QW_W-1:0]      wm_q_reg,
    input  wire [1:0]           wmh_en_bus,
    input  wire [2*IW-1:0]      wmh_i_bus,
    input  wire [2*IW-1:0]      wmh_j_bus,
    input  wire [2*PGW_W-1:0]   wmh_pg_bus,
    input  wire [2*QW_W-1:0]    wmh_q_bus,
    input  wire [2*W-1:0]       pool_bus,
    input  wire [2*W-1:0]       epool_bus,

    /*
     * State RAM read data: PG state (read ports A, R, scan, stat), queue state (A, R, stat),
     * PG and queue watermarks (A, stat)
     */
    output wire [4*PGE_W-1:0]   pgs_rd,
    output wire [3*QE_W-1:0]    qs_rd,
    output wire [2*PGW_W-1:0]   pgw_rd,
    output wire [2*QW_W-1:0]    qw_rd,

    /*
     * Stage 5 registers: the entries of the arrival's PG (A), the release's (R), the scan PG
     * (S), the arrival's and the release's queue; the decision constants (kP1 .. kE2: {lossy,
     * lossless} pool); T and XON step 1; the in-flight arrivals naming this pair's PG / queue;
     * DEC1a's forwarding selects; the configuration carried (lossless class, XON)
     */
    output wire [PGE_W-1:0]     eA5,
    output wire [PGE_W-1:0]     eR5,
    output wire [PGE_W-1:0]     eS5,
    output wire [QE_W-1:0]      qA5,
    output wire [QE_W-1:0]      qR5,
    output reg  signed [SW-1:0] kR, k1, kG, kH1, kH2, kHP1, kHP2,
    output wire [2*SW-1:0]      kP1_bus,
    output wire [2*SW-1:0]      kP2_bus,
    output wire [2*TW-1:0]      kT_bus,
    output wire [2*TW-1:0]      kTQ_bus,
    output reg  signed [SW-1:0] kQR, kQ1,
    output wire [2*SW-1:0]      kE1_bus,
    output wire [2*SW-1:0]      kE2_bus,
    output reg                  hp_none5,
    output reg  signed [TW-1:0] tA5, tR5, tS5, xA5, xR5, xS5,
    output reg                  f_same1_pg5, f_same2_pg5, f_same3_pg5, f_same4_pg5,
    output reg                  f_same1_q5, f_same2_q5, f_same3_q5, f_same4_q5,
    output reg                  mA5_a, mA5_r, mR5_a, mR5_r, mS5_a, mS5_r, nA5_a, nA5_r, nR5_a,
    output reg                  nR5_r,
    output reg                  emptyA5, emptyQ5,
    output wire                 cA_ll6,
    output wire                 cQ_ll6,
    output wire [W-1:0]         cA_xon5,
    output wire [W-1:0]         cR_xon5,
    output wire [W-1:0]         cS_xon5,

    /*
     * The arrival's watermarks in EVAL1's stage (stage 11 registers)
     */
    output wire [PGW_W-1:0]     wA11,
    output wire [QW_W-1:0]      wQ11
);

`include "mmu_core_functions.vh"


// T: alpha * (pool shared size - used), alpha = 2^n with n 4-bit two's complement (left shift
// for n >= 0, arithmetic right shift for n < 0: Python's >> rounding), or the static threshold.
// In two steps (stages 3 and 4): the shift by the low two bits of the distance, then by the
// rest (floor shifts compose exactly), and the static threshold.
function signed [TW-1:0] t_shift_lo;
    input [3:0] alpha;
    input signed [W+1:0] free;
    reg signed [TW-1:0] v;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [3:0] d_neg;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        v = {{(TW-W-2){free[W+1]}}, free};
        d_neg = ~alpha + 4'd1;
        if (!alpha[3]) begin
            t_shift_lo = v <<< alpha[1:0];
        end else begin
            t_shift_lo = v >>> d_neg[1:0];
        end
    end
endfunction
function signed [TW-1:0] threshold;
    input dynamic;
    input [3:0] alpha;
    input [W-1:0] static_th;
    input signed [TW-1:0] v;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [3:0] d_neg;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        d_neg = ~alpha + 4'd1;
        if (!dynamic) begin
            threshold = tx(static_th);
        end else if (!alpha[3]) begin
            threshold = v <<< {alpha[2], 2'b00};
        end else begin
            threshold = v >>> {d_neg[3:2], 2'b00};
        end
    end
endfunction
// a + b + c modulo 2^FW, carry-save (one LUT level, one carry chain)
function [FW-1:0] add3w;
    input [FW-1:0] a;
    input [FW-1:0] b;
    input [FW-1:0] c;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [FW-1:0] maj;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        maj = (a & b) | (a & c) | (b & c);
        add3w = (a ^ b ^ c) + {maj[FW-2:0], 1'b0};
    end
endfunction
// (the three extend by assignment: FW may equal W)
/* verilator lint_off WIDTHEXPAND */
// a cell count in the in-flight charge's width
function [FW-1:0] fx;
    input [W-1:0] v;
    begin
        fx = v;                  // zero-extended (FW >= W; FW == W in switch_core)
    end
endfunction
// an in-flight charge as a signed decision value / threshold-width value
function signed [SW-1:0] sxf;
    input [FW-1:0] v;
    begin
        sxf = $signed({1'b0, v});
    end
endfunction
function signed [TW-1:0] txf;
    input [FW-1:0] v;
    begin
        txf = $signed({1'b0, v});
    end
endfunction
/* verilator lint_on WIDTHEXPAND */

// the inputs that the code reads as arrays
// the per-pair fields of the pipeline (mmu_core_view), stage p of each at bus slot p - 1
// (a_cells: p - 2); a part reads only some of the stages
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg a_ok [1:12];
(* mem2reg *) reg [IW-1:0] a_i [1:12];
(* mem2reg *) reg [IW-1:0] a_j [1:12];
(* mem2reg *) reg [W-1:0] a_cells [2:12];
(* mem2reg *) reg r_ok [1:12];
(* mem2reg *) reg [IW-1:0] r_i [1:12];
(* mem2reg *) reg [IW-1:0] r_j [1:12];
(* mem2reg *) reg [IW-1:0] sc [1:12];
/* verilator lint_on UNUSEDSIGNAL */
genvar pk;
generate
for (pk = 1; pk <= 12; pk = pk + 1) begin : carry
    always @* a_ok[pk] = a_ok_bus[pk-1];
    always @* a_i[pk] = a_i_bus[(pk-1)*IW +: IW];
    always @* a_j[pk] = a_j_bus[(pk-1)*IW +: IW];
    always @* r_ok[pk] = r_ok_bus[pk-1];
    always @* r_i[pk] = r_i_bus[(pk-1)*IW +: IW];
    always @* r_j[pk] = r_j_bus[(pk-1)*IW +: IW];
    always @* sc[pk] = sc_bus[(pk-1)*IW +: IW];
end
for (pk = 2; pk <= 12; pk = pk + 1) begin : carry_cells
    always @* a_cells[pk] = a_cells_bus[(pk-2)*W +: W];
end
endgenerate

(* mem2reg *) reg [W-1:0] g_pool_reg [0:1];
always @* g_pool_reg[0] = g_pool_bus[0 +: W];
always @* g_pool_reg[1] = g_pool_bus[W +: W];
(* mem2reg *) reg [W-1:0] g_epool_reg [0:1];
always @* g_epool_reg[0] = g_epool_bus[0 +: W];
always @* g_epool_reg[1] = g_epool_bus[W +: W];
(* mem2reg *) reg [W-1:0] pool_reg [0:1];
always @* pool_reg[0] = pool_bus[0 +: W];
always @* pool_reg[1] = pool_bus[W +: W];
(* mem2reg *) reg [W-1:0] epool_reg [0:1];
always @* epool_reg[0] = epool_bus[0 +: W];
always @* epool_reg[1] = epool_bus[W +: W];
(* mem2reg *) reg [2*PGE_W-1:0] cmh_pg_val_reg [1:2];
always @* cmh_pg_val_reg[1] = cmh_pg_val_bus[0 +: 2*PGE_W];
always @* cmh_pg_val_reg[2] = cmh_pg_val_bus[2*PGE_W +: 2*PGE_W];
(* mem2reg *) reg [2*QE_W-1:0] cmh_q_val_reg [1:2];
always @* cmh_q_val_reg[1] = cmh_q_val_bus[0 +: 2*QE_W];
always @* cmh_q_val_reg[2] = cmh_q_val_bus[2*QE_W +: 2*QE_W];
(* mem2reg *) reg wmh_en_reg [1:2];
always @* wmh_en_reg[1] = wmh_en_bus[0];
always @* wmh_en_reg[2] = wmh_en_bus[1];
(* mem2reg *) reg [IW-1:0] wmh_i_reg [1:2];
always @* wmh_i_reg[1] = wmh_i_bus[0 +: IW];
always @* wmh_i_reg[2] = wmh_i_bus[IW +: IW];
(* mem2reg *) reg [IW-1:0] wmh_j_reg [1:2];
always @* wmh_j_reg[1] = wmh_j_bus[0 +: IW];
always @* wmh_j_reg[2] = wmh_j_bus[IW +: IW];
(* mem2reg *) reg [PGW_W-1:0] wmh_pg_reg [1:2];
always @* wmh_pg_reg[1] = wmh_pg_bus[0 +: PGW_W];
always @* wmh_pg_reg[2] = wmh_pg_bus[PGW_W +: PGW_W];
(* mem2reg *) reg [QW_W-1:0] wmh_q_reg [1:2];
always @* wmh_q_reg[1] = wmh_q_bus[0 +: QW_W];
always @* wmh_q_reg[2] = wmh_q_bus[QW_W +: QW_W];
// the configuration RAMs' read ports (mmu_core_cfg); the stat ports are read by mmu_core_status
/* verilator lint_off UNUSEDSIGNAL */
wire [4*32-1:0] pgc_rd [0:7];
wire [4*32-1:0] qc_rd [0:7];
/* verilator lint_on UNUSEDSIGNAL */
genvar f;
generate
for (f = 0; f < 8; f = f + 1) begin : cfg_rd
    assign pgc_rd[f] = pgc_rd_bus[f*128 +: 128];
    assign qc_rd[f] = qc_rd_bus[f*128 +: 128];
end
endgenerate

// the global fields of the pair's clock, carried to stages 3 (T step 1) and 4 (the limits)
(* mem2reg *) reg [W-1:0]    gb [1:5];         // buffer cells of the pair's clock
(* mem2reg *) reg [W-1:0]    gp0 [1:5], gp1 [1:5], gh [1:5], ge0 [1:5], ge1 [1:5];

integer st;
always @(posedge clk) begin
    gb[1] <= g_buffer_reg;
    gp0[1] <= g_pool_reg[0];
    gp1[1] <= g_pool_reg[1];
    gh[1] <= g_hdrm_pool_reg;
    ge0[1] <= g_epool_reg[0];
    ge1[1] <= g_epool_reg[1];
    for (st = 2; st <= 5; st = st + 1) begin
        gb[st] <= gb[st-1];
        gp0[st] <= gp0[st-1];
        gp1[st] <= gp1[st-1];
        gh[st] <= gh[st-1];
        ge0[st] <= ge0[st-1];
        ge1[st] <= ge1[st-1];
    end
end

// ------------------------------------------------------------------------------ state RAMs
// PG / queue state and watermarks (mmu_core_state): read at E1, written from the commit
// register (the C2 pair's enables and indices) and EVAL's watermark write register
mmu_core_state #(.PORT_COUNT(PORT_COUNT), .CELL_W(CELL_W), .WATERMARKS(WATERMARKS), .IW(IW),
                 .PGE_W(PGE_W), .QE_W(QE_W), .PGW_W(PGW_W), .QW_W(QW_W))
state_inst (
    .clk(clk), .rst(rst), .a_i_in(a_i_in), .a_j_in(a_j_in), .r_i_in(r_i_in), .r_j_in(r_j_in),
    .st_idx_in(st_idx_in), .scan_cnt_reg(scan_cnt_reg), .dec_admit_reg(dec_admit_reg),
    .r_ok8(r_ok[8]), .a_i8(a_i[8]), .r_i8(r_i[8]), .a_j8(a_j[8]), .r_j8(r_j[8]),
    .cm_pg_val_reg(cm_pg_val_reg), .cm_q_val_reg(cm_q_val_reg), .adm11_wr(adm11_wr),
    .a_i11(a_i[11]), .a_j11(a_j[11]), .wm_pg_reg(wm_pg_reg), .wm_q_reg(wm_q_reg),
    .pgs_rd(pgs_rd), .qs_rd(qs_rd), .pgw_rd(pgw_rd), .qw_rd(qw_rd)
);

// ------------------------------------------------------------------------------ stage 3
// RAM data (commits up to pair k-11) merged with the commits of pairs k-10, k-9, k-8; T step
// 1; the in-flight charges: pairs k-1 .. k-4 for the entries, k-1 .. k-5 for the global
// counters (in stages 4 to 6 now: arrivals charged in full)
(* mem2reg *) reg [PGE_W-1:0] eA [3:5], eR [3:5], eS [3:5];
(* mem2reg *) reg [QE_W-1:0]  qA [3:5], qR [3:5];
(* mem2reg *) reg [PGW_W-1:0] wA [3:11];
(* mem2reg *) reg [QW_W-1:0]  wQ [3:11];
// configuration of the pair's PGs and queue
(* mem2reg *) reg             cA_ll [3:6], cA_dyn [3:3], cR_dyn [3:3], cS_dyn [3:3];
(* mem2reg *) reg [3:0]       cA_al [3:3], cR_al [3:3], cS_al [3:3];
(* mem2reg *) reg [W-1:0]     cA_res [3:3], cA_st [3:3], cA_hl [3:3];
(* mem2reg *) reg [W-1:0]     cA_xon [3:5], cA_off [3:4];
(* mem2reg *) reg [W-1:0]     cR_st [3:3], cR_xon [3:5], cR_off [3:4], cS_st [3:3];
(* mem2reg *) reg [W-1:0]     cS_xon [3:5], cS_off [3:4];
(* mem2reg *) reg             cQ_ll [3:6], cQ_dyn [3:3];
(* mem2reg *) reg [3:0]       cQ_al [3:3];
(* mem2reg *) reg [W-1:0]     cQ_res [3:3], cQ_st [3:3];
(* mem2reg *) reg signed [W+1:0] free_i [0:1], free_e [0:1];   // size - used (T step 1)
// T step 2: the first part of each shift
(* mem2reg *) reg signed [TW-1:0] vA3 [0:1], vQ3 [0:1];
reg signed [TW-1:0] vR3, vS3;
reg [FW-1:0]    f_all3, f_pg3, f_q3;
reg            f_same1_pg3, f_same2_pg3, f_same3_pg3, f_same4_pg3;
reg            f_same1_q3, f_same2_q3, f_same3_q3, f_same4_q3;

// the commits the RAM read missed (pairs k-10, k-9, k-8): one-hot selects (newest first, the
// arrival bus before the release bus), the index compares in stage 1 and their priority in
// stage 2, so stage 3 is an AND-OR of registers
function [PGE_W-1:0] merge7_pg;
    input [6:0] p;
    input [PGE_W-1:0] ram;
    begin
        merge7_pg = ({PGE_W{p[6]}} & cm_pg_val_reg[PGE_W +: PGE_W])
                    | ({PGE_W{p[5]}} & cm_pg_val_reg[0 +: PGE_W])
                    | ({PGE_W{p[4]}} & cmh_pg_val_reg[1][PGE_W +: PGE_W])
                    | ({PGE_W{p[3]}} & cmh_pg_val_reg[1][0 +: PGE_W])
                    | ({PGE_W{p[2]}} & cmh_pg_val_reg[2][PGE_W +: PGE_W])
                    | ({PGE_W{p[1]}} & cmh_pg_val_reg[2][0 +: PGE_W])
                    | ({PGE_W{p[0]}} & ram);
    end
endfunction
function [QE_W-1:0] merge7_q;
    input [6:0] p;
    input [QE_W-1:0] ram;
    begin
        merge7_q = ({QE_W{p[6]}} & cm_q_val_reg[QE_W +: QE_W])
                   | ({QE_W{p[5]}} & cm_q_val_reg[0 +: QE_W])
                   | ({QE_W{p[4]}} & cmh_q_val_reg[1][QE_W +: QE_W])
                   | ({QE_W{p[3]}} & cmh_q_val_reg[1][0 +: QE_W])
                   | ({QE_W{p[2]}} & cmh_q_val_reg[2][QE_W +: QE_W])
                   | ({QE_W{p[1]}} & cmh_q_val_reg[2][0 +: QE_W])
                   | ({QE_W{p[0]}} & ram);
    end
endfunction
// the picks (mmu_core_pick): the index compares in stage 1, their priority in stage 2
wire [6:0] pA2, pR2, pS2, pqA2, pqR2;
mmu_core_pick #(.PORT_COUNT(PORT_COUNT), .IW(IW))
pick_inst (
    .clk(clk), .rst(rst), .a_i0(a_i0), .a_j0(a_j0), .r_i0(r_i0), .r_j0(r_j0), .sc0(sc0),
    .a_i_bus(a_i_bus), .a_j_bus(a_j_bus), .r_ok_bus(r_ok_bus), .r_i_bus(r_i_bus),
    .r_j_bus(r_j_bus), .d_admit(d_admit), .dec_admit_reg(dec_admit_reg), .adm9(adm9),
    .pA2(pA2), .pR2(pR2), .pS2(pS2), .pqA2(pqA2), .pqR2(pqR2)
);
always @(posedge clk) begin
    // T step 1 (in stage 2) from the pools committed after pair k-10 (t_lag 10)
    free_i[0] <= $signed({2'b00, gp0[1]}) - $signed({2'b00, pool_reg[0]});
    free_i[1] <= $signed({2'b00, gp1[1]}) - $signed({2'b00, pool_reg[1]});
    free_e[0] <= $signed({2'b00, ge0[1]}) - $signed({2'b00, epool_reg[0]});
    free_e[1] <= $signed({2'b00, ge1[1]}) - $signed({2'b00, epool_reg[1]});
end

// the cells of the arrivals in flight, gated by a good length and index (pairs k-1 .. k-5 at
// stage 3; k-3 .. k-5 summed a stage earlier)
(* mem2reg *) reg [W-1:0] a_gc [3:7];
reg [FW-1:0] f345_3;
reg [2:0] wp3, wq3;     // stage 3's watermark selects, newest first
integer sg;
always @(posedge clk) begin
    a_gc[3] <= a_ok[2] ? a_cells[2] : {W{1'b0}};
    for (sg = 4; sg <= 7; sg = sg + 1) begin
        a_gc[sg] <= a_gc[sg-1];
    end
    f345_3 <= add3w(fx(a_gc[4]), fx(a_gc[5]), fx(a_gc[6]));
    // the watermark writes stage 3 merges: the pair in EVAL1 now, the write register, its
    // first history register (one-hot, newest first, else the RAM)
    wp3[2] <= adm11 && a_i[11] == a_i[1];
    wp3[1] <= !(adm11 && a_i[11] == a_i[1]) && wm_en_reg && wm_i_reg == a_i[1];
    wp3[0] <= !(adm11 && a_i[11] == a_i[1]) && !(wm_en_reg && wm_i_reg == a_i[1])
              && wmh_en_reg[1] && wmh_i_reg[1] == a_i[1];
    wq3[2] <= adm11 && a_j[11] == a_j[1];
    wq3[1] <= !(adm11 && a_j[11] == a_j[1]) && wm_en_reg && wm_j_reg == a_j[1];
    wq3[0] <= !(adm11 && a_j[11] == a_j[1]) && !(wm_en_reg && wm_j_reg == a_j[1])
              && wmh_en_reg[1] && wmh_j_reg[1] == a_j[1];
end
wire [W-1:0] f1_cells = a_gc[3];   // pair k-1
wire [W-1:0] f2_cells = a_gc[4];   // pair k-2
// pairs k-1 .. k-4 name this pair's PG / queue (compared in stage 2)
reg f1_pg, f2_pg, f3_pg, f4_pg, f1_q, f2_q, f3_q, f4_q;
// pairs k-3 and k-4 compared a stage earlier (stage 1) and their cells summed in stage 2
reg f3e_pg, f4e_pg, f3e_q, f4e_q;
reg [FW-1:0] f34_pg2, f34_q2;
always @(posedge clk) begin
    f3e_pg <= a_ok[3] && a_i[3] == a_i0;
    f4e_pg <= a_ok[4] && a_i[4] == a_i0;
    f3e_q <= a_ok[3] && a_j[3] == a_j0;
    f4e_q <= a_ok[4] && a_j[4] == a_j0;
    f34_pg2 <= fx(f3e_pg ? a_cells[4] : {W{1'b0}}) + fx(f4e_pg ? a_cells[5] : {W{1'b0}});
    f34_q2 <= fx(f3e_q ? a_cells[4] : {W{1'b0}}) + fx(f4e_q ? a_cells[5] : {W{1'b0}});
    f1_pg <= a_ok[2] && a_i[2] == a_i[1];
    f2_pg <= a_ok[3] && a_i[3] == a_i[1];
    f3_pg <= a_ok[4] && a_i[4] == a_i[1];
    f4_pg <= a_ok[5] && a_i[5] == a_i[1];
    f1_q <= a_ok[2] && a_j[2] == a_j[1];
    f2_q <= a_ok[3] && a_j[3] == a_j[1];
    f3_q <= a_ok[4] && a_j[4] == a_j[1];
    f4_q <= a_ok[5] && a_j[5] == a_j[1];
end
always @(posedge clk) begin
    eA[3] <= merge7_pg(pA2, pgs_rd[0*PGE_W +: PGE_W]);
    eR[3] <= merge7_pg(pR2, pgs_rd[1*PGE_W +: PGE_W]);
    eS[3] <= merge7_pg(pS2, pgs_rd[2*PGE_W +: PGE_W]);
    qA[3] <= merge7_q(pqA2, qs_rd[0*QE_W +: QE_W]);
    qR[3] <= merge7_q(pqR2, qs_rd[1*QE_W +: QE_W]);
    // watermarks: RAM (writes up to pair k-13) and the writes of pairs k-12, k-11, k-10
    wA[3] <= ({PGW_W{wp3[2]}} & wm_pg_reg) | ({PGW_W{wp3[1]}} & wmh_pg_reg[1])
             | ({PGW_W{wp3[0]}} & wmh_pg_reg[2])
             | ({PGW_W{!(|wp3[2:0])}} & pgw_rd[0 +: PGW_W]);
    wQ[3] <= ({QW_W{wq3[2]}} & wm_q_reg) | ({QW_W{wq3[1]}} & wmh_q_reg[1])
             | ({QW_W{wq3[0]}} & wmh_q_reg[2])
             | ({QW_W{!(|wq3[2:0])}} & qw_rd[0 +: QW_W]);
    cA_ll[3] <= pgc_rd[0][0];
    cA_res[3] <= pgc_rd[1][0 +: W];
    cA_dyn[3] <= pgc_rd[2][0];
    cA_al[3] <= pgc_rd[3][0 +: 4];
    cA_st[3] <= pgc_rd[4][0 +: W];
    cA_hl[3] <= pgc_rd[5][0 +: W];
    cA_xon[3] <= pgc_rd[6][0 +: W];
    cA_off[3] <= pgc_rd[7][0 +: W];
    cR_dyn[3] <= pgc_rd[2][32];
    cR_al[3] <= pgc_rd[3][32 +: 4];
    cR_st[3] <= pgc_rd[4][32 +: W];
    cR_xon[3] <= pgc_rd[6][32 +: W];
    cR_off[3] <= pgc_rd[7][32 +: W];
    cS_dyn[3] <= pgc_rd[2][64];
    cS_al[3] <= pgc_rd[3][64 +: 4];
    cS_st[3] <= pgc_rd[4][64 +: W];
    cS_xon[3] <= pgc_rd[6][64 +: W];
    cS_off[3] <= pgc_rd[7][64 +: W];
    cQ_ll[3] <= qc_rd[0][0];
    cQ_res[3] <= qc_rd[1][0 +: W];
    cQ_dyn[3] <= qc_rd[2][0];
    cQ_al[3] <= qc_rd[3][0 +: 4];
    cQ_st[3] <= qc_rd[4][0 +: W];
    // T step 2: the low part of the shift, alpha straight from the configuration RAM
    vA3[0] <= t_shift_lo(pgc_rd[3][0 +: 4], free_i[0]);
    vA3[1] <= t_shift_lo(pgc_rd[3][0 +: 4], free_i[1]);
    vQ3[0] <= t_shift_lo(qc_rd[3][0 +: 4], free_e[0]);
    vQ3[1] <= t_shift_lo(qc_rd[3][0 +: 4], free_e[1]);
    vR3 <= t_shift_lo(pgc_rd[3][32 +: 4], free_i[0]);
    vS3 <= t_shift_lo(pgc_rd[3][64 +: 4], free_i[0]);
    f_all3 <= add3w(fx(f1_cells), fx(f2_cells), f345_3);
    f_pg3 <= add3w(fx(f1_pg ? a_cells[3] : {W{1'b0}}), fx(f2_pg ? a_cells[4] : {W{1'b0}}), f34_pg2);
    f_q3 <= add3w(fx(f1_q ? a_cells[3] : {W{1'b0}}), fx(f2_q ? a_cells[4] : {W{1'b0}}), f34_q2);
    f_same1_pg3 <= f1_pg;
    f_same2_pg3 <= f2_pg;
    f_same3_pg3 <= f3_pg;
    f_same4_pg3 <= f4_pg;
    f_same1_q3 <= f1_q;
    f_same2_q3 <= f2_q;
    f_same3_q3 <= f3_q;
    f_same4_q3 <= f4_q;
end

// stages 4 and 5 merge the commit of one more pair each (k-7, k-6); every stage up to EVAL1
// merges one more watermark write; configuration fields carried
integer sm;
(* mem2reg *) reg [5:0] pa [3:4];
(* mem2reg *) reg       wsA [3:10], wsQ [3:10];
(* mem2reg *) reg [3:0] pq [3:4];
always @(posedge clk) begin
    // the selects were computed a stage earlier against the pair then in COMMIT
    for (sm = 4; sm <= 5; sm = sm + 1) begin
        eA[sm] <= sel_pg(pa[sm-1][5], pa[sm-1][4], cm_pg_val_reg, eA[sm-1]);
        eR[sm] <= sel_pg(pa[sm-1][3], pa[sm-1][2], cm_pg_val_reg, eR[sm-1]);
        eS[sm] <= sel_pg(pa[sm-1][1], pa[sm-1][0], cm_pg_val_reg, eS[sm-1]);
        qA[sm] <= sel_q(pq[sm-1][3], pq[sm-1][2], cm_q_val_reg, qA[sm-1]);
        qR[sm] <= sel_q(pq[sm-1][1], pq[sm-1][0], cm_q_val_reg, qR[sm-1]);
    end
    // selects for stages 4 and 5: the pair in COMMIT now commits when they merge
    for (sm = 3; sm <= 4; sm = sm + 1) begin
        pa[sm] <= {adm9 && a_i[9] == a_i[sm-1], r_ok[9] && r_i[9] == a_i[sm-1],
                   adm9 && a_i[9] == r_i[sm-1], r_ok[9] && r_i[9] == r_i[sm-1],
                   adm9 && a_i[9] == sc[sm-1], r_ok[9] && r_i[9] == sc[sm-1]};
        pq[sm] <= {adm9 && a_j[9] == a_j[sm-1], r_ok[9] && r_j[9] == a_j[sm-1],
                   adm9 && a_j[9] == r_j[sm-1], r_ok[9] && r_j[9] == r_j[sm-1]};
    end
    // the watermark write of the pair now in EVAL1 is in the write register when the
    // selects computed here are used
    for (sm = 4; sm <= 11; sm = sm + 1) begin
        wA[sm] <= wsA[sm-1] ? wm_pg_reg : wA[sm-1];
        wQ[sm] <= wsQ[sm-1] ? wm_q_reg : wQ[sm-1];
    end
    for (sm = 3; sm <= 10; sm = sm + 1) begin
        wsA[sm] <= adm11 && a_i[11] == a_i[sm-1];
        wsQ[sm] <= adm11 && a_j[11] == a_j[sm-1];
    end
    for (sm = 4; sm <= 6; sm = sm + 1) begin
        cA_ll[sm] <= cA_ll[sm-1];
        cQ_ll[sm] <= cQ_ll[sm-1];
    end
    cA_off[4] <= cA_off[3]; cR_off[4] <= cR_off[3]; cS_off[4] <= cS_off[3];
    for (sm = 4; sm <= 5; sm = sm + 1) begin
        cA_xon[sm] <= cA_xon[sm-1]; cR_xon[sm] <= cR_xon[sm-1]; cS_xon[sm] <= cS_xon[sm-1];
    end
end

// ------------------------------------------------------------------------------ stage 4
// T (both pools for the arrival's PG and queue: the class is known at DEC; the lossless pool
// for the release's and the scan PG, which are only evaluated for PFC); partial constants
(* mem2reg *) reg signed [TW-1:0] tA4 [0:1], tQ4 [0:1];
reg signed [TW-1:0] tR4, tS4;
reg signed [SW-1:0] kr4, kq4, buf4, lh4, hp4;
(* mem2reg *) reg signed [SW-1:0] sp4 [0:1], se4 [0:1];
reg [FW-1:0]        f_pg4, f_q4;
reg                f_same1_pg4, f_same2_pg4, f_same3_pg4, f_same4_pg4;
reg                f_same1_q4, f_same2_q4, f_same3_q4, f_same4_q4;
reg                hp_none4;
always @(posedge clk) begin
    tA4[0] <= threshold(cA_dyn[3], cA_al[3], cA_st[3], vA3[0]);
    tA4[1] <= threshold(cA_dyn[3], cA_al[3], cA_st[3], vA3[1]);
    tQ4[0] <= threshold(cQ_dyn[3], cQ_al[3], cQ_st[3], vQ3[0]);
    tQ4[1] <= threshold(cQ_dyn[3], cQ_al[3], cQ_st[3], vQ3[1]);
    tR4 <= threshold(cR_dyn[3], cR_al[3], cR_st[3], vR3);
    tS4 <= threshold(cS_dyn[3], cS_al[3], cS_st[3], vS3);
    kr4 <= sx(cA_res[3]) - sxf(f_pg3);
    kq4 <= sx(cQ_res[3]) - sxf(f_q3);
    buf4 <= sx(gb[3]) - sxf(f_all3);
    lh4 <= sx(cA_hl[3]) - sxf(f_pg3);
    hp4 <= dsh3 ? sx(plim3) - sxf(fport3) : sx(gh[3]) - sxf(f_all3);
    hp_none4 <= !dsh3 && gh[3] == 0;
    sp4[0] <= sx(gp0[3]) - sxf(f_all3);
    sp4[1] <= sx(gp1[3]) - sxf(f_all3);
    se4[0] <= sx(ge0[3]) - sxf(f_all3);
    se4[1] <= sx(ge1[3]) - sxf(f_all3);
    f_pg4 <= f_pg3;
    f_q4 <= f_q3;
    f_same1_pg4 <= f_same1_pg3;
    f_same2_pg4 <= f_same2_pg3;
    f_same3_pg4 <= f_same3_pg3;
    f_same4_pg4 <= f_same4_pg3;
    f_same1_q4 <= f_same1_q3;
    f_same2_q4 <= f_same2_q3;
    f_same3_q4 <= f_same3_q3;
    f_same4_q4 <= f_same4_q3;
end

// ------------------------------------------------------------------------------ stage 5
// decision constants: every limit minus the in-flight charge, so DEC1 compares each counter
// (or a sum of two) against one register; DEC1a's forwarding selects (pair k-5 is in C2 now);
// the first step of the XON points
(* mem2reg *) reg signed [SW-1:0] kP1 [0:1], kP2 [0:1];
(* mem2reg *) reg signed [TW-1:0] kT [0:1], kTQ [0:1];
(* mem2reg *) reg signed [SW-1:0] kE1 [0:1], kE2 [0:1];
// forwarding selects: entry = the commit register's arrival bus (a) or release bus (r)
// (only the arrival's entry's selects are needed here)
/* verilator lint_off UNUSEDSIGNAL */
wire [5:0] pa4 = pa[4];
wire [3:0] pq4 = pq[4];
/* verilator lint_on UNUSEDSIGNAL */
wire pa4_a = pa4[5], pa4_r = pa4[4], pq4_a = pq4[3], pq4_r = pq4[2];
// whether the arrival's stage 4 entries are empty (the class bit does not count), from a
// stage earlier: the zero tests of stage 3's entries in four parts, and stage 4's select of
// the commit register (whose release entry says itself whether it is empty)
reg [3:0] zA4_n, zQ4_n;            // a part of eA[3] / qA[3] is not zero
reg      sA4_a, sA4_r, sQ4_a, sQ4_r, cmA4_empty, cmQ4_empty;
always @(posedge clk) begin
    zA4_n <= {|eA[3][3*W-1:9*W/4], |eA[3][9*W/4-1:3*W/2], |eA[3][3*W/2-1:3*W/4],
              |eA[3][3*W/4-1:0]};
    zQ4_n <= {|qA[3][2*W-1:3*W/2], |qA[3][3*W/2-1:W], |qA[3][W-1:W/2], |qA[3][W/2-1:0]};
    sA4_a <= pa[3][5];
    sA4_r <= pa[3][4];
    sQ4_a <= pq[3][3];
    sQ4_r <= pq[3][2];
    cmA4_empty <= cm_pg_empty_reg;
    cmQ4_empty <= cm_q_empty_reg;
end
wire eA4_zero = sA4_a ? 1'b0 : sA4_r ? cmA4_empty : !(|zA4_n);
// x + y - z as one carry-save level and one carry chain: x + y + ~z + 1, the + 1 in the carry
// vector's free low bit (written out: synthesis otherwise shares y - z between constants and
// puts two chains in series)
function signed [SW-1:0] add_sub;
    input signed [SW-1:0] x;
    input signed [SW-1:0] y;
    input signed [SW-1:0] z;
    reg [SW-1:0] nz;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [SW-1:0] maj;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        nz = ~z;
        maj = (x & y) | (x & nz) | (y & nz);
        add_sub = (x ^ y ^ nz) + {maj[SW-2:0], 1'b1};
    end
endfunction
// stage 5's copies of the arrival's cells (= a_cells[4]), one per group of constants (kept:
// one register drove every chain of stage 5 from across the core)
reg [W-1:0] cells_pg5, cells_pool5, cells_q5;
(* keep *) always @(posedge clk) begin
    cells_pg5 <= a_cells[3];
    cells_pool5 <= a_cells[3];
    cells_q5 <= a_cells[3];
end
wire qA4_zero = sQ4_a ? 1'b0 : sQ4_r ? cmQ4_empty : !(|zQ4_n);
always @(posedge clk) begin : stage5
    reg signed [SW-1:0] cells, cpool, cq;
    cells = sx(cells_pg5);
    cpool = sx(cells_pool5);
    cq = sx(cells_q5);
    kR <= kr4;
    k1 <= kr4 - cells;
    kG <= buf4 - cpool;
    kH1 <= lh4 - cells;
    kH2 <= add_sub(lh4, kr4, cells);
    kHP1 <= hp4 - cells;
    kHP2 <= add_sub(hp4, kr4, cells);
    hp_none5 <= hp_none4;
    kT[0] <= tA4[0] - txf(f_pg4);
    kT[1] <= tA4[1] - txf(f_pg4);
    kP1[0] <= sp4[0] - cpool;
    kP1[1] <= sp4[1] - cpool;
    kP2[0] <= add_sub(sp4[0], kr4, cpool);
    kP2[1] <= add_sub(sp4[1], kr4, cpool);
    kQR <= kq4;
    kQ1 <= kq4 - cq;
    kTQ[0] <= tQ4[0] - txf(f_q4);
    kTQ[1] <= tQ4[1] - txf(f_q4);
    kE1[0] <= se4[0] - cq;
    kE1[1] <= se4[1] - cq;
    kE2[0] <= add_sub(se4[0], kq4, cq);
    kE2[1] <= add_sub(se4[1], kq4, cq);
    tA5 <= tA4[0];
    tR5 <= tR4;
    tS5 <= tS4;
    xA5 <= tA4[0] - tx(cA_off[4]);
    xR5 <= tR4 - tx(cR_off[4]);
    xS5 <= tS4 - tx(cS_off[4]);
    f_same1_pg5 <= f_same1_pg4;
    f_same2_pg5 <= f_same2_pg4;
    f_same3_pg5 <= f_same3_pg4;
    f_same4_pg5 <= f_same4_pg4;
    f_same1_q5 <= f_same1_q4;
    f_same2_q5 <= f_same2_q4;
    f_same3_q5 <= f_same3_q4;
    f_same4_q5 <= f_same4_q4;
    // pair k-5 is in C2 now (in the commit register at DEC1a), arrival bus enabled if admitted
    mA5_a <= adm9 && a_i[9] == a_i[4];
    mA5_r <= r_ok[9] && r_i[9] == a_i[4];
    mR5_a <= adm9 && a_i[9] == r_i[4];
    mR5_r <= r_ok[9] && r_i[9] == r_i[4];
    mS5_a <= adm9 && a_i[9] == sc[4];
    mS5_r <= r_ok[9] && r_i[9] == sc[4];
    nA5_a <= adm9 && a_j[9] == a_j[4];
    nA5_r <= r_ok[9] && r_j[9] == a_j[4];
    nR5_a <= adm9 && a_j[9] == r_j[4];
    nR5_r <= r_ok[9] && r_j[9] == r_j[4];
    // an arrival bus entry is never empty; a release bus entry says so itself
    emptyA5 <= pa4_a ? 1'b0 : pa4_r ? cm_pg_empty_reg : eA4_zero;
    emptyQ5 <= pq4_a ? 1'b0 : pq4_r ? cm_q_empty_reg : qA4_zero;
end

// the outputs: the stage 5 entries and the arrays' elements
assign eA5 = eA[5];
assign eR5 = eR[5];
assign eS5 = eS[5];
assign qA5 = qA[5];
assign qR5 = qR[5];
assign kP1_bus = {kP1[1], kP1[0]};
assign kP2_bus = {kP2[1], kP2[0]};
assign kT_bus = {kT[1], kT[0]};
assign kTQ_bus = {kTQ[1], kTQ[0]};
assign kE1_bus = {kE1[1], kE1[0]};
assign kE2_bus = {kE2[1], kE2[0]};
assign cA_ll6 = cA_ll[6];
assign cQ_ll6 = cQ_ll[6];
assign cA_xon5 = cA_xon[5];
assign cR_xon5 = cR_xon[5];
assign cS_xon5 = cS_xon[5];
assign wA11 = wA[11];
assign wQ11 = wQ[11];

endmodule

`resetall
