/*
 * Board clocking shared by the ECP5 board tops: 25 MHz oscillator -> PLL 125 MHz, and a
 * synchronous active-high reset held for 256 clocks after the PLL locks or while the board's
 * reset button (active low) is pressed (both synchronised to clk first: two clocks later).
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

// the PLL's lock and the button are asynchronous to clk: each through two flip-flops first
// (a synchroniser; their first stage may go metastable, the second gives it a clock to
// settle), so the counter's reset starts at a register of this clock domain
(* async_reg = "true" *) reg [1:0] locked_sync = 2'b00;
(* async_reg = "true" *) reg [1:0] btn_sync = 2'b00;
always @(posedge clk) begin
    locked_sync <= {locked_sync[0], locked};
    btn_sync <= {btn_sync[0], btn_n};
end

reg [7:0] rst_cnt = 8'd0;
initial rst = 1'b1;
always @(posedge clk) begin
    if (!locked_sync[1] || !btn_sync[1]) begin
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
