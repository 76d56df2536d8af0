/*
 * MMU admission core: ingress (port, PG) and egress (port, queue) cell accounting, Dynamic
 * Threshold, PFC Xoff / Xon.  Bit-identical to the golden model models/mmu.py (Mmu.step):
 * same integer arithmetic, same decision order, same release order, same XON-point clamp.
 *
 * Pipeline, PIPELINE = 0 (docs/mmu_core.md has the diagram; PIPELINE = 1, the multi-cycle
 * core of the 125 MHz FPGA builds, is described there and at g_multi below):
 *
 *   stage 1  (edge n)    register the arrival and the release; cells = ceil(len / CELL_BYTES)
 *                        by a constant reciprocal multiply; length and index checks
 *   stage 2  (edge n+1)  read the counters (registers), apply the release, then decide the
 *                        arrival on the post-release values, write everything back in the
 *                        same clock: a single-cycle read-modify-write, so back-to-back events
 *                        on one PG or queue need no stall and no forwarding across clocks
 *
 * m_resp_* of a request accepted at rising edge n is registered at edge n+1.
 *
 * PIPELINE = 1 (g_multi): one slot (the arrival and / or the release accepted together) at a
 * time, ready low while it is processed.  From acceptance at edge e0: release commit e6,
 * arrival commit and m_resp e8 (arrival alone) or e14 (after a release), pfc_xoff 3 clocks
 * after each commit, ready again the clock after the last commit: a slot costs 7 clocks
 * (release only), 9 (arrival only) or 15 (both).  (Was 7 / 8 / 14 with m_resp at e7 / e13:
 * the arrival gained stage A5 so its decision and the values it selects are a clock apart.)
 *
 * Response fields:
 *
 *   field          width   meaning
 *   m_resp_admit   1       1: admitted
 *   m_resp_reason  3       REASON_* of models/mmu.py (0 when admitted)
 *   m_resp_cells   CELL_W  ceil(len / CELL_BYTES); 0 for a bad length
 *   m_resp_res     CELL_W  cells placed in the PG's reserved segment
 *   m_resp_shared  CELL_W  cells placed in the shared segment
 *   m_resp_hdrm    CELL_W  cells placed in headroom
 *   m_resp_tag     TAG_W   s_req_tag of the request
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // priority groups per port (fixed by models/config.py)
    parameter PG_COUNT = 8,
    // egress queues per port (fixed by models/config.py)
    parameter QUEUE_COUNT = 8,
    // bytes per buffer cell, any positive value
    parameter CELL_BYTES = 256,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of the frame length in bytes
    parameter LEN_W = 14,
    // width of the request tag
    parameter TAG_W = 8,
    // width of port index fields (carries out-of-range values)
    parameter PORT_W = 8,
    // width of the PG index field
    parameter PG_W = 4,
    // width of the queue index field
    parameter Q_W = 4,
    // test only: 1 turns the "shared below T" check into "at or below T" (negative test)
    parameter FAULT_INJECT = 0,
    // 0: single-cycle read-modify-write, one arrival and one release per clock (DATA_WIDTH 64
    // switch); 1: multi-cycle sequencer, short paths for 125 MHz on ECP5, ready low while a
    // slot is processed (docs/mmu_core.md "PIPELINE = 1")
    parameter PIPELINE = 0
) (
    input  wire                              clk,
    input  wire                              rst,

    /*
     * Arrival requests
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
     * Admission responses
     */
    output wire                              m_resp_valid,
    output wire                              m_resp_admit,
    output wire [2:0]                        m_resp_reason,
    output wire [CELL_W-1:0]                 m_resp_cells,
    output wire [CELL_W-1:0]                 m_resp_res,
    output wire [CELL_W-1:0]                 m_resp_shared,
    output wire [CELL_W-1:0]                 m_resp_hdrm,
    output wire [TAG_W-1:0]                  m_resp_tag,

    /*
     * Releases
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
    output wire [PORT_COUNT*PG_COUNT-1:0]    pfc_xoff,
    output wire [PORT_COUNT*PG_COUNT-1:0]    pfc_change,

    /*
     * Configuration (MmuConfig.rtl_cfg(CELL_W), entry i at [i*W +: W], i = port*8 + pg/queue)
     */
    input  wire [CELL_W-1:0]                 cfg_buffer_cells,
    input  wire [31:0]                       cfg_max_frame_bytes,
    input  wire [2*CELL_W-1:0]               cfg_pool_shared,
    input  wire [CELL_W-1:0]                 cfg_hdrm_pool,
    input  wire [2*CELL_W-1:0]               cfg_egress_pool_shared,
    input  wire [PORT_COUNT*PG_COUNT-1:0]    cfg_pg_lossless,
    input  wire [PORT_COUNT*PG_COUNT*CELL_W-1:0] cfg_pg_reserved,
    input  wire [PORT_COUNT*PG_COUNT-1:0]    cfg_pg_dynamic,
    input  wire [PORT_COUNT*PG_COUNT*4-1:0]  cfg_pg_alpha_shift,
    input  wire [PORT_COUNT*PG_COUNT*CELL_W-1:0] cfg_pg_static_th,
    input  wire [PORT_COUNT*PG_COUNT*CELL_W-1:0] cfg_pg_headroom,
    input  wire [PORT_COUNT*PG_COUNT*CELL_W-1:0] cfg_pg_xon,
    input  wire [PORT_COUNT*PG_COUNT*CELL_W-1:0] cfg_pg_xon_offset,
    input  wire [PORT_COUNT*QUEUE_COUNT-1:0] cfg_q_lossless,
    input  wire [PORT_COUNT*QUEUE_COUNT*CELL_W-1:0] cfg_q_reserved,
    input  wire [PORT_COUNT*QUEUE_COUNT-1:0] cfg_q_dynamic,
    input  wire [PORT_COUNT*QUEUE_COUNT*4-1:0] cfg_q_alpha_shift,
    input  wire [PORT_COUNT*QUEUE_COUNT*CELL_W-1:0] cfg_q_static_th,

    /*
     * Status
     */
    input  wire [15:0]                       stat_addr,
    output wire [31:0]                       stat_data,
    output wire [7*32-1:0]                   stat_drop_count,
    output wire                              err_release_underflow,
    output wire                              err_bad_config
);

localparam PG_N = PORT_COUNT * PG_COUNT;
localparam Q_N = PORT_COUNT * QUEUE_COUNT;
localparam PI_W = $clog2(PORT_COUNT);
localparam PGI_W = PI_W + 3;
localparam QI_W = PI_W + 3;
// signed width of thresholds: (size - used) needs CELL_W+1 bits, alpha_shift up to 7 left
// (a bad config still computes what the model computes), plus headroom for T - xon_offset
localparam TW = CELL_W + 10;

// cells = floor((len - 1) * RECIP_MUL / 2^RECIP_SHIFT) + 1 = ceil(len / CELL_BYTES) for
// 1 <= len < 2^LEN_W: with RECIP_MUL = ceil(2^S / C) and e = RECIP_MUL*C - 2^S < C, the error
// term x*e / (C*2^S) stays below 1/C while x*e < 2^S, true for x < 2^LEN_W when
// S = LEN_W + clog2(C) (docs/mmu_core.md; checked exhaustively by tb/mmu_core)
localparam CB_W = $clog2(CELL_BYTES);
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

localparam [2:0] REASON_NONE = 3'd0;
localparam [2:0] REASON_BAD_LEN = 3'd1;
localparam [2:0] REASON_BAD_INDEX = 3'd2;
localparam [2:0] REASON_BUFFER_FULL = 3'd3;
localparam [2:0] REASON_INGRESS_LOSSY = 3'd4;
localparam [2:0] REASON_HEADROOM_FULL = 3'd5;
localparam [2:0] REASON_EGRESS = 3'd6;

