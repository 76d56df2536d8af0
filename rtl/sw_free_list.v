/*
 * Free-cell list of the shared buffer.
 *
 * Cells never used since reset come from a counter (so reset takes one clock, not
 * BUFFER_CELLS); returned cells go through a FIFO in block RAM (BUFFER_CELLS entries, it can
 * never overflow while every cell is returned once).  One pop and one push per clock.
 *
 * Timing (125 MHz on ECP5 at DATA_WIDTH 8): a returned cell is registered on entry (push_reg)
 * and written to the RAM one clock later, so the caller's push logic ends at a flip-flop; the
 * RAM read is issued from registered state only (never from this clock's pop), which a
 * three-entry output queue in front of the RAM's registered read turns back into one pop per
 * clock; pop_valid / pop_cell come from registers through one mux.
 *
 * free_count counts every cell in the list (counter + input register + FIFO + output queue);
 * low_wm is its minimum since reset (one clock behind free_count).  err_* are sticky: a pop
 * from an empty list, a push into a full one.
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
    parameter CNT_W = 9
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
reg [1:0]       out_count_reg;   // output queue: out0 (head), out1, out2
reg [CA_W-1:0]  out0_reg;
reg [CA_W-1:0]  out1_reg;
reg [CA_W-1:0]  out2_reg;
reg [CNT_W-1:0] count_reg;
reg [CNT_W-1:0] low_wm_reg;
reg             err_underflow_reg;
reg             err_overflow_reg;

wire [CA_W-1:0] ram_rd_data;

wire out_valid = out_count_reg != 2'd0;
assign pop_valid = fresh_left_reg || out_valid;
assign pop_cell = fresh_left_reg ? fresh_reg[CA_W-1:0] : out0_reg;
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
        if ({1'b0, p} == BUFFER_CELLS[CA_W:0] - 1'b1) begin
            wrap_inc = {CA_W{1'b0}};
        end else begin
            wrap_inc = p + 1'b1;
        end
    end
endfunction

wire [CNT_W-1:0] mem_count_next = mem_count_reg + {{(CNT_W-1){1'b0}}, push_reg}
                                  - {{(CNT_W-1){1'b0}}, rd_issue};
wire [CNT_W-1:0] count_next = count_reg + {{(CNT_W-1){1'b0}}, push_reg}
                              - {{(CNT_W-1){1'b0}}, pop && pop_valid};

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
    // shift out the head on a pop, the RAM's word goes to the first free entry
    if (pop_out) begin
        out0_reg <= out1_reg;
        out1_reg <= out2_reg;
    end
    if (rd_pending_d_reg) begin
        case (out_after_pop)
            2'd0: out0_reg <= ram_rd_data;
            2'd1: out1_reg <= ram_rd_data;
            default: out2_reg <= ram_rd_data;
        endcase
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
        out0_reg <= {CA_W{1'b0}};
        out1_reg <= {CA_W{1'b0}};
        out2_reg <= {CA_W{1'b0}};
        count_reg <= BUFFER_CELLS[CNT_W-1:0];
        low_wm_reg <= BUFFER_CELLS[CNT_W-1:0];
        err_underflow_reg <= 1'b0;
        err_overflow_reg <= 1'b0;
    end
end

endmodule

`resetall
