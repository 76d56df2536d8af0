/*
 * Testbench only: the soak (make soak, tb/soak).  switch_core with an on-chip link partner on
 * every port, as the board self-test rtl/fpga_core.v, so that millions of frames need no
 * Python per clock:
 *
 *   frame_gen[p] -> bad-frame marker -+
 *                                     +-> soak_link_mux[p] --s_axis[p]--> switch_core
 *   pfc_tx[p] (partner's PFC) --------+                                      |
 *        ^ pause schedule (LFSR)                                            m_axis[p]
 *   frame_gen[p] <-- pause -- pfc_rx[p] <------------------------------------+--> frame_check[p]
 *
 * Traffic (one 32-bit LFSR per partner, seeded from `seed`): ports 1..N-1 send their
 * priority-3 frames and 3 lossy frames in 4 to port 0 (an N-1:1 incast), priority 4 two ports
 * on, the other lossy frames to any other port; port 0 sends to ports 1..N-1.
 * Priorities: 3 (3/8) and 4 (1/8) lossless, 0 (2/8) and 1 (2/8) lossy; a priority-1 frame is
 * marked bad (tuser on its last beat) with probability bad_rate / 256, which the switch must
 * drop and count (stat_drop_error).  Lengths 64..191 bytes (3 in 4) or 64..1518.  Each partner
 * honours the switch's PFC (pfc_rx -> frame_gen, a paused priority starts no frame), and
 * partner p with partner_pfc_enable[p] pauses the switch from time to time: XOFF on
 * PARTNER_PAUSE_PRIOS for 256..2303 clocks, then nothing for 1024..9215 (its own pfc_tx,
 * so the switch receives real PFC frames, refreshes and XON).  Port 0's partner pauses the
 * lossless priority of the incast, so the switch's egress queue backs up into its ingress
 * PGs: XOFF to the senders, headroom use, lossy drops.
 *
 * Checks in Verilog: frame_check (lossless frames never lost, nothing corrupted, misrouted or
 * reordered), soak_cell_owner (no cell handed out twice or freed twice).  The admission
 * core's ports are written to admission_trace.txt in the run folder (TRACE = 1), one line per
 * event with the clock number, for tb/soak/replay.py to replay through the golden model after
 * the run:
 *   A <clock> <port> <pg> <eport> <queue> <len> <tag>          request
 *   R <clock> <port> <pg> <eport> <queue> <cells>              release
 *   D <clock> <admit> <reason> <cells> <res> <shared> <hdrm> <eres> <eshared> <tag>   response
 *   W <clock> <address> <data>                                 configuration write
 *   X <clock> <pfc_xoff>                                       pfc_xoff changed
 * (hexadecimal; clock k is the k-th edge sampling the admission core's reset low, as
 * tb/common/mmu_bus.py counts).  The MMU configuration comes from the bench over
 * AXI4-Lite (the model's register image).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module soak_top #(
    parameter PORT_COUNT = 4,
    // stream width in bits: 64 (QUANTA_STEP and the bench's eta assume 8 bytes a clock)
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    parameter CELL_BYTES = 128,
    parameter BUFFER_CELLS = 2048,
    parameter CELL_W = 16,
    // 1: write the admission trace
    parameter TRACE = 1,
    // test only: switch_core's MMU_FAULT_INJECT (the replay must catch it)
    parameter MMU_FAULT_INJECT = 0,
    // priorities a pausing partner stops (bit k: priority k)
    parameter [7:0] PARTNER_PAUSE_PRIOS = 8'b0000_1001,
    // quanta per clock, 16 fraction bits: 64 bits a clock, 512 bit times a quantum
    parameter [23:0] QUANTA_STEP = 24'd8192
) (
    input  wire                         clk,
    input  wire                         rst,


    /*
     * Soak control
     */
    input  wire [31:0]                  seed,
    input  wire                         gen_enable,
    input  wire [PORT_COUNT-1:0]        partner_pfc_enable,
    input  wire [7:0]                   bad_rate,
    input  wire [7:0]                   lossless_prios,
    // switch_core's registers (its AXI4-Lite slave, rtl/regs/pfcmmu.rdl: the switch
    // registers and the admission core's)
    input  wire [17:0]                  s_axil_awaddr,
    input  wire [2:0]                   s_axil_awprot,
    input  wire                         s_axil_awvalid,
    output wire                         s_axil_awready,
    input  wire [31:0]                  s_axil_wdata,
    input  wire [3:0]                   s_axil_wstrb,
    input  wire                         s_axil_wvalid,
    output wire                         s_axil_wready,
    output wire [1:0]                   s_axil_bresp,
    output wire                         s_axil_bvalid,
    input  wire                         s_axil_bready,
    input  wire [17:0]                  s_axil_araddr,
    input  wire [2:0]                   s_axil_arprot,
    input  wire                         s_axil_arvalid,
    output wire                         s_axil_arready,
    output wire [31:0]                  s_axil_rdata,
    output wire [1:0]                   s_axil_rresp,
    output wire                         s_axil_rvalid,
    input  wire                         s_axil_rready,
    input  wire                         trace_flush,

    /*
     * Status: per port at [p*32 +: 32]
     */
    output wire                         cfg_done,
    output wire [PORT_COUNT*32-1:0]     gen_frames,
    output wire [PORT_COUNT*32-1:0]     gen_bad_frames,
    output wire [PORT_COUNT*32-1:0]     gen_paused_clocks,
    output wire [PORT_COUNT*32-1:0]     gen_busy,
    output wire [PORT_COUNT*32-1:0]     chk_ok,
    output wire [PORT_COUNT*32-1:0]     chk_other,
    output wire [PORT_COUNT*32-1:0]     chk_lost,
    output wire [PORT_COUNT*32-1:0]     chk_gaps,
    output wire [PORT_COUNT*32-1:0]     chk_errors,
    output wire [PORT_COUNT*32-1:0]     partner_pfc_rx,       // PFC frames switch -> partner
    output wire [PORT_COUNT*32-1:0]     partner_pfc_tx,       // PFC frames partner -> switch
    output wire [PORT_COUNT*8-1:0]      partner_pause,
    output wire [PORT_COUNT*8-1:0]      partner_req_xoff,
    output wire [PORT_COUNT*32-1:0]     stat_rx_frames,
    output wire [PORT_COUNT*32-1:0]     stat_tx_frames,
    output wire [PORT_COUNT*32-1:0]     stat_drop_error,
    output wire [PORT_COUNT*32-1:0]     stat_drop_runt,
    output wire [PORT_COUNT*32-1:0]     stat_drop_oversize,
    output wire [PORT_COUNT*32-1:0]     stat_drop_admission,
    output wire [PORT_COUNT*32-1:0]     stat_pfc_rx_frames,
    output wire [PORT_COUNT*32-1:0]     stat_drop_malformed,
    output wire [PORT_COUNT*32-1:0]     stat_drop_bad_dest,
    output wire [PORT_COUNT*32-1:0]     stat_drop_stall,
    output wire [PORT_COUNT*32-1:0]     stat_ctrl_other,
    output wire [31:0]                  stat_free_cells,
    output wire [31:0]                  stat_free_low_wm,
    output wire [31:0]                  stat_used_cells,
    output wire [31:0]                  stat_queued_frames,
    output wire [PORT_COUNT*8-1:0]      stat_pause,
    output wire [PORT_COUNT*8-1:0]      stat_xoff,
    output wire [7*32-1:0]              stat_mmu_drop_count,
    output wire [4:0]                   err_flags,
    output wire [BUFFER_CELLS-1:0]      cells_owned,
    output wire [31:0]                  cells_owned_count,
    output wire [31:0]                  cell_allocs,
    output wire [31:0]                  cell_frees,
    output wire [31:0]                  cell_double_allocs,
    output wire [31:0]                  cell_double_frees,
    output wire [PORT_COUNT-1:0]        spare_valid,
    output wire [PORT_COUNT*32-1:0]     spare_cell,
    output wire                         core_busy,
    output wire [31:0]                  trace_lines,
    output wire [31:0]                  mmu_clock
);

