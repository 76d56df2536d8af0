/*
 * Small first-word-fall-through FIFO in registers (a few entries: staging, descriptors,
 * responses).  Storage is reset to zero so that no X ever reaches an AXI-Stream output.
 *
 * Timing: m_data is a register (the head entry, reloaded from the ring with a precomputed
 * next-read pointer), m_valid and s_ready are registered flags, so a consumer sees no
 * DEPTH:1 read mux and the producer / consumer handshakes only select between a few
 * registered values.  The flags follow from each other (the count moves by one at most) and
 * from compares of the registered count, so no adder sits between a handshake and a flag.
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

localparam [PTR_W-1:0] PTR_ONE = 1;
localparam integer DEPTH_M2_I = DEPTH - 2;
localparam [PTR_W:0] DEPTH_M2 = DEPTH_M2_I[PTR_W:0];

reg [WIDTH-1:0] mem_reg [0:DEPTH-1];
reg [PTR_W-1:0] wr_ptr_reg;
reg [PTR_W-1:0] rd_ptr_inc_reg;   // the entry behind the head
reg [PTR_W:0]   count_reg;
reg             valid_reg;        // count_reg != 0
reg             ready_reg;        // count_reg != DEPTH
reg             more_reg;         // count_reg >= 2
reg             afull_reg;        // count_reg == DEPTH - 1
reg [WIDTH-1:0] head_reg;         // the oldest entry while valid_reg

wire push = s_valid && ready_reg;
wire pop = valid_reg && m_ready;

assign s_ready = ready_reg;
assign m_valid = valid_reg;
assign m_data = head_reg;
assign count = count_reg;

wire [PTR_W:0] count_next = count_reg + {{PTR_W{1'b0}}, push} - {{PTR_W{1'b0}}, pop};
wire [WIDTH-1:0] second = mem_reg[rd_ptr_inc_reg];

integer i;
always @(posedge clk) begin
    if (push) begin
        mem_reg[wr_ptr_reg] <= s_data;
        wr_ptr_reg <= wr_ptr_reg + 1'b1;
    end
    if (pop) begin
        rd_ptr_inc_reg <= rd_ptr_inc_reg + 1'b1;
    end
    // the head: the entry behind it on a pop (or the one pushed now), the pushed one into
    // an empty FIFO
    if (pop) begin
        head_reg <= more_reg ? second : s_data;
    end else if (!valid_reg) begin
        head_reg <= s_data;
    end
    count_reg <= count_next;
    if (push && !pop) begin
        valid_reg <= 1'b1;
        more_reg <= valid_reg;
        ready_reg <= !afull_reg;
        afull_reg <= count_reg == DEPTH_M2;
    end else if (pop && !push) begin
        valid_reg <= more_reg;
        more_reg <= count_reg > 2;       // count - 1 >= 2
        ready_reg <= 1'b1;
        afull_reg <= !ready_reg;
    end
    if (rst) begin
        wr_ptr_reg <= {PTR_W{1'b0}};
        rd_ptr_inc_reg <= PTR_ONE;
        count_reg <= {(PTR_W+1){1'b0}};
        valid_reg <= 1'b0;
        ready_reg <= 1'b1;
        more_reg <= 1'b0;
        afull_reg <= DEPTH == 1;
        head_reg <= {WIDTH{1'b0}};
        for (i = 0; i < DEPTH; i = i + 1) begin
            mem_reg[i] <= {WIDTH{1'b0}};
        end
    end
end

endmodule

`resetall
