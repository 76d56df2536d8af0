/*
 * Testbench only (tb/soak): the link partner's transmit side.  Two AXI-Stream sources share
 * the link to a switch port, switched between frames only: the partner's MAC Control frames
 * (pfc_tx, priority: IEEE 802.1Qbb lets a PFC frame overtake queued data, not cut a frame)
 * and its data frames (frame_gen).  Combinational; the switch's ingress takes it as a link.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module soak_link_mux #(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    parameter DEST_WIDTH = 2
) (
    input  wire                  clk,
    input  wire                  rst,

    // MAC Control frames (priority between frames)
    input  wire [DATA_WIDTH-1:0] ctl_tdata,
    input  wire [KEEP_WIDTH-1:0] ctl_tkeep,
    input  wire                  ctl_tvalid,
    output wire                  ctl_tready,
    input  wire                  ctl_tlast,
    input  wire                  ctl_tuser,

    // data frames
    input  wire [DATA_WIDTH-1:0] dat_tdata,
    input  wire [KEEP_WIDTH-1:0] dat_tkeep,
    input  wire                  dat_tvalid,
    output wire                  dat_tready,
    input  wire                  dat_tlast,
    input  wire                  dat_tuser,
    input  wire [DEST_WIDTH-1:0] dat_tdest,

    output wire [DATA_WIDTH-1:0] m_tdata,
    output wire [KEEP_WIDTH-1:0] m_tkeep,
    output wire                  m_tvalid,
    input  wire                  m_tready,
    output wire                  m_tlast,
    output wire                  m_tuser,
    output wire [DEST_WIDTH-1:0] m_tdest
);

reg in_frame_reg;     // a frame has started and not ended
reg sel_ctl_reg;      // the frame in progress is a MAC Control frame

// at a frame boundary the control source wins
wire sel_ctl = in_frame_reg ? sel_ctl_reg : ctl_tvalid;

assign m_tdata = sel_ctl ? ctl_tdata : dat_tdata;
assign m_tkeep = sel_ctl ? ctl_tkeep : dat_tkeep;
assign m_tvalid = sel_ctl ? ctl_tvalid : dat_tvalid;
assign m_tlast = sel_ctl ? ctl_tlast : dat_tlast;
assign m_tuser = sel_ctl ? ctl_tuser : dat_tuser;
assign m_tdest = sel_ctl ? {DEST_WIDTH{1'b0}} : dat_tdest;
assign ctl_tready = sel_ctl && m_tready;
assign dat_tready = !sel_ctl && m_tready;

always @(posedge clk) begin
    if (m_tvalid && m_tready) begin
        in_frame_reg <= !m_tlast;
        sel_ctl_reg <= sel_ctl;
    end
    if (rst) begin
        in_frame_reg <= 1'b0;
        sel_ctl_reg <= 1'b0;
    end
end

endmodule

`resetall
