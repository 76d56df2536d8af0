/*
 * sw_walker: returns the cells of dropped frames to the free list.
 *
 * A frame the decision stage drops (rejected by mmu_core, bad, a PFC frame that took cells)
 * enters the walk FIFO as {head cell, cells}; the walker follows its cell links (its own copy
 * of the cell-link RAM, written with the write stage's links) and pushes every cell to the
 * free list.  The free-list push port is shared with the read stage, whose free goes first:
 * the walker pushes only in a clock the read stage frees nothing.
 *
 * Interfaces:
 *   s_walk_*        frames to return (decision stage), valid / ready
 *   link_wr_*       the write stage's cell-link writes (next cell of the same frame)
 *   rd_free*        the read stage's free of this clock (registered there)
 *   m_free_*        the free list's push port
 *
 * Latency: a frame's entry is at the walk FIFO's head (sw_fifo IN_REG 2) two clocks after
 * its push at the earliest; the walker pushes its head cell to the free list in that clock
 * (unless the read stage frees one then) and each further cell three clocks after the one
 * before (the link RAM read with its output register takes two).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_walker #(
    // cells in the shared buffer
    parameter BUFFER_CELLS = 256,
    // cell index width, $clog2(BUFFER_CELLS)
    parameter CA_W = 8,
    // cell count width of a frame (mmu_core CELL_W)
    parameter CELL_W = 16,
    // frames waiting to be walked
    parameter WALK_DEPTH = 8,
    // $clog2(WALK_DEPTH)
    parameter WALK_PTR_W = 3
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * Frames to return (decision stage)
     */
    input  wire                 s_walk_valid,
    output wire                 s_walk_ready,
    input  wire [CA_W-1:0]      s_walk_head,
    input  wire [CELL_W-1:0]    s_walk_cells,

    /*
     * Cell links (write stage, registered writes)
     */
    input  wire                 link_wr_en,
    input  wire [CA_W-1:0]      link_wr_addr,
    input  wire [CA_W-1:0]      link_wr_data,

    /*
     * The read stage's free (goes first) and the free list's push port
     */
    input  wire                 rd_free,
    input  wire [CA_W-1:0]      rd_free_cell,
    output reg                  m_free_push,
    output reg  [CA_W-1:0]      m_free_cell
);

// the walker waits two clocks for a link (link RAM with its output register)
localparam [1:0] WK_IDLE = 2'd0, WK_CELL = 2'd1, WK_LINK = 2'd2, WK_LINK2 = 2'd3;

/* verilator lint_off PINCONNECTEMPTY */
wire                walk_valid;
reg                 walk_pop;
wire [CA_W-1:0]     wf_head;
wire [CELL_W-1:0]   wf_cells;

sw_fifo #(.WIDTH(CA_W + CELL_W), .DEPTH(WALK_DEPTH), .PTR_W(WALK_PTR_W), .IN_REG(2))
    walk_fifo_inst (
    .clk(clk), .rst(rst),
    .s_valid(s_walk_valid), .s_ready(s_walk_ready), .s_data({s_walk_head, s_walk_cells}),
    .m_valid(walk_valid), .m_ready(walk_pop), .m_data({wf_head, wf_cells}), .count());
/* verilator lint_on PINCONNECTEMPTY */

reg  [CA_W-1:0]     link_raddr;
wire [CA_W-1:0]     link_rd;

sw_ram #(.WIDTH(CA_W), .DEPTH(BUFFER_CELLS), .ADDR_W(CA_W), .OUT_REG(1)) link_ram_inst (
    .clk(clk), .wr_en(link_wr_en), .wr_addr(link_wr_addr), .wr_data(link_wr_data),
    .rd_en(1'b1), .rd_addr(link_raddr), .rd_data(link_rd));

reg  [1:0]          wk_state_reg, wk_state_next;
reg  [CA_W-1:0]     wk_cell_reg, wk_cell_next;
reg  [CELL_W-1:0]   wk_rem_reg, wk_rem_next;

always @* begin
    m_free_push = rd_free;
    m_free_cell = rd_free_cell;
    walk_pop = 1'b0;
    link_raddr = wk_state_reg == WK_CELL ? wk_cell_reg : wf_head;
    wk_state_next = wk_state_reg;
    wk_cell_next = wk_cell_reg;
    wk_rem_next = wk_rem_reg;
    case (wk_state_reg)
        WK_IDLE, WK_CELL: begin
            if ((wk_state_reg == WK_CELL || walk_valid) && !rd_free) begin
                m_free_push = 1'b1;
                m_free_cell = link_raddr;
                walk_pop = wk_state_reg == WK_IDLE;
                if ((wk_state_reg == WK_CELL ? wk_rem_reg : wf_cells) > 1) begin
                    wk_rem_next = (wk_state_reg == WK_CELL ? wk_rem_reg : wf_cells) - 1'b1;
                    wk_state_next = WK_LINK;
                end else begin
                    wk_state_next = WK_IDLE;
                end
            end
        end
        WK_LINK: begin
            wk_state_next = WK_LINK2;
        end
        default: begin      // WK_LINK2 (the only state left)
            wk_cell_next = link_rd;
            wk_state_next = WK_CELL;
        end
    endcase
end

always @(posedge clk) begin
    wk_state_reg <= wk_state_next;
    wk_cell_reg <= wk_cell_next;
    wk_rem_reg <= wk_rem_next;
    if (rst) begin
        wk_state_reg <= WK_IDLE;
    end
end

endmodule

`resetall
