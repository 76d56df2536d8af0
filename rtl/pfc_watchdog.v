/*
 * PFC watchdog (SONiC pfcwd semantics, issue 9): storm detection and recovery for the 8
 * priorities of one port.  Design notes: docs/watchdog.md; executable spec: models/watchdog.py.
 *
 * Detection is continuous (no polling interval): one clock counter per priority counts the
 * consecutive clocks in which the priority is paused by received PFC (pause_in[k], pfc_rx's
 * pause timer) AND its egress queue holds frames (queue_busy[k]).  The clock this count
 * reaches cfg_detect_time the priority enters storm recovery, so storm[k] rises exactly
 * cfg_detect_time clocks after the first clock of the condition (0 acts as 1).  Any clock
 * without the condition (XON, pause timer expired, queue empty) clears the count.
 *
 * Per priority k (state[k*2 +: 2]):
 *
 *   IDLE (0)     pause_out[k] = pause_in[k]; detection as above.  On detection the storm is
 *                counted (stat_storms, and a count since the last re-enable); if that count
 *                reaches cfg_storm_limit (non-zero) the priority goes to DISABLED, otherwise
 *                to STORM.
 *   STORM (1)    storm recovery.  Action forward (0): received PFC on k is ignored
 *                (pause_out[k] = 0); drop (1): as forward and drop[k] = 1 (the egress is meant
 *                to discard the queue's frames: see docs/watchdog.md for what switch_core
 *                does with it); alert (2): pause_out[k] = pause_in[k], only the flags.
 *                A second counter counts clocks since the last PFC frame received for k
 *                (rx_pfc[k], XOFF or XON); recovery ends (-> IDLE, stat_restores + 1) the clock
 *                it reaches cfg_restore_time (0 acts as 1); a frame restarts it.
 *   DISABLED (2) storm limit reached: PFC on k ignored (pause_out[k] = 0) whatever the action,
 *                until cfg_reenable[k] (-> IDLE, storm count since re-enable cleared).
 *
 * cfg_enable = 0 holds every priority in IDLE with its counter cleared (the totals are kept),
 * so pause_out = pause_in.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module pfc_watchdog (
    input  wire           clk,
    input  wire           rst,

    // priority k paused by received PFC (pfc_rx.pause)
    input  wire [7:0]     pause_in,
    // the egress queue of priority k holds frames
    input  wire [7:0]     queue_busy,
    // pulse: a good PFC frame with enable bit k was applied (pfc_rx.rx_pfc_prio)
    input  wire [7:0]     rx_pfc,

    /*
     * Configuration
     */
    input  wire           cfg_enable,
    input  wire [31:0]    cfg_detect_time,     // clocks
    input  wire [31:0]    cfg_restore_time,    // clocks
    input  wire [1:0]     cfg_action,          // 0 forward, 1 drop, 2 alert (3: forward)
    input  wire [7:0]     cfg_storm_limit,     // storms before PFC is disabled; 0: never
    input  wire [7:0]     cfg_reenable,        // pulse: leave DISABLED, clear the storm count

    /*
     * To the egress scheduler
     */
    output wire [7:0]     pause_out,
    output wire [7:0]     drop,

    /*
     * Status
     */
    output wire [7:0]     storm,
    output wire [7:0]     disabled,
    output wire [8*2-1:0] state,
    output wire [8*32-1:0] stat_storms,
    output wire [8*32-1:0] stat_restores
);

localparam [1:0] S_IDLE = 2'd0, S_STORM = 2'd1, S_DISABLED = 2'd2;
localparam [1:0] ACTION_DROP = 2'd1, ACTION_ALERT = 2'd2;

reg [8*2-1:0]  state_reg, state_next;
reg [8*32-1:0] timer_reg, timer_next;      // detection or restoration clocks
reg [8*8-1:0]  recent_reg, recent_next;    // storms since reset / re-enable, saturating
reg [8*32-1:0] storms_reg, storms_next;
reg [8*32-1:0] restores_reg, restores_next;

