/*
 * mmu_core's configuration: the write port's decode (one 32-bit field per clock), the global
 * fields in registers, the per-PG and per-queue fields in RAM (one memory per field, read by
 * the arrival, the release, the PFC scan and the status port), and mmu_cfg_check, which tests
 * the scanned PG's and queue's fields and the globals against MmuConfig.validate().
 *
 * Interfaces: cfg_wr_* (mmu_core's write port; map in docs/mmu_core.md); the RAM read indices
 * before their input registers (mmu_core_carry: arrival, release, scan; status); out the
 * global fields, every field's read data (pgc_rd_bus / qc_rd_bus: field f's four ports at bus
 * slot f, 128 bits, port n at bits 32 n: PG A, R, scan, stat; queue A, stat, scan), the
 * configuration flags (0 with CFG_CHECK 0: mmu_cfg_check left out).
 *
 * Latency: a write at edge n is decoded at n+1 and in its register or RAM at n+2 (taking
 * effect for pairs accepted from n+1 on: the RAMs are read at E1); read data two clocks after
 * the index (RAM input and output registers); flags as mmu_cfg_check (scan data with sc[2]).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_cfg #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // bytes per buffer cell
    parameter CELL_BYTES = 256,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of the frame length in bytes
    parameter LEN_W = 14,
    // test only: 1 breaks the configuration checker's Xon rule (> for >=; negative test)
    parameter CFG_FAULT_INJECT = 0,
    // 0: headroom_policy is never written (stays 0, static): mmu_core HEADROOM_DSH
    parameter HEADROOM_DSH = 1,
    // 1: mmu_cfg_check; 0 leaves it out: cfg_flags and cfg_bad are 0 (and the queue memories'
    // scan ports, which only the checker reads, are unused): mmu_core CFG_CHECK
    parameter CFG_CHECK = 1,
    // derived, left at its default by mmu_core: the PG / queue index
    parameter IW = $clog2(PORT_COUNT) + 3
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * Configuration writes (mmu_core's port)
     */
    input  wire                 cfg_wr_valid,
    input  wire [15:0]          cfg_wr_addr,
    input  wire [31:0]          cfg_wr_data,

    /*
     * RAM read indices before their input registers, and the scan PG in stage 2 (its fields
     * on the scan ports then)
     */
    input  wire [IW-1:0]        a_i_in,
    input  wire [IW-1:0]        r_i_in,
    input  wire [IW-1:0]        a_j_in,
    input  wire [IW-1:0]        scan_cnt_reg,
    input  wire [IW-1:0]        st_idx_in,
    // (the scan PG and the port limits are the checker's: unused with CFG_CHECK 0)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                 scan_valid,
    input  wire [IW-1:0]        scan_idx,
    // every port's port_headroom (mmu_core_dsh; port p at bits p * CELL_W), for the checker
    input  wire [PORT_COUNT*CELL_W-1:0] plim_bus,
    /* verilator lint_on UNUSEDSIGNAL */

    /*
     * Global fields ({lossy, lossless} pools), per-PG and per-queue fields' read data
     */
    output reg  [CELL_W-1:0]    g_buffer_reg,
    output reg  [31:0]          g_max_frame_reg,
    output wire [2*CELL_W-1:0]  g_pool_bus,
    output reg  [CELL_W-1:0]    g_hdrm_pool_reg,
    output wire [2*CELL_W-1:0]  g_epool_bus,
    // headroom_policy: 1 dsh (mmu_core_dsh)
    output reg                  g_dsh_reg,
    output wire [8*128-1:0]     pgc_rd_bus,
    output wire [8*128-1:0]     qc_rd_bus,

    /*
     * Configuration flags (status 0x19) and their OR (err_bad_config)
     */
    output wire [8:0]           cfg_flags,
    output wire                 cfg_bad
);

localparam N = PORT_COUNT * 8;            // PGs, and queues
localparam W = CELL_W;

// ------------------------------------------------------------------------------ configuration
// global fields (registers); per-PG and per-queue fields live in RAM (one memory per field)
(* mem2reg *) reg [W-1:0]  g_pool_reg [0:1];      // ingress shared sizes, lossless / lossy
(* mem2reg *) reg [W-1:0]  g_epool_reg [0:1];     // egress shared sizes

// the write registered with its decoded enables: a global field, a PG field (8) or a queue
// field (5) of index cw_a[4 +: IW].  A write presented while rst is high is ignored: the
// decode is registered without rst and gated by cw_rst, rst registered here, so the same
// clock's rst masks it (cw_rst is the core's one local copy of rst on the write path: the
// decode does not wait on rst's net to every part of the core)
reg          cw_g_pre;
wire         cw_g;
reg          cw_rst;
(* keep *) always @(posedge clk) begin
    cw_rst <= rst;
