/*
 * sw_csr: switch_core's register block (docs/regs.md): the AXI4-Lite front end with the
 * admission core's configuration / status port (sw_mmu_csr: the generated pfcmmu_csr, the
 * copies of buffer_cells / max_frame_bytes, the admission gate) and the switch's own
 * registers (pfcmmu_sw_regs, generated from the map pfcmmu_switch of rtl/regs/pfcmmu.rdl),
 * which sw_mmu_csr routes to by word address bit 15.
 *
 * What a build leaves out is decided here: PORT_COUNTERS 0 reads every per-port counter but
 * drop_admission as 0 (the counters are then not built: nothing else reads them);
 * FEATURE_REGS 0 leaves out the configuration registers of the features the build does not
 * use (pfcmmu_sw_regs STALL_REGS, LINK_PAUSE_REGS, PREV_REGS, WD_REGS: they read 0 and the
 * switch sees their reset values).
 *
 * Interfaces:
 *   s_axil_*            AXI4-Lite slave, 32-bit data, 18-bit byte addresses
 *   m_cfg_wr_*, m_stat_*
 *                       mmu_core's configuration write port and status port
 *   cfg_buffer_cells, cfg_max_frame_bytes
 *                       sw_mmu_csr's copies of mmu_core's global registers
 *   cfg_loaded, cfg_loaded_copy
 *                       the admission image is loaded (two registers, one per consumer)
 *   cfg_*               the switch's configuration (port p's fields at [p*W +: W])
 *   stat_*, err_*       the switch's status as its registers read it; stat_axil_slverr the
 *                       AXI4-Lite error responses (pfcmmu_csr's count)
 *
 * Latency: sw_mmu_csr's (a write reaches mmu_core and the switch registers 2 clocks after
 * AWVALID and WVALID) and pfcmmu_sw_regs' (reads answer with mmu_core's status latency).
 * sw_mmu_csr is reset by rst_mmu, the admission core's reset copy (it leaves reset with
 * mmu_core), the switch registers by rst.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_csr #(
    // number of ports
    parameter PORT_COUNT = 4,
    // mmu_core's port count (a power of two)
    parameter MMU_PORTS = 4,
    // width of a cell-valued field (mmu_core's CELL_W)
    parameter CELL_W = 16,
    // 1: every per-port counter is read; 0: only drop_admission (switch_core PORT_COUNTERS)
    parameter PORT_COUNTERS = 1,
    // 1: every configuration register is built; 0: only those of the features in use
    // (switch_core FEATURE_REGS)
    parameter FEATURE_REGS = 1,
    // the features whose registers FEATURE_REGS 0 keeps when they are built
    parameter PREVENT_ENABLE = 0,
    parameter WATCHDOG_ENABLE = 0
) (
    input  wire                        clk,
    input  wire                        rst,
    input  wire                        rst_mmu,

    /*
     * AXI4-Lite slave (register map rtl/regs/pfcmmu.rdl; byte address = word address << 2)
     */
    input  wire [17:0]                 s_axil_awaddr,
    input  wire [2:0]                  s_axil_awprot,
    input  wire                        s_axil_awvalid,
    output wire                        s_axil_awready,
    input  wire [31:0]                 s_axil_wdata,
    input  wire [3:0]                  s_axil_wstrb,
    input  wire                        s_axil_wvalid,
    output wire                        s_axil_wready,
    output wire [1:0]                  s_axil_bresp,
    output wire                        s_axil_bvalid,
    input  wire                        s_axil_bready,
    input  wire [17:0]                 s_axil_araddr,
    input  wire [2:0]                  s_axil_arprot,
    input  wire                        s_axil_arvalid,
    output wire                        s_axil_arready,
    output wire [31:0]                 s_axil_rdata,
    output wire [1:0]                  s_axil_rresp,
    output wire                        s_axil_rvalid,
    input  wire                        s_axil_rready,

    /*
     * mmu_core's configuration and status port
     */
    output wire                        m_cfg_wr_valid,
    output wire [15:0]                 m_cfg_wr_addr,
    output wire [31:0]                 m_cfg_wr_data,
    output wire [15:0]                 m_stat_addr,
    input  wire [31:0]                 m_stat_data,

    /*
     * The admission configuration the switch reads, and its gate
     */
    output wire [CELL_W-1:0]           cfg_buffer_cells,
    output wire [31:0]                 cfg_max_frame_bytes,
    output wire                        cfg_loaded,
    output wire                        cfg_loaded_copy,

    /*
     * The switch's configuration: priority k of port p at [(p*8+k)*3 +: 3]; per port p at
     * [p*W +: W]; quanta of priority k at [k*16 +: 16]; prevention per priority k
     */
    output wire [PORT_COUNT*8*3-1:0]   cfg_prio_to_pg,
    output wire [PORT_COUNT*8*3-1:0]   cfg_prio_to_queue,
    output wire [PORT_COUNT*3-1:0]     cfg_default_prio,
    output wire [PORT_COUNT*48-1:0]    cfg_src_mac,
    output wire [8*16-1:0]             cfg_pause_quanta,
    output wire [15:0]                 cfg_refresh_quanta,
    output wire [23:0]                 cfg_quanta_step,
    output wire [PORT_COUNT-1:0]       cfg_link_pause_enable,
    output wire [31:0]                 cfg_stall_clocks,
    output wire [PORT_COUNT-1:0]       cfg_wd_enable,
    output wire [PORT_COUNT*32-1:0]    cfg_wd_detect_time,
    output wire [PORT_COUNT*32-1:0]    cfg_wd_restore_time,
    output wire [PORT_COUNT*2-1:0]     cfg_wd_action,
    output wire [PORT_COUNT*8-1:0]     cfg_wd_storm_limit,
    output wire [PORT_COUNT*8-1:0]     cfg_wd_reenable,
    output wire [PORT_COUNT*2-1:0]     cfg_port_group,
    output wire [7:0]                  cfg_prev_enable,
    output wire [8*3-1:0]              cfg_prev_alt_prio,
    output wire [8*6-1:0]              cfg_prev_alt_dscp,

    /*
     * The switch's status: per port p at [p*32 +: 32] (stat_wd_storms: port p priority k at
     * [(p*8 + k)*32 +: 32]); admission drops by reason r = 1 .. 6 at [(r-1)*32 +: 32];
     * prevention per group g at [g*32 +: 32]
     */
    input  wire [PORT_COUNT*32-1:0]    stat_rx_frames,
    input  wire [PORT_COUNT*32-1:0]    stat_rx_bytes,
    input  wire [PORT_COUNT*32-1:0]    stat_tx_frames,
    input  wire [PORT_COUNT*32-1:0]    stat_tx_bytes,
    input  wire [PORT_COUNT*32-1:0]    stat_drop_error,
    input  wire [PORT_COUNT*32-1:0]    stat_drop_runt,
    input  wire [PORT_COUNT*32-1:0]    stat_drop_oversize,
    input  wire [PORT_COUNT*32-1:0]    stat_drop_admission,
    input  wire [PORT_COUNT*32-1:0]    stat_pfc_rx_frames,
    input  wire [PORT_COUNT*32-1:0]    stat_pause_rx_frames,
    input  wire [PORT_COUNT*32-1:0]    stat_ctrl_unknown,
    input  wire [PORT_COUNT*32-1:0]    stat_ctrl_malformed,
    input  wire [PORT_COUNT*32-1:0]    stat_drop_malformed,
    input  wire [PORT_COUNT*32-1:0]    stat_drop_bad_dest,
    input  wire [PORT_COUNT*32-1:0]    stat_drop_stall,
    input  wire [PORT_COUNT*32-1:0]    stat_wd_drop_frames,
    input  wire [PORT_COUNT*32-1:0]    stat_wd_fwd_frames,
    input  wire [PORT_COUNT*8*32-1:0]  stat_wd_storms,
    input  wire [PORT_COUNT*8-1:0]     stat_pause,
    input  wire [PORT_COUNT*8-1:0]     stat_xoff,
    input  wire [PORT_COUNT*8-1:0]     stat_wd_storm,
    input  wire [PORT_COUNT*8-1:0]     stat_wd_disabled,
    input  wire [31:0]                 stat_free_cells,
    input  wire [31:0]                 stat_free_low_wm,
    input  wire [31:0]                 stat_used_cells,
    input  wire [31:0]                 stat_queued_frames,
    input  wire [6*32-1:0]             stat_mmu_drop_count,
    input  wire [4*32-1:0]             stat_prev_frames,
    input  wire [4*32-1:0]             stat_prev_untagged,
    input  wire                        err_release_underflow,
    input  wire                        err_bad_config,
    input  wire                        err_reserve,
    input  wire                        err_free_list,
    input  wire                        err_response,
    output wire [31:0]                 stat_axil_slverr
);