localparam DEST_WIDTH = PORT_COUNT > 1 ? $clog2(PORT_COUNT) : 1;
localparam CA_W = BUFFER_CELLS > 1 ? $clog2(BUFFER_CELLS) : 1;

initial begin
    if (DATA_WIDTH != 64) begin
        $error("soak_top: DATA_WIDTH must be 64");
        $finish;
    end
end

// ---------------------------------------------------------------- switch
wire [PORT_COUNT*DATA_WIDTH-1:0] s_tdata, m_tdata;
wire [PORT_COUNT*KEEP_WIDTH-1:0] s_tkeep, m_tkeep;
wire [PORT_COUNT-1:0]            s_tvalid, s_tready, s_tlast, s_tuser;
wire [PORT_COUNT-1:0]            m_tvalid, m_tready, m_tlast, m_tuser;
wire [PORT_COUNT*DEST_WIDTH-1:0] s_tdest;
wire [PORT_COUNT*32-1:0]         pause_rx_frames, ctrl_unknown, ctrl_malformed;
wire [PORT_COUNT*48-1:0]         src_mac;

genvar p;
generate
for (p = 0; p < PORT_COUNT; p = p + 1) begin : mac
    assign src_mac[p*48 +: 48] = {40'h02_00_00_00_10, p[7:0]};
end
endgenerate

// status outputs the soak does not read are left open on purpose
/* verilator lint_off PINCONNECTEMPTY */
switch_core #(
    .PORT_COUNT(PORT_COUNT),
    .DATA_WIDTH(DATA_WIDTH),
    .DEST_WIDTH(DEST_WIDTH),
    .CELL_BYTES(CELL_BYTES),
    .BUFFER_CELLS(BUFFER_CELLS),
    .CELL_W(CELL_W),
    .MMU_FAULT_INJECT(MMU_FAULT_INJECT)
) core (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_tdata),
    .s_axis_tkeep(s_tkeep),
    .s_axis_tvalid(s_tvalid),
    .s_axis_tready(s_tready),
    .s_axis_tlast(s_tlast),
    .s_axis_tuser(s_tuser),
    .s_axis_tdest(s_tdest),
    .m_axis_tdata(m_tdata),
    .m_axis_tkeep(m_tkeep),
    .m_axis_tvalid(m_tvalid),
    .m_axis_tready(m_tready),
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
/* verilator lint_on PINCONNECTEMPTY */

