/*
 * Simple dual-port RAM: one synchronous write port, one synchronous read port (registered
 * read data, old data on a same-address read/write).  Written in the template Yosys maps to
 * ECP5 DP16KD (pseudo dual port) and Xilinx/Intel block RAM.
 *
 * OUT_REG = 1 adds a second, unconditional register after the RAM's own (read latency 2):
 * an ECP5 DP16KD read without its output register takes about 5.8 ns from the clock to
 * the data (nextpnr's figure), so at 125 MHz nothing but a register can follow it.  The
 * register has no enable and no reset, so the placer can put it right next to the RAM.
 *
 * OUT_REG = 2 is for a RAM deeper than one block RAM (read latency 3): the RAM is built as
 * banks of 2^BANK_AW words, each its own memory with its own output register (next to its
 * block RAMs), and the bank is selected after those registers, into a third register.  With
 * one memory the synthesis tool's own depth mux would sit between the block RAMs (spread
 * over the die) and the first register: on the ULX3S build that was a 12.6 ns path.
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
    // 1: rd_data registered once more (read latency 2 clocks); 2: banked (latency 3)
    parameter OUT_REG = 0,
    // OUT_REG 2: address bits of one bank (9: 512 words, the ECP5 DP16KD's 512 x 36 mode)
    parameter BANK_AW = 9
) (
    input  wire              clk,

    input  wire              wr_en,
    input  wire [ADDR_W-1:0] wr_addr,
    input  wire [WIDTH-1:0]  wr_data,

    input  wire              rd_en,
    input  wire [ADDR_W-1:0] rd_addr,
    output wire [WIDTH-1:0]  rd_data
);

generate
    if (OUT_REG == 2 && BANK_AW < ADDR_W) begin : banked
        localparam BANK_DEPTH = 1 << BANK_AW;
        localparam BANKS = (DEPTH + BANK_DEPTH - 1) / BANK_DEPTH;
        localparam SEL_W = ADDR_W - BANK_AW;

        wire [BANKS*WIDTH-1:0] bank_q;
        reg  [SEL_W-1:0]       sel1_reg, sel2_reg;
        reg  [WIDTH-1:0]       out_reg;

        genvar b;
        for (b = 0; b < BANKS; b = b + 1) begin : bank
            reg [WIDTH-1:0] mem [0:BANK_DEPTH-1];
            reg [WIDTH-1:0] rd_reg;
            reg [WIDTH-1:0] q_reg;
            always @(posedge clk) begin
                if (wr_en && {{(32-SEL_W){1'b0}}, wr_addr[ADDR_W-1:BANK_AW]} == b) begin
                    mem[wr_addr[BANK_AW-1:0]] <= wr_data;
                end
            end
            always @(posedge clk) begin
                if (rd_en) begin
                    rd_reg <= mem[rd_addr[BANK_AW-1:0]];
                end
            end
            always @(posedge clk) begin
                q_reg <= rd_reg;
            end
            assign bank_q[b*WIDTH +: WIDTH] = q_reg;
        end

        // the bank of the word, following it through the two registers
        always @(posedge clk) begin
            if (rd_en) begin
                sel1_reg <= rd_addr[ADDR_W-1:BANK_AW];
            end
            sel2_reg <= sel1_reg;
            out_reg <= bank_q[sel2_reg*WIDTH +: WIDTH];
        end
        assign rd_data = out_reg;
    end else begin : single
        reg [WIDTH-1:0] mem [0:DEPTH-1];
        reg [WIDTH-1:0] rd_data_reg;

        always @(posedge clk) begin
            if (wr_en) begin
                mem[wr_addr] <= wr_data;
            end
        end

        always @(posedge clk) begin
            if (rd_en) begin
                rd_data_reg <= mem[rd_addr];
            end
        end

        if (OUT_REG == 2) begin : out2
            // one bank: the same latency 3 as the banked RAM
            reg [WIDTH-1:0] q1_reg, q2_reg;
            always @(posedge clk) begin
                q1_reg <= rd_data_reg;
                q2_reg <= q1_reg;
            end
            assign rd_data = q2_reg;
        end else if (OUT_REG != 0) begin : out
            reg [WIDTH-1:0] q_reg;
            always @(posedge clk) begin
                q_reg <= rd_data_reg;
            end
            assign rd_data = q_reg;
        end else begin : direct
            assign rd_data = rd_data_reg;
        end
    end
endgenerate

endmodule

`resetall
