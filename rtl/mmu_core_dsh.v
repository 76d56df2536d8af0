/*
 * mmu_core's headroom policy dsh (Dynamic and Shared Headroom, docs/model.md "Headroom
 * policies", docs/mmu_core.md "DSH"): per ingress port, its headroom counter and watermark,
 * its headroom limit (configuration), the port-level pause requested by its lossless PGs, and
 * the core's pfc_xoff: the queue-level Xoff state ORed with the port's lossless PGs while the
 * port is paused (one PFC frame with every lossless priority, never an 802.3x PAUSE).
 *
 * Per pair it carries the policy of the pair's clock (headroom_policy, captured with the
 * other global fields at E1) to every stage that acts on it, and computes:
 *   - for the decision (mmu_core_view, _decide): the arrival's port headroom limit minus the
 *     cells of the arrivals to that port still in flight (pairs k-6 .. k-1, charged in full),
 *     and the port's counter as committed after pair k-7 (port_lag 7), registered at E5;
 *   - for the PFC evaluation (mmu_core_eval): the queue-level Xoff point X = T - headroom of
 *     the release's, the arrival's and the scan PG, and its XON point min(max(xon, X -
 *     xon_offset), X - 1), carried to E10 beside T (the port-level request keeps T);
 *   - at EVAL3: the PGs' requests (from EVAL2's decoded conditions), the ports' pause (any
 *     request of the port), pfc_xoff / pfc_change.
 * The port counters are updated in the GLOBAL stage (E10 - E11) with what the release took
 * from headroom and what the arrival was admitted to it, under either policy, so a counter is
 * always the sum of its PGs' headroom.
 *
 * Interfaces: cfg_wr_* (the port_headroom fields, region 3, and the PG lossless fields for
 * the mask); the global headroom_policy register (mmu_core_cfg); the per-pair fields
 * (mmu_core_carry); the PG headroom field's read ports (A, R, scan); T, T - xon_offset and
 * xon of stage 5 (mmu_core_view); GLOBAL's release / admitted headroom amounts
 * (mmu_core_commit); EVAL2's decoded request conditions and EVAL3's next Xoff state
 * (mmu_core_eval); the status port's address, and its port word four clocks later
 * (port_headroom in it 0 with CFG_READBACK 0).
 *
 * Latency: the policy and the limit at E1 (a write takes effect for the pairs of the next
 * clock on, as every field); in-flight charge E1 - E3; the counter select E4 - E5; X E5 - E8;
 * requests and pfc_xoff at E14 (RTL_XOFF_LATENCY 14: a port pause reaches pfc_xoff on the
 * same clock as the queue-level XOFF of the evaluation that raised it).  A lossless field
 * written at edge n is in the mask at edge n + 14, so it applies from the pfc_xoff of the
 * pair of clock n + 1 (the configuration of a pair's clock, as everywhere).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_dsh #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of the in-flight charge (mmu_core INFLIGHT_W)
    parameter FW = CELL_W + 3,
    // test only: 3 reads every port's headroom limit one cell larger (negative test of the
    // benches' dsh cases); mmu_core's FAULT_INJECT, whose other values act elsewhere
    parameter FAULT_INJECT = 0,
    // 0: headroom_policy is never dsh (mmu_core HEADROOM_DSH), so no PG ever requests a port
    // pause: the requests, the ports' pause and its counts are constant 0 (not built)
    parameter HEADROOM_DSH = 1,
    // 0: the port's configuration field (port_headroom, field 8) reads 0 through the status
    // port (mmu_core CFG_READBACK); the limit itself is unchanged
    parameter CFG_READBACK = 1,
    // derived, left at their defaults by mmu_core: the port and PG index, cell counts, T and
    // what is compared with it
    parameter PI_W = $clog2(PORT_COUNT),
    parameter IW = PI_W + 3,
    parameter W = CELL_W,
    parameter TW = CELL_W + 10
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * Configuration writes (mmu_core's port) and the global headroom_policy register
     */
    input  wire                 cfg_wr_valid,
    input  wire [15:0]          cfg_wr_addr,
    // (the fields written here are CELL_W bits and one bit wide; the PG of a_i0 is not used)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [31:0]          cfg_wr_data,
    input  wire                 g_dsh_reg,

    /*
     * The per-pair fields (mmu_core_carry): the arrival's index at stage 0, stages 1 to 12
     */
    input  wire [IW-1:0]        a_i0,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [12-1:0]        a_ok_bus,
    input  wire [12*IW-1:0]     a_i_bus,
    input  wire [11*W-1:0]      a_cells_bus,
    input  wire [12*IW-1:0]     r_i_bus,

    /*
     * The PG headroom field's read data (mmu_core_cfg: ports A, R, scan at bits 0, 32, 64
     * of field 5), T, T - xon_offset and xon of stage 5 (mmu_core_view)
     */
    // (of every field's read ports only the headroom's A, R and scan are read here)
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [8*128-1:0]     pgc_rd_bus,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire signed [TW-1:0] tA5, tR5, tS5, xA5, xR5, xS5,
    input  wire [W-1:0]         cA_xon5, cR_xon5, cS_xon5,

    /*
     * GLOBAL's amounts (mmu_core_commit): the headroom the release takes, gr_sel_p ? gr_rc :
     * gr_uh (0 without a release), the headroom admitted
     */
    input  wire [W-1:0]         gr_rc,
    input  wire [W-1:0]         gr_uh,
    input  wire                 gr_sel_p,
    input  wire [W-1:0]         ga_hd,

    /*
     * EVAL2's decoded events and request conditions, EVAL3's next queue-level state
     * (mmu_core_eval)
     */
    input  wire [PORT_COUNT*8-1:0] ev_hit,
    input  wire [PORT_COUNT*8-1:0] ev_ron,
    input  wire [PORT_COUNT*8-1:0] ev_roff,
    input  wire [PORT_COUNT*8-1:0] xoff_next,

    /*
     * For the decision: the pair's policy in stages 3 and 5, the arrival's port limit and
     * in-flight charge (stage 3), the port's counter (stage 5)
     */
    output wire                 dsh3,
    output wire                 dsh5,
    output reg  [W-1:0]         plim3,
    output reg  [FW-1:0]        fport3,
    output reg  [W-1:0]         pcnt5,

    /*
     * For EVAL: the pair's policy in stage 11; X and its XON point of the release's, the
     * arrival's and the scan PG (stage 10)
     */
    output wire                 dsh11,
    output reg  signed [TW-1:0] qtA10, qtR10, qtS10, qxA10, qxR10, qxS10,

    /*
     * PFC (mmu_core's outputs)
     */
    output reg  [PORT_COUNT*8-1:0] pfc_xoff,
    output reg  [PORT_COUNT*8-1:0] pfc_change,

    /*
     * Status: the address (mmu_core's stat_addr), the addressed port's field four clocks on
     * (region 3: 0 hdrm_used, 1 hdrm_wm, 2 xoff, 3 xoff_count, 4 xon_count, 5 requests,
     * 8 port_headroom)
     */
    input  wire [15:0]          stat_addr,
    output reg  [31:0]          st_port4,

    /*
     * Every port's port_headroom (port p at bits p * W), for mmu_cfg_check's ingress_pools rule
     */
    output wire [PORT_COUNT*W-1:0] plim_bus
);

