/*
 * Multi-ported RAM for the admission core's per-PG / per-queue state: WRITE_PORTS (1 or 2)
 * write ports and READ_PORTS read ports, every port every clock, built from simple dual-port
 * memories that FPGA tools map to block RAM or distributed RAM (and an ASIC flow to SRAM
 * macros).
 *
 * Each (write port, read port) pair has its own bank, written by that write port and read by
 * that read port.  With two write ports a live value table (LVT, one flip-flop per entry,
 * LaForest and Steffan, "Efficient Multi-Ported Memories for FPGAs", FPGA 2010) records which
 * write port wrote each entry last; a read takes that port's bank.  Write port 1 wins when both
 * write one address in the same clock.
 *
 * A valid table (one flip-flop per entry, cleared by rst) makes every entry read as zero after
 * a reset until it is written again: the state is cleared in one clock, not by a sweep.
 *
 * Latency: rd_addr is registered here at rising edge n (a copy of the register per bank and
 * one for the tables, so that no register drives every memory column) and gives its data on
 * rdata from edge n + 1 + OUT_REG (OUT_REG 1: the banks' output registers, block RAM
 * REGMODE).  The data holds every write made at edges before n + 1; later writes are not seen:
 * the core forwards its in-flight writes (mmu_core.v).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_mpram #(
    // entries
    parameter DEPTH = 32,
    // address width (2^ADDR_W >= DEPTH)
    parameter ADDR_W = 5,
    // bits per entry
    parameter WIDTH = 16,
    // write ports: 1 or 2
    parameter WRITE_PORTS = 2,
    // read ports
    parameter READ_PORTS = 2,
    // 1: register the banks' outputs (one more clock of latency)
    parameter OUT_REG = 1,
    // banks of this depth or more are block RAM, shallower ones distributed RAM (ram_style)
    parameter BRAM_DEPTH = 128,
    // 1: wr_en and wr_addr come a clock before wr_data (registered here, decoded per entry
    // for the tables and copied per bank: no write enable drives every entry's decode)
    parameter WR_EARLY = 0
) (
    input  wire                          clk,
    input  wire                          rst,

    input  wire [WRITE_PORTS-1:0]        wr_en,
    input  wire [WRITE_PORTS*ADDR_W-1:0] wr_addr,
    input  wire [WRITE_PORTS*WIDTH-1:0]  wr_data,

    input  wire [READ_PORTS*ADDR_W-1:0]  rd_addr,
    output wire [READ_PORTS*WIDTH-1:0]   rd_data
);

initial begin
    if (WRITE_PORTS < 1 || WRITE_PORTS > 2 || READ_PORTS < 1 || (1 << ADDR_W) < DEPTH
            || OUT_REG < 0 || OUT_REG > 1 || WR_EARLY < 0 || WR_EARLY > 1) begin
        $error("Error: mmu_mpram parameters out of range (instance %m)");
        $finish;
    end
end

// live value table (which write port wrote each entry last) and valid table (written since
// reset)
reg [DEPTH-1:0] lvt_reg;
reg [DEPTH-1:0] valid_reg;
// the tables padded to the address space (entries past DEPTH read as never written)
wire [(1 << ADDR_W)-1:0] lvt_full, valid_full;
generate
if (DEPTH < (1 << ADDR_W)) begin : g_pad
    assign lvt_full = {{((1 << ADDR_W) - DEPTH){1'b0}}, lvt_reg};
    assign valid_full = {{((1 << ADDR_W) - DEPTH){1'b0}}, valid_reg};
end else begin : g_nopad
    assign lvt_full = lvt_reg;
    assign valid_full = valid_reg;
end
endgenerate

// entry a when en, as a one-hot vector (zero when a >= DEPTH or not en)
function [DEPTH-1:0] onehot(input en, input [ADDR_W-1:0] a);
    begin
        onehot = en ? {{(DEPTH-1){1'b0}}, 1'b1} << a : {DEPTH{1'b0}};
    end
endfunction
// the entries each write port writes this clock (one-hot or zero)
wire [DEPTH-1:0] wr_hit [0:WRITE_PORTS-1];
genvar wp;
generate
for (wp = 0; wp < WRITE_PORTS; wp = wp + 1) begin : wr_dec
    if (WR_EARLY != 0) begin : g_early
        // the decode is registered without rst and masked by a local copy of rst registered
        // beside it (the same clock's rst still cancels the write), so the shared reset net
        // ends at one flip-flop here instead of at every entry's decode
        reg [DEPTH-1:0] hit_reg;
        reg             hit_rst_reg;
        always @(posedge clk) begin
            hit_reg <= onehot(wr_en[wp], wr_addr[wp*ADDR_W +: ADDR_W]);
        end
        (* keep *) always @(posedge clk) begin
            hit_rst_reg <= rst;
        end
        assign wr_hit[wp] = hit_reg & {DEPTH{!hit_rst_reg}};
    end else begin : g_now
        assign wr_hit[wp] = onehot(wr_en[wp], wr_addr[wp*ADDR_W +: ADDR_W]);
    end
end
endgenerate

integer k;
always @(posedge clk) begin
    for (k = 0; k < DEPTH; k = k + 1) begin
        if (WRITE_PORTS == 2 && wr_hit[WRITE_PORTS-1][k]) begin
            lvt_reg[k] <= 1'b1;
            valid_reg[k] <= 1'b1;
        end else if (wr_hit[0][k]) begin
            lvt_reg[k] <= 1'b0;
            valid_reg[k] <= 1'b1;
        end
    end
    if (rst) begin
        lvt_reg <= {DEPTH{1'b0}};
        valid_reg <= {DEPTH{1'b0}};
    end
end

genvar r, w;
generate
for (r = 0; r < READ_PORTS; r = r + 1) begin : rd_port
    wire [WRITE_PORTS*WIDTH-1:0] bank_data;
    // the table entries of the read: which bank, and written since reset (unused with one
    // write port)
    // (in a copy per byte of the data they select: kept apart, one register drove every bit)
    localparam NC = (WIDTH + 7) / 8;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [NC-1:0] lvt_q;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [NC-1:0] valid_q;
    // the tables' copy of the read address
    // (keep on the block: synthesis merges registers of equal inputs unless their cells are
    // kept)
    reg [ADDR_W-1:0] ra;
    (* keep *) always @(posedge clk) begin
        ra <= rd_addr[r*ADDR_W +: ADDR_W];
    end

    for (w = 0; w < WRITE_PORTS; w = w + 1) begin : bank
        reg [WIDTH-1:0] rd_reg;
        reg [WIDTH-1:0] out_reg;
        // the bank's copy of the read address
        reg [ADDR_W-1:0] ra_b;
        (* keep *) always @(posedge clk) begin
            ra_b <= rd_addr[r*ADDR_W +: ADDR_W];
        end
        // the bank's write enable and address (registered here with WR_EARLY)
        wire we_b;
        wire [ADDR_W-1:0] wa_b;
        if (WR_EARLY != 0) begin : g_wr_early
            reg we_reg;
            reg [ADDR_W-1:0] wa_reg;
            (* keep *) always @(posedge clk) begin
                we_reg <= wr_en[w] && !rst;
                wa_reg <= wr_addr[w*ADDR_W +: ADDR_W];
            end
            assign we_b = we_reg;
            assign wa_b = wa_reg;
        end else begin : g_wr_now
            assign we_b = wr_en[w];
            assign wa_b = wr_addr[w*ADDR_W +: ADDR_W];
        end
        integer i;

        // deep banks in block RAM (a distributed-RAM read of BRAM_DEPTH entries or more is a
        // wide LUT mux), shallow ones in distributed RAM (ram_style; docs/mmu_core.md)
        if (DEPTH >= BRAM_DEPTH) begin : g_bram
            (* ram_style = "block" *) reg [WIDTH-1:0] mem[0:DEPTH-1];
            initial begin
                for (i = 0; i < DEPTH; i = i + 1) begin
                    mem[i] = {WIDTH{1'b0}};
                end
            end
            always @(posedge clk) begin
                if (we_b) begin
                    mem[wa_b] <= wr_data[w*WIDTH +: WIDTH];
                end
                rd_reg <= mem[ra_b];
            end
        end else begin : g_lram
            (* ram_style = "distributed" *) reg [WIDTH-1:0] mem[0:DEPTH-1];
            initial begin
                for (i = 0; i < DEPTH; i = i + 1) begin
                    mem[i] = {WIDTH{1'b0}};
                end
            end
            always @(posedge clk) begin
                if (we_b) begin
                    mem[wa_b] <= wr_data[w*WIDTH +: WIDTH];
                end
                rd_reg <= mem[ra_b];
            end
        end
        always @(posedge clk) begin
            out_reg <= rd_reg;
        end

        assign bank_data[w*WIDTH +: WIDTH] = OUT_REG ? out_reg : rd_reg;
    end

    if (OUT_REG != 0 && ADDR_W > 4) begin : g_tab2
        // the tables read in two steps over the two clocks of latency: at the read edge the
        // entry of every group of 16 at the low address bits (the state of that edge), then
        // the group by the high bits
        localparam HI_W = ADDR_W - 4;
        reg [(1 << HI_W)-1:0] lvt_cand_reg, valid_cand_reg;
        reg [HI_W-1:0] ra_hi_reg;
        reg [NC-1:0] lvt_sel_out_reg, valid_sel_out_reg;
        integer h;
        always @(posedge clk) begin
            for (h = 0; h < (1 << HI_W); h = h + 1) begin
                lvt_cand_reg[h] <= lvt_full[{h[HI_W-1:0], ra[3:0]}];
                valid_cand_reg[h] <= valid_full[{h[HI_W-1:0], ra[3:0]}] && !rst;
            end
            ra_hi_reg <= ra[ADDR_W-1:4];
        end
        (* keep *) always @(posedge clk) begin
            lvt_sel_out_reg <= {NC{lvt_cand_reg[ra_hi_reg]}};
            valid_sel_out_reg <= {NC{valid_cand_reg[ra_hi_reg] && !rst}};
        end
        assign lvt_q = lvt_sel_out_reg;
        assign valid_q = valid_sel_out_reg;
    end else begin : g_tab1
        reg lvt_sel_reg, valid_sel_reg;
        reg [NC-1:0] lvt_sel_out_reg, valid_sel_out_reg;
        assign lvt_q = OUT_REG ? lvt_sel_out_reg : {NC{lvt_sel_reg}};
        assign valid_q = OUT_REG ? valid_sel_out_reg : {NC{valid_sel_reg}};
        always @(posedge clk) begin
            lvt_sel_reg <= lvt_full[ra];
            valid_sel_reg <= valid_full[ra] && !rst;
        end
        (* keep *) always @(posedge clk) begin
            lvt_sel_out_reg <= {NC{lvt_sel_reg}};
            valid_sel_out_reg <= {NC{valid_sel_reg && !rst}};
        end
    end

    genvar b;
    for (b = 0; b < WIDTH; b = b + 1) begin : g_bit
        if (WRITE_PORTS == 2) begin : g_sel2
            assign rd_data[r*WIDTH + b] = valid_q[b / 8]
                                          && (lvt_q[b / 8] ? bank_data[WIDTH + b] : bank_data[b]);
        end else begin : g_sel1
            assign rd_data[r*WIDTH + b] = valid_q[b / 8] && bank_data[b];
        end
    end
end
endgenerate

endmodule

`resetall
