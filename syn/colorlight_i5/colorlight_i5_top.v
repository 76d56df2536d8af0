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
    parameter PORT_COUNT = 2,
    parameter BUFFER_CELLS = 256
) (
    input  wire clk25,
    input  wire rst_n,
    output wire led_n,
    output wire uart_tx
);

wire clk;
wire locked;

pll_25_125 pll_inst (
    .clkin(clk25),
    .clkout0(clk),
    .locked(locked)
);

reg [7:0] rst_cnt = 8'd0;
reg       rst = 1'b1;
always @(posedge clk) begin
    if (!locked || !rst_n) begin
        rst_cnt <= 8'd0;
        rst <= 1'b1;
    end else if (rst_cnt != 8'hff) begin
        rst_cnt <= rst_cnt + 1'b1;
    end else begin
        rst <= 1'b0;
    end
end

wire [7:0] led;
reg [22:0] blink = 23'd0;
always @(posedge clk) begin
    blink <= blink + 1'b1;
end

// led[0]: heartbeat, led[7]: error (see rtl/fpga_core.v)
assign led_n = ~(led[7] ? blink[22] : led[0]);

fpga_core #(
    .PORT_COUNT(PORT_COUNT),
    .BUFFER_CELLS(BUFFER_CELLS),
    .CLK_HZ(125000000),
    .BAUD(115200)
) core_inst (
    .clk(clk),
    .rst(rst),
    .led(led),
    .uart_txd(uart_tx)
);

endmodule

`resetall
