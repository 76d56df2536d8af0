/*
 * loop_top: SWITCH_COUNT switch_core instances (2 or 3) in a ring with a routing loop, for the
 * PFC deadlock tests of issue 9 (tb/loop/test_loop.py, docs/watchdog.md "Loop test").
 *
 * Each switch has PORT_COUNT = 3 ports: port 0 faces the next switch of the ring, port 1 the
 * previous one, port 2 a host (cocotb, streams h<s>_in_axis_* / h<s>_out_axis_*).  Every link
 * is full duplex: two loop_link delay lines of LINK_DELAY clocks, carrying data frames and the
 * PFC frames of the sending port's pfc_tx, as a cable does.
 *
 *        +--------+ p0 ---- link ---> p1 +--------+ p0 ---- link ---> p1 +--------+
 *   h0 --| sw[0]  |    <--- link ----    | sw[1]  |    <--- link ----    | sw[2]  |-- h2
 *        +--------+ p1                   +--------+                   p0 +--------+
 *             ^ (p1 of sw[0] and p0 of sw[SWITCH_COUNT-1] close the ring)
 *
 * Static routing table (loop_router in front of each ring ingress port): a frame arriving on
 * port 1 (from the previous switch) goes out of port 0 (to the next one), and so does a frame
 * from the host: a flow injected by a host circulates around the ring: the routing loop.
 * An IPv4 frame whose TTL a hop takes to 0 leaves on the host port of the switch it reached
 * (ring port 0 receives only PFC frames; any data there also goes to the host).
 *
 * Configuration is shared by all switches (one MmuConfig, one SwitchConfig: port p's PFC
 * source MAC is 02:00:00:00:01:0p in every switch).  The registers (switch and admission) are
 * written over one AXI4-Lite port into every switch at once and read from one switch at a
 * time (address bits 19:18).
 * Status is concatenated per switch s at [s*W +: W].
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module loop_top #(
    // switches in the ring (2 or 3)
    parameter SWITCH_COUNT = 3,
    // ports per switch: 0 next, 1 previous, 2 host (fixed)
    parameter PORT_COUNT = 3,
    // stream width (loop_router parses 64-bit beats)
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    parameter DEST_WIDTH = 8,
    // switch_core buffer: CELL_BYTES a multiple of its word (2 * PORT_COUNT beats)
    parameter CELL_BYTES = 96,
    parameter BUFFER_CELLS = 64,
    parameter CELL_W = 16,
    // switch_core WATCHDOG_ENABLE and PREVENT_ENABLE / GROUP_W
    parameter WATCHDOG_ENABLE = 0,
    parameter PREVENT_ENABLE = 0,
    parameter GROUP_W = 2,
    // clocks a beat spends on each link
    parameter LINK_DELAY = 4
) (
    input  wire clk,
    input  wire rst,

    /*
     * Host ports (switch s: h<s>); h2 is unused with SWITCH_COUNT = 2
     */
    input  wire [DATA_WIDTH-1:0] h0_in_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] h0_in_axis_tkeep,
    input  wire h0_in_axis_tvalid,
    output wire h0_in_axis_tready,
    input  wire h0_in_axis_tlast,
    input  wire h0_in_axis_tuser,
    output wire [DATA_WIDTH-1:0] h0_out_axis_tdata,
    output wire [KEEP_WIDTH-1:0] h0_out_axis_tkeep,
    output wire h0_out_axis_tvalid,
    input  wire h0_out_axis_tready,
    output wire h0_out_axis_tlast,
    output wire h0_out_axis_tuser,
    input  wire [DATA_WIDTH-1:0] h1_in_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] h1_in_axis_tkeep,
    input  wire h1_in_axis_tvalid,
    output wire h1_in_axis_tready,
    input  wire h1_in_axis_tlast,
    input  wire h1_in_axis_tuser,
    output wire [DATA_WIDTH-1:0] h1_out_axis_tdata,
    output wire [KEEP_WIDTH-1:0] h1_out_axis_tkeep,
    output wire h1_out_axis_tvalid,
    input  wire h1_out_axis_tready,
    output wire h1_out_axis_tlast,
    output wire h1_out_axis_tuser,
    input  wire [DATA_WIDTH-1:0] h2_in_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] h2_in_axis_tkeep,
    input  wire h2_in_axis_tvalid,
    output wire h2_in_axis_tready,
    input  wire h2_in_axis_tlast,
    input  wire h2_in_axis_tuser,
    output wire [DATA_WIDTH-1:0] h2_out_axis_tdata,
    output wire [KEEP_WIDTH-1:0] h2_out_axis_tkeep,
    output wire h2_out_axis_tvalid,
    input  wire h2_out_axis_tready,
    output wire h2_out_axis_tlast,
    output wire h2_out_axis_tuser,

    /*
     * The switches' registers (AXI4-Lite, rtl/regs/pfcmmu.rdl: the switch registers and the
     * admission core's): a write goes to every switch (the same images; byte address bits
     * 19:18 ignored), a read to switch araddr[19:18] (its register at the low 18 bits)
     */
    input  wire [19:0]                            s_axil_awaddr,
    input  wire [2:0]                             s_axil_awprot,
    input  wire                                   s_axil_awvalid,
    output wire                                   s_axil_awready,
    input  wire [31:0]                            s_axil_wdata,
    input  wire [3:0]                             s_axil_wstrb,
    input  wire                                   s_axil_wvalid,
    output wire                                   s_axil_wready,
    output wire [1:0]                             s_axil_bresp,
    output wire                                   s_axil_bvalid,
    input  wire                                   s_axil_bready,
    input  wire [19:0]                            s_axil_araddr,
    input  wire [2:0]                             s_axil_arprot,
    input  wire                                   s_axil_arvalid,
    output wire                                   s_axil_arready,
    output wire [31:0]                            s_axil_rdata,
    output wire [1:0]                             s_axil_rresp,
    output wire                                   s_axil_rvalid,
    input  wire                                   s_axil_rready
);

