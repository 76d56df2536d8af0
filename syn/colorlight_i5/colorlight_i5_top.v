/*
 * Colorlight i5 v7.0 (LFE5U-25F) board wrapper: 25 MHz -> PLL 125 MHz, reset from the PLL
 * lock and the reset button, the portable self-test core rtl/fpga_core.v in its smallest
 * useful configuration (see syn/colorlight_i5/Makefile).  One LED: heartbeat, fast blink on
 * an error.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module colorlight_i5_top #(
    // smallest useful configuration: 2 ports (1:1 congestion through port 0's slow drain),
    // 128-byte cells, 384 cells = 48 KiB of block RAM, headroom = the model's eta (108 cells)
    parameter PORT_COUNT = 2,
    parameter CELL_BYTES = 128,
    parameter BUFFER_CELLS = 384
) (
    input  wire clk25,
    input  wire rst_n,
    output wire led_n,
    output wire uart_tx
);

wire clk;
wire rst;

board_clock clock_inst (
    .clk_25mhz(clk25),
    .btn_n(rst_n),
    .clk(clk),
    .rst(rst)
);

wire [7:0] led;
reg [22:0] blink = 23'd0;
always @(posedge clk) begin
    blink <= blink + 1'b1;
end

// led[0]: heartbeat, led[7]: error (see rtl/fpga_core.v)
assign led_n = ~(led[7] ? blink[22] : led[0]);

fpga_core #(
    .PORT_COUNT(PORT_COUNT),
    .CELL_BYTES(CELL_BYTES),
    .BUFFER_CELLS(BUFFER_CELLS),
    // the MMU configuration for these parameters (syn/board_image.py)
    .IMAGE_FILE("syn/colorlight_i5/mmu_image.hex"),
    .CLK_HZ(125000000),
    .BAUD(115200),
    // the admission core's smaller decision stage: the 25F's LUTs are the limit, not 125 MHz
    .MMU_COMPACT(1),
    // the switch's per-port counters except drop_admission left out: the configuration in
    // registers did not fit the 25F with them (docs/regs.md "Counters left out")
    .PORT_COUNTERS(0),
    // the registers of the features the self-test never enables left out (stall cut, 802.3x
    // PAUSE, prevention, watchdog; docs/regs.md "Registers left out")
    .FEATURE_REGS(0),
    // the admission core's per-PG / per-queue watermarks left out (H= is the headroom pool's)
    .MMU_WATERMARKS(0),
    // the admission core's event counters left out (the switch registers count the drops)
    .MMU_COUNTERS(0),
    // the admission core's configuration checker left out and its configuration not read
    // back: the only CSR master is the boot ROM, whose image syn/board_image.py validated
    // with the model, and nothing reads the configuration back (docs/regs.md "Registers left
    // out")
    .MMU_CFG_CHECK(0),
    .MMU_CFG_READBACK(0)
) core_inst (
    .clk(clk),
    .rst(rst),
    .led(led),
    .uart_txd(uart_tx)
);

endmodule

`resetall
