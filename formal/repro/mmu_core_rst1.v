// Reproduction (Icarus Verilog) of what formal/mmu_core.sby found with one reset clock
// (docs/formal.md "The admission core"): an admitted arrival in DEC2 at the reset edge leaves
// its amounts in mmu_core_commit's unreset g_cl9 / g_sh9 / g_hd9 / g_esh9, and GLOBAL adds
// them after the reset.  One 1000-byte frame (4 cells, PG 0, queue 0, shared), rst for
// +rstlen clocks (1) +gap clocks (9) after the frame; prints the global counters 25 clocks
// later (all 0 if the reset cleared everything).
//   iverilog -g2012 -I rtl -s rst1 -o /tmp/rst1.vvp formal/repro/mmu_core_rst1.v \
//       rtl/mmu_core*.v rtl/mmu_mpram.v rtl/mmu_cfg_check.v
//   vvp -n /tmp/rst1.vvp +gap=9 +rstlen=1     -> total 4 pool0 4 ... epool0 4
//   vvp -n /tmp/rst1.vvp +gap=9 +rstlen=2     -> all 0
`timescale 1ns/1ps
module rst1;
  reg clk = 0, rst = 1;
  always #5 clk = ~clk;
  reg s_req_valid = 0; reg [7:0] port = 0, eport = 0; reg [3:0] pg = 0, q = 0; reg [13:0] len = 0;
  reg cfg_wr_valid = 0; reg [15:0] cfg_wr_addr = 0; reg [31:0] cfg_wr_data = 0;
  wire m_resp_valid, m_resp_admit; wire [2:0] m_resp_reason; wire [15:0] m_resp_cells, m_resp_res, m_resp_shared, m_resp_hdrm, m_resp_eres, m_resp_eshared; wire [7:0] m_resp_tag;
  wire [15:0] pfc_xoff, pfc_change; wire [31:0] stat_data; wire s_req_ready, s_rel_ready, err_release_underflow, err_bad_config;
  mmu_core #(.PORT_COUNT(2), .CELL_BYTES(256), .CELL_W(16), .LEN_W(14)) dut (
    .clk(clk), .rst(rst), .s_req_valid(s_req_valid), .s_req_ready(s_req_ready), .s_req_port(port), .s_req_pg(pg),
    .s_req_eport(eport), .s_req_queue(q), .s_req_len(len), .s_req_tag(8'd0),
    .m_resp_valid(m_resp_valid), .m_resp_admit(m_resp_admit), .m_resp_reason(m_resp_reason), .m_resp_cells(m_resp_cells),
    .m_resp_res(m_resp_res), .m_resp_shared(m_resp_shared), .m_resp_hdrm(m_resp_hdrm), .m_resp_eres(m_resp_eres),
    .m_resp_eshared(m_resp_eshared), .m_resp_tag(m_resp_tag),
    .s_rel_valid(1'b0), .s_rel_ready(s_rel_ready), .s_rel_port(8'd0), .s_rel_pg(4'd0), .s_rel_eport(8'd0), .s_rel_queue(4'd0), .s_rel_cells(16'd0),
    .pfc_xoff(pfc_xoff), .pfc_change(pfc_change), .cfg_wr_valid(cfg_wr_valid), .cfg_wr_addr(cfg_wr_addr), .cfg_wr_data(cfg_wr_data),
    .stat_addr(16'd0), .stat_data(stat_data), .err_release_underflow(err_release_underflow), .err_bad_config(err_bad_config));
  task cfg(input [15:0] a, input [31:0] d); begin
    @(negedge clk); cfg_wr_valid = 1; cfg_wr_addr = a; cfg_wr_data = d; @(negedge clk); cfg_wr_valid = 0; end endtask
  integer n, gap, rstlen;
  initial begin
    if (!$value$plusargs("gap=%d", gap)) gap = 7;
    if (!$value$plusargs("rstlen=%d", rstlen)) rstlen = 1;
    repeat (4) @(negedge clk); rst = 0;
    cfg(16'h0020, 1000); cfg(16'h0021, 9000); cfg(16'h0022, 100); cfg(16'h0025, 100);
    cfg(16'h2009, 0); cfg(16'h200A, 0); cfg(16'h200C, 500); // PG 0: reserved 0, static_th 500 (shared)
    cfg(16'h4009, 0); cfg(16'h400C, 500); cfg(16'h2008, 1); cfg(16'h4008, 1);             // queue 0: static 500, lossless
    repeat (12) @(negedge clk);
    // one arrival of 1000 bytes (4 cells) to PG 0 / queue 0, rst for one clock `gap` clocks after it
    @(negedge clk); s_req_valid = 1; len = 1000; @(negedge clk); s_req_valid = 0;
    repeat (gap - 1) @(negedge clk);
    rst = 1; repeat (rstlen) @(negedge clk); rst = 0;
    repeat (25) @(negedge clk);
    $display("gap %0d rst %0d clocks: total %0d pool0 %0d pool1 %0d hpool %0d epool0 %0d epool1 %0d",
      gap, rstlen, dut.total_reg, dut.pool_bus[15:0], dut.pool_bus[31:16], dut.hpool_reg, dut.epool_bus[15:0], dut.epool_bus[31:16]);
    $finish;
  end
  always @(posedge clk) if (m_resp_valid) $display("t=%0t resp admit %b reason %0d cells %0d res %0d sh %0d", $time, m_resp_admit, m_resp_reason, m_resp_cells, m_resp_res, m_resp_shared);
endmodule
