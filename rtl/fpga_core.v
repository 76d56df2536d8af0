/*
 * fpga_core: the portable board self-test (Corundum's split: pins, PLL and reset live in
 * syn/<board>/; this core is what the regression simulates, tb/fpga_core).
 *
 * No Ethernet PHY is needed: every switch port has an on-chip link partner
 *
 *   frame_gen[p] --s_axis[p]--> switch_core --m_axis[p]--> frame_check[p]
 *        ^                                        |
 *        +------ pause[7:0] ------ pfc_rx[p] <----+   (the partner honours the switch's PFC)
 *
 * Traffic: ports 1..N-1 send to port 0 (an N-1:1 incast), port 0 sends to port 1; every
 * generator mixes lossless priority 3 (about 5 frames in 8) with lossy priority 0, lengths
 * 64..1518 bytes from an LFSR.  Port 0's output drains at quarter rate, so port 0 congests even
 * with two ports: the switch sends PFC XOFF on priority 3 to the senders, lossy frames are
 * dropped (queue 3 is above queue 0 in strict priority, so lossy frames wait behind lossless
 * ones and overflow their egress queue), and the checkers prove that no lossless frame is
 * lost, corrupted or reordered.
 *
 * The configuration is the model's: cfg_rom_boot writes the register image IMAGE_FILE
 * (models/regimage.py's $readmemh format; the boards' images are syn/<board>/mmu_image.hex,
 * made by syn/board_image.py: first the switch registers that differ from their reset values,
 * models.swconfig.selftest_switch_config(), then models.config.selftest_config() with the lossless headroom
 * = the model's worst-case eta for a 1 Gb/s link with no cable and 1518-byte frames) into
 * switch_core's AXI4-Lite port after reset, then reads the switch's status for the UART line
 * over the same port.  The switch admits nothing before the image's last write, and the
 * partners start sending once the boot is done (tb/fpga_core checks the writes against the
 * model).
 *
 * The switch's figures on the UART line come through its CSR block (issue 17): after the
 * boot, cfg_rom_boot polls a list of registers round-robin (POLL_ADDRS below, byte addresses
 * of rtl/regs/pfcmmu.rdl; syn/board_image.py --check and tb/fpga_core compare them with the
 * generated map): the headroom pool's watermark (H=), the switch's `errors` word (part of
 * E=) and each port's `drop_admission` counter (D= is their sum).  Only the XOFF LEDs take a
 * board wire (switch_core board_xoff): they follow each XOFF as it happens, which polling
 * cannot.
 *
 * Outputs: led[0] heartbeat, led[1..4] XOFF sent by switch port 0..3 (stretched), led[5] a
 * partner is paused, led[6] the MMU dropped a frame (D= changed), led[7] error; the UART
 * prints every PRINT_CYCLES
 *     F=<frames ok> L=<lossless lost> D=<frames dropped by the MMU> P=<PFC frames to partners>
 *     H=<peak headroom cells> E=<errors>
 * with D= the sum of the polled drop_admission counters and E= the checkers' errors (corrupt,
 * misrouted, reordered frames) plus 1 while the switch's polled errors word is not 0 or the
 * boot sequencer's err is set (a write or a polled read answered with anything but OKAY, or
 * an image of the wrong length).
 *
 * Timing (125 MHz on ECP5, issue 8): the self-test logic around the switch is registered at
 * every module boundary.  frame_gen streams from registers, its requests (priority, length)
 * are registered here; frame_check is a pipelined tap; the per-port counters are summed by a
 * registered adder tree, so the totals (and the UART line, sampled at print_trigger) follow
 * the checkers by log2(PORT_COUNT) + 1 clocks; the polled figures (H=, D=, the errors word in
 * E=) follow the switch's counters by up to a poll round more (9 clocks per register read,
 * POLL_COUNT = PORT_COUNT + 2 reads: 54 clocks at 4 ports; cfg_rom_boot "Latency"); LED
 * events and the error LED are registered.
 * The reset reaches every block through a two-register tree (one copy per block, "reset
 * tree" below), so the whole self-test leaves reset two clocks after `rst`; the generators'
 * requests come from a two-stage pipeline on an LFSR that runs ahead, so they draw the same
 * (priority, length) sequence as a request computed straight from the LFSR.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module fpga_core #(
    parameter PORT_COUNT = 4,
    parameter DATA_WIDTH = 8,
    parameter CELL_BYTES = 256,
    // cells of the shared cell RAM
    parameter BUFFER_CELLS = 1024,
    // the MMU's register image ($readmemh, models/regimage.py) for this core's parameters: a
    // path from the repository root (lint, board flow) or absolute (the benches)
    parameter IMAGE_FILE = "syn/ulx3s/mmu_image.hex",
    parameter CLK_HZ = 125000000,
    parameter BAUD = 115200,
    // clocks between UART counter lines (one second by default)
    parameter PRINT_CYCLES = CLK_HZ,
    // clocks an LED stays lit after an event
    parameter LED_HOLD = CLK_HZ / 10,
    // 1: the admission core's smaller decision stage (switch_core MMU_COMPACT; the i5)
    parameter MMU_COMPACT = 0,
    // switch_core PORT_COUNTERS: 1 every per-port counter of the switch registers, 0 only
    // drop_admission (the UART's D=; the i5, whose 25F cannot hold the rest)
    parameter PORT_COUNTERS = 1,
    // switch_core FEATURE_REGS: 0 leaves out the registers of the features the self-test
    // never enables (stall cut, 802.3x PAUSE, prevention, watchdog: they read 0; the i5)
    parameter FEATURE_REGS = 1,
    // switch_core MMU_WATERMARKS: 0 leaves out the admission core's per-PG / per-queue
    // watermarks (they read 0; H= is the headroom pool's, which stays; the i5)
    parameter MMU_WATERMARKS = 1,
    // switch_core MMU_COUNTERS: 0 leaves out the admission core's event counters (they read
    // 0; the switch's own registers count the drops; the i5)
    parameter MMU_COUNTERS = 1,
    // switch_core MMU_CFG_CHECK: 0 leaves out the admission core's configuration checker
    // (its flags read 0, err_bad_config stays 0: the only CSR master is the boot ROM, whose
    // image the model validated when it was made; the i5)
    parameter MMU_CFG_CHECK = 1,
    // switch_core MMU_CFG_READBACK: 0 makes the admission core's configuration fields read 0
    // through the CSR block (nothing on the board reads them back: the boot ROM writes, the
    // poll list reads status; the i5)
    parameter MMU_CFG_READBACK = 1,
    // 1: the admission core with the headroom policy dsh (switch_core MMU_HEADROOM_DSH).  The
    // boards' self-test runs the static policy, and their 125 MHz was closed without dsh's
    // selects (docs/mmu_core.md "Headroom policy dsh"), so the board builds leave it out
    parameter MMU_HEADROOM_DSH = 0,
    // test only: 1 polls a wrong register for D= (each port's drop_runt) and for E= (the
    // switch's quanta_step, not 0 after the boot), both mapped (OKAY): tb/fpga_core's UART
    // check must catch the wrong D= and E=
    parameter FAULT_INJECT = 0
) (
    input  wire        clk,
    input  wire        rst,
    output wire [7:0]  led,
    output wire        uart_txd,

    // the same figures as the UART line, for simulation
    output wire [31:0] stat_frames_ok,
    output wire [31:0] stat_lost,
    output wire [31:0] stat_dropped,
    output wire [31:0] stat_pfc_frames,
    output wire [31:0] stat_peak_headroom,
    output wire [31:0] stat_errors
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam DEST_WIDTH = PORT_COUNT > 1 ? $clog2(PORT_COUNT) : 1;
// admission counters as wide as the buffer needs (one cell count up to BUFFER_CELLS): the
// line-rate core's datapath and tables scale with CELL_W, and every value of the self-test's
// configuration is at most BUFFER_CELLS
localparam CELL_W = $clog2(BUFFER_CELLS + 1);
localparam LOSSLESS_PRIO = 3;

// ---------------------------------------------------------------- register image
// mmu_core's port count (a power of two) and the writes of the boot image: first the switch
// registers that differ from their reset values (models.swconfig.selftest_switch_config:
// quanta_step, then each port's PFC source address, low and high word), then the admission
// core's (8 globals, per port 1 port register and 8 PG and 5 queue registers per PG / queue:
// models.regimage.image_entries); tb/fpga_core's boot check fails on another count
localparam MMU_PORTS = 1 << $clog2(PORT_COUNT);
localparam SW_IMAGE_ENTRIES = 1 + 2 * PORT_COUNT;
localparam IMAGE_ENTRIES = SW_IMAGE_ENTRIES + 8 + MMU_PORTS * (1 + 8 * (8 + 5));
// ---------------------------------------------------------------- polled registers
// byte addresses (word address << 2) of rtl/regs/pfcmmu.rdl, as models/pfcmmu_regs.py and
// models/pfcmmu_switch_regs.py generate them (syn/board_image.py --check compares the six
// below with the generated map; tb/fpga_core the addresses the poll reads):
// headroom pool watermark, mmu_core status word 0x05 (pfcmmu GLOBALS hdrm_wm)
localparam [17:0] HDRM_WM_ADDR = 18'h00014;
// the switch's error flags (pfcmmu_switch SW_GLOBALS errors, word 0x8025)
localparam [17:0] SW_ERRORS_ADDR = 18'h20094;
// port 0's admission drops (SW_PORT_BASE 0x9000 + SW_PORT drop_admission 0x17) and the
// distance between two ports' registers (SW_PORT_STRIDE 0x40 words)
localparam [17:0] SW_DROP_ADMISSION_ADDR = 18'h2405c;
localparam [17:0] SW_PORT_STRIDE_BYTES = 18'h00100;
// FAULT_INJECT's registers: port 0's drop_runt (SW_PORT 0x15), the global quanta_step (0x8002)
localparam [17:0] FAULT_DROP_ADDR = 18'h24054;
localparam [17:0] FAULT_ERRORS_ADDR = 18'h20008;

// the poll list: entry 0 the watermark (H=), 1 the errors word, 2 + p port p's drops
localparam POLL_COUNT = 2 + PORT_COUNT;
localparam POLL_HDRM = 0, POLL_ERRORS = 1, POLL_DROPS = 2;

function [POLL_COUNT*18-1:0] poll_list;
    input integer fault;
    integer i;
    reg [17:0] drop_addr;     // port i's
    begin
        drop_addr = fault != 0 ? FAULT_DROP_ADDR : SW_DROP_ADMISSION_ADDR;
        poll_list = {POLL_COUNT*18{1'b0}};
        poll_list[POLL_HDRM*18 +: 18] = HDRM_WM_ADDR;
        poll_list[POLL_ERRORS*18 +: 18] = fault != 0 ? FAULT_ERRORS_ADDR : SW_ERRORS_ADDR;
        for (i = 0; i < PORT_COUNT; i = i + 1) begin
            poll_list[(POLL_DROPS+i)*18 +: 18] = drop_addr;
            drop_addr = drop_addr + SW_PORT_STRIDE_BYTES;
        end
    end
endfunction

localparam [POLL_COUNT*18-1:0] POLL_ADDRS = poll_list(FAULT_INJECT);

initial begin
    if (PORT_COUNT < 2) begin
        $error("fpga_core: PORT_COUNT must be at least 2");
        $finish;
    end
end

// ---------------------------------------------------------------- reset tree
// The board's reset is registered here and fanned out through one more register per block
// (switch, each partner's generator, PFC receiver and checker, the totals, and the LED /
// UART logic), so that no single reset net drives thousands of loads and every block leaves reset
// on the same clock, two clocks after `rst`.  The copies are kept apart from Yosys's merging
// of identical registers by the keep attribute on their processes.
reg rst_root, rst_sw, rst_sum, rst_misc;

(* keep *) always @(posedge clk) rst_root <= rst;
(* keep *) always @(posedge clk) rst_sw <= rst_root;
(* keep *) always @(posedge clk) rst_sum <= rst_root;
(* keep *) always @(posedge clk) rst_misc <= rst_root;

// 1 Gb/s at the byte clock: 8 bits per clock = 1/64 quantum per clock (16 fraction bits)
localparam [23:0] QUANTA_STEP = 24'd1024;

// ---------------------------------------------------------------- switch
wire [PORT_COUNT*DATA_WIDTH-1:0] s_tdata, m_tdata;
wire [PORT_COUNT*KEEP_WIDTH-1:0] s_tkeep, m_tkeep;
wire [PORT_COUNT-1:0]            s_tvalid, s_tready, s_tlast, s_tuser;
wire [PORT_COUNT-1:0]            m_tvalid, m_tready, m_tlast, m_tuser;
wire [PORT_COUNT*DEST_WIDTH-1:0] s_tdest;
wire [PORT_COUNT*8-1:0]          sw_xoff;
// the polled registers (entry i of the poll list at [i*32 +: 32])
wire [POLL_COUNT*32-1:0]         poll_data;
wire [31:0]                      hdrm_wm = poll_data[POLL_HDRM*32 +: 32];
wire [31:0]                      sw_errors = poll_data[POLL_ERRORS*32 +: 32];
wire                             boot_err;
// the boot ROM has written the whole image: the partners start sending (until max_frame_bytes
// is written the switch would drop every frame as oversize)
wire                             boot_done;

// the MMU's configuration: the register image from ROM, written over AXI4-Lite after reset;
// then the poll list, read round-robin for ever (poll_data: the UART's H=, D= and E=)
wire [17:0] axil_awaddr, axil_araddr;
wire [2:0]  axil_awprot, axil_arprot;
wire [31:0] axil_wdata, axil_rdata;
wire [3:0]  axil_wstrb;
wire [1:0]  axil_bresp, axil_rresp;
wire        axil_awvalid, axil_awready, axil_wvalid, axil_wready, axil_bvalid, axil_bready;
wire        axil_arvalid, axil_arready, axil_rvalid, axil_rready;

cfg_rom_boot #(
    .IMAGE_FILE(IMAGE_FILE),
    .ENTRIES(IMAGE_ENTRIES),
    .ADDR_W(18),
    .POLL_ENABLE(1),
    .POLL_COUNT(POLL_COUNT),
    .POLL_ADDRS(POLL_ADDRS)
) boot_inst (
    .clk(clk),
    .rst(rst_sw),
    .m_axil_awaddr(axil_awaddr),
    .m_axil_awprot(axil_awprot),
    .m_axil_awvalid(axil_awvalid),
    .m_axil_awready(axil_awready),
    .m_axil_wdata(axil_wdata),
    .m_axil_wstrb(axil_wstrb),
    .m_axil_wvalid(axil_wvalid),
    .m_axil_wready(axil_wready),
    .m_axil_bresp(axil_bresp),
    .m_axil_bvalid(axil_bvalid),
    .m_axil_bready(axil_bready),
    .m_axil_araddr(axil_araddr),
    .m_axil_arprot(axil_arprot),
    .m_axil_arvalid(axil_arvalid),
    .m_axil_arready(axil_arready),
    .m_axil_rdata(axil_rdata),
    .m_axil_rresp(axil_rresp),
    .m_axil_rvalid(axil_rvalid),
    .m_axil_rready(axil_rready),
    .done(boot_done),
    .err(boot_err),
    .poll_data(poll_data)
);

// the switch: its configuration from the boot image, its status in its registers (polled
// above); the self-test takes one board wire, the XOFF state for the LEDs
switch_core #(
    .PORT_COUNT(PORT_COUNT),
    .DATA_WIDTH(DATA_WIDTH),
    .DEST_WIDTH(DEST_WIDTH),
    .CELL_BYTES(CELL_BYTES),
    .BUFFER_CELLS(BUFFER_CELLS),
    .CELL_W(CELL_W),
    .MMU_COMPACT(MMU_COMPACT),
    .PORT_COUNTERS(PORT_COUNTERS),
    .FEATURE_REGS(FEATURE_REGS),
    .MMU_WATERMARKS(MMU_WATERMARKS),
    .MMU_COUNTERS(MMU_COUNTERS),
    .MMU_CFG_CHECK(MMU_CFG_CHECK),
    .MMU_CFG_READBACK(MMU_CFG_READBACK),
    .MMU_HEADROOM_DSH(MMU_HEADROOM_DSH)
) switch_inst (
    .clk(clk),
    .rst(rst_sw),
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
    .s_axil_awaddr(axil_awaddr),
    .s_axil_awprot(axil_awprot),
    .s_axil_awvalid(axil_awvalid),
    .s_axil_awready(axil_awready),
    .s_axil_wdata(axil_wdata),
    .s_axil_wstrb(axil_wstrb),
    .s_axil_wvalid(axil_wvalid),
    .s_axil_wready(axil_wready),
    .s_axil_bresp(axil_bresp),
    .s_axil_bvalid(axil_bvalid),
    .s_axil_bready(axil_bready),
    .s_axil_araddr(axil_araddr),
    .s_axil_arprot(axil_arprot),
    .s_axil_arvalid(axil_arvalid),
    .s_axil_arready(axil_arready),
    .s_axil_rdata(axil_rdata),
    .s_axil_rresp(axil_rresp),
    .s_axil_rvalid(axil_rvalid),
    .s_axil_rready(axil_rready),
    .board_xoff(sw_xoff)
);

// ---------------------------------------------------------------- link partners
wire [PORT_COUNT*32-1:0] ok_v, lost_v, err_v, pfc_v;
wire [PORT_COUNT*8-1:0]  pause_v;
wire [PORT_COUNT-1:0]    chk_error;
reg  [1:0]               drain_cnt;
reg                      drain_ready;    // drain_cnt == 0, as a register

always @(posedge clk) begin
    drain_cnt <= drain_cnt + 1'b1;
    drain_ready <= drain_cnt == 2'd3;
    if (rst_misc) begin
        drain_cnt <= 2'd0;
        drain_ready <= 1'b1;
    end
end

// per-port 16-bit LFSR (x^16 + x^14 + x^13 + x^11 + 1) and the frame request drawn from it
function [15:0] lfsr_step;
    input [15:0] s;
    begin
        lfsr_step = {s[14:0], s[15] ^ s[13] ^ s[12] ^ s[10]};
    end
endfunction

// priority: lossless about 5 frames in 8, else lossy priority 0
function [2:0] req_prio;
    input [2:0] s;      // LFSR bits 2:0
    begin
        req_prio = (s < 3'd5) ? LOSSLESS_PRIO[2:0] : 3'd0;
    end
endfunction

// lengths 64..1518: mostly short frames, one in four long (LFSR bits 15:14 both set); the
// request register picks one of the two, each registered a clock earlier (the long one as its
// two cases, 64 + s or the 1518 clamp)
function [13:0] req_short_len;
    input [6:0] s;      // LFSR bits 12:6
    begin
        req_short_len = 14'd64 + {7'd0, s};
    end
endfunction

function [13:0] req_long_len;
    input [10:0] s;     // LFSR bits 10:0
    begin
        req_long_len = (s > 11'd1454) ? 14'd1518 : 14'd64 + {3'd0, s};
    end
endfunction

genvar p;
/* verilator lint_off PINCONNECTEMPTY */
generate
for (p = 0; p < PORT_COUNT; p = p + 1) begin : partner
    // the partner's reset copies (see "reset tree")
    reg rst_gen, rst_prx, rst_chk;
    (* keep *) always @(posedge clk) rst_gen <= rst_root;
    (* keep *) always @(posedge clk) rst_prx <= rst_root;
    (* keep *) always @(posedge clk) rst_chk <= rst_root;

    // The request (priority, length) belongs to LFSR state S(t) = lfsr_step^t(seed), t clocks
    // after reset.  It is computed in two register stages, so the LFSR runs two steps ahead:
    // lfsr_ahead holds S(t+2), the *_pre registers the parts of S(t+1)'s request.  The reset
    // loads constants (S(2), the parts of S(1)'s request and S(0)'s request), so no reset
    // multiplexer sits in front of the request logic.
    wire [15:0] lfsr_seed = 16'hace1 ^ (p * 16'h1357);
    wire [15:0] lfsr_seed1 = lfsr_step(lfsr_seed);
    reg  [15:0] lfsr_ahead;
    reg  [2:0]  prio_pre;
    reg         long_pre;
    // (a long length as its two cases, the clamp chosen with the request: one carry chain per
    // register stage)
    reg         long_big_pre;
    reg  [13:0] short_len_pre, long_low_pre;
    reg  [2:0]  prio;
    reg  [13:0] len;
    always @(posedge clk) begin
        lfsr_ahead <= lfsr_step(lfsr_ahead);
        prio_pre <= req_prio(lfsr_ahead[2:0]);
        long_pre <= lfsr_ahead[15:14] == 2'b11;
        short_len_pre <= req_short_len(lfsr_ahead[12:6]);
        long_big_pre <= lfsr_ahead[10:0] > 11'd1454;
        long_low_pre <= 14'd64 + {3'd0, lfsr_ahead[10:0]};
        prio <= prio_pre;
        len <= long_pre ? (long_big_pre ? 14'd1518 : long_low_pre) : short_len_pre;
        if (rst_gen) begin
            lfsr_ahead <= lfsr_step(lfsr_seed1);
            prio_pre <= req_prio(lfsr_seed1[2:0]);
            long_pre <= lfsr_seed1[15:14] == 2'b11;
            short_len_pre <= req_short_len(lfsr_seed1[12:6]);
            long_big_pre <= lfsr_seed1[10:0] > 11'd1454;
            long_low_pre <= 14'd64 + {3'd0, lfsr_seed1[10:0]};
            prio <= req_prio(lfsr_seed[2:0]);
            len <= lfsr_seed[15:14] == 2'b11 ? req_long_len(lfsr_seed[10:0])
                                             : req_short_len(lfsr_seed[12:6]);
        end
    end
    wire [DEST_WIDTH-1:0] dest = (p == 0) ? 1 : 0;

    // the generator's stream reaches the switch through two 2-entry FIFOs (registered ready,
    // valid and data): the generator's logic ends at a flip-flop next to it, not at the
    // switch's ingress FIFO across the die (four bytes more "on the wire")
    wire [DATA_WIDTH-1:0] g_tdata;
    wire [KEEP_WIDTH-1:0] g_tkeep;
    wire                  g_tvalid, g_tready, g_tlast, g_tuser;
    wire [DEST_WIDTH-1:0] g_tdest;

    // the receiver's pause state reaches the generator through a register next to it (the
    // pause bits drove the generator's start decision across the die: 1.3 ns short); the
    // partner reacts a clock later, as with a longer cable
    reg [7:0] gen_pause_reg;
    // the generator starts once the switch is configured (a register next to it)
    reg       gen_enable_reg;
    always @(posedge clk) begin
        gen_pause_reg <= pause_v[p*8 +: 8];
        gen_enable_reg <= boot_done;
        if (rst_gen) begin
            gen_enable_reg <= 1'b0;
        end
    end

    frame_gen #(
        .DATA_WIDTH(DATA_WIDTH),
        .DEST_WIDTH(DEST_WIDTH),
        .SRC_PORT(p)
    ) gen_inst (
        .clk(clk),
        .rst(rst_gen),
        .enable(gen_enable_reg),
        .cfg_dest(dest),
        .cfg_prio(prio),
        .cfg_len(len),
        .cfg_gap(16'd12),          // inter-frame gap + preamble, in byte times
        .pause(gen_pause_reg),
        .m_axis_tdata(g_tdata),
        .m_axis_tkeep(g_tkeep),
        .m_axis_tvalid(g_tvalid),
        .m_axis_tready(g_tready),
        .m_axis_tlast(g_tlast),
        .m_axis_tuser(g_tuser),
        .m_axis_tdest(g_tdest),
        .stat_frames(),
        .stat_paused_cycles()
    );

    // two 2-entry FIFOs in series, one placed at the generator and one at the switch port:
    // the handshake between them crosses the die from register to register (one FIFO in
    // the middle had both ends' logic in one clock: two 4 ns routes, 2.7 ns short)
    localparam LINK_W = DATA_WIDTH + KEEP_WIDTH + 2 + DEST_WIDTH;
    wire              lk_valid, lk_ready;
    wire [LINK_W-1:0] lk_data;
    sw_fifo #(
        .WIDTH(LINK_W),
        .DEPTH(2),
        .PTR_W(1)
    ) link_fifo_inst (
        .clk(clk),
        .rst(rst_gen),
        .s_valid(g_tvalid),
        .s_ready(g_tready),
        .s_data({g_tdata, g_tkeep, g_tlast, g_tuser, g_tdest}),
        .m_valid(lk_valid),
        .m_ready(lk_ready),
        .m_data(lk_data),
        .count()
    );
    sw_fifo #(
        .WIDTH(LINK_W),
        .DEPTH(2),
        .PTR_W(1)
    ) link_sw_fifo_inst (
        .clk(clk),
        .rst(rst_gen),
        .s_valid(lk_valid),
        .s_ready(lk_ready),
        .s_data(lk_data),
        .m_valid(s_tvalid[p]),
        .m_ready(s_tready[p]),
        .m_data({s_tdata[p*DATA_WIDTH +: DATA_WIDTH], s_tkeep[p*KEEP_WIDTH +: KEEP_WIDTH],
                 s_tlast[p], s_tuser[p], s_tdest[p*DEST_WIDTH +: DEST_WIDTH]}),
        .count()
    );

    assign m_tready[p] = (p == 0) ? drain_ready : 1'b1;

    // the partner's receiver sees the link through its input register (IN_REG: its parser
    // starts from flip-flops next to it, not from the switch's egress register across the
    // die; the partner reacts to PFC a clock later, as with a longer cable)
    // (timers only for the two priorities the generator sends: the others never pause it)
    pfc_rx #(
        .DATA_WIDTH(DATA_WIDTH),
        .IN_REG(1),
        .PRIO_MASK((8'd1 << LOSSLESS_PRIO) | 8'd1)
    ) partner_rx_inst (
        .clk(clk),
        .rst(rst_prx),
        .s_axis_tdata(m_tdata[p*DATA_WIDTH +: DATA_WIDTH]),
        .s_axis_tkeep(m_tkeep[p*KEEP_WIDTH +: KEEP_WIDTH]),
        .s_axis_tvalid(m_tvalid[p] && m_tready[p]),
        .s_axis_tlast(m_tlast[p]),
        .s_axis_tuser(m_tuser[p]),
        .cfg_quanta_step(QUANTA_STEP),
        .pause(pause_v[p*8 +: 8]),
        .is_pfc(),
        .is_mac_ctrl(),
        .rx_pfc_prio(),
        .stat_pfc_frames(pfc_v[p*32 +: 32]),
        .stat_pause_frames(),
        .stat_xoff_rx(),
        .stat_xon_rx(),
        .stat_malformed()
    );

    frame_check #(
        .DATA_WIDTH(DATA_WIDTH),
        .SRC_COUNT(PORT_COUNT),
        .PORT(p)
    ) check_inst (
        .clk(clk),
        .rst(rst_chk),
        .s_axis_tdata(m_tdata[p*DATA_WIDTH +: DATA_WIDTH]),
        .s_axis_tkeep(m_tkeep[p*KEEP_WIDTH +: KEEP_WIDTH]),
        .s_axis_tvalid(m_tvalid[p]),
        .s_axis_tready(m_tready[p]),
        .s_axis_tlast(m_tlast[p]),
        .cfg_lossless(8'd1 << LOSSLESS_PRIO),
        .stat_frames_ok(ok_v[p*32 +: 32]),
        .stat_other(),
        .stat_corrupt(),
        .stat_misrouted(),
        .stat_reorder(),
        .stat_lost(lost_v[p*32 +: 32]),
        .stat_gaps(),             // lossy gaps: the MMU drop counters say more
        .stat_errors(err_v[p*32 +: 32]),   // corrupt + misrouted + reorder
        .error(chk_error[p])
    );
end
endgenerate
/* verilator lint_on PINCONNECTEMPTY */

// ---------------------------------------------------------------- totals
// The per-port counters are summed by a registered binary tree (one 32-bit adder per node and
// total, log2(PORT_COUNT) clocks), then the switch's error flag is added: the totals follow
// the counters by log2(PORT_COUNT) + 1 clocks.  Lanes of a node: ok, lost, drops (the polled
// drop_admission registers), pfc, errors.
localparam SUMS = 5;
localparam SUM_W = 32 * SUMS;
localparam LEAVES = 1 << $clog2(PORT_COUNT);

wire [LEAVES*SUM_W-1:0] tree_leaf;      // leaf l at [l*SUM_W +: SUM_W]
reg  [(LEAVES-1)*SUM_W-1:0] tree_node;  // node n (1 = root) at [(n-1)*SUM_W +: SUM_W]

generate
for (p = 0; p < LEAVES; p = p + 1) begin : leaf
    if (p < PORT_COUNT) begin : port
        assign tree_leaf[p*SUM_W +: SUM_W] = {err_v[p*32 +: 32], pfc_v[p*32 +: 32],
                                              poll_data[(POLL_DROPS+p)*32 +: 32],
                                              lost_v[p*32 +: 32], ok_v[p*32 +: 32]};
    end else begin : pad
        assign tree_leaf[p*SUM_W +: SUM_W] = {SUM_W{1'b0}};
    end
end
for (p = 1; p < LEAVES; p = p + 1) begin : node
    wire [SUM_W-1:0] left, right;
    if (2 * p >= LEAVES) begin : from_leaves
        assign left = tree_leaf[(2*p-LEAVES)*SUM_W +: SUM_W];
        assign right = tree_leaf[(2*p+1-LEAVES)*SUM_W +: SUM_W];
    end else begin : from_nodes
        assign left = tree_node[(2*p-1)*SUM_W +: SUM_W];
        assign right = tree_node[(2*p)*SUM_W +: SUM_W];
    end
    integer s;
    always @(posedge clk) begin
        for (s = 0; s < SUMS; s = s + 1) begin
            tree_node[(p-1)*SUM_W + 32*s +: 32] <= left[32*s +: 32] + right[32*s +: 32];
        end
        if (rst_sum) begin
            tree_node[(p-1)*SUM_W +: SUM_W] <= {SUM_W{1'b0}};
        end
    end
end
endgenerate

wire [SUM_W-1:0] tree_root = tree_node[0 +: SUM_W];

// the switch's error flags (its polled errors word, not 0) or the boot sequencer's: one error
reg         switch_error;
reg  [1:0]  sw_errors_seen;   // per half: the polled errors word is not 0
reg  [31:0] err_total;
reg  [31:0] ok_reg, lost_reg, drops_reg, pfc_reg;
always @(posedge clk) begin
    sw_errors_seen <= {sw_errors[31:16] != 16'd0, sw_errors[15:0] != 16'd0};
    switch_error <= (|sw_errors_seen) | boot_err;
    ok_reg <= tree_root[0 +: 32];
    lost_reg <= tree_root[32 +: 32];
    drops_reg <= tree_root[64 +: 32];
    pfc_reg <= tree_root[96 +: 32];
    err_total <= tree_root[128 +: 32] + {31'd0, switch_error};
    if (rst_sum) begin
        sw_errors_seen <= 2'd0;
        switch_error <= 1'b0;
        ok_reg <= 32'd0;
        lost_reg <= 32'd0;
        drops_reg <= 32'd0;
        pfc_reg <= 32'd0;
        err_total <= 32'd0;
    end
end

assign stat_frames_ok = ok_reg;
assign stat_lost = lost_reg;
assign stat_dropped = drops_reg;
assign stat_pfc_frames = pfc_reg;
assign stat_peak_headroom = hdrm_wm;
assign stat_errors = err_total;

// ---------------------------------------------------------------- LEDs and UART
// counters run down and stop at -1: the sign bit is the "expired" test, no wide compare
localparam HOLD_W = $clog2(LED_HOLD + 1) + 1;
localparam PRINT_W = $clog2(PRINT_CYCLES + 1) + 1;
localparam integer PRINT_RELOAD = PRINT_CYCLES - 2;
localparam integer HOLD_RELOAD = LED_HOLD - 1;

reg [PRINT_W-1:0] print_cnt;      // clocks to the next line, minus 2
reg               print_trigger;
reg               heartbeat;
reg [31:0]        drops_last;
reg [5:0]         led_event;
wire [3:0]        xoff_any;
reg  [1:0]        err_seen, lost_seen;   // per half: the total is not zero
reg               chk_err_seen, led_error;
reg  [3:0]        drops_moved;    // per byte: drops_reg differs from the clock before

generate
for (p = 0; p < 4; p = p + 1) begin : xoff_led
    if (p < PORT_COUNT) begin : present
        assign xoff_any[p] = |sw_xoff[p*8 +: 8];
    end else begin : absent
        assign xoff_any[p] = 1'b0;
    end
end
endgenerate

always @(posedge clk) begin
    led_event[3:0] <= xoff_any;
    led_event[4] <= |pause_v;
    // 32-bit compares in bytes, ORed a clock later
    drops_moved <= {drops_reg[31:24] != drops_last[31:24], drops_reg[23:16] != drops_last[23:16],
                    drops_reg[15:8] != drops_last[15:8], drops_reg[7:0] != drops_last[7:0]};
    led_event[5] <= |drops_moved;
    drops_last <= drops_reg;
    // 32-bit zero tests in halves, ORed a clock later
    err_seen <= {err_total[31:16] != 16'd0, err_total[15:0] != 16'd0};
    lost_seen <= {lost_reg[31:16] != 16'd0, lost_reg[15:0] != 16'd0};
    chk_err_seen <= |chk_error;
    led_error <= (|err_seen) || (|lost_seen) || chk_err_seen;
    if (rst_misc) begin
        led_event <= 6'd0;
        drops_moved <= 4'd0;
        drops_last <= 32'd0;
        err_seen <= 2'd0;
        lost_seen <= 2'd0;
        chk_err_seen <= 1'b0;
        led_error <= 1'b0;
    end
end

// a line every PRINT_CYCLES clocks, the first PRINT_CYCLES clocks after reset
always @(posedge clk) begin
    print_trigger <= 1'b0;
    if (print_cnt[PRINT_W-1]) begin
        print_cnt <= PRINT_RELOAD[PRINT_W-1:0];
        print_trigger <= 1'b1;
        heartbeat <= ~heartbeat;
    end else begin
        print_cnt <= print_cnt - 1'b1;
    end
    if (rst_misc) begin
        print_cnt <= PRINT_RELOAD[PRINT_W-1:0];
        heartbeat <= 1'b0;
    end
end

// each event LED stays lit LED_HOLD clocks after its last event
generate
for (p = 0; p < 6; p = p + 1) begin : stretch
    // the event through two registers and the lamp through one: the counter sits where the
    // placer likes, between the event's source and the LED pin
    reg [1:0]        event_q;
    reg [HOLD_W-1:0] hold;         // clocks left lit, minus 1; negative: dark
    reg              lit;
    always @(posedge clk) begin
        event_q <= {event_q[0], led_event[p]};
        lit <= !hold[HOLD_W-1];
        if (rst_misc) begin
            event_q <= 2'b00;
            hold <= {HOLD_W{1'b1}};
            lit <= 1'b0;
        end else if (event_q[1]) begin
            hold <= HOLD_RELOAD[HOLD_W-1:0];
        end else if (!hold[HOLD_W-1]) begin
            hold <= hold - 1'b1;
        end
    end
    assign led[p + 1] = lit;
end
endgenerate

assign led[0] = heartbeat;
assign led[7] = led_error;

/* verilator lint_off PINCONNECTEMPTY */
stat_uart #(
    .COUNT(6),
    .LABELS("EHPDLF"),
    .CLKS_PER_BIT(CLK_HZ / BAUD)
) uart_inst (
    .clk(clk),
    .rst(rst_misc),
    .trigger(print_trigger),
    .values({err_total, hdrm_wm, pfc_reg, drops_reg, lost_reg, ok_reg}),
    .txd(uart_txd),
    .busy()
);
/* verilator lint_on PINCONNECTEMPTY */

endmodule

`resetall
