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

reg [BUFFER_CELLS-1:0] o;
reg [31:0]             n, da, df;

always @(posedge clk) begin
    o = owned;
    n = owned_count;
    da = double_allocs;
    df = double_frees;
    if (push) begin
        if (push_cell >= BUFFER_CELLS || !o[push_cell]) begin
            df = df + 32'd1;
        end else begin
            o[push_cell] = 1'b0;
            n = n - 32'd1;
        end
        frees <= frees + 32'd1;
    end
    if (pop) begin
        if (pop_cell >= BUFFER_CELLS || o[pop_cell]) begin
            da = da + 32'd1;
        end else begin
            o[pop_cell] = 1'b1;
            n = n + 32'd1;
        end
        allocs <= allocs + 32'd1;
    end
    owned <= o;
    owned_count <= n;
    double_allocs <= da;
    double_frees <= df;
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
