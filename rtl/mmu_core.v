/*
 * MMU admission core: ingress (port, PG) and egress (port, queue) cell accounting, Dynamic
 * Threshold, PFC Xoff / Xon.  Bit-identical to the golden model models/mmu.py (Mmu.step):
 * same integer arithmetic, same decision order, same release order, same XON-point clamp.
 *
 * Pipeline (docs/mmu_core.md has the diagram):
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

// "shared below T" (the FAULT_INJECT build breaks this one on purpose)
function below_t;
    input [CELL_W-1:0] occ;
    input signed [TW-1:0] t;
    begin
        if (FAULT_INJECT != 0) begin
            below_t = sext_cells(occ) <= t;
        end else begin
            below_t = sext_cells(occ) < t;
        end
    end
endfunction

// ------------------------------------------------------------------------------ stage 1
wire [LEN_W-1:0]  req_len_m1 = s_req_len - 1'b1;
// the low RECIP_SHIFT bits of the product are the fraction of len/CELL_BYTES, unused by design
/* verilator lint_off UNUSEDSIGNAL */
wire [PROD_W-1:0] req_prod = {{(PROD_W-LEN_W){1'b0}}, req_len_m1}
                              * {{(PROD_W-RM_W){1'b0}}, RECIP_MUL};
/* verilator lint_on UNUSEDSIGNAL */
wire [LEN_W-1:0]  req_quot = req_prod[RECIP_SHIFT +: LEN_W];
wire              req_bad_len = (s_req_len == 0) || ({{(32-LEN_W){1'b0}}, s_req_len} > cfg_max_frame_bytes);
wire [CELL_W-1:0] req_cells = req_bad_len ? {CELL_W{1'b0}}
                              : ({{(CELL_W-LEN_W > 0 ? CELL_W-LEN_W : 1){1'b0}}, req_quot} + 1'b1);
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

reg [PG_N-1:0]            xoff_reg, xoff_next;
reg [PG_N-1:0]            pfc_change_reg, pfc_change_next;
reg [2*CELL_W-1:0]        pool_used_reg, pool_used_next;
reg [2*CELL_W-1:0]        pool_wm_reg, pool_wm_next;
reg [CELL_W-1:0]          hdrm_used_reg, hdrm_used_next;
reg [CELL_W-1:0]          hdrm_wm_reg, hdrm_wm_next;
reg [CELL_W-1:0]          total_used_reg, total_used_next;
reg [CELL_W-1:0]          total_wm_reg, total_wm_next;
reg [2*CELL_W-1:0]        egress_used_reg, egress_used_next;
reg [2*CELL_W-1:0]        egress_wm_reg, egress_wm_next;
reg [7*32-1:0]            drop_count_reg, drop_count_next;
reg [31:0]                admit_count_reg, admit_count_next;
reg [31:0]                arrival_count_reg, arrival_count_next;
reg [31:0]                release_count_reg, release_count_next;
reg [31:0]                underflow_count_reg, underflow_count_next;
reg [31:0]                rel_bad_index_count_reg, rel_bad_index_count_next;
reg                       err_underflow_reg, err_underflow_next;
reg                       err_bad_config_reg, err_bad_config_next;

reg                       resp_valid_reg, resp_valid_next;
reg                       resp_admit_reg, resp_admit_next;
reg [2:0]                 resp_reason_reg, resp_reason_next;
reg [CELL_W-1:0]          resp_cells_reg, resp_cells_next;
reg [CELL_W-1:0]          resp_res_reg, resp_res_next;
reg [CELL_W-1:0]          resp_shared_reg, resp_shared_next;
reg [CELL_W-1:0]          resp_hdrm_reg, resp_hdrm_next;
reg [TAG_W-1:0]           resp_tag_reg, resp_tag_next;

reg [31:0]                stat_data_reg, stat_data_next;

assign s_req_ready = 1'b1;
assign s_rel_ready = 1'b1;
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

// ------------------------------------------------------------------------------ stat read
// map: docs/mmu_core.md (region in stat_addr[15:12])
wire [8:0]       st_pg_entry = stat_addr[11:3];
wire [2:0]       st_pg_field = stat_addr[2:0];
wire [9:0]       st_q_entry = stat_addr[11:2];
wire [1:0]       st_q_field = stat_addr[1:0];
wire [PGI_W-1:0] st_pg = st_pg_entry[PGI_W-1:0];
wire [QI_W-1:0]  st_q = st_q_entry[QI_W-1:0];
wire             st_pg_pool = !cfg_pg_lossless[st_pg];
wire signed [TW-1:0] st_t = threshold(cfg_pg_dynamic[st_pg], cfg_pg_alpha_shift[st_pg*4 +: 4],
                                      cfg_pg_static_th[st_pg*CELL_W +: CELL_W],
                                      cfg_pool_shared[st_pg_pool*CELL_W +: CELL_W],
                                      pool_used_reg[st_pg_pool*CELL_W +: CELL_W]);

function [31:0] ext32;
    input [CELL_W:0] v;
    begin
        ext32 = {{(32-CELL_W-1){1'b0}}, v};
    end
endfunction

always @* begin
    stat_data_next = 32'd0;
    case (stat_addr[15:12])
        4'h0: begin
            case (stat_addr[11:0])
                12'h000: stat_data_next = ext32({1'b0, pool_used_reg[0 +: CELL_W]});
                12'h001: stat_data_next = ext32({1'b0, pool_wm_reg[0 +: CELL_W]});
                12'h002: stat_data_next = ext32({1'b0, pool_used_reg[CELL_W +: CELL_W]});
                12'h003: stat_data_next = ext32({1'b0, pool_wm_reg[CELL_W +: CELL_W]});
                12'h004: stat_data_next = ext32({1'b0, hdrm_used_reg});
                12'h005: stat_data_next = ext32({1'b0, hdrm_wm_reg});
                12'h006: stat_data_next = ext32({1'b0, egress_used_reg[0 +: CELL_W]});
                12'h007: stat_data_next = ext32({1'b0, egress_wm_reg[0 +: CELL_W]});
                12'h008: stat_data_next = ext32({1'b0, egress_used_reg[CELL_W +: CELL_W]});
                12'h009: stat_data_next = ext32({1'b0, egress_wm_reg[CELL_W +: CELL_W]});
                12'h00a: stat_data_next = ext32({1'b0, total_used_reg});
                12'h00b: stat_data_next = ext32({1'b0, total_wm_reg});
                12'h00c: stat_data_next = admit_count_reg;
                12'h00d: stat_data_next = underflow_count_reg;
                12'h00e: stat_data_next = rel_bad_index_count_reg;
                12'h00f: stat_data_next = {27'd0, cfg_bad, err_bad_config_reg, err_underflow_reg};
                12'h010: stat_data_next = drop_count_reg[0*32 +: 32];
                12'h011: stat_data_next = drop_count_reg[1*32 +: 32];
                12'h012: stat_data_next = drop_count_reg[2*32 +: 32];
                12'h013: stat_data_next = drop_count_reg[3*32 +: 32];
                12'h014: stat_data_next = drop_count_reg[4*32 +: 32];
                12'h015: stat_data_next = drop_count_reg[5*32 +: 32];
                12'h016: stat_data_next = drop_count_reg[6*32 +: 32];
                12'h017: stat_data_next = arrival_count_reg;
                12'h018: stat_data_next = release_count_reg;
                12'h01e: stat_data_next = PORT_COUNT;
                12'h01f: stat_data_next = CELL_BYTES;
                default: stat_data_next = 32'd0;
            endcase
        end
        4'h1: begin
            if ({23'd0, st_pg_entry} < PG_N) begin
                case (st_pg_field)
                    3'd0: stat_data_next = ext32({1'b0, pg_res_reg[st_pg*CELL_W +: CELL_W]});
                    3'd1: stat_data_next = ext32({1'b0, pg_shared_reg[st_pg*CELL_W +: CELL_W]});
                    3'd2: stat_data_next = ext32({1'b0, pg_hdrm_reg[st_pg*CELL_W +: CELL_W]});
                    3'd3: stat_data_next = ext32({1'b0, pg_res_wm_reg[st_pg*CELL_W +: CELL_W]});
                    3'd4: stat_data_next = ext32({1'b0, pg_shared_wm_reg[st_pg*CELL_W +: CELL_W]});
                    3'd5: stat_data_next = ext32({1'b0, pg_hdrm_wm_reg[st_pg*CELL_W +: CELL_W]});
                    3'd6: stat_data_next = {31'd0, xoff_reg[st_pg]};
                    default: stat_data_next = {{(32-TW){st_t[TW-1]}}, st_t};
                endcase
            end
        end
        4'h2: begin
            if ({22'd0, st_q_entry} < Q_N) begin
                case (st_q_field)
                    2'd0: stat_data_next = ext32({1'b0, q_res_reg[st_q*CELL_W +: CELL_W]});
                    2'd1: stat_data_next = ext32({1'b0, q_shared_reg[st_q*CELL_W +: CELL_W]});
                    2'd2: stat_data_next = ext32({1'b0, q_res_reg[st_q*CELL_W +: CELL_W]}
                                                + {1'b0, q_shared_reg[st_q*CELL_W +: CELL_W]});
                    default: stat_data_next = ext32(q_wm_reg[st_q*(CELL_W+1) +: CELL_W+1]);
                endcase
            end
        end
        default: stat_data_next = 32'd0;
    endcase
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

    stat_data_reg <= stat_data_next;

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
        stat_data_reg <= 32'd0;
    end
end

endmodule

`resetall
