/*
 * Testbench-only wrapper of switch_core for the pyuvm system tests (tb/system): one
 * tb_axis_port per switch port (port0 .. port3) drives and watches the port's streams, named
 * s<p>_axis_* / m<p>_axis_* here, so the Python side works per frame, never per clock
 * (tb/system/tb_axis_port.v).  mmu_obs records what happens at the switch's mmu_core ports on
 * every clock that has something (MmuObserver).  switch_core is configured over its AXI4-Lite
 * port (switch registers, then the admission image); its status wires stat_*, err_* are
 * probes here under their own names (hierarchical references), read by the bench.
 * PORT_COUNT is fixed at 4 here.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module switch_tb_top #(
    // stream width in bits
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // tdest width
    parameter DEST_WIDTH = 8,
    // bytes per buffer cell
    parameter CELL_BYTES = 128,
    // cells in the shared buffer
    parameter BUFFER_CELLS = 2048,
    // admission counter width
    parameter CELL_W = 16
) (
    input  wire                        clk,
    input  wire                        rst,

    /*
     * switch_core's registers (its AXI4-Lite slave, rtl/regs/pfcmmu.rdl)
     */
    input  wire [17:0] s_axil_awaddr,
    input  wire [2:0] s_axil_awprot,
    input  wire s_axil_awvalid,
    output wire s_axil_awready,
    input  wire [31:0] s_axil_wdata,
    input  wire [3:0] s_axil_wstrb,
    input  wire s_axil_wvalid,
    output wire s_axil_wready,
    output wire [1:0] s_axil_bresp,
    output wire s_axil_bvalid,
    input  wire s_axil_bready,
    input  wire [17:0] s_axil_araddr,
    input  wire [2:0] s_axil_arprot,
    input  wire s_axil_arvalid,
    output wire s_axil_arready,
    output wire [31:0] s_axil_rdata,
    output wire [1:0] s_axil_rresp,
    output wire s_axil_rvalid,
    input  wire s_axil_rready
);

localparam N = 4;

// switch_core's status as the bench reads it (the same values its registers answer)
wire [128-1:0] stat_rx_frames = core.stat_rx_frames;
wire [128-1:0] stat_rx_bytes = core.stat_rx_bytes;
wire [128-1:0] stat_tx_frames = core.stat_tx_frames;
wire [128-1:0] stat_tx_bytes = core.stat_tx_bytes;
wire [128-1:0] stat_drop_error = core.stat_drop_error;
wire [128-1:0] stat_drop_runt = core.stat_drop_runt;
wire [128-1:0] stat_drop_oversize = core.stat_drop_oversize;
wire [128-1:0] stat_drop_admission = core.stat_drop_admission;
wire [128-1:0] stat_pfc_rx_frames = core.stat_pfc_rx_frames;
wire [32-1:0] stat_free_cells = core.stat_free_cells;
wire [32-1:0] stat_free_low_wm = core.stat_free_low_wm;
wire [32-1:0] stat_used_cells = core.stat_used_cells;
wire [32-1:0] stat_queued_frames = core.stat_queued_frames;
wire [32-1:0] stat_pause = core.stat_pause;
wire [32-1:0] stat_xoff = core.stat_xoff;
wire [7*32-1:0] stat_mmu_drop_count = core.stat_mmu_drop_count;
wire [1-1:0] err_release_underflow = core.err_release_underflow;
wire [1-1:0] err_bad_config = core.err_bad_config;
wire [1-1:0] err_reserve = core.err_reserve;
wire [1-1:0] err_free_list = core.err_free_list;
wire [1-1:0] err_response = core.err_response;