end
// (the address bits above the index, and queue fields 5 to 7, are decoded into the enables)
/* verilator lint_off UNUSEDSIGNAL */
reg [15:0]   cw_a;
reg [7:0]    cw_pgf_pre, cw_qf_pre;
wire [7:0]   cw_pgf, cw_qf;
/* verilator lint_on UNUSEDSIGNAL */
assign cw_g = cw_g_pre && !cw_rst;
assign cw_pgf = cw_pgf_pre & {8{!cw_rst}};
assign cw_qf = cw_qf_pre & {8{!cw_rst}};
reg [31:0]   cw_d;
integer cf;
always @(posedge clk) begin
    cw_g_pre <= cfg_wr_valid && cfg_wr_addr[15:5] == 11'd1;
    for (cf = 0; cf < 8; cf = cf + 1) begin
        cw_pgf_pre[cf] <= cfg_wr_valid && cfg_wr_addr[15:13] == 3'd1 && cfg_wr_addr[3]
                          && cfg_wr_addr[2:0] == cf[2:0];
        cw_qf_pre[cf] <= cfg_wr_valid && cfg_wr_addr[15:13] == 3'd2 && cfg_wr_addr[3]
                         && cfg_wr_addr[2:0] == cf[2:0];
    end
    if (cw_g) begin
        case (cw_a[4:0])
            5'h00: g_buffer_reg <= cw_d[W-1:0];
            5'h01: g_max_frame_reg <= cw_d;
            5'h02: g_pool_reg[0] <= cw_d[W-1:0];
            5'h03: g_pool_reg[1] <= cw_d[W-1:0];
            5'h04: g_hdrm_pool_reg <= cw_d[W-1:0];
            5'h05: g_epool_reg[0] <= cw_d[W-1:0];
            5'h06: g_epool_reg[1] <= cw_d[W-1:0];
            5'h07: g_dsh_reg <= cw_d[0] && HEADROOM_DSH != 0;
            default: ;
        endcase
    end
end
`ifdef FORMAL
// (formal/mmu_core.sby: the decoded enables start at zero, as the flip-flops of an FPGA do,
// so that the first clock writes nothing the configuration shadow does not see)
initial begin
    cw_g_pre = 1'b0;
    cw_pgf_pre = 8'd0;
    cw_qf_pre = 8'd0;
    cw_rst = 1'b0;
end
`endif
// the configuration write's address and data (kept: it has copies)
(* keep *) always @(posedge clk) begin
    cw_a <= cfg_wr_addr;
    cw_d <= cfg_wr_data;
end

