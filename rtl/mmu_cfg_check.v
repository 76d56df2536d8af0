/*
 * Configuration checker of the line-rate admission core (mmu_core): one flag per rule of
 * models/config.py MmuConfig.validate() that the core's registers can break, recomputed on
 * every full scan of the per-PG and per-queue configuration.  The core computes exactly what
 * the model computes with the configured values whatever the flags say: a flag tells
 * software, nothing is clamped (docs/mmu_core.md "Configuration flags").
 *
 * Job: mmu_core reads the configuration of PG (and queue) scan_idx on every clock through a
 * read port of each configuration RAM, the indices 0 .. N-1 in turn (N = PORT_COUNT * 8).
 * Each scanned entry is checked on its own (alpha, lossy headroom, Xon against the Xoff point,
 * under dsh the queue-level one, T - headroom; a zero shared segment it needs) and its
 * reserved and headroom cells are summed (the headroom a configuration reserves: the lossless
 * PGs' under the static policy, under dsh each port's port_headroom, added at the port's first
 * PG, entry p * 8); when entry N-1 has been checked the sums are compared with the global
 * registers and the flag word is replaced by the result of that scan.  A scan cut short by
 * rst is never published.
 *
 * Interfaces: scan_* (index, valid, the entry's fields as the RAMs hold them), cfg_* (the
 * global configuration registers, the policy and every port's port_headroom), cfg_flags (the
 * word of the last full scan; FLAG_* below)
 * and err_bad_config (any flag), both registers.
 *
 * Latency: the flags of a scan are registered 7 clocks after its last entry is presented
 * (stages S1 .. S7); a configuration change shows in the flags within two scans (2 N clocks)
 * plus that, and so does its repair: 2 N + 10 clocks from the write (the shared segments'
 * alpha multiples and zero tests are registered: a clock more; docs/mmu_core.md;
 * models.mmu_pipe.cfg_flags_latency(), what the benches wait).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_cfg_check #(
    // number of ports (PGs and queues: PORT_COUNT * 8 of each)
    parameter PORT_COUNT = 4,
    // bytes per buffer cell
    parameter CELL_BYTES = 256,
    // width of every cell-valued configuration field
    parameter CELL_W = 16,
    // width of the frame length field of the requests
    parameter LEN_W = 14,
    // test only: 1 checks Xon against the Xoff point with > instead of >= (negative test)
    parameter FAULT_INJECT = 0
) (
    input  wire                              clk,
    input  wire                              rst,

    /*
     * Scanned entry: PG scan_idx and queue scan_idx, one per clock, indices in order
     */
    input  wire                              scan_valid,
    input  wire [$clog2(PORT_COUNT)+2:0]     scan_idx,
    input  wire                              scan_pg_lossless,
    input  wire [CELL_W-1:0]                 scan_pg_reserved,
    input  wire                              scan_pg_dynamic,
    input  wire [3:0]                        scan_pg_alpha_shift,
    input  wire [CELL_W-1:0]                 scan_pg_static_th,
    input  wire [CELL_W-1:0]                 scan_pg_headroom,
    input  wire [CELL_W-1:0]                 scan_pg_xon,
    input  wire                              scan_q_lossless,
    input  wire [CELL_W-1:0]                 scan_q_reserved,
    input  wire                              scan_q_dynamic,
    input  wire [3:0]                        scan_q_alpha_shift,
    input  wire [CELL_W-1:0]                 scan_q_static_th,

    /*
     * Global configuration (the core's registers: shared segment sizes, not whole pools)
     */
    input  wire [CELL_W-1:0]                 cfg_buffer_cells,
    input  wire [31:0]                       cfg_max_frame_bytes,
    input  wire [CELL_W-1:0]                 cfg_pool_shared_lossless,
    input  wire [CELL_W-1:0]                 cfg_pool_shared_lossy,
    input  wire [CELL_W-1:0]                 cfg_hdrm_pool,
    input  wire [CELL_W-1:0]                 cfg_egress_shared_lossless,
    input  wire [CELL_W-1:0]                 cfg_egress_shared_lossy,
    // headroom_policy dsh, and every port's port_headroom (port p at bits p * CELL_W)
    input  wire                              cfg_dsh,
    input  wire [PORT_COUNT*CELL_W-1:0]      cfg_port_headroom,

    /*
     * Flags
     */
    output wire [8:0]                        cfg_flags,
    output wire                              err_bad_config
);