assign stat_rx_frames = core.stat_rx_frames;
assign stat_tx_frames = core.stat_tx_frames;
assign stat_drop_error = core.stat_drop_error;
assign stat_drop_runt = core.stat_drop_runt;
assign stat_drop_oversize = core.stat_drop_oversize;
assign stat_drop_admission = core.stat_drop_admission;
assign stat_pfc_rx_frames = core.stat_pfc_rx_frames;
assign stat_drop_malformed = core.stat_drop_malformed;
assign stat_drop_bad_dest = core.stat_drop_bad_dest;
assign stat_drop_stall = core.stat_drop_stall;
assign stat_free_cells = core.stat_free_cells;
assign stat_free_low_wm = core.stat_free_low_wm;
assign stat_used_cells = core.stat_used_cells;
assign stat_queued_frames = core.stat_queued_frames;
assign stat_pause = core.stat_pause;
assign stat_xoff = core.stat_xoff;
assign stat_mmu_drop_count = core.stat_mmu_drop_count;
assign err_flags[0] = core.err_release_underflow;
assign err_flags[1] = core.err_bad_config;
assign err_flags[2] = core.err_reserve;
assign err_flags[3] = core.err_free_list;
assign err_flags[4] = core.err_response;
assign cfg_done = core.mmu_cfg_done;
assign stat_ctrl_other = core.stat_pause_rx_frames + core.stat_ctrl_unknown
    + core.stat_ctrl_malformed;
