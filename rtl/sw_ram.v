/*
 * Simple dual-port RAM: one synchronous write port, one synchronous read port (registered
 * read data, old data on a same-address read/write).  Written in the template Yosys maps to
 * ECP5 DP16KD (pseudo dual port) and Xilinx/Intel block RAM.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_ram #(
    // word width in bits
    parameter WIDTH = 8,
    // number of words
    parameter DEPTH = 16,
    // address width, at least $clog2(DEPTH)
    parameter ADDR_W = 4
) (
    input  wire              clk,

    input  wire              wr_en,
    input  wire [ADDR_W-1:0] wr_addr,
    input  wire [WIDTH-1:0]  wr_data,

    input  wire              rd_en,
    input  wire [ADDR_W-1:0] rd_addr,
    output reg  [WIDTH-1:0]  rd_data
);

reg [WIDTH-1:0] mem [0:DEPTH-1];

always @(posedge clk) begin
    if (wr_en) begin
        mem[wr_addr] <= wr_data;
    end
end

always @(posedge clk) begin
    if (rd_en) begin
        rd_data <= mem[rd_addr];
    end
end

endmodule

`resetall
