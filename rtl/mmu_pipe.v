/*
 * Line-rate admission core: ingress (port, PG) and egress (port, queue) cell accounting,
 * Dynamic Threshold and PFC Xoff / Xon, one arrival and one release accepted every clock with
 * no stall, counters and configuration in RAM.  Bit-exact with models/mmu_pipe.py
 * (PipelinedMmu, view_lag 5, global_lag 6, t_lag 10): docs/mmu_core.md "Line-rate core" has the
 * stage table.
 *
 * Stages (pair k = the release and arrival accepted at rising edge E0):
 *
 *   E0      input registers
 *   E0-E1   index and length checks, (len - 1) * reciprocal, RAM addresses (read at E1)
 *   E1-E2   cells; RAM read (output registers at E2); T step 1 (size - pool)
 *   E2-E3   merge the RAM data with the commits of pairs k-10 .. k-8; T step 2 (the low part of
 *           the alpha shift); the in-flight charge of pairs k-4 .. k-1
 *   E3-E4   merge k-7; T (the rest of the shift, or the static threshold); partial constants
 *   E4-E5   merge k-6; decision constants (every limit minus the in-flight charge)
 *   E5-E6   DEC1a: merge k-5, every compare of the decision against each candidate entry
 *   E6-E7   DEC1b: the compares of the view's entry combined into verdicts; merge k-4
 *   E7-E8   DEC2: the decision and its amounts (response registered at E9); merge k-3;
 *           PRE: pair k-1's update of this pair's entries, composed with this pair's release
 *   E8-E9   C1: merge k-2; each running sum's two candidates (pairs k-1 and k composed)
 *   E9-E10  C2: their maxima, the segments: the exact counters (RAM write at E11); what the
 *           release takes from the pools
 *   E10-E11 GLOBAL: total, pools and headroom pool (in parallel with EVAL0)
 *   E10-E11 EVAL0: the post-commit entries of the release's PG, the arrival's PG, the scan PG
 *   E11-E12 EVAL1: their PFC conditions (XOFF if off, XON if on)
 *   E12-E13 EVAL2: the conditions decoded to every PG
 *   E13-E14 EVAL3: applied to the current state, pfc_xoff from E14
 *
 * The decision sees the per-PG / per-queue counters committed after pair k-5 and charges the
 * arrivals of pairs k-4 .. k-1 in full (view_lag 5); the total and the pools are committed a
 * clock later (GLOBAL stage), so it sees them after pair k-6 with k-5 .. k-1 charged
 * (global_lag 6); T comes from the pools as committed after pair k-10 (registered at E1):
 * t_lag 10.  Response 9 clocks, pfc_xoff 14 clocks after the request's edge
 * (models.mmu_pipe.RTL_RESP_LATENCY, RTL_XOFF_LATENCY).  An entry's read-modify-write loop is
 * two clocks long (C1, C2): the update of pair k is composed with that of pair k-1 (COMMIT
 * below), so no stage holds more than one carry chain of it.
 *
 * Configuration and status: cfg_wr_* writes one 32-bit field per clock (takes effect for
 * pairs accepted from the next clock on), stat_addr reads any field, counter or watermark
 * (stat_data 6 clocks after stat_addr).  Map: docs/mmu_core.md, tb/mmu_pipe/regmap.py.
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
    parameter FAULT_INJECT = 0,
    // test only: 1 breaks the configuration checker's Xon rule (> for >=; negative test)
    parameter CFG_FAULT_INJECT = 0
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
     * Admission responses (9 clocks after the request's edge, in order, no back-pressure)
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
    output wire                              err_release_underflow,
    // the configuration breaks a rule of MmuConfig.validate() (mmu_cfg_check, status 0x19)
    output wire                              err_bad_config
);

localparam N = PORT_COUNT * 8;            // PGs, and queues
localparam PI_W = $clog2(PORT_COUNT);
localparam IW = PI_W + 3;                 // PG / queue index
localparam W = CELL_W;
localparam SW = CELL_W + 3;               // signed decision constants

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

// T and everything compared against it: wide enough for alpha up to 2^7 (a bad configuration
// still computes what the model computes)
localparam TW = CELL_W + 10;
function signed [TW-1:0] tx;  // a cell count as a signed threshold-width value
    input [W-1:0] v;
    begin
        tx = $signed({{(TW-W){1'b0}}, v});
    end
endfunction
function lt_t;      // a < b, signed threshold-width values, as a subtraction's sign
    input signed [TW-1:0] a;
    input signed [TW-1:0] b;
    reg [TW:0] d;
    begin
        d = {a[TW-1], a} - {b[TW-1], b};
        lt_t = d[TW];
    end
endfunction

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

// carry-save arithmetic for the DEC and COMMIT stages: a three-operand sum is one LUT level
// (sum and majority bits) and one carry chain
localparam XW = W + 4;
function [XW-1:0] xz;
    input [W-1:0] v;
    begin
        xz = {{(XW-W){1'b0}}, v};
    end
endfunction
function [XW-1:0] add3;
    input [XW-1:0] a;
    input [XW-1:0] b;
    input [XW-1:0] c;
    input cin;
    // the top majority bit leaves the word (sums are taken modulo 2^XW)
    /* verilator lint_off UNUSEDSIGNAL */
    reg [XW-1:0] maj;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        maj = (a & b) | (a & c) | (b & c);
        add3 = (a ^ b ^ c) + {maj[XW-2:0], cin};
    end
