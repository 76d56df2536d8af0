/*
 * Free-cell list of the shared buffer.
 *
 * Cells never used since reset come from a counter (so reset takes one clock, not
 * BUFFER_CELLS); returned cells go through a FIFO in block RAM (BUFFER_CELLS entries, it can
 * never overflow while every cell is returned once).  One pop and one push per clock.
 *
 * Timing (125 MHz on ECP5 at DATA_WIDTH 8): a returned cell is registered on entry (push_reg)
 * and written to the RAM one clock later, so the caller's push logic ends at a flip-flop; the
 * RAM read is issued from registered state only (never from this clock's pop), which an
 * output queue of up to three entries in front of the RAM's registered read turns back into one
 * pop per clock; pop_valid / pop_cell come from registers through muxes.  The output queue is a
 * four-slot ring addressed by its own pointers, so a word from the RAM is written to a slot chosen
 * by registers only: the caller's pop (which depends on pop_valid) moves the read pointer and the
 * count, never the data registers.
 *
 * free_count counts every cell in the list (counter + input register + FIFO + output queue);
 * low_wm is its minimum since reset (one clock behind free_count).  err_* are sticky: a pop
 * from an empty list, a push into a full one.
 *
 * The ring's pointers wrap at BUFFER_CELLS, which need not be a power of two (the board
 * builds use 672 and 384 cells).  Formal properties (`ifdef FORMAL, docs/formal.md): under the
 * contract that only allocated cells are pushed and no pop comes while pop_valid is low, no
 * cell is handed out twice, every cell handed out is below BUFFER_CELLS, and free cells plus
 * allocated cells equal BUFFER_CELLS on every clock.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_free_list #(
    // cells in the shared buffer
    parameter BUFFER_CELLS = 256,
    // cell index width, $clog2(BUFFER_CELLS)
    parameter CA_W = 8,
    // count width, $clog2(BUFFER_CELLS + 1)
    parameter CNT_W = 9,
    // test only: 1 wraps the ring at 2**CA_W instead of BUFFER_CELLS (wrong for a buffer that
    // is not a power of two: cells are read from past the ring's end), for the formal run and
    // the switch bench to show that they catch it; 0 in every real build
    parameter FAULT_INJECT = 0
) (
    input  wire             clk,
    input  wire             rst,

    output wire             pop_valid,
    output wire [CA_W-1:0]  pop_cell,
    input  wire             pop,

    input  wire             push,
    input  wire [CA_W-1:0]  push_cell,

    output wire [CNT_W-1:0] free_count,
    output wire [CNT_W-1:0] low_wm,
    output wire             err_underflow,
    output wire             err_overflow
);

localparam integer FRESH_LAST_I = BUFFER_CELLS - 1;
localparam [CNT_W-1:0] FRESH_LAST = FRESH_LAST_I[CNT_W-1:0];

reg [CNT_W-1:0] fresh_reg;       // next never-used cell
reg             fresh_left_reg;  // fresh_reg < BUFFER_CELLS
reg             push_reg;        // returned cell, registered on entry
reg [CA_W-1:0]  push_cell_reg;
reg [CA_W-1:0]  wr_ptr_reg;
reg [CA_W-1:0]  rd_ptr_reg;
reg [CNT_W-1:0] mem_count_reg;   // entries in the RAM not yet read
reg             mem_any_reg;     // mem_count_reg != 0
reg             rd_pending_reg;  // RAM read issued last clock
reg [1:0]       out_count_reg;   // output queue: entries held (at most 3)
reg [1:0]       out_rd_reg;      // output queue: slot of the head
reg [1:0]       out_wr_reg;      // output queue: slot the next RAM word goes to
reg [CA_W-1:0]  out_slot_reg [0:3];
reg [CNT_W-1:0] count_reg;
reg [CNT_W-1:0] low_wm_reg;
reg             err_underflow_reg;
reg             err_overflow_reg;

wire [CA_W-1:0] ram_rd_data;

wire out_valid = out_count_reg != 2'd0;
assign pop_valid = fresh_left_reg || out_valid;
assign pop_cell = fresh_left_reg ? fresh_reg[CA_W-1:0] : out_slot_reg[out_rd_reg];
assign free_count = count_reg;
assign low_wm = low_wm_reg;
assign err_underflow = err_underflow_reg;
assign err_overflow = err_overflow_reg;

wire pop_out = pop && !fresh_left_reg && out_valid;
// from registers only: the output queue has room for the read even if nothing is popped
// (the RAM has its output register: a read is pending two clocks, rd_pending_reg then
// rd_pending_d_reg, and lands in the output queue from the second)
reg rd_pending_d_reg;
wire rd_issue = mem_any_reg && ({1'b0, out_count_reg} + {2'b00, rd_pending_reg}
                                + {2'b00, rd_pending_d_reg} < 3'd3);
wire [1:0] out_after_pop = out_count_reg - {1'b0, pop_out};

// the read port is always enabled: ram_rd_data is the entry rd_ptr_reg addressed two clocks ago,
// taken only when rd_pending_d_reg says a read was issued then
sw_ram #(
    .WIDTH(CA_W),
    .DEPTH(BUFFER_CELLS),
    .ADDR_W(CA_W),
    .OUT_REG(1)
) ram_inst (
    .clk(clk),
    .wr_en(push_reg),
    .wr_addr(wr_ptr_reg),
    .wr_data(push_cell_reg),
    .rd_en(1'b1),
    .rd_addr(rd_ptr_reg),
    .rd_data(ram_rd_data)
);

function [CA_W-1:0] wrap_inc;
    input [CA_W-1:0] p;
    begin
        if (FAULT_INJECT == 0 && {1'b0, p} == BUFFER_CELLS[CA_W:0] - 1'b1) begin
            wrap_inc = {CA_W{1'b0}};
        end else begin
            wrap_inc = p + 1'b1;
        end
    end
endfunction

wire [CNT_W-1:0] mem_count_next = mem_count_reg + {{(CNT_W-1){1'b0}}, push_reg}
                                  - {{(CNT_W-1){1'b0}}, rd_issue};
// the count one up and one down from the register alone; the pop (the caller's late signal)
// only selects among them, after the carry chains
wire [CNT_W-1:0] count_up = count_reg + 1'b1;
wire [CNT_W-1:0] count_down = count_reg - 1'b1;
wire             pop_taken = pop && pop_valid;
wire [CNT_W-1:0] count_next = (push_reg == pop_taken) ? count_reg
                              : (push_reg ? count_up : count_down);

always @(posedge clk) begin
    push_reg <= push;
    push_cell_reg <= push_cell;
    if (pop && fresh_left_reg) begin
        fresh_reg <= fresh_reg + 1'b1;
        fresh_left_reg <= fresh_reg != FRESH_LAST;
    end
    if (push_reg) begin
        wr_ptr_reg <= wrap_inc(wr_ptr_reg);
    end
    if (rd_issue) begin
        rd_ptr_reg <= wrap_inc(rd_ptr_reg);
    end
    mem_count_reg <= mem_count_next;
    // nonzero after this clock: pushed now, or more than the one entry read now
    mem_any_reg <= push_reg || (mem_count_reg != {CNT_W{1'b0}}
                                && (!rd_issue || mem_count_reg != {{(CNT_W-1){1'b0}}, 1'b1}));
    rd_pending_reg <= rd_issue;
    rd_pending_d_reg <= rd_pending_reg;
    // a pop moves the head, the RAM's word goes to the write slot
    if (pop_out) begin
        out_rd_reg <= out_rd_reg + 1'b1;
    end
    if (rd_pending_d_reg) begin
        out_slot_reg[out_wr_reg] <= ram_rd_data;
        out_wr_reg <= out_wr_reg + 1'b1;
    end
    out_count_reg <= out_after_pop + {1'b0, rd_pending_d_reg};
    count_reg <= count_next;
    if (count_reg < low_wm_reg) begin
        low_wm_reg <= count_reg;
    end
    if (pop && !pop_valid) begin
        err_underflow_reg <= 1'b1;
    end
    if (push_reg && count_reg == BUFFER_CELLS[CNT_W-1:0]) begin
        err_overflow_reg <= 1'b1;
    end
    if (rst) begin
        fresh_reg <= {CNT_W{1'b0}};
        fresh_left_reg <= 1'b1;
        push_reg <= 1'b0;
        push_cell_reg <= {CA_W{1'b0}};
        wr_ptr_reg <= {CA_W{1'b0}};
        rd_ptr_reg <= {CA_W{1'b0}};
        mem_count_reg <= {CNT_W{1'b0}};
        mem_any_reg <= 1'b0;
        rd_pending_reg <= 1'b0;
        rd_pending_d_reg <= 1'b0;
        out_count_reg <= 2'd0;
        out_rd_reg <= 2'd0;
        out_wr_reg <= 2'd0;
        count_reg <= BUFFER_CELLS[CNT_W-1:0];
        low_wm_reg <= BUFFER_CELLS[CNT_W-1:0];
        err_underflow_reg <= 1'b0;
        err_overflow_reg <= 1'b0;
    end
end

`ifdef FORMAL
// ---- formal properties (SymbiYosys, formal/sw_free_list.sby; docs/formal.md).  A shadow
// bitmap of the allocated cells, from the pops; the environment's contract is assumed: a pop
// only while pop_valid, a push only of an allocated cell (so "every freed cell was
// allocated" is the caller's side, checked at switch level by the bench's cell shadow map).
reg                    fv_past;
reg [BUFFER_CELLS-1:0] fv_alloc;
integer                fv_i;
reg [CNT_W:0]          fv_held;
initial fv_past = 1'b0;
initial assume (rst);
always @* begin
    fv_held = {(CNT_W+1){1'b0}};
    for (fv_i = 0; fv_i < BUFFER_CELLS; fv_i = fv_i + 1) begin
        fv_held = fv_held + {{CNT_W{1'b0}}, fv_alloc[fv_i]};
    end
end
always @(posedge clk) begin
    fv_past <= 1'b1;
    if (pop && pop_valid) begin
        fv_alloc[pop_cell] <= 1'b1;
    end
    if (push) begin
        fv_alloc[push_cell] <= 1'b0;
    end
    if (rst) begin
        fv_alloc <= {BUFFER_CELLS{1'b0}};
    end
end
always @* begin
    if (!rst) begin
        // the caller's contract
        assume (!pop || pop_valid);
        if (push) begin
            assume ({{(32-CA_W){1'b0}}, push_cell} < BUFFER_CELLS);
            assume (fv_alloc[push_cell]);
            assume (!(pop && pop_valid && pop_cell == push_cell));
        end
    end
    if (fv_past && !rst) begin
        // no cell handed out twice, none beyond the buffer
        if (pop && pop_valid) begin
            assert ({{(32-CA_W){1'b0}}, pop_cell} < BUFFER_CELLS);
            assert (!fv_alloc[pop_cell]);
        end
        // free + allocated = total (a returned cell is counted from the clock after its
        // push_reg clock: push_reg covers the one in between)
        assert ({1'b0, count_reg} + {{CNT_W{1'b0}}, push_reg} + fv_held
                == BUFFER_CELLS[CNT_W:0]);
        assert (!err_underflow && !err_overflow);
        // inductive helpers: the parts of the list add up to the count
        assert (out_count_reg <= 2'd3);
        assert (out_wr_reg - out_rd_reg == out_count_reg);
        assert ({1'b0, mem_count_reg} <= BUFFER_CELLS[CNT_W:0]);
        assert (mem_any_reg == (mem_count_reg != {CNT_W{1'b0}}));
    end
end
`endif

endmodule

`resetall
