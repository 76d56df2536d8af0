/*
 * Line-rate admission core: ingress (port, PG) and egress (port, queue) cell accounting,
 * Dynamic Threshold and PFC Xoff / Xon, one arrival and one release accepted every clock with
 * no stall, counters and configuration in RAM.  Bit-exact with models/mmu_pipe.py
 * (PipelinedMmu, view_lag 5, global_lag 6, t_lag 10): docs/mmu_core.md "Stages" has the
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
 * Headroom policy (global register headroom_policy): static, each lossless PG's own headroom
 * (capped in sum by the headroom pool), or dsh (mmu_core_dsh: headroom admission against the
 * port's headroom counter, committed after pair k-7 with k-6 .. k-1 charged, port_lag 7;
 * queue-level Xoff at X = T - headroom; the port-level pause, requested by each lossless PG
 * with the static rule at T, ORed into pfc_xoff as the port's lossless PGs, 14 clocks too).
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
 * (stat_data 6 clocks after stat_addr).  Map: docs/mmu_core.md, tb/mmu_core/regmap.py.
 * A small FPGA's build may leave out words of the status map (they read 0): WATERMARKS,
 * COUNTERS, CFG_READBACK (the configuration fields), CFG_CHECK (the configuration flags).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core #(
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
    // width of the in-flight charge, the cells of the up to 5 admitted arrivals not yet
    // committed that each decision subtracts from its limits.  CELL_W + 3 holds any 5
    // requests, so every decision is exact for any request lengths.  A requester that
    // guarantees that the cells of any 5 consecutive requests sum below 2^INFLIGHT_W may set
    // it narrower (CELL_W .. CELL_W + 3): switch_core sets CELL_W, because it asks for a frame
    // only once the frame is in its buffer of fewer than 2^CELL_W cells.  The decision
    // constants are INFLIGHT_W + 3 bits wide.
    parameter INFLIGHT_W = CELL_W + 3,
    // 1: smaller decision stage for slower clocks (mmu_core_decide COMPACT): DEC1a compares
    // only the candidate entry the forwarding selects, one LUT level more (about 700 LUTs
    // fewer at 2 ports); decisions identical
    parameter COMPACT = 0,
    // test only: 1 turns the "shared below T" check into "at or below T" (negative test of the
    // benches); 2 lets the buffer guard admit one cell beyond the buffer (of the formal run);
    // 3 reads every port headroom limit one cell larger (dsh; negative test of the benches)
    parameter FAULT_INJECT = 0,
    // test only: 1 breaks the configuration checker's Xon rule (> for >=; negative test)
    parameter CFG_FAULT_INJECT = 0,
    // test only: 1 leaves EVAL1's event selects out of the reset (negative test of
    // reset_under_traffic)
    parameter RST_FAULT_INJECT = 0,
    // 1: the headroom policy dsh is there (register headroom_policy, mmu_core_dsh); 0 leaves
    // it out: headroom_policy stays 0 and synthesis removes dsh's logic (the static policy's
    // core, for builds that need no dsh)
    parameter HEADROOM_DSH = 1,
    // 1: the per-PG and per-queue watermarks (status: PG fields res_wm, shared_wm, hdrm_wm,
    // queue field wm); 0 leaves them out, they read 0 (their RAMs and their forwarding are not
    // built; the global watermarks stay): a small FPGA's build (docs/regs.md)
    parameter WATERMARKS = 1,
    // 1: the event counters of the status map (admitted, release_underflow, release_bad_index,
    // drops by reason, arrivals, releases); 0 leaves them out, they read 0 (the flags stay,
    // and switch_core counts the drops by reason and per port itself): a small FPGA's build
    parameter COUNTERS = 1,
    // 1: the configuration checker (mmu_cfg_check: the configuration flags, status 0x19, their
    // OR at 0x0F bit 1 and err_bad_config); 0 leaves it out: the flags read 0 and
    // err_bad_config is 0 (a build whose only configuration is an image validated by the model
    // before it was built in: the i5's boot ROM; docs/regs.md "Registers left out")
    parameter CFG_CHECK = 1,
    // 1: the configuration fields read back through the status port (globals 0x20 - 0x27,
    // PG fields 8 - 15, queue fields 8 - 12, port field 8); 0: they read 0 and the
    // configuration RAMs' status read ports and their share of the read mux are not built
    // (writes, and the core's use of the configuration, unchanged; docs/regs.md)
    parameter CFG_READBACK = 1
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

localparam PI_W = $clog2(PORT_COUNT);
localparam IW = PI_W + 3;                 // PG / queue index
localparam W = CELL_W;
localparam SW = INFLIGHT_W + 3;           // signed decision constants
localparam TW = CELL_W + 10;              // T and what is compared with it
localparam XW = CELL_W + 4;               // carry-save sums
localparam PGE_W = 3 * W + 1;             // PG entry {class, res, shared, hdrm}
localparam QE_W = 2 * W + 1;              // queue entry {class, res, shared}
localparam PGW_W = 3 * W;                 // PG watermarks {res, shared, hdrm}
localparam QW_W = W + 1;                  // queue watermark

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
    if (INFLIGHT_W < CELL_W || INFLIGHT_W > CELL_W + 3) begin
        $error("Error: INFLIGHT_W must be CELL_W .. CELL_W + 3 (instance %m)");
        $finish;
    end
end

// ------------------------------------------------------------------------------ parts
// Each part's header says its job, its interfaces and its stages:
//   mmu_core_carry   input registers, request checks and cells, the per-pair fields (E0 - E12)
//   mmu_core_cfg     configuration writes, the configuration RAMs, mmu_cfg_check
//   mmu_core_view    state RAMs, the entries merged with the commits they missed, T, the
//                    decision constants (E1 - E5); in it mmu_core_state (the state RAMs)
//                    and mmu_core_pick (which commit a RAM read missed)
//   mmu_core_decide  DEC1a, DEC1b, DEC2 and the response (E5 - E9)
//   mmu_core_commit  PRE, C1, C2: the exact counters and the commit register (E5 - E11); in
//                    it mmu_core_release (the release's amounts in C2, the underflow)
//   mmu_core_eval    GLOBAL, EVAL0 - EVAL3: pools, PFC Xoff / Xon, watermarks (E10 - E14)
//   mmu_core_dsh     headroom policy dsh: port headroom counters and limits, X = T - headroom,
//                    port-level requests and pause, pfc_xoff (E1 - E14)
//   mmu_core_status  counters and the status port
// The shared functions are in mmu_core_functions.vh.  Per-pair fields and two-entry arrays
// cross between parts as buses (*_bus; field x of stage p at slot p - 1).  A part unpacks a
// bus into a variable array (`(* mem2reg *) reg` written by `always @*`), not a net array:
// Icarus propagates a change of a net array's word through strength-aware functors, and with
// net arrays it simulated the core at half the speed.

assign s_req_ready = 1'b1;
assign s_rel_ready = 1'b1;

// the indices before their input registers: the memories register their own copies
wire [IW-1:0] a_i_in = {s_req_port[PI_W-1:0], s_req_pg[2:0]};
wire [IW-1:0] a_j_in = {s_req_eport[PI_W-1:0], s_req_queue[2:0]};
wire [IW-1:0] r_i_in = {s_rel_port[PI_W-1:0], s_rel_pg[2:0]};
wire [IW-1:0] r_j_in = {s_rel_eport[PI_W-1:0], s_rel_queue[2:0]};
// the status index as the memories register it
wire [IW-1:0] st_idx_in = stat_addr[4 +: IW];

// the scan PG in stage 2, when the configuration RAMs' scan ports give its fields
// (mmu_cfg_check)
wire          sv2;
wire [IW-1:0] sc2;

// the parts' outputs, by the part that drives them
// mmu_core_carry
wire [IW-1:0] scan_cnt_reg;
wire [IW-1:0] sc0;
wire [IW-1:0] a_i0;
wire [IW-1:0] a_j0;
wire [IW-1:0] r_i0;
wire [IW-1:0] r_j0;
wire r_v0;
wire [PORT_W-1:0] r_port0;
wire [PG_W-1:0] r_pg0;
wire [PORT_W-1:0] r_eport0;
wire [Q_W-1:0] r_q0;
wire [12-1:0] a_v_bus;
wire [12-1:0] a_ok_bus;
wire [12-1:0] a_badlen_bus;
wire [12-1:0] a_badidx_bus;
wire [12*IW-1:0] a_i_bus;
wire [12*IW-1:0] a_j_bus;
wire [12*TAG_W-1:0] a_tag_bus;
wire [11*W-1:0] a_cells_bus;
wire [12-1:0] r_ok_bus;
wire [12*IW-1:0] r_i_bus;
wire [12*IW-1:0] r_j_bus;
wire [12*W-1:0] r_c_bus;
wire [12*IW-1:0] sc_bus;
wire [12-1:0] sv_bus;
// mmu_core_cfg
wire [CELL_W-1:0] g_buffer_reg;
wire [31:0] g_max_frame_reg;
wire [2*CELL_W-1:0] g_pool_bus;
wire [CELL_W-1:0] g_hdrm_pool_reg;
wire [2*CELL_W-1:0] g_epool_bus;
wire g_dsh_reg;
wire [8*128-1:0] pgc_rd_bus;
wire [8*128-1:0] qc_rd_bus;
wire [8:0] cfg_flags;
wire cfg_bad;
// mmu_core_view
wire [4*PGE_W-1:0] pgs_rd;
wire [3*QE_W-1:0] qs_rd;
wire [2*PGW_W-1:0] pgw_rd;
wire [2*QW_W-1:0] qw_rd;
wire [PGE_W-1:0] eA5;
wire [PGE_W-1:0] eR5;
wire [PGE_W-1:0] eS5;
wire [QE_W-1:0] qA5;
wire [QE_W-1:0] qR5;
wire signed [SW-1:0] kR, k1, kG, kH1, kH2, kHP1, kHP2;
wire [2*SW-1:0] kP1_bus;
wire [2*SW-1:0] kP2_bus;
wire [2*TW-1:0] kT_bus;
wire [2*TW-1:0] kTQ_bus;
wire signed [SW-1:0] kQR, kQ1;
wire [2*SW-1:0] kE1_bus;
wire [2*SW-1:0] kE2_bus;
wire hp_none5;
wire signed [TW-1:0] tA5, tR5, tS5, xA5, xR5, xS5;
wire f_same1_pg5, f_same2_pg5, f_same3_pg5, f_same4_pg5;
wire f_same1_q5, f_same2_q5, f_same3_q5, f_same4_q5;
wire mA5_a, mA5_r, mR5_a, mR5_r, mS5_a, mS5_r, nA5_a, nA5_r, nR5_a;
wire nR5_r;
wire emptyA5, emptyQ5;
wire cA_ll6;
wire cQ_ll6;
wire [W-1:0] cA_xon5;
wire [W-1:0] cR_xon5;
wire [W-1:0] cS_xon5;
wire [PGW_W-1:0] wA11;
wire [QW_W-1:0] wQ11;
// mmu_core_decide
wire d_admit;
wire dec_valid_reg, dec_admit_reg, dec_class_reg, dec_qclass_reg;
wire [2:0] dec_reason_reg;
wire [W-1:0] dec_tr_reg, dec_etr_reg, dec_esh_reg, dec_rem_reg;
wire [W-1:0] d2_rem, d2_to_res, d2_erem, d2_eto_res;
wire [3:0] dg_admit, dg_shared;
wire [W-1:0] g_sh, g_hd, g_cl, g_esh;
wire resp_valid_reg, resp_admit_reg;
wire [PGE_W-1:0] e2A, e2R, e2S;
wire [QE_W-1:0] q2A, q2R;
wire [W+1:0] hsA8, hsrA8, hsR8, hsrR8, qsrA8, qsrR8;
wire signed [TW-1:0] tA8, tR8, tS8, xA8, xR8, xS8;
wire mA8_a, mA8_r, mR8_a, mR8_r, mS8_a, mS8_r, nA8_a, nA8_r, nR8_a;
wire nR8_r;
wire same_pg7, same_q7;
wire c_same_pg;
// mmu_core_commit
wire [2*PGE_W-1:0] cm_pg_val_reg;
wire [2*QE_W-1:0] cm_q_val_reg;
wire [2*(W+2)-1:0] cm_pg_hs_reg, cm_pg_hsr_reg, cm_q_qsr_reg;
wire cm_pg_empty_reg, cm_q_empty_reg;
wire [2*PGE_W-1:0] cmd_pg_val_reg;
wire [2*QE_W-1:0] cmd_q_val_reg;
wire [2*2*PGE_W-1:0] cmh_pg_val_bus;
wire [2*2*QE_W-1:0] cmh_q_val_bus;
wire adm9, cls9, qcls9;
wire cls10, qcls10;
wire [PGE_W-1:0] eA10, eS10;
wire [QE_W-1:0] qA10;
wire signed [TW-1:0] tA10, tR10, tS10, xA10, xR10, xS10;
wire adm10;
wire same_pg10, eS10_a, eS10_r;
wire [2*XW-1:0] v_h_bus;
wire [2*XW-1:0] v_s_bus;
wire [W-1:0] gr_rc, gr_uhsr, gr_uh;
wire [2*W-1:0] gr_uch_bus, gr_us_bus, gr_rcq_bus, gr_uq_bus;
wire gr_sel_t, gr_sel_h, gr_sel_p;
wire [1:0] gr_zero_s, gr_sel_s, gr_sel_es;
wire [W-1:0] ga_c, ga_hd;
wire [2*W-1:0] ga_sh_bus;
wire [2*W-1:0] ga_esh_bus;
wire [1:0] err_flags_reg;
wire [31:0] underflow_count_reg;
// mmu_core_eval
wire [W-1:0] total_reg;
wire [W-1:0] hpool_reg;
wire [2*W-1:0] pool_bus;
wire [2*W-1:0] epool_bus;
wire [W-1:0] wc_hpool, wc_total;
wire [2*W-1:0] wc_pool_bus;
wire [2*W-1:0] wc_epool_bus;
wire adm11;
wire [1:0] adm11_wr;
wire wm_en_reg;
wire [IW-1:0] wm_i_reg, wm_j_reg;
wire [PGW_W-1:0] wm_pg_reg;
wire [QW_W-1:0] wm_q_reg;
wire [1:0] wmh_en_bus;
wire [2*IW-1:0] wmh_i_bus;
wire [2*IW-1:0] wmh_j_bus;
wire [2*PGW_W-1:0] wmh_pg_bus;
wire [2*QW_W-1:0] wmh_q_bus;
wire [PORT_COUNT*8-1:0] xoff_reg, xoff_next, ev_hit_reg, ev_ron_reg, ev_roff_reg;
// mmu_core_dsh
wire dsh3, dsh5, dsh11;
wire [W-1:0] plim3;
wire [INFLIGHT_W-1:0] fport3;
wire [W-1:0] pcnt5;
wire signed [TW-1:0] qtA10, qtR10, qtS10, qxA10, qxR10, qxS10;
wire [31:0] st_port4;
wire [PORT_COUNT*W-1:0] plim_bus;

assign sv2 = sv_bus[2-1];
assign sc2 = sc_bus[(2-1)*IW +: IW];
assign err_bad_config = cfg_bad;

mmu_core_carry #(.PORT_COUNT(PORT_COUNT), .CELL_W(CELL_W), .PORT_W(PORT_W), .PG_W(PG_W), .Q_W(Q_W),
                 .CELL_BYTES(CELL_BYTES), .LEN_W(LEN_W), .TAG_W(TAG_W))
carry_inst (
    .clk(clk), .rst(rst), .s_req_valid(s_req_valid), .s_req_port(s_req_port), .s_req_pg(s_req_pg),
    .s_req_eport(s_req_eport), .s_req_queue(s_req_queue), .s_req_len(s_req_len),
    .s_req_tag(s_req_tag), .s_rel_valid(s_rel_valid), .s_rel_port(s_rel_port),
    .s_rel_pg(s_rel_pg), .s_rel_eport(s_rel_eport), .s_rel_queue(s_rel_queue),
    .s_rel_cells(s_rel_cells), .g_max_frame_reg(g_max_frame_reg), .scan_cnt_reg(scan_cnt_reg),
    .sc0(sc0), .a_i0(a_i0), .a_j0(a_j0), .r_i0(r_i0), .r_j0(r_j0), .r_v0(r_v0), .r_port0(r_port0),
    .r_pg0(r_pg0), .r_eport0(r_eport0), .r_q0(r_q0), .a_v_bus(a_v_bus), .a_ok_bus(a_ok_bus),
    .a_badlen_bus(a_badlen_bus), .a_badidx_bus(a_badidx_bus), .a_i_bus(a_i_bus),
    .a_j_bus(a_j_bus), .a_tag_bus(a_tag_bus), .a_cells_bus(a_cells_bus), .r_ok_bus(r_ok_bus),
    .r_i_bus(r_i_bus), .r_j_bus(r_j_bus), .r_c_bus(r_c_bus), .sc_bus(sc_bus), .sv_bus(sv_bus)
);

mmu_core_cfg #(.PORT_COUNT(PORT_COUNT), .CELL_BYTES(CELL_BYTES), .CELL_W(CELL_W),
               .LEN_W(LEN_W), .CFG_FAULT_INJECT(CFG_FAULT_INJECT), .HEADROOM_DSH(HEADROOM_DSH),
               .CFG_CHECK(CFG_CHECK))
cfg_inst (
    .clk(clk), .rst(rst), .cfg_wr_valid(cfg_wr_valid), .cfg_wr_addr(cfg_wr_addr),
    .cfg_wr_data(cfg_wr_data), .a_i_in(a_i_in), .r_i_in(r_i_in), .a_j_in(a_j_in),
    .scan_cnt_reg(scan_cnt_reg), .st_idx_in(st_idx_in), .scan_valid(sv2), .scan_idx(sc2),
    .plim_bus(plim_bus),
    .g_buffer_reg(g_buffer_reg), .g_max_frame_reg(g_max_frame_reg), .g_pool_bus(g_pool_bus),
    .g_hdrm_pool_reg(g_hdrm_pool_reg), .g_epool_bus(g_epool_bus), .g_dsh_reg(g_dsh_reg),
    .pgc_rd_bus(pgc_rd_bus), .qc_rd_bus(qc_rd_bus), .cfg_flags(cfg_flags), .cfg_bad(cfg_bad)
);

mmu_core_view #(.PORT_COUNT(PORT_COUNT), .CELL_W(CELL_W), .FW(INFLIGHT_W), .PORT_W(PORT_W),
                .PG_W(PG_W), .Q_W(Q_W), .WATERMARKS(WATERMARKS))
view_inst (
    .clk(clk), .rst(rst), .a_i_in(a_i_in), .a_j_in(a_j_in), .r_i_in(r_i_in), .r_j_in(r_j_in),
    .st_idx_in(st_idx_in), .scan_cnt_reg(scan_cnt_reg), .a_i0(a_i0), .a_j0(a_j0), .r_i0(r_i0),
    .r_j0(r_j0), .sc0(sc0), .a_ok_bus(a_ok_bus), .a_i_bus(a_i_bus), .a_j_bus(a_j_bus),
    .a_cells_bus(a_cells_bus), .r_ok_bus(r_ok_bus), .r_i_bus(r_i_bus), .r_j_bus(r_j_bus),
    .sc_bus(sc_bus), .g_buffer_reg(g_buffer_reg), .g_pool_bus(g_pool_bus),
    .g_hdrm_pool_reg(g_hdrm_pool_reg), .dsh3(dsh3), .plim3(plim3), .fport3(fport3),
    .g_epool_bus(g_epool_bus), .pgc_rd_bus(pgc_rd_bus), .qc_rd_bus(qc_rd_bus),
    .d_admit(d_admit), .dec_admit_reg(dec_admit_reg), .adm9(adm9),
    .cm_pg_val_reg(cm_pg_val_reg), .cm_q_val_reg(cm_q_val_reg), .cm_pg_empty_reg(cm_pg_empty_reg),
    .cm_q_empty_reg(cm_q_empty_reg), .cmh_pg_val_bus(cmh_pg_val_bus),
    .cmh_q_val_bus(cmh_q_val_bus), .adm11(adm11), .adm11_wr(adm11_wr), .wm_en_reg(wm_en_reg),
    .wm_i_reg(wm_i_reg),
    .wm_j_reg(wm_j_reg), .wm_pg_reg(wm_pg_reg), .wm_q_reg(wm_q_reg), .wmh_en_bus(wmh_en_bus),
    .wmh_i_bus(wmh_i_bus), .wmh_j_bus(wmh_j_bus), .wmh_pg_bus(wmh_pg_bus), .wmh_q_bus(wmh_q_bus),
    .pool_bus(pool_bus), .epool_bus(epool_bus), .pgs_rd(pgs_rd), .qs_rd(qs_rd), .pgw_rd(pgw_rd),
    .qw_rd(qw_rd), .eA5(eA5), .eR5(eR5), .eS5(eS5), .qA5(qA5), .qR5(qR5), .kR(kR), .k1(k1),
    .kG(kG), .kH1(kH1), .kH2(kH2), .kHP1(kHP1), .kHP2(kHP2), .kP1_bus(kP1_bus), .kP2_bus(kP2_bus),
    .kT_bus(kT_bus), .kTQ_bus(kTQ_bus), .kQR(kQR), .kQ1(kQ1), .kE1_bus(kE1_bus),
    .kE2_bus(kE2_bus), .hp_none5(hp_none5), .tA5(tA5), .tR5(tR5), .tS5(tS5), .xA5(xA5), .xR5(xR5),
    .xS5(xS5), .f_same1_pg5(f_same1_pg5), .f_same2_pg5(f_same2_pg5), .f_same3_pg5(f_same3_pg5),
    .f_same4_pg5(f_same4_pg5), .f_same1_q5(f_same1_q5), .f_same2_q5(f_same2_q5),
    .f_same3_q5(f_same3_q5), .f_same4_q5(f_same4_q5), .mA5_a(mA5_a), .mA5_r(mA5_r), .mR5_a(mR5_a),
    .mR5_r(mR5_r), .mS5_a(mS5_a), .mS5_r(mS5_r), .nA5_a(nA5_a), .nA5_r(nA5_r), .nR5_a(nR5_a),
    .nR5_r(nR5_r), .emptyA5(emptyA5), .emptyQ5(emptyQ5), .cA_ll6(cA_ll6), .cQ_ll6(cQ_ll6),
    .cA_xon5(cA_xon5), .cR_xon5(cR_xon5), .cS_xon5(cS_xon5), .wA11(wA11), .wQ11(wQ11)
);

mmu_core_decide #(.PORT_COUNT(PORT_COUNT), .CELL_W(CELL_W), .FW(INFLIGHT_W), .PORT_W(PORT_W),
                  .PG_W(PG_W), .Q_W(Q_W), .TAG_W(TAG_W), .COMPACT(COMPACT), .FAULT_INJECT(FAULT_INJECT))
decide_inst (
    .clk(clk), .rst(rst), .a_v_bus(a_v_bus), .a_ok_bus(a_ok_bus), .a_badlen_bus(a_badlen_bus),
    .a_badidx_bus(a_badidx_bus), .a_i_bus(a_i_bus), .a_j_bus(a_j_bus), .a_tag_bus(a_tag_bus),
    .a_cells_bus(a_cells_bus), .r_ok_bus(r_ok_bus), .r_i_bus(r_i_bus), .r_j_bus(r_j_bus),
    .r_c_bus(r_c_bus), .sc_bus(sc_bus), .eA5(eA5), .eR5(eR5), .eS5(eS5), .qA5(qA5), .qR5(qR5),
    .kR(kR), .k1(k1), .kG(kG), .kH1(kH1), .kH2(kH2), .kHP1(kHP1), .kHP2(kHP2), .kP1_bus(kP1_bus),
    .kP2_bus(kP2_bus), .kT_bus(kT_bus), .kTQ_bus(kTQ_bus), .kQR(kQR), .kQ1(kQ1),
    .kE1_bus(kE1_bus), .kE2_bus(kE2_bus), .hp_none5(hp_none5), .tA5(tA5), .tR5(tR5), .tS5(tS5),
    .xA5(xA5), .xR5(xR5), .xS5(xS5), .f_same1_pg5(f_same1_pg5), .f_same2_pg5(f_same2_pg5),
    .f_same3_pg5(f_same3_pg5), .f_same4_pg5(f_same4_pg5), .f_same1_q5(f_same1_q5),
    .f_same2_q5(f_same2_q5), .f_same3_q5(f_same3_q5), .f_same4_q5(f_same4_q5), .mA5_a(mA5_a),
    .mA5_r(mA5_r), .mR5_a(mR5_a), .mR5_r(mR5_r), .mS5_a(mS5_a), .mS5_r(mS5_r), .nA5_a(nA5_a),
    .nA5_r(nA5_r), .nR5_a(nR5_a), .nR5_r(nR5_r), .emptyA5(emptyA5), .emptyQ5(emptyQ5),
    .cA_ll6(cA_ll6), .cQ_ll6(cQ_ll6), .cA_xon5(cA_xon5), .cR_xon5(cR_xon5), .cS_xon5(cS_xon5),
    .adm9(adm9), .cls9(cls9), .qcls9(qcls9), .cls10(cls10), .qcls10(qcls10),
    .cm_pg_val_reg(cm_pg_val_reg), .cm_q_val_reg(cm_q_val_reg), .cm_pg_hs_reg(cm_pg_hs_reg),
    .cm_pg_hsr_reg(cm_pg_hsr_reg), .cm_q_qsr_reg(cm_q_qsr_reg), .cm_pg_empty_reg(cm_pg_empty_reg),
    .cm_q_empty_reg(cm_q_empty_reg), .cmd_pg_val_reg(cmd_pg_val_reg),
    .cmd_q_val_reg(cmd_q_val_reg), .total_reg(total_reg), .hpool_reg(hpool_reg),
    .dsh5(dsh5), .pcnt5(pcnt5),
    .pool_bus(pool_bus), .epool_bus(epool_bus), .m_resp_valid(m_resp_valid),
    .m_resp_admit(m_resp_admit), .m_resp_reason(m_resp_reason), .m_resp_cells(m_resp_cells),
    .m_resp_res(m_resp_res), .m_resp_shared(m_resp_shared), .m_resp_hdrm(m_resp_hdrm),
    .m_resp_eres(m_resp_eres), .m_resp_eshared(m_resp_eshared), .m_resp_tag(m_resp_tag),
    .d_admit(d_admit), .dec_valid_reg(dec_valid_reg), .dec_admit_reg(dec_admit_reg),
    .dec_class_reg(dec_class_reg), .dec_qclass_reg(dec_qclass_reg),
    .dec_reason_reg(dec_reason_reg), .dec_tr_reg(dec_tr_reg), .dec_etr_reg(dec_etr_reg),
    .dec_esh_reg(dec_esh_reg), .dec_rem_reg(dec_rem_reg), .d2_rem(d2_rem), .d2_to_res(d2_to_res),
    .d2_erem(d2_erem), .d2_eto_res(d2_eto_res), .dg_admit(dg_admit), .dg_shared(dg_shared),
    .g_sh(g_sh), .g_hd(g_hd), .g_cl(g_cl), .g_esh(g_esh), .resp_valid_reg(resp_valid_reg),
    .resp_admit_reg(resp_admit_reg), .e2A(e2A), .e2R(e2R), .e2S(e2S), .q2A(q2A), .q2R(q2R),
    .hsA8(hsA8), .hsrA8(hsrA8), .hsR8(hsR8), .hsrR8(hsrR8), .qsrA8(qsrA8), .qsrR8(qsrR8),
    .tA8(tA8), .tR8(tR8), .tS8(tS8), .xA8(xA8), .xR8(xR8), .xS8(xS8), .mA8_a(mA8_a),
    .mA8_r(mA8_r), .mR8_a(mR8_a), .mR8_r(mR8_r), .mS8_a(mS8_a), .mS8_r(mS8_r), .nA8_a(nA8_a),
    .nA8_r(nA8_r), .nR8_a(nR8_a), .nR8_r(nR8_r), .same_pg7(same_pg7), .same_q7(same_q7),
    .c_same_pg(c_same_pg)
);

mmu_core_commit #(.PORT_COUNT(PORT_COUNT), .CELL_W(CELL_W), .PORT_W(PORT_W), .PG_W(PG_W), .Q_W(Q_W))
commit_inst (
    .clk(clk), .rst(rst), .a_ok_bus(a_ok_bus), .a_badlen_bus(a_badlen_bus),
    .a_badidx_bus(a_badidx_bus), .a_i_bus(a_i_bus), .a_j_bus(a_j_bus), .a_cells_bus(a_cells_bus),
    .r_ok_bus(r_ok_bus), .r_i_bus(r_i_bus), .r_j_bus(r_j_bus), .r_c_bus(r_c_bus), .sc_bus(sc_bus),
    .dec_admit_reg(dec_admit_reg), .dec_class_reg(dec_class_reg), .dec_qclass_reg(dec_qclass_reg),
    .dec_tr_reg(dec_tr_reg), .dec_etr_reg(dec_etr_reg), .dec_esh_reg(dec_esh_reg),
    .dec_rem_reg(dec_rem_reg), .d2_rem(d2_rem), .d2_to_res(d2_to_res), .d2_erem(d2_erem),
    .d2_eto_res(d2_eto_res), .dg_admit(dg_admit), .dg_shared(dg_shared), .g_sh(g_sh), .g_hd(g_hd),
    .g_cl(g_cl), .g_esh(g_esh), .e2A(e2A), .e2R(e2R), .e2S(e2S), .q2A(q2A), .q2R(q2R),
    .hsA8(hsA8), .hsrA8(hsrA8), .hsR8(hsR8), .hsrR8(hsrR8), .qsrA8(qsrA8), .qsrR8(qsrR8),
    .tA8(tA8), .tR8(tR8), .tS8(tS8), .xA8(xA8), .xR8(xR8), .xS8(xS8), .mA8_a(mA8_a),
    .mA8_r(mA8_r), .mR8_a(mR8_a), .mR8_r(mR8_r), .mS8_a(mS8_a), .mS8_r(mS8_r), .nA8_a(nA8_a),
    .nA8_r(nA8_r), .nR8_a(nR8_a), .nR8_r(nR8_r), .same_pg7(same_pg7), .same_q7(same_q7),
    .c_same_pg(c_same_pg), .cm_pg_val_reg(cm_pg_val_reg), .cm_q_val_reg(cm_q_val_reg),
    .cm_pg_hs_reg(cm_pg_hs_reg), .cm_pg_hsr_reg(cm_pg_hsr_reg), .cm_q_qsr_reg(cm_q_qsr_reg),
    .cm_pg_empty_reg(cm_pg_empty_reg), .cm_q_empty_reg(cm_q_empty_reg),
    .cmd_pg_val_reg(cmd_pg_val_reg), .cmd_q_val_reg(cmd_q_val_reg),
    .cmh_pg_val_bus(cmh_pg_val_bus), .cmh_q_val_bus(cmh_q_val_bus), .adm9(adm9), .cls9(cls9),
    .qcls9(qcls9), .cls10(cls10), .qcls10(qcls10), .eA10(eA10), .eS10(eS10), .qA10(qA10),
    .tA10(tA10), .tR10(tR10), .tS10(tS10), .xA10(xA10), .xR10(xR10), .xS10(xS10), .adm10(adm10),
    .same_pg10(same_pg10), .eS10_a(eS10_a), .eS10_r(eS10_r), .v_h_bus(v_h_bus), .v_s_bus(v_s_bus),
    .gr_rc(gr_rc), .gr_uhsr(gr_uhsr), .gr_uh(gr_uh), .gr_uch_bus(gr_uch_bus),
    .gr_us_bus(gr_us_bus), .gr_rcq_bus(gr_rcq_bus), .gr_uq_bus(gr_uq_bus), .gr_sel_t(gr_sel_t),
    .gr_sel_h(gr_sel_h), .gr_sel_p(gr_sel_p), .gr_zero_s(gr_zero_s), .gr_sel_s(gr_sel_s),
    .gr_sel_es(gr_sel_es),
    .ga_c(ga_c), .ga_hd(ga_hd), .ga_sh_bus(ga_sh_bus), .ga_esh_bus(ga_esh_bus),
    .err_release_underflow(err_release_underflow), .err_flags_reg(err_flags_reg),
    .underflow_count_reg(underflow_count_reg)
);

mmu_core_eval #(.PORT_COUNT(PORT_COUNT), .CELL_W(CELL_W), .PORT_W(PORT_W), .PG_W(PG_W),
                .Q_W(Q_W), .RST_FAULT_INJECT(RST_FAULT_INJECT), .WATERMARKS(WATERMARKS))
eval_inst (
    .clk(clk), .rst(rst), .a_ok_bus(a_ok_bus), .a_i_bus(a_i_bus), .a_j_bus(a_j_bus),
    .r_ok_bus(r_ok_bus), .r_i_bus(r_i_bus), .sc_bus(sc_bus), .sv_bus(sv_bus),
    .cm_pg_val_reg(cm_pg_val_reg), .cm_q_val_reg(cm_q_val_reg), .eA10(eA10), .eS10(eS10),
    .qA10(qA10), .tA10(tA10), .tR10(tR10), .tS10(tS10), .xA10(xA10), .xR10(xR10), .xS10(xS10),
    .adm10(adm10), .same_pg10(same_pg10), .eS10_a(eS10_a), .eS10_r(eS10_r), .v_h_bus(v_h_bus),
    .v_s_bus(v_s_bus), .gr_rc(gr_rc), .gr_uhsr(gr_uhsr), .gr_uh(gr_uh),
    .gr_uch_bus(gr_uch_bus), .gr_us_bus(gr_us_bus), .gr_rcq_bus(gr_rcq_bus),
    .gr_uq_bus(gr_uq_bus), .gr_sel_t(gr_sel_t), .gr_sel_h(gr_sel_h), .gr_zero_s(gr_zero_s),
    .gr_sel_s(gr_sel_s), .gr_sel_es(gr_sel_es), .ga_c(ga_c), .ga_hd(ga_hd), .ga_sh_bus(ga_sh_bus), .ga_esh_bus(ga_esh_bus),
    .wA11(wA11), .wQ11(wQ11), .qtA10(qtA10), .qtR10(qtR10), .qtS10(qtS10), .qxA10(qxA10),
    .qxR10(qxR10), .qxS10(qxS10), .dsh11(dsh11), .xoff_reg(xoff_reg), .xoff_next(xoff_next),
    .ev_hit_reg(ev_hit_reg), .ev_ron_reg(ev_ron_reg), .ev_roff_reg(ev_roff_reg),
    .total_reg(total_reg),
    .hpool_reg(hpool_reg), .pool_bus(pool_bus), .epool_bus(epool_bus), .wc_hpool(wc_hpool),
    .wc_total(wc_total), .wc_pool_bus(wc_pool_bus), .wc_epool_bus(wc_epool_bus), .adm11(adm11),
    .adm11_wr(adm11_wr), .wm_en_reg(wm_en_reg), .wm_i_reg(wm_i_reg), .wm_j_reg(wm_j_reg),
    .wm_pg_reg(wm_pg_reg),
    .wm_q_reg(wm_q_reg), .wmh_en_bus(wmh_en_bus), .wmh_i_bus(wmh_i_bus), .wmh_j_bus(wmh_j_bus),
    .wmh_pg_bus(wmh_pg_bus), .wmh_q_bus(wmh_q_bus)
);

mmu_core_status #(.PORT_COUNT(PORT_COUNT), .CELL_W(CELL_W), .PORT_W(PORT_W), .PG_W(PG_W), .Q_W(Q_W),
                  .CELL_BYTES(CELL_BYTES), .COUNTERS(COUNTERS), .CFG_READBACK(CFG_READBACK))
status_inst (
    .clk(clk), .rst(rst), .stat_addr(stat_addr), .stat_data(stat_data), .r_v0(r_v0),
    .r_port0(r_port0), .r_pg0(r_pg0), .r_eport0(r_eport0), .r_q0(r_q0),
    .dec_valid_reg(dec_valid_reg), .dec_admit_reg(dec_admit_reg), .dec_reason_reg(dec_reason_reg),
    .resp_valid_reg(resp_valid_reg), .resp_admit_reg(resp_admit_reg),
    .err_flags_reg(err_flags_reg), .underflow_count_reg(underflow_count_reg),
    .total_reg(total_reg), .hpool_reg(hpool_reg), .pool_bus(pool_bus), .epool_bus(epool_bus),
    .wc_hpool(wc_hpool), .wc_total(wc_total), .wc_pool_bus(wc_pool_bus),
    .wc_epool_bus(wc_epool_bus), .xoff_reg(xoff_reg), .pgs_rd(pgs_rd), .qs_rd(qs_rd),
    .pgw_rd(pgw_rd), .qw_rd(qw_rd), .pgc_rd_bus(pgc_rd_bus), .qc_rd_bus(qc_rd_bus),
    .g_buffer_reg(g_buffer_reg), .g_max_frame_reg(g_max_frame_reg), .g_pool_bus(g_pool_bus),
    .g_hdrm_pool_reg(g_hdrm_pool_reg), .g_epool_bus(g_epool_bus), .g_dsh_reg(g_dsh_reg),
    .st_port4(st_port4), .cfg_flags(cfg_flags), .cfg_bad(cfg_bad)
);

mmu_core_dsh #(.PORT_COUNT(PORT_COUNT), .CELL_W(CELL_W), .FW(INFLIGHT_W),
               .FAULT_INJECT(FAULT_INJECT), .HEADROOM_DSH(HEADROOM_DSH),
               .CFG_READBACK(CFG_READBACK))
dsh_inst (
    .clk(clk), .rst(rst), .cfg_wr_valid(cfg_wr_valid), .cfg_wr_addr(cfg_wr_addr),
    .cfg_wr_data(cfg_wr_data), .g_dsh_reg(g_dsh_reg), .a_i0(a_i0), .a_ok_bus(a_ok_bus),
    .a_i_bus(a_i_bus), .a_cells_bus(a_cells_bus), .r_i_bus(r_i_bus), .pgc_rd_bus(pgc_rd_bus),
    .tA5(tA5), .tR5(tR5), .tS5(tS5), .xA5(xA5), .xR5(xR5), .xS5(xS5), .cA_xon5(cA_xon5),
    .cR_xon5(cR_xon5), .cS_xon5(cS_xon5), .gr_rc(gr_rc), .gr_uh(gr_uh), .gr_sel_p(gr_sel_p),
    .ga_hd(ga_hd), .ev_hit(ev_hit_reg), .ev_ron(ev_ron_reg), .ev_roff(ev_roff_reg), .xoff_next(xoff_next), .dsh3(dsh3),
    .dsh5(dsh5), .plim3(plim3), .fport3(fport3), .pcnt5(pcnt5), .dsh11(dsh11), .qtA10(qtA10),
    .qtR10(qtR10), .qtS10(qtS10), .qxA10(qxA10), .qxR10(qxR10), .qxS10(qxS10),
    .pfc_xoff(pfc_xoff), .pfc_change(pfc_change), .stat_addr(stat_addr), .st_port4(st_port4),
    .plim_bus(plim_bus)
);

`ifdef FORMAL
`include "mmu_core_formal.vh"
`endif

endmodule

`resetall