// the switch registers' side of sw_mmu_csr's routing; the source address in two registers
wire                     sw_regs_wr_valid;
wire [31:0]              sw_regs_rd_data;
wire                     sw_regs_rd_hit;
wire [PORT_COUNT*32-1:0] cfg_src_mac_lo;
wire [PORT_COUNT*16-1:0] cfg_src_mac_hi;

// the AXI4-Lite CSR block, the copies of buffer_cells / max_frame_bytes the datapath reads
// and the admission gate (sw_mmu_csr)
sw_mmu_csr #(.MMU_PORTS(MMU_PORTS), .CELL_W(CELL_W)) mmu_csr_inst (
    .clk(clk), .rst(rst_mmu),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),
    .m_cfg_wr_valid(m_cfg_wr_valid), .m_cfg_wr_addr(m_cfg_wr_addr),
    .m_cfg_wr_data(m_cfg_wr_data), .m_stat_addr(m_stat_addr), .m_stat_data(m_stat_data),
    .cfg_buffer_cells(cfg_buffer_cells), .cfg_max_frame_bytes(cfg_max_frame_bytes),
    .m_sw_wr_valid(sw_regs_wr_valid), .m_sw_rd_data(sw_regs_rd_data),
    .m_sw_rd_hit(sw_regs_rd_hit),
    .cfg_loaded(cfg_loaded), .cfg_loaded_copy(cfg_loaded_copy),
    .stat_slverr_count(stat_axil_slverr)
);

