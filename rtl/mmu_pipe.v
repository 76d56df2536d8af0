/*
 * Line-rate admission core: ingress (port, PG) and egress (port, queue) cell accounting,
 * Dynamic Threshold and PFC Xoff / Xon, one arrival and one release accepted every clock with
 * no stall, counters and configuration in RAM.  Bit-exact with models/mmu_pipe.py
 * (PipelinedMmu, T_LAG = 5): docs/mmu_core.md "Line-rate core" has the stage table.
 *
 * Stages (pair k = the release and arrival accepted at rising edge E0):
 *
 *   E0      input registers
 *   E0-E1   index and length checks, (len - 1) * reciprocal, RAM addresses (read at E1)
 *   E1-E2   cells; RAM read (output registers at E2)
 *   E2-E3   merge the RAM data with the commits of pairs k-7 .. k-5; T step 1 (size - pool)
 *   E3-E4   merge k-4; T step 2 (alpha shift, saturate); in-flight charge of pair k-1
 *   E4-E5   merge k-3; decision constants (every limit minus the in-flight charge)
 *   E5-E6   DEC: merge k-2, decide the arrival (response from E6)
 *   E6-E7   COMMIT: merge k-1, release then arrival on the exact counters (written at E8)
 *   E7-E8   EVAL: PFC state of the release's PG, the arrival's PG and the scan PG (pfc_xoff
 *           from E8)
 *
 * The decision sees the counters committed after pair k-2 and charges the arrival of pair k-1
 * in full (VIEW_LAG 2); T comes from the pools as committed after pair k-5 (registered at E2):
 * T_LAG = 5.  Response latency 6 clocks, pfc_xoff 8 clocks after the request's edge.
 *
 * Configuration and status: cfg_wr_* writes one 32-bit field per clock (takes effect for
 * pairs accepted from the next clock on), stat_addr reads any field, counter or watermark
 * (stat_data 3 clocks after stat_addr).  Map: docs/mmu_core.md, tb/mmu_pipe/regmap.py.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_pipe #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // bytes per buffer cell
    parameter CELL_BYTES = 256,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of the frame length in bytes
    parameter LEN_W = 14,
    // width of the request tag
    parameter TAG_W = 8,
    // width of port index fields (carries out-of-range values)
    parameter PORT_W = 8,
    // width of the PG and queue index fields
    parameter PG_W = 4,
    parameter Q_W = 4,
    // test only: 1 turns the "shared below T" check into "at or below T" (negative test)
    parameter FAULT_INJECT = 0
) (
    input  wire                              clk,
    input  wire                              rst,

    /*
     * Arrival requests (one per clock, ready is constant 1)
     */
    input  wire                              s_req_valid,
    output wire                              s_req_ready,
    input  wire [PORT_W-1:0]                 s_req_port,
    input  wire [PG_W-1:0]                   s_req_pg,
    input  wire [PORT_W-1:0]                 s_req_eport,
    input  wire [Q_W-1:0]                    s_req_queue,
    input  wire [LEN_W-1:0]                  s_req_len,
    input  wire [TAG_W-1:0]                  s_req_tag,

    /*
     * Admission responses (6 clocks after the request, in order, no back-pressure)
     */
    output wire                              m_resp_valid,
    output wire                              m_resp_admit,
    output wire [2:0]                        m_resp_reason,
    output wire [CELL_W-1:0]                 m_resp_cells,
    output wire [CELL_W-1:0]                 m_resp_res,
    output wire [CELL_W-1:0]                 m_resp_shared,
    output wire [CELL_W-1:0]                 m_resp_hdrm,
    output wire [CELL_W-1:0]                 m_resp_eres,
    output wire [CELL_W-1:0]                 m_resp_eshared,
    output wire [TAG_W-1:0]                  m_resp_tag,

    /*
     * Releases (one per clock, ready is constant 1)
     */
    input  wire                              s_rel_valid,
    output wire                              s_rel_ready,
    input  wire [PORT_W-1:0]                 s_rel_port,
    input  wire [PG_W-1:0]                   s_rel_pg,
    input  wire [PORT_W-1:0]                 s_rel_eport,
    input  wire [Q_W-1:0]                    s_rel_queue,
    input  wire [CELL_W-1:0]                 s_rel_cells,

    /*
     * PFC
     */
    output wire [PORT_COUNT*8-1:0]           pfc_xoff,
    output wire [PORT_COUNT*8-1:0]           pfc_change,

    /*
     * Configuration writes and status reads (docs/mmu_core.md)
     */
    input  wire                              cfg_wr_valid,
    input  wire [15:0]                       cfg_wr_addr,
    input  wire [31:0]                       cfg_wr_data,
    input  wire [15:0]                       stat_addr,
    output wire [31:0]                       stat_data,
    output wire                              err_release_underflow
);

localparam N = PORT_COUNT * 8;            // PGs, and queues
localparam PI_W = $clog2(PORT_COUNT);
localparam IW = PI_W + 3;                 // PG / queue index
localparam W = CELL_W;
localparam SW = CELL_W + 3;               // signed decision constants
localparam TSH = CELL_W + 10;             // T before saturation

