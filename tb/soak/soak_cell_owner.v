/*
 * Testbench only (tb/soak): cell ownership of the switch's shared buffer, in Verilog so the
 * soak needs no Python per clock (the switch benches do the same in Python:
 * tb/switch_core/cell_shadow.py).  Fed from the free list's handshakes: a pop hands a cell
 * out (it must have been free), a push returns it (it must have been allocated).  At the end
 * of a drained run the only allocated cells are the write stage's spares; the bench compares
 * `owned` with them.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module soak_cell_owner #(
    parameter BUFFER_CELLS = 1024,
    parameter CA_W = $clog2(BUFFER_CELLS)
) (
    input  wire                    clk,
    input  wire                    rst,

    input  wire                    pop,
    input  wire [CA_W-1:0]         pop_cell,
    input  wire                    push,
    input  wire [CA_W-1:0]         push_cell,

    output reg  [BUFFER_CELLS-1:0] owned,
    output reg  [31:0]             owned_count,
    output reg  [31:0]             allocs,
    output reg  [31:0]             frees,
    // a cell handed out while allocated, or out of range
    output reg  [31:0]             double_allocs,
    // a cell returned while free (or never allocated), or out of range
    output reg  [31:0]             double_frees
);

localparam [CA_W:0] CELLS = BUFFER_CELLS;

reg [BUFFER_CELLS-1:0] owned_next;
reg [31:0]             owned_count_next, double_allocs_next, double_frees_next;

// a push and a pop in one clock concern two cells (the pushed one is allocated, the popped
// one free), so their order here does not matter
always @* begin
    owned_next = owned;
    owned_count_next = owned_count;
    double_allocs_next = double_allocs;
    double_frees_next = double_frees;
    if (push) begin
        if ({1'b0, push_cell} >= CELLS || !owned[push_cell]) begin
            double_frees_next = double_frees + 32'd1;
        end else begin
            owned_next[push_cell] = 1'b0;
            owned_count_next = owned_count_next - 32'd1;
        end
    end
    if (pop) begin
        if ({1'b0, pop_cell} >= CELLS || owned[pop_cell]) begin
            double_allocs_next = double_allocs + 32'd1;
        end else begin
            owned_next[pop_cell] = 1'b1;
            owned_count_next = owned_count_next + 32'd1;
        end
    end
end

always @(posedge clk) begin
    owned <= owned_next;
    owned_count <= owned_count_next;
    double_allocs <= double_allocs_next;
    double_frees <= double_frees_next;
    if (push) begin
        frees <= frees + 32'd1;
    end
    if (pop) begin
        allocs <= allocs + 32'd1;
    end
    if (rst) begin
        owned <= {BUFFER_CELLS{1'b0}};
        owned_count <= 32'd0;
        allocs <= 32'd0;
        frees <= 32'd0;
        double_allocs <= 32'd0;
        double_frees <= 32'd0;
    end
end

endmodule

`resetall
