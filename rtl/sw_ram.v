/*
 * Simple dual-port RAM: one synchronous write port, one synchronous read port (registered
 * read data).  Written in the template Yosys maps to ECP5 DP16KD (pseudo dual port) and
 * Xilinx/Intel block RAM.
 *
 * A read of the word being written in the same clock returns an undefined word: the memories
 * carry (* no_rw_check *), so Yosys adds no collision logic (a registered write word, an
 * address compare and a mux after the block RAM: that compare from a read address computed
 * in the same clock was the ULX3S build's critical path), and simulation returns X for such a
 * read, so a design that used the word would fail its tests.  Every user either never reads
 * a word in the clock it is written or overrides that read with its own bypass.
 *
 * OUT_REG = 1 adds a second, unconditional register after the RAM's own (read latency 2):
 * an ECP5 DP16KD read without its output register takes about 5.8 ns from the clock to
 * the data (nextpnr's figure), so at 125 MHz nothing but a register can follow it.  The
 * register has no enable and no reset, so the placer can put it right next to the RAM.
 *
 * OUT_REG = 2 is for a RAM of many block RAMs (read latency 3).  The RAM is cut into bit
 * slices SLICE_W wide and banks 2^BANK_AW deep, each slice of each bank its own memory with
 * its own output register next to its block RAM; the bank is selected after those registers,
 * into a third register.  Deep and narrow slices keep that select small: the ECP5 DP16KD is
 * 16K x 1 at its deepest, so the shared buffer of the ULX3S build (32K words of 64 bits, 128
 * block RAMs) is 64 slices of 2 banks, a 2:1 select per bit.  (Cut the other way, 64 banks of
 * 512 x 64, the select was a 64:1 mux over the whole die: 7,900 LUTs, 4,500 registers and the
 * critical path.)  BANK_AW = 0 picks the DP16KD mode that covers DEPTH with the fewest banks:
 * 512 x 36, 1K x 18, 2K x 9, 4K x 4, 8K x 2, 16K x 1 (banks of 16K x 1 beyond 16K words).
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
    // 1: rd_data registered once more (read latency 2 clocks); 2: sliced and banked (latency 3)
    parameter OUT_REG = 0,
    // OUT_REG 2: address bits of one bank, 0: from DEPTH (the DP16KD modes, see above)
    parameter BANK_AW = 0,
    // OUT_REG 2: bits of one slice, 0: from DEPTH with BANK_AW (the DP16KD width of that depth)
    parameter SLICE_W = 0
) (
    input  wire              clk,

    input  wire              wr_en,
    input  wire [ADDR_W-1:0] wr_addr,
    input  wire [WIDTH-1:0]  wr_data,

    input  wire              rd_en,
    input  wire [ADDR_W-1:0] rd_addr,
    output wire [WIDTH-1:0]  rd_data
);

// the DP16KD mode for a depth: address bits (9..14) and width (36..1)
function integer dp16kd_aw;
    input integer depth;
    begin
        if (depth <= 512) dp16kd_aw = 9;
        else if (depth <= 1024) dp16kd_aw = 10;
        else if (depth <= 2048) dp16kd_aw = 11;
        else if (depth <= 4096) dp16kd_aw = 12;
        else if (depth <= 8192) dp16kd_aw = 13;
        else dp16kd_aw = 14;
    end
endfunction

function integer dp16kd_width;
    input integer aw;
    begin
        case (aw)
            9: dp16kd_width = 36;
            10: dp16kd_width = 18;
            11: dp16kd_width = 9;
            12: dp16kd_width = 4;
            13: dp16kd_width = 2;
            default: dp16kd_width = 1;
        endcase
    end
endfunction

generate
    if (OUT_REG == 2) begin : banked
        localparam AW0 = BANK_AW > 0 ? BANK_AW : dp16kd_aw(DEPTH);
        // a bank never has more address bits than the RAM
        localparam BAW = AW0 < ADDR_W ? AW0 : ADDR_W;
        localparam SW0 = SLICE_W > 0 ? SLICE_W : dp16kd_width(AW0);
        localparam SW = SW0 < WIDTH ? SW0 : WIDTH;
        localparam BANK_DEPTH = 1 << BAW;
        localparam BANKS = (DEPTH + BANK_DEPTH - 1) / BANK_DEPTH;
        localparam SLICES = (WIDTH + SW - 1) / SW;
        localparam PAD_W = SLICES * SW;
        localparam SEL_W = ADDR_W > BAW ? ADDR_W - BAW : 1;

        wire [PAD_W-1:0]       wr_pad = {{(PAD_W-WIDTH){1'b0}}, wr_data};
        // the last slice's bits beyond WIDTH are written 0 and never read
        /* verilator lint_off UNUSEDSIGNAL */
        wire [BANKS*PAD_W-1:0] bank_q;
        /* verilator lint_on UNUSEDSIGNAL */
        reg  [WIDTH-1:0]       out_reg;

        genvar b, s;
        for (b = 0; b < BANKS; b = b + 1) begin : bank
            // the last bank holds only the words left (DEPTH need not be a bank multiple)
            localparam THIS_DEPTH = (b + 1) * BANK_DEPTH <= DEPTH ? BANK_DEPTH
                                                                  : DEPTH - b * BANK_DEPTH;
            wire bank_we;
            if (BANKS > 1) begin : sel
                assign bank_we = wr_en && {{(32-SEL_W){1'b0}}, wr_addr[ADDR_W-1:BAW]} == b;
            end else begin : one
                assign bank_we = wr_en;
            end
            for (s = 0; s < SLICES; s = s + 1) begin : slice
                (* no_rw_check *)
                reg [SW-1:0] mem [0:THIS_DEPTH-1];
                reg [SW-1:0] rd_reg;
                reg [SW-1:0] q_reg;
                always @(posedge clk) begin
                    if (bank_we) begin
                        mem[wr_addr[BAW-1:0]] <= wr_pad[s*SW +: SW];
                    end
                end
                always @(posedge clk) begin
                    if (rd_en) begin
                        rd_reg <= mem[rd_addr[BAW-1:0]];
`ifndef SYNTHESIS
                        if (bank_we && wr_addr[BAW-1:0] == rd_addr[BAW-1:0]) begin
                            rd_reg <= {SW{1'bx}};
                        end
`endif
                    end
                end
                always @(posedge clk) begin
                    q_reg <= rd_reg;
                end
                assign bank_q[b*PAD_W + s*SW +: SW] = q_reg;
            end
        end

        if (BANKS > 1) begin : mux
            // the bank of the word, following it through the two registers
            reg [SEL_W-1:0] sel1_reg, sel2_reg;
            wire [PAD_W-1:0] pick = bank_q[sel2_reg*PAD_W +: PAD_W];
            always @(posedge clk) begin
                if (rd_en) begin
                    sel1_reg <= rd_addr[ADDR_W-1:BAW];
                end
                sel2_reg <= sel1_reg;
                out_reg <= pick[WIDTH-1:0];
            end
        end else begin : nomux
            always @(posedge clk) begin
                out_reg <= bank_q[WIDTH-1:0];
            end
        end
        assign rd_data = out_reg;
    end else begin : single
        (* no_rw_check *)
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
`ifndef SYNTHESIS
                if (wr_en && wr_addr == rd_addr) begin
                    rd_data_reg <= {WIDTH{1'bx}};
                end
`endif
            end
        end

        if (OUT_REG != 0) begin : out
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