// per-PG configuration: field f (8..15) in memory pgc[f-8]; read ports A (0), R (1), scan (2),
// stat (3); fields read only by A and stat have their other ports unused (removed)
localparam [8*5-1:0] PGC_W = {5'd16, 5'd16, 5'd16, 5'd16, 5'd4, 5'd1, 5'd16, 5'd1};
wire [4*32-1:0] pgc_rd [0:7];
wire [4*32-1:0] qc_rd [0:7];
genvar f;
generate
for (f = 0; f < 8; f = f + 1) begin : pgc
    localparam integer FW = (PGC_W[f*5 +: 5] == 5'd16) ? W : {27'd0, PGC_W[f*5 +: 5]};
    wire [4*FW-1:0] rd;
    // the write's index and data in a copy per memory (kept: the fan-out of one register to
    // every memory was a critical path)
    reg [IW-1:0] widx;
    reg [FW-1:0] wdat;
    (* keep *) always @(posedge clk) begin
        widx <= cfg_wr_addr[4 +: IW];
        wdat <= cfg_wr_data[FW-1:0];
    end
    mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(FW), .WRITE_PORTS(1), .READ_PORTS(4),
                .OUT_REG(1))
    ram_inst (
        .clk(clk), .rst(1'b0),
        .wr_en(cw_pgf[f]), .wr_addr(widx), .wr_data(wdat),
        .rd_addr({st_idx_in, scan_cnt_reg, r_i_in, a_i_in}), .rd_data(rd)
    );
    assign pgc_rd[f] = {{(32-FW){1'b0}}, rd[3*FW +: FW], {(32-FW){1'b0}}, rd[2*FW +: FW],
                        {(32-FW){1'b0}}, rd[FW +: FW], {(32-FW){1'b0}}, rd[0 +: FW]};
end
for (f = 0; f < 5; f = f + 1) begin : qc
    localparam integer FW = (PGC_W[f*5 +: 5] == 5'd16) ? W : {27'd0, PGC_W[f*5 +: 5]};
    wire [3*FW-1:0] rd;
    reg [IW-1:0] widx;
    reg [FW-1:0] wdat;
    (* keep *) always @(posedge clk) begin
        widx <= cfg_wr_addr[4 +: IW];
        wdat <= cfg_wr_data[FW-1:0];
    end
    mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(FW), .WRITE_PORTS(1), .READ_PORTS(3),
                .OUT_REG(1))
    ram_inst (
        .clk(clk), .rst(1'b0),
        .wr_en(cw_qf[f]), .wr_addr(widx), .wr_data(wdat),
        .rd_addr({scan_cnt_reg, st_idx_in, a_j_in}), .rd_data(rd)
    );
    // read ports A (0), stat (1), scan (2: queue sc0, for mmu_cfg_check)
    assign qc_rd[f] = {32'd0, {(32-FW){1'b0}}, rd[2*FW +: FW], {(32-FW){1'b0}}, rd[FW +: FW],
                       {(32-FW){1'b0}}, rd[0 +: FW]};
end
for (f = 5; f < 8; f = f + 1) begin : qc_none
    assign qc_rd[f] = 128'd0;
end
endgenerate


integer gi;
initial begin
    g_dsh_reg = 1'b0;
    for (gi = 0; gi < 2; gi = gi + 1) begin
        g_pool_reg[gi] = 0;
        g_epool_reg[gi] = 0;
    end
end
// the outputs: the two-entry global fields and the read ports as buses
assign g_pool_bus = {g_pool_reg[1], g_pool_reg[0]};
assign g_epool_bus = {g_epool_reg[1], g_epool_reg[0]};
generate
for (f = 0; f < 8; f = f + 1) begin : rd_bus
    assign pgc_rd_bus[f*128 +: 128] = pgc_rd[f];
    assign qc_rd_bus[f*128 +: 128] = qc_rd[f];
end
endgenerate

// ------------------------------------------------------------------------------ config check
// the scan PG's and queue's configuration (RAM scan ports, data with sc[2]) against the
// rules of MmuConfig.validate(): flags at status 0x19, their OR at 0x0F bit 1 and
// err_bad_config (docs/mmu_core.md "Configuration flags"); CFG_CHECK 0: not built, the flags
// 0 (a build whose configuration was validated before it was built in: docs/regs.md)
generate
if (CFG_CHECK != 0) begin : g_check
mmu_cfg_check #(.PORT_COUNT(PORT_COUNT), .CELL_BYTES(CELL_BYTES), .CELL_W(CELL_W),
                .LEN_W(LEN_W), .FAULT_INJECT(CFG_FAULT_INJECT))
cfg_check_inst (
    .clk(clk), .rst(rst),
    .scan_valid(scan_valid), .scan_idx(scan_idx),
    .scan_pg_lossless(pgc_rd[0][64]), .scan_pg_reserved(pgc_rd[1][64 +: W]),
    .scan_pg_dynamic(pgc_rd[2][64]), .scan_pg_alpha_shift(pgc_rd[3][64 +: 4]),
    .scan_pg_static_th(pgc_rd[4][64 +: W]), .scan_pg_headroom(pgc_rd[5][64 +: W]),
    .scan_pg_xon(pgc_rd[6][64 +: W]),
    .scan_q_lossless(qc_rd[0][64]), .scan_q_reserved(qc_rd[1][64 +: W]),
    .scan_q_dynamic(qc_rd[2][64]), .scan_q_alpha_shift(qc_rd[3][64 +: 4]),
    .scan_q_static_th(qc_rd[4][64 +: W]),
    .cfg_buffer_cells(g_buffer_reg), .cfg_max_frame_bytes(g_max_frame_reg),
    .cfg_pool_shared_lossless(g_pool_reg[0]), .cfg_pool_shared_lossy(g_pool_reg[1]),
    .cfg_hdrm_pool(g_hdrm_pool_reg), .cfg_egress_shared_lossless(g_epool_reg[0]),
    .cfg_egress_shared_lossy(g_epool_reg[1]),
    .cfg_dsh(g_dsh_reg), .cfg_port_headroom(plim_bus),
    .cfg_flags(cfg_flags), .err_bad_config(cfg_bad)
);
end else begin : g_no_check
assign cfg_flags = 9'd0;
assign cfg_bad = 1'b0;
end
endgenerate

endmodule

`resetall
