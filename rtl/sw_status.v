/*
 * sw_status: the switch core's own status words (docs/switch_core.md "Status"): free and used
 * cells, frames linked in queues, admission drops by reason, and the error flags of the cell
 * reserve check, the free list and mmu_core's configuration check.
 *
 * Free cells are the free list's plus the ports' spare cells (a spare is taken from the free
 * list before its port needs it); used cells are the rest of BUFFER_CELLS.  The cell reserve
 * check (docs/switch_core.md "Admission at tlast, and the cell reserve"): every port can hold,
 * outside mmu_core, a frame being written of up to max_frame_bytes plus its spare cell, so
 * buffer_cells + PORT_COUNT * (max frame cells + 1) must not exceed BUFFER_CELLS.  mmu_core's
 * configuration flags (mmu_cfg_check, one per rule of MmuConfig.validate()) describe the
 * configuration of a full scan of every entry, within 2 * 8 * MMU_PORTS + 9 clocks of a write
 * (models.mmu_pipe.cfg_flags_latency); during the load they describe a half-written
 * configuration, so err_bad_config counts from that long after the load on.
 *
 * Interfaces:
 *   spare_valid             port p holds a spare cell (at [p])
 *   fl_*                    the free list's count, low watermark and error flags
 *   queue_enq / queue_deq   a frame linked into / taken out of a queue this clock
 *   mmu_resp_*              mmu_core's responses (every one, as it leaves mmu_core)
 *   mmu_cfg_done            the admission image is loaded (sw_mmu_csr)
 *   mmu_err_bad_config      mmu_core's configuration flags, any of them
 *   cfg_*                   the configuration that bounds the reserve
 *   stat_*, err_*           to the switch registers (pfcmmu_sw_regs; docs/regs.md)
 *
 * Latency: the free and used cells a clock after the free list and the spares (registered:
 * the register block's read mux sees no adder); queued frames and the drop counters a clock
 * after their event; err_reserve three clocks after a configuration write (the division and
 * the sum are paths of their own); err_free_list follows the free list's sticky flags.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_status #(
    // number of ports
    parameter PORT_COUNT = 4,
    // bytes per cell
    parameter CELL_BYTES = 256,
    // cells in the shared buffer
    parameter BUFFER_CELLS = 256,
    // cell count width, $clog2(BUFFER_CELLS + 1)
    parameter CNT_W = 9,
    // admission counter width in cells (mmu_core CELL_W)
    parameter CELL_W = 16,
    // mmu_core's port count (a power of two)
    parameter MMU_PORTS = 4
) (
    input  wire                        clk,
    input  wire                        rst,

    /*
     * Cells: the ports' spares and the free list
     */
    input  wire [PORT_COUNT-1:0]       spare_valid,
    input  wire [CNT_W-1:0]            fl_count,
    input  wire [CNT_W-1:0]            fl_low_wm,
    input  wire                        fl_err_underflow,
    input  wire                        fl_err_overflow,

    /*
     * Queue lists and admission
     */
    input  wire                        queue_enq,
    input  wire                        queue_deq,
    input  wire                        mmu_resp_valid,
    input  wire                        mmu_resp_admit,
    input  wire [2:0]                  mmu_resp_reason,
    input  wire                        mmu_cfg_done,
    input  wire                        mmu_err_bad_config,

    /*
     * Configuration
     */
    input  wire [CELL_W-1:0]           cfg_buffer_cells,
    input  wire [31:0]                 cfg_max_frame_bytes,

    /*
     * Status: drops by reason r at [r*32 +: 32] (entry 0, reason none, stays 0)
     */
    output wire [31:0]                 stat_free_cells,
    output wire [31:0]                 stat_free_low_wm,
    output wire [31:0]                 stat_used_cells,
    output wire [31:0]                 stat_queued_frames,
    output wire [7*32-1:0]             stat_mmu_drop_count,
    output wire                        err_reserve,
    output wire                        err_free_list,
    output wire                        err_bad_config
);