wire [DATA_WIDTH-1:0] s0_axis_tdata;
wire [KEEP_WIDTH-1:0] s0_axis_tkeep;
wire s0_axis_tvalid;
wire s0_axis_tready;
wire s0_axis_tlast;
wire s0_axis_tuser;
wire [DEST_WIDTH-1:0] s0_axis_tdest;
wire [DATA_WIDTH-1:0] m0_axis_tdata;
wire [KEEP_WIDTH-1:0] m0_axis_tkeep;
wire m0_axis_tvalid;
wire m0_axis_tready;
wire m0_axis_tlast;
wire m0_axis_tuser;
wire [DATA_WIDTH-1:0] s1_axis_tdata;
wire [KEEP_WIDTH-1:0] s1_axis_tkeep;
wire s1_axis_tvalid;
wire s1_axis_tready;
wire s1_axis_tlast;
wire s1_axis_tuser;
wire [DEST_WIDTH-1:0] s1_axis_tdest;
wire [DATA_WIDTH-1:0] m1_axis_tdata;
wire [KEEP_WIDTH-1:0] m1_axis_tkeep;
wire m1_axis_tvalid;
wire m1_axis_tready;
wire m1_axis_tlast;
wire m1_axis_tuser;
wire [DATA_WIDTH-1:0] s2_axis_tdata;
wire [KEEP_WIDTH-1:0] s2_axis_tkeep;
wire s2_axis_tvalid;
wire s2_axis_tready;
wire s2_axis_tlast;
wire s2_axis_tuser;
wire [DEST_WIDTH-1:0] s2_axis_tdest;
wire [DATA_WIDTH-1:0] m2_axis_tdata;
wire [KEEP_WIDTH-1:0] m2_axis_tkeep;
wire m2_axis_tvalid;
wire m2_axis_tready;
wire m2_axis_tlast;
wire m2_axis_tuser;
wire [DATA_WIDTH-1:0] s3_axis_tdata;
wire [KEEP_WIDTH-1:0] s3_axis_tkeep;
wire s3_axis_tvalid;
wire s3_axis_tready;
wire s3_axis_tlast;
wire s3_axis_tuser;
wire [DEST_WIDTH-1:0] s3_axis_tdest;
wire [DATA_WIDTH-1:0] m3_axis_tdata;
wire [KEEP_WIDTH-1:0] m3_axis_tkeep;
wire m3_axis_tvalid;
wire m3_axis_tready;
wire m3_axis_tlast;
wire m3_axis_tuser;

tb_axis_port #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .DEST_WIDTH(DEST_WIDTH)
) port0 (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s0_axis_tdata),
    .s_axis_tkeep(s0_axis_tkeep),
    .s_axis_tvalid(s0_axis_tvalid),
    .s_axis_tready(s0_axis_tready),
    .s_axis_tlast(s0_axis_tlast),
    .s_axis_tuser(s0_axis_tuser),
    .s_axis_tdest(s0_axis_tdest),
    .m_axis_tdata(m0_axis_tdata),
    .m_axis_tkeep(m0_axis_tkeep),
    .m_axis_tvalid(m0_axis_tvalid),
    .m_axis_tready(m0_axis_tready),
    .m_axis_tlast(m0_axis_tlast),
    .m_axis_tuser(m0_axis_tuser)
);

tb_axis_port #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .DEST_WIDTH(DEST_WIDTH)
) port1 (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s1_axis_tdata),
    .s_axis_tkeep(s1_axis_tkeep),
    .s_axis_tvalid(s1_axis_tvalid),
    .s_axis_tready(s1_axis_tready),
    .s_axis_tlast(s1_axis_tlast),
    .s_axis_tuser(s1_axis_tuser),
    .s_axis_tdest(s1_axis_tdest),
    .m_axis_tdata(m1_axis_tdata),
    .m_axis_tkeep(m1_axis_tkeep),
    .m_axis_tvalid(m1_axis_tvalid),
    .m_axis_tready(m1_axis_tready),
    .m_axis_tlast(m1_axis_tlast),
    .m_axis_tuser(m1_axis_tuser)
);

tb_axis_port #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .DEST_WIDTH(DEST_WIDTH)
) port2 (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s2_axis_tdata),
    .s_axis_tkeep(s2_axis_tkeep),
    .s_axis_tvalid(s2_axis_tvalid),
    .s_axis_tready(s2_axis_tready),
    .s_axis_tlast(s2_axis_tlast),
    .s_axis_tuser(s2_axis_tuser),
    .s_axis_tdest(s2_axis_tdest),
    .m_axis_tdata(m2_axis_tdata),
    .m_axis_tkeep(m2_axis_tkeep),
    .m_axis_tvalid(m2_axis_tvalid),
    .m_axis_tready(m2_axis_tready),
    .m_axis_tlast(m2_axis_tlast),
    .m_axis_tuser(m2_axis_tuser)
);

