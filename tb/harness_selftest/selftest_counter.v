// Tiny DUT for the harness self-test only (not part of rtl/rtl.f).
`resetall
`timescale 1ns / 1ps
`default_nettype none
module selftest_counter #(
    parameter WIDTH = 8
) (
    input  wire             clk,
    input  wire             rst,
    output reg [WIDTH-1:0]  count
);
always @(posedge clk) begin
    if (rst) count <= {WIDTH{1'b0}};
    else count <= count + 1'b1;
end
endmodule
`resetall
