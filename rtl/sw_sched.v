/*
 * sw_sched: the egress scheduler of the switch core, one per egress port (strict priority,
 * queue 7 first, over the queues that hold frames and are not paused; docs/switch_core.md
 * "Queues and priorities").
 *
 * Queue q of port p is paused while any priority k with cfg_prio_to_queue[p][k] == q is
 * paused as the scheduler sees it (802.1Qbb: the inverse of the egress port's map).  The map
 * is inverted into a registered mask per queue (qmap_reg: a map written takes effect a clock
 * later), so a queue's pause is one AND-OR of the port's pause vector.  The choice is a
 * parallel one-hot and its index (no chain of eight if-statements).
 *
 * The choice runs one clock ahead of the read stage's capture and can be two clocks old when
 * it is used: a queue filled since then waits one more round (as if its frame had come
 * later), a pause reaches the scheduler two clocks later (802.1Qbb allows far more), and a
 * queue can only be emptied by its own port's dequeue, which the read stage's block covers.
 *
 * Interfaces:
 *   pause             pause per port p and priority k at [p*8 + k], as the scheduler is to
 *                     see it (sw_pfc_guard's sched_pause)
 *   q_ne              queue {p, q} holds frames (the queue lists' flag, at [p*8 + q])
 *   cfg_prio_to_queue port p priority k at [(p*8 + k)*3 +: 3]
 *   pick_any          port p has an eligible queue (at [p])
 *   pick_idx          port p's chosen queue (at [p*3 +: 3]; valid with pick_any)
 *   pick_oh           the choice one-hot (queue {p, q} at [p*8 + q])
 *   idx_same          port p's pick_idx is what it was a clock earlier (at [p])
 *
 * Latency: q_ne / pause to qpaused_reg one clock; qpaused_reg and q_ne to the choice one
 * clock (pick_*_reg); idx_same_reg a clock after the choice it compares.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_sched #(
    // number of ports
    parameter PORT_COUNT = 4
) (
    input  wire                        clk,
    input  wire                        rst,

    /*
     * Pause, queue state and the egress ports' priority -> queue maps
     */
    input  wire [PORT_COUNT*8-1:0]     pause,
    input  wire [PORT_COUNT*8-1:0]     q_ne,
    input  wire [PORT_COUNT*8*3-1:0]   cfg_prio_to_queue,

    /*
     * Each port's choice (registered)
     */
    output wire [PORT_COUNT-1:0]       pick_any,
    output wire [PORT_COUNT*3-1:0]     pick_idx,
    output wire [PORT_COUNT*8-1:0]     pick_oh,
    output wire [PORT_COUNT-1:0]       idx_same
);

genvar gp, gq;
generate
    for (gp = 0; gp < PORT_COUNT; gp = gp + 1) begin : port
        // per queue q, the priorities that map to it: bit q*8 + k
        reg  [63:0] qmap_reg;
        // queue q paused
        reg  [7:0]  qpaused_reg;
        // the strict-priority choice: any queue eligible, its index, one-hot
        reg         pick_any_reg;
        reg  [2:0]  pick_idx_reg;
        reg  [7:0]  pick_oh_reg;
        // pick_idx_reg unchanged since last clock
        reg         idx_same_reg;

        wire [7:0]  qpaused_next;
        wire [7:0]  pick_oh_next;
        wire [2:0]  pick_idx_next;
        wire [7:0]  elig = q_ne[gp*8 +: 8] & ~qpaused_reg;

        integer mq, mk;
        always @(posedge clk) begin
            for (mq = 0; mq < 8; mq = mq + 1) begin
                for (mk = 0; mk < 8; mk = mk + 1) begin
                    qmap_reg[mq*8 + mk] <= {29'd0, cfg_prio_to_queue[(gp*8 + mk)*3 +: 3]} == mq;
                end
            end
        end

        for (gq = 0; gq < 8; gq = gq + 1) begin : queue
            assign qpaused_next[gq] = |(pause[gp*8 +: 8] & qmap_reg[gq*8 +: 8]);
            // the highest eligible queue
            assign pick_oh_next[gq] = elig[gq] && (gq == 7 ? 1'b1 : !(|(elig >> (gq + 1))));
        end
        assign pick_idx_next[2] = |elig[7:4];
        assign pick_idx_next[1] = elig[7] || elig[6] || (!elig[5] && !elig[4]
                                                          && (elig[3] || elig[2]));
        assign pick_idx_next[0] = elig[7] || (!elig[6] && elig[5])
                                  || (!elig[6] && !elig[4] && elig[3])
                                  || (!elig[6] && !elig[4] && !elig[2] && elig[1]);

        always @(posedge clk) begin
            qpaused_reg <= qpaused_next;
            pick_any_reg <= |elig;
            pick_idx_reg <= pick_idx_next;
            pick_oh_reg <= pick_oh_next;
            // the read stage uses a head selected a clock before its capture: registered as
            // "the index did not change", not compared at the capture
            idx_same_reg <= pick_idx_next == pick_idx_reg;
            if (rst) begin
                qpaused_reg <= 8'd0;
                pick_any_reg <= 1'b0;
                pick_oh_reg <= 8'd0;
            end
        end

        assign pick_any[gp] = pick_any_reg;
        assign pick_idx[gp*3 +: 3] = pick_idx_reg;
        assign pick_oh[gp*8 +: 8] = pick_oh_reg;
        assign idx_same[gp] = idx_same_reg;
    end
endgenerate

endmodule

`resetall