localparam N = PORT_COUNT * 8;

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

function [FW-1:0] fz;       // a cell count in the in-flight charge's width
    input [W-1:0] v;
    begin
        fz = {{(FW-W){1'b0}}, v};
    end
endfunction

// the per-pair fields, stage p at bus slot p - 1 (a_cells: p - 2)
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg a_ok [1:12];
(* mem2reg *) reg [IW-1:0] a_i [1:12];
(* mem2reg *) reg [IW-1:0] r_i [1:12];
(* mem2reg *) reg [W-1:0] a_cells [2:12];
/* verilator lint_on UNUSEDSIGNAL */
genvar pk;
generate
for (pk = 1; pk <= 12; pk = pk + 1) begin : carry
    always @* a_ok[pk] = a_ok_bus[pk-1];
    always @* a_i[pk] = a_i_bus[(pk-1)*IW +: IW];
    always @* r_i[pk] = r_i_bus[(pk-1)*IW +: IW];
end
for (pk = 2; pk <= 12; pk = pk + 1) begin : carry_cells
    always @* a_cells[pk] = a_cells_bus[(pk-2)*W +: W];
end
endgenerate

// ------------------------------------------------------------------------------ configuration
// port_headroom (word 0x6000 | p << 4 | 8): decoded at the write's edge, in its register a
// clock later, as mmu_core_cfg's global fields (so it takes effect for the same pairs)
(* mem2reg *) reg [W-1:0] plim_reg [0:PORT_COUNT-1];
reg          pw_v;
reg [PI_W-1:0] pw_p;
reg [W-1:0]  pw_d;
always @(posedge clk) begin
    pw_v <= cfg_wr_valid && !rst && cfg_wr_addr[15:13] == 3'd3 && cfg_wr_addr[3:0] == 4'd8
            && {23'd0, cfg_wr_addr[12:4]} < PORT_COUNT;
    pw_p <= cfg_wr_addr[4 +: PI_W];
    pw_d <= cfg_wr_data[W-1:0];
    if (pw_v) begin
        plim_reg[pw_p] <= pw_d;
    end
end
integer pi;
initial begin
    for (pi = 0; pi < PORT_COUNT; pi = pi + 1) begin
        plim_reg[pi] = 0;
    end
end
genvar pb;
generate
for (pb = 0; pb < PORT_COUNT; pb = pb + 1) begin : g_plim_bus
    assign plim_bus[pb*W +: W] = plim_reg[pb];
end
endgenerate

// the PGs' lossless fields (0x2000 | i << 4 | 8), delayed so that a write reaches the mask
// when the first pair that sees it reaches EVAL3: the pair of the next clock, 14 clocks on
localparam MASK_DELAY = 14;
(* mem2reg *) reg          mw_v [0:MASK_DELAY-1];
(* mem2reg *) reg [IW-1:0] mw_i [0:MASK_DELAY-1];
(* mem2reg *) reg          mw_d [0:MASK_DELAY-1];
reg [N-1:0] mask_reg;
integer md;
always @(posedge clk) begin
    // (not cleared by rst: the configuration survives it, and so does a write in flight)
    mw_v[0] <= cfg_wr_valid && cfg_wr_addr[15:13] == 3'd1 && cfg_wr_addr[3:0] == 4'd8
               && {23'd0, cfg_wr_addr[12:4]} < N;
    mw_i[0] <= cfg_wr_addr[4 +: IW];
    mw_d[0] <= cfg_wr_data[0];
    for (md = 1; md < MASK_DELAY; md = md + 1) begin
        mw_v[md] <= mw_v[md-1];
        mw_i[md] <= mw_i[md-1];
        mw_d[md] <= mw_d[md-1];
    end
    if (mw_v[MASK_DELAY-1]) begin
        mask_reg[mw_i[MASK_DELAY-1]] <= mw_d[MASK_DELAY-1];
    end
end
initial begin
    mask_reg = {N{1'b0}};
    for (md = 0; md < MASK_DELAY; md = md + 1) begin
        mw_v[md] = 1'b0;
        mw_i[md] = {IW{1'b0}};
        mw_d[md] = 1'b0;
    end
end

// the policy of the pair's clock, stages 1 to 12 (captured with the other global fields)
(* mem2reg *) reg pd [1:12];
integer ps;
always @(posedge clk) begin
    pd[1] <= g_dsh_reg;
    for (ps = 2; ps <= 12; ps = ps + 1) begin
        pd[ps] <= pd[ps-1];
    end
end
assign dsh3 = pd[3];
assign dsh5 = pd[5];
assign dsh11 = pd[11];

// ------------------------------------------------------------------------------ decision
// the arrival's port limit (stage 1, carried to 3); the cells of the arrivals in flight to
// its port, pairs k-1 .. k-6 (stages 2 .. 7 when pair k is in stage 1): two sums of three,
// then one (stage 3)
reg [W-1:0] plim1, plim2;
reg [FW-1:0] fp_a2, fp_b2;
function [FW-1:0] f_of;     // an arrival in flight, charged if it names port p
    input ok;
    input [PI_W-1:0] port;
    input [PI_W-1:0] p;
    input [W-1:0] cells;
    begin
        f_of = (ok && port == p) ? fz(cells) : {FW{1'b0}};
    end
endfunction
always @(posedge clk) begin
    plim1 <= plim_reg[a_i0[IW-1:3]] + {{(W-1){1'b0}}, FAULT_INJECT == 3};
    plim2 <= plim1;
    plim3 <= plim2;
    fp_a2 <= (fo2 ? fz(a_cells[2]) : {FW{1'b0}}) + fc3 + fc4;
    fp_b2 <= fc5 + fc6 + fc7;
    fport3 <= fp_a2 + fp_b2;
end
// the terms a clock ahead: the per-pair fields shift one stage a clock (mmu_core_carry), so
// the term of stage s when pair k is in stage 1 is the one of stage s - 1 a clock before,
// against the index pair k has in stage 0 (a_i0); rst clears the fields of every stage.  Stage
// 2's cells are computed in stage 1, so only its charge flag is taken ahead.
reg          fo2;
reg [FW-1:0] fc3, fc4, fc5, fc6, fc7;
always @(posedge clk) begin
    fo2 <= !rst && a_ok[1] && a_i[1][IW-1:3] == a_i0[IW-1:3];
    fc3 <= rst ? {FW{1'b0}} : f_of(a_ok[2], a_i[2][IW-1:3], a_i0[IW-1:3], a_cells[2]);
    fc4 <= rst ? {FW{1'b0}} : f_of(a_ok[3], a_i[3][IW-1:3], a_i0[IW-1:3], a_cells[3]);
    fc5 <= rst ? {FW{1'b0}} : f_of(a_ok[4], a_i[4][IW-1:3], a_i0[IW-1:3], a_cells[4]);
    fc6 <= rst ? {FW{1'b0}} : f_of(a_ok[5], a_i[5][IW-1:3], a_i0[IW-1:3], a_cells[5]);
    fc7 <= rst ? {FW{1'b0}} : f_of(a_ok[6], a_i[6][IW-1:3], a_i0[IW-1:3], a_cells[6]);
end

// the port headroom counters (GLOBAL, E10 - E11: pair k-7's update is in at E5 of pair k);
// the ports of the release and the arrival decoded a clock ahead (stage 9), the release's
// amount selected at each counter
(* mem2reg *) reg [W-1:0] pcnt_reg [0:PORT_COUNT-1];
(* mem2reg *) reg [W-1:0] pwm_reg [0:PORT_COUNT-1];
reg [PORT_COUNT-1:0] hr10, ha10;
integer pc, hc;
always @(posedge clk) begin
    for (hc = 0; hc < PORT_COUNT; hc = hc + 1) begin
        hr10[hc] <= r_i[9][IW-1:3] == hc[PI_W-1:0];
        ha10[hc] <= a_i[9][IW-1:3] == hc[PI_W-1:0];
    end
end
always @(posedge clk) begin
    for (pc = 0; pc < PORT_COUNT; pc = pc + 1) begin
        pcnt_reg[pc] <= pcnt_reg[pc]
                        - (hr10[pc] ? (gr_sel_p ? gr_rc : gr_uh) : {W{1'b0}})
                        + (ha10[pc] ? ga_hd : {W{1'b0}});
        if (pcnt_reg[pc] > pwm_reg[pc]) begin
            pwm_reg[pc] <= pcnt_reg[pc];
        end
        if (rst) begin
            pcnt_reg[pc] <= 0;
            pwm_reg[pc] <= 0;
        end
    end
    pcnt5 <= pcnt_reg[a_i[4][IW-1:3]];
end

// ------------------------------------------------------------------------------ X
// the PG headroom limits of the arrival's, the release's and the scan PG (stage 3 .. 5), then
// X = T - headroom and its XON point in three steps, as the decision's for T (stages 6 .. 8)
reg [W-1:0] hA3, hR3, hS3, hA4, hR4, hS4, hA5, hR5, hS5;
reg signed [TW-1:0] qtA6, qtR6, qtS6, qoA6, qoR6, qoS6;
reg [W-1:0] xnA6, xnR6, xnS6;
reg signed [TW-1:0] qtA7, qtR7, qtS7, qmA7, qmR7, qmS7, qxA7, qxR7, qxS7;
reg signed [TW-1:0] qtA8, qtR8, qtS8, qxA8, qxR8, qxS8;
reg signed [TW-1:0] qtA9, qtR9, qtS9, qxA9, qxR9, qxS9;
always @(posedge clk) begin
    hA3 <= pgc_rd_bus[5*128 + 0 +: W];
    hR3 <= pgc_rd_bus[5*128 + 32 +: W];
    hS3 <= pgc_rd_bus[5*128 + 64 +: W];
    hA4 <= hA3; hR4 <= hR3; hS4 <= hS3;
    hA5 <= hA4; hR5 <= hR4; hS5 <= hS4;
    // X and X - xon_offset
    qtA6 <= tA5 - tx(hA5); qtR6 <= tR5 - tx(hR5); qtS6 <= tS5 - tx(hS5);
    qoA6 <= xA5 - tx(hA5); qoR6 <= xR5 - tx(hR5); qoS6 <= xS5 - tx(hS5);
    xnA6 <= cA_xon5; xnR6 <= cR_xon5; xnS6 <= cS_xon5;
    // max(xon, X - xon_offset); X - 1
    qtA7 <= qtA6; qtR7 <= qtR6; qtS7 <= qtS6;
    qmA7 <= qtA6 - 1; qmR7 <= qtR6 - 1; qmS7 <= qtS6 - 1;
    qxA7 <= lt_t(qoA6, tx(xnA6)) ? tx(xnA6) : qoA6;
    qxR7 <= lt_t(qoR6, tx(xnR6)) ? tx(xnR6) : qoR6;
    qxS7 <= lt_t(qoS6, tx(xnS6)) ? tx(xnS6) : qoS6;
    // never at or above X
    qtA8 <= qtA7; qtR8 <= qtR7; qtS8 <= qtS7;
    qxA8 <= lt_t(qmA7, qxA7) ? qmA7 : qxA7;
    qxR8 <= lt_t(qmR7, qxR7) ? qmR7 : qxR7;
    qxS8 <= lt_t(qmS7, qxS7) ? qmS7 : qxS7;
    qtA9 <= qtA8; qtR9 <= qtR8; qtS9 <= qtS8;
    qxA9 <= qxA8; qxR9 <= qxR8; qxS9 <= qxS8;
    qtA10 <= qtA9; qtR10 <= qtR9; qtS10 <= qtS9;
    qxA10 <= qxA9; qxR10 <= qxR9; qxS10 <= qxS9;
end

// ------------------------------------------------------------------------------ EVAL3
// each evaluated PG's request set or withdrawn (EVAL2's conditions: set if off and the static
// rule at T says XOFF under dsh; withdrawn if on and it says XON, or the pair's policy is
// static, or the PG's class is lossy); a port is paused while any of its PGs requests;
// pfc_xoff = queue-level state | the port's lossless PGs while paused
reg [N-1:0] req_reg;
reg [PORT_COUNT-1:0] pxoff_reg;
// (a request is only set under dsh: without it, HEADROOM_DSH 0, the requests stay 0, written
// so that synthesis sees it)
wire [N-1:0] req_next = HEADROOM_DSH == 0 ? {N{1'b0}}
                        : (req_reg & ~(ev_hit & ev_roff)) | (~req_reg & ev_hit & ev_ron);
wire [PORT_COUNT-1:0] pxoff_next;
wire [N-1:0] vec_next;
(* mem2reg *) reg [31:0] pon_reg [0:PORT_COUNT-1];
(* mem2reg *) reg [31:0] poff_reg [0:PORT_COUNT-1];
// the pause's edges, from the pause register and its copy a clock later (both registers:
// the counters are not at the end of the request's OR); counted a clock after the edge, so
// pon_inc / poff_inc are part of the count, added back by the status read
reg [PORT_COUNT-1:0] pxoff_d;
wire [PORT_COUNT-1:0] pon_inc = pxoff_reg & ~pxoff_d;
wire [PORT_COUNT-1:0] poff_inc = ~pxoff_reg & pxoff_d;
genvar gp;
generate
for (gp = 0; gp < PORT_COUNT; gp = gp + 1) begin : port_pause
    assign pxoff_next[gp] = |req_next[gp*8 +: 8];
    assign vec_next[gp*8 +: 8] = xoff_next[gp*8 +: 8]
                                 | ({8{pxoff_next[gp]}} & mask_reg[gp*8 +: 8]);
    always @(posedge clk) begin
        pxoff_d[gp] <= pxoff_reg[gp];
        if (pon_inc[gp]) begin
            pon_reg[gp] <= pon_reg[gp] + 1'b1;
        end
        if (poff_inc[gp]) begin
            poff_reg[gp] <= poff_reg[gp] + 1'b1;
        end
        if (rst) begin
            pxoff_d[gp] <= 1'b0;
            pon_reg[gp] <= 0;
            poff_reg[gp] <= 0;
        end
    end
end
endgenerate
always @(posedge clk) begin
    req_reg <= req_next;
    pxoff_reg <= pxoff_next;
    pfc_xoff <= vec_next;
    pfc_change <= vec_next ^ pfc_xoff;
    if (rst) begin
        req_reg <= {N{1'b0}};
        pxoff_reg <= {PORT_COUNT{1'b0}};
        pfc_xoff <= {N{1'b0}};
        pfc_change <= {N{1'b0}};
    end
end

// ------------------------------------------------------------------------------ status
// the addressed port's word: address at n; at n + 1 each field of the addressed port (and its
// pause edges), at n + 2 the addressed field, at n + 3 with the pending edge added (pon_inc /
// poff_inc, counted a clock later), carried to n + 4 (the status port's other regions' words
// are at n + 4 too)
// (the region and the address bits above the port index are the status module's)
/* verilator lint_off UNUSEDSIGNAL */
reg [15:0] sa0;
/* verilator lint_on UNUSEDSIGNAL */
reg [3:0]  sa1;
reg [W-1:0] f_cnt1, f_wm1, f_lim1;
reg [31:0] f_on1, f_off1;
reg [7:0]  f_req1;
reg        f_px1, f_oninc1, f_offinc1;
reg [31:0] sp2, sp3;
reg        sp_inc2;
wire [PI_W-1:0] sp_p = sa0[4 +: PI_W];
// (kept: without it synthesis merges it into the status module's kept address register, whose
// loads are elsewhere)
(* keep *) always @(posedge clk) sa0 <= stat_addr;
always @(posedge clk) begin
    // n + 1: the addressed port's fields (each register next to its source)
    sa1 <= sa0[3:0];
    f_cnt1 <= pcnt_reg[sp_p];
    f_wm1 <= pwm_reg[sp_p];
    f_px1 <= pxoff_reg[sp_p];
    f_on1 <= HEADROOM_DSH != 0 ? pon_reg[sp_p] : 32'd0;
    f_off1 <= HEADROOM_DSH != 0 ? poff_reg[sp_p] : 32'd0;
    f_oninc1 <= HEADROOM_DSH != 0 && pon_inc[sp_p];
    f_offinc1 <= HEADROOM_DSH != 0 && poff_inc[sp_p];
    f_req1 <= req_reg[sp_p*8 +: 8];
    // (the configuration field: 0 with CFG_READBACK 0)
    f_lim1 <= CFG_READBACK != 0 ? plim_reg[sp_p] : {W{1'b0}};
    // n + 2: the field
    case (sa1)
        4'd0: sp2 <= {{(32-W){1'b0}}, f_cnt1};
        4'd1: sp2 <= {{(32-W){1'b0}}, f_wm1};
        4'd2: sp2 <= {31'd0, f_px1};
        4'd3: sp2 <= f_on1;
        4'd4: sp2 <= f_off1;
        4'd5: sp2 <= {24'd0, f_req1};
        4'd8: sp2 <= {{(32-W){1'b0}}, f_lim1};
        default: sp2 <= 32'd0;
    endcase
    sp_inc2 <= (sa1 == 4'd3 && f_oninc1) || (sa1 == 4'd4 && f_offinc1);
    // n + 3, n + 4
    sp3 <= sp2 + {31'd0, sp_inc2};
    st_port4 <= sp3;
end

endmodule

`resetall
