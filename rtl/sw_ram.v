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
 * OUT_REG = 3 puts a second register after each slice's (read latency 4): a DP16KD's
 * clock-to-out of 5.8 ns leaves about 2 ns for the route to the first register, and with 128
 * block RAMs over the whole die the placer put some of those registers halfway to the bank
 * select (ULX3S build: 56 endpoints 2.6 ns short); with two, the first can sit at the RAM.
 * IN_COPIES = N > 0 registers the inputs here, in N copies (the bank's write enable decoded
 * into it), each copy driving the address and enable pins of its group of slices only: a
 * register driving all 128 block RAMs of the ULX3S buffer is a net across the whole die
 * (router congestion and 6 to 14 ns of routing).  Reads and writes then happen a clock after
 * their inputs, so the user feeds the values it would otherwise register.
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
    // 1: rd_data registered once more (read latency 2 clocks); 2: sliced and banked (latency
    // 3); 3: sliced and banked with two registers per slice (latency 4)
    parameter OUT_REG = 0,
    // OUT_REG 2 / 3: address bits of one bank, 0: from DEPTH (the DP16KD modes, see above)
    parameter BANK_AW = 0,
    // OUT_REG 2 / 3: bits of one slice, 0: from DEPTH with BANK_AW (the DP16KD width of that depth)
    parameter SLICE_W = 0,
    // OUT_REG 2 / 3: 0 the inputs go straight to the memories; N > 0 they are registered here in
    // N copies (read and write one clock later: feed the next-clock values)
    parameter IN_COPIES = 0
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
    if (OUT_REG >= 2) begin : banked
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
        // registers per slice after the RAM's own
        localparam QN = OUT_REG - 1;

        // the inputs as the slices see them: straight (IN_COPIES 0, one copy) or registered
        // here in IN_COPIES copies, copy c serving slices [c*SLICES/NC, (c+1)*SLICES/NC) of
        // every bank (address, read enable, the bank's decoded write enable and the bank
        // select each have a small fan-out next to their block RAMs)
        localparam NC = IN_COPIES > 0 ? (IN_COPIES < SLICES ? IN_COPIES : SLICES) : 1;
        wire [NC-1:0]        c_rd_en;
        wire [NC*ADDR_W-1:0] c_rd_addr;
        wire [NC*BANKS-1:0]  c_we;
        wire [NC*BAW-1:0]    c_wr_addr;
        wire [PAD_W-1:0]     c_wr_data;
        wire [PAD_W-1:0]     wr_pad = {{(PAD_W-WIDTH){1'b0}}, wr_data};

        genvar b, s, c;
        if (IN_COPIES > 0) begin : in_reg
            reg [PAD_W-1:0] wr_data_reg;
            always @(posedge clk) begin
                wr_data_reg <= wr_pad;
            end
            assign c_wr_data = wr_data_reg;
            for (c = 0; c < NC; c = c + 1) begin : copy
                reg              rd_en_reg;
                reg [ADDR_W-1:0] rd_addr_reg;
                reg [BANKS-1:0]  we_reg;
                reg [BAW-1:0]    wr_addr_reg;
                integer k;
                // keep: identical registers, not to be merged back into one
                (* keep *) always @(posedge clk) begin
                    rd_en_reg <= rd_en;
                    rd_addr_reg <= rd_addr;
                    wr_addr_reg <= wr_addr[BAW-1:0];
                    for (k = 0; k < BANKS; k = k + 1) begin
                        we_reg[k] <= wr_en && (BANKS == 1 ||
                                     {{(32-SEL_W){1'b0}}, wr_addr[ADDR_W-1:ADDR_W-SEL_W]} == k);
                    end
                end
                assign c_rd_en[c] = rd_en_reg;
                assign c_rd_addr[c*ADDR_W +: ADDR_W] = rd_addr_reg;
                assign c_we[c*BANKS +: BANKS] = we_reg;
                assign c_wr_addr[c*BAW +: BAW] = wr_addr_reg;
            end
        end else begin : in_direct
            assign c_rd_en = rd_en;
            assign c_rd_addr = rd_addr;
            assign c_wr_addr = wr_addr[BAW-1:0];
            assign c_wr_data = wr_pad;
            for (b = 0; b < BANKS; b = b + 1) begin : dec
                assign c_we[b] = wr_en && (BANKS == 1 ||
                                 {{(32-SEL_W){1'b0}}, wr_addr[ADDR_W-1:ADDR_W-SEL_W]} == b);
            end
        end

        // the last slice's bits beyond WIDTH are written 0 and never read
        /* verilator lint_off UNUSEDSIGNAL */
        wire [BANKS*PAD_W-1:0] bank_q;
        wire [PAD_W-1:0]       out_pick;
        /* verilator lint_on UNUSEDSIGNAL */
        reg  [WIDTH-1:0]       out_reg;

        for (b = 0; b < BANKS; b = b + 1) begin : bank
            // the last bank holds only the words left (DEPTH need not be a bank multiple)
            localparam THIS_DEPTH = (b + 1) * BANK_DEPTH <= DEPTH ? BANK_DEPTH
                                                                  : DEPTH - b * BANK_DEPTH;
            for (s = 0; s < SLICES; s = s + 1) begin : slice
                localparam CI = s * NC / SLICES;
                wire              we = c_we[CI*BANKS + b];
                wire [BAW-1:0]    wa = c_wr_addr[CI*BAW +: BAW];
                wire [BAW-1:0]    ra = c_rd_addr[CI*ADDR_W +: BAW];
                wire              re = c_rd_en[CI];
                (* no_rw_check *)
                reg [SW-1:0] mem [0:THIS_DEPTH-1];
                reg [SW-1:0] rd_reg;
                // QN registers after the RAM's own: qv[0] the RAM's, qv[QN] into the select
                wire [SW*(QN+1)-1:0] qv;
                always @(posedge clk) begin
                    if (we) begin
                        mem[wa] <= c_wr_data[s*SW +: SW];
                    end
                end
                always @(posedge clk) begin
                    if (re) begin
                        rd_reg <= mem[ra];
`ifndef SYNTHESIS
                        if (we && wa == ra) begin
                            rd_reg <= {SW{1'bx}};
                        end
`endif
                    end
                end
                assign qv[0 +: SW] = rd_reg;
                genvar r;
                for (r = 0; r < QN; r = r + 1) begin : qs
                    reg [SW-1:0] q_reg;
                    always @(posedge clk) begin
                        q_reg <= qv[r*SW +: SW];
                    end
                    assign qv[(r+1)*SW +: SW] = q_reg;
                end
                assign bank_q[b*PAD_W + s*SW +: SW] = qv[QN*SW +: SW];
            end
        end

        // the bank of the word, following it through the RAM's register and the QN after it
        // (one chain per copy)
        for (c = 0; c < NC; c = c + 1) begin : pick
            localparam S0 = (c * SLICES + NC - 1) / NC;
            localparam S1 = ((c + 1) * SLICES + NC - 1) / NC;
            if (BANKS > 1) begin : mux
                reg [SEL_W*(QN+1)-1:0] sel_reg;   // [0 +: SEL_W] with rd_reg, then one per q
                always @(posedge clk) begin
                    if (c_rd_en[c]) begin
                        sel_reg[0 +: SEL_W] <= c_rd_addr[c*ADDR_W + BAW +: SEL_W];
                    end
                    sel_reg[SEL_W*(QN+1)-1:SEL_W] <= sel_reg[SEL_W*QN-1:0];
                end
                wire [SEL_W-1:0] sel = sel_reg[QN*SEL_W +: SEL_W];
                for (s = S0; s < S1; s = s + 1) begin : sl
                    assign out_pick[s*SW +: SW] = bank_q[sel*PAD_W + s*SW +: SW];
                end
            end else begin : nomux
                for (s = S0; s < S1; s = s + 1) begin : sl
                    assign out_pick[s*SW +: SW] = bank_q[s*SW +: SW];
                end
            end
        end
        always @(posedge clk) begin
            out_reg <= out_pick[WIDTH-1:0];
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