// ---------------------------------------------------------------------------- cells
reg [CNT_W-1:0] spare_count;
integer i;
always @* begin
    spare_count = {CNT_W{1'b0}};
    for (i = 0; i < PORT_COUNT; i = i + 1) begin
        spare_count = spare_count + {{(CNT_W-1){1'b0}}, spare_valid[i]};
    end
end

reg [CNT_W-1:0] free_cells_reg;
reg [31:0]      used_cells_reg;
always @(posedge clk) begin
    free_cells_reg <= fl_count + spare_count;
    used_cells_reg <= BUFFER_CELLS - {{(32-CNT_W){1'b0}}, fl_count + spare_count};
end
assign stat_free_cells = {{(32-CNT_W){1'b0}}, free_cells_reg};
assign stat_free_low_wm = {{(32-CNT_W){1'b0}}, fl_low_wm};
assign stat_used_cells = used_cells_reg;
assign err_free_list = fl_err_underflow || fl_err_overflow;

// cells a port can hold outside mmu_core: a frame being written plus its spare cell
reg  [31:0] max_frame_cells_reg;
reg  [47:0] reserve_need_reg;
reg         err_reserve_reg;
always @(posedge clk) begin
    max_frame_cells_reg <= (cfg_max_frame_bytes + CELL_BYTES - 1) / CELL_BYTES;
    reserve_need_reg <= {{(48-CELL_W){1'b0}}, cfg_buffer_cells}
                        + PORT_COUNT * ({16'd0, max_frame_cells_reg} + 1);
    err_reserve_reg <= reserve_need_reg > BUFFER_CELLS;
    if (rst) begin
        max_frame_cells_reg <= 32'd0;
        reserve_need_reg <= 48'd0;
        err_reserve_reg <= 1'b0;
    end
end
assign err_reserve = err_reserve_reg;

// ---------------------------------------------------------------------------- frames
reg  [31:0] queued_reg;
always @(posedge clk) begin
    queued_reg <= queued_reg + {31'd0, queue_enq} - {31'd0, queue_deq};
    if (rst) begin
        queued_reg <= 32'd0;
    end
end
assign stat_queued_frames = queued_reg;

// ---------------------------------------------------------------------------- admission
// drops by reason, counted from the responses (mmu_core counts the same in its status map,
// 0x10 + reason)
reg  [6*32-1:0]      mmu_drop_reg;
integer dr;
always @(posedge clk) begin
    for (dr = 1; dr < 7; dr = dr + 1) begin
        if (mmu_resp_valid && !mmu_resp_admit && {29'd0, mmu_resp_reason} == dr) begin
            mmu_drop_reg[(dr-1)*32 +: 32] <= mmu_drop_reg[(dr-1)*32 +: 32] + 1'b1;
        end
    end
    if (rst) begin
        mmu_drop_reg <= {6*32{1'b0}};
    end
end
assign stat_mmu_drop_count = {mmu_drop_reg, 32'd0};

// the configuration flags count from FLAGS_WAIT clocks after the load
localparam FLAGS_WAIT = 2 * 8 * MMU_PORTS + 9;
localparam FW_W = $clog2(FLAGS_WAIT + 1);
localparam [FW_W-1:0] FLAGS_WAIT_LAST = FLAGS_WAIT[FW_W-1:0] - 1'b1;
reg  [FW_W-1:0]      flags_wait_reg;
reg                  flags_valid_reg;
always @(posedge clk) begin
    if (mmu_cfg_done && !flags_valid_reg) begin
        flags_wait_reg <= flags_wait_reg + 1'b1;
        flags_valid_reg <= flags_wait_reg == FLAGS_WAIT_LAST;
    end
    if (rst) begin
        flags_wait_reg <= {FW_W{1'b0}};
        flags_valid_reg <= 1'b0;
    end
end
assign err_bad_config = flags_valid_reg && mmu_err_bad_config;

endmodule

`resetall
