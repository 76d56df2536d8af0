/*
 * sw_pfc_guard: the switch core's two guards against PFC gone wrong (docs/watchdog.md).
 *
 * PFC watchdog (WATCHDOG_ENABLE, one pfc_watchdog per egress port, SONiC pfcwd semantics):
 * the egress scheduler sees pause through the port's watchdog, which ignores received PFC on a
 * priority in a storm (paused while its queue holds frames for cfg_wd_detect_time clocks).
 * Under the drop action the queues the stormed priorities map to are marked (m_qdrop): the
 * read stage discards their frames at dequeue.  Each port counts the frames its read stage
 * dequeues from a queue in recovery, discarded (action drop) or sent (action forward).
 *
 * Deadlock prevention (PREVENT_ENABLE, seed 004 2.1.3): a frame entering and leaving through
 * ports of one port group (cfg_port_group, not 0) is a high-risk flow; same_group[p] tells
 * sw_ingress of port p so on its beat's tdest, and sw_ingress remaps the frame to the
 * alternate priority (rewriting PCP / DSCP / the IPv4 checksum).  The good frames remapped
 * are counted per group when their request goes to mmu_core (the write stage's slot).
 *
 * Interfaces:
 *   pause / rx_pfc_prio       pfc_rx of each port (port p at [p*8 +: 8])
 *   q_ne                      queue {p, q} holds frames (the queue lists' flag, port p queue
 *                             q at [p*8 + q])
 *   deq_*                     the read stage's dequeue commit: port and queue {p, q}
 *   sched_pause               pause as the egress scheduler is to see it (= pause without a
 *                             watchdog)
 *   qdrop                     queue {p, q} is in storm recovery with action drop
 *   rx_tdest / same_group     each ingress port's beat after its input register, and its
 *                             verdict for sw_ingress
 *   req_*                     the write stage's slot sends a good frame's request to mmu_core,
 *                             from ingress port req_port; in_remap / in_tagged: the ingress
 *                             words' flags
 *   cfg_*, stat_*             the switch registers' fields (docs/regs.md)
 *
 * Latency: pfc_watchdog's (pause_in to pause_out combinational in IDLE, storm flags
 * registered); same_group is combinational from rx_tdest and the configuration; the counters
 * move on the clock after their event.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_pfc_guard #(
    // number of ports
    parameter PORT_COUNT = 4,
    // port index width, $clog2(PORT_COUNT)
    parameter P_W = 2,
    // tdest width
    parameter DEST_WIDTH = 8,
    // one pfc_watchdog per port; 0: pause passes through, no watchdog logic, stat_wd_* read 0
    parameter WATCHDOG_ENABLE = 1,
    // deadlock prevention; 0: same_group is 0, no logic, stat_prev_* read 0
    parameter PREVENT_ENABLE = 1,
    // width of a port group id; groups 1 .. 2^GROUP_W - 1, 0 = in no group
    parameter GROUP_W = 2
) (
    input  wire                                clk,
    input  wire                                rst,

    /*
     * PFC watchdog: pfc_rx, the queue lists, the read stage, the scheduler
     */
    input  wire [PORT_COUNT*8-1:0]             pause,
    input  wire [PORT_COUNT*8-1:0]             rx_pfc_prio,
    input  wire [PORT_COUNT*8-1:0]             q_ne,
    input  wire                                deq_valid,
    input  wire [P_W-1:0]                      deq_port,
    input  wire [P_W+2:0]                      deq_q,
    output wire [PORT_COUNT*8-1:0]             sched_pause,
    output wire [PORT_COUNT*8-1:0]             qdrop,

    /*
     * Prevention: the ingress ports and the write stage
     */
    input  wire [PORT_COUNT*DEST_WIDTH-1:0]    rx_tdest,
    output wire [PORT_COUNT-1:0]               same_group,
    input  wire                                req_valid,
    input  wire [P_W-1:0]                      req_port,
    input  wire [PORT_COUNT-1:0]               in_remap,
    input  wire [PORT_COUNT-1:0]               in_tagged,

    /*
     * Configuration (port p priority k at [(p*8+k)*3 +: 3]; watchdog fields per port p)
     */
    input  wire [PORT_COUNT*8*3-1:0]           cfg_prio_to_queue,
    input  wire [PORT_COUNT-1:0]               cfg_wd_enable,
    input  wire [PORT_COUNT*32-1:0]            cfg_wd_detect_time,
    input  wire [PORT_COUNT*32-1:0]            cfg_wd_restore_time,
    input  wire [PORT_COUNT*2-1:0]             cfg_wd_action,
    input  wire [PORT_COUNT*8-1:0]             cfg_wd_storm_limit,
    input  wire [PORT_COUNT*8-1:0]             cfg_wd_reenable,
    input  wire [PORT_COUNT*GROUP_W-1:0]       cfg_port_group,

    /*
     * Status: port p priority k at [p*8 + k] (storms at [(p*8 + k)*32 +: 32]); frames per
     * egress port at [p*32 +: 32]; per group g at [g*32 +: 32] (entry 0 stays 0)
     */
    output wire [PORT_COUNT*8-1:0]             stat_wd_storm,
    output wire [PORT_COUNT*8-1:0]             stat_wd_disabled,
    output wire [PORT_COUNT*8*32-1:0]          stat_wd_storms,
    output wire [PORT_COUNT*32-1:0]            stat_wd_drop_frames,
    output wire [PORT_COUNT*32-1:0]            stat_wd_fwd_frames,
    output wire [(1<<GROUP_W)*32-1:0]          stat_prev_frames,
    output wire [(1<<GROUP_W)*32-1:0]          stat_prev_untagged
);

