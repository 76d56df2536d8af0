/*
 * Simple dual-port RAM: one synchronous write port, one synchronous read port (registered
 * read data, old data on a same-address read/write).  Written in the template Yosys maps to
 * ECP5 DP16KD (pseudo dual port) and Xilinx/Intel block RAM.
 *
 * OUT_REG = 1 adds a second, unconditional register after the RAM's own (read latency 2):
 * an ECP5 DP16KD read without its output register takes about 5.8 ns from the clock to
 * the data (nextpnr's figure), so at 125 MHz nothing but a register can follow it.  The
 * register has no enable and no reset, so the placer can put it right next to the RAM.
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
    parameter ADDR_W = 4,
    // 1: rd_data registered once more (read latency 2 clocks)
    parameter OUT_REG = 0
) (
    input  wire              clk,

    input  wire              wr_en,
    input  wire [ADDR_W-1:0] wr_addr,
    input  wire [WIDTH-1:0]  wr_data,

    input  wire              rd_en,
    input  wire [ADDR_W-1:0] rd_addr,
    output wire [WIDTH-1:0]  rd_data
);

reg [WIDTH-1:0] mem [0:DEPTH-1];

always @(posedge clk) begin
    if (wr_en) begin
        mem[wr_addr] <= wr_data;
    end
end

reg [WIDTH-1:0] rd_data_reg;

always @(posedge clk) begin
    if (rd_en) begin
        rd_data_reg <= mem[rd_addr];
    end
end

generate
    if (OUT_REG != 0) begin : out
        reg [WIDTH-1:0] q_reg;
        always @(posedge clk) begin
            q_reg <= rd_data_reg;
        end
        assign rd_data = q_reg;
    end else begin : direct
        assign rd_data = rd_data_reg;
    end
endgenerate

endmodule

`resetall