tb_axis_port #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .DEST_WIDTH(DEST_WIDTH)
) port3 (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s3_axis_tdata),
    .s_axis_tkeep(s3_axis_tkeep),
    .s_axis_tvalid(s3_axis_tvalid),
    .s_axis_tready(s3_axis_tready),
    .s_axis_tlast(s3_axis_tlast),
    .s_axis_tuser(s3_axis_tuser),
    .s_axis_tdest(s3_axis_tdest),
    .m_axis_tdata(m3_axis_tdata),
    .m_axis_tkeep(m3_axis_tkeep),
    .m_axis_tvalid(m3_axis_tvalid),
    .m_axis_tready(m3_axis_tready),
    .m_axis_tlast(m3_axis_tlast),
    .m_axis_tuser(m3_axis_tuser)
);

// mmu_obs: every clock with something at mmu_core's ports (a release, an arrival, a response,
// a configuration write, a change of pfc_xoff), 32-bit fields from the lowest:
//   0 release valid, 1..5 port pg eport queue cells, 6 arrival valid, 7..11 port pg eport
//   queue len, 12 tag, 13 response valid, 14..22 admit reason cells res shared hdrm eres
//   eshared tag, 23 configuration write valid, 24 address, 25 data, 26 pfc_xoff changed,
//   27 pfc_xoff, 28 clock (k: the k-th edge out of reset, tb/common/mmu_bus.py),
//   29 record sequence number (0 in reset).  A group's fields are 0 without its valid
//   (Icarus has them X then).
localparam OBS_W = 30;
wire obs_rel = core.mmu_inst.s_rel_valid;
wire obs_arr = core.mmu_inst.s_req_valid;
wire obs_resp = core.mmu_inst.m_resp_valid;
wire obs_cfg = core.mmu_inst.cfg_wr_valid;
wire obs_xoff = |core.mmu_inst.pfc_change;
reg [32*OBS_W-1:0] mmu_obs;
reg [31:0] obs_clock;