// ---------------------------------------------------------------------------- PFC watchdog
generate
    if (WATCHDOG_ENABLE != 0) begin : wd
        wire [PORT_COUNT*8-1:0] busy;      // the queue priority k maps to holds frames
        wire [PORT_COUNT*8-1:0] drop;
        wire [PORT_COUNT*8-1:0] fwd;       // storm recovery with action forward
        wire [PORT_COUNT*8-1:0] qfwd;      // queue q of port p is forwarded in recovery
        genvar wdp, wdk, wdq;
        for (wdp = 0; wdp < PORT_COUNT; wdp = wdp + 1) begin : port
            for (wdk = 0; wdk < 8; wdk = wdk + 1) begin : prio
                wire [2:0] queue = cfg_prio_to_queue[(wdp*8 + wdk)*3 +: 3];
                assign busy[wdp*8 + wdk] = q_ne[wdp*8 + {29'd0, queue}];
            end
            for (wdq = 0; wdq < 8; wdq = wdq + 1) begin : queue
                wire [7:0] maps;
                for (wdk = 0; wdk < 8; wdk = wdk + 1) begin : prio
                    assign maps[wdk] = cfg_prio_to_queue[(wdp*8 + wdk)*3 +: 3] == wdq;
                end
                assign qdrop[wdp*8 + wdq] = |(maps & drop[wdp*8 +: 8]);
                assign qfwd[wdp*8 + wdq] = |(maps & fwd[wdp*8 +: 8]);
            end
            // alert (2) honours PFC: not a forwarded recovery
            assign fwd[wdp*8 +: 8] = stat_wd_storm[wdp*8 +: 8] & ~drop[wdp*8 +: 8]
                                     & {8{cfg_wd_action[wdp*2 +: 2] != 2'd2}};

            /* verilator lint_off PINCONNECTEMPTY */
            pfc_watchdog watchdog_inst (
                .clk(clk),
                .rst(rst),
                .pause_in(pause[wdp*8 +: 8]),
                .queue_busy(busy[wdp*8 +: 8]),
                .rx_pfc(rx_pfc_prio[wdp*8 +: 8]),
                .cfg_enable(cfg_wd_enable[wdp]),
                .cfg_detect_time(cfg_wd_detect_time[wdp*32 +: 32]),
                .cfg_restore_time(cfg_wd_restore_time[wdp*32 +: 32]),
                .cfg_action(cfg_wd_action[wdp*2 +: 2]),
                .cfg_storm_limit(cfg_wd_storm_limit[wdp*8 +: 8]),
                .cfg_reenable(cfg_wd_reenable[wdp*8 +: 8]),
                .pause_out(sched_pause[wdp*8 +: 8]),
                .drop(drop[wdp*8 +: 8]),
                .storm(stat_wd_storm[wdp*8 +: 8]),
                .disabled(stat_wd_disabled[wdp*8 +: 8]),
                .state(),
                .stat_storms(stat_wd_storms[wdp*8*32 +: 8*32]),
                .stat_restores()
            );
            /* verilator lint_on PINCONNECTEMPTY */

            // counted at the dequeue commit, where the read stage decides send or discard:
            // a frame is discarded whole or sent whole, never cut
            reg [31:0] drop_frames_reg;
            reg [31:0] fwd_frames_reg;
            always @(posedge clk) begin
                if (deq_valid && {{(32-P_W){1'b0}}, deq_port} == wdp) begin
                    if (qdrop[deq_q]) begin
                        drop_frames_reg <= drop_frames_reg + 32'd1;
                    end else if (qfwd[deq_q]) begin
                        fwd_frames_reg <= fwd_frames_reg + 32'd1;
                    end
                end
                if (rst) begin
                    drop_frames_reg <= 32'd0;
                    fwd_frames_reg <= 32'd0;
                end
            end
            assign stat_wd_drop_frames[wdp*32 +: 32] = drop_frames_reg;
            assign stat_wd_fwd_frames[wdp*32 +: 32] = fwd_frames_reg;
        end
    end else begin : no_wd
        assign sched_pause = pause;
        assign qdrop = {PORT_COUNT*8{1'b0}};
        assign stat_wd_storm = {PORT_COUNT*8{1'b0}};
        assign stat_wd_disabled = {PORT_COUNT*8{1'b0}};
        assign stat_wd_storms = {PORT_COUNT*8*32{1'b0}};
        assign stat_wd_drop_frames = {PORT_COUNT*32{1'b0}};
        assign stat_wd_fwd_frames = {PORT_COUNT*32{1'b0}};
        // without a watchdog its configuration, pfc_rx's per-priority pulse and the queue
        // state it watches are unused
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused = &{1'b0, cfg_wd_enable, cfg_wd_detect_time, cfg_wd_restore_time,
                        cfg_wd_action, cfg_wd_storm_limit, cfg_wd_reenable, rx_pfc_prio,
                        q_ne, deq_valid, deq_port, deq_q, cfg_prio_to_queue, 1'b0};
        /* verilator lint_on UNUSEDSIGNAL */
    end
endgenerate

// ---------------------------------------------------------------------------- prevention
generate
    if (PREVENT_ENABLE != 0) begin : prevent
        localparam GROUPS = 1 << GROUP_W;
        reg [GROUPS*32-1:0] frames_reg, untagged_reg;
        genvar gq;
        for (gq = 0; gq < PORT_COUNT; gq = gq + 1) begin : port
            wire [DEST_WIDTH-1:0] dest = rx_tdest[gq*DEST_WIDTH +: DEST_WIDTH];
            wire                  dest_ok = {{(32-DEST_WIDTH){1'b0}}, dest} < PORT_COUNT;
            wire [P_W-1:0]        dest_idx = dest_ok ? dest[P_W-1:0] : {P_W{1'b0}};
            wire [GROUP_W-1:0]    group = cfg_port_group[gq*GROUP_W +: GROUP_W];
            assign same_group[gq] = dest_ok && group != {GROUP_W{1'b0}}
                                    && cfg_port_group[dest_idx*GROUP_W +: GROUP_W] == group;
        end
        wire [GROUP_W-1:0] req_group = cfg_port_group[req_port*GROUP_W +: GROUP_W];
        always @(posedge clk) begin
            if (req_valid && in_remap[req_port]) begin
                frames_reg[req_group*32 +: 32] <= frames_reg[req_group*32 +: 32] + 32'd1;
                if (!in_tagged[req_port]) begin
                    untagged_reg[req_group*32 +: 32] <= untagged_reg[req_group*32 +: 32]
                                                        + 32'd1;
                end
            end
            if (rst) begin
                frames_reg <= {GROUPS*32{1'b0}};
                untagged_reg <= {GROUPS*32{1'b0}};
            end
        end
        assign stat_prev_frames = frames_reg;
        assign stat_prev_untagged = untagged_reg;
    end else begin : no_prevent
        assign same_group = {PORT_COUNT{1'b0}};
        assign stat_prev_frames = {(1<<GROUP_W)*32{1'b0}};
        assign stat_prev_untagged = {(1<<GROUP_W)*32{1'b0}};
        // (clk and rst too: without a watchdog either the module holds no register)
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused = &{1'b0, cfg_port_group, rx_tdest, req_valid, req_port, in_remap,
                        in_tagged, clk, rst, 1'b0};
        /* verilator lint_on UNUSEDSIGNAL */
    end
endgenerate

endmodule

`resetall