reg [32:0] tick;
reg [7:0]  recent_inc;

integer k;

always @* begin
    state_next = state_reg;
    timer_next = timer_reg;
    recent_next = recent_reg;
    storms_next = storms_reg;
    restores_next = restores_reg;
    tick = 33'd0;
    recent_inc = 8'd0;
    for (k = 0; k < 8; k = k + 1) begin
        tick = {1'b0, timer_reg[k*32 +: 32]} + 33'd1;
        recent_inc = recent_reg[k*8 +: 8] == 8'hff ? 8'hff : recent_reg[k*8 +: 8] + 8'd1;
        if (!cfg_enable) begin
            state_next[k*2 +: 2] = S_IDLE;
            timer_next[k*32 +: 32] = 32'd0;
        end else begin
            case (state_reg[k*2 +: 2])
                S_IDLE: begin
                    if (pause_in[k] && queue_busy[k]) begin
                        if (tick >= {1'b0, cfg_detect_time}) begin
                            timer_next[k*32 +: 32] = 32'd0;
                            storms_next[k*32 +: 32] = storms_reg[k*32 +: 32] + 32'd1;
                            recent_next[k*8 +: 8] = recent_inc;
                            if (cfg_storm_limit != 8'd0 && recent_inc >= cfg_storm_limit) begin
                                state_next[k*2 +: 2] = S_DISABLED;
                            end else begin
                                state_next[k*2 +: 2] = S_STORM;
                            end
                        end else begin
                            timer_next[k*32 +: 32] = tick[31:0];
                        end
                    end else begin
                        timer_next[k*32 +: 32] = 32'd0;
                    end
                end
                S_STORM: begin
                    if (rx_pfc[k]) begin
                        timer_next[k*32 +: 32] = 32'd0;
                    end else if (tick >= {1'b0, cfg_restore_time}) begin
                        timer_next[k*32 +: 32] = 32'd0;
                        restores_next[k*32 +: 32] = restores_reg[k*32 +: 32] + 32'd1;
                        state_next[k*2 +: 2] = S_IDLE;
                    end else begin
                        timer_next[k*32 +: 32] = tick[31:0];
                    end
                end
                S_DISABLED: begin
                    timer_next[k*32 +: 32] = 32'd0;
                end
                default: begin
                    state_next[k*2 +: 2] = S_IDLE;
                    timer_next[k*32 +: 32] = 32'd0;
                end
            endcase
        end
        // re-enable by configuration, whatever the enable
        if (cfg_reenable[k]) begin
            recent_next[k*8 +: 8] = 8'd0;
            if (state_reg[k*2 +: 2] == S_DISABLED) begin
                state_next[k*2 +: 2] = S_IDLE;
                timer_next[k*32 +: 32] = 32'd0;
            end
        end
    end
end

always @(posedge clk) begin
    state_reg <= state_next;
    timer_reg <= timer_next;
    recent_reg <= recent_next;
    storms_reg <= storms_next;
    restores_reg <= restores_next;
    if (rst) begin
        state_reg <= {8{S_IDLE}};
        timer_reg <= {8*32{1'b0}};
        recent_reg <= {8*8{1'b0}};
        storms_reg <= {8*32{1'b0}};
        restores_reg <= {8*32{1'b0}};
    end
end

genvar g;
generate
    for (g = 0; g < 8; g = g + 1) begin : prio
        wire in_storm = state_reg[g*2 +: 2] == S_STORM;
        wire in_disabled = state_reg[g*2 +: 2] == S_DISABLED;
        wire ignore = in_disabled || (in_storm && cfg_action != ACTION_ALERT);
        assign pause_out[g] = pause_in[g] && !ignore;
        assign drop[g] = in_storm && cfg_action == ACTION_DROP;
        assign storm[g] = in_storm;
        assign disabled[g] = in_disabled;
    end
endgenerate

assign state = state_reg;
assign stat_storms = storms_reg;
assign stat_restores = restores_reg;

endmodule

`resetall
