/*
 * mmu_core's state RAMs: the per-PG state {class, res, shared, hdrm} and the per-queue state
 * {class, res, shared} (the counters, written by the commit register), and the per-PG / per-queue
 * watermarks (written by EVAL's watermark write register), each an mmu_mpram; with the write
 * decode's own copies of the C2 pair's enables and indices.
 *
 * Interfaces: the RAM read indices before their input registers (arrival PG / queue, release
 * PG / queue, scan, status; mmu_core_carry); the C2 pair's decision, release and indices
 * (stage 8 fields, mmu_core_decide / _carry) and the commit register (mmu_core_commit) for the
 * state RAMs' writes; the arrival's PG / queue in EVAL1 (stage 11 fields), its write enables
 * and the watermark write register (mmu_core_eval) for the watermark RAMs' writes; out the
 * read data of every port (to mmu_core_view, and its stat ports to mmu_core_status).
 *
 * Latency: the RAMs are read at E1 (data at E2, OUT_REG 1); the state RAMs are written a clock
 * after the commit register (E11), their enables and indices given a clock early (WR_EARLY:
 * the copies below, registered at E9 from the pair then in C2); the watermark RAMs likewise,
 * enable and index from the pair in EVAL1, data the write register a clock later.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_state #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // 1: the per-PG / per-queue watermark RAMs; 0: not built, pgw_rd and qw_rd are 0
    // (mmu_core WATERMARKS)
    parameter WATERMARKS = 1,
    // derived, given by mmu_core_view: the PG / queue index; the PG entry {class, res, shared,
    // hdrm} and the queue entry {class, res, shared}; the watermark entries: PG {res_wm,
    // shared_wm, hdrm_wm}, queue {wm}
    parameter IW = $clog2(PORT_COUNT) + 3,
    parameter PGE_W = 3 * CELL_W + 1,
    parameter QE_W = 2 * CELL_W + 1,
    parameter PGW_W = 3 * CELL_W,
    parameter QW_W = CELL_W + 1
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * The RAM read indices before their input registers (mmu_core_carry): arrival PG /
     * queue, release PG / queue, status, scan
     */
    input  wire [IW-1:0]        a_i_in,
    input  wire [IW-1:0]        a_j_in,
    input  wire [IW-1:0]        r_i_in,
    input  wire [IW-1:0]        r_j_in,
    input  wire [IW-1:0]        st_idx_in,
    input  wire [IW-1:0]        scan_cnt_reg,

    /*
     * State RAM writes: the pair that enters C2 (its admit, its release, stage 8 indices) and
     * the commit register (release bus 0, arrival bus 1)
     */
    input  wire                 dec_admit_reg,
    input  wire                 r_ok8,
    input  wire [IW-1:0]        a_i8,
    input  wire [IW-1:0]        r_i8,
    input  wire [IW-1:0]        a_j8,
    input  wire [IW-1:0]        r_j8,
    input  wire [2*PGE_W-1:0]   cm_pg_val_reg,
    input  wire [2*QE_W-1:0]    cm_q_val_reg,

    /*
     * Watermark RAM writes: the arrival in EVAL1 (its write enables, stage 11 indices) and
     * the watermark write register (mmu_core_eval)
     */
    input  wire [1:0]           adm11_wr,
    input  wire [IW-1:0]        a_i11,
    input  wire [IW-1:0]        a_j11,
    input  wire [PGW_W-1:0]     wm_pg_reg,
    input  wire [QW_W-1:0]      wm_q_reg,

    /*
     * Read data: PG state (read ports A, R, scan, stat), queue state (A, R, stat), PG and
     * queue watermarks (A, stat)
     */
    output wire [4*PGE_W-1:0]   pgs_rd,
    output wire [3*QE_W-1:0]    qs_rd,
    output wire [2*PGW_W-1:0]   pgw_rd,
    output wire [2*QW_W-1:0]    qw_rd
);

localparam N = PORT_COUNT * 8;            // PGs, and queues

// PG state {class, res, shared, hdrm}: write ports release (0) / arrival (1) from the commit
// registers (one clock after the commit; the enables and indices given a clock early, as the
// commit register's inputs, WR_EARLY), read ports A, R, scan, stat
// the C2 pair's enables and indices in a copy for each state RAM's write decode (kept apart:
// the C2 pair's registers fan out to every stage)
// (stored inverted: not merged with the C2 pair's own registers)
reg [1:0]    sw_pg_en_n, sw_q_en_n;
reg [2*IW-1:0] sw_pg_idx_n, sw_q_idx_n;
(* keep *) always @(posedge clk) begin
    sw_pg_en_n <= ~(rst ? 2'b00 : {dec_admit_reg, r_ok8});
    sw_q_en_n <= ~(rst ? 2'b00 : {dec_admit_reg, r_ok8});
    sw_pg_idx_n <= ~{a_i8, r_i8};
    sw_q_idx_n <= ~{a_j8, r_j8};
end
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(PGE_W), .WRITE_PORTS(2), .READ_PORTS(4),
            .OUT_REG(1), .WR_EARLY(1))
pg_state_inst (
    .clk(clk), .rst(rst),
    .wr_en(~sw_pg_en_n), .wr_addr(~sw_pg_idx_n), .wr_data(cm_pg_val_reg),
    .rd_addr({st_idx_in, scan_cnt_reg, r_i_in, a_i_in}), .rd_data(pgs_rd)
);
// queue state {class, res, shared}: read ports A, R, stat
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(QE_W), .WRITE_PORTS(2), .READ_PORTS(3),
            .OUT_REG(1), .WR_EARLY(1))
q_state_inst (
    .clk(clk), .rst(rst),
    .wr_en(~sw_q_en_n), .wr_addr(~sw_q_idx_n), .wr_data(cm_q_val_reg),
    .rd_addr({st_idx_in, r_j_in, a_j_in}), .rd_data(qs_rd)
);
// watermarks: PG {res_wm, shared_wm, hdrm_wm}, queue {wm (W+1 bits)}; written by EVAL (the
// arrival's PG and queue; the enable and index given a clock early, as the write register's
// inputs, WR_EARLY), read ports A, stat
// (WATERMARKS 0: the RAMs' data unused, so not built; the watermarks then read 0 and
// mmu_core_eval's watermark registers stay 0, so mmu_core_view's wA / wQ are constant 0)
wire [2*PGW_W-1:0] pgw_rd_ram;
wire [2*QW_W-1:0]  qw_rd_ram;
assign pgw_rd = WATERMARKS != 0 ? pgw_rd_ram : {2*PGW_W{1'b0}};
assign qw_rd = WATERMARKS != 0 ? qw_rd_ram : {2*QW_W{1'b0}};
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(PGW_W), .WRITE_PORTS(1), .READ_PORTS(2),
            .OUT_REG(1), .WR_EARLY(1))
pg_wm_inst (
    .clk(clk), .rst(rst),
    .wr_en(adm11_wr[0]), .wr_addr(a_i11), .wr_data(wm_pg_reg),
    .rd_addr({st_idx_in, a_i_in}), .rd_data(pgw_rd_ram)
);
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(QW_W), .WRITE_PORTS(1), .READ_PORTS(2),
            .OUT_REG(1), .WR_EARLY(1))
q_wm_inst (
    .clk(clk), .rst(rst),
    .wr_en(adm11_wr[1]), .wr_addr(a_j11), .wr_data(wm_q_reg),
    .rd_addr({st_idx_in, a_j_in}), .rd_data(qw_rd_ram)
);

endmodule

`resetall