// the switch's own registers: its configuration from registers, its status read back with
// mmu_core's status latency (pfcmmu_sw_regs, generated; docs/regs.md)
pfcmmu_sw_regs #(
    .PORT_COUNT(PORT_COUNT),
    .STALL_REGS(FEATURE_REGS),
    .LINK_PAUSE_REGS(FEATURE_REGS),
    .PREV_REGS(FEATURE_REGS != 0 || PREVENT_ENABLE != 0),
    .WD_REGS(FEATURE_REGS != 0 || WATCHDOG_ENABLE != 0)
) sw_regs_inst (
    .clk(clk), .rst(rst),
    .wr_valid(sw_regs_wr_valid), .wr_addr(m_cfg_wr_addr), .wr_data(m_cfg_wr_data),
    .rd_addr(m_stat_addr), .rd_data(sw_regs_rd_data), .rd_hit(sw_regs_rd_hit),
    .cfg_stall_clocks(cfg_stall_clocks),
    .cfg_refresh_quanta(cfg_refresh_quanta),
    .cfg_quanta_step(cfg_quanta_step),
    .cfg_prev_enable(cfg_prev_enable),
    .cfg_prev_alt_prio(cfg_prev_alt_prio),
    .cfg_pause_quanta(cfg_pause_quanta),
    .cfg_prev_alt_dscp(cfg_prev_alt_dscp),
    .stat_free_cells(stat_free_cells),
    .stat_free_low_wm(stat_free_low_wm),
    .stat_used_cells(stat_used_cells),
    .stat_queued_frames(stat_queued_frames),
    .stat_axil_slverr(stat_axil_slverr),
    .stat_errors_release_underflow(err_release_underflow),
    .stat_errors_bad_config(err_bad_config),
    .stat_errors_reserve(err_reserve),
    .stat_errors_free_list(err_free_list),
    .stat_errors_response(err_response),
    .stat_mmu_drop_count(stat_mmu_drop_count),
    .stat_prev_frames(stat_prev_frames),
    .stat_prev_untagged(stat_prev_untagged),
    .cfg_prio_to_pg(cfg_prio_to_pg),
    .cfg_prio_to_queue(cfg_prio_to_queue),
    .cfg_default_prio(cfg_default_prio),
    .cfg_src_mac_lo(cfg_src_mac_lo),
    .cfg_src_mac_hi(cfg_src_mac_hi),
    .cfg_link_pause_enable(cfg_link_pause_enable),
    .cfg_port_group(cfg_port_group),
    .cfg_wd_enable(cfg_wd_enable),
    .cfg_wd_detect_time(cfg_wd_detect_time),
    .cfg_wd_restore_time(cfg_wd_restore_time),
    .cfg_wd_action(cfg_wd_action),
    .cfg_wd_storm_limit(cfg_wd_storm_limit),
    .cfg_wd_reenable(cfg_wd_reenable),
    .stat_rx_frames(PORT_COUNTERS != 0 ? stat_rx_frames : {PORT_COUNT*32{1'b0}}),
    .stat_rx_bytes(PORT_COUNTERS != 0 ? stat_rx_bytes : {PORT_COUNT*32{1'b0}}),
    .stat_tx_frames(PORT_COUNTERS != 0 ? stat_tx_frames : {PORT_COUNT*32{1'b0}}),
    .stat_tx_bytes(PORT_COUNTERS != 0 ? stat_tx_bytes : {PORT_COUNT*32{1'b0}}),
    .stat_drop_error(PORT_COUNTERS != 0 ? stat_drop_error : {PORT_COUNT*32{1'b0}}),
    .stat_drop_runt(PORT_COUNTERS != 0 ? stat_drop_runt : {PORT_COUNT*32{1'b0}}),
    .stat_drop_oversize(PORT_COUNTERS != 0 ? stat_drop_oversize : {PORT_COUNT*32{1'b0}}),
    .stat_drop_admission(stat_drop_admission),
    .stat_pfc_rx_frames(PORT_COUNTERS != 0 ? stat_pfc_rx_frames : {PORT_COUNT*32{1'b0}}),
    .stat_pause_rx_frames(PORT_COUNTERS != 0 ? stat_pause_rx_frames : {PORT_COUNT*32{1'b0}}),
    .stat_ctrl_unknown(PORT_COUNTERS != 0 ? stat_ctrl_unknown : {PORT_COUNT*32{1'b0}}),
    .stat_ctrl_malformed(PORT_COUNTERS != 0 ? stat_ctrl_malformed : {PORT_COUNT*32{1'b0}}),
    .stat_drop_malformed(PORT_COUNTERS != 0 ? stat_drop_malformed : {PORT_COUNT*32{1'b0}}),
    .stat_drop_bad_dest(PORT_COUNTERS != 0 ? stat_drop_bad_dest : {PORT_COUNT*32{1'b0}}),
    .stat_drop_stall(PORT_COUNTERS != 0 ? stat_drop_stall : {PORT_COUNT*32{1'b0}}),
    .stat_wd_drop_frames(PORT_COUNTERS != 0 ? stat_wd_drop_frames : {PORT_COUNT*32{1'b0}}),
    .stat_wd_fwd_frames(PORT_COUNTERS != 0 ? stat_wd_fwd_frames : {PORT_COUNT*32{1'b0}}),
    .stat_pfc_state_pause(stat_pause),
    .stat_pfc_state_xoff(stat_xoff),
    .stat_pfc_state_wd_storm(stat_wd_storm),
    .stat_pfc_state_wd_disabled(stat_wd_disabled),
    .stat_wd_storms(PORT_COUNTERS != 0 ? stat_wd_storms : {PORT_COUNT*8*32{1'b0}})
);

genvar gp;
generate
    for (gp = 0; gp < PORT_COUNT; gp = gp + 1) begin : src_mac
        assign cfg_src_mac[gp*48 +: 48] = {cfg_src_mac_hi[gp*16 +: 16], cfg_src_mac_lo[gp*32 +: 32]};
    end
endgenerate

endmodule

`resetall
