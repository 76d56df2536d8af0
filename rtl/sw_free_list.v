/*
 * Free-cell list of the shared buffer.
 *
 * Cells never used since reset come from a counter (so reset takes one clock, not
 * BUFFER_CELLS); returned cells go through a FIFO in block RAM (BUFFER_CELLS entries, it can
 * never overflow while every cell is returned once).  One pop and one push per clock: a
 * two-entry output queue in front of the RAM's registered read keeps a pop possible every
 * clock.
 *
 * free_count counts every cell in the list (counter + FIFO + output register); low_wm is its
 * minimum since reset.  err_* are sticky: a pop from an empty list, a push into a full one.
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

reg [CNT_W-1:0] fresh_reg;       // next never-used cell; all used once it is BUFFER_CELLS
reg [CA_W-1:0]  wr_ptr_reg;
reg [CA_W-1:0]  rd_ptr_reg;
reg [CNT_W-1:0] mem_count_reg;   // entries in the RAM not yet read
reg             rd_pending_reg;  // RAM read issued last clock
reg [1:0]       out_count_reg;   // output queue: out0 (head), out1
reg [CA_W-1:0]  out0_reg;
reg [CA_W-1:0]  out1_reg;
reg [CNT_W-1:0] count_reg;
reg [CNT_W-1:0] low_wm_reg;
reg             err_underflow_reg;
reg             err_overflow_reg;

wire [CA_W-1:0] ram_rd_data;

wire fresh_left = (fresh_reg != BUFFER_CELLS[CNT_W-1:0]);
wire out_valid = out_count_reg != 2'd0;
assign pop_valid = fresh_left || out_valid;
assign pop_cell = fresh_left ? fresh_reg[CA_W-1:0] : out0_reg;
assign free_count = count_reg;
assign low_wm = low_wm_reg;
assign err_underflow = err_underflow_reg;
assign err_overflow = err_overflow_reg;

wire pop_out = pop && !fresh_left && out_valid;
// entries the output queue will hold after this clock, not counting a read issued now
wire [2:0] out_occ = {1'b0, out_count_reg} + {2'b00, rd_pending_reg} - {2'b00, pop_out};
wire rd_issue = (mem_count_reg != {CNT_W{1'b0}}) && out_occ < 3'd2;

sw_ram #(
    .WIDTH(CA_W),
    .DEPTH(BUFFER_CELLS),
    .ADDR_W(CA_W)
) ram_inst (
    .clk(clk),
    .wr_en(push),
    .wr_addr(wr_ptr_reg),
    .wr_data(push_cell),
    .rd_en(rd_issue),
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

wire [CNT_W-1:0] count_next = count_reg + {{(CNT_W-1){1'b0}}, push}
                              - {{(CNT_W-1){1'b0}}, pop && pop_valid};

always @(posedge clk) begin
    if (pop && fresh_left) begin
        fresh_reg <= fresh_reg + 1'b1;
    end
    if (push) begin
        wr_ptr_reg <= wrap_inc(wr_ptr_reg);
    end
    if (rd_issue) begin
        rd_ptr_reg <= wrap_inc(rd_ptr_reg);
    end
    mem_count_reg <= mem_count_reg + {{(CNT_W-1){1'b0}}, push}
                     - {{(CNT_W-1){1'b0}}, rd_issue};
    rd_pending_reg <= rd_issue;
    case ({rd_pending_reg, pop_out})
        2'b01: begin
            out0_reg <= out1_reg;
            out_count_reg <= out_count_reg - 1'b1;
        end
        2'b10: begin
            if (out_count_reg == 2'd0) begin
                out0_reg <= ram_rd_data;
            end else begin
                out1_reg <= ram_rd_data;
            end
            out_count_reg <= out_count_reg + 1'b1;
        end
        2'b11: begin
            if (out_count_reg == 2'd1) begin
                out0_reg <= ram_rd_data;
            end else begin
                out0_reg <= out1_reg;
                out1_reg <= ram_rd_data;
            end
        end
        default: ;
    endcase
    count_reg <= count_next;
    if (count_next < low_wm_reg) begin
        low_wm_reg <= count_next;
    end
    if (pop && !pop_valid) begin
        err_underflow_reg <= 1'b1;
    end
    if (push && count_reg == BUFFER_CELLS[CNT_W-1:0]) begin
        err_overflow_reg <= 1'b1;
    end
    if (rst) begin
        fresh_reg <= {CNT_W{1'b0}};
        wr_ptr_reg <= {CA_W{1'b0}};
        rd_ptr_reg <= {CA_W{1'b0}};
        mem_count_reg <= {CNT_W{1'b0}};
        rd_pending_reg <= 1'b0;
        out_count_reg <= 2'd0;
        out0_reg <= {CA_W{1'b0}};
        out1_reg <= {CA_W{1'b0}};
        count_reg <= BUFFER_CELLS[CNT_W-1:0];
        low_wm_reg <= BUFFER_CELLS[CNT_W-1:0];
        err_underflow_reg <= 1'b0;
        err_overflow_reg <= 1'b0;
    end
end

endmodule

`resetall
