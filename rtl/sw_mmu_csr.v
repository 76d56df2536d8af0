/*
 * sw_mmu_csr: switch_core's register front end for its admission core (issue 17).
 *
 * Job: the generated AXI4-Lite CSR block pfcmmu_csr (rtl/regs/pfcmmu.rdl, docs/regs.md) in
 * front of mmu_core's configuration / status port and of switch_core's own registers
 * (pfcmmu_sw_regs, the map pfcmmu_switch: word address bit 15 set), plus the two things
 * switch_core itself needs from the admission configuration:
 *
 *   - the routing of pfcmmu_csr's accesses by word address bit 15: a write goes to mmu_core
 *     (bit 15 clear) or to the switch registers (m_sw_wr_valid; address and data shared); a
 *     read's address goes to both, and the answer is the switch registers' when their
 *     m_sw_rd_hit says the address was theirs (both answer with STAT_LATENCY);
 *
 *   - a copy of the global registers buffer_cells and max_frame_bytes, taken from the
 *     CSR's writes as mmu_core takes them: the ingress bounds the frames it stores by
 *     max_frame_bytes and switch_core's err_reserve checks the cell reserve against both,
 *     continuously (mmu_core keeps its copy inside the admission pipeline);
 *   - cfg_loaded, the gate in front of admission: 0 after rst, 1 from the clock after the
 *     write of the map's last configuration register, queue[MMU_PORTS * 8 - 1].static_th
 *     (the last entry of a register image, models/regimage.py, padded to MMU_PORTS ports),
 *     until the next rst.  switch_core sends no admission request while it is 0
 *     (docs/switch_core.md "Configuration over AXI4-Lite").
 *
 * rst clears the copies (max_frame_bytes 0: every frame is oversize until it is written)
 * and the gate; mmu_core's configuration RAM keeps its values, but software writes the image
 * again after every rst, as the former mmu_cfg_loader did.
 *
 * Interfaces:
 *   s_axil_*            AXI4-Lite slave (pfcmmu_csr's), 32-bit data, 18-bit byte addresses
 *   m_cfg_wr_*          to mmu_core's cfg_wr_valid / addr / data
 *   m_stat_addr / data  to / from mmu_core's status port (m_stat_addr also to the switch
 *                       registers' rd_addr)
 *   m_sw_wr_valid       a write of a switch register (address, data: m_cfg_wr_addr / data)
 *   m_sw_rd_data / hit  the switch registers' answer (pfcmmu_sw_regs rd_data / rd_hit)
 *   cfg_buffer_cells, cfg_max_frame_bytes   the copies (registers)
 *   cfg_loaded, cfg_loaded_copy             the gate, from two registers (one per consumer)
 *   stat_slverr_count   pfcmmu_csr's SLVERR count
 *
 * Latency: pfcmmu_csr's (a write on m_cfg_wr_valid 2 clocks after AWVALID and WVALID);
 * the gate one clock after m_cfg_wr_valid, with the field in mmu_core's registers
 * (mmu_core_cfg: a write at edge n takes effect for pairs accepted from n+1 on); the copies
 * two clocks after it (their write is decoded into a register first).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_mmu_csr #(
    // mmu_core's PORT_COUNT (a power of two, 2 .. 64)
    parameter MMU_PORTS = 4,
    // width of a cell-valued field (mmu_core's CELL_W)
    parameter CELL_W = 16
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * AXI4-Lite slave (register map rtl/regs/pfcmmu.rdl; byte address = word address << 2)
     */
    input  wire [17:0]          s_axil_awaddr,
    input  wire [2:0]           s_axil_awprot,
    input  wire                 s_axil_awvalid,
    output wire                 s_axil_awready,
    input  wire [31:0]          s_axil_wdata,
    input  wire [3:0]           s_axil_wstrb,
    input  wire                 s_axil_wvalid,
    output wire                 s_axil_wready,
    output wire [1:0]           s_axil_bresp,
    output wire                 s_axil_bvalid,
    input  wire                 s_axil_bready,
    input  wire [17:0]          s_axil_araddr,
    input  wire [2:0]           s_axil_arprot,
    input  wire                 s_axil_arvalid,
    output wire                 s_axil_arready,
    output wire [31:0]          s_axil_rdata,
    output wire [1:0]           s_axil_rresp,
    output wire                 s_axil_rvalid,
    input  wire                 s_axil_rready,

    /*
     * mmu_core's configuration and status port
     */
    output wire                 m_cfg_wr_valid,
    output wire [15:0]          m_cfg_wr_addr,
    output wire [31:0]          m_cfg_wr_data,
    output wire [15:0]          m_stat_addr,
    input  wire [31:0]          m_stat_data,

    /*
     * switch_core's own registers (pfcmmu_sw_regs)
     */
    output wire                 m_sw_wr_valid,
    input  wire [31:0]          m_sw_rd_data,
    input  wire                 m_sw_rd_hit,

    /*
     * What switch_core uses of the configuration
     */
    output wire [CELL_W-1:0]    cfg_buffer_cells,
    output wire [31:0]          cfg_max_frame_bytes,
    output wire                 cfg_loaded,
    output wire                 cfg_loaded_copy,

    /*
     * Status
     */
    output wire [31:0]          stat_slverr_count
);

