/*
 * Bench top of tb/mmu_csr: the generated AXI4-Lite CSR block pfcmmu_csr in front of the
 * admission core mmu_core, as switch_core is to have them (issue 17).  The core's request and
 * release ports are the bench's; its configuration / status port is the CSR block's.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_csr_top #(
    parameter PORT_COUNT = 2,
    parameter CELL_BYTES = 256,
    parameter CELL_W = 16,
    // no default that could drift: tb/mmu_csr/test_mmu_csr.py passes
    // models.mmu_pipe.RTL_STAT_LATENCY (pfcmmu_csr refuses 0)
    parameter STAT_LATENCY = 0,
    parameter FAULT_INJECT = 0
) (
    input  wire               clk,
    input  wire               rst,

    input  wire [17:0]        s_axil_awaddr,
    input  wire [2:0]         s_axil_awprot,
    input  wire               s_axil_awvalid,
    output wire               s_axil_awready,
    input  wire [31:0]        s_axil_wdata,
    input  wire [3:0]         s_axil_wstrb,
    input  wire               s_axil_wvalid,
    output wire               s_axil_wready,
    output wire [1:0]         s_axil_bresp,
    output wire               s_axil_bvalid,
    input  wire               s_axil_bready,
    input  wire [17:0]        s_axil_araddr,
    input  wire [2:0]         s_axil_arprot,
    input  wire               s_axil_arvalid,
    output wire               s_axil_arready,
    output wire [31:0]        s_axil_rdata,
    output wire [1:0]         s_axil_rresp,
    output wire               s_axil_rvalid,
    input  wire               s_axil_rready,

    input  wire               s_req_valid,
    input  wire [7:0]         s_req_port,
    input  wire [3:0]         s_req_pg,
    input  wire [7:0]         s_req_eport,
    input  wire [3:0]         s_req_queue,
    input  wire [13:0]        s_req_len,
    input  wire [7:0]         s_req_tag,
    output wire               m_resp_valid,
    output wire               m_resp_admit,
    input  wire               s_rel_valid,
    input  wire [7:0]         s_rel_port,
    input  wire [3:0]         s_rel_pg,
    input  wire [7:0]         s_rel_eport,
    input  wire [3:0]         s_rel_queue,
    input  wire [CELL_W-1:0]  s_rel_cells,

    output wire [31:0]        stat_slverr_count,
    output wire               err_bad_config
);

wire        cfg_wr_valid;
wire [15:0] cfg_wr_addr;
wire [31:0] cfg_wr_data;
wire [15:0] stat_addr;
wire [31:0] stat_data;

pfcmmu_csr #(
    .PORT_COUNT(PORT_COUNT),
    .ADDR_W(18),
    .STAT_LATENCY(STAT_LATENCY),
    .FAULT_INJECT(FAULT_INJECT)
) csr_inst (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),
    .m_cfg_wr_valid(cfg_wr_valid), .m_cfg_wr_addr(cfg_wr_addr), .m_cfg_wr_data(cfg_wr_data),
    .m_stat_addr(stat_addr), .m_stat_data(stat_data),
    .stat_slverr_count(stat_slverr_count)
);

mmu_core #(
    .PORT_COUNT(PORT_COUNT),
    .CELL_BYTES(CELL_BYTES),
    .CELL_W(CELL_W)
) core_inst (
    .clk(clk), .rst(rst),
    .s_req_valid(s_req_valid), .s_req_ready(),
    .s_req_port(s_req_port), .s_req_pg(s_req_pg), .s_req_eport(s_req_eport),
    .s_req_queue(s_req_queue), .s_req_len(s_req_len), .s_req_tag(s_req_tag),
    .m_resp_valid(m_resp_valid), .m_resp_admit(m_resp_admit), .m_resp_reason(),
    .m_resp_cells(), .m_resp_res(), .m_resp_shared(), .m_resp_hdrm(), .m_resp_eres(),
    .m_resp_eshared(), .m_resp_tag(),
    .s_rel_valid(s_rel_valid), .s_rel_ready(),
    .s_rel_port(s_rel_port), .s_rel_pg(s_rel_pg), .s_rel_eport(s_rel_eport),
    .s_rel_queue(s_rel_queue), .s_rel_cells(s_rel_cells),
    .pfc_xoff(), .pfc_change(),
    .cfg_wr_valid(cfg_wr_valid), .cfg_wr_addr(cfg_wr_addr), .cfg_wr_data(cfg_wr_data),
    .stat_addr(stat_addr), .stat_data(stat_data),
    .err_release_underflow(),
    .err_bad_config(err_bad_config)
);

endmodule

`resetall
