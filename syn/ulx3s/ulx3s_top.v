/*
 * ULX3S (LFE5U-85F) board wrapper: 25 MHz oscillator -> PLL 125 MHz (the 1 GbE byte clock of
 * the DATA_WIDTH 8 core), reset from the PLL lock and BTN_PWRn, then the portable self-test
 * core rtl/fpga_core.v.  Only this file and the .lpf are board-specific (Corundum's split).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ulx3s_top (
    input  wire       clk_25mhz,
    input  wire [0:0] btn,        // BTN_PWRn, active low
    output wire [7:0] led,
    output wire       ftdi_rxd    // UART to the host (FPGA transmits)
);

wire clk;
wire rst;

board_clock clock_inst (
    .clk_25mhz(clk_25mhz),
    .btn_n(btn[0]),
    .clk(clk),
    .rst(rst)
);

fpga_core #(
    // the MMU configuration for fpga_core's default parameters (syn/board_image.py)
    .IMAGE_FILE("syn/ulx3s/mmu_image.hex"),
    .CLK_HZ(125000000),
    .BAUD(115200)
) core_inst (
    .clk(clk),
    .rst(rst),
    .led(led),
    .uart_txd(ftdi_rxd)
);

endmodule

`resetall