// cells = floor((len - 1) * RECIP_MUL / 2^RECIP_SHIFT) + 1 = ceil(len / CELL_BYTES), exact for
// 1 <= len < 2^LEN_W (docs/mmu_core.md)
localparam CB_W = $clog2(CELL_BYTES) > 0 ? $clog2(CELL_BYTES) : 1;
localparam RECIP_SHIFT = LEN_W + CB_W;
function [63:0] recip_mul_f;
    input integer c;
    input integer s;
    reg [63:0] c64;
    begin
        c64 = {32'd0, c};
        recip_mul_f = ((64'd1 << s) + c64 - 64'd1) / c64;
    end
endfunction
localparam [63:0] RECIP_MUL64 = recip_mul_f(CELL_BYTES, RECIP_SHIFT);
localparam RM_W = LEN_W + 2;
localparam [RM_W-1:0] RECIP_MUL = RECIP_MUL64[RM_W-1:0];
localparam PROD_W = RECIP_SHIFT + LEN_W;

localparam [2:0] REASON_NONE = 3'd0, REASON_BAD_LEN = 3'd1, REASON_BAD_INDEX = 3'd2,
                 REASON_BUFFER_FULL = 3'd3, REASON_INGRESS_LOSSY = 3'd4,
                 REASON_HEADROOM_FULL = 3'd5, REASON_EGRESS = 3'd6;

initial begin
    if (PORT_COUNT < 2 || PORT_COUNT > 64 || (1 << PI_W) != PORT_COUNT) begin
        $error("Error: PORT_COUNT must be a power of two, 2..64 (instance %m)");
        $finish;
    end
    if ((1 << PORT_W) <= PORT_COUNT || PG_W < 3 || Q_W < 3 || CELL_W < 4 || CELL_W > 22
            || LEN_W < 2 || LEN_W > 24) begin
        $error("Error: field widths out of range (instance %m)");
        $finish;
    end
    if (((1 << LEN_W) - 2) / CELL_BYTES + 1 >= (1 << CELL_W)) begin
        $error("Error: the cells of the longest frame do not fit CELL_W (instance %m)");
        $finish;
    end
end

// ------------------------------------------------------------------------------ helpers
function signed [SW-1:0] sx;  // a cell count as a signed decision value
    input [W-1:0] v;
    begin
        sx = $signed({{(SW-W){1'b0}}, v});
    end
endfunction

// alpha * v, alpha = 2^n, n 4-bit two's complement (Python >> rounding), then saturated to
// [-1, 2^(W+1)]: every compare against a cell count (< 2^(W+1) with the in-flight charge)
// gives the same answer as against the exact T
function signed [SW-1:0] threshold;
    input dynamic;
    input [3:0] alpha;
    input [W-1:0] static_th;
    input signed [W+1:0] free;  // pool shared size - pool used
    reg signed [TSH-1:0] v;
    reg signed [TSH-1:0] t;
    begin
        v = {{(TSH-W-2){free[W+1]}}, free};
        if (!alpha[3]) begin
            t = v <<< alpha[2:0];
        end else begin
            t = v >>> (~alpha + 4'd1);
        end
        if (!dynamic) begin
            threshold = sx(static_th);
        end else if (t < 0) begin
            threshold = -1;
        end else if (t > (1 << (W + 1))) begin
            threshold = 1 << (W + 1);
        end else begin
            threshold = t[SW-1:0];
        end
    end
endfunction

// SAI resume point min(max(xon, T - xon_offset), T - 1)
function signed [SW-1:0] xon_point;
    input signed [SW-1:0] t;
    input [W-1:0] xon;
    input [W-1:0] off;
    reg signed [SW-1:0] p;
    begin
        p = t - sx(off);
        if (sx(xon) > p) begin
            p = sx(xon);
        end
        xon_point = (p > t - 1) ? t - 1 : p;
    end
endfunction

// next Xoff state of a PG (PipelinedMmu._pfc_eval)
function pfc_next;
    input lossless;
    input xoff;
    input [W-1:0] hdrm;
    input [W-1:0] shared;
    input signed [SW-1:0] t;
    input signed [SW-1:0] xonp;
    begin
        if (!lossless) begin
            pfc_next = 1'b0;
        end else if (!xoff) begin
            pfc_next = (hdrm != 0) || ((shared != 0) && (sx(shared) >= t));
        end else begin
            pfc_next = !((hdrm == 0) && ((shared == 0) || (sx(shared) <= xonp)));
        end
    end
endfunction

// ------------------------------------------------------------------------------ entries
// PG state entry {class, res, shared, hdrm}; queue entry {class, res, shared}
localparam PGE_W = 3 * W + 1;
localparam QE_W = 2 * W + 1;

// a commit as every later stage sees it: PG and queue entries written by the release (0) and
// by the arrival (1); the arrival's entry wins when both name the same index
reg  [1:0]        cm_pg_en_reg;
reg  [2*IW-1:0]   cm_pg_idx_reg;
reg  [2*PGE_W-1:0] cm_pg_val_reg;
reg  [1:0]        cm_q_en_reg;
reg  [2*IW-1:0]   cm_q_idx_reg;
reg  [2*QE_W-1:0] cm_q_val_reg;
// the same for the two clocks before (pairs whose RAM write the read may have missed)
reg  [1:0]        cmh_pg_en_reg [1:2];
reg  [2*IW-1:0]   cmh_pg_idx_reg [1:2];
reg  [2*PGE_W-1:0] cmh_pg_val_reg [1:2];
reg  [1:0]        cmh_q_en_reg [1:2];
reg  [2*IW-1:0]   cmh_q_idx_reg [1:2];
reg  [2*QE_W-1:0] cmh_q_val_reg [1:2];

function [PGE_W-1:0] fwd_pg;
    input [PGE_W-1:0] v;
    input [IW-1:0] idx;
    input [1:0] en;
    input [2*IW-1:0] cidx;
    input [2*PGE_W-1:0] cval;
    begin
        if (en[1] && cidx[IW +: IW] == idx) begin
            fwd_pg = cval[PGE_W +: PGE_W];
        end else if (en[0] && cidx[0 +: IW] == idx) begin
            fwd_pg = cval[0 +: PGE_W];
        end else begin
            fwd_pg = v;
        end
    end
endfunction

function [QE_W-1:0] fwd_q;
    input [QE_W-1:0] v;
    input [IW-1:0] idx;
    input [1:0] en;
    input [2*IW-1:0] cidx;
    input [2*QE_W-1:0] cval;
    begin
        if (en[1] && cidx[IW +: IW] == idx) begin
            fwd_q = cval[QE_W +: QE_W];
        end else if (en[0] && cidx[0 +: IW] == idx) begin
            fwd_q = cval[0 +: QE_W];
        end else begin
            fwd_q = v;
        end
    end
endfunction


// ------------------------------------------------------------------------------ stage 0
assign s_req_ready = 1'b1;
assign s_rel_ready = 1'b1;

reg              a_v0, r_v0;
reg [PORT_W-1:0] a_port0, a_eport0, r_port0, r_eport0;
reg [PG_W-1:0]   a_pg0, r_pg0;
reg [Q_W-1:0]    a_q0, r_q0;
reg [LEN_W-1:0]  a_len0;
reg [TAG_W-1:0]  a_tag0;
reg [W-1:0]      r_c0;
reg [IW-1:0]     scan_cnt_reg, sc0;

always @(posedge clk) begin
    a_v0 <= s_req_valid && !rst;
    r_v0 <= s_rel_valid && !rst;
    a_port0 <= s_req_port;
    a_pg0 <= s_req_pg;
    a_eport0 <= s_req_eport;
    a_q0 <= s_req_queue;
    a_len0 <= s_req_len;
    a_tag0 <= s_req_tag;
    r_port0 <= s_rel_port;
    r_pg0 <= s_rel_pg;
    r_eport0 <= s_rel_eport;
    r_q0 <= s_rel_queue;
    r_c0 <= s_rel_cells;
    // the scan visits PG (clock mod N), clock 0 being the first edge after reset
    sc0 <= scan_cnt_reg;
    scan_cnt_reg <= scan_cnt_reg + 1'b1;
    if (rst) begin
        scan_cnt_reg <= 0;
    end
end

wire [IW-1:0] a_i0 = {a_port0[PI_W-1:0], a_pg0[2:0]};
wire [IW-1:0] a_j0 = {a_eport0[PI_W-1:0], a_q0[2:0]};
wire [IW-1:0] r_i0 = {r_port0[PI_W-1:0], r_pg0[2:0]};
wire [IW-1:0] r_j0 = {r_eport0[PI_W-1:0], r_q0[2:0]};

function idx_ok;
    input [PORT_W-1:0] port;
    input [PG_W-1:0] pg;
    input [PORT_W-1:0] eport;
    input [Q_W-1:0] queue;
    begin
        idx_ok = ({{(32-PORT_W){1'b0}}, port} < PORT_COUNT) && ({{(32-PG_W){1'b0}}, pg} < 8)
                 && ({{(32-PORT_W){1'b0}}, eport} < PORT_COUNT)
                 && ({{(32-Q_W){1'b0}}, queue} < 8);
    end
endfunction

// ------------------------------------------------------------------------------ configuration
// global fields (registers); per-PG and per-queue fields live in RAM (one memory per field)
reg [W-1:0]  g_buffer_reg;
reg [31:0]   g_max_frame_reg;
reg [W-1:0]  g_pool_reg [0:1];      // ingress shared sizes, lossless / lossy
reg [W-1:0]  g_hdrm_pool_reg;
reg [W-1:0]  g_epool_reg [0:1];     // egress shared sizes

reg          cw_v;
reg [15:0]   cw_a;
reg [31:0]   cw_d;
always @(posedge clk) begin
    cw_v <= cfg_wr_valid && !rst;
    cw_a <= cfg_wr_addr;
    cw_d <= cfg_wr_data;
    if (cw_v && cw_a[15:5] == 11'd1) begin
        case (cw_a[4:0])
            5'h00: g_buffer_reg <= cw_d[W-1:0];
            5'h01: g_max_frame_reg <= cw_d;
            5'h02: g_pool_reg[0] <= cw_d[W-1:0];
            5'h03: g_pool_reg[1] <= cw_d[W-1:0];
            5'h04: g_hdrm_pool_reg <= cw_d[W-1:0];
            5'h05: g_epool_reg[0] <= cw_d[W-1:0];
            5'h06: g_epool_reg[1] <= cw_d[W-1:0];
            default: ;
        endcase
    end
end

wire cw_pg = cw_v && cw_a[15:13] == 3'd1 && cw_a[3];
wire cw_q = cw_v && cw_a[15:13] == 3'd2 && cw_a[3];
wire [IW-1:0] cw_idx = cw_a[4 +: IW];

reg  [15:0] st_addr_reg;
wire [IW-1:0] st_idx = st_addr_reg[4 +: IW];

// per-PG configuration: field f (8..15) in memory pgc[f-8]; read ports A (0), R (1), scan (2),
// stat (3); fields read only by A and stat have their other ports unused (removed)
localparam [8*5-1:0] PGC_W = {5'd16, 5'd16, 5'd16, 5'd16, 5'd4, 5'd1, 5'd16, 5'd1};
wire [4*32-1:0] pgc_rd [0:7];
wire [4*32-1:0] qc_rd [0:7];
genvar f;
generate
for (f = 0; f < 8; f = f + 1) begin : pgc
    localparam FW = (PGC_W[f*5 +: 5] == 16) ? W : PGC_W[f*5 +: 5];
    wire [4*FW-1:0] rd;
    mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(FW), .WRITE_PORTS(1), .READ_PORTS(4),
                .OUT_REG(1))
    ram_inst (
        .clk(clk), .rst(1'b0),
        .wr_en(cw_pg && cw_a[2:0] == f), .wr_addr(cw_idx), .wr_data(cw_d[FW-1:0]),
        .rd_addr({st_idx, sc0, r_i0, a_i0}), .rd_data(rd)
    );
    assign pgc_rd[f] = {{(32-FW){1'b0}}, rd[3*FW +: FW], {(32-FW){1'b0}}, rd[2*FW +: FW],
                        {(32-FW){1'b0}}, rd[FW +: FW], {(32-FW){1'b0}}, rd[0 +: FW]};
end
for (f = 0; f < 5; f = f + 1) begin : qc
    localparam FW = (PGC_W[f*5 +: 5] == 16) ? W : PGC_W[f*5 +: 5];
    wire [2*FW-1:0] rd;
    mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(FW), .WRITE_PORTS(1), .READ_PORTS(2),
                .OUT_REG(1))
    ram_inst (
        .clk(clk), .rst(1'b0),
        .wr_en(cw_q && cw_a[2:0] == f), .wr_addr(cw_idx), .wr_data(cw_d[FW-1:0]),
        .rd_addr({st_idx, a_j0}), .rd_data(rd)
    );
    assign qc_rd[f] = {64'd0, {(32-FW){1'b0}}, rd[FW +: FW], {(32-FW){1'b0}}, rd[0 +: FW]};
end
for (f = 5; f < 8; f = f + 1) begin : qc_none
    assign qc_rd[f] = 128'd0;
end
endgenerate


integer gi;
initial begin
    for (gi = 0; gi < 2; gi = gi + 1) begin
        g_pool_reg[gi] = 0;
        g_epool_reg[gi] = 0;
    end
end

// ------------------------------------------------------------------------------ state RAMs
// PG state {class, res, shared, hdrm}: write ports release (0) / arrival (1) from the commit
// registers (one clock after the commit), read ports A, R, scan, stat
wire [4*PGE_W-1:0] pgs_rd;
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(PGE_W), .WRITE_PORTS(2), .READ_PORTS(4),
            .OUT_REG(1))
pg_state_inst (
    .clk(clk), .rst(rst),
    .wr_en(cm_pg_en_reg), .wr_addr(cm_pg_idx_reg), .wr_data(cm_pg_val_reg),
    .rd_addr({st_idx, sc0, r_i0, a_i0}), .rd_data(pgs_rd)
);
// queue state {class, res, shared}: read ports A, R, stat
wire [3*QE_W-1:0] qs_rd;
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(QE_W), .WRITE_PORTS(2), .READ_PORTS(3),
            .OUT_REG(1))
q_state_inst (
    .clk(clk), .rst(rst),
    .wr_en(cm_q_en_reg), .wr_addr(cm_q_idx_reg), .wr_data(cm_q_val_reg),
    .rd_addr({st_idx, r_j0, a_j0}), .rd_data(qs_rd)
);
// watermarks: PG {res_wm, shared_wm, hdrm_wm}, queue {wm (W+1 bits)}; written by EVAL (the
// arrival's PG and queue), read ports A, stat
localparam PGW_W = 3 * W;
localparam QW_W = W + 1;
reg              wm_en_reg;
reg [IW-1:0]     wm_i_reg, wm_j_reg;
reg [PGW_W-1:0]  wm_pg_reg;
reg [QW_W-1:0]   wm_q_reg;
reg              wmh_en_reg [1:2];
reg [IW-1:0]     wmh_i_reg [1:2];
reg [IW-1:0]     wmh_j_reg [1:2];
reg [PGW_W-1:0]  wmh_pg_reg [1:2];
reg [QW_W-1:0]   wmh_q_reg [1:2];
wire [2*PGW_W-1:0] pgw_rd;
wire [2*QW_W-1:0]  qw_rd;
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(PGW_W), .WRITE_PORTS(1), .READ_PORTS(2),
            .OUT_REG(1))
pg_wm_inst (
    .clk(clk), .rst(rst),
    .wr_en(wm_en_reg), .wr_addr(wm_i_reg), .wr_data(wm_pg_reg),
    .rd_addr({st_idx, a_i0}), .rd_data(pgw_rd)
);
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(QW_W), .WRITE_PORTS(1), .READ_PORTS(2),
            .OUT_REG(1))
q_wm_inst (
    .clk(clk), .rst(rst),
    .wr_en(wm_en_reg), .wr_addr(wm_j_reg), .wr_data(wm_q_reg),
    .rd_addr({st_idx, a_j0}), .rd_data(qw_rd)
);

// ------------------------------------------------------------------------------ pipeline
// per-pair fields carried stage by stage: index p = the stage whose register holds them
// (1 = written at E1 ... 7 = written at E7)
reg            a_v [1:7];        // an arrival was accepted
reg            a_ok [1:7];       // ... with a good length and good indices
reg            a_badlen [1:7];
reg            a_badidx [1:7];
reg [IW-1:0]   a_i [1:7];
reg [IW-1:0]   a_j [1:7];
reg [TAG_W-1:0] a_tag [1:7];
reg [W-1:0]    a_cells [2:7];
reg            r_ok [1:7];
reg [IW-1:0]   r_i [1:7];
reg [IW-1:0]   r_j [1:7];
reg [W-1:0]    r_c [1:7];
reg [IW-1:0]   sc [1:7];
reg [W-1:0]    gb [1:5];         // buffer cells of the pair's clock
reg [W-1:0]    gp0 [1:5], gp1 [1:5], gh [1:5], ge0 [1:5], ge1 [1:5];
reg [PROD_W-1:0] prod1;
// the low RECIP_SHIFT bits of the product are the fraction of len / CELL_BYTES
/* verilator lint_off UNUSEDSIGNAL */
wire [PROD_W-1:0] quot1 = prod1 >> RECIP_SHIFT;
/* verilator lint_on UNUSEDSIGNAL */

integer st;
always @(posedge clk) begin
    // stage 1
    a_v[1] <= a_v0;
    a_badlen[1] <= a_v0 && (a_len0 == 0 || {{(32-LEN_W){1'b0}}, a_len0} > g_max_frame_reg);
    a_badidx[1] <= a_v0 && !idx_ok(a_port0, a_pg0, a_eport0, a_q0);
    a_ok[1] <= a_v0 && a_len0 != 0 && {{(32-LEN_W){1'b0}}, a_len0} <= g_max_frame_reg
               && idx_ok(a_port0, a_pg0, a_eport0, a_q0);
    a_i[1] <= a_i0;
    a_j[1] <= a_j0;
    a_tag[1] <= a_tag0;
    prod1 <= {{(PROD_W-LEN_W){1'b0}}, a_len0 - 1'b1} * {{(PROD_W-RM_W){1'b0}}, RECIP_MUL};
    r_ok[1] <= r_v0 && idx_ok(r_port0, r_pg0, r_eport0, r_q0);
    r_i[1] <= r_i0;
    r_j[1] <= r_j0;
    r_c[1] <= r_c0;
    sc[1] <= sc0;
    gb[1] <= g_buffer_reg;
    gp0[1] <= g_pool_reg[0];
    gp1[1] <= g_pool_reg[1];
    gh[1] <= g_hdrm_pool_reg;
    ge0[1] <= g_epool_reg[0];
    ge1[1] <= g_epool_reg[1];
    // stage 2: cells
    a_cells[2] <= a_badlen[1] ? {W{1'b0}} : quot1[W-1:0] + 1'b1;
    for (st = 2; st <= 7; st = st + 1) begin
        a_v[st] <= a_v[st-1];
        a_ok[st] <= a_ok[st-1];
        a_badlen[st] <= a_badlen[st-1];
        a_badidx[st] <= a_badidx[st-1];
        a_i[st] <= a_i[st-1];
        a_j[st] <= a_j[st-1];
        a_tag[st] <= a_tag[st-1];
        r_ok[st] <= r_ok[st-1];
        r_i[st] <= r_i[st-1];
        r_j[st] <= r_j[st-1];
        r_c[st] <= r_c[st-1];
        sc[st] <= sc[st-1];
    end
    for (st = 3; st <= 7; st = st + 1) begin
        a_cells[st] <= a_cells[st-1];
    end
    for (st = 2; st <= 5; st = st + 1) begin
        gb[st] <= gb[st-1];
        gp0[st] <= gp0[st-1];
        gp1[st] <= gp1[st-1];
        gh[st] <= gh[st-1];
        ge0[st] <= ge0[st-1];
        ge1[st] <= ge1[st-1];
    end
    if (rst) begin
        for (st = 1; st <= 7; st = st + 1) begin
            a_v[st] <= 1'b0;
            a_ok[st] <= 1'b0;
            a_badlen[st] <= 1'b0;
            a_badidx[st] <= 1'b0;
            r_ok[st] <= 1'b0;
        end
    end
end

// ------------------------------------------------------------------------------ committed pools
reg [W-1:0] pool_reg [0:1];
reg [W-1:0] hpool_reg;
reg [W-1:0] total_reg;
reg [W-1:0] epool_reg [0:1];
initial begin
    for (gi = 0; gi < 2; gi = gi + 1) begin
        pool_reg[gi] = 0;
        epool_reg[gi] = 0;
    end
end

// ------------------------------------------------------------------------------ stage 3
// RAM data (commits up to pair k-8) merged with the commits of pairs k-7, k-6, k-5
reg [PGE_W-1:0] eA [3:7], eR [3:7], eS [3:7];
reg [QE_W-1:0]  qA [3:7], qR [3:7];
reg [PGW_W-1:0] wA [3:7];
reg [QW_W-1:0]  wQ [3:7];
// configuration of the pair's PGs and queue
reg             cA_ll [3:5], cA_dyn [3:5], cR_dyn [3:5], cS_dyn [3:5];
reg [3:0]       cA_al [3:5], cR_al [3:5], cS_al [3:5];
reg [W-1:0]     cA_res [3:5], cA_st [3:5], cA_hl [3:5], cA_xon [3:5], cA_off [3:5];
reg [W-1:0]     cR_st [3:5], cR_xon [3:5], cR_off [3:5], cS_st [3:5], cS_xon [3:5], cS_off [3:5];
reg             cQ_ll [3:5], cQ_dyn [3:5];
reg [3:0]       cQ_al [3:5];
reg [W-1:0]     cQ_res [3:5], cQ_st [3:5];
reg signed [W+1:0] free_i [0:1], free_e [0:1];   // size - used of each pool (T step 1)

function [PGE_W-1:0] merge3_pg;
    input [PGE_W-1:0] v;
    input [IW-1:0] idx;
    begin
        merge3_pg = fwd_pg(fwd_pg(fwd_pg(v, idx, cmh_pg_en_reg[2], cmh_pg_idx_reg[2],
                                         cmh_pg_val_reg[2]),
                                  idx, cmh_pg_en_reg[1], cmh_pg_idx_reg[1], cmh_pg_val_reg[1]),
                           idx, cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
    end
endfunction
function [QE_W-1:0] merge3_q;
    input [QE_W-1:0] v;
    input [IW-1:0] idx;
    begin
        merge3_q = fwd_q(fwd_q(fwd_q(v, idx, cmh_q_en_reg[2], cmh_q_idx_reg[2],
                                     cmh_q_val_reg[2]),
                               idx, cmh_q_en_reg[1], cmh_q_idx_reg[1], cmh_q_val_reg[1]),
                         idx, cm_q_en_reg, cm_q_idx_reg, cm_q_val_reg);
    end
endfunction

always @(posedge clk) begin
    eA[3] <= merge3_pg(pgs_rd[0*PGE_W +: PGE_W], a_i[2]);
    eR[3] <= merge3_pg(pgs_rd[1*PGE_W +: PGE_W], r_i[2]);
    eS[3] <= merge3_pg(pgs_rd[2*PGE_W +: PGE_W], sc[2]);
    qA[3] <= merge3_q(qs_rd[0*QE_W +: QE_W], a_j[2]);
    qR[3] <= merge3_q(qs_rd[1*QE_W +: QE_W], r_j[2]);
    // watermarks: RAM (writes up to pair k-9) and the writes of pairs k-8, k-7, k-6
    wA[3] <= (wm_en_reg && wm_i_reg == a_i[2]) ? wm_pg_reg
             : (wmh_en_reg[1] && wmh_i_reg[1] == a_i[2]) ? wmh_pg_reg[1]
             : (wmh_en_reg[2] && wmh_i_reg[2] == a_i[2]) ? wmh_pg_reg[2] : pgw_rd[0 +: PGW_W];
    wQ[3] <= (wm_en_reg && wm_j_reg == a_j[2]) ? wm_q_reg
             : (wmh_en_reg[1] && wmh_j_reg[1] == a_j[2]) ? wmh_q_reg[1]
             : (wmh_en_reg[2] && wmh_j_reg[2] == a_j[2]) ? wmh_q_reg[2] : qw_rd[0 +: QW_W];
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
    // T step 1 from the pools committed after pair k-5 (T_LAG 5)
    free_i[0] <= $signed({2'b00, gp0[2]}) - $signed({2'b00, pool_reg[0]});
    free_i[1] <= $signed({2'b00, gp1[2]}) - $signed({2'b00, pool_reg[1]});
    free_e[0] <= $signed({2'b00, ge0[2]}) - $signed({2'b00, epool_reg[0]});
    free_e[1] <= $signed({2'b00, ge1[2]}) - $signed({2'b00, epool_reg[1]});
end

// stages 4 and 5 merge the commit of one more pair each (k-4, k-3) and the watermark writes
always @(posedge clk) begin
    for (st = 4; st <= 5; st = st + 1) begin
        eA[st] <= fwd_pg(eA[st-1], a_i[st-1], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
        eR[st] <= fwd_pg(eR[st-1], r_i[st-1], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
        eS[st] <= fwd_pg(eS[st-1], sc[st-1], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
        qA[st] <= fwd_q(qA[st-1], a_j[st-1], cm_q_en_reg, cm_q_idx_reg, cm_q_val_reg);
        qR[st] <= fwd_q(qR[st-1], r_j[st-1], cm_q_en_reg, cm_q_idx_reg, cm_q_val_reg);
    end
    for (st = 4; st <= 7; st = st + 1) begin
        wA[st] <= (wm_en_reg && wm_i_reg == a_i[st-1]) ? wm_pg_reg : wA[st-1];
        wQ[st] <= (wm_en_reg && wm_j_reg == a_j[st-1]) ? wm_q_reg : wQ[st-1];
    end
    for (st = 4; st <= 5; st = st + 1) begin
        cA_ll[st] <= cA_ll[st-1]; cA_dyn[st] <= cA_dyn[st-1]; cR_dyn[st] <= cR_dyn[st-1];
        cS_dyn[st] <= cS_dyn[st-1]; cA_al[st] <= cA_al[st-1]; cR_al[st] <= cR_al[st-1];
        cS_al[st] <= cS_al[st-1]; cA_res[st] <= cA_res[st-1]; cA_st[st] <= cA_st[st-1];
        cA_hl[st] <= cA_hl[st-1]; cA_xon[st] <= cA_xon[st-1]; cA_off[st] <= cA_off[st-1];
        cR_st[st] <= cR_st[st-1]; cR_xon[st] <= cR_xon[st-1]; cR_off[st] <= cR_off[st-1];
        cS_st[st] <= cS_st[st-1]; cS_xon[st] <= cS_xon[st-1]; cS_off[st] <= cS_off[st-1];
        cQ_ll[st] <= cQ_ll[st-1]; cQ_dyn[st] <= cQ_dyn[st-1]; cQ_al[st] <= cQ_al[st-1];
        cQ_res[st] <= cQ_res[st-1]; cQ_st[st] <= cQ_st[st-1];
    end
end

// ------------------------------------------------------------------------------ stage 4
// T (both pools for the arrival's PG and queue: the class is known at DEC), T of the release's
// and the scan PG (lossless pool: they are only evaluated for PFC); the in-flight charge
reg signed [SW-1:0] tA4 [0:1], tQ4 [0:1];
reg signed [SW-1:0] tR4, tS4;
reg [W-1:0] f_all4, f_pg4, f_q4;
reg         f_same_pg4, f_same_q4;
always @(posedge clk) begin
    tA4[0] <= threshold(cA_dyn[3], cA_al[3], cA_st[3], free_i[0]);
    tA4[1] <= threshold(cA_dyn[3], cA_al[3], cA_st[3], free_i[1]);
    tQ4[0] <= threshold(cQ_dyn[3], cQ_al[3], cQ_st[3], free_e[0]);
    tQ4[1] <= threshold(cQ_dyn[3], cQ_al[3], cQ_st[3], free_e[1]);
    tR4 <= threshold(cR_dyn[3], cR_al[3], cR_st[3], free_i[0]);
    tS4 <= threshold(cS_dyn[3], cS_al[3], cS_st[3], free_i[0]);
    // pair k-1 is in stage 4 now: its arrival (good length and index) is charged in full
    f_all4 <= a_ok[4] ? a_cells[4] : {W{1'b0}};
    f_pg4 <= (a_ok[4] && a_i[4] == a_i[3]) ? a_cells[4] : {W{1'b0}};
    f_q4 <= (a_ok[4] && a_j[4] == a_j[3]) ? a_cells[4] : {W{1'b0}};
    f_same_pg4 <= a_ok[4] && a_i[4] == a_i[3];
    f_same_q4 <= a_ok[4] && a_j[4] == a_j[3];
end

// ------------------------------------------------------------------------------ stage 5
// decision constants: every limit minus the in-flight charge, so DEC compares each counter
// against one register (docs/mmu_core.md "DEC")
reg signed [SW-1:0] kR, k1, kG, kH1, kH2, kHP1, kHP2;
reg signed [SW-1:0] kT [0:1], kP1 [0:1], kP2 [0:1];
reg signed [SW-1:0] kQR, kQ1;
reg signed [SW-1:0] kTQ [0:1], kE1 [0:1], kE2 [0:1];
reg                 hp_none5;
reg signed [SW-1:0] tA5, tR5, tS5, xA5, xR5, xS5;
reg                 f_same_pg5, f_same_q5;
always @(posedge clk) begin : stage5
    reg signed [SW-1:0] cells, kr, kq;
    cells = sx(a_cells[4]);
    kr = sx(cA_res[4]) - sx(f_pg4);
    kq = sx(cQ_res[4]) - sx(f_q4);
    kR <= kr;
    k1 <= kr - cells;
    kG <= sx(gb[4]) - cells - sx(f_all4);
    kH1 <= sx(cA_hl[4]) - sx(f_pg4) - cells;
    kH2 <= sx(cA_hl[4]) - sx(f_pg4) + kr - cells;
    kHP1 <= sx(gh[4]) - sx(f_all4) - cells;
    kHP2 <= sx(gh[4]) - sx(f_all4) + kr - cells;
    hp_none5 <= gh[4] == 0;
    kT[0] <= tA4[0] - sx(f_pg4);
    kT[1] <= tA4[1] - sx(f_pg4);
    kP1[0] <= sx(gp0[4]) - sx(f_all4) - cells;
    kP1[1] <= sx(gp1[4]) - sx(f_all4) - cells;
    kP2[0] <= sx(gp0[4]) - sx(f_all4) + kr - cells;
    kP2[1] <= sx(gp1[4]) - sx(f_all4) + kr - cells;
    kQR <= kq;
    kQ1 <= kq - cells;
    kTQ[0] <= tQ4[0] - sx(f_q4);
    kTQ[1] <= tQ4[1] - sx(f_q4);
    kE1[0] <= sx(ge0[4]) - sx(f_all4) - cells;
    kE1[1] <= sx(ge1[4]) - sx(f_all4) - cells;
    kE2[0] <= sx(ge0[4]) - sx(f_all4) + kq - cells;
    kE2[1] <= sx(ge1[4]) - sx(f_all4) + kq - cells;
    tA5 <= tA4[0];
    tR5 <= tR4;
    tS5 <= tS4;
    xA5 <= xon_point(tA4[0], cA_xon[4], cA_off[4]);
    xR5 <= xon_point(tR4, cR_xon[4], cR_off[4]);
    xS5 <= xon_point(tS4, cS_xon[4], cS_off[4]);
    f_same_pg5 <= f_same_pg4;
    f_same_q5 <= f_same_q4;
end


// ------------------------------------------------------------------------------ DEC
// the counters committed after pair k-2 (stage 5 merged up to k-3, the commit register holds
// k-2), the in-flight charge of pair k-1 folded into the constants
wire [PGE_W-1:0] eA_d = fwd_pg(eA[5], a_i[5], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
wire [PGE_W-1:0] eR_d = fwd_pg(eR[5], r_i[5], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
wire [PGE_W-1:0] eS_d = fwd_pg(eS[5], sc[5], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
wire [QE_W-1:0]  qA_d = fwd_q(qA[5], a_j[5], cm_q_en_reg, cm_q_idx_reg, cm_q_val_reg);
wire [QE_W-1:0]  qR_d = fwd_q(qR[5], r_j[5], cm_q_en_reg, cm_q_idx_reg, cm_q_val_reg);

wire [W-1:0] d_hdrm = eA_d[0 +: W];
wire [W-1:0] d_sh = eA_d[W +: W];
wire [W-1:0] d_res = eA_d[2*W +: W];
wire [W-1:0] d_qsh = qA_d[0 +: W];
wire [W-1:0] d_qres = qA_d[W +: W];
wire [W-1:0] d_cells = a_cells[5];

reg          dec_class_reg, dec_qclass_reg;
// class of the decision: that of the arrival in flight to the same PG, else the configured
// one for an empty PG, else the recorded one
wire d_class = f_same_pg5 ? dec_class_reg
               : ((eA_d[3*W-1:0] == 0) ? cA_ll[5] : eA_d[3*W]);
wire d_qclass = f_same_q5 ? dec_qclass_reg
                : ((qA_d[2*W-1:0] == 0) ? cQ_ll[5] : qA_d[2*W]);
wire d_pool = !d_class;     // pool index: 0 lossless, 1 lossy
wire d_epool = !d_qclass;

wire d_rem_all = sx(d_res) >= kR;
wire d_rem_none = sx(d_res) <= k1;
// in the case that selects them, x and room lie in 1 .. cells - 1: their upper bits are unused
/* verilator lint_off UNUSEDSIGNAL */
wire signed [SW-1:0] d_x = sx(d_res) - k1;
wire signed [SW-1:0] d_room = kR - sx(d_res);
/* verilator lint_on UNUSEDSIGNAL */
wire [W-1:0] d_rem = d_rem_all ? d_cells : d_rem_none ? {W{1'b0}} : d_x[W-1:0];
wire [W-1:0] d_to_res = d_rem_all ? {W{1'b0}} : d_rem_none ? d_cells : d_room[W-1:0];
wire d_guard = sx(total_reg) > kG;
wire [1:0] d_pool_ok, d_sh_ok, d_q_ok, d_ep_ok;
genvar pp;
generate
for (pp = 0; pp < 2; pp = pp + 1) begin : d_pools
    // every compare is its own term, selected by AND / OR: Icarus 11 compares the words of
    // a signed array unsigned inside "c ? a <= b : a < b"
    wire p_all = sx(pool_reg[pp]) <= kP1[pp];
    wire p_mid = sx(pool_reg[pp]) + sx(d_res) <= kP2[pp];
    wire e_all = sx(epool_reg[pp]) <= kE1[pp];
    wire e_mid = sx(epool_reg[pp]) + sx(d_qres) <= kE2[pp];
    assign d_pool_ok[pp] = (d_rem_all && p_all) || (!d_rem_all && p_mid);
    assign d_sh_ok[pp] = (sx(d_sh) < kT[pp]) || (FAULT_INJECT != 0 && sx(d_sh) == kT[pp]);
    assign d_q_ok[pp] = sx(d_qsh) < kTQ[pp];
    assign d_ep_ok[pp] = (d_erem_all && e_all) || (!d_erem_all && e_mid);
end
endgenerate
wire d_hd_all = sx(d_hdrm) <= kH1;
wire d_hd_mid = sx(d_hdrm) + sx(d_res) <= kH2;
wire d_hp_all = sx(hpool_reg) <= kHP1;
wire d_hp_mid = sx(hpool_reg) + sx(d_res) <= kHP2;
wire d_hd_ok = (d_rem_all && d_hd_all) || (!d_rem_all && d_hd_mid);
wire d_hp_ok = hp_none5 || (d_rem_all && d_hp_all) || (!d_rem_all && d_hp_mid);
wire d_erem_all = sx(d_qres) >= kQR;
wire d_erem_none = sx(d_qres) <= kQ1;
/* verilator lint_off UNUSEDSIGNAL */
wire signed [SW-1:0] d_ex = sx(d_qres) - kQ1;
wire signed [SW-1:0] d_eroom = kQR - sx(d_qres);
/* verilator lint_on UNUSEDSIGNAL */
wire [W-1:0] d_erem = d_erem_all ? d_cells : d_erem_none ? {W{1'b0}} : d_ex[W-1:0];
wire [W-1:0] d_eto_res = d_erem_all ? {W{1'b0}} : d_erem_none ? d_cells : d_eroom[W-1:0];

wire d_shared_ok = d_sh_ok[d_pool] && d_pool_ok[d_pool];
wire d_hdrm_ok = d_class && d_hd_ok && d_hp_ok;
wire d_badlen = a_badlen[5];
wire d_badidx = a_badidx[5];
reg [2:0] d_reason;
always @* begin
    if (d_badlen) begin
        d_reason = REASON_BAD_LEN;
    end else if (d_badidx) begin
        d_reason = REASON_BAD_INDEX;
    end else if (d_guard) begin
        d_reason = REASON_BUFFER_FULL;
    end else if (!d_rem_none && !d_shared_ok && !d_hdrm_ok) begin
        d_reason = d_class ? REASON_HEADROOM_FULL : REASON_INGRESS_LOSSY;
    end else if (!d_erem_none && !(d_q_ok[d_epool] && d_ep_ok[d_epool])) begin
        d_reason = REASON_EGRESS;
    end else begin
        d_reason = REASON_NONE;
    end
end
wire d_admit = a_v[5] && d_reason == REASON_NONE;

// stage 6 registers: the decision (m_resp_*), the amounts and everything COMMIT needs
reg          dec_valid_reg, dec_admit_reg;
reg [2:0]    dec_reason_reg;
reg [W-1:0]  dec_tr_reg, dec_sh_reg, dec_hd_reg, dec_etr_reg, dec_esh_reg;
reg [PGE_W-1:0] eA6, eR6, eS6;
reg [QE_W-1:0]  qA6, qR6;
reg signed [SW-1:0] tA6, tR6, tS6, xA6, xR6, xS6;
always @(posedge clk) begin
    dec_valid_reg <= a_v[5];
    dec_admit_reg <= d_admit;
    dec_reason_reg <= d_reason;
    dec_class_reg <= d_class;
    dec_qclass_reg <= d_qclass;
    dec_tr_reg <= d_admit ? d_to_res : {W{1'b0}};
    dec_sh_reg <= (d_admit && !d_rem_none && d_shared_ok) ? d_rem : {W{1'b0}};
    dec_hd_reg <= (d_admit && !d_rem_none && !d_shared_ok) ? d_rem : {W{1'b0}};
    dec_etr_reg <= d_admit ? d_eto_res : {W{1'b0}};
    dec_esh_reg <= d_admit ? d_erem : {W{1'b0}};
    eA6 <= eA_d;
    eR6 <= eR_d;
    eS6 <= eS_d;
    qA6 <= qA_d;
    qR6 <= qR_d;
    tA6 <= tA5; tR6 <= tR5; tS6 <= tS5;
    xA6 <= xA5; xR6 <= xR5; xS6 <= xS5;
    if (rst) begin
        dec_valid_reg <= 1'b0;
        dec_admit_reg <= 1'b0;
    end
end

assign m_resp_valid = dec_valid_reg;
assign m_resp_admit = dec_admit_reg;
assign m_resp_reason = dec_reason_reg;
assign m_resp_cells = a_cells[6];
assign m_resp_res = dec_tr_reg;
assign m_resp_shared = dec_sh_reg;
assign m_resp_hdrm = dec_hd_reg;
assign m_resp_eres = dec_etr_reg;
assign m_resp_eshared = dec_esh_reg;
assign m_resp_tag = a_tag[6];

// ------------------------------------------------------------------------------ COMMIT
// exact counters (commit of pair k-1 merged), release first (headroom, shared, reserved;
// egress shared, reserved; each clamps at what is held), then the decided amounts
wire [PGE_W-1:0] eR_c = fwd_pg(eR6, r_i[6], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
wire [PGE_W-1:0] eA_c = fwd_pg(eA6, a_i[6], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
wire [PGE_W-1:0] eS_c = fwd_pg(eS6, sc[6], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
wire [QE_W-1:0]  qR_c = fwd_q(qR6, r_j[6], cm_q_en_reg, cm_q_idx_reg, cm_q_val_reg);
wire [QE_W-1:0]  qA_c = fwd_q(qA6, a_j[6], cm_q_en_reg, cm_q_idx_reg, cm_q_val_reg);

// sums of two or three counters need W+2 bits; every value a counter takes back fits W bits
// (each is at most what it held), so the upper bits of the results are unused
/* verilator lint_off UNUSEDSIGNAL */
wire [W+1:0] c_c = {2'b00, r_c[6]};
wire [W+1:0] c_h = {2'b00, eR_c[0 +: W]};
wire [W+1:0] c_s = {2'b00, eR_c[W +: W]};
wire [W+1:0] c_r = {2'b00, eR_c[2*W +: W]};
wire [W+1:0] c_hs = c_h + c_s;
wire [W+1:0] c_hsr = c_hs + c_r;
wire c_ch = c_c <= c_h;
wire c_chs = c_c <= c_hs;
wire c_chsr = c_c <= c_hsr;
wire [W+1:0] c_h1 = c_ch ? c_h - c_c : 0;
wire [W+1:0] c_s1 = c_ch ? c_s : c_chs ? c_hs - c_c : 0;
wire [W+1:0] c_r1 = c_chs ? c_r : c_chsr ? c_hsr - c_c : 0;
wire [W+1:0] c_from_h = c_ch ? c_c : c_h;
wire [W+1:0] c_from_s = c_s - c_s1;
wire [W+1:0] c_from_t = c_chsr ? c_c : c_hsr;
wire [W+1:0] c_qs = {2'b00, qR_c[0 +: W]};
wire [W+1:0] c_qr = {2'b00, qR_c[W +: W]};
wire [W+1:0] c_qsr = c_qs + c_qr;
wire c_cq = c_c <= c_qs;
wire c_cqsr = c_c <= c_qsr;
wire [W+1:0] c_qs1 = c_cq ? c_qs - c_c : 0;
wire [W+1:0] c_qr1 = c_cq ? c_qr : c_cqsr ? c_qsr - c_c : 0;
wire [W+1:0] c_from_es = c_cq ? c_c : c_qs;
/* verilator lint_on UNUSEDSIGNAL */
wire c_rel = r_ok[6];
wire c_adm = dec_admit_reg;
wire c_same_pg = c_rel && a_ok[6] && r_i[6] == a_i[6];
wire c_same_q = c_rel && a_ok[6] && r_j[6] == a_j[6];
wire c_rclass = eR_c[3*W];
wire c_rqclass = qR_c[2*W];
wire c_underflow = c_rel && (!c_chsr || !c_cqsr);

wire [3*W-1:0] c_rel_fields = {c_r1[W-1:0], c_s1[W-1:0], c_h1[W-1:0]};
wire [3*W-1:0] c_base = c_same_pg ? c_rel_fields : eA_c[0 +: 3*W];
wire [2*W-1:0] c_qrel_fields = {c_qr1[W-1:0], c_qs1[W-1:0]};
wire [2*W-1:0] c_qbase = c_same_q ? c_qrel_fields : qA_c[0 +: 2*W];

reg [1:0]   err_flags_reg;
reg [31:0]  underflow_count_reg;
reg [PGE_W-1:0] eA7, eR7, eS7;
reg [QE_W-1:0]  qA7;
reg signed [SW-1:0] tA7, tR7, tS7, xA7, xR7, xS7;
reg         adm7;
integer hi;
always @(posedge clk) begin
    cm_pg_en_reg <= {c_adm, c_rel};
    cm_pg_idx_reg <= {a_i[6], r_i[6]};
    cm_pg_val_reg <= {dec_class_reg,
                      c_base[2*W +: W] + dec_tr_reg, c_base[W +: W] + dec_sh_reg,
                      c_base[0 +: W] + dec_hd_reg,
                      c_rclass, c_rel_fields};
    cm_q_en_reg <= {c_adm, c_rel};
    cm_q_idx_reg <= {a_j[6], r_j[6]};
    cm_q_val_reg <= {dec_qclass_reg, c_qbase[W +: W] + dec_etr_reg,
                     c_qbase[0 +: W] + dec_esh_reg,
                     c_rqclass, c_qrel_fields};
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
    total_reg <= total_reg - (c_rel ? c_from_t[W-1:0] : {W{1'b0}})
                 + (c_adm ? a_cells[6] : {W{1'b0}});
    hpool_reg <= hpool_reg - (c_rel ? c_from_h[W-1:0] : {W{1'b0}}) + dec_hd_reg;
    for (hi = 0; hi < 2; hi = hi + 1) begin
        pool_reg[hi] <= pool_reg[hi]
                        - ((c_rel && c_rclass == (hi == 0)) ? c_from_s[W-1:0] : {W{1'b0}})
                        + ((dec_class_reg == (hi == 0)) ? dec_sh_reg : {W{1'b0}});
        epool_reg[hi] <= epool_reg[hi]
                         - ((c_rel && c_rqclass == (hi == 0)) ? c_from_es[W-1:0] : {W{1'b0}})
                         + ((dec_qclass_reg == (hi == 0)) ? dec_esh_reg : {W{1'b0}});
    end
    if (c_underflow) begin
        underflow_count_reg <= underflow_count_reg + 1'b1;
        err_flags_reg[0] <= 1'b1;
    end
    eA7 <= eA_c;
    eR7 <= eR_c;
    eS7 <= eS_c;
    qA7 <= qA_c;
    adm7 <= c_adm;
    tA7 <= tA6; tR7 <= tR6; tS7 <= tS6;
    xA7 <= xA6; xR7 <= xR6; xS7 <= xS6;
    if (rst) begin
        cm_pg_en_reg <= 2'b00;
        cm_q_en_reg <= 2'b00;
        cmh_pg_en_reg[1] <= 2'b00;
        cmh_pg_en_reg[2] <= 2'b00;
        cmh_q_en_reg[1] <= 2'b00;
        cmh_q_en_reg[2] <= 2'b00;
        total_reg <= 0;
        hpool_reg <= 0;
        for (hi = 0; hi < 2; hi = hi + 1) begin
            pool_reg[hi] <= 0;
            epool_reg[hi] <= 0;
        end
        underflow_count_reg <= 0;
        err_flags_reg <= 2'b00;
        adm7 <= 1'b0;
    end
end
assign err_release_underflow = err_flags_reg[0];


// ------------------------------------------------------------------------------ EVAL
// PFC state of the release's PG, the arrival's PG and the scan PG on their post-commit
// counters (the commit register holds pair k); one clock per PG evaluation, all three agree
// when they name the same PG
wire [PGE_W-1:0] eR_e = fwd_pg(eR7, r_i[7], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
wire [PGE_W-1:0] eA_e = fwd_pg(eA7, a_i[7], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
wire [PGE_W-1:0] eS_e = fwd_pg(eS7, sc[7], cm_pg_en_reg, cm_pg_idx_reg, cm_pg_val_reg);
// the queue's class is not needed for its watermark
/* verilator lint_off UNUSEDSIGNAL */
wire [QE_W-1:0]  qA_e = fwd_q(qA7, a_j[7], cm_q_en_reg, cm_q_idx_reg, cm_q_val_reg);
/* verilator lint_on UNUSEDSIGNAL */

reg [N-1:0] xoff_reg;
reg [N-1:0] pfc_change_reg;
wire e_nR = pfc_next(eR_e[3*W], xoff_reg[r_i[7]], eR_e[0 +: W], eR_e[W +: W], tR7, xR7);
wire e_nA = pfc_next(eA_e[3*W], xoff_reg[a_i[7]], eA_e[0 +: W], eA_e[W +: W], tA7, xA7);
wire e_nS = pfc_next(eS_e[3*W], xoff_reg[sc[7]], eS_e[0 +: W], eS_e[W +: W], tS7, xS7);
wire [IW-1:0] e_sc = sc[7];
wire [IW-1:0] e_ai = a_i[7];
wire [IW-1:0] e_ri = r_i[7];
wire e_aok = a_ok[7];
wire e_rok = r_ok[7];
reg [N-1:0] xoff_next;
integer xi;
always @* begin
    xoff_next = xoff_reg;
    for (xi = 0; xi < N; xi = xi + 1) begin
        if (e_sc == xi[IW-1:0]) begin
            xoff_next[xi] = e_nS;
        end
        if (e_aok && e_ai == xi[IW-1:0]) begin
            xoff_next[xi] = e_nA;
        end
        if (e_rok && e_ri == xi[IW-1:0]) begin
            xoff_next[xi] = e_nR;
        end
    end
end
always @(posedge clk) begin
    xoff_reg <= xoff_next;
    pfc_change_reg <= xoff_next ^ xoff_reg;
    if (rst) begin
        xoff_reg <= {N{1'b0}};
        pfc_change_reg <= {N{1'b0}};
    end
end
assign pfc_xoff = xoff_reg;
assign pfc_change = pfc_change_reg;

// watermarks of the admitted arrival's PG and queue (the writes of pair k-1 merged)
wire [PGW_W-1:0] w_old = (wm_en_reg && wm_i_reg == a_i[7]) ? wm_pg_reg : wA[7];
wire [QW_W-1:0]  w_qold = (wm_en_reg && wm_j_reg == a_j[7]) ? wm_q_reg : wQ[7];
wire [W-1:0]  w_h = eA_e[0 +: W], w_s = eA_e[W +: W], w_r = eA_e[2*W +: W];
wire [QW_W-1:0] w_qocc = {1'b0, qA_e[0 +: W]} + {1'b0, qA_e[W +: W]};
always @(posedge clk) begin
    wm_en_reg <= adm7;
    wm_i_reg <= a_i[7];
    wm_j_reg <= a_j[7];
    wm_pg_reg <= {(w_r > w_old[2*W +: W]) ? w_r : w_old[2*W +: W],
                  (w_s > w_old[W +: W]) ? w_s : w_old[W +: W],
                  (w_h > w_old[0 +: W]) ? w_h : w_old[0 +: W]};
    wm_q_reg <= (w_qocc > w_qold) ? w_qocc : w_qold;
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

// ------------------------------------------------------------------------------ counters
reg [W-1:0]  pool_wm_reg [0:1];
reg [W-1:0]  epool_wm_reg [0:1];
reg [W-1:0]  hpool_wm_reg, total_wm_reg;
reg [31:0]   drop_reg [0:7];
reg [31:0]   admitted_reg, bad_release_reg, arrivals_reg, releases_reg;
integer ci;
always @(posedge clk) begin
    for (ci = 0; ci < 2; ci = ci + 1) begin
        if (pool_reg[ci] > pool_wm_reg[ci]) pool_wm_reg[ci] <= pool_reg[ci];
        if (epool_reg[ci] > epool_wm_reg[ci]) epool_wm_reg[ci] <= epool_reg[ci];
    end
    if (hpool_reg > hpool_wm_reg) hpool_wm_reg <= hpool_reg;
    if (total_reg > total_wm_reg) total_wm_reg <= total_reg;
    if (dec_valid_reg) begin
        arrivals_reg <= arrivals_reg + 1'b1;
        if (dec_admit_reg) begin
            admitted_reg <= admitted_reg + 1'b1;
        end else begin
            drop_reg[dec_reason_reg] <= drop_reg[dec_reason_reg] + 1'b1;
        end
    end
    if (r_v0) begin
        releases_reg <= releases_reg + 1'b1;
        if (!idx_ok(r_port0, r_pg0, r_eport0, r_q0)) begin
            bad_release_reg <= bad_release_reg + 1'b1;
        end
    end
    if (rst) begin
        for (ci = 0; ci < 2; ci = ci + 1) begin
            pool_wm_reg[ci] <= 0;
            epool_wm_reg[ci] <= 0;
        end
        for (ci = 0; ci < 8; ci = ci + 1) begin
            drop_reg[ci] <= 0;
        end
        hpool_wm_reg <= 0;
        total_wm_reg <= 0;
        admitted_reg <= 0;
        bad_release_reg <= 0;
        arrivals_reg <= 0;
        releases_reg <= 0;
    end
end

// ------------------------------------------------------------------------------ status
// stat_addr registered at edge n, the RAMs read at n+1 (data at n+2), stat_data at n+3
reg [15:0] st_addr2_reg;
// address bits above the index of the last PG / queue are not decoded
/* verilator lint_off UNUSEDSIGNAL */
reg [15:0] st_addr3_reg;
/* verilator lint_on UNUSEDSIGNAL */
reg [31:0] stat_data_reg;
wire [IW-1:0] st_i3 = st_addr3_reg[4 +: IW];
function [31:0] z32;
    input [W:0] v;
    begin
        z32 = {{(31-W){1'b0}}, v};
    end
endfunction
always @(posedge clk) begin
    st_addr_reg <= stat_addr;
    st_addr2_reg <= st_addr_reg;
    st_addr3_reg <= st_addr2_reg;
    stat_data_reg <= 32'd0;
    if (st_addr3_reg[15:13] == 3'd0) begin
        case (st_addr3_reg[5:0])
            6'h00: stat_data_reg <= z32({1'b0, pool_reg[0]});
            6'h01: stat_data_reg <= z32({1'b0, pool_wm_reg[0]});
            6'h02: stat_data_reg <= z32({1'b0, pool_reg[1]});
            6'h03: stat_data_reg <= z32({1'b0, pool_wm_reg[1]});
            6'h04: stat_data_reg <= z32({1'b0, hpool_reg});
            6'h05: stat_data_reg <= z32({1'b0, hpool_wm_reg});
            6'h06: stat_data_reg <= z32({1'b0, epool_reg[0]});
            6'h07: stat_data_reg <= z32({1'b0, epool_wm_reg[0]});
            6'h08: stat_data_reg <= z32({1'b0, epool_reg[1]});
            6'h09: stat_data_reg <= z32({1'b0, epool_wm_reg[1]});
            6'h0A: stat_data_reg <= z32({1'b0, total_reg});
            6'h0B: stat_data_reg <= z32({1'b0, total_wm_reg});
            6'h0C: stat_data_reg <= admitted_reg;
            6'h0D: stat_data_reg <= underflow_count_reg;
            6'h0E: stat_data_reg <= bad_release_reg;
            6'h0F: stat_data_reg <= {30'd0, err_flags_reg};
            6'h10, 6'h11, 6'h12, 6'h13, 6'h14, 6'h15, 6'h16:
                stat_data_reg <= drop_reg[st_addr3_reg[2:0]];
            6'h17: stat_data_reg <= arrivals_reg;
            6'h18: stat_data_reg <= releases_reg;
            6'h1E: stat_data_reg <= PORT_COUNT;
            6'h1F: stat_data_reg <= CELL_BYTES;
            6'h20: stat_data_reg <= z32({1'b0, g_buffer_reg});
            6'h21: stat_data_reg <= g_max_frame_reg;
            6'h22: stat_data_reg <= z32({1'b0, g_pool_reg[0]});
            6'h23: stat_data_reg <= z32({1'b0, g_pool_reg[1]});
            6'h24: stat_data_reg <= z32({1'b0, g_hdrm_pool_reg});
            6'h25: stat_data_reg <= z32({1'b0, g_epool_reg[0]});
            6'h26: stat_data_reg <= z32({1'b0, g_epool_reg[1]});
            default: stat_data_reg <= 32'd0;
        endcase
    end else if (st_addr3_reg[15:13] == 3'd1) begin
        case (st_addr3_reg[3:0])
            4'd0: stat_data_reg <= z32({1'b0, pgs_rd[3*PGE_W + 2*W +: W]});
            4'd1: stat_data_reg <= z32({1'b0, pgs_rd[3*PGE_W + W +: W]});
            4'd2: stat_data_reg <= z32({1'b0, pgs_rd[3*PGE_W +: W]});
            4'd3: stat_data_reg <= z32({1'b0, pgw_rd[PGW_W + 2*W +: W]});
            4'd4: stat_data_reg <= z32({1'b0, pgw_rd[PGW_W + W +: W]});
            4'd5: stat_data_reg <= z32({1'b0, pgw_rd[PGW_W +: W]});
            4'd6: stat_data_reg <= {31'd0, xoff_reg[st_i3]};
            4'd7: stat_data_reg <= {31'd0, pgs_rd[3*PGE_W + 3*W]};
            default: stat_data_reg <= pgc_rd[st_addr3_reg[2:0]][96 +: 32];
        endcase
    end else if (st_addr3_reg[15:13] == 3'd2) begin
        case (st_addr3_reg[3:0])
            4'd0: stat_data_reg <= z32({1'b0, qs_rd[2*QE_W + W +: W]});
            4'd1: stat_data_reg <= z32({1'b0, qs_rd[2*QE_W +: W]});
            4'd2: stat_data_reg <= z32({1'b0, qs_rd[2*QE_W +: W]}
                                       + {1'b0, qs_rd[2*QE_W + W +: W]});
            4'd3: stat_data_reg <= z32(qw_rd[QW_W +: QW_W]);
            4'd4: stat_data_reg <= {31'd0, qs_rd[2*QE_W + 2*W]};
            4'd8, 4'd9, 4'd10, 4'd11, 4'd12:
                stat_data_reg <= qc_rd[st_addr3_reg[2:0]][32 +: 32];
            default: stat_data_reg <= 32'd0;
        endcase
    end
end
assign stat_data = stat_data_reg;

endmodule

`resetall