endfunction
// a + b + c modulo 2^W, carry-save (one LUT level, one carry chain)
function [W-1:0] add3w;
    input [W-1:0] a;
    input [W-1:0] b;
    input [W-1:0] c;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [W-1:0] maj;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        maj = (a & b) | (a & c) | (b & c);
        add3w = (a ^ b ^ c) + {maj[W-2:0], 1'b0};
    end
endfunction
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
// with the running sums COMMIT needs (hdrm + shared, + reserved; queue shared + reserved) and
// whether the release bus's entry is empty after the commit (the arrival bus's never is)
reg  [2*(W+2)-1:0] cm_pg_hs_reg, cm_pg_hsr_reg, cm_q_qsr_reg;
reg               cm_pg_empty_reg, cm_q_empty_reg;
// a copy of the commit register's entries for DEC1's compares, each copy driving half of the
// loads (cleared by reset, which the commit register is not: synthesis merges identical
// registers, keep or not)
reg [2*PGE_W-1:0] cmd_pg_val_reg;
reg [2*QE_W-1:0]  cmd_q_val_reg;
// the same for the two clocks before (pairs whose RAM write the read may have missed)
(* mem2reg *) reg  [1:0]        cmh_pg_en_reg [1:2];
(* mem2reg *) reg  [2*IW-1:0]   cmh_pg_idx_reg [1:2];
(* mem2reg *) reg  [2*PGE_W-1:0] cmh_pg_val_reg [1:2];
(* mem2reg *) reg  [1:0]        cmh_q_en_reg [1:2];
(* mem2reg *) reg  [2*IW-1:0]   cmh_q_idx_reg [1:2];
(* mem2reg *) reg  [2*QE_W-1:0] cmh_q_val_reg [1:2];


function [PGE_W-1:0] sel_pg;
    input ma, mr;
    input [2*PGE_W-1:0] cval;
    input [PGE_W-1:0] v;
    begin
        sel_pg = ma ? cval[PGE_W +: PGE_W] : mr ? cval[0 +: PGE_W] : v;
    end
endfunction
function [QE_W-1:0] sel_q;
    input ma, mr;
    input [2*QE_W-1:0] cval;
    input [QE_W-1:0] v;
    begin
        sel_q = ma ? cval[QE_W +: QE_W] : mr ? cval[0 +: QE_W] : v;
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
reg              sv0;             // a scan slot (none while in reset)

always @(posedge clk) begin
    a_v0 <= s_req_valid && !rst;
    r_v0 <= s_rel_valid && !rst;
    a_len0 <= s_req_len;
    a_tag0 <= s_req_tag;
    r_c0 <= s_rel_cells;
    // the scan visits PG (clock mod N), clock 0 being the first edge after reset
    sv0 <= !rst;
    scan_cnt_reg <= scan_cnt_reg + 1'b1;
    if (rst) begin
        scan_cnt_reg <= 0;
    end
end

// the indices before their input registers: the memories register their own copies
wire [IW-1:0] a_i_in = {s_req_port[PI_W-1:0], s_req_pg[2:0]};
wire [IW-1:0] a_j_in = {s_req_eport[PI_W-1:0], s_req_queue[2:0]};
wire [IW-1:0] r_i_in = {s_rel_port[PI_W-1:0], s_rel_pg[2:0]};
wire [IW-1:0] r_j_in = {s_rel_eport[PI_W-1:0], s_rel_queue[2:0]};
// the input registers of the indices (kept, like every register that has copies: synthesis
// merges an unkept register into a kept copy with the same inputs)
(* keep *) always @(posedge clk) begin
    a_port0 <= s_req_port;
    a_pg0 <= s_req_pg;
    a_eport0 <= s_req_eport;
    a_q0 <= s_req_queue;
    r_port0 <= s_rel_port;
    r_pg0 <= s_rel_pg;
    r_eport0 <= s_rel_eport;
    r_q0 <= s_rel_queue;
    sc0 <= scan_cnt_reg;
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
(* mem2reg *) reg [W-1:0]  g_pool_reg [0:1];      // ingress shared sizes, lossless / lossy
reg [W-1:0]  g_hdrm_pool_reg;
(* mem2reg *) reg [W-1:0]  g_epool_reg [0:1];     // egress shared sizes

// the write registered with its decoded enables: a global field, a PG field (8) or a queue
// field (5) of index cw_a[4 +: IW]
reg          cw_g;
// (the address bits above the index, and queue fields 5 to 7, are decoded into the enables)
/* verilator lint_off UNUSEDSIGNAL */
reg [15:0]   cw_a;
reg [7:0]    cw_pgf, cw_qf;
/* verilator lint_on UNUSEDSIGNAL */
reg [31:0]   cw_d;
integer cf;
always @(posedge clk) begin
    cw_g <= cfg_wr_valid && !rst && cfg_wr_addr[15:5] == 11'd1;
    for (cf = 0; cf < 8; cf = cf + 1) begin
        cw_pgf[cf] <= cfg_wr_valid && !rst && cfg_wr_addr[15:13] == 3'd1 && cfg_wr_addr[3]
                      && cfg_wr_addr[2:0] == cf[2:0];
        cw_qf[cf] <= cfg_wr_valid && !rst && cfg_wr_addr[15:13] == 3'd2 && cfg_wr_addr[3]
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
            default: ;
        endcase
    end
end
// the configuration write's address and data (kept: it has copies)
(* keep *) always @(posedge clk) begin
    cw_a <= cfg_wr_addr;
    cw_d <= cfg_wr_data;
end


reg  [15:0] st_addr_reg;
// the status index as the memories register it
wire [IW-1:0] st_idx_in = stat_addr[4 +: IW];

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
    localparam FW = (PGC_W[f*5 +: 5] == 16) ? W : PGC_W[f*5 +: 5];
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
    for (gi = 0; gi < 2; gi = gi + 1) begin
        g_pool_reg[gi] = 0;
        g_epool_reg[gi] = 0;
    end
end

// ------------------------------------------------------------------------------ state RAMs
// PG state {class, res, shared, hdrm}: write ports release (0) / arrival (1) from the commit
// registers (one clock after the commit; the enables and indices given a clock early, as the
// commit register's inputs, WR_EARLY), read ports A, R, scan, stat
wire [4*PGE_W-1:0] pgs_rd;
// the C2 pair's enables and indices in a copy for each state RAM's write decode (kept apart:
// the C2 pair's registers fan out to every stage)
// (stored inverted: not merged with the C2 pair's own registers)
reg [1:0]    sw_pg_en_n, sw_q_en_n;
reg [2*IW-1:0] sw_pg_idx_n, sw_q_idx_n;
(* keep *) always @(posedge clk) begin
    sw_pg_en_n <= ~(rst ? 2'b00 : {dec_admit_reg, r_ok[8]});
    sw_q_en_n <= ~(rst ? 2'b00 : {dec_admit_reg, r_ok[8]});
    sw_pg_idx_n <= ~{a_i[8], r_i[8]};
    sw_q_idx_n <= ~{a_j[8], r_j[8]};
end
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(PGE_W), .WRITE_PORTS(2), .READ_PORTS(4),
            .OUT_REG(1), .WR_EARLY(1))
pg_state_inst (
    .clk(clk), .rst(rst),
    .wr_en(~sw_pg_en_n), .wr_addr(~sw_pg_idx_n), .wr_data(cm_pg_val_reg),
    .rd_addr({st_idx_in, scan_cnt_reg, r_i_in, a_i_in}), .rd_data(pgs_rd)
);
// queue state {class, res, shared}: read ports A, R, stat
wire [3*QE_W-1:0] qs_rd;
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
localparam PGW_W = 3 * W;
localparam QW_W = W + 1;
reg              wm_en_reg;
reg [IW-1:0]     wm_i_reg, wm_j_reg;
reg [PGW_W-1:0]  wm_pg_reg;
reg [QW_W-1:0]   wm_q_reg;
(* mem2reg *) reg              wmh_en_reg [1:2];
(* mem2reg *) reg [IW-1:0]     wmh_i_reg [1:2];
(* mem2reg *) reg [IW-1:0]     wmh_j_reg [1:2];
(* mem2reg *) reg [PGW_W-1:0]  wmh_pg_reg [1:2];
(* mem2reg *) reg [QW_W-1:0]   wmh_q_reg [1:2];
wire [2*PGW_W-1:0] pgw_rd;
wire [2*QW_W-1:0]  qw_rd;
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(PGW_W), .WRITE_PORTS(1), .READ_PORTS(2),
            .OUT_REG(1), .WR_EARLY(1))
pg_wm_inst (
    .clk(clk), .rst(rst),
    .wr_en(adm11), .wr_addr(a_i[11]), .wr_data(wm_pg_reg),
    .rd_addr({st_idx_in, a_i_in}), .rd_data(pgw_rd)
);
mmu_mpram #(.DEPTH(N), .ADDR_W(IW), .WIDTH(QW_W), .WRITE_PORTS(1), .READ_PORTS(2),
            .OUT_REG(1), .WR_EARLY(1))
q_wm_inst (
    .clk(clk), .rst(rst),
    .wr_en(adm11), .wr_addr(a_j[11]), .wr_data(wm_q_reg),
    .rd_addr({st_idx_in, a_j_in}), .rd_data(qw_rd)
);