// word addresses of the map (rtl/regs/pfcmmu.rdl; models/pfcmmu_regs.py): the two globals
// the switch keeps a copy of, and the last configuration register of MMU_PORTS ports,
// queue[MMU_PORTS * 8 - 1].static_th (queue j field f at 0x4000 | j << 4 | f)
localparam [15:0] W_BUFFER_CELLS = 16'h0020;
localparam [15:0] W_MAX_FRAME_BYTES = 16'h0021;
localparam integer W_LAST_I = 32'h4000 + (MMU_PORTS * 8 - 1) * 16 + 12;
localparam [15:0] W_LAST = W_LAST_I[15:0];

wire        csr_wr_valid;
wire [31:0] csr_stat_data;

// word address bit 15: the switch registers' half of the port (rtl/regs/pfcmmu.rdl)
assign m_cfg_wr_valid = csr_wr_valid && !m_cfg_wr_addr[15];
assign m_sw_wr_valid = csr_wr_valid && m_cfg_wr_addr[15];
assign csr_stat_data = m_sw_rd_hit ? m_sw_rd_data : m_stat_data;

pfcmmu_csr #(
    .PORT_COUNT(MMU_PORTS),
    .ADDR_W(18)
) csr_inst (
    .clk(clk),
    .rst(rst),
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
    .m_cfg_wr_valid(csr_wr_valid),
    .m_cfg_wr_addr(m_cfg_wr_addr),
    .m_cfg_wr_data(m_cfg_wr_data),
    .m_stat_addr(m_stat_addr),
    .m_stat_data(csr_stat_data),
    .stat_slverr_count(stat_slverr_count)
);

reg [CELL_W-1:0] buffer_cells_reg;
reg [31:0]       max_frame_reg;
reg              loaded_reg;
// a second register of the gate for switch_core's write stage (one register beside both
// consumers was a critical route on the ULX3S with the former loader's done)
(* keep *) reg   loaded_copy_reg;

// the copies' writes, decoded into registers first (the address compare and the 32 clock
// enables in one clock was a critical route on the ULX3S); the image writes the copies'
// fields long before its last entry opens the gate, so the copies are in place before any
// request either way
reg        wr_cells_reg, wr_max_reg;
reg [31:0] wr_data_reg;
always @(posedge clk) begin
    wr_cells_reg <= m_cfg_wr_valid && m_cfg_wr_addr == W_BUFFER_CELLS;
    wr_max_reg <= m_cfg_wr_valid && m_cfg_wr_addr == W_MAX_FRAME_BYTES;
    wr_data_reg <= m_cfg_wr_data;
    if (rst) begin
        wr_cells_reg <= 1'b0;
        wr_max_reg <= 1'b0;
    end
end

always @(posedge clk) begin
    if (wr_cells_reg) begin
        buffer_cells_reg <= wr_data_reg[CELL_W-1:0];
    end
    if (wr_max_reg) begin
        max_frame_reg <= wr_data_reg;
    end
    if (m_cfg_wr_valid && m_cfg_wr_addr == W_LAST) begin
        loaded_reg <= 1'b1;
        loaded_copy_reg <= 1'b1;
    end
    if (rst) begin
        buffer_cells_reg <= {CELL_W{1'b0}};
        max_frame_reg <= 32'd0;
        loaded_reg <= 1'b0;
        loaded_copy_reg <= 1'b0;
    end
end

assign cfg_buffer_cells = buffer_cells_reg;
assign cfg_max_frame_bytes = max_frame_reg;
assign cfg_loaded = loaded_reg;
assign cfg_loaded_copy = loaded_copy_reg;

endmodule

`resetall