// status per switch s at [s*W +: W]: probes of each switch_core's status wires (the same
// values its registers answer over AXI4-Lite), read by the bench
wire [SWITCH_COUNT*PORT_COUNT*32-1:0]         stat_rx_frames;
wire [SWITCH_COUNT*PORT_COUNT*32-1:0]         stat_tx_frames;
wire [SWITCH_COUNT*PORT_COUNT*32-1:0]         stat_drop_admission;
wire [SWITCH_COUNT*PORT_COUNT*32-1:0]         stat_pfc_rx_frames;
wire [SWITCH_COUNT*32-1:0]                    stat_free_cells;
wire [SWITCH_COUNT*32-1:0]                    stat_used_cells;
wire [SWITCH_COUNT*32-1:0]                    stat_queued_frames;
wire [SWITCH_COUNT*PORT_COUNT*8-1:0]          stat_pause;
wire [SWITCH_COUNT*PORT_COUNT*8-1:0]          stat_xoff;
wire [SWITCH_COUNT*PORT_COUNT*8-1:0]          stat_wd_storm;
wire [SWITCH_COUNT*PORT_COUNT*8-1:0]          stat_wd_disabled;
wire [SWITCH_COUNT*PORT_COUNT*8*32-1:0]       stat_wd_storms;
wire [SWITCH_COUNT*PORT_COUNT*32-1:0]         stat_wd_drop_frames;
wire [SWITCH_COUNT*PORT_COUNT*32-1:0]         stat_wd_fwd_frames;
wire [SWITCH_COUNT*(1<<GROUP_W)*32-1:0]       stat_prev_frames;
wire [SWITCH_COUNT*7*32-1:0]                  stat_mmu_drop_count;
// loop_router per ring ingress port (port 2: 0): frames expired / routed with a TTL
wire [SWITCH_COUNT*PORT_COUNT*32-1:0]         stat_ttl_expired;
wire [SWITCH_COUNT*PORT_COUNT*32-1:0]         stat_ttl_routed;
// per switch: {err_response, err_free_list, err_reserve, err_bad_config,
// err_release_underflow}
wire [SWITCH_COUNT*5-1:0]                     err_flags;

localparam P = PORT_COUNT;
localparam DW = DATA_WIDTH;
localparam KW = KEEP_WIDTH;
localparam [DEST_WIDTH-1:0] PORT_NEXT = 0;
localparam [DEST_WIDTH-1:0] PORT_HOST = 2;

