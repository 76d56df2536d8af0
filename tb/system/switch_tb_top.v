/*
 * Testbench-only wrapper of switch_core for the pyuvm system tests (tb/system): one
 * tb_axis_port per switch port (port0 .. port3) drives and watches the port's streams, named
 * s<p>_axis_* / m<p>_axis_* here, so the Python side works per frame, never per clock
 * (tb/system/tb_axis_port.v).  mmu_obs records what happens at the switch's mmu_core ports on
 * every clock that has something (MmuObserver).  cfg_*, stat_*, err_* pass through under the same name.
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
     * Configuration and status (switch_core's, unchanged)
     */
    input  wire [96-1:0] cfg_prio_to_pg,
    input  wire [96-1:0] cfg_prio_to_queue,
    input  wire [12-1:0] cfg_default_prio,
    input  wire [192-1:0] cfg_src_mac,
    input  wire [128-1:0] cfg_pause_quanta,
    input  wire [16-1:0] cfg_refresh_quanta,
    input  wire [24-1:0] cfg_quanta_step,

    /*
     * The admission core's registers (switch_core's AXI4-Lite slave, rtl/regs/pfcmmu.rdl)
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
    input  wire s_axil_rready,

    output wire [128-1:0] stat_rx_frames,
    output wire [128-1:0] stat_rx_bytes,
    output wire [128-1:0] stat_tx_frames,
    output wire [128-1:0] stat_tx_bytes,
    output wire [128-1:0] stat_drop_error,
    output wire [128-1:0] stat_drop_runt,
    output wire [128-1:0] stat_drop_oversize,
    output wire [128-1:0] stat_drop_admission,
    output wire [128-1:0] stat_pfc_rx_frames,
    output wire [32-1:0] stat_free_cells,
    output wire [32-1:0] stat_free_low_wm,
    output wire [32-1:0] stat_used_cells,
    output wire [32-1:0] stat_queued_frames,
    output wire [32-1:0] stat_pause,
    output wire [32-1:0] stat_xoff,
    output wire [7*32-1:0] stat_mmu_drop_count,
    output wire [1-1:0] err_release_underflow,
    output wire [1-1:0] err_bad_config,
    output wire [1-1:0] err_reserve,
    output wire [1-1:0] err_free_list,
    output wire [1-1:0] err_response
);

localparam N = 4;

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
    .cfg_prio_to_pg(cfg_prio_to_pg),
    .cfg_prio_to_queue(cfg_prio_to_queue),
    .cfg_default_prio(cfg_default_prio),
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
    .cfg_src_mac(cfg_src_mac),
    .cfg_pause_quanta(cfg_pause_quanta),
    .cfg_refresh_quanta(cfg_refresh_quanta),
    .cfg_quanta_step(cfg_quanta_step),
    .cfg_link_pause_enable({N{1'b0}}),
    .cfg_stall_clocks(32'd0),
    .cfg_wd_enable({N{1'b0}}),
    .cfg_wd_detect_time({N*32{1'b0}}),
    .cfg_wd_restore_time({N*32{1'b0}}),
    .cfg_wd_action({N*2{1'b0}}),
    .cfg_wd_storm_limit({N*8{1'b0}}),
    .cfg_wd_reenable({N*8{1'b0}}),
    .cfg_port_group({N*2{1'b0}}),
    .cfg_prev_enable(8'd0),
    .cfg_prev_alt_prio(24'd0),
    .cfg_prev_alt_dscp(48'd0),
    .stat_wd_storm(),
    .stat_wd_disabled(),
    .stat_wd_storms(),
    .stat_wd_drop_frames(),
    .stat_wd_fwd_frames(),
    .stat_prev_frames(),
    .stat_prev_untagged(),
    .stat_rx_frames(stat_rx_frames),
    .stat_rx_bytes(stat_rx_bytes),
    .stat_tx_frames(stat_tx_frames),
    .stat_tx_bytes(stat_tx_bytes),
    .stat_drop_error(stat_drop_error),
    .stat_drop_runt(stat_drop_runt),
    .stat_drop_oversize(stat_drop_oversize),
    .stat_drop_admission(stat_drop_admission),
    .stat_pfc_rx_frames(stat_pfc_rx_frames),
    .stat_pause_rx_frames(),
    .stat_ctrl_unknown(),
    .stat_ctrl_malformed(),
    .stat_drop_malformed(),
    .stat_drop_bad_dest(),
    .stat_drop_stall(),
    .stat_free_cells(stat_free_cells),
    .stat_free_low_wm(stat_free_low_wm),
    .stat_used_cells(stat_used_cells),
    .stat_queued_frames(stat_queued_frames),
    .stat_pause(stat_pause),
    .stat_xoff(stat_xoff),
    .stat_axil_slverr(),
    .stat_mmu_drop_count(stat_mmu_drop_count),
    .err_release_underflow(err_release_underflow),
    .err_bad_config(err_bad_config),
    .err_reserve(err_reserve),
    .err_free_list(err_free_list),
    .err_response(err_response)
);

endmodule

`resetall