initial begin
    if (PG_COUNT != 8 || QUEUE_COUNT != 8) begin
        $error("Error: PG_COUNT and QUEUE_COUNT must be 8 (models/config.py) (instance %m)");
        $finish;
    end
    if (PORT_COUNT < 2 || PORT_COUNT > 64) begin
        $error("Error: PORT_COUNT must be 2..64 (stat map) (instance %m)");
        $finish;
    end
    if ((1 << PORT_W) <= PORT_COUNT || PG_W < 3 || Q_W < 3) begin
        $error("Error: PORT_W / PG_W / Q_W too narrow (instance %m)");
        $finish;
    end
    if (CELL_BYTES < 1 || LEN_W < 2 || LEN_W > 24 || CELL_W < 4 || CELL_W > 22) begin
        $error("Error: CELL_BYTES, LEN_W or CELL_W out of range (instance %m)");
        $finish;
    end
    if (((1 << LEN_W) - 2) / CELL_BYTES + 1 >= (1 << CELL_W)) begin
        $error("Error: the cells of the longest frame do not fit CELL_W (instance %m)");
        $finish;
    end
    if (PIPELINE != 0 && PIPELINE != 1) begin
        $error("Error: PIPELINE must be 0 or 1 (instance %m)");
        $finish;
    end
    if (RECIP_MUL64 >= (64'd1 << RM_W)) begin
        $error("Error: reciprocal does not fit RM_W (instance %m)");
        $finish;
    end
end

// ------------------------------------------------------------------------------ functions
function [CELL_W-1:0] min_cells;
    input [CELL_W-1:0] a;
    input [CELL_W-1:0] b;
    begin
        min_cells = (a < b) ? a : b;
    end
endfunction

// alpha * v, alpha = 2^n with n a 4-bit two's-complement value: left for n >= 0, arithmetic
// (flooring, as Python's >>) right shift for n < 0
function signed [TW-1:0] alpha_mul;
    input signed [TW-1:0] v;
    input [3:0] n;
    begin
        if (!n[3]) begin
            alpha_mul = v <<< n[2:0];
        end else begin
            alpha_mul = v >>> (~n + 4'd1);
        end
    end
endfunction

// T of a PG or queue: alpha * (pool shared size - pool shared used), or the static threshold
function signed [TW-1:0] threshold;
    input dynamic;
    input [3:0] alpha;
    input [CELL_W-1:0] static_th;
    input [CELL_W-1:0] pool_size;
    input [CELL_W-1:0] pool_used;
    reg signed [TW-1:0] diff;
    begin
        diff = $signed({{(TW-CELL_W){1'b0}}, pool_size}) - $signed({{(TW-CELL_W){1'b0}}, pool_used});
        if (dynamic) begin
            threshold = alpha_mul(diff, alpha);
        end else begin
            threshold = $signed({{(TW-CELL_W){1'b0}}, static_th});
        end
    end
endfunction

function signed [TW-1:0] sext_cells;
    input [CELL_W-1:0] v;
    begin
        sext_cells = $signed({{(TW-CELL_W){1'b0}}, v});
    end
endfunction

// next Xoff state of a PG (Mmu._pfc_eval): XOFF on headroom use or 0 < shared >= T; XON once
// headroom is empty and shared is 0 or <= min(max(xon, T - xon_offset), T - 1)
function pfc_eval;
    input lossless;
    input xoff;
    input [CELL_W-1:0] hdrm;
    input [CELL_W-1:0] shared;
    input signed [TW-1:0] t;
    input [CELL_W-1:0] xon;
    input [CELL_W-1:0] xon_offset;
    reg signed [TW-1:0] point;
    begin
        point = t - sext_cells(xon_offset);
        if (sext_cells(xon) > point) begin
            point = sext_cells(xon);
        end
        if (point > t - 1) begin
            point = t - 1;
        end
        // an empty PG (no shared, no headroom) is never left paused, even at T = 0
        if (!lossless) begin
            pfc_eval = xoff;
        end else if (!xoff) begin
            pfc_eval = (hdrm != 0) || ((shared != 0) && (sext_cells(shared) >= t));
        end else begin
            pfc_eval = !((hdrm == 0) && ((shared == 0) || (sext_cells(shared) <= point)));
        end
    end
endfunction

// Compares as the sign of one subtraction a bit wider than the operands: a single carry chain.
// (Yosys builds a signed "<=" as "<" or "==", an equality LUT tree behind the chain, and a
// compare against a constant as a LUT tree; the sign of a difference stays one chain.)
// sle / slt: signed TW-bit a <= b, a < b; ugt: unsigned (CELL_W+1)-bit a > b
function sle;
    input signed [TW-1:0] a;
    input signed [TW-1:0] b;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [TW:0] d;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        d = {b[TW-1], b} - {a[TW-1], a};
        sle = !d[TW];
    end
endfunction
function slt;
    input signed [TW-1:0] a;
    input signed [TW-1:0] b;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [TW:0] d;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        d = {a[TW-1], a} - {b[TW-1], b};
        slt = d[TW];
    end
endfunction
function ugt;
    input [CELL_W:0] a;
    input [CELL_W:0] b;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [CELL_W+1:0] d;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        d = {1'b0, b} - {1'b0, a};
        ugt = d[CELL_W+1];
    end
endfunction

// "shared below T" (the FAULT_INJECT build breaks this one on purpose)
function below_t;
    input [CELL_W-1:0] occ;
    input signed [TW-1:0] t;
    begin
        if (FAULT_INJECT != 0) begin
            below_t = sle(sext_cells(occ), t);
        end else begin
            below_t = slt(sext_cells(occ), t);
        end
    end
endfunction

// ------------------------------------------------------------------------------ stage 1
// cells = ceil(len / CELL_BYTES) = len_quot(len) + 1 for a good length, 0 for a bad one
function [LEN_W-1:0] len_quot;
    input [LEN_W-1:0] len;
    reg [LEN_W-1:0]  m1;
    // the low RECIP_SHIFT bits of the product are the fraction of len/CELL_BYTES, unused by design
    /* verilator lint_off UNUSEDSIGNAL */
    reg [PROD_W-1:0] prod;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        m1 = len - 1'b1;
        prod = {{(PROD_W-LEN_W){1'b0}}, m1} * {{(PROD_W-RM_W){1'b0}}, RECIP_MUL};
        len_quot = prod[RECIP_SHIFT +: LEN_W];
    end
endfunction
// len == 0 or len > max_bytes (the compare as the sign of max_bytes - len: one carry chain)
function len_bad;
    input [LEN_W-1:0] len;
    input [31:0]      max_bytes;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [32:0]        d;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        d = {1'b0, max_bytes} - {{(33-LEN_W){1'b0}}, len};
        len_bad = (len == 0) || d[32];
    end
endfunction
function [CELL_W-1:0] len_cells;
    input [LEN_W-1:0] quot;
    input             bad;
    begin
        len_cells = bad ? {CELL_W{1'b0}}
                    : ({{(CELL_W-LEN_W > 0 ? CELL_W-LEN_W : 1){1'b0}}, quot} + 1'b1);
    end
endfunction
function index_bad;
    input [PORT_W-1:0] port;
    input [PG_W-1:0] pg;
    input [PORT_W-1:0] eport;
    input [Q_W-1:0] queue;
    begin
        index_bad = ({{(32-PORT_W){1'b0}}, port} >= PORT_COUNT)
                    || ({{(32-PG_W){1'b0}}, pg} >= PG_COUNT)
                    || ({{(32-PORT_W){1'b0}}, eport} >= PORT_COUNT)
                    || ({{(32-Q_W){1'b0}}, queue} >= QUEUE_COUNT);
    end
endfunction
wire              req_bad_index = index_bad(s_req_port, s_req_pg, s_req_eport, s_req_queue);
wire              rel_bad_index = index_bad(s_rel_port, s_rel_pg, s_rel_eport, s_rel_queue);

reg               a_valid_reg;
reg               a_bad_len_reg;
reg               a_bad_index_reg;
reg [PGI_W-1:0]   a_pg_reg;
reg [QI_W-1:0]    a_q_reg;
reg [CELL_W-1:0]  a_cells_reg;
reg [TAG_W-1:0]   a_tag_reg;
reg               r_valid_reg;
reg               r_bad_index_reg;
reg [PGI_W-1:0]   r_pg_reg;
reg [QI_W-1:0]    r_q_reg;
reg [CELL_W-1:0]  r_cells_reg;

// ------------------------------------------------------------------------------ state
// counter arrays: entry i at [i*W +: W]; written by index in the clocked block (RAM style),
// at most one release entry and one arrival entry per clock
reg [PG_N*CELL_W-1:0]     pg_res_reg;
reg [PG_N*CELL_W-1:0]     pg_shared_reg;
reg [PG_N*CELL_W-1:0]     pg_hdrm_reg;
reg [PG_N*CELL_W-1:0]     pg_res_wm_reg;
reg [PG_N*CELL_W-1:0]     pg_shared_wm_reg;
reg [PG_N*CELL_W-1:0]     pg_hdrm_wm_reg;
reg [Q_N*CELL_W-1:0]      q_res_reg;
reg [Q_N*CELL_W-1:0]      q_shared_reg;
// queue occupancy res + shared can exceed CELL_W when releases name another queue
reg [Q_N*(CELL_W+1)-1:0]  q_wm_reg;

reg [PG_N-1:0]            xoff_reg;
reg [PG_N-1:0]            pfc_change_reg;
reg [2*CELL_W-1:0]        pool_used_reg;
reg [2*CELL_W-1:0]        pool_wm_reg;
reg [CELL_W-1:0]          hdrm_used_reg;
reg [CELL_W-1:0]          hdrm_wm_reg;
reg [CELL_W-1:0]          total_used_reg;
reg [CELL_W-1:0]          total_wm_reg;
reg [2*CELL_W-1:0]        egress_used_reg;
reg [2*CELL_W-1:0]        egress_wm_reg;
reg [7*32-1:0]            drop_count_reg;
reg [31:0]                admit_count_reg;
reg [31:0]                arrival_count_reg;
reg [31:0]                release_count_reg;
reg [31:0]                underflow_count_reg;
reg [31:0]                rel_bad_index_count_reg;
reg                       err_underflow_reg;
reg                       err_bad_config_reg;

reg                       resp_valid_reg;
reg                       resp_admit_reg;
reg [2:0]                 resp_reason_reg;
reg [CELL_W-1:0]          resp_cells_reg;
reg [CELL_W-1:0]          resp_res_reg;
reg [CELL_W-1:0]          resp_shared_reg;
reg [CELL_W-1:0]          resp_hdrm_reg;
reg [TAG_W-1:0]           resp_tag_reg;

reg [31:0]                stat_data_reg, stat_data_next;

wire in_ready;
assign s_req_ready = in_ready;
assign s_rel_ready = in_ready;
assign m_resp_valid = resp_valid_reg;
assign m_resp_admit = resp_admit_reg;
assign m_resp_reason = resp_reason_reg;
assign m_resp_cells = resp_cells_reg;
assign m_resp_res = resp_res_reg;
assign m_resp_shared = resp_shared_reg;
assign m_resp_hdrm = resp_hdrm_reg;
assign m_resp_tag = resp_tag_reg;
assign pfc_xoff = xoff_reg;
assign pfc_change = pfc_change_reg;
assign stat_data = stat_data_reg;
assign stat_drop_count = drop_count_reg;
assign err_release_underflow = err_underflow_reg;
assign err_bad_config = err_bad_config_reg;

// ------------------------------------------------------------------------------ bad config
reg cfg_bad_alpha;
reg cfg_lossy_headroom;
wire cfg_bad_max_frame = (cfg_max_frame_bytes >> LEN_W) != 0;
integer c;
always @* begin
    cfg_bad_alpha = 1'b0;
    cfg_lossy_headroom = 1'b0;
    for (c = 0; c < PG_N; c = c + 1) begin
        // 4-bit two's complement: 4..7 and -8 are outside -7..3
        if ((!cfg_pg_alpha_shift[c*4+3] && cfg_pg_alpha_shift[c*4+2])
                || cfg_pg_alpha_shift[c*4 +: 4] == 4'b1000) begin
            cfg_bad_alpha = 1'b1;
        end
        if (!cfg_pg_lossless[c] && cfg_pg_headroom[c*CELL_W +: CELL_W] != 0) begin
            cfg_lossy_headroom = 1'b1;
        end
    end
    for (c = 0; c < Q_N; c = c + 1) begin
        if ((!cfg_q_alpha_shift[c*4+3] && cfg_q_alpha_shift[c*4+2])
                || cfg_q_alpha_shift[c*4 +: 4] == 4'b1000) begin
            cfg_bad_alpha = 1'b1;
        end
    end
end
wire [2:0] cfg_bad = {cfg_lossy_headroom, cfg_bad_max_frame, cfg_bad_alpha};

// one subtract each way, the sign picks: take = min(want, have), left = want - take,
// keep = have - take
function [3*CELL_W-1:0] take_cells;
    input [CELL_W-1:0] want;
    input [CELL_W-1:0] have;
    reg [CELL_W:0] hw;
    reg [CELL_W-1:0] wh;
    begin
        hw = {1'b0, have} - {1'b0, want};
        wh = want - have;
        if (!hw[CELL_W]) begin
            take_cells = {want, {CELL_W{1'b0}}, hw[CELL_W-1:0]};
        end else begin
            take_cells = {have, wh[CELL_W-1:0], {CELL_W{1'b0}}};
        end
    end
endfunction

generate
if (PIPELINE == 0) begin : g_single
    // ==========================================================================================
    // PIPELINE = 0: stage 2 is a single-cycle read-modify-write (header comment)
    // ==========================================================================================
    assign in_ready = 1'b1;
    wire                      req_bad_len = len_bad(s_req_len, cfg_max_frame_bytes);
    wire [CELL_W-1:0]         req_cells = len_cells(len_quot(s_req_len), req_bad_len);
    reg [PG_N-1:0]            xoff_next;
    reg [PG_N-1:0]            pfc_change_next;
    reg [2*CELL_W-1:0]        pool_used_next;
    reg [2*CELL_W-1:0]        pool_wm_next;
    reg [CELL_W-1:0]          hdrm_used_next;
    reg [CELL_W-1:0]          hdrm_wm_next;
    reg [CELL_W-1:0]          total_used_next;
    reg [CELL_W-1:0]          total_wm_next;
    reg [2*CELL_W-1:0]        egress_used_next;
    reg [2*CELL_W-1:0]        egress_wm_next;
    reg [7*32-1:0]            drop_count_next;
    reg [31:0]                admit_count_next;
    reg [31:0]                arrival_count_next;
    reg [31:0]                release_count_next;
    reg [31:0]                underflow_count_next;
    reg [31:0]                rel_bad_index_count_next;
    reg                       err_underflow_next;
    reg                       err_bad_config_next;
    reg                       resp_valid_next;
    reg                       resp_admit_next;
    reg [2:0]                 resp_reason_next;
    reg [CELL_W-1:0]          resp_cells_next;
    reg [CELL_W-1:0]          resp_res_next;
    reg [CELL_W-1:0]          resp_shared_next;
    reg [CELL_W-1:0]          resp_hdrm_next;
    reg [TAG_W-1:0]           resp_tag_next;

    // ------------------------------------------------------------------------------ stage 2
    // release (r_*), applied first
    reg                rel_act;
    reg                r_pool, r_epool;
    reg [CELL_W-1:0]   r_h0, r_s0, r_r0, r_qs0, r_qr0;
    reg [CELL_W-1:0]   r_from_h, r_from_s, r_from_r, r_from_es, r_from_er;
    reg [CELL_W-1:0]   r_left, r_eleft;
    reg                r_underflow;
    reg [CELL_W-1:0]   rel_res_new, rel_shared_new, rel_hdrm_new, rel_q_res_new, rel_q_shared_new;
    reg signed [TW-1:0] r_t;
    reg                r_xoff_new;
    // post-release pool state
    reg [2*CELL_W-1:0] pool_pr, egress_pr;
    reg [CELL_W-1:0]   hdrm_pr, total_pr;
    reg [PG_N-1:0]     xoff_pr;
    // arrival (a_*), decided on the post-release state
    reg                a_act, a_fwd, a_qfwd, a_lossless, a_pool, a_epool, a_admit;
    reg [2:0]          a_reason;
    reg [CELL_W-1:0]   a_r0, a_s0, a_h0, a_qr0, a_qs0;
    reg [CELL_W-1:0]   a_reserved, a_q_reserved;
    reg [CELL_W-1:0]   a_to_res, a_rem, a_eto_res, a_erem;
    reg                a_seg_shared, a_seg_hdrm;
    reg signed [TW-1:0] a_t, a_qt, a_t_post;
    reg [CELL_W-1:0]   a_pool_size, a_pool_pr, a_epool_size, a_epool_pr;
    reg [CELL_W-1:0]   arr_res_new, arr_shared_new, arr_hdrm_new, arr_q_res_new, arr_q_shared_new;
    reg [CELL_W-1:0]   arr_res_wm_new, arr_shared_wm_new, arr_hdrm_wm_new;
    reg [CELL_W:0]     a_q_occ, arr_q_wm_new;
    reg [CELL_W-1:0]   wm_old;
    reg [CELL_W:0]     q_wm_old;
    reg                a_xoff_new;
    reg [CELL_W-1:0]   a_pool_new, a_hdrm_new_total;
    reg                a_guard;

    always @* begin
        // ---- release
        rel_act = r_valid_reg && !r_bad_index_reg;
        r_pool = !cfg_pg_lossless[r_pg_reg];
        r_epool = !cfg_q_lossless[r_q_reg];
        r_h0 = pg_hdrm_reg[r_pg_reg*CELL_W +: CELL_W];
        r_s0 = pg_shared_reg[r_pg_reg*CELL_W +: CELL_W];
        r_r0 = pg_res_reg[r_pg_reg*CELL_W +: CELL_W];
        r_qs0 = q_shared_reg[r_q_reg*CELL_W +: CELL_W];
        r_qr0 = q_res_reg[r_q_reg*CELL_W +: CELL_W];
        // headroom first, then shared, then reserved (Mmu.release); egress shared, then reserved
        r_from_h = min_cells(r_cells_reg, r_h0);
        r_left = r_cells_reg - r_from_h;
        r_from_s = min_cells(r_left, r_s0);
        r_left = r_left - r_from_s;
        r_from_r = min_cells(r_left, r_r0);
        r_left = r_left - r_from_r;
        r_from_es = min_cells(r_cells_reg, r_qs0);
        r_eleft = r_cells_reg - r_from_es;
        r_from_er = min_cells(r_eleft, r_qr0);
        r_eleft = r_eleft - r_from_er;
        r_underflow = rel_act && (r_left != 0 || r_eleft != 0);
        rel_hdrm_new = r_h0 - r_from_h;
        rel_shared_new = r_s0 - r_from_s;
        rel_res_new = r_r0 - r_from_r;
        rel_q_shared_new = r_qs0 - r_from_es;
        rel_q_res_new = r_qr0 - r_from_er;

        pool_pr = pool_used_reg;
        egress_pr = egress_used_reg;
        hdrm_pr = hdrm_used_reg;
        total_pr = total_used_reg;
        if (rel_act) begin
            pool_pr[r_pool*CELL_W +: CELL_W] = pool_used_reg[r_pool*CELL_W +: CELL_W] - r_from_s;
            egress_pr[r_epool*CELL_W +: CELL_W] = egress_used_reg[r_epool*CELL_W +: CELL_W] - r_from_es;
            hdrm_pr = hdrm_used_reg - r_from_h;
            total_pr = total_used_reg - r_from_h - r_from_s - r_from_r;
        end
        r_t = threshold(cfg_pg_dynamic[r_pg_reg], cfg_pg_alpha_shift[r_pg_reg*4 +: 4],
                        cfg_pg_static_th[r_pg_reg*CELL_W +: CELL_W],
                        cfg_pool_shared[r_pool*CELL_W +: CELL_W], pool_pr[r_pool*CELL_W +: CELL_W]);
        r_xoff_new = pfc_eval(cfg_pg_lossless[r_pg_reg], xoff_reg[r_pg_reg], rel_hdrm_new,
                              rel_shared_new, r_t, cfg_pg_xon[r_pg_reg*CELL_W +: CELL_W],
                              cfg_pg_xon_offset[r_pg_reg*CELL_W +: CELL_W]);
        xoff_pr = xoff_reg;
        if (rel_act) begin
            xoff_pr[r_pg_reg] = r_xoff_new;
        end

        // ---- arrival, on the post-release values (forwarded when the release hit the same entry)
        a_act = a_valid_reg && !a_bad_len_reg && !a_bad_index_reg;
        a_fwd = rel_act && (r_pg_reg == a_pg_reg);
        a_qfwd = rel_act && (r_q_reg == a_q_reg);
        a_r0 = a_fwd ? rel_res_new : pg_res_reg[a_pg_reg*CELL_W +: CELL_W];
        a_s0 = a_fwd ? rel_shared_new : pg_shared_reg[a_pg_reg*CELL_W +: CELL_W];
        a_h0 = a_fwd ? rel_hdrm_new : pg_hdrm_reg[a_pg_reg*CELL_W +: CELL_W];
        a_qr0 = a_qfwd ? rel_q_res_new : q_res_reg[a_q_reg*CELL_W +: CELL_W];
        a_qs0 = a_qfwd ? rel_q_shared_new : q_shared_reg[a_q_reg*CELL_W +: CELL_W];
        a_lossless = cfg_pg_lossless[a_pg_reg];
        a_pool = !a_lossless;
        a_epool = !cfg_q_lossless[a_q_reg];
        a_pool_size = cfg_pool_shared[a_pool*CELL_W +: CELL_W];
        a_pool_pr = pool_pr[a_pool*CELL_W +: CELL_W];
        a_epool_size = cfg_egress_pool_shared[a_epool*CELL_W +: CELL_W];
        a_epool_pr = egress_pr[a_epool*CELL_W +: CELL_W];
        a_reserved = cfg_pg_reserved[a_pg_reg*CELL_W +: CELL_W];
        a_q_reserved = cfg_q_reserved[a_q_reg*CELL_W +: CELL_W];

        // reserved room (never negative: res only grows up to reserved)
        a_to_res = min_cells(a_cells_reg, (a_reserved > a_r0) ? a_reserved - a_r0 : {CELL_W{1'b0}});
        a_rem = a_cells_reg - a_to_res;
        a_t = threshold(cfg_pg_dynamic[a_pg_reg], cfg_pg_alpha_shift[a_pg_reg*4 +: 4],
                        cfg_pg_static_th[a_pg_reg*CELL_W +: CELL_W], a_pool_size, a_pool_pr);
        a_guard = ({1'b0, total_pr} + {1'b0, a_cells_reg}) > {1'b0, cfg_buffer_cells};
        a_seg_shared = 1'b0;
        a_seg_hdrm = 1'b0;
        a_reason = REASON_NONE;
        if (a_guard) begin
            a_reason = REASON_BUFFER_FULL;
        end else if (a_rem != 0) begin
            if (below_t(a_s0, a_t) && ({1'b0, a_pool_pr} + {1'b0, a_rem}) <= {1'b0, a_pool_size}) begin
                a_seg_shared = 1'b1;
            end else if (a_lossless && ({1'b0, a_h0} + {1'b0, a_rem})
                             <= {1'b0, cfg_pg_headroom[a_pg_reg*CELL_W +: CELL_W]}
                         && (cfg_hdrm_pool == 0
                             || ({1'b0, hdrm_pr} + {1'b0, a_rem}) <= {1'b0, cfg_hdrm_pool})) begin
                a_seg_hdrm = 1'b1;
            end else begin
                a_reason = a_lossless ? REASON_HEADROOM_FULL : REASON_INGRESS_LOSSY;
            end
        end
        a_eto_res = min_cells(a_cells_reg, (a_q_reserved > a_qr0) ? a_q_reserved - a_qr0 : {CELL_W{1'b0}});
        a_erem = a_cells_reg - a_eto_res;
        a_qt = threshold(cfg_q_dynamic[a_q_reg], cfg_q_alpha_shift[a_q_reg*4 +: 4],
                         cfg_q_static_th[a_q_reg*CELL_W +: CELL_W], a_epool_size, a_epool_pr);
        if (a_reason == REASON_NONE && a_erem != 0) begin
            if (!(below_t(a_qs0, a_qt)
                  && ({1'b0, a_epool_pr} + {1'b0, a_erem}) <= {1'b0, a_epool_size})) begin
                a_reason = REASON_EGRESS;
            end
        end
        if (a_bad_len_reg) begin
            a_reason = REASON_BAD_LEN;
        end else if (a_bad_index_reg) begin
            a_reason = REASON_BAD_INDEX;
        end
        a_admit = a_act && a_reason == REASON_NONE;

        // ---- commit values of the arrival
        arr_res_new = a_r0 + a_to_res;
        arr_shared_new = a_s0 + (a_seg_shared ? a_rem : {CELL_W{1'b0}});
        arr_hdrm_new = a_h0 + (a_seg_hdrm ? a_rem : {CELL_W{1'b0}});
        wm_old = pg_res_wm_reg[a_pg_reg*CELL_W +: CELL_W];
        arr_res_wm_new = (arr_res_new > wm_old) ? arr_res_new : wm_old;
        wm_old = pg_shared_wm_reg[a_pg_reg*CELL_W +: CELL_W];
        arr_shared_wm_new = (arr_shared_new > wm_old) ? arr_shared_new : wm_old;
        wm_old = pg_hdrm_wm_reg[a_pg_reg*CELL_W +: CELL_W];
        arr_hdrm_wm_new = (arr_hdrm_new > wm_old) ? arr_hdrm_new : wm_old;
        arr_q_res_new = a_qr0 + a_eto_res;
        arr_q_shared_new = a_qs0 + a_erem;
        a_q_occ = {1'b0, arr_q_res_new} + {1'b0, arr_q_shared_new};
        q_wm_old = q_wm_reg[a_q_reg*(CELL_W+1) +: CELL_W+1];
        arr_q_wm_new = (a_q_occ > q_wm_old) ? a_q_occ : q_wm_old;
        a_pool_new = a_pool_pr + (a_seg_shared ? a_rem : {CELL_W{1'b0}});
        a_hdrm_new_total = hdrm_pr + (a_seg_hdrm ? a_rem : {CELL_W{1'b0}});

        // ---- scalar next state
        pool_used_next = pool_pr;
        pool_wm_next = pool_wm_reg;
        hdrm_used_next = hdrm_pr;
        hdrm_wm_next = hdrm_wm_reg;
        total_used_next = total_pr;
        total_wm_next = total_wm_reg;
        egress_used_next = egress_pr;
        egress_wm_next = egress_wm_reg;
        if (a_admit) begin
            pool_used_next[a_pool*CELL_W +: CELL_W] = a_pool_new;
            if (a_pool_new > pool_wm_reg[a_pool*CELL_W +: CELL_W]) begin
                pool_wm_next[a_pool*CELL_W +: CELL_W] = a_pool_new;
            end
            hdrm_used_next = a_hdrm_new_total;
            if (a_hdrm_new_total > hdrm_wm_reg) begin
                hdrm_wm_next = a_hdrm_new_total;
            end
            total_used_next = total_pr + a_cells_reg;
            if (total_used_next > total_wm_reg) begin
                total_wm_next = total_used_next;
            end
            egress_used_next[a_epool*CELL_W +: CELL_W] = a_epool_pr + a_erem;
            if (a_epool_pr + a_erem > egress_wm_reg[a_epool*CELL_W +: CELL_W]) begin
                egress_wm_next[a_epool*CELL_W +: CELL_W] = a_epool_pr + a_erem;
            end
        end

        // ---- PFC of the arrival's PG, on the state after the arrival (or after the release
        // alone when the frame was dropped)
        a_t_post = threshold(cfg_pg_dynamic[a_pg_reg], cfg_pg_alpha_shift[a_pg_reg*4 +: 4],
                             cfg_pg_static_th[a_pg_reg*CELL_W +: CELL_W], a_pool_size,
                             pool_used_next[a_pool*CELL_W +: CELL_W]);
        a_xoff_new = pfc_eval(a_lossless, xoff_pr[a_pg_reg],
                              a_admit ? arr_hdrm_new : a_h0, a_admit ? arr_shared_new : a_s0,
                              a_t_post, cfg_pg_xon[a_pg_reg*CELL_W +: CELL_W],
                              cfg_pg_xon_offset[a_pg_reg*CELL_W +: CELL_W]);
        xoff_next = xoff_pr;
        if (a_act) begin
            xoff_next[a_pg_reg] = a_xoff_new;
        end
        pfc_change_next = xoff_next ^ xoff_reg;

        // ---- counters and flags
        drop_count_next = drop_count_reg;
        if (a_valid_reg && a_reason != REASON_NONE) begin
            drop_count_next[a_reason*32 +: 32] = drop_count_reg[a_reason*32 +: 32] + 1'b1;
        end
        admit_count_next = admit_count_reg + {31'd0, a_admit};
        arrival_count_next = arrival_count_reg + {31'd0, a_valid_reg};
        release_count_next = release_count_reg + {31'd0, r_valid_reg};
        underflow_count_next = underflow_count_reg + {31'd0, r_underflow};
        rel_bad_index_count_next = rel_bad_index_count_reg + {31'd0, r_valid_reg && r_bad_index_reg};
        err_underflow_next = err_underflow_reg || r_underflow;
        err_bad_config_next = err_bad_config_reg || (cfg_bad != 0);

        // ---- response
        resp_valid_next = a_valid_reg;
        resp_admit_next = a_admit;
        resp_reason_next = a_reason;
        resp_cells_next = a_cells_reg;
        resp_res_next = a_admit ? a_to_res : {CELL_W{1'b0}};
        resp_shared_next = (a_admit && a_seg_shared) ? a_rem : {CELL_W{1'b0}};
        resp_hdrm_next = (a_admit && a_seg_hdrm) ? a_rem : {CELL_W{1'b0}};
        resp_tag_next = a_tag_reg;
    end

    // ------------------------------------------------------------------------------ registers
    integer k;
    always @(posedge clk) begin
        // stage 1
        a_valid_reg <= s_req_valid;
        a_bad_len_reg <= req_bad_len;
        a_bad_index_reg <= req_bad_index;
        a_pg_reg <= {s_req_port[PI_W-1:0], s_req_pg[2:0]};
        a_q_reg <= {s_req_eport[PI_W-1:0], s_req_queue[2:0]};
        a_cells_reg <= req_cells;
        a_tag_reg <= s_req_tag;
        r_valid_reg <= s_rel_valid;
        r_bad_index_reg <= rel_bad_index;
        r_pg_reg <= {s_rel_port[PI_W-1:0], s_rel_pg[2:0]};
        r_q_reg <= {s_rel_eport[PI_W-1:0], s_rel_queue[2:0]};
        r_cells_reg <= s_rel_cells;

        // stage 2: per entry (constant selects, so each entry is a plain enabled register), the
        // arrival's value first: when the clock's release hit the same entry, the arrival's value
        // already includes it
        for (k = 0; k < PG_N; k = k + 1) begin
            if (a_admit && a_pg_reg == k[PGI_W-1:0]) begin
                pg_res_reg[k*CELL_W +: CELL_W] <= arr_res_new;
                pg_shared_reg[k*CELL_W +: CELL_W] <= arr_shared_new;
                pg_hdrm_reg[k*CELL_W +: CELL_W] <= arr_hdrm_new;
                pg_res_wm_reg[k*CELL_W +: CELL_W] <= arr_res_wm_new;
                pg_shared_wm_reg[k*CELL_W +: CELL_W] <= arr_shared_wm_new;
                pg_hdrm_wm_reg[k*CELL_W +: CELL_W] <= arr_hdrm_wm_new;
            end else if (rel_act && r_pg_reg == k[PGI_W-1:0]) begin
                pg_res_reg[k*CELL_W +: CELL_W] <= rel_res_new;
                pg_shared_reg[k*CELL_W +: CELL_W] <= rel_shared_new;
                pg_hdrm_reg[k*CELL_W +: CELL_W] <= rel_hdrm_new;
            end
        end
        for (k = 0; k < Q_N; k = k + 1) begin
            if (a_admit && a_q_reg == k[QI_W-1:0]) begin
                q_res_reg[k*CELL_W +: CELL_W] <= arr_q_res_new;
                q_shared_reg[k*CELL_W +: CELL_W] <= arr_q_shared_new;
                q_wm_reg[k*(CELL_W+1) +: CELL_W+1] <= arr_q_wm_new;
            end else if (rel_act && r_q_reg == k[QI_W-1:0]) begin
                q_res_reg[k*CELL_W +: CELL_W] <= rel_q_res_new;
                q_shared_reg[k*CELL_W +: CELL_W] <= rel_q_shared_new;
            end
        end

        xoff_reg <= xoff_next;
        pfc_change_reg <= pfc_change_next;
        pool_used_reg <= pool_used_next;
        pool_wm_reg <= pool_wm_next;
        hdrm_used_reg <= hdrm_used_next;
        hdrm_wm_reg <= hdrm_wm_next;
        total_used_reg <= total_used_next;
        total_wm_reg <= total_wm_next;
        egress_used_reg <= egress_used_next;
        egress_wm_reg <= egress_wm_next;
        drop_count_reg <= drop_count_next;
        admit_count_reg <= admit_count_next;
        arrival_count_reg <= arrival_count_next;
        release_count_reg <= release_count_next;
        underflow_count_reg <= underflow_count_next;
        rel_bad_index_count_reg <= rel_bad_index_count_next;
        err_underflow_reg <= err_underflow_next;
        err_bad_config_reg <= err_bad_config_next;

        resp_valid_reg <= resp_valid_next;
        resp_admit_reg <= resp_admit_next;
        resp_reason_reg <= resp_reason_next;
        resp_cells_reg <= resp_cells_next;
        resp_res_reg <= resp_res_next;
        resp_shared_reg <= resp_shared_next;
        resp_hdrm_reg <= resp_hdrm_next;
        resp_tag_reg <= resp_tag_next;


        if (rst) begin
            a_valid_reg <= 1'b0;
            r_valid_reg <= 1'b0;
            pg_res_reg <= {PG_N*CELL_W{1'b0}};
            pg_shared_reg <= {PG_N*CELL_W{1'b0}};
            pg_hdrm_reg <= {PG_N*CELL_W{1'b0}};
            pg_res_wm_reg <= {PG_N*CELL_W{1'b0}};
            pg_shared_wm_reg <= {PG_N*CELL_W{1'b0}};
            pg_hdrm_wm_reg <= {PG_N*CELL_W{1'b0}};
            q_res_reg <= {Q_N*CELL_W{1'b0}};
            q_shared_reg <= {Q_N*CELL_W{1'b0}};
            q_wm_reg <= {Q_N*(CELL_W+1){1'b0}};
            xoff_reg <= {PG_N{1'b0}};
            pfc_change_reg <= {PG_N{1'b0}};
            pool_used_reg <= {2*CELL_W{1'b0}};
            pool_wm_reg <= {2*CELL_W{1'b0}};
            hdrm_used_reg <= {CELL_W{1'b0}};
            hdrm_wm_reg <= {CELL_W{1'b0}};
            total_used_reg <= {CELL_W{1'b0}};
            total_wm_reg <= {CELL_W{1'b0}};
            egress_used_reg <= {2*CELL_W{1'b0}};
            egress_wm_reg <= {2*CELL_W{1'b0}};
            drop_count_reg <= {7*32{1'b0}};
            admit_count_reg <= 32'd0;
            arrival_count_reg <= 32'd0;
            release_count_reg <= 32'd0;
            underflow_count_reg <= 32'd0;
            rel_bad_index_count_reg <= 32'd0;
            err_underflow_reg <= 1'b0;
            err_bad_config_reg <= 1'b0;
            resp_valid_reg <= 1'b0;
        end
    end

end else begin : g_multi
    // ==========================================================================================
    // PIPELINE = 1: one slot (an arrival and / or a release, accepted together) at a time, in
    // the model's order: the release is read, computed over five clocks and committed, then
    // the arrival is read (seeing the release's counters), computed over seven clocks and
    // committed.  Every stage below is a short path (one carry chain, a mux plus a chain, or a
    // few LUTs of registered flags) so the core closes 125 MHz on ECP5: every compare is the
    // sign of one subtraction (sle / slt / ugt), a pool selected by the PG's or queue's
    // lossless bit is read a clock after that bit, the request length is registered before its
    // compare and divide, the arrival's decision (A4) is a clock ahead of the values it selects
    // and of the watermark updates (A5), and every watermark compare is a registered flag.
    // The stage registers are free running: the context (stage-1 registers) and the counters
    // they read are stable while a slot is processed, so the value in stage k is right k
    // clocks after the read; cnt_reg says when to commit.  The PFC evaluation of the committed
    // PG runs in a 3-clock tail after each commit; tails never overlap (a commit is at least 7
    // clocks after the previous one), so pfc_xoff changes in the model's order.  Clocks from
    // acceptance (edge e0): release commit e6, arrival commit and m_resp e8 (arrival only) or
    // e14 (both), pfc_xoff 3 clocks after a commit; s_*_ready high again the clock after the
    // last commit (docs/mmu_core.md).
    // ==========================================================================================
    localparam [3:0] CNT_REL = 4'd5;
    localparam [3:0] CNT_ARR_ALONE = 4'd7;
    localparam [3:0] CNT_ARR_AFTER = 4'd13;

    reg         busy_reg;
    reg [3:0]   cnt_reg;
    // the commit strobes and the entries they write are registers (decoded a clock ahead):
    // they fan out to every counter entry, so nothing but an AND sits in front of the enables
    reg         rel_commit_reg, arr_commit_reg;
    reg [PG_N-1:0] r_pg_oh_reg, a_pg_oh_reg;
    reg [Q_N-1:0]  r_q_oh_reg, a_q_oh_reg;
    // per entry: written at the next edge (release or admitted arrival: pg_we_reg / q_we_reg),
    // by the arrival (pg_awe_reg / q_awe_reg, for the watermarks), and which commit it is
    // (w_rel_reg selects the value buses): each entry's enable is its own register, so no
    // net reaches every counter (the shared commit AND fanned out to ~2,000 flip-flops)
    reg [PG_N-1:0] pg_we_reg, pg_awe_reg;
    reg [Q_N-1:0]  q_we_reg, q_awe_reg;
    reg            w_rel_reg;
    wire        rel_commit = rel_commit_reg;
    wire        arr_commit = arr_commit_reg;
    wire        slot_done = a_valid_reg ? arr_commit : rel_commit;
    wire        rel_act_m = r_valid_reg && !r_bad_index_reg;
    wire        arr_act_m = a_valid_reg && !a_bad_len_reg && !a_bad_index_reg;

    integer m;

    assign in_ready = !busy_reg;

    // ---------------------------------------------------------------- request length
    // the length is registered as it arrives (a_len_reg, edge e0); its check against
    // cfg_max_frame_bytes and the divide follow at e1, the cells at e2 (first used by A1, e3)
    reg [LEN_W-1:0]    a_len_reg, a_quot_reg;
    always @(posedge clk) begin
        a_bad_len_reg <= len_bad(a_len_reg, cfg_max_frame_bytes);
        a_quot_reg <= len_quot(a_len_reg);
        a_cells_reg <= len_cells(a_quot_reg, a_bad_len_reg);
    end

    // ---------------------------------------------------------------- release: R0 read
    reg [PORT_COUNT*3*CELL_W-1:0]     rc_pg;
    reg [PORT_COUNT*2*CELL_W-1:0]     rc_q;
    reg [PORT_COUNT*6*CELL_W-1:0]     ac_pg;
    reg [PORT_COUNT*(3*CELL_W+1)-1:0] ac_q;
    integer pp, pa;
    wire [31:0] r_pg_lo = {29'd0, r_pg_reg[2:0]};
    wire [31:0] r_q_lo = {29'd0, r_q_reg[2:0]};
    wire [31:0] a_pg_lo = {29'd0, a_pg_reg[2:0]};
    wire [31:0] a_q_lo = {29'd0, a_q_reg[2:0]};
    reg [CELL_W-1:0]   rq_h0, rq_s0, rq_r0, rq_qs0, rq_qr0;
    reg                rq_pool, rq_epool, rq_lossless, rq_dyn;
    reg [3:0]          rq_alpha;
    reg [CELL_W-1:0]   rq_static, rq_xon, rq_off, rq_size;
    reg [CELL_W-1:0]   rq_pu, rq_eu, rq_hu, rq_tot;
    // R1: headroom / egress shared
    reg [CELL_W-1:0]   r1_from_h, r1_left, r1_hnew, r1_from_es, r1_eleft, r1_qsnew;
    // R2: shared / egress reserved, scalars
    reg [CELL_W-1:0]   r2_from_s, r2_left, r2_snew, r2_eleft, r2_qrnew;
    reg [CELL_W-1:0]   r2_hdrm_pr, r2_egress_pr, r2_t1;
    // R3: reserved, pool
    reg [CELL_W-1:0]   r3_from_r, r3_left, r3_rnew, r3_pool_pr, r3_t2;
    reg                r3_eleft_nz;
    // the egress reserved take: its "take" part is not needed
    /* verilator lint_off UNUSEDSIGNAL */
    wire [3*CELL_W-1:0] tk_er = take_cells(r1_eleft, rq_qr0);
    /* verilator lint_on UNUSEDSIGNAL */

    always @(posedge clk) begin
        // e1, e2: counter entries in two clocks: the entry inside every port's eight (rc_*),
        // then the port (a one-clock 32:1 read was the longest path of the core)
        for (pp = 0; pp < PORT_COUNT; pp = pp + 1) begin
            rc_pg[pp*3*CELL_W +: 3*CELL_W] <= {pg_hdrm_reg[(pp*8 + r_pg_lo)*CELL_W +: CELL_W],
                                               pg_shared_reg[(pp*8 + r_pg_lo)*CELL_W +: CELL_W],
                                               pg_res_reg[(pp*8 + r_pg_lo)*CELL_W +: CELL_W]};
            rc_q[pp*2*CELL_W +: 2*CELL_W] <= {q_shared_reg[(pp*8 + r_q_lo)*CELL_W +: CELL_W],
                                              q_res_reg[(pp*8 + r_q_lo)*CELL_W +: CELL_W]};
        end
        {rq_h0, rq_s0, rq_r0} <= rc_pg[r_pg_reg[PGI_W-1:3]*3*CELL_W +: 3*CELL_W];
        {rq_qs0, rq_qr0} <= rc_q[r_q_reg[QI_W-1:3]*2*CELL_W +: 2*CELL_W];
        // e1: the PG's / queue's configuration
        rq_pool <= !cfg_pg_lossless[r_pg_reg];
        rq_epool <= !cfg_q_lossless[r_q_reg];
        rq_lossless <= cfg_pg_lossless[r_pg_reg];
        rq_dyn <= cfg_pg_dynamic[r_pg_reg];
        rq_alpha <= cfg_pg_alpha_shift[r_pg_reg*4 +: 4];
        rq_static <= cfg_pg_static_th[r_pg_reg*CELL_W +: CELL_W];
        rq_xon <= cfg_pg_xon[r_pg_reg*CELL_W +: CELL_W];
        rq_off <= cfg_pg_xon_offset[r_pg_reg*CELL_W +: CELL_W];
        rq_hu <= hdrm_used_reg;
        rq_tot <= total_used_reg;
        // e2: the pools, selected by the registered lossless bits (first used by R2, e4)
        rq_size <= cfg_pool_shared[rq_pool*CELL_W +: CELL_W];
        rq_pu <= pool_used_reg[rq_pool*CELL_W +: CELL_W];
        rq_eu <= egress_used_reg[rq_epool*CELL_W +: CELL_W];

        // R1 (Mmu.release: headroom first, then shared, then reserved; egress shared first)
        {r1_from_h, r1_left, r1_hnew} <= take_cells(r_cells_reg, rq_h0);
        {r1_from_es, r1_eleft, r1_qsnew} <= take_cells(r_cells_reg, rq_qs0);
        // R2
        {r2_from_s, r2_left, r2_snew} <= take_cells(r1_left, rq_s0);
        r2_eleft <= tk_er[CELL_W +: CELL_W];
        r2_qrnew <= tk_er[0 +: CELL_W];
        r2_hdrm_pr <= rq_hu - r1_from_h;
        r2_egress_pr <= rq_eu - r1_from_es;
        r2_t1 <= rq_tot - r1_from_h;
        // R3
        {r3_from_r, r3_left, r3_rnew} <= take_cells(r2_left, rq_r0);
        r3_pool_pr <= rq_pu - r2_from_s;
        r3_t2 <= r2_t1 - r2_from_s;
        r3_eleft_nz <= r2_eleft != 0;
    end

    // ---------------------------------------------------------------- arrival: A0 read
    // (clocks after the read start s: s = e0 alone, s = e6, the release's commit, after one)
    reg [CELL_W-1:0]   aq_r0, aq_s0, aq_h0, aq_qr0, aq_qs0;
    reg [CELL_W-1:0]   aq_res_wm, aq_sh_wm, aq_hd_wm;
    reg [CELL_W:0]     aq_q_wm;
    reg                aq_lossless, aq_epool, aq_dyn, aq_qdyn;
    reg [3:0]          aq_alpha, aq_qalpha;
    reg [CELL_W-1:0]   aq_reserved, aq_q_reserved, aq_static, aq_qstatic, aq_headroom;
    reg [CELL_W-1:0]   aq_xon, aq_off, aq_size, aq_esize, aq_pu, aq_eu, aq_hu, aq_tot;
    reg [CELL_W-1:0]   aq_pwm, aq_ewm, aq_hwm, aq_twm;
    // A1
    reg [CELL_W-1:0]   a1_room, a1_eroom;
    reg [CELL_W:0]     a1_tsum;
    reg signed [TW-1:0] a1_diff, a1_ediff, a1_hroom, a1_hproom;
    reg                a1_hp_zero, a1_s0_wm, a1_h0_wm, a1_pu_wm, a1_hu_wm;
    // A2
    reg [CELL_W-1:0]   a2_to_res, a2_rem, a2_eto_res, a2_erem;
    reg signed [TW-1:0] a2_t, a2_qt;
    reg                a2_guard, a2_tot_wm;
    // A3
    reg                a3_sh_ok, a3_hd_ok, a3_eg_ok;
    reg                a3_rem_nz, a3_erem_nz;
    reg [CELL_W-1:0]   a3_res_sum, a3_sh_sum, a3_hd_sum, a3_qr_sum, a3_qs_sum;
    reg [CELL_W-1:0]   a3_pool_sum, a3_hdt_sum, a3_eg_sum;
    // A4: the decision; watermark compares of the sums
    reg [2:0]          a4_reason;
    reg                a4_admit, a4_seg_sh, a4_seg_hd;
    reg                a4_res_wm, a4_shs_wm, a4_hds_wm, a4_pools_wm, a4_hdts_wm, a4_eg_wm;
    reg [CELL_W:0]     a4_q_occ;
    // A5: the values the decision selects, and whether each raises its watermark
    reg [CELL_W-1:0]   a5_sh_new, a5_hd_new, a5_pool_new, a5_hdt_new;
    reg                a5_sh_wm, a5_hd_wm, a5_pool_wm, a5_hdt_wm, a5_q_wm;

    // the egress reserved take and the reserved split use only part of take_cells
    /* verilator lint_off UNUSEDSIGNAL */
    wire [3*CELL_W-1:0] tk_res = take_cells(a_cells_reg, a1_room);
    wire [3*CELL_W-1:0] tk_eres = take_cells(a_cells_reg, a1_eroom);
    // reserved - held, its sign saying "no room"
    wire [CELL_W:0]     room_d = {1'b0, aq_reserved} - {1'b0, aq_r0};
    wire [CELL_W:0]     eroom_d = {1'b0, aq_q_reserved} - {1'b0, aq_qr0};
    /* verilator lint_on UNUSEDSIGNAL */

    reg [2:0]          a_reason_c;
    reg                a_seg_sh_c, a_seg_hd_c;
    always @* begin
        a_seg_sh_c = 1'b0;
        a_seg_hd_c = 1'b0;
        a_reason_c = REASON_NONE;
        if (a2_guard) begin
            a_reason_c = REASON_BUFFER_FULL;
        end else if (a3_rem_nz) begin
            if (a3_sh_ok) begin
                a_seg_sh_c = 1'b1;
            end else if (a3_hd_ok) begin
                a_seg_hd_c = 1'b1;
            end else begin
                a_reason_c = aq_lossless ? REASON_HEADROOM_FULL : REASON_INGRESS_LOSSY;
            end
        end
        if (a_reason_c == REASON_NONE && a3_erem_nz && !a3_eg_ok) begin
            a_reason_c = REASON_EGRESS;
        end
        if (a_bad_len_reg) begin
            a_reason_c = REASON_BAD_LEN;
        end else if (a_bad_index_reg) begin
            a_reason_c = REASON_BAD_INDEX;
        end
    end

    always @(posedge clk) begin
        // s+1, s+2: counter entries and watermarks in two clocks, as for the release
        for (pa = 0; pa < PORT_COUNT; pa = pa + 1) begin
            ac_pg[pa*6*CELL_W +: 6*CELL_W] <= {pg_res_reg[(pa*8 + a_pg_lo)*CELL_W +: CELL_W],
                                               pg_shared_reg[(pa*8 + a_pg_lo)*CELL_W +: CELL_W],
                                               pg_hdrm_reg[(pa*8 + a_pg_lo)*CELL_W +: CELL_W],
                                               pg_res_wm_reg[(pa*8 + a_pg_lo)*CELL_W +: CELL_W],
                                               pg_shared_wm_reg[(pa*8 + a_pg_lo)*CELL_W +: CELL_W],
                                               pg_hdrm_wm_reg[(pa*8 + a_pg_lo)*CELL_W +: CELL_W]};
            ac_q[pa*(3*CELL_W+1) +: 3*CELL_W+1] <= {q_res_reg[(pa*8 + a_q_lo)*CELL_W +: CELL_W],
                                                    q_shared_reg[(pa*8 + a_q_lo)*CELL_W +: CELL_W],
                                                    q_wm_reg[(pa*8 + a_q_lo)*(CELL_W+1) +: CELL_W+1]};
        end
        {aq_r0, aq_s0, aq_h0, aq_res_wm, aq_sh_wm, aq_hd_wm}
            <= ac_pg[a_pg_reg[PGI_W-1:3]*6*CELL_W +: 6*CELL_W];
        {aq_qr0, aq_qs0, aq_q_wm} <= ac_q[a_q_reg[QI_W-1:3]*(3*CELL_W+1) +: 3*CELL_W+1];
        // s+1: the PG's / queue's configuration, the scalar counters
        aq_lossless <= cfg_pg_lossless[a_pg_reg];
        aq_epool <= !cfg_q_lossless[a_q_reg];
        aq_dyn <= cfg_pg_dynamic[a_pg_reg];
        aq_qdyn <= cfg_q_dynamic[a_q_reg];
        aq_alpha <= cfg_pg_alpha_shift[a_pg_reg*4 +: 4];
        aq_qalpha <= cfg_q_alpha_shift[a_q_reg*4 +: 4];
        aq_reserved <= cfg_pg_reserved[a_pg_reg*CELL_W +: CELL_W];
        aq_q_reserved <= cfg_q_reserved[a_q_reg*CELL_W +: CELL_W];
        aq_static <= cfg_pg_static_th[a_pg_reg*CELL_W +: CELL_W];
        aq_qstatic <= cfg_q_static_th[a_q_reg*CELL_W +: CELL_W];
        aq_headroom <= cfg_pg_headroom[a_pg_reg*CELL_W +: CELL_W];
        aq_xon <= cfg_pg_xon[a_pg_reg*CELL_W +: CELL_W];
        aq_off <= cfg_pg_xon_offset[a_pg_reg*CELL_W +: CELL_W];
        aq_hu <= hdrm_used_reg;
        aq_tot <= total_used_reg;
        aq_hwm <= hdrm_wm_reg;
        aq_twm <= total_wm_reg;
        // s+2: the pools, selected by the registered lossless bits (first used by A1, s+3)
        aq_size <= cfg_pool_shared[!aq_lossless*CELL_W +: CELL_W];
        aq_pu <= pool_used_reg[!aq_lossless*CELL_W +: CELL_W];
        aq_pwm <= pool_wm_reg[!aq_lossless*CELL_W +: CELL_W];
        aq_esize <= cfg_egress_pool_shared[aq_epool*CELL_W +: CELL_W];
        aq_eu <= egress_used_reg[aq_epool*CELL_W +: CELL_W];
        aq_ewm <= egress_wm_reg[aq_epool*CELL_W +: CELL_W];

        // A1: reserved room, guard sum, pool and headroom room (exact integers, signed); the
        // watermark compares of the values an arrival that does not grow them leaves
        a1_room <= room_d[CELL_W] ? {CELL_W{1'b0}} : room_d[CELL_W-1:0];
        a1_eroom <= eroom_d[CELL_W] ? {CELL_W{1'b0}} : eroom_d[CELL_W-1:0];
        a1_tsum <= {1'b0, aq_tot} + {1'b0, a_cells_reg};
        a1_diff <= sext_cells(aq_size) - sext_cells(aq_pu);
        a1_ediff <= sext_cells(aq_esize) - sext_cells(aq_eu);
        a1_hroom <= sext_cells(aq_headroom) - sext_cells(aq_h0);
        a1_hproom <= sext_cells(cfg_hdrm_pool) - sext_cells(aq_hu);
        a1_hp_zero <= cfg_hdrm_pool == 0;
        a1_s0_wm <= ugt({1'b0, aq_s0}, {1'b0, aq_sh_wm});
        a1_h0_wm <= ugt({1'b0, aq_h0}, {1'b0, aq_hd_wm});
        a1_pu_wm <= ugt({1'b0, aq_pu}, {1'b0, aq_pwm});
        a1_hu_wm <= ugt({1'b0, aq_hu}, {1'b0, aq_hwm});
        // A2: split into reserved and the rest; thresholds; guard
        a2_to_res <= tk_res[2*CELL_W +: CELL_W];
        a2_rem <= tk_res[CELL_W +: CELL_W];
        a2_eto_res <= tk_eres[2*CELL_W +: CELL_W];
        a2_erem <= tk_eres[CELL_W +: CELL_W];
        a2_t <= aq_dyn ? alpha_mul(a1_diff, aq_alpha) : sext_cells(aq_static);
        a2_qt <= aq_qdyn ? alpha_mul(a1_ediff, aq_qalpha) : sext_cells(aq_qstatic);
        a2_guard <= ugt(a1_tsum, {1'b0, cfg_buffer_cells});
        a2_tot_wm <= ugt({1'b0, a1_tsum[CELL_W-1:0]}, {1'b0, aq_twm});
        // A3: the comparisons of Mmu.arrive (one LUT behind the chains: shared segment ok,
        // headroom segment ok, egress ok), and every sum a commit may need
        a3_sh_ok <= below_t(aq_s0, a2_t) && sle(sext_cells(a2_rem), a1_diff);
        a3_hd_ok <= aq_lossless && sle(sext_cells(a2_rem), a1_hroom)
                    && (a1_hp_zero || sle(sext_cells(a2_rem), a1_hproom));
        a3_eg_ok <= below_t(aq_qs0, a2_qt) && sle(sext_cells(a2_erem), a1_ediff);
        a3_rem_nz <= a2_rem != 0;
        a3_erem_nz <= a2_erem != 0;
        a3_res_sum <= aq_r0 + a2_to_res;
        a3_sh_sum <= aq_s0 + a2_rem;
        a3_hd_sum <= aq_h0 + a2_rem;
        a3_qr_sum <= aq_qr0 + a2_eto_res;
        a3_qs_sum <= aq_qs0 + a2_erem;
        a3_pool_sum <= aq_pu + a2_rem;
        a3_hdt_sum <= aq_hu + a2_rem;
        a3_eg_sum <= aq_eu + a2_erem;
        // A4: the decision; the sums against their watermarks
        a4_reason <= a_reason_c;
        a4_admit <= arr_act_m && a_reason_c == REASON_NONE;
        a4_seg_sh <= a_seg_sh_c;
        a4_seg_hd <= a_seg_hd_c;
        a4_res_wm <= ugt({1'b0, a3_res_sum}, {1'b0, aq_res_wm});
        a4_shs_wm <= ugt({1'b0, a3_sh_sum}, {1'b0, aq_sh_wm});
        a4_hds_wm <= ugt({1'b0, a3_hd_sum}, {1'b0, aq_hd_wm});
        a4_pools_wm <= ugt({1'b0, a3_pool_sum}, {1'b0, aq_pwm});
        a4_hdts_wm <= ugt({1'b0, a3_hdt_sum}, {1'b0, aq_hwm});
        a4_eg_wm <= ugt({1'b0, a3_eg_sum}, {1'b0, aq_ewm});
        a4_q_occ <= {1'b0, a3_qr_sum} + {1'b0, a3_qs_sum};
        // A5: the new values (the old ones where the arrival did not add) and their
        // watermark flags (meaningful when admitted: the commit writes only then)
        a5_sh_new <= (a4_admit && a4_seg_sh) ? a3_sh_sum : aq_s0;
        a5_hd_new <= (a4_admit && a4_seg_hd) ? a3_hd_sum : aq_h0;
        a5_pool_new <= (a4_admit && a4_seg_sh) ? a3_pool_sum : aq_pu;
        a5_hdt_new <= a4_seg_hd ? a3_hdt_sum : aq_hu;
        a5_sh_wm <= (a4_admit && a4_seg_sh) ? a4_shs_wm : a1_s0_wm;
        a5_hd_wm <= (a4_admit && a4_seg_hd) ? a4_hds_wm : a1_h0_wm;
        a5_pool_wm <= (a4_admit && a4_seg_sh) ? a4_pools_wm : a1_pu_wm;
        a5_hdt_wm <= a4_seg_hd ? a4_hdts_wm : a1_hu_wm;
        a5_q_wm <= ugt(a4_q_occ, aq_q_wm);
    end

    // ---------------------------------------------------------------- PFC tail
    // commit edge C: the PG (one-hot) and its inputs; C+1: T, the compares against constants
    // and the PG's current Xoff; C+2: the compares against T; C+3: pfc_xoff / pfc_change
    reg                t1_v, t2_v, t3_v;
    reg [PG_N-1:0]     t_pg_oh;
    reg                t_lossless, t_dyn;
    reg [3:0]          t_alpha;
    reg [CELL_W-1:0]   t_static, t_xon, t_off, t_sh, t_hd;
    reg signed [TW-1:0] t_diff, t2_t;
    reg [CELL_W:0]     t2_shoff;
    reg                t2_le_xon, t2_hd_nz, t2_sh_nz, t2_xoff_old, t3_lt_t, t3_le_p;
    reg                t_xoff_new;
    integer mt;
    always @* begin
        // pfc_eval with shared <= min(max(xon, T - off), T - 1) split into three compares
        // (shared <= T - off as shared + off <= T), shared >= T as !(shared < T)
        if (!t_lossless) begin
            t_xoff_new = t2_xoff_old;
        end else if (!t2_xoff_old) begin
            t_xoff_new = t2_hd_nz || (t2_sh_nz && !t3_lt_t);
        end else begin
            t_xoff_new = !(!t2_hd_nz && (!t2_sh_nz
                           || ((t2_le_xon || t3_le_p) && t3_lt_t)));
        end
    end

    always @(posedge clk) begin
        t1_v <= (rel_commit && rel_act_m) || (arr_commit && arr_act_m);
        if (rel_commit) begin
            t_pg_oh <= r_pg_oh_reg;
            t_lossless <= rq_lossless;
            t_dyn <= rq_dyn;
            t_alpha <= rq_alpha;
            t_static <= rq_static;
            t_xon <= rq_xon;
            t_off <= rq_off;
            t_sh <= r2_snew;
            t_hd <= r1_hnew;
            t_diff <= sext_cells(rq_size) - sext_cells(r3_pool_pr);
        end else if (arr_commit) begin
            t_pg_oh <= a_pg_oh_reg;
            t_lossless <= aq_lossless;
            t_dyn <= aq_dyn;
            t_alpha <= aq_alpha;
            t_static <= aq_static;
            t_xon <= aq_xon;
            t_off <= aq_off;
            t_sh <= a5_sh_new;
            t_hd <= a5_hd_new;
            t_diff <= sext_cells(aq_size) - sext_cells(a5_pool_new);
        end
        t2_v <= t1_v;
        t2_t <= t_dyn ? alpha_mul(t_diff, t_alpha) : sext_cells(t_static);
        t2_le_xon <= !ugt({1'b0, t_sh}, {1'b0, t_xon});
        t2_hd_nz <= t_hd != 0;
        t2_sh_nz <= t_sh != 0;
        t2_shoff <= {1'b0, t_sh} + {1'b0, t_off};
        // no write to pfc_xoff between C+1 and C+3 (tails never overlap)
        t2_xoff_old <= |(xoff_reg & t_pg_oh);
        t3_v <= t2_v;
        t3_le_p <= sle($signed({{(TW-CELL_W-1){1'b0}}, t2_shoff}), t2_t);
        t3_lt_t <= slt(sext_cells(t_sh), t2_t);
        pfc_change_reg <= {PG_N{1'b0}};
        if (t3_v) begin
            for (mt = 0; mt < PG_N; mt = mt + 1) begin
                if (t_pg_oh[mt]) begin
                    xoff_reg[mt] <= t_xoff_new;
                    pfc_change_reg[mt] <= t_xoff_new ^ t2_xoff_old;
                end
            end
        end
        if (rst) begin
            t1_v <= 1'b0;
            t2_v <= 1'b0;
            t3_v <= 1'b0;
            xoff_reg <= {PG_N{1'b0}};
            pfc_change_reg <= {PG_N{1'b0}};
        end
    end

    // ---------------------------------------------------------------- slot control, commits
    // the commit strobes are decoded two clocks ahead (rel_commit_pre_reg: the release commits
    // in two clocks), so the per-entry enables below start from registers
    reg  rel_commit_pre_reg, arr_commit_pre_reg;
    wire rel_commit_next = rel_commit_pre_reg;
    wire arr_commit_next = arr_commit_pre_reg;
    // the values a commit writes into the entry it enables (registers of R1 .. R3, A3, A5)
    wire [CELL_W-1:0] w_pg_res = w_rel_reg ? r3_rnew : a3_res_sum;
    wire [CELL_W-1:0] w_pg_sh = w_rel_reg ? r2_snew : a5_sh_new;
    wire [CELL_W-1:0] w_pg_hd = w_rel_reg ? r1_hnew : a5_hd_new;
    wire [CELL_W-1:0] w_q_res = w_rel_reg ? r2_qrnew : a3_qr_sum;
    wire [CELL_W-1:0] w_q_sh = w_rel_reg ? r1_qsnew : a3_qs_sum;
    always @(posedge clk) begin
        // (cnt_reg counts from 0 at the acceptance, one per clock while busy: every commit
        // is at least 5 clocks after it)
        rel_commit_pre_reg <= busy_reg && r_valid_reg && cnt_reg == CNT_REL - 4'd2;
        arr_commit_pre_reg <= busy_reg && a_valid_reg
                              && cnt_reg == (r_valid_reg ? CNT_ARR_AFTER : CNT_ARR_ALONE) - 4'd2;
        rel_commit_reg <= rel_commit_next;
        arr_commit_reg <= arr_commit_next;
        // a4_admit is a register by the clock before the arrival's commit (A4, then A5)
        w_rel_reg <= rel_commit_next;
        for (m = 0; m < PG_N; m = m + 1) begin
            pg_awe_reg[m] <= arr_commit_next && a4_admit && a_pg_oh_reg[m];
            pg_we_reg[m] <= (rel_commit_next && rel_act_m && r_pg_oh_reg[m])
                            || (arr_commit_next && a4_admit && a_pg_oh_reg[m]);
        end
        for (m = 0; m < Q_N; m = m + 1) begin
            q_awe_reg[m] <= arr_commit_next && a4_admit && a_q_oh_reg[m];
            q_we_reg[m] <= (rel_commit_next && rel_act_m && r_q_oh_reg[m])
                           || (arr_commit_next && a4_admit && a_q_oh_reg[m]);
        end
        if (!busy_reg) begin
            for (m = 0; m < PG_N; m = m + 1) begin
                r_pg_oh_reg[m] <= {s_rel_port[PI_W-1:0], s_rel_pg[2:0]} == m[PGI_W-1:0];
                a_pg_oh_reg[m] <= {s_req_port[PI_W-1:0], s_req_pg[2:0]} == m[PGI_W-1:0];
            end
            for (m = 0; m < Q_N; m = m + 1) begin
                r_q_oh_reg[m] <= {s_rel_eport[PI_W-1:0], s_rel_queue[2:0]} == m[QI_W-1:0];
                a_q_oh_reg[m] <= {s_req_eport[PI_W-1:0], s_req_queue[2:0]} == m[QI_W-1:0];
            end
            a_valid_reg <= s_req_valid;
            a_len_reg <= s_req_len;
            a_bad_index_reg <= req_bad_index;
            a_pg_reg <= {s_req_port[PI_W-1:0], s_req_pg[2:0]};
            a_q_reg <= {s_req_eport[PI_W-1:0], s_req_queue[2:0]};
            a_tag_reg <= s_req_tag;
            r_valid_reg <= s_rel_valid;
            r_bad_index_reg <= rel_bad_index;
            r_pg_reg <= {s_rel_port[PI_W-1:0], s_rel_pg[2:0]};
            r_q_reg <= {s_rel_eport[PI_W-1:0], s_rel_queue[2:0]};
            r_cells_reg <= s_rel_cells;
            busy_reg <= s_req_valid || s_rel_valid;
            cnt_reg <= 4'd0;
        end else begin
            cnt_reg <= cnt_reg + 4'd1;
            if (slot_done) begin
                busy_reg <= 1'b0;
                a_valid_reg <= 1'b0;
                r_valid_reg <= 1'b0;
            end
        end

        // release commit
        if (rel_commit) begin
            release_count_reg <= release_count_reg + 32'd1;
            if (rel_act_m) begin
                pool_used_reg[rq_pool*CELL_W +: CELL_W] <= r3_pool_pr;
                egress_used_reg[rq_epool*CELL_W +: CELL_W] <= r2_egress_pr;
                hdrm_used_reg <= r2_hdrm_pr;
                total_used_reg <= r3_t2 - r3_from_r;
                if (r3_left != 0 || r3_eleft_nz) begin
                    underflow_count_reg <= underflow_count_reg + 32'd1;
                    err_underflow_reg <= 1'b1;
                end
            end else begin
                rel_bad_index_count_reg <= rel_bad_index_count_reg + 32'd1;
            end
        end

        // arrival commit: values and watermark flags are registers (A2 .. A5)
        resp_valid_reg <= arr_commit;
        if (arr_commit) begin
            resp_admit_reg <= a4_admit;
            resp_reason_reg <= a4_reason;
            resp_cells_reg <= a_cells_reg;
            resp_res_reg <= a4_admit ? a2_to_res : {CELL_W{1'b0}};
            resp_shared_reg <= (a4_admit && a4_seg_sh) ? a2_rem : {CELL_W{1'b0}};
            resp_hdrm_reg <= (a4_admit && a4_seg_hd) ? a2_rem : {CELL_W{1'b0}};
            resp_tag_reg <= a_tag_reg;
            arrival_count_reg <= arrival_count_reg + 32'd1;
            // each drop counter increments itself (no read mux by reason)
            for (m = 1; m < 7; m = m + 1) begin
                if (a4_reason == m[2:0]) begin
                    drop_count_reg[m*32 +: 32] <= drop_count_reg[m*32 +: 32] + 32'd1;
                end
            end
            if (a4_admit) begin
                admit_count_reg <= admit_count_reg + 32'd1;
                pool_used_reg[!aq_lossless*CELL_W +: CELL_W] <= a5_pool_new;
                if (a5_pool_wm) begin
                    pool_wm_reg[!aq_lossless*CELL_W +: CELL_W] <= a5_pool_new;
                end
                hdrm_used_reg <= a5_hdt_new;
                if (a5_hdt_wm) begin
                    hdrm_wm_reg <= a5_hdt_new;
                end
                total_used_reg <= a1_tsum[CELL_W-1:0];
                if (a2_tot_wm) begin
                    total_wm_reg <= a1_tsum[CELL_W-1:0];
                end
                egress_used_reg[aq_epool*CELL_W +: CELL_W] <= a3_eg_sum;
                if (a4_eg_wm) begin
                    egress_wm_reg[aq_epool*CELL_W +: CELL_W] <= a3_eg_sum;
                end
            end
        end
        err_bad_config_reg <= err_bad_config_reg || (cfg_bad != 0);

        // the entries: release and admitted arrival through the per-entry enables
        for (m = 0; m < PG_N; m = m + 1) begin
            if (pg_we_reg[m]) begin
                pg_res_reg[m*CELL_W +: CELL_W] <= w_pg_res;
                pg_shared_reg[m*CELL_W +: CELL_W] <= w_pg_sh;
                pg_hdrm_reg[m*CELL_W +: CELL_W] <= w_pg_hd;
            end
            if (pg_awe_reg[m] && a4_res_wm) begin
                pg_res_wm_reg[m*CELL_W +: CELL_W] <= a3_res_sum;
            end
            if (pg_awe_reg[m] && a5_sh_wm) begin
                pg_shared_wm_reg[m*CELL_W +: CELL_W] <= a5_sh_new;
            end
            if (pg_awe_reg[m] && a5_hd_wm) begin
                pg_hdrm_wm_reg[m*CELL_W +: CELL_W] <= a5_hd_new;
            end
        end
        for (m = 0; m < Q_N; m = m + 1) begin
            if (q_we_reg[m]) begin
                q_res_reg[m*CELL_W +: CELL_W] <= w_q_res;
                q_shared_reg[m*CELL_W +: CELL_W] <= w_q_sh;
            end
            if (q_awe_reg[m] && a5_q_wm) begin
                q_wm_reg[m*(CELL_W+1) +: CELL_W+1] <= a4_q_occ;
            end
        end

        if (rst) begin
            busy_reg <= 1'b0;
            cnt_reg <= 4'd0;
            rel_commit_reg <= 1'b0;
            arr_commit_reg <= 1'b0;
            rel_commit_pre_reg <= 1'b0;
            arr_commit_pre_reg <= 1'b0;
            pg_we_reg <= {PG_N{1'b0}};
            pg_awe_reg <= {PG_N{1'b0}};
            q_we_reg <= {Q_N{1'b0}};
            q_awe_reg <= {Q_N{1'b0}};
            w_rel_reg <= 1'b0;
            a_valid_reg <= 1'b0;
            r_valid_reg <= 1'b0;
            pg_res_reg <= {PG_N*CELL_W{1'b0}};
            pg_shared_reg <= {PG_N*CELL_W{1'b0}};
            pg_hdrm_reg <= {PG_N*CELL_W{1'b0}};
            pg_res_wm_reg <= {PG_N*CELL_W{1'b0}};
            pg_shared_wm_reg <= {PG_N*CELL_W{1'b0}};
            pg_hdrm_wm_reg <= {PG_N*CELL_W{1'b0}};
            q_res_reg <= {Q_N*CELL_W{1'b0}};
            q_shared_reg <= {Q_N*CELL_W{1'b0}};
            q_wm_reg <= {Q_N*(CELL_W+1){1'b0}};
            pool_used_reg <= {2*CELL_W{1'b0}};
            pool_wm_reg <= {2*CELL_W{1'b0}};
            hdrm_used_reg <= {CELL_W{1'b0}};
            hdrm_wm_reg <= {CELL_W{1'b0}};
            total_used_reg <= {CELL_W{1'b0}};
            total_wm_reg <= {CELL_W{1'b0}};
            egress_used_reg <= {2*CELL_W{1'b0}};
            egress_wm_reg <= {2*CELL_W{1'b0}};
            drop_count_reg <= {7*32{1'b0}};
            admit_count_reg <= 32'd0;
            arrival_count_reg <= 32'd0;
            release_count_reg <= 32'd0;
            underflow_count_reg <= 32'd0;
            rel_bad_index_count_reg <= 32'd0;
            err_underflow_reg <= 1'b0;
            err_bad_config_reg <= 1'b0;
            resp_valid_reg <= 1'b0;
        end
    end
end
endgenerate

// ------------------------------------------------------------------------------ stat read
// map: docs/mmu_core.md (region in stat_addr[15:12]).  The addressed entry's fields, the
// global value and the threshold inputs form a "view" (v_*); stat_data_reg is selected from
// the view.  PIPELINE = 0: the view is combinational, stat_data one clock after stat_addr.
// PIPELINE = 1: the view is registered (the 32- / 64-entry muxes in one clock, the threshold
// in the next, field select and queue sum in the third), stat_data three clocks after stat_addr.
wire [PGI_W-1:0] st_pg = stat_addr[3 +: PGI_W];
wire [QI_W-1:0]  st_q = stat_addr[2 +: QI_W];
wire             st_pg_pool = !cfg_pg_lossless[st_pg];

function [31:0] ext32;
    input [CELL_W:0] v;
    begin
        ext32 = {{(32-CELL_W-1){1'b0}}, v};
    end
endfunction

reg [31:0] st_glob;
always @* begin
    case (stat_addr[4:0])
        5'h00: st_glob = ext32({1'b0, pool_used_reg[0 +: CELL_W]});
        5'h01: st_glob = ext32({1'b0, pool_wm_reg[0 +: CELL_W]});
        5'h02: st_glob = ext32({1'b0, pool_used_reg[CELL_W +: CELL_W]});
        5'h03: st_glob = ext32({1'b0, pool_wm_reg[CELL_W +: CELL_W]});
        5'h04: st_glob = ext32({1'b0, hdrm_used_reg});
        5'h05: st_glob = ext32({1'b0, hdrm_wm_reg});
        5'h06: st_glob = ext32({1'b0, egress_used_reg[0 +: CELL_W]});
        5'h07: st_glob = ext32({1'b0, egress_wm_reg[0 +: CELL_W]});
        5'h08: st_glob = ext32({1'b0, egress_used_reg[CELL_W +: CELL_W]});
        5'h09: st_glob = ext32({1'b0, egress_wm_reg[CELL_W +: CELL_W]});
        5'h0a: st_glob = ext32({1'b0, total_used_reg});
        5'h0b: st_glob = ext32({1'b0, total_wm_reg});
        5'h0c: st_glob = admit_count_reg;
        5'h0d: st_glob = underflow_count_reg;
        5'h0e: st_glob = rel_bad_index_count_reg;
        5'h0f: st_glob = {27'd0, cfg_bad, err_bad_config_reg, err_underflow_reg};
        5'h10: st_glob = drop_count_reg[0*32 +: 32];
        5'h11: st_glob = drop_count_reg[1*32 +: 32];
        5'h12: st_glob = drop_count_reg[2*32 +: 32];
        5'h13: st_glob = drop_count_reg[3*32 +: 32];
        5'h14: st_glob = drop_count_reg[4*32 +: 32];
        5'h15: st_glob = drop_count_reg[5*32 +: 32];
        5'h16: st_glob = drop_count_reg[6*32 +: 32];
        5'h17: st_glob = arrival_count_reg;
        5'h18: st_glob = release_count_reg;
        5'h1e: st_glob = PORT_COUNT;
        5'h1f: st_glob = CELL_BYTES;
        default: st_glob = 32'd0;
    endcase
end

// the view
wire [15:0]       v_addr;
wire [31:0]       v_glob;
wire [CELL_W-1:0] v_pg_res, v_pg_sh, v_pg_hd, v_pg_rwm, v_pg_swm, v_pg_hwm;
wire              v_xoff;
wire [CELL_W-1:0] v_q_res, v_q_sh;
wire [CELL_W:0]   v_q_wm;
wire signed [TW-1:0] v_t;
wire [6*CELL_W-1:0] st_pg_fields = {pg_res_reg[st_pg*CELL_W +: CELL_W],
                                    pg_shared_reg[st_pg*CELL_W +: CELL_W],
                                    pg_hdrm_reg[st_pg*CELL_W +: CELL_W],
                                    pg_res_wm_reg[st_pg*CELL_W +: CELL_W],
                                    pg_shared_wm_reg[st_pg*CELL_W +: CELL_W],
                                    pg_hdrm_wm_reg[st_pg*CELL_W +: CELL_W]};
wire [3*CELL_W:0] st_q_fields = {q_res_reg[st_q*CELL_W +: CELL_W],
                                 q_shared_reg[st_q*CELL_W +: CELL_W],
                                 q_wm_reg[st_q*(CELL_W+1) +: CELL_W+1]};
wire [3*CELL_W+5:0] st_t_in = {cfg_pg_dynamic[st_pg], cfg_pg_alpha_shift[st_pg*4 +: 4],
                               cfg_pg_static_th[st_pg*CELL_W +: CELL_W],
                               cfg_pool_shared[st_pg_pool*CELL_W +: CELL_W],
                               pool_used_reg[st_pg_pool*CELL_W +: CELL_W], 1'b0};
generate
if (PIPELINE == 0) begin : g_stat_comb
    assign v_addr = stat_addr;
    assign v_glob = st_glob;
    assign {v_pg_res, v_pg_sh, v_pg_hd, v_pg_rwm, v_pg_swm, v_pg_hwm} = st_pg_fields;
    assign v_xoff = xoff_reg[st_pg];
    assign {v_q_res, v_q_sh, v_q_wm} = st_q_fields;
    wire              v_dyn;
    wire [3:0]        v_alpha;
    wire [CELL_W-1:0] v_static, v_size, v_used;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_pad;
    /* verilator lint_on UNUSEDSIGNAL */
    assign {v_dyn, v_alpha, v_static, v_size, v_used, unused_pad} = st_t_in;
    assign v_t = threshold(v_dyn, v_alpha, v_static, v_size, v_used);
end else begin : g_stat_reg
    // clock 1: the addressed entry and the threshold inputs; clock 2: the threshold and a copy
    // of the rest; then the field select into stat_data_reg
    reg [15:0]        addr_reg, addr2_reg;
    reg [31:0]        glob_reg, glob2_reg;
    reg [6*CELL_W-1:0] pg_reg, pg2_reg;
    reg               xoff_v_reg, xoff2_reg;
    reg [3*CELL_W:0]  q_reg, q2_reg;
    reg [3*CELL_W+5:0] t_reg;
    reg signed [TW-1:0] t2_reg;
    /* verilator lint_off UNUSEDSIGNAL */
    wire              t_pad = t_reg[0];
    /* verilator lint_on UNUSEDSIGNAL */
    always @(posedge clk) begin
        addr_reg <= stat_addr;
        glob_reg <= st_glob;
        pg_reg <= st_pg_fields;
        xoff_v_reg <= xoff_reg[st_pg];
        q_reg <= st_q_fields;
        t_reg <= st_t_in;
        addr2_reg <= addr_reg;
        glob2_reg <= glob_reg;
        pg2_reg <= pg_reg;
        xoff2_reg <= xoff_v_reg;
        q2_reg <= q_reg;
        t2_reg <= threshold(t_reg[3*CELL_W+5], t_reg[3*CELL_W+1 +: 4], t_reg[2*CELL_W+1 +: CELL_W],
                            t_reg[CELL_W+1 +: CELL_W], t_reg[1 +: CELL_W]);
        if (rst) begin
            addr_reg <= 16'd0;
            addr2_reg <= 16'd0;
        end
    end
    assign v_addr = addr2_reg;
    assign v_glob = glob2_reg;
    assign {v_pg_res, v_pg_sh, v_pg_hd, v_pg_rwm, v_pg_swm, v_pg_hwm} = pg2_reg;
    assign v_xoff = xoff2_reg;
    assign {v_q_res, v_q_sh, v_q_wm} = q2_reg;
    assign v_t = t2_reg;
end
endgenerate


always @* begin
    stat_data_next = 32'd0;
    case (v_addr[15:12])
        4'h0: begin
            if (v_addr[11:5] == 7'd0) begin
                stat_data_next = v_glob;
            end
        end
        4'h1: begin
            if ({23'd0, v_addr[11:3]} < PG_N) begin
                case (v_addr[2:0])
                    3'd0: stat_data_next = ext32({1'b0, v_pg_res});
                    3'd1: stat_data_next = ext32({1'b0, v_pg_sh});
                    3'd2: stat_data_next = ext32({1'b0, v_pg_hd});
                    3'd3: stat_data_next = ext32({1'b0, v_pg_rwm});
                    3'd4: stat_data_next = ext32({1'b0, v_pg_swm});
                    3'd5: stat_data_next = ext32({1'b0, v_pg_hwm});
                    3'd6: stat_data_next = {31'd0, v_xoff};
                    default: stat_data_next = {{(32-TW){v_t[TW-1]}}, v_t};
                endcase
            end
        end
        4'h2: begin
            if ({22'd0, v_addr[11:2]} < Q_N) begin
                case (v_addr[1:0])
                    2'd0: stat_data_next = ext32({1'b0, v_q_res});
                    2'd1: stat_data_next = ext32({1'b0, v_q_sh});
                    2'd2: stat_data_next = ext32({1'b0, v_q_res} + {1'b0, v_q_sh});
                    default: stat_data_next = ext32(v_q_wm);
                endcase
            end
        end
        default: stat_data_next = 32'd0;
    endcase
end

always @(posedge clk) begin
    stat_data_reg <= stat_data_next;
    if (rst) begin
        stat_data_reg <= 32'd0;
    end
end

endmodule

`resetall