assign spare_valid = core.buffer_inst.write_inst.spare_valid;
assign core_busy = core.buffer_inst.decide_inst.pend_valid != 0
                   || core.buffer_inst.read_inst.e_state_reg != 0;

generate
for (p = 0; p < PORT_COUNT; p = p + 1) begin : spare
    assign spare_cell[p*32 +: 32] = {{(32-CA_W){1'b0}},
                                     core.buffer_inst.write_inst.spare_cell[p*CA_W +: CA_W]};
end
endgenerate

// ---------------------------------------------------------------- cell ownership
soak_cell_owner #(
    .BUFFER_CELLS(BUFFER_CELLS),
    .CA_W(CA_W)
) owner_inst (
    .clk(clk),
    .rst(rst),
    .pop(core.buffer_inst.free_list_inst.pop && core.buffer_inst.free_list_inst.pop_valid),
    .pop_cell(core.buffer_inst.free_list_inst.pop_cell),
    .push(core.buffer_inst.free_list_inst.push),
    .push_cell(core.buffer_inst.free_list_inst.push_cell),
    .owned(cells_owned),
    .owned_count(cells_owned_count),
    .allocs(cell_allocs),
    .frees(cell_frees),
    .double_allocs(cell_double_allocs),
    .double_frees(cell_double_frees)
);

// ---------------------------------------------------------------- admission trace
reg [31:0] clock_reg;
reg [31:0] lines_reg;
integer    fd;

initial begin
    fd = 0;
    if (TRACE != 0) begin
        fd = $fopen("admission_trace.txt", "w");
    end
end

always @(posedge clk) begin
    clock_reg <= clock_reg + 32'd1;
    if (core.rst_mmu) begin
        clock_reg <= 32'd0;
        lines_reg <= 32'd0;
    end else if (TRACE != 0) begin
        if (core.mmu_inst.cfg_wr_valid) begin
            $fwrite(fd, "W %0h %0h %0h\n", clock_reg, core.mmu_inst.cfg_wr_addr,
                    core.mmu_inst.cfg_wr_data);
        end
        if (core.mmu_inst.s_rel_valid) begin
            $fwrite(fd, "R %0h %0h %0h %0h %0h %0h\n", clock_reg, core.mmu_inst.s_rel_port,
                    core.mmu_inst.s_rel_pg, core.mmu_inst.s_rel_eport,
                    core.mmu_inst.s_rel_queue, core.mmu_inst.s_rel_cells);
        end
        if (core.mmu_inst.s_req_valid) begin
            $fwrite(fd, "A %0h %0h %0h %0h %0h %0h %0h\n", clock_reg, core.mmu_inst.s_req_port,
                    core.mmu_inst.s_req_pg, core.mmu_inst.s_req_eport,
                    core.mmu_inst.s_req_queue, core.mmu_inst.s_req_len,
                    core.mmu_inst.s_req_tag);
        end
        if (core.mmu_inst.m_resp_valid) begin
            $fwrite(fd, "D %0h %0h %0h %0h %0h %0h %0h %0h %0h %0h\n", clock_reg,
                    core.mmu_inst.m_resp_admit, core.mmu_inst.m_resp_reason,
                    core.mmu_inst.m_resp_cells, core.mmu_inst.m_resp_res,
                    core.mmu_inst.m_resp_shared, core.mmu_inst.m_resp_hdrm,
                    core.mmu_inst.m_resp_eres, core.mmu_inst.m_resp_eshared,
                    core.mmu_inst.m_resp_tag);
        end
        if (|core.mmu_inst.pfc_change) begin
            $fwrite(fd, "X %0h %0h\n", clock_reg, core.mmu_inst.pfc_xoff);
        end
        lines_reg <= lines_reg + {31'd0, core.mmu_inst.cfg_wr_valid}
                     + {31'd0, core.mmu_inst.s_rel_valid} + {31'd0, core.mmu_inst.s_req_valid}
                     + {31'd0, core.mmu_inst.m_resp_valid}
                     + {31'd0, |core.mmu_inst.pfc_change};
    end
end

assign trace_lines = lines_reg;
assign mmu_clock = clock_reg;

// the bench reads the trace after the simulation: flushed when it asks (trace_flush)
always @(posedge clk) begin
    if (TRACE != 0 && trace_flush) begin
        $fflush(fd);
    end
end

// ---------------------------------------------------------------- link partners
// 32-bit Galois LFSR (x^32 + x^22 + x^2 + x + 1)
function [31:0] lfsr32;
    input [31:0] s;
    begin
        lfsr32 = s[0] ? ((s >> 1) ^ 32'h8020_0003) : (s >> 1);
    end
endfunction

generate
for (p = 0; p < PORT_COUNT; p = p + 1) begin : partner
    // ------------------------------------------------ frame requests
    reg  [31:0]           lfsr;
    reg  [2:0]            prio;
    reg  [13:0]           len;
    reg  [DEST_WIDTH-1:0] dest;
    // an integer for the modulo arithmetic; only its low bits are a port number
    /* verilator lint_off UNUSEDSIGNAL */
    integer               other;
    /* verilator lint_on UNUSEDSIGNAL */
    always @(posedge clk) begin
        lfsr <= lfsr32(lfsr);
        if (rst) begin
            lfsr <= (seed ^ (32'h9e37_79b9 * (p + 1))) | 32'd1;
        end
    end
    always @* begin
        case (lfsr[2:0])
            3'd0, 3'd1, 3'd2: prio = 3'd3;
            3'd3:             prio = 3'd4;
            3'd4, 3'd5:       prio = 3'd0;
            default:          prio = 3'd1;
        endcase
        len = (lfsr[4:3] == 2'b11) ? ((lfsr[15:5] > 11'd1454) ? 14'd1518 : 14'd64 + {3'd0, lfsr[15:5]})
                                   : 14'd64 + {7'd0, lfsr[11:5]};
        // frame_gen numbers frames per priority, frame_check checks them per (source,
        // priority) at each port: a lossless priority goes to one destination only (3: the
        // incast on port 0, from port 0 to port 1; 4: two ports on), lossy frames anywhere
        // (their skips are gaps, not losses): 3 in 4 to port 0 from the other ports
        other = (p + 1 + ({24'd0, lfsr[27:20]} % (PORT_COUNT - 1))) % PORT_COUNT;
        if (prio == 3'd3) begin
            other = (p == 0) ? 1 : 0;
        end else if (prio == 3'd4) begin
            other = (p + 2) % PORT_COUNT;
        end else if (p != 0 && lfsr[19:18] != 2'b00) begin
            other = 0;
        end
        dest = other[DEST_WIDTH-1:0];
    end

    wire [7:0] pause_v;
    reg  [7:0] gen_pause_reg;
    always @(posedge clk) begin
        gen_pause_reg <= pause_v;
    end

    wire [DATA_WIDTH-1:0] g_tdata;
    wire [KEEP_WIDTH-1:0] g_tkeep;
    wire                  g_tvalid, g_tready, g_tlast, g_tuser_unused;
    wire [DEST_WIDTH-1:0] g_tdest;

    frame_gen #(
        .DATA_WIDTH(DATA_WIDTH),
        .DEST_WIDTH(DEST_WIDTH),
        .SRC_PORT(p)
    ) gen_inst (
        .clk(clk),
        .rst(rst),
        .enable(gen_enable),
        .cfg_dest(dest),
        .cfg_prio(prio),
        .cfg_len(len),
        .cfg_gap(16'd1),
        .pause(gen_pause_reg),
        .m_axis_tdata(g_tdata),
        .m_axis_tkeep(g_tkeep),
        .m_axis_tvalid(g_tvalid),
        .m_axis_tready(g_tready),
        .m_axis_tlast(g_tlast),
        .m_axis_tuser(g_tuser_unused),
        .m_axis_tdest(g_tdest),
        .stat_frames(gen_frames[p*32 +: 32]),
        .stat_paused_cycles(gen_paused_clocks[p*32 +: 32])
    );
    assign gen_busy[p*32 +: 32] = {31'd0, g_tvalid || gen_inst.loading_reg || gen_inst.active_reg};

    // ------------------------------------------------ bad frames: tuser on the last beat of
    // a priority-1 frame, chosen when its first beat goes
    reg        g_first, g_bad;
    reg [31:0] bad_count;
    wire       g_go = g_tvalid && g_tready;
    always @(posedge clk) begin
        if (g_go) begin
            g_first <= g_tlast;
            if (g_first) begin
                g_bad <= gen_inst.prio_reg == 3'd1 && lfsr[31:24] < bad_rate;
            end
            if (g_tlast && g_bad) begin
                bad_count <= bad_count + 32'd1;
            end
        end
        if (rst) begin
            g_first <= 1'b1;
            g_bad <= 1'b0;
            bad_count <= 32'd0;
        end
    end
    wire g_tuser = g_tlast && g_bad && !g_first;
    assign gen_bad_frames[p*32 +: 32] = bad_count;

    // ------------------------------------------------ the partner's own PFC
    // pause schedule: off 1024..9215 clocks, on 256..2303 clocks
    reg  [31:0] sched_lfsr;
    reg  [13:0] sched_left;
    reg         sched_on;
    always @(posedge clk) begin
        sched_lfsr <= lfsr32(sched_lfsr);
        if (sched_left == 14'd0) begin
            sched_on <= !sched_on && partner_pfc_enable[p];
            sched_left <= sched_on ? 14'd1024 + {1'b0, sched_lfsr[12:0]}
                                   : 14'd256 + {3'd0, sched_lfsr[10:0]};
        end else begin
            sched_left <= sched_left - 14'd1;
        end
        if (!partner_pfc_enable[p]) begin
            sched_on <= 1'b0;
        end
        if (rst) begin
            sched_lfsr <= (seed ^ (32'h7f4a_7c15 * (p + 3))) | 32'd1;
            sched_left <= 14'd2048;
            sched_on <= 1'b0;
        end
    end
    wire [7:0] req_xoff = sched_on ? PARTNER_PAUSE_PRIOS : 8'd0;
    assign partner_req_xoff[p*8 +: 8] = req_xoff;

    wire [DATA_WIDTH-1:0] c_tdata;
    wire [KEEP_WIDTH-1:0] c_tkeep;
    wire                  c_tvalid, c_tready, c_tlast, c_tuser;

    /* verilator lint_off PINCONNECTEMPTY */
    pfc_tx #(
        .DATA_WIDTH(DATA_WIDTH)
    ) ptx_inst (
        .clk(clk),
        .rst(rst),
        .req_xoff(req_xoff),
        .req_link_pause(1'b0),
        .m_axis_tdata(c_tdata),
        .m_axis_tkeep(c_tkeep),
        .m_axis_tvalid(c_tvalid),
        .m_axis_tready(c_tready),
        .m_axis_tlast(c_tlast),
        .m_axis_tuser(c_tuser),
        .cfg_src_mac({40'h02_00_00_00_20, p[7:0]}),
        // a few hundred clocks of pause per XOFF, refreshed while the schedule holds it
        .cfg_pause_quanta({8{16'd64}}),
        .cfg_refresh_quanta(16'd32),
        .cfg_quanta_step(QUANTA_STEP),
        .cfg_link_pause_quanta(16'd0),
        .busy(),
        .stat_xoff_frames(),
        .stat_xon_frames(),
        .stat_link_xoff_frames(),
        .stat_link_xon_frames()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    // PFC frames sent to the switch (XOFF, refreshes and XON)
    reg [31:0] ptx_frames;
    always @(posedge clk) begin
        if (c_tvalid && c_tready && c_tlast) begin
            ptx_frames <= ptx_frames + 32'd1;
        end
        if (rst) begin
            ptx_frames <= 32'd0;
        end
    end
    assign partner_pfc_tx[p*32 +: 32] = ptx_frames;

    soak_link_mux #(
        .DATA_WIDTH(DATA_WIDTH),
        .DEST_WIDTH(DEST_WIDTH)
    ) mux_inst (
        .clk(clk),
        .rst(rst),
        .ctl_tdata(c_tdata),
        .ctl_tkeep(c_tkeep),
        .ctl_tvalid(c_tvalid),
        .ctl_tready(c_tready),
        .ctl_tlast(c_tlast),
        .ctl_tuser(c_tuser),
        .dat_tdata(g_tdata),
        .dat_tkeep(g_tkeep),
        .dat_tvalid(g_tvalid),
        .dat_tready(g_tready),
        .dat_tlast(g_tlast),
        .dat_tuser(g_tuser),
        .dat_tdest(g_tdest),
        .m_tdata(s_tdata[p*DATA_WIDTH +: DATA_WIDTH]),
        .m_tkeep(s_tkeep[p*KEEP_WIDTH +: KEEP_WIDTH]),
        .m_tvalid(s_tvalid[p]),
        .m_tready(s_tready[p]),
        .m_tlast(s_tlast[p]),
        .m_tuser(s_tuser[p]),
        .m_tdest(s_tdest[p*DEST_WIDTH +: DEST_WIDTH])
    );

    // ------------------------------------------------ receive side
    assign m_tready[p] = 1'b1;

    /* verilator lint_off PINCONNECTEMPTY */
    pfc_rx #(
        .DATA_WIDTH(DATA_WIDTH),
        .IN_REG(1)
    ) prx_inst (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(m_tdata[p*DATA_WIDTH +: DATA_WIDTH]),
        .s_axis_tkeep(m_tkeep[p*KEEP_WIDTH +: KEEP_WIDTH]),
        .s_axis_tvalid(m_tvalid[p] && m_tready[p]),
        .s_axis_tlast(m_tlast[p]),
        .s_axis_tuser(m_tuser[p]),
        .cfg_quanta_step(QUANTA_STEP),
        .pause(pause_v),
        .is_pfc(),
        .is_mac_ctrl(),
        .rx_pfc_prio(),
        .stat_pfc_frames(partner_pfc_rx[p*32 +: 32]),
        .stat_pause_frames(),
        .stat_xoff_rx(),
        .stat_xon_rx(),
        .stat_malformed()
    );
    /* verilator lint_on PINCONNECTEMPTY */
    assign partner_pause[p*8 +: 8] = pause_v;

    /* verilator lint_off PINCONNECTEMPTY */
    frame_check #(
        .DATA_WIDTH(DATA_WIDTH),
        .SRC_COUNT(PORT_COUNT),
        .PORT(p)
    ) chk_inst (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(m_tdata[p*DATA_WIDTH +: DATA_WIDTH]),
        .s_axis_tkeep(m_tkeep[p*KEEP_WIDTH +: KEEP_WIDTH]),
        .s_axis_tvalid(m_tvalid[p]),
        .s_axis_tready(m_tready[p]),
        .s_axis_tlast(m_tlast[p]),
        .cfg_lossless(lossless_prios),
        .stat_frames_ok(chk_ok[p*32 +: 32]),
        .stat_other(chk_other[p*32 +: 32]),
        .stat_corrupt(),
        .stat_misrouted(),
        .stat_reorder(),
        .stat_lost(chk_lost[p*32 +: 32]),
        .stat_gaps(chk_gaps[p*32 +: 32]),
        .stat_errors(chk_errors[p*32 +: 32]),
        .error()
    );
    /* verilator lint_on PINCONNECTEMPTY */
end
endgenerate

endmodule

`resetall