always @(posedge clk) begin
    obs_clock <= obs_clock + 32'd1;
    // (the admission core leaves reset a clock after the switch: its own reset register)
    if (core.rst_mmu) begin
        mmu_obs <= {32*OBS_W{1'b0}};
        obs_clock <= 32'd0;
    end else if (obs_rel || obs_arr || obs_resp || obs_cfg || obs_xoff) begin
        mmu_obs <= {mmu_obs[32*(OBS_W-1) +: 32] + 32'd1, obs_clock,
                    32'(core.mmu_inst.pfc_xoff), 32'(obs_xoff),
                    (obs_cfg ? core.mmu_inst.cfg_wr_data : 32'd0),
                    (obs_cfg ? 32'(core.mmu_inst.cfg_wr_addr) : 32'd0), 32'(obs_cfg),
                    (obs_resp ? 32'(core.mmu_inst.m_resp_tag) : 32'd0),
                    (obs_resp ? 32'(core.mmu_inst.m_resp_eshared) : 32'd0),
                    (obs_resp ? 32'(core.mmu_inst.m_resp_eres) : 32'd0),
                    (obs_resp ? 32'(core.mmu_inst.m_resp_hdrm) : 32'd0),
                    (obs_resp ? 32'(core.mmu_inst.m_resp_shared) : 32'd0), (obs_resp ? 32'(core.mmu_inst.m_resp_res) : 32'd0),
                    (obs_resp ? 32'(core.mmu_inst.m_resp_cells) : 32'd0), (obs_resp ? 32'(core.mmu_inst.m_resp_reason) : 32'd0),
                    (obs_resp ? 32'(core.mmu_inst.m_resp_admit) : 32'd0), 32'(obs_resp),
                    (obs_arr ? 32'(core.mmu_inst.s_req_tag) : 32'd0), (obs_arr ? 32'(core.mmu_inst.s_req_len) : 32'd0),
                    (obs_arr ? 32'(core.mmu_inst.s_req_queue) : 32'd0), (obs_arr ? 32'(core.mmu_inst.s_req_eport) : 32'd0),
                    (obs_arr ? 32'(core.mmu_inst.s_req_pg) : 32'd0), (obs_arr ? 32'(core.mmu_inst.s_req_port) : 32'd0), 32'(obs_arr),
                    (obs_rel ? 32'(core.mmu_inst.s_rel_cells) : 32'd0), (obs_rel ? 32'(core.mmu_inst.s_rel_queue) : 32'd0),
                    (obs_rel ? 32'(core.mmu_inst.s_rel_eport) : 32'd0), (obs_rel ? 32'(core.mmu_inst.s_rel_pg) : 32'd0),
                    (obs_rel ? 32'(core.mmu_inst.s_rel_port) : 32'd0), 32'(obs_rel)};
    end
end


wire [N*DATA_WIDTH-1:0] m_tdata;
wire [N*KEEP_WIDTH-1:0] m_tkeep;
wire [N-1:0] m_tvalid, m_tlast, m_tuser, s_tready;

assign m0_axis_tdata = m_tdata[0*DATA_WIDTH +: DATA_WIDTH];
assign m0_axis_tkeep = m_tkeep[0*KEEP_WIDTH +: KEEP_WIDTH];
assign m0_axis_tvalid = m_tvalid[0];
assign m0_axis_tlast = m_tlast[0];
assign m0_axis_tuser = m_tuser[0];
assign s0_axis_tready = s_tready[0];
assign m1_axis_tdata = m_tdata[1*DATA_WIDTH +: DATA_WIDTH];
assign m1_axis_tkeep = m_tkeep[1*KEEP_WIDTH +: KEEP_WIDTH];
assign m1_axis_tvalid = m_tvalid[1];
assign m1_axis_tlast = m_tlast[1];
assign m1_axis_tuser = m_tuser[1];
assign s1_axis_tready = s_tready[1];
assign m2_axis_tdata = m_tdata[2*DATA_WIDTH +: DATA_WIDTH];
assign m2_axis_tkeep = m_tkeep[2*KEEP_WIDTH +: KEEP_WIDTH];
assign m2_axis_tvalid = m_tvalid[2];
assign m2_axis_tlast = m_tlast[2];
assign m2_axis_tuser = m_tuser[2];
assign s2_axis_tready = s_tready[2];
assign m3_axis_tdata = m_tdata[3*DATA_WIDTH +: DATA_WIDTH];
assign m3_axis_tkeep = m_tkeep[3*KEEP_WIDTH +: KEEP_WIDTH];
assign m3_axis_tvalid = m_tvalid[3];
assign m3_axis_tlast = m_tlast[3];
assign m3_axis_tuser = m_tuser[3];
assign s3_axis_tready = s_tready[3];

switch_core #(
    .PORT_COUNT(N),
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KEEP_WIDTH),
    .DEST_WIDTH(DEST_WIDTH),
    .CELL_BYTES(CELL_BYTES),
    .BUFFER_CELLS(BUFFER_CELLS),
    .CELL_W(CELL_W)
) core (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata({s3_axis_tdata, s2_axis_tdata, s1_axis_tdata, s0_axis_tdata}),
    .s_axis_tkeep({s3_axis_tkeep, s2_axis_tkeep, s1_axis_tkeep, s0_axis_tkeep}),
    .s_axis_tvalid({s3_axis_tvalid, s2_axis_tvalid, s1_axis_tvalid, s0_axis_tvalid}),
    .s_axis_tready(s_tready),
    .s_axis_tlast({s3_axis_tlast, s2_axis_tlast, s1_axis_tlast, s0_axis_tlast}),
    .s_axis_tuser({s3_axis_tuser, s2_axis_tuser, s1_axis_tuser, s0_axis_tuser}),
    .s_axis_tdest({s3_axis_tdest, s2_axis_tdest, s1_axis_tdest, s0_axis_tdest}),
    .m_axis_tdata(m_tdata),
    .m_axis_tkeep(m_tkeep),
    .m_axis_tvalid(m_tvalid),
    .m_axis_tready({m3_axis_tready, m2_axis_tready, m1_axis_tready, m0_axis_tready}),
    .m_axis_tlast(m_tlast),
    .m_axis_tuser(m_tuser),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .board_xoff()
);

endmodule

`resetall