initial begin
    if (SWITCH_COUNT < 2 || SWITCH_COUNT > 3 || PORT_COUNT != 3) begin
        $error("loop_top: SWITCH_COUNT must be 2 or 3 and PORT_COUNT 3");
        $finish;
    end
end

// switch s port p at [(s*P + p)*W +: W]
// admission registers: every switch's CSR block sees the same AXI4-Lite inputs, so their
// handshakes are equal clock for clock and switch 0's stand for all; a read returns the data
// and response of the switch its address named (registered at the AR handshake: reads of two
// switches must not overlap; the bench reads one switch at a time)
wire [SWITCH_COUNT-1:0]       sw_awready, sw_wready, sw_bvalid, sw_arready, sw_rvalid;
wire [SWITCH_COUNT*2-1:0]     sw_bresp, sw_rresp;
wire [SWITCH_COUNT*32-1:0]    sw_rdata;
reg  [1:0]                    rd_switch_reg;
always @(posedge clk) begin
    if (s_axil_arvalid && s_axil_arready) begin
        rd_switch_reg <= s_axil_araddr[19:18];
    end
    if (rst) begin
        rd_switch_reg <= 2'd0;
    end
end
assign s_axil_awready = sw_awready[0];
assign s_axil_wready = sw_wready[0];
assign s_axil_bresp = sw_bresp[1:0];
assign s_axil_bvalid = sw_bvalid[0];
assign s_axil_arready = sw_arready[0];
assign s_axil_rvalid = sw_rvalid[0];
assign s_axil_rdata = sw_rdata[rd_switch_reg*32 +: 32];
assign s_axil_rresp = sw_rresp[rd_switch_reg*2 +: 2];

wire [SWITCH_COUNT*P*DW-1:0]  sw_s_tdata,  sw_m_tdata;
wire [SWITCH_COUNT*P*KW-1:0]  sw_s_tkeep,  sw_m_tkeep;
wire [SWITCH_COUNT*P-1:0]     sw_s_tvalid, sw_m_tvalid;
wire [SWITCH_COUNT*P-1:0]     sw_s_tready, sw_m_tready;
wire [SWITCH_COUNT*P-1:0]     sw_s_tlast,  sw_m_tlast;
wire [SWITCH_COUNT*P-1:0]     sw_s_tuser,  sw_m_tuser;
wire [SWITCH_COUNT*P*DEST_WIDTH-1:0] sw_s_tdest;

// link out of switch s: cw from its port 0 (to the next switch), ccw from its port 1
wire [SWITCH_COUNT*DW-1:0]    cw_tdata,  ccw_tdata;
wire [SWITCH_COUNT*KW-1:0]    cw_tkeep,  ccw_tkeep;
wire [SWITCH_COUNT-1:0]       cw_tvalid, ccw_tvalid;
wire [SWITCH_COUNT-1:0]       cw_tready, ccw_tready;
wire [SWITCH_COUNT-1:0]       cw_tlast,  ccw_tlast;
wire [SWITCH_COUNT-1:0]       cw_tuser,  ccw_tuser;

// host streams gathered by switch
wire [3*DW-1:0] h_in_tdata = {h2_in_axis_tdata, h1_in_axis_tdata, h0_in_axis_tdata};
wire [3*KW-1:0] h_in_tkeep = {h2_in_axis_tkeep, h1_in_axis_tkeep, h0_in_axis_tkeep};
wire [2:0] h_in_tvalid = {h2_in_axis_tvalid, h1_in_axis_tvalid, h0_in_axis_tvalid};
wire [2:0] h_in_tlast = {h2_in_axis_tlast, h1_in_axis_tlast, h0_in_axis_tlast};
wire [2:0] h_in_tuser = {h2_in_axis_tuser, h1_in_axis_tuser, h0_in_axis_tuser};
wire [2:0] h_out_tready = {h2_out_axis_tready, h1_out_axis_tready, h0_out_axis_tready};
wire [2:0] h_in_tready;
wire [3*DW-1:0] h_out_tdata;
wire [3*KW-1:0] h_out_tkeep;
wire [2:0] h_out_tvalid, h_out_tlast, h_out_tuser;

