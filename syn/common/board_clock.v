/*
 * Board clocking shared by the ECP5 board tops: 25 MHz oscillator -> PLL 125 MHz, and a
 * synchronous active-high reset held for 256 clocks after the PLL locks or while the board's
 * reset button (active low) is pressed.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module board_clock (
    input  wire clk_25mhz,
    input  wire btn_n,
    output wire clk,
    output reg  rst
);

wire locked;

pll_25_125 pll_inst (
    .clkin(clk_25mhz),
    .clkout0(clk),
    .locked(locked)
);

reg [7:0] rst_cnt = 8'd0;
initial rst = 1'b1;
always @(posedge clk) begin
    if (!locked || !btn_n) begin
        rst_cnt <= 8'd0;
        rst <= 1'b1;
    end else if (rst_cnt != 8'hff) begin
        rst_cnt <= rst_cnt + 1'b1;
    end else begin
        rst <= 1'b0;
    end
end

endmodule

`resetall