localparam IW = $clog2(PORT_COUNT) + 3;
localparam W = CELL_W;
// the Xoff point of a dynamic PG: the shared segment times alpha up to 2^7
localparam XP_W = W + 8;
// a sum of N cell fields and a few registers
localparam SUM_W = W + IW + 2;

// flag bits (models.mmu_pipe.CFG_FLAG_NAMES)
localparam FLAG_PG_ALPHA = 0;        // a PG's alpha_shift outside -7..3
localparam FLAG_Q_ALPHA = 1;         // a queue's alpha_shift outside -7..3
localparam FLAG_LOSSY_HEADROOM = 2;  // a lossy PG with headroom
localparam FLAG_XON = 3;             // a lossless PG's xon at or above its Xoff point
localparam FLAG_ZERO_POOL = 4;       // a PG / queue that can use shared, its segment 0
localparam FLAG_INGRESS = 5;         // ingress pools (shared + reserved + headroom) > buffer
localparam FLAG_EGRESS = 6;          // an egress pool (shared + reserved) > buffer
localparam FLAG_MAX_FRAME = 7;       // max_frame_bytes < 64, >= 2^LEN_W or > the buffer
localparam FLAG_BUFFER = 8;          // buffer_cells 0

localparam [63:0] CELL_BYTES64 = CELL_BYTES;
// (the last of the PORT_COUNT * 8 entries: 2^IW of them, PORT_COUNT is a power of two)
localparam [IW-1:0] LAST_IDX = {IW{1'b1}};

initial begin
    if (PORT_COUNT < 2 || (1 << $clog2(PORT_COUNT)) != PORT_COUNT || CELL_W < 4
            || CELL_W > 22 || LEN_W < 2 || LEN_W > 31) begin
        $error("Error: mmu_cfg_check parameters out of range (instance %m)");
        $finish;
    end
end

// 4-bit two's complement alpha_shift: 4..7 and -8 are outside -7..3
function alpha_bad;
    input [3:0] a;
    begin
        alpha_bad = (!a[3] && a[2]) || a == 4'b1000;
    end
endfunction

// alpha * v by shifts (models.config._shift): left by n >= 0, right by -n (1..8)
function [XP_W-1:0] alpha_times;
    input [W-1:0] v;
    input [3:0] a;
    reg [3:0] d;
    begin
        d = ~a + 4'd1;
        if (!a[3]) begin
            alpha_times = {8'd0, v} << a[2:0];
        end else begin
            alpha_times = {8'd0, v} >> d;
        end
    end
endfunction

function [SUM_W-1:0] zs;
    input [W-1:0] v;
    begin
        zs = {{(SUM_W-W){1'b0}}, v};
    end
endfunction

// ------------------------------------------------------------------------------ S1: inputs
// the lossless shared segment times each of the 16 alpha codes, and whether that is 0, and
// whether each shared segment is 0, registered: S2 selects by the entry's alpha and class
// (the segments are configuration registers; this register is one clock of the latency)
(* mem2reg *) reg [XP_W-1:0] pool_x_reg [0:15];
reg [15:0]   pool_x0_reg;
// the four shared segments are 0 (ingress lossless, lossy, egress lossless, lossy)
reg [3:0]    pool_zero_reg;
reg          hdrm_pool_nz_reg;      // a shared headroom pool is set (counted under static)
reg          dsh_reg;               // headroom_policy dsh: the ports' headroom is counted
integer ax;
always @(posedge clk) begin
    hdrm_pool_nz_reg <= cfg_hdrm_pool != 0 && !cfg_dsh;
    dsh_reg <= cfg_dsh;
    pool_zero_reg <= {cfg_egress_shared_lossy == 0, cfg_egress_shared_lossless == 0,
                      cfg_pool_shared_lossy == 0, cfg_pool_shared_lossless == 0};
    for (ax = 0; ax < 16; ax = ax + 1) begin
        pool_x_reg[ax] <= alpha_times(cfg_pool_shared_lossless, ax[3:0]);
        pool_x0_reg[ax] <= alpha_times(cfg_pool_shared_lossless, ax[3:0]) == 0;
    end
end

reg          v1_reg, first1_reg, last1_reg;
reg          pg_ll1_reg, pg_dyn1_reg, q_ll1_reg, q_dyn1_reg;
reg [3:0]    pg_al1_reg, q_al1_reg;
reg [W-1:0]  pg_res1_reg, pg_st1_reg, pg_hl1_reg, pg_xon1_reg, q_res1_reg;
reg          pg_stnz1_reg, q_stnz1_reg;
// the port_headroom of the scanned entry's port at its first PG (entry p * 8), else 0
reg [W-1:0]  ph1_reg;
wire [W-1:0] port_hl [0:PORT_COUNT-1];
genvar php;
generate
for (php = 0; php < PORT_COUNT; php = php + 1) begin : g_port_hl
    assign port_hl[php] = cfg_port_headroom[php*W +: W];
end
endgenerate

always @(posedge clk) begin
    v1_reg <= scan_valid;
    ph1_reg <= scan_idx[2:0] == 3'd0 ? port_hl[scan_idx[IW-1:3]] : {W{1'b0}};
    first1_reg <= scan_idx == {IW{1'b0}};
    last1_reg <= scan_idx == LAST_IDX;
    pg_ll1_reg <= scan_pg_lossless;
    pg_res1_reg <= scan_pg_reserved;
    pg_dyn1_reg <= scan_pg_dynamic;
    pg_al1_reg <= scan_pg_alpha_shift;
    pg_st1_reg <= scan_pg_static_th;
    pg_stnz1_reg <= scan_pg_static_th != 0;
    pg_hl1_reg <= scan_pg_headroom;
    pg_xon1_reg <= scan_pg_xon;
    q_ll1_reg <= scan_q_lossless;
    q_res1_reg <= scan_q_reserved;
    q_dyn1_reg <= scan_q_dynamic;
    q_al1_reg <= scan_q_alpha_shift;
    q_stnz1_reg <= scan_q_static_th != 0;
    if (rst) begin
        v1_reg <= 1'b0;
    end
end

// ------------------------------------------------------------------------------ S2: entry
// the entry's own rules, its Xoff point (max(point, 1): the Xon rule's bound), its parts of
// the sums
reg          v2_reg, first2_reg, last2_reg;
// the entry's own flags: bits 0 .. 4 of the word
reg [4:0]    eflags2_reg;
wire [4:0]   eflags1;
reg          xon_chk2_reg;
reg [W:0]    xon2_reg;           // xon, under dsh xon + headroom
reg          xon_nz2_reg;        // xon != 0
reg [XP_W-1:0] xoff_pt2_reg;
reg          xoff_pt0_2_reg;     // static: the point is 0 (the bound is then 1)
reg          dsh2_reg;
reg [W-1:0]  hl2_reg;            // the PG's headroom (dsh: X <= 0 when the point is below it)
reg [W-1:0]  res2_reg, hdrm2_reg, qres_ll2_reg, qres_ly2_reg;

// (the alpha select in a copy per byte of the point: kept apart, one register drove the
// 16-way select of every bit)
localparam NB = (XP_W + 7) / 8;
wire [XP_W-1:0] pool_x1;
genvar pb8;
generate
for (pb8 = 0; pb8 < NB; pb8 = pb8 + 1) begin : g_al
    localparam LO = pb8 * 8;
    localparam NBITS = (XP_W - LO) < 8 ? (XP_W - LO) : 8;
    reg [3:0] al;
    (* keep *) always @(posedge clk) begin
        al <= scan_pg_alpha_shift;
    end
    /* verilator lint_off UNUSEDSIGNAL */
    wire [XP_W-1:0] px = pool_x_reg[al];
    /* verilator lint_on UNUSEDSIGNAL */
    assign pool_x1[LO +: NBITS] = px[LO +: NBITS];
end
endgenerate
reg [3:0]    pg_al_z;
(* keep *) always @(posedge clk) begin
    pg_al_z <= scan_pg_alpha_shift;
end
wire [XP_W-1:0] xoff_pt1 = pg_dyn1_reg ? pool_x1 : {8'd0, pg_st1_reg};
wire xoff_pt0_1 = pg_dyn1_reg ? pool_x0_reg[pg_al_z] : !pg_stnz1_reg;
// dsh: the xon rule is against the queue-level Xoff point X = T - headroom (validate()'s),
// checked as xon + headroom >= T (S3); X <= 0 when the point is at or below the PG's
// headroom (the bound is then 1), compared at S3 too

// a PG or queue whose threshold can be above zero draws on its class's shared segment
wire pg_needs_pool1 = pg_dyn1_reg || pg_stnz1_reg;
wire q_needs_pool1 = q_dyn1_reg || q_stnz1_reg;
wire pg_pool_zero1 = pg_ll1_reg ? pool_zero_reg[0] : pool_zero_reg[1];
wire q_pool_zero1 = q_ll1_reg ? pool_zero_reg[2] : pool_zero_reg[3];
assign eflags1[FLAG_PG_ALPHA] = alpha_bad(pg_al1_reg);
assign eflags1[FLAG_Q_ALPHA] = alpha_bad(q_al1_reg);
assign eflags1[FLAG_LOSSY_HEADROOM] = !pg_ll1_reg && pg_hl1_reg != 0;
assign eflags1[FLAG_XON] = 1'b0;               // S3, against the registered point
assign eflags1[FLAG_ZERO_POOL] = (pg_needs_pool1 && pg_pool_zero1)
                                 || (q_needs_pool1 && q_pool_zero1);

always @(posedge clk) begin
    v2_reg <= v1_reg;
    first2_reg <= first1_reg;
    last2_reg <= last1_reg;
    eflags2_reg <= eflags1;
    xon_chk2_reg <= pg_ll1_reg;
    xon2_reg <= {1'b0, pg_xon1_reg} + (dsh_reg ? {1'b0, pg_hl1_reg} : {(W+1){1'b0}});
    xon_nz2_reg <= pg_xon1_reg != 0;
    xoff_pt2_reg <= xoff_pt1;
    xoff_pt0_2_reg <= xoff_pt0_1;
    dsh2_reg <= dsh_reg;
    hl2_reg <= pg_hl1_reg;
    res2_reg <= pg_res1_reg;
    // the headroom reserved: under dsh the ports' (a PG's headroom is its eta_q, taken from
    // the shared segment), under static the lossless PGs'
    hdrm2_reg <= dsh_reg ? ph1_reg : pg_ll1_reg ? pg_hl1_reg : {W{1'b0}};
    qres_ll2_reg <= q_ll1_reg ? q_res1_reg : {W{1'b0}};
    qres_ly2_reg <= q_ll1_reg ? {W{1'b0}} : q_res1_reg;
    if (rst) begin
        v2_reg <= 1'b0;
    end
end

// ------------------------------------------------------------------------------ S3: scan
// the entry's flags ORed and its cells summed over the scan (restarted at entry 0)
// xon >= max(point, 1) (the fault build: >), with the point's zero case apart; under dsh the
// point is X = T - headroom: xon + headroom >= T, and X <= 0 when T <= headroom
wire pt_le_hl2 = xoff_pt2_reg <= {{(XP_W-W){1'b0}}, hl2_reg};
wire pt0_2 = dsh2_reg ? pt_le_hl2 : xoff_pt0_2_reg;
wire xon_gt1_2 = xon_nz2_reg && (dsh2_reg ? xon2_reg != {1'b0, hl2_reg} + 1'b1
                                          : xon2_reg != {{W{1'b0}}, 1'b1});
wire xon_ge2 = pt0_2 ? (FAULT_INJECT != 0 ? xon_gt1_2 : xon_nz2_reg)
               : (FAULT_INJECT != 0 ? {{(XP_W-W-1){1'b0}}, xon2_reg} > xoff_pt2_reg
                                    : {{(XP_W-W-1){1'b0}}, xon2_reg} >= xoff_pt2_reg);
wire xon_bad2 = xon_chk2_reg && xon_ge2;
wire [4:0] eflags2 = eflags2_reg | (xon_bad2 ? (5'd1 << FLAG_XON) : 5'd0);

reg [4:0]       acc_flags_reg;
reg [SUM_W-1:0] acc_res_reg, acc_hdrm_reg, acc_qll_reg, acc_qly_reg;
reg             done3_reg;

always @(posedge clk) begin
    done3_reg <= v2_reg && last2_reg;
    if (v2_reg) begin
        if (first2_reg) begin
            acc_flags_reg <= eflags2;
            acc_res_reg <= zs(res2_reg);
            acc_hdrm_reg <= zs(hdrm2_reg);
            acc_qll_reg <= zs(qres_ll2_reg);
            acc_qly_reg <= zs(qres_ly2_reg);
        end else begin
            acc_flags_reg <= acc_flags_reg | eflags2;
            acc_res_reg <= acc_res_reg + zs(res2_reg);
            acc_hdrm_reg <= acc_hdrm_reg + zs(hdrm2_reg);
            acc_qll_reg <= acc_qll_reg + zs(qres_ll2_reg);
            acc_qly_reg <= acc_qly_reg + zs(qres_ly2_reg);
        end
    end
    if (rst) begin
        done3_reg <= 1'b0;
    end
end

// ------------------------------------------------------------------------------ S4 .. S7
// the whole pools against the buffer (the model's ingress_lossless_pool + ingress_lossy_pool
// = both shared segments + every PG's reserved + the headroom: under dsh the ports'
// port_headroom, under static the shared headroom pool if it is set, else the lossless PGs'
// headroom), the maximum frame: sums at S4 and S5, each compare
// in a register of its own at S5 and S6, the word published at S7
reg             done4_reg, done5_reg, done6_reg;
reg [4:0]       sflags4_reg, sflags5_reg;
reg [SUM_W-1:0] ing_a4_reg, ing_b4_reg, eg0_4_reg, eg1_4_reg, ing5_reg;
reg [63:0]      buf_bytes4_reg;
reg             eg0_over5_reg, eg1_over5_reg, mf_range5_reg, mf_big5_reg, buf_zero5_reg;
reg [8:0]       flags6_reg;
reg [8:0]       flags_reg;
reg             err_reg;

always @(posedge clk) begin
    done4_reg <= done3_reg;
    sflags4_reg <= acc_flags_reg;
    ing_a4_reg <= acc_res_reg + (hdrm_pool_nz_reg ? zs(cfg_hdrm_pool) : acc_hdrm_reg);
    ing_b4_reg <= zs(cfg_pool_shared_lossless) + zs(cfg_pool_shared_lossy);
    eg0_4_reg <= acc_qll_reg + zs(cfg_egress_shared_lossless);
    eg1_4_reg <= acc_qly_reg + zs(cfg_egress_shared_lossy);
    buf_bytes4_reg <= {{(64-W){1'b0}}, cfg_buffer_cells} * CELL_BYTES64;

    done5_reg <= done4_reg;
    sflags5_reg <= sflags4_reg;
    ing5_reg <= ing_a4_reg + ing_b4_reg;
    eg0_over5_reg <= eg0_4_reg > zs(cfg_buffer_cells);
    eg1_over5_reg <= eg1_4_reg > zs(cfg_buffer_cells);
    mf_range5_reg <= cfg_max_frame_bytes < 32'd64 || (cfg_max_frame_bytes >> LEN_W) != 0;
    mf_big5_reg <= {32'd0, cfg_max_frame_bytes} > buf_bytes4_reg;
    buf_zero5_reg <= cfg_buffer_cells == 0;

    done6_reg <= done5_reg;
    flags6_reg[4:0] <= sflags5_reg;
    flags6_reg[FLAG_INGRESS] <= ing5_reg > zs(cfg_buffer_cells);
    flags6_reg[FLAG_EGRESS] <= eg0_over5_reg || eg1_over5_reg;
    flags6_reg[FLAG_MAX_FRAME] <= mf_range5_reg || mf_big5_reg;
    flags6_reg[FLAG_BUFFER] <= buf_zero5_reg;

    if (done6_reg) begin
        flags_reg <= flags6_reg;
        err_reg <= flags6_reg != 9'd0;
    end
    if (rst) begin
        done4_reg <= 1'b0;
        done5_reg <= 1'b0;
        done6_reg <= 1'b0;
        flags_reg <= 9'd0;
        err_reg <= 1'b0;
    end
end

assign cfg_flags = flags_reg;
assign err_bad_config = err_reg;

endmodule

`resetall
