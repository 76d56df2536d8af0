/*
 * Small first-word-fall-through FIFO in registers (a few entries: staging, descriptors,
 * responses).  Storage is reset to zero so that no X ever reaches an AXI-Stream output.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_fifo #(
    // entry width in bits
    parameter WIDTH = 8,
    // number of entries, a power of two
    parameter DEPTH = 2,
    // pointer width, $clog2(DEPTH) (at least 1)
    parameter PTR_W = 1
) (
    input  wire             clk,
    input  wire             rst,

    input  wire             s_valid,
    output wire             s_ready,
    input  wire [WIDTH-1:0] s_data,

    output wire             m_valid,
    input  wire             m_ready,
    output wire [WIDTH-1:0] m_data,

    output wire [PTR_W:0]   count
);

initial begin
    if ((1 << PTR_W) != DEPTH) begin
        $error("sw_fifo: DEPTH must be 2**PTR_W");
        $finish;
    end
end

reg [WIDTH-1:0] mem_reg [0:DEPTH-1];
reg [PTR_W-1:0] wr_ptr_reg;
reg [PTR_W-1:0] rd_ptr_reg;
reg [PTR_W:0]   count_reg;

wire push = s_valid && s_ready;
wire pop = m_valid && m_ready;

assign s_ready = (count_reg != DEPTH[PTR_W:0]);
assign m_valid = (count_reg != {(PTR_W+1){1'b0}});
assign m_data = mem_reg[rd_ptr_reg];
assign count = count_reg;

integer i;
always @(posedge clk) begin
    if (push) begin
        mem_reg[wr_ptr_reg] <= s_data;
        wr_ptr_reg <= wr_ptr_reg + 1'b1;
    end
    if (pop) begin
        rd_ptr_reg <= rd_ptr_reg + 1'b1;
    end
    count_reg <= count_reg + {{PTR_W{1'b0}}, push} - {{PTR_W{1'b0}}, pop};
    if (rst) begin
        wr_ptr_reg <= {PTR_W{1'b0}};
        rd_ptr_reg <= {PTR_W{1'b0}};
        count_reg <= {(PTR_W+1){1'b0}};
        for (i = 0; i < DEPTH; i = i + 1) begin
            mem_reg[i] <= {WIDTH{1'b0}};
        end
    end
end

endmodule

`resetall