assign {h2_in_axis_tready, h1_in_axis_tready, h0_in_axis_tready} = h_in_tready;
assign {h2_out_axis_tdata, h1_out_axis_tdata, h0_out_axis_tdata} = h_out_tdata;
assign {h2_out_axis_tkeep, h1_out_axis_tkeep, h0_out_axis_tkeep} = h_out_tkeep;
assign {h2_out_axis_tvalid, h1_out_axis_tvalid, h0_out_axis_tvalid} = h_out_tvalid;
assign {h2_out_axis_tlast, h1_out_axis_tlast, h0_out_axis_tlast} = h_out_tlast;
assign {h2_out_axis_tuser, h1_out_axis_tuser, h0_out_axis_tuser} = h_out_tuser;

genvar s;
generate
    for (s = 0; s < 3; s = s + 1) begin : host
        if (s >= SWITCH_COUNT) begin : unused
            // no third switch: the host stream is idle
            assign h_in_tready[s] = 1'b1;
            assign h_out_tdata[s*DW +: DW] = {DW{1'b0}};
            assign h_out_tkeep[s*KW +: KW] = {KW{1'b0}};
            assign h_out_tvalid[s] = 1'b0;
            assign h_out_tlast[s] = 1'b0;
            assign h_out_tuser[s] = 1'b0;
        end
    end

    for (s = 0; s < SWITCH_COUNT; s = s + 1) begin : sw
        localparam integer NEXT = (s + 1) % SWITCH_COUNT;
        localparam integer PREV = (s + SWITCH_COUNT - 1) % SWITCH_COUNT;
        localparam integer B = s * P;

        // ---- host port 2: frames from the host follow the routing table to port 0
        assign sw_s_tdata[(B+2)*DW +: DW] = h_in_tdata[s*DW +: DW];
        assign sw_s_tkeep[(B+2)*KW +: KW] = h_in_tkeep[s*KW +: KW];
        assign sw_s_tvalid[B+2] = h_in_tvalid[s];
        assign sw_s_tlast[B+2] = h_in_tlast[s];
        assign sw_s_tuser[B+2] = h_in_tuser[s];
        assign sw_s_tdest[(B+2)*DEST_WIDTH +: DEST_WIDTH] = PORT_NEXT;
        assign h_in_tready[s] = sw_s_tready[B+2];
        assign h_out_tdata[s*DW +: DW] = sw_m_tdata[(B+2)*DW +: DW];
        assign h_out_tkeep[s*KW +: KW] = sw_m_tkeep[(B+2)*KW +: KW];
        assign h_out_tvalid[s] = sw_m_tvalid[B+2];
        assign h_out_tlast[s] = sw_m_tlast[B+2];
        assign h_out_tuser[s] = sw_m_tuser[B+2];
        assign sw_m_tready[B+2] = h_out_tready[s];

        // ---- links out of this switch
        loop_link #(.DATA_WIDTH(DW), .KEEP_WIDTH(KW), .DELAY(LINK_DELAY)) cw_link (
            .clk(clk), .rst(rst),
            .s_axis_tdata(sw_m_tdata[B*DW +: DW]), .s_axis_tkeep(sw_m_tkeep[B*KW +: KW]),
            .s_axis_tvalid(sw_m_tvalid[B]), .s_axis_tready(sw_m_tready[B]),
            .s_axis_tlast(sw_m_tlast[B]), .s_axis_tuser(sw_m_tuser[B]),
            .m_axis_tdata(cw_tdata[s*DW +: DW]), .m_axis_tkeep(cw_tkeep[s*KW +: KW]),
            .m_axis_tvalid(cw_tvalid[s]), .m_axis_tready(cw_tready[s]),
            .m_axis_tlast(cw_tlast[s]), .m_axis_tuser(cw_tuser[s]));

        loop_link #(.DATA_WIDTH(DW), .KEEP_WIDTH(KW), .DELAY(LINK_DELAY)) ccw_link (
            .clk(clk), .rst(rst),
            .s_axis_tdata(sw_m_tdata[(B+1)*DW +: DW]), .s_axis_tkeep(sw_m_tkeep[(B+1)*KW +: KW]),
            .s_axis_tvalid(sw_m_tvalid[B+1]), .s_axis_tready(sw_m_tready[B+1]),
            .s_axis_tlast(sw_m_tlast[B+1]), .s_axis_tuser(sw_m_tuser[B+1]),
            .m_axis_tdata(ccw_tdata[s*DW +: DW]), .m_axis_tkeep(ccw_tkeep[s*KW +: KW]),
            .m_axis_tvalid(ccw_tvalid[s]), .m_axis_tready(ccw_tready[s]),
            .m_axis_tlast(ccw_tlast[s]), .m_axis_tuser(ccw_tuser[s]));

        // ---- port 1 receives the previous switch's cw link: the loop (route to port 0)
        loop_router #(.DATA_WIDTH(DW), .KEEP_WIDTH(KW), .DEST_WIDTH(DEST_WIDTH),
                      .TTL_ENABLE(1)) prev_router (
            .clk(clk), .rst(rst),
            .s_axis_tdata(cw_tdata[PREV*DW +: DW]), .s_axis_tkeep(cw_tkeep[PREV*KW +: KW]),
            .s_axis_tvalid(cw_tvalid[PREV]), .s_axis_tready(cw_tready[PREV]),
            .s_axis_tlast(cw_tlast[PREV]), .s_axis_tuser(cw_tuser[PREV]),
            .m_axis_tdata(sw_s_tdata[(B+1)*DW +: DW]), .m_axis_tkeep(sw_s_tkeep[(B+1)*KW +: KW]),
            .m_axis_tvalid(sw_s_tvalid[B+1]), .m_axis_tready(sw_s_tready[B+1]),
            .m_axis_tlast(sw_s_tlast[B+1]), .m_axis_tuser(sw_s_tuser[B+1]),
            .m_axis_tdest(sw_s_tdest[(B+1)*DEST_WIDTH +: DEST_WIDTH]),
            .cfg_route_dest(PORT_NEXT), .cfg_expire_dest(PORT_HOST),
            .stat_expired(stat_ttl_expired[(B+1)*32 +: 32]),
            .stat_routed(stat_ttl_routed[(B+1)*32 +: 32]));

        // ---- port 0 receives the next switch's ccw link (its PFC frames)
        loop_router #(.DATA_WIDTH(DW), .KEEP_WIDTH(KW), .DEST_WIDTH(DEST_WIDTH),
                      .TTL_ENABLE(1)) next_router (
            .clk(clk), .rst(rst),
            .s_axis_tdata(ccw_tdata[NEXT*DW +: DW]), .s_axis_tkeep(ccw_tkeep[NEXT*KW +: KW]),
            .s_axis_tvalid(ccw_tvalid[NEXT]), .s_axis_tready(ccw_tready[NEXT]),
            .s_axis_tlast(ccw_tlast[NEXT]), .s_axis_tuser(ccw_tuser[NEXT]),
            .m_axis_tdata(sw_s_tdata[B*DW +: DW]), .m_axis_tkeep(sw_s_tkeep[B*KW +: KW]),
            .m_axis_tvalid(sw_s_tvalid[B]), .m_axis_tready(sw_s_tready[B]),
            .m_axis_tlast(sw_s_tlast[B]), .m_axis_tuser(sw_s_tuser[B]),
            .m_axis_tdest(sw_s_tdest[B*DEST_WIDTH +: DEST_WIDTH]),
            .cfg_route_dest(PORT_HOST), .cfg_expire_dest(PORT_HOST),
            .stat_expired(stat_ttl_expired[B*32 +: 32]),
            .stat_routed(stat_ttl_routed[B*32 +: 32]));

        assign stat_ttl_expired[(B+2)*32 +: 32] = 32'd0;
        assign stat_ttl_routed[(B+2)*32 +: 32] = 32'd0;

        // ---- the switch
        switch_core #(
            .PORT_COUNT(P),
            .DATA_WIDTH(DW),
            .KEEP_WIDTH(KW),
            .DEST_WIDTH(DEST_WIDTH),
            .CELL_BYTES(CELL_BYTES),
            .BUFFER_CELLS(BUFFER_CELLS),
            .CELL_W(CELL_W),
            .WATCHDOG_ENABLE(WATCHDOG_ENABLE),
            .PREVENT_ENABLE(PREVENT_ENABLE),
            .GROUP_W(GROUP_W)
        ) core (
            .clk(clk),
            .rst(rst),
            .s_axis_tdata(sw_s_tdata[B*DW +: P*DW]),
            .s_axis_tkeep(sw_s_tkeep[B*KW +: P*KW]),
            .s_axis_tvalid(sw_s_tvalid[B +: P]),
            .s_axis_tready(sw_s_tready[B +: P]),
            .s_axis_tlast(sw_s_tlast[B +: P]),
            .s_axis_tuser(sw_s_tuser[B +: P]),
            .s_axis_tdest(sw_s_tdest[B*DEST_WIDTH +: P*DEST_WIDTH]),
            .m_axis_tdata(sw_m_tdata[B*DW +: P*DW]),
            .m_axis_tkeep(sw_m_tkeep[B*KW +: P*KW]),
            .m_axis_tvalid(sw_m_tvalid[B +: P]),
            .m_axis_tready(sw_m_tready[B +: P]),
            .m_axis_tlast(sw_m_tlast[B +: P]),
            .m_axis_tuser(sw_m_tuser[B +: P]),
            .s_axil_awaddr(s_axil_awaddr[17:0]),
            .s_axil_awprot(s_axil_awprot),
            .s_axil_awvalid(s_axil_awvalid),
            .s_axil_awready(sw_awready[s]),
            .s_axil_wdata(s_axil_wdata),
            .s_axil_wstrb(s_axil_wstrb),
            .s_axil_wvalid(s_axil_wvalid),
            .s_axil_wready(sw_wready[s]),
            .s_axil_bresp(sw_bresp[s*2 +: 2]),
            .s_axil_bvalid(sw_bvalid[s]),
            .s_axil_bready(s_axil_bready),
            .s_axil_araddr(s_axil_araddr[17:0]),
            .s_axil_arprot(s_axil_arprot),
            .s_axil_arvalid(s_axil_arvalid),
            .s_axil_arready(sw_arready[s]),
            .s_axil_rdata(sw_rdata[s*32 +: 32]),
            .s_axil_rresp(sw_rresp[s*2 +: 2]),
            .s_axil_rvalid(sw_rvalid[s]),
            .s_axil_rready(s_axil_rready),
            .board_xoff()
        );
        /* verilator lint_on PINCONNECTEMPTY */
        // status probes (hierarchical references into this switch)
        assign stat_rx_frames[B*32 +: P*32] = core.stat_rx_frames;
        assign stat_tx_frames[B*32 +: P*32] = core.stat_tx_frames;
        assign stat_drop_admission[B*32 +: P*32] = core.stat_drop_admission;
        assign stat_pfc_rx_frames[B*32 +: P*32] = core.stat_pfc_rx_frames;
        assign stat_free_cells[s*32 +: 32] = core.stat_free_cells;
        assign stat_used_cells[s*32 +: 32] = core.stat_used_cells;
        assign stat_queued_frames[s*32 +: 32] = core.stat_queued_frames;
        assign stat_pause[B*8 +: P*8] = core.stat_pause;
        assign stat_xoff[B*8 +: P*8] = core.stat_xoff;
        assign stat_wd_storm[B*8 +: P*8] = core.stat_wd_storm;
        assign stat_wd_disabled[B*8 +: P*8] = core.stat_wd_disabled;
        assign stat_wd_storms[B*8*32 +: P*8*32] = core.stat_wd_storms;
        assign stat_wd_drop_frames[B*32 +: P*32] = core.stat_wd_drop_frames;
        assign stat_wd_fwd_frames[B*32 +: P*32] = core.stat_wd_fwd_frames;
        assign stat_prev_frames[s*(1<<GROUP_W)*32 +: (1<<GROUP_W)*32] = core.stat_prev_frames;
        assign stat_mmu_drop_count[s*7*32 +: 7*32] = core.stat_mmu_drop_count;
        assign err_flags[s*5 + 0] = core.err_release_underflow;
        assign err_flags[s*5 + 1] = core.err_bad_config;
        assign err_flags[s*5 + 2] = core.err_reserve;
        assign err_flags[s*5 + 3] = core.err_free_list;
        assign err_flags[s*5 + 4] = core.err_response;
    end
endgenerate

endmodule

`resetall