// ------------------------------------------------------------------------------ pipeline
// per-pair fields carried stage by stage: index p = the stage whose register holds them
// (1 = written at E1 ... 12 = written at E12)
(* mem2reg *) reg            a_v [1:12];        // an arrival was accepted
(* mem2reg *) reg            a_ok [1:12];       // ... with a good length and good indices
(* mem2reg *) reg            a_badlen [1:12];
(* mem2reg *) reg            a_badidx [1:12];
(* mem2reg *) reg [IW-1:0]   a_i [1:12];
(* mem2reg *) reg [IW-1:0]   a_j [1:12];
(* mem2reg *) reg [TAG_W-1:0] a_tag [1:12];
(* mem2reg *) reg [W-1:0]    a_cells [2:12];
(* mem2reg *) reg            r_ok [1:12];
(* mem2reg *) reg [IW-1:0]   r_i [1:12];
(* mem2reg *) reg [IW-1:0]   r_j [1:12];
(* mem2reg *) reg [W-1:0]    r_c [1:12];
(* mem2reg *) reg [IW-1:0]   sc [1:12];
(* mem2reg *) reg            sv [1:12];
(* mem2reg *) reg [W-1:0]    gb [1:5];         // buffer cells of the pair's clock
(* mem2reg *) reg [W-1:0]    gp0 [1:5], gp1 [1:5], gh [1:5], ge0 [1:5], ge1 [1:5];
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
    sv[1] <= sv0;
    gb[1] <= g_buffer_reg;
    gp0[1] <= g_pool_reg[0];
    gp1[1] <= g_pool_reg[1];
    gh[1] <= g_hdrm_pool_reg;
    ge0[1] <= g_epool_reg[0];
    ge1[1] <= g_epool_reg[1];
    // stage 2: cells
    a_cells[2] <= a_badlen[1] ? {W{1'b0}} : quot1[W-1:0] + 1'b1;
    for (st = 2; st <= 12; st = st + 1) begin
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
        sv[st] <= sv[st-1];
    end
    for (st = 3; st <= 12; st = st + 1) begin
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
        for (st = 1; st <= 12; st = st + 1) begin
            a_v[st] <= 1'b0;
            a_ok[st] <= 1'b0;
            a_badlen[st] <= 1'b0;
            a_badidx[st] <= 1'b0;
            r_ok[st] <= 1'b0;
            sv[st] <= 1'b0;
        end
    end
end

// the decision register (DEC's output), read by earlier stages for their forwarding selects
reg          dec_valid_reg, dec_admit_reg, dec_class_reg, dec_qclass_reg;
// the pair in C2: its admit and classes (it is in the commit register a clock later)
reg          adm9, cls9, qcls9;
// the pair after C2 (in the commit register): its classes
reg          cls10, qcls10;
// the pair in EVAL1 (its watermark write is in the watermark register a clock later)
reg          adm11;

// ------------------------------------------------------------------------------ committed pools
(* mem2reg *) reg [W-1:0] pool_reg [0:1];
reg [W-1:0] hpool_reg;
reg [W-1:0] total_reg;
(* mem2reg *) reg [W-1:0] epool_reg [0:1];
initial begin
    for (gi = 0; gi < 2; gi = gi + 1) begin
        pool_reg[gi] = 0;
        epool_reg[gi] = 0;
    end
end

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
reg [W-1:0]     f_all3, f_pg3, f_q3;
reg             f_same1_pg3, f_same2_pg3, f_same3_pg3, f_same4_pg3;
reg             f_same1_q3, f_same2_q3, f_same3_q3, f_same4_q3;

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
reg [6:0] pA2, pR2, pS2, pqA2, pqR2;
// the picks' compares a stage early (stage 1, against the pairs then in stage 8, stage 9 and
// the commit register, which are in stage 9, the commit register and its first history
// register at stage 2), registered; stage 2 resolves their priority
function [5:0] match6;
    input [IW-1:0] idx;
    input [1:0] en6;
    input [2*IW-1:0] idx6;
    input [1:0] en7;
    input [2*IW-1:0] idx7;
    input [1:0] en8;
    input [2*IW-1:0] idx8;
    begin
        match6 = {en6[1] && idx6[IW +: IW] == idx, en6[0] && idx6[0 +: IW] == idx,
                  en7[1] && idx7[IW +: IW] == idx, en7[0] && idx7[0 +: IW] == idx,
                  en8[1] && idx8[IW +: IW] == idx, en8[0] && idx8[0 +: IW] == idx};
    end
endfunction
function [6:0] prio7;
    input [5:0] m;
    begin
        prio7[6] = m[5];
        prio7[5] = m[4] && !m[5];
        prio7[4] = m[3] && !(|m[5:4]);
        prio7[3] = m[2] && !(|m[5:3]);
        prio7[2] = m[1] && !(|m[5:2]);
        prio7[1] = m[0] && !(|m[5:1]);
        prio7[0] = !(|m);
    end
endfunction
reg [5:0] mA1, mR1, mS1, mqA1, mqR1;
// the compares' own copies of the three pairs' enables and indices, stored inverted (not
// merged with the pipeline's registers, which fan out to every stage): the pair in stage 8,
// in stage 9, in the commit register
reg [1:0]      mt6_en_n, mt7_en_n, mt8_en_n;
reg [2*IW-1:0] mt6_i_n, mt7_i_n, mt8_i_n, mt6_j_n, mt7_j_n, mt8_j_n;
(* keep *) always @(posedge clk) begin
    mt6_en_n <= ~(rst ? 2'b00 : {d_admit, r_ok[7]});
    mt7_en_n <= ~(rst ? 2'b00 : {dec_admit_reg, r_ok[8]});
    mt8_en_n <= ~(rst ? 2'b00 : {adm9, r_ok[9]});
    mt6_i_n <= ~{a_i[7], r_i[7]};
    mt7_i_n <= ~{a_i[8], r_i[8]};
    mt8_i_n <= ~{a_i[9], r_i[9]};
    mt6_j_n <= ~{a_j[7], r_j[7]};
    mt7_j_n <= ~{a_j[8], r_j[8]};
    mt8_j_n <= ~{a_j[9], r_j[9]};
end
wire [1:0] m_en6 = rst ? 2'b00 : ~mt6_en_n;
wire [1:0] m_en7 = rst ? 2'b00 : ~mt7_en_n;
wire [1:0] m_en8 = rst ? 2'b00 : ~mt8_en_n;
always @(posedge clk) begin
    mA1 <= match6(a_i0, m_en6, ~mt6_i_n, m_en7, ~mt7_i_n, m_en8, ~mt8_i_n);
    mR1 <= match6(r_i0, m_en6, ~mt6_i_n, m_en7, ~mt7_i_n, m_en8, ~mt8_i_n);
    mS1 <= match6(sc0, m_en6, ~mt6_i_n, m_en7, ~mt7_i_n, m_en8, ~mt8_i_n);
    mqA1 <= match6(a_j0, m_en6, ~mt6_j_n, m_en7, ~mt7_j_n, m_en8, ~mt8_j_n);
    mqR1 <= match6(r_j0, m_en6, ~mt6_j_n, m_en7, ~mt7_j_n, m_en8, ~mt8_j_n);
end
always @(posedge clk) begin
    // T step 1 (in stage 2) from the pools committed after pair k-10 (t_lag 10)
    free_i[0] <= $signed({2'b00, gp0[1]}) - $signed({2'b00, pool_reg[0]});
    free_i[1] <= $signed({2'b00, gp1[1]}) - $signed({2'b00, pool_reg[1]});
    free_e[0] <= $signed({2'b00, ge0[1]}) - $signed({2'b00, epool_reg[0]});
    free_e[1] <= $signed({2'b00, ge1[1]}) - $signed({2'b00, epool_reg[1]});
    pA2 <= prio7(mA1);
    pR2 <= prio7(mR1);
    pS2 <= prio7(mS1);
    pqA2 <= prio7(mqA1);
    pqR2 <= prio7(mqR1);
end

// the cells of the arrivals in flight, gated by a good length and index (pairs k-1 .. k-5 at
// stage 3; k-3 .. k-5 summed a stage earlier)
(* mem2reg *) reg [W-1:0] a_gc [3:7];
reg [W-1:0] f345_3;
reg [2:0] wp3, wq3;     // stage 3's watermark selects, newest first
integer sg;
always @(posedge clk) begin
    a_gc[3] <= a_ok[2] ? a_cells[2] : {W{1'b0}};
    for (sg = 4; sg <= 7; sg = sg + 1) begin
        a_gc[sg] <= a_gc[sg-1];
    end
    f345_3 <= add3w(a_gc[4], a_gc[5], a_gc[6]);
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
reg [W-1:0] f34_pg2, f34_q2;
always @(posedge clk) begin
    f3e_pg <= a_ok[3] && a_i[3] == a_i0;
    f4e_pg <= a_ok[4] && a_i[4] == a_i0;
    f3e_q <= a_ok[3] && a_j[3] == a_j0;
    f4e_q <= a_ok[4] && a_j[4] == a_j0;
    f34_pg2 <= (f3e_pg ? a_cells[4] : {W{1'b0}}) + (f4e_pg ? a_cells[5] : {W{1'b0}});
    f34_q2 <= (f3e_q ? a_cells[4] : {W{1'b0}}) + (f4e_q ? a_cells[5] : {W{1'b0}});
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
    f_all3 <= add3w(f1_cells, f2_cells, f345_3);
    f_pg3 <= add3w(f1_pg ? a_cells[3] : {W{1'b0}}, f2_pg ? a_cells[4] : {W{1'b0}}, f34_pg2);
    f_q3 <= add3w(f1_q ? a_cells[3] : {W{1'b0}}, f2_q ? a_cells[4] : {W{1'b0}}, f34_q2);
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
reg [W-1:0]         f_pg4, f_q4;
reg                 f_same1_pg4, f_same2_pg4, f_same3_pg4, f_same4_pg4;
reg                 f_same1_q4, f_same2_q4, f_same3_q4, f_same4_q4;
reg                 hp_none4;
always @(posedge clk) begin
    tA4[0] <= threshold(cA_dyn[3], cA_al[3], cA_st[3], vA3[0]);
    tA4[1] <= threshold(cA_dyn[3], cA_al[3], cA_st[3], vA3[1]);
    tQ4[0] <= threshold(cQ_dyn[3], cQ_al[3], cQ_st[3], vQ3[0]);
    tQ4[1] <= threshold(cQ_dyn[3], cQ_al[3], cQ_st[3], vQ3[1]);
    tR4 <= threshold(cR_dyn[3], cR_al[3], cR_st[3], vR3);
    tS4 <= threshold(cS_dyn[3], cS_al[3], cS_st[3], vS3);
    kr4 <= sx(cA_res[3]) - sx(f_pg3);
    kq4 <= sx(cQ_res[3]) - sx(f_q3);
    buf4 <= sx(gb[3]) - sx(f_all3);
    lh4 <= sx(cA_hl[3]) - sx(f_pg3);
    hp4 <= sx(gh[3]) - sx(f_all3);
    hp_none4 <= gh[3] == 0;
    sp4[0] <= sx(gp0[3]) - sx(f_all3);
    sp4[1] <= sx(gp1[3]) - sx(f_all3);
    se4[0] <= sx(ge0[3]) - sx(f_all3);
    se4[1] <= sx(ge1[3]) - sx(f_all3);
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
reg signed [SW-1:0] kR, k1, kG, kH1, kH2, kHP1, kHP2;
(* mem2reg *) reg signed [SW-1:0] kP1 [0:1], kP2 [0:1];
(* mem2reg *) reg signed [TW-1:0] kT [0:1], kTQ [0:1];
reg signed [SW-1:0] kQR, kQ1;
(* mem2reg *) reg signed [SW-1:0] kE1 [0:1], kE2 [0:1];
reg                 hp_none5;
reg signed [TW-1:0] tA5, tR5, tS5, xA5, xR5, xS5;
reg                 f_same1_pg5, f_same2_pg5, f_same3_pg5, f_same4_pg5;
reg                 f_same1_q5, f_same2_q5, f_same3_q5, f_same4_q5;
// forwarding selects: entry = the commit register's arrival bus (a) or release bus (r)
reg                 mA5_a, mA5_r, mR5_a, mR5_r, mS5_a, mS5_r, nA5_a, nA5_r, nR5_a, nR5_r;
reg                 emptyA5, emptyQ5;
// (only the arrival's entry's selects are needed here)
/* verilator lint_off UNUSEDSIGNAL */
wire [5:0] pa4 = pa[4];
wire [3:0] pq4 = pq[4];
/* verilator lint_on UNUSEDSIGNAL */
wire pa4_a = pa4[5], pa4_r = pa4[4], pq4_a = pq4[3], pq4_r = pq4[2];
wire eA4_zero = eA[4][3*W-1:0] == 0;    // the class bit does not count
wire qA4_zero = qA[4][2*W-1:0] == 0;
always @(posedge clk) begin : stage5
    reg signed [SW-1:0] cells;
    cells = sx(a_cells[4]);
    kR <= kr4;
    k1 <= kr4 - cells;
    kG <= buf4 - cells;
    kH1 <= lh4 - cells;
    kH2 <= lh4 + kr4 - cells;
    kHP1 <= hp4 - cells;
    kHP2 <= hp4 + kr4 - cells;
    hp_none5 <= hp_none4;
    kT[0] <= tA4[0] - tx(f_pg4);
    kT[1] <= tA4[1] - tx(f_pg4);
    kP1[0] <= sp4[0] - cells;
    kP1[1] <= sp4[1] - cells;
    kP2[0] <= sp4[0] + kr4 - cells;
    kP2[1] <= sp4[1] + kr4 - cells;
    kQR <= kq4;
    kQ1 <= kq4 - cells;
    kTQ[0] <= tQ4[0] - tx(f_q4);
    kTQ[1] <= tQ4[1] - tx(f_q4);
    kE1[0] <= se4[0] - cells;
    kE1[1] <= se4[1] - cells;
    kE2[0] <= se4[0] + kq4 - cells;
    kE2[1] <= se4[1] + kq4 - cells;
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
// registers.
wire [PGE_W-1:0] eA_d = sel_pg(mA5_a, mA5_r, cm_pg_val_reg, eA[5]);
wire [PGE_W-1:0] eR_d = sel_pg(mR5_a, mR5_r, cm_pg_val_reg, eR[5]);
wire [PGE_W-1:0] eS_d = sel_pg(mS5_a, mS5_r, cm_pg_val_reg, eS[5]);
wire [QE_W-1:0]  qA_d = sel_q(nA5_a, nA5_r, cm_q_val_reg, qA[5]);
wire [QE_W-1:0]  qR_d = sel_q(nR5_a, nR5_r, cm_q_val_reg, qR[5]);

// per candidate: {rem_all, rem_none, hdrm <= kH1, hdrm + res <= kH2, hpool + res <= kHP2,
// shared below T [1:0], pool + res <= kP2 [1:0]}; per queue candidate: {erem_all, erem_none,
// queue shared below T [1:0], epool + qres <= kE2 [1:0]}
localparam CP_W = 9;
localparam CQ_W = 6;
genvar pp, cs;
reg [3*CP_W-1:0] d1a_cp;
reg [3*CQ_W-1:0] d1a_cq;
generate
for (cs = 0; cs < 3; cs = cs + 1) begin : d_src
    // (the class bit is not compared)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [PGE_W-1:0] e = (cs == 0) ? cmd_pg_val_reg[PGE_W +: PGE_W]
                       : (cs == 1) ? cmd_pg_val_reg[0 +: PGE_W] : eA[5];
    wire [QE_W-1:0] q = (cs == 0) ? cmd_q_val_reg[QE_W +: QE_W]
                      : (cs == 1) ? cmd_q_val_reg[0 +: QE_W] : qA[5];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [W-1:0] hdrm = e[0 +: W], sh = e[W +: W], res = e[2*W +: W];
    wire [W-1:0] qsh = q[0 +: W], qres = q[W +: W];
    wire [1:0] sh_ok, p_mid, q_ok, e_mid;
    for (pp = 0; pp < 2; pp = pp + 1) begin : pool
        // every compare is its own term (no "c ? a <= b : a < b": Icarus 11 then compares
        // the words of a signed array unsigned)
        assign sh_ok[pp] = (tx(sh) < kT[pp]) || (FAULT_INJECT != 0 && tx(sh) == kT[pp]);
        assign p_mid[pp] = le2(sx(pool_reg[pp]), sx(res), kP2[pp]);
        assign q_ok[pp] = tx(qsh) < kTQ[pp];
        assign e_mid[pp] = le2(sx(epool_reg[pp]), sx(qres), kE2[pp]);
    end
    always @(posedge clk) begin
        d1a_cp[cs*CP_W +: CP_W] <= {sx(res) >= kR, sx(res) <= k1, sx(hdrm) <= kH1,
                                    le2(sx(hdrm), sx(res), kH2),
                                    le2(sx(hpool_reg), sx(res), kHP2), sh_ok, p_mid};
        d1a_cq[cs*CQ_W +: CQ_W] <= {sx(qres) >= kQR, sx(qres) <= kQ1, q_ok, e_mid};
    end
end
endgenerate

// the view's entries (committed after pair k-5), whether the arrival's is empty, which
// candidate the compares use; the compares of the global counters; DEC1b's forwarding selects
// (pair k-4 is in the commit register then) and release gates (pair k-1's release (m1 / n1)
// and this pair's (m2 / n2) on this pair's release (0) and arrival (1) PG / queue)
reg [PGE_W-1:0] v1A, v1R, v1S;
// their running sums (the commit register's own, or summed here)
reg [W+1:0]     v1A_hs, v1A_hsr, v1R_hs, v1R_hsr, v1A_qsr, v1R_qsr;
reg [QE_W-1:0]  v1Q, v1QR;
reg          v1_emptyA, v1_emptyQ, v1_a, v1_r, v1_qa, v1_qr;
reg          d1a_guard, d1a_hp1, d1a_hp_none;
reg  [1:0]   d1a_p_all, d1a_e_all;
reg signed [SW-1:0] k1_6, kR_6, kQ1_6, kQR_6;
reg signed [TW-1:0] tA6, tR6, tS6, xA6, xR6, xS6;
reg signed [TW-1:0] tmA6, tmR6, tmS6;    // T - 1
reg          mA6_a, mA6_r, mR6_a, mR6_r, mS6_a, mS6_r, nA6_a, nA6_r, nR6_a, nR6_r;
reg  [1:0]   p_m1, p_m2, p_n1, p_n2;
reg          f_same1_pg6, f_same2_pg6, f_same3_pg6, f_same4_pg6;
reg          f_same1_q6, f_same2_q6, f_same3_q6, f_same4_q6;
always @(posedge clk) begin
    v1A <= eA_d;
    v1R <= eR_d;
    v1S <= eS_d;
    v1Q <= qA_d;
    v1QR <= qR_d;
    v1A_hs <= mA5_a ? cm_pg_hs_reg[W+2 +: W+2] : mA5_r ? cm_pg_hs_reg[0 +: W+2] : hs_of(eA[5]);
    v1A_hsr <= mA5_a ? cm_pg_hsr_reg[W+2 +: W+2] : mA5_r ? cm_pg_hsr_reg[0 +: W+2]
               : hsr_of(eA[5]);
    v1R_hs <= mR5_a ? cm_pg_hs_reg[W+2 +: W+2] : mR5_r ? cm_pg_hs_reg[0 +: W+2] : hs_of(eR[5]);
    v1R_hsr <= mR5_a ? cm_pg_hsr_reg[W+2 +: W+2] : mR5_r ? cm_pg_hsr_reg[0 +: W+2]
               : hsr_of(eR[5]);
    v1A_qsr <= nA5_a ? cm_q_qsr_reg[W+2 +: W+2] : nA5_r ? cm_q_qsr_reg[0 +: W+2] : qsr_of(qA[5]);
    v1R_qsr <= nR5_a ? cm_q_qsr_reg[W+2 +: W+2] : nR5_r ? cm_q_qsr_reg[0 +: W+2] : qsr_of(qR[5]);
    // an arrival bus entry is never empty; a release bus entry says so itself
    v1_emptyA <= mA5_a ? 1'b0 : mA5_r ? cm_pg_empty_reg : emptyA5;
    v1_emptyQ <= nA5_a ? 1'b0 : nA5_r ? cm_q_empty_reg : emptyQ5;
    v1_a <= mA5_a;
    v1_r <= mA5_r;
    v1_qa <= nA5_a;
    v1_qr <= nA5_r;
    d1a_guard <= sx(total_reg) > kG;
    d1a_hp1 <= sx(hpool_reg) <= kHP1;
    d1a_hp_none <= hp_none5;
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
    xA6 <= lt_t(xA5, tx(cA_xon[5])) ? tx(cA_xon[5]) : xA5;
    xR6 <= lt_t(xR5, tx(cR_xon[5])) ? tx(cR_xon[5]) : xR5;
    xS6 <= lt_t(xS5, tx(cS_xon[5])) ? tx(cS_xon[5]) : xS5;
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
    p_m1[0] <= r_ok[6] && r_i[6] == r_i[5];
    p_m1[1] <= r_ok[6] && r_i[6] == a_i[5];
    p_m2[0] <= r_ok[5];
    p_m2[1] <= r_ok[5] && a_ok[5] && r_i[5] == a_i[5];
    p_n1[0] <= r_ok[6] && r_j[6] == r_j[5];
    p_n1[1] <= r_ok[6] && r_j[6] == a_j[5];
    p_n2[0] <= r_ok[5];
    p_n2[1] <= r_ok[5] && a_ok[5] && r_j[5] == a_j[5];
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
wire [CP_W-1:0] d_cp = v1_a ? d1a_cp[0 +: CP_W] : v1_r ? d1a_cp[CP_W +: CP_W]
                       : d1a_cp[2*CP_W +: CP_W];
wire [CQ_W-1:0] d_cq = v1_qa ? d1a_cq[0 +: CQ_W] : v1_qr ? d1a_cq[CQ_W +: CQ_W]
                       : d1a_cq[2*CQ_W +: CQ_W];
wire d_rem_all = d_cp[8], d_rem_none = d_cp[7], d_hd1 = d_cp[6], d_hd2 = d_cp[5];
wire d_hp2 = d_cp[4];
wire [1:0] d_sh_ok = d_cp[3:2], d_p_mid = d_cp[1:0];
wire d_erem_all = d_cq[5], d_erem_none = d_cq[4];
wire [1:0] d_q_ok = d_cq[3:2], d_e_mid = d_cq[1:0];
wire d_hdrm_ok = ((d_rem_all && d_hd1) || (!d_rem_all && d_hd2))
                 && (d1a_hp_none || (d_rem_all && d1a_hp1) || (!d_rem_all && d_hp2));
wire [1:0] d_shared_ok = d_sh_ok & (({2{d_rem_all}} & d1a_p_all) | ({2{!d_rem_all}} & d_p_mid));
wire [1:0] d_egress_ok = d_q_ok & (({2{d_erem_all}} & d1a_e_all) | ({2{!d_erem_all}} & d_e_mid));
// the admit's parts for either class combined per candidate first, selected last (the
// candidate select is the last LUT level): {ok_ly, ok_ll} and {eok_ly, eok_ll}
// (everything they read is an argument: a continuous assignment is re-evaluated on its
// arguments only, in Icarus)
function [1:0] ok_of;
    input [CP_W-1:0] cp;
    input guard, hp_none, hp1;
    input [1:0] p_all;
    reg ra;
    reg hok;
    reg [1:0] shok;
    begin
        ra = cp[8];
        hok = ((ra && cp[6]) || (!ra && cp[5])) && (hp_none || (ra && hp1) || (!ra && cp[4]));
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
wire [1:0] d_ok_a = ok_of(d1a_cp[0 +: CP_W], d1a_guard, d1a_hp_none, d1a_hp1, d1a_p_all);
wire [1:0] d_ok_r = ok_of(d1a_cp[CP_W +: CP_W], d1a_guard, d1a_hp_none, d1a_hp1, d1a_p_all);
wire [1:0] d_ok_x = ok_of(d1a_cp[2*CP_W +: CP_W], d1a_guard, d1a_hp_none, d1a_hp1, d1a_p_all);
wire [1:0] d_ok = v1_a ? d_ok_a : v1_r ? d_ok_r : d_ok_x;
wire [1:0] d_eok = v1_qa ? eok_of(d1a_cq[0 +: CQ_W], d1a_e_all)
                   : v1_qr ? eok_of(d1a_cq[CQ_W +: CQ_W], d1a_e_all)
                   : eok_of(d1a_cq[2*CQ_W +: CQ_W], d1a_e_all);
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
reg          d1_class_reg, d1_qclass_reg;
wire d_class = f_same1_pg6 ? d1_class_reg : f_same2_pg6 ? dec_class_reg : f_same3_pg6 ? cls9
               : f_same4_pg6 ? cls10 : v1_emptyA ? cA_ll[6] : v1A[3*W];
wire d_qclass = f_same1_q6 ? d1_qclass_reg : f_same2_q6 ? dec_qclass_reg : f_same3_q6 ? qcls9
                : f_same4_q6 ? qcls10 : v1_emptyQ ? cQ_ll[6] : v1Q[2*W];

reg          d1_rem_none, d1_erem_all, d1_erem_none, d1_rem_all, d1_guard, d1_hdrm_ok;
// the admit's ingress and egress parts for either class (DEC2 picks by the class)
reg          d1_ok_ll, d1_ok_ly, d1_eok_ll, d1_eok_ly;
// per pool (class): the shared segment can take the rest / the egress queue can take it
reg [1:0]    d1_shared_ok, d1_egress_ok;
reg [W-1:0]  d1_x, d1_room, d1_ex, d1_eroom;
reg [PGE_W-1:0] e1A, e1R, e1S;
reg [W+1:0]     e1A_hs, e1A_hsr, e1R_hs, e1R_hsr, q1A_qsr, q1R_qsr;
reg [QE_W-1:0]  q1A, q1R;
reg signed [TW-1:0] tA7, tR7, tS7, xA7, xR7, xS7;
// DEC2's forwarding selects (pair k-3 is in the commit register then)
reg          mA7_a, mA7_r, mR7_a, mR7_r, mS7_a, mS7_r, nA7_a, nA7_r, nR7_a, nR7_r;
// this pair's release and arrival name one PG / queue
reg          same_pg7, same_q7;
// ... and the released cells on each bus, gated: pair k-1's (c1) and this pair's (c2), and
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

// ------------------------------------------------------------------------------ DEC2
// the decision from DEC1's comparisons (models.mmu_pipe._decide order), the amounts; the
// entries brought up to pair k-3 and their running sums for COMMIT
wire [W-1:0] d2_cells = a_cells[7];
wire d2_pool = !d1_class_reg;     // pool index: 0 lossless, 1 lossy
wire d2_epool = !d1_qclass_reg;
wire d2_shared_ok = d1_shared_ok[d2_pool];
wire d2_hdrm_ok = d1_class_reg && d1_hdrm_ok;
wire d2_egress_ok = d1_egress_ok[d2_epool];
wire [W-1:0] d2_rem = d1_rem_all ? d2_cells : d1_rem_none ? {W{1'b0}} : d1_x;
wire [W-1:0] d2_to_res = d1_rem_all ? {W{1'b0}} : d1_rem_none ? d2_cells : d1_room;
wire [W-1:0] d2_erem = d1_erem_all ? d2_cells : d1_erem_none ? {W{1'b0}} : d1_ex;
wire [W-1:0] d2_eto_res = d1_erem_all ? {W{1'b0}} : d1_erem_none ? d2_cells : d1_eroom;
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
wire d_admit = a_ok[7] && (d1_class_reg ? d1_ok_ll : d1_ok_ly)
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
wire [3:0] dg_admit, dg_shared;
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
reg [2:0]    dec_reason_reg;
// the amounts as the view gives them, and whether the rest goes to shared; C1 and the
// response register apply the admit
reg [W-1:0]  dec_tr_reg, dec_etr_reg, dec_esh_reg, dec_rem_reg;
reg          dec_segsh_reg;
reg [PGE_W-1:0] e2A, e2R, e2S;
reg [QE_W-1:0]  q2A, q2R;
reg [W+1:0]  hsA8, hsrA8, hsR8, hsrR8, qsrA8, qsrR8;
reg signed [TW-1:0] tA8, tR8, tS8, xA8, xR8, xS8;
// C1's forwarding selects (pair k-2 is in the commit register then)
reg          mA8_a, mA8_r, mR8_a, mR8_r, mS8_a, mS8_r, nA8_a, nA8_r, nR8_a, nR8_r;
reg          c_same_pg;
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
wire [W-1:0] g_sh = (dec_admit_reg && dec_segsh_reg) ? dec_rem_reg : {W{1'b0}};
wire [W-1:0] g_hd = (dec_admit_reg && !dec_segsh_reg) ? dec_rem_reg : {W{1'b0}};
wire [W-1:0] g_cl = dec_admit_reg ? a_cells[8] : {W{1'b0}};
wire [W-1:0] g_etr = dec_admit_reg ? dec_etr_reg : {W{1'b0}};
wire [W-1:0] g_esh = dec_admit_reg ? dec_esh_reg : {W{1'b0}};

// the response: the amounts of an admitted frame (0 when dropped), registered
reg          resp_valid_reg, resp_admit_reg;
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
    wire r_lt = r_c2[XW-1], c_lt = c_c2[XW-1], rq_lt = rq_c2[XW-1], cq_lt = c_c2q[XW-1];
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
    wire [IW-1:0] i7 = pb ? a_i[7] : r_i[7];
    wire [IW-1:0] j7 = pb ? a_j[7] : r_j[7];
    (* keep *) always @(posedge clk) begin
        m_h <= {adm9 && a_i[9] == i7, r_ok[9] && r_i[9] == i7};
        m_s <= {adm9 && a_i[9] == i7, r_ok[9] && r_i[9] == i7};
        m_r <= {adm9 && a_i[9] == i7, r_ok[9] && r_i[9] == i7};
        m_hs <= {adm9 && a_i[9] == i7, r_ok[9] && r_i[9] == i7};
        m_hsr <= {adm9 && a_i[9] == i7, r_ok[9] && r_i[9] == i7};
        n_qs <= {adm9 && a_j[9] == j7, r_ok[9] && r_j[9] == j7};
        n_qr <= {adm9 && a_j[9] == j7, r_ok[9] && r_j[9] == j7};
        n_qsr <= {adm9 && a_j[9] == j7, r_ok[9] && r_j[9] == j7};
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
    wire [XW-1:0] a2h = gate(g2_h, dec_rem_reg), a2hs = gate(g2_a, dec_rem_reg);
    wire [XW-1:0] a2hsr = gate(g2_a, a_cells[8]), a2s = gate(g2_s, dec_rem_reg);
    wire [XW-1:0] a2r = gate(g2_a, dec_tr_reg);
    wire [XW-1:0] a2qs = gate(g2_q, dec_esh_reg), a2qsr = gate(g2_q, a_cells[8]);
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
// (the release's selects twice: the compares' and the values')
reg             uRc_a9, uRc_r9, vRc_a9, vRc_r9;
(* keep *) always @(posedge clk) begin
    uRc_a9 <= adm9 && a_i[9] == r_i[8];
    uRc_r9 <= r_ok[9] && r_i[9] == r_i[8];
    vRc_a9 <= adm9 && a_j[9] == r_j[8];
    vRc_r9 <= r_ok[9] && r_j[9] == r_j[8];
end
reg             uR_a9, uR_r9, uA_a9, uA_r9, uS_a9, uS_r9, vR_a9, vR_r9, vA_a9, vA_r9;
reg             same_pg9;
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
    if (rst) begin
        adm9 <= 1'b0;
    end
end
// C2's forwarding selects (kept: it has copies)
(* keep *) always @(posedge clk) begin
    uR_a9 <= adm9 && a_i[9] == r_i[8];
    uR_r9 <= r_ok[9] && r_i[9] == r_i[8];
    uA_a9 <= adm9 && a_i[9] == a_i[8];
    uA_r9 <= r_ok[9] && r_i[9] == a_i[8];
    uS_a9 <= adm9 && a_i[9] == sc[8];
    uS_r9 <= r_ok[9] && r_i[9] == sc[8];
    vR_a9 <= adm9 && a_j[9] == r_j[8];
    vR_r9 <= r_ok[9] && r_j[9] == r_j[8];
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
reg  c_rel10, c_chsr10, c_cqsr10;
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
// release and by the pool its PG / queue is charged to (0 lossless, 1 lossy); the admitted
// amounts gated by pool likewise: GLOBAL picks the amounts in front of its carry-save sums
// (in a copy per GLOBAL sum they select for: kept apart)
reg         c_ch10_h, c_ch10_s0, c_ch10_s1, c_chs10_s0, c_chs10_s1, c_cq10_0, c_cq10_1;
(* keep *) always @(posedge clk) begin
    c_ch10_h <= c_ch;
    c_ch10_s0 <= c_ch;
    c_ch10_s1 <= c_ch;
    c_chs10_s0 <= c_chs;
    c_chs10_s1 <= c_chs;
    c_cq10_0 <= c_cq;
    c_cq10_1 <= c_cq;
end
reg [W-1:0] c_rc10, c_uhsr10, c_uh10;
(* mem2reg *) reg [W-1:0] c_us10 [0:1], c_uch10 [0:1], c_rcq10 [0:1], c_uq10 [0:1];
reg [W-1:0] ga_c, ga_hd;
(* mem2reg *) reg [W-1:0] ga_sh [0:1], ga_esh [0:1];
integer gpi;
always @(posedge clk) begin
    c_rc10 <= c_rel ? r_c[9] : {W{1'b0}};
    c_uhsr10 <= c_rel ? uR_hsr[W-1:0] : {W{1'b0}};
    c_uh10 <= c_rel ? uR[0 +: W] : {W{1'b0}};
    for (gpi = 0; gpi < 2; gpi = gpi + 1) begin
        c_us10[gpi] <= (c_rel && c_rclass == (gpi == 0)) ? uR[W +: W] : {W{1'b0}};
        c_uch10[gpi] <= (c_rel && c_rclass == (gpi == 0)) ? c_c_h[W-1:0] : {W{1'b0}};
        c_rcq10[gpi] <= (c_rel && c_rqclass == (gpi == 0)) ? r_c[9] : {W{1'b0}};
        c_uq10[gpi] <= (c_rel && c_rqclass == (gpi == 0)) ? uQ[0 +: W] : {W{1'b0}};
        ga_sh[gpi] <= (cls9 == (gpi == 0)) ? g_sh9 : {W{1'b0}};
        ga_esh[gpi] <= (qcls9 == (gpi == 0)) ? g_esh9 : {W{1'b0}};
    end
    ga_c <= g_cl9;
    ga_hd <= g_hd9;
    if (rst) begin
        c_rc10 <= 0;
        c_uhsr10 <= 0;
        c_uh10 <= 0;
        for (gpi = 0; gpi < 2; gpi = gpi + 1) begin
            c_us10[gpi] <= 0;
            c_uch10[gpi] <= 0;
            c_rcq10[gpi] <= 0;
            c_uq10[gpi] <= 0;
            ga_sh[gpi] <= 0;
            ga_esh[gpi] <= 0;
        end
        ga_c <= 0;
        ga_hd <= 0;
    end
end
// what the release takes (0 without a release, or for the other pool)
wire [W-1:0] gr_t = c_chsr10 ? c_rc10 : c_uhsr10;
wire [W-1:0] gr_h = c_ch10_h ? c_rc10 : c_uh10;
wire [W-1:0] gr_s0 = c_ch10_s0 ? {W{1'b0}} : c_chs10_s0 ? c_uch10[0] : c_us10[0];
wire [W-1:0] gr_s1 = c_ch10_s1 ? {W{1'b0}} : c_chs10_s1 ? c_uch10[1] : c_us10[1];
wire [W-1:0] gr_es0 = c_cq10_0 ? c_rcq10[0] : c_uq10[0];
wire [W-1:0] gr_es1 = c_cq10_1 ? c_rcq10[1] : c_uq10[1];

reg [1:0]   err_flags_reg;
reg [31:0]  underflow_count_reg;
reg         underflow_reg;
reg [PGE_W-1:0] eA10, eS10;
reg [QE_W-1:0]  qA10;
reg signed [TW-1:0] tA10, tR10, tS10, xA10, xR10, xS10;
reg         adm10;
reg         same_pg10, eS10_a, eS10_r;
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
    underflow_reg <= c_underflow;
    if (underflow_reg) begin
        underflow_count_reg <= underflow_count_reg + 1'b1;
        err_flags_reg[0] <= 1'b1;
    end
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
        underflow_count_reg <= 0;
        underflow_reg <= 1'b0;
        err_flags_reg <= 2'b00;
        adm10 <= 1'b0;
    end
end
assign err_release_underflow = err_flags_reg[0];
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

// ------------------------------------------------------------------------------ GLOBAL
// total, pools and headroom pool: minus what the pair released, plus what it admitted
// (committed at E11, a clock after the entries)
/* verilator lint_off UNUSEDSIGNAL */
wire [XW-1:0] gt_n = add3(xz(total_reg), ~xz(gr_t), xz(ga_c), 1'b1);
wire [XW-1:0] gh_n = add3(xz(hpool_reg), ~xz(gr_h), xz(ga_hd), 1'b1);
wire [XW-1:0] gp_n0 = add3(xz(pool_reg[0]), ~xz(gr_s0), xz(ga_sh[0]), 1'b1);
wire [XW-1:0] gp_n1 = add3(xz(pool_reg[1]), ~xz(gr_s1), xz(ga_sh[1]), 1'b1);
wire [XW-1:0] ge_n0 = add3(xz(epool_reg[0]), ~xz(gr_es0), xz(ga_esh[0]), 1'b1);
wire [XW-1:0] ge_n1 = add3(xz(epool_reg[1]), ~xz(gr_es1), xz(ga_esh[1]), 1'b1);
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
// the decision's constants)
(* mem2reg *) reg [W-1:0] wc_pool [0:1];
(* mem2reg *) reg [W-1:0] wc_epool [0:1];
reg [W-1:0] wc_hpool, wc_total;
(* keep *) always @(posedge clk) begin
    wc_total <= rst ? {W{1'b0}} : gt_n[W-1:0];
    wc_hpool <= rst ? {W{1'b0}} : gh_n[W-1:0];
    wc_pool[0] <= rst ? {W{1'b0}} : gp_n0[W-1:0];
    wc_pool[1] <= rst ? {W{1'b0}} : gp_n1[W-1:0];
    wc_epool[0] <= rst ? {W{1'b0}} : ge_n0[W-1:0];
    wc_epool[1] <= rst ? {W{1'b0}} : ge_n1[W-1:0];
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
reg  [QE_W-1:0]  qA_e;
reg  [PGE_W-1:0] eA_e;
/* verilator lint_on UNUSEDSIGNAL */
reg             wsel11, wqsel11;
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
function [4:0] pfc_cmp;
    /* verilator lint_off UNUSEDSIGNAL */
    input [PGE_W-1:0] e;     // (the reserved count is unused)
    /* verilator lint_on UNUSEDSIGNAL */
    input [W-1:0] t;
    input [W-1:0] x;
    begin
        pfc_cmp = {e[3*W], e[W +: W] != 0, e[0 +: W] != 0, e[W +: W] >= t, e[W +: W] <= x};
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
reg [4:0] fR11, fA11, fS11;
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

reg [N-1:0] ev_hit_reg, ev_on_reg, ev_off_reg;
reg [N-1:0] xoff_reg;
reg [N-1:0] pfc_change_reg;
wire ev_onR = pfc_on(fR11, tR11);
wire ev_offR = pfc_off(fR11, xR11);
wire ev_onA = pfc_on(fA11, tA11);
wire ev_offA = pfc_off(fA11, xA11);
wire ev_onS = pfc_on(fS11, tS11);
wire ev_offS = pfc_off(fS11, xS11);
// the conditions and indices registered, then decoded to every PG a clock later
reg ev_onR_reg, ev_offR_reg, ev_onA_reg, ev_offA_reg, ev_onS_reg, ev_offS_reg;
always @(posedge clk) begin
    ev_onR_reg <= ev_onR;
    ev_offR_reg <= ev_offR;
    ev_onA_reg <= ev_onA;
    ev_offA_reg <= ev_offA;
    ev_onS_reg <= ev_onS;
    ev_offS_reg <= ev_offS;
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
end
integer xj;
always @(posedge clk) begin
    for (xj = 0; xj < N; xj = xj + 1) begin
        ev_hit_reg[xj] <= 1'b0;
        if (ev_sp_reg[xj / 8] && ev_sg_reg[xj % 8]) begin
            ev_hit_reg[xj] <= 1'b1;
            ev_on_reg[xj] <= ev_onS_reg;
            ev_off_reg[xj] <= ev_offS_reg;
        end
        if (ev_ap_reg[xj / 8] && ev_ag_reg[xj % 8]) begin
            ev_hit_reg[xj] <= 1'b1;
            ev_on_reg[xj] <= ev_onA_reg;
            ev_off_reg[xj] <= ev_offA_reg;
        end
        if (ev_rp_reg[xj / 8] && ev_rg_reg[xj % 8]) begin
            ev_hit_reg[xj] <= 1'b1;
            ev_on_reg[xj] <= ev_onR_reg;
            ev_off_reg[xj] <= ev_offR_reg;
        end
    end
    if (rst) begin
        ev_hit_reg <= {N{1'b0}};
    end
end

// ------------------------------------------------------------------------------ EVAL3
wire [N-1:0] xoff_next = (xoff_reg & ~(ev_hit_reg & ev_off_reg))
                         | (~xoff_reg & ev_hit_reg & ev_on_reg);
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
    wm_pg_reg <= {wmax(wsel11, w_r, wm_pg_reg[2*W +: W], wA[11][2*W +: W]),
                  wmax(wsel11, w_s, wm_pg_reg[W +: W], wA[11][W +: W]),
                  wmax(wsel11, w_h, wm_pg_reg[0 +: W], wA[11][0 +: W])};
    wm_q_reg <= wqsel11 ? (qocc_gt(qA_e, wm_q_reg) ? w_qocc : wm_q_reg)
                : (qocc_gt(qA_e, wQ[11]) ? w_qocc : wQ[11]);
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
(* mem2reg *) reg [W-1:0]  pool_wm_reg [0:1];
(* mem2reg *) reg [W-1:0]  epool_wm_reg [0:1];
reg [W-1:0]  hpool_wm_reg, total_wm_reg;
(* mem2reg *) reg [31:0]   drop_reg [0:7];
reg [7:0]    drop_hit_reg;
reg [31:0]   admitted_reg, bad_release_reg, arrivals_reg, releases_reg;
reg          r_v1, r_bad1;
integer ci;
always @(posedge clk) begin
    for (ci = 0; ci < 2; ci = ci + 1) begin
        if (wc_pool[ci] > pool_wm_reg[ci]) pool_wm_reg[ci] <= wc_pool[ci];
        if (wc_epool[ci] > epool_wm_reg[ci]) epool_wm_reg[ci] <= wc_epool[ci];
    end
    if (wc_hpool > hpool_wm_reg) hpool_wm_reg <= wc_hpool;
    if (wc_total > total_wm_reg) total_wm_reg <= wc_total;
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

// ------------------------------------------------------------------------------ config check
// the scan PG's and queue's configuration (RAM scan ports, data with sc[2]) against the
// rules of MmuConfig.validate(): flags at status 0x19, their OR at 0x0F bit 1 and
// err_bad_config (docs/mmu_core.md "Configuration flags")
wire [8:0] cfg_flags;
wire       cfg_bad;
mmu_cfg_check #(.PORT_COUNT(PORT_COUNT), .CELL_BYTES(CELL_BYTES), .CELL_W(CELL_W),
                .LEN_W(LEN_W), .FAULT_INJECT(CFG_FAULT_INJECT))
cfg_check_inst (
    .clk(clk), .rst(rst),
    .scan_valid(sv[2]), .scan_idx(sc[2]),
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
    .cfg_flags(cfg_flags), .err_bad_config(cfg_bad)
);
assign err_bad_config = cfg_bad;

// ------------------------------------------------------------------------------ status
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
wire [IW-1:0] st_i2 = st_addr2_reg[4 +: IW];
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
assign st_g_reg_src[1] = {{30'd0, err_flags_reg | {cfg_bad, 1'b0}}, bad_release_reg,
                           underflow_count_reg, admitted_reg, z32({1'b0, total_wm_reg}),
                           z32({1'b0, total_reg}),
                           z32({1'b0, epool_wm_reg[1]}), z32({1'b0, epool_reg[1]})};
assign st_g_reg_src[2] = {arrivals_reg, drop_reg[6], drop_reg[5], drop_reg[4], drop_reg[3],
                           drop_reg[2], drop_reg[1], drop_reg[0]};
assign st_g_reg_src[3] = {CELL_BYTES[31:0], PORT_COUNT[31:0], 128'd0, 23'd0, cfg_flags,
                           releases_reg};
assign st_g_reg_src[4] = {32'd0, z32({1'b0, g_epool_reg[1]}), z32({1'b0, g_epool_reg[0]}),
                           z32({1'b0, g_hdrm_pool_reg}), z32({1'b0, g_pool_reg[1]}),
                           z32({1'b0, g_pool_reg[0]}), g_max_frame_reg,
                           z32({1'b0, g_buffer_reg})};
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
        default: stat_data_reg <= 32'd0;
    endcase
end
// n+3: the PG's and the queue's sixteen fields (0 .. 7 the state, 8 .. 15 the configuration),
// the half the address's bit 3 names registered, by a copy of that bit per word (kept apart)
wire [8*32-1:0] st_p_lo = {{31'd0, pgs_rd[3*PGE_W + 3*W]}, {31'd0, xoff_reg[st_i2]},
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
genvar sh;
generate
for (sh = 0; sh < 8; sh = sh + 1) begin : st_half
    reg p_hi_sel, q_hi_sel;
    (* keep *) always @(posedge clk) begin
        p_hi_sel <= st_addr_reg[3];
        q_hi_sel <= st_addr_reg[3];
    end
    always @(posedge clk) begin
        st_p_reg[sh*32 +: 32] <= p_hi_sel ? pgc_rd[sh][96 +: 32] : st_p_lo[sh*32 +: 32];
        st_q_reg[sh*32 +: 32] <= q_hi_sel ? qc_rd[sh][32 +: 32] : st_q_lo[sh*32 +: 32];
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
