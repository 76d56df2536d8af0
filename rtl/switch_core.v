/*
 * switch_core: N-port lossless-Ethernet switch core with one shared cell buffer.  This file
 * connects its parts (docs/switch_core.md, "Architecture" and the table of stages):
 *
 *   s_axis[p] -> sw_port[p]: input register, sw_ingress (parse, classify, gather WORD_BEATS
 *                beats into one word; PREVENT_ENABLE: the priority remap), pfc_rx
 *                  |  words, one write slot per clock, round robin over the ports
 *                  v
 *   sw_buffer:   write stage (cells from the free list, words into the data RAM, the
 *                mmu_core request with a good frame's last word) -> decision stage (admitted:
 *                the frame onto its (egress port, queue) list; dropped or bad: the walker
 *                returns its cells) -> scheduler (per port strict priority over the queues not
 *                paused) -> read stage (one read slot per clock, round robin: words to the
 *                port's egress, cells freed as they are read, the release to mmu_core)
 *                  |  words
 *                  v
 *   sw_port[p]:  sw_egress (serialize, pfc_tx's frames between data frames) -> m_axis[p]
 *
 *   mmu_core     the admission decision: one arrival and one release every clock, the
 *                response a fixed number of clocks after the request, in order; its PG XOFF
 *                state drives each port's pfc_tx (docs/mmu_core.md)
 *   sw_csr       the AXI4-Lite registers: mmu_core's configuration and status (sw_mmu_csr,
 *                pfcmmu_csr generated from rtl/regs/pfcmmu.rdl) and the switch's own
 *                (pfcmmu_sw_regs); no request goes to mmu_core before the image's last
 *                register is written after reset (the frame waits: back-pressure to
 *                s_axis_tready)
 *   sw_pfc_guard the PFC watchdog between pfc_rx and the scheduler (WATCHDOG_ENABLE) and
 *                deadlock prevention's port-group test (PREVENT_ENABLE; docs/watchdog.md)
 *   sw_status    free / used cells, queued frames, drops by reason, the cell reserve check
 *
 * Design notes, the cell reserve for frames being written and the bandwidth argument:
 * docs/switch_core.md.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module switch_core #(
    // number of ports
    parameter PORT_COUNT = 4,
    // stream width in bits (8 or 64)
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // tdest width (egress port number; values >= PORT_COUNT are dropped at the ingress)
    parameter DEST_WIDTH = 8,
    // stream beats per buffer word (speedup 2 over PORT_COUNT: see docs/switch_core.md)
    parameter WORD_BEATS = 2 * PORT_COUNT,
    // bytes per cell, a multiple of the word (WORD_BEATS * KEEP_WIDTH bytes)
    parameter CELL_BYTES = 256,
    // cells in the shared buffer
    parameter BUFFER_CELLS = 256,
    // admission counter width in cells (mmu_core CELL_W)
    parameter CELL_W = 16,
    // frame length width in bytes
    parameter LEN_W = 14,
    // pfc_tx appends the FCS (0: the MAC does, as for data frames)
    parameter PFC_FCS_ENABLE = 0,
    // one pfc_watchdog per port between pfc_rx and the egress scheduler (docs/watchdog.md);
    // 0: no watchdog logic, cfg_wd_* ignored, stat_wd_* read 0
    parameter WATCHDOG_ENABLE = 0,
    // PFC deadlock prevention by priority remap per port group (docs/watchdog.md,
    // "Prevention"); 0: no logic, cfg_port_group / cfg_prev_* ignored, stat_prev_* read 0
    parameter PREVENT_ENABLE = 0,
    // width of a port group id (cfg_port_group); groups 1 .. 2^GROUP_W - 1, 0 = in no group
    parameter GROUP_W = 2,
    // test only: 1 breaks the IPv4 checksum update (end-around carry dropped) so the
    // testbench can show that its checks catch it; 0 in every real build
    parameter PREVENT_FAULT_INJECT = 0,
    // 1: mmu_core COMPACT, a smaller decision stage (one LUT level more) for small FPGAs
    parameter MMU_COMPACT = 0,
    // 1: mmu_core has the headroom policy dsh (HEADROOM_DSH); 0 leaves its logic out (the
    // headroom_policy register stays 0, static)
    parameter MMU_HEADROOM_DSH = 1,
    // test only: mmu_core FAULT_INJECT (1: its "shared below T" check becomes "at or below")
    // for the benches' admission predictor to catch; 0 in every real build
    parameter MMU_FAULT_INJECT = 0,
    // test only: sw_free_list FAULT_INJECT (1: its ring wraps at a power of two, wrong for
    // BUFFER_CELLS 672 or 384) for the bench's cell shadow map to catch; 0 in every real build
    parameter FREE_LIST_FAULT_INJECT = 0,
    // the per-port counters of the switch registers (status words of each port): 1 all of
    // them; 0 only drop_admission, the others read 0 and are not built (a board whose FPGA
    // cannot hold them: the Colorlight i5's 25F, docs/regs.md "Counters left out")
    parameter PORT_COUNTERS = 1,
    // 1: every configuration register of the switch map is built; 0 leaves out those of the
    // features this build does not use (pfcmmu_sw_regs STALL_REGS, LINK_PAUSE_REGS, PREV_REGS,
    // WD_REGS: not built, read 0, the switch sees their reset values): the stall cut's
    // stall_clocks (no stall cut), each port's link_pause_enable (802.3x PAUSE not honoured),
    // and with PREVENT_ENABLE / WATCHDOG_ENABLE 0 the prevention's and the watchdog's
    // registers (a board whose FPGA cannot hold them: docs/regs.md "Registers left out")
    parameter FEATURE_REGS = 1,
    // mmu_core WATERMARKS: 1 the per-PG / per-queue watermarks of the admission core's status;
    // 0 leaves them out (they read 0; a small FPGA's build, docs/regs.md)
    parameter MMU_WATERMARKS = 1,
    // mmu_core COUNTERS: 1 the event counters of the admission core's status; 0 leaves them
    // out (they read 0; this block's own registers count the drops by reason, mmu_drop_count,
    // and per port, drop_admission; a small FPGA's build, docs/regs.md)
    parameter MMU_COUNTERS = 1,
    // mmu_core CFG_CHECK: 1 the admission core's configuration checker (its flags, status
    // 0x19, and err_bad_config); 0 leaves it out (the flags read 0, err_bad_config stays 0; a
    // build whose only CSR master writes an image the model validated, docs/regs.md)
    parameter MMU_CFG_CHECK = 1,
    // mmu_core CFG_READBACK: 1 the admission core's configuration fields read back through
    // its status port; 0 they read 0 (writes take effect as ever; a build that never reads
    // its configuration back, docs/regs.md)
    parameter MMU_CFG_READBACK = 1
) (
    input  wire                                   clk,
    input  wire                                   rst,

    /*
     * Ingress (MAC RX side), port p at [p*W +: W]; tdest = egress port
     */
    input  wire [PORT_COUNT*DATA_WIDTH-1:0]       s_axis_tdata,
    input  wire [PORT_COUNT*KEEP_WIDTH-1:0]       s_axis_tkeep,
    input  wire [PORT_COUNT-1:0]                  s_axis_tvalid,
    output wire [PORT_COUNT-1:0]                  s_axis_tready,
    input  wire [PORT_COUNT-1:0]                  s_axis_tlast,
    input  wire [PORT_COUNT-1:0]                  s_axis_tuser,
    input  wire [PORT_COUNT*DEST_WIDTH-1:0]       s_axis_tdest,

    /*
     * Egress (MAC TX side)
     */
    output wire [PORT_COUNT*DATA_WIDTH-1:0]       m_axis_tdata,
    output wire [PORT_COUNT*KEEP_WIDTH-1:0]       m_axis_tkeep,
    output wire [PORT_COUNT-1:0]                  m_axis_tvalid,
    input  wire [PORT_COUNT-1:0]                  m_axis_tready,
    output wire [PORT_COUNT-1:0]                  m_axis_tlast,
    output wire [PORT_COUNT-1:0]                  m_axis_tuser,

    /*
     * Registers (AXI4-Lite, map rtl/regs/pfcmmu.rdl: byte address = word address << 2;
     * sw_mmu_csr / pfcmmu_csr): the admission core's configuration and status (byte 0x00000 -
     * 0x1FFFF) and the switch's own (pfcmmu_sw_regs, byte 0x20000 - 0x3FFFF).  No request
     * goes to mmu_core before the admission image's last register is written after rst
     * (docs/switch_core.md "Configuration over AXI4-Lite")
     */
    input  wire [17:0]                            s_axil_awaddr,
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
    input  wire [17:0]                            s_axil_araddr,
    input  wire [2:0]                             s_axil_arprot,
    input  wire                                   s_axil_arvalid,
    output wire                                   s_axil_arready,
    output wire [31:0]                            s_axil_rdata,
    output wire [1:0]                             s_axil_rresp,
    output wire                                   s_axil_rvalid,
    input  wire                                   s_axil_rready,

    /*
     * What a board shows on LEDs as it happens (fpga_core): everything else of the switch,
     * the figures of its status line included, is in its registers (rtl/regs/pfcmmu.rdl,
     * pfcmmu_switch), read over AXI4-Lite
     */
    // XOFF requested per port p and PG k at [p*8 + k] (pfc_tx's state; the LEDs follow each
    // XOFF as it happens, which polling a register cannot)
    output wire [PORT_COUNT*8-1:0]                board_xoff
);

// ---------------------------------------------------------------------------- parameters
localparam KW = KEEP_WIDTH;
localparam WORD_W = WORD_BEATS * DATA_WIDTH;
localparam WORD_BYTES = WORD_BEATS * KW;
localparam WPC = CELL_BYTES / WORD_BYTES;          // words per cell
localparam CA_W = BUFFER_CELLS > 1 ? $clog2(BUFFER_CELLS) : 1;
localparam CNT_W = $clog2(BUFFER_CELLS + 1);
localparam WB_W = $clog2(WORD_BYTES + 1);
localparam P_W = PORT_COUNT > 1 ? $clog2(PORT_COUNT) : 1;
localparam QN = PORT_COUNT * 8;
localparam QN_W = P_W + 3;
localparam MMU_PORT_W = 8;
// mmu_core's port count: a power of two
localparam MMU_PORTS = 1 << P_W;
localparam TAG_W = 8;
// egress staging words: 2 cover a port's slot period from 3 ports on; with 2 ports a word
// (4 beats) is shorter than the refill loop (slot wait + capture + RAM + egress register)
localparam OUT_DEPTH = PORT_COUNT < 3 ? 4 : 2;
localparam OUT_PTR_W = PORT_COUNT < 3 ? 2 : 1;

initial begin
    if (WPC < 1 || WPC * WORD_BYTES != CELL_BYTES) begin
        $error("switch_core: CELL_BYTES must be a multiple of WORD_BEATS*KEEP_WIDTH bytes");
        $finish;
    end
    // (at least 2: a port's read-stage state is captured the clock before its slot)
    // (at most 64: mmu_core's limit)
    if (DEST_WIDTH > MMU_PORT_W || DEST_WIDTH < P_W || PORT_COUNT > 64 || PORT_COUNT < 2) begin
        $error("switch_core: 2 <= PORT_COUNT <= 64, $clog2(PORT_COUNT) <= DEST_WIDTH <= 8");
        $finish;
    end
    // (the register map's port group and per-group counters are 2 bits / 4 groups wide)
    if (GROUP_W != 2) begin
        $error("switch_core: GROUP_W must be 2 (rtl/regs/pfcmmu.rdl port_group)");
        $finish;
    end
    if (BUFFER_CELLS >= (1 << CELL_W)) begin
        $error("switch_core: BUFFER_CELLS must fit in CELL_W bits");
        $finish;
    end
end

genvar gp;

// ---------------------------------------------------------------------------- switch registers
// switch_core's own configuration, from its registers (sw_csr's pfcmmu_sw_regs, from the map
// pfcmmu_switch of rtl/regs/pfcmmu.rdl; reset values there).  Port configuration: 3-bit
// entries, port p priority k at [(p*8+k)*3 +: 3]
wire [PORT_COUNT*8*3-1:0]        cfg_prio_to_pg;
wire [PORT_COUNT*8*3-1:0]        cfg_prio_to_queue;
wire [PORT_COUNT*3-1:0]          cfg_default_prio;
// PFC (pfc_tx / pfc_rx): source address of port p at [p*48 +: 48]; quanta of priority k at
// [k*16 +: 16]; port p honours received 802.3x PAUSE frames at bit p
wire [PORT_COUNT*48-1:0]         cfg_src_mac;
wire [8*16-1:0]                  cfg_pause_quanta;
wire [15:0]                      cfg_refresh_quanta;
wire [23:0]                      cfg_quanta_step;
wire [PORT_COUNT-1:0]            cfg_link_pause_enable;
// bad input: a frame stalled for this many clocks between beats is cut (0: never)
wire [31:0]                      cfg_stall_clocks;
// PFC watchdog, per port p: enable bit p, detect / restore time at [p*32 +: 32], action at
// [p*2 +: 2], storm limit at [p*8 +: 8], re-enable port p priority k at [p*8 + k]
wire [PORT_COUNT-1:0]            cfg_wd_enable;
wire [PORT_COUNT*32-1:0]         cfg_wd_detect_time;
wire [PORT_COUNT*32-1:0]         cfg_wd_restore_time;
wire [PORT_COUNT*2-1:0]          cfg_wd_action;
wire [PORT_COUNT*8-1:0]          cfg_wd_storm_limit;
wire [PORT_COUNT*8-1:0]          cfg_wd_reenable;
// deadlock prevention: group of port p at [p*GROUP_W +: GROUP_W] (0: none); per priority k:
// protected (cfg_prev_enable[k]), alternate priority [k*3 +: 3] and DSCP [k*6 +: 6]
wire [PORT_COUNT*GROUP_W-1:0]    cfg_port_group;
wire [7:0]                       cfg_prev_enable;
wire [8*3-1:0]                   cfg_prev_alt_prio;
wire [8*6-1:0]                   cfg_prev_alt_dscp;

// status the registers read: per-port 32-bit counters at [p*32 +: 32]; MAC Control consumed
// (sw_ingress's classes): 802.3x PAUSE, unknown opcode, 0x8808 or 01-80-C2-00-00-01 without
// the other; data frames dropped as malformed (tkeep), for a tdest >= PORT_COUNT, cut after a
// stall
wire [PORT_COUNT*32-1:0]         stat_rx_frames;
wire [PORT_COUNT*32-1:0]         stat_rx_bytes;
wire [PORT_COUNT*32-1:0]         stat_tx_frames;
wire [PORT_COUNT*32-1:0]         stat_tx_bytes;
wire [PORT_COUNT*32-1:0]         stat_drop_error;
wire [PORT_COUNT*32-1:0]         stat_drop_runt;
wire [PORT_COUNT*32-1:0]         stat_drop_oversize;
wire [PORT_COUNT*32-1:0]         stat_drop_admission;
wire [PORT_COUNT*32-1:0]         stat_pfc_rx_frames;
wire [PORT_COUNT*32-1:0]         stat_pause_rx_frames;
wire [PORT_COUNT*32-1:0]         stat_ctrl_unknown;
wire [PORT_COUNT*32-1:0]         stat_ctrl_malformed;
wire [PORT_COUNT*32-1:0]         stat_drop_malformed;
wire [PORT_COUNT*32-1:0]         stat_drop_bad_dest;
wire [PORT_COUNT*32-1:0]         stat_drop_stall;
wire [31:0]                      stat_free_cells;
wire [31:0]                      stat_free_low_wm;
wire [31:0]                      stat_used_cells;
wire [31:0]                      stat_queued_frames;
wire [PORT_COUNT*8-1:0]          stat_pause;
wire [PORT_COUNT*8-1:0]          stat_xoff;
// watchdog: port p priority k in storm recovery / PFC disabled at [p*8 + k], storms detected
// at [(p*8 + k)*32 +: 32]; per egress port at [p*32 +: 32]: frames discarded (action drop)
// and frames sent (action forward) from a queue in storm recovery
wire [PORT_COUNT*8-1:0]          stat_wd_storm;
wire [PORT_COUNT*8-1:0]          stat_wd_disabled;
wire [PORT_COUNT*8*32-1:0]       stat_wd_storms;
wire [PORT_COUNT*32-1:0]         stat_wd_drop_frames;
wire [PORT_COUNT*32-1:0]         stat_wd_fwd_frames;
// prevention, per group g at [g*32 +: 32] (entry 0 stays 0): good frames classified with the
// alternate priority, and of those the untagged ones
wire [(1<<GROUP_W)*32-1:0]       stat_prev_frames;
wire [(1<<GROUP_W)*32-1:0]       stat_prev_untagged;
// AXI4-Lite error responses (pfcmmu_csr's count, which the register block reads itself: the
// wire is for the benches, which read the status wires by name); admission drops by reason r
// at [r*32 +: 32] (entry 0, reason none, stays 0: the register map leaves it out; the benches
// read the vector)
/* verilator lint_off UNUSEDSIGNAL */
wire [31:0]                      stat_axil_slverr;
wire [7*32-1:0]                  stat_mmu_drop_count;
/* verilator lint_on UNUSEDSIGNAL */
wire                             err_release_underflow;
wire                             err_bad_config;
wire                             err_reserve;
wire                             err_free_list;
wire                             err_response;

// the configuration the datapath reads (sw_mmu_csr's copies of mmu_core's global
// registers): max_frame_bytes bounds the frames the ingress stores, both bound the reserve
wire [CELL_W-1:0]                cfg_buffer_cells;
wire [31:0]                      cfg_max_frame_bytes;

// ---------------------------------------------------------------------------- ports
// each port's words to the write stage and its ingress flags (sw_port's sw_ingress)
wire [PORT_COUNT-1:0]            in_valid;
wire [PORT_COUNT-1:0]            in_pop;
wire [PORT_COUNT*WORD_W-1:0]     in_data;
wire [PORT_COUNT-1:0]            in_last;
wire [PORT_COUNT-1:0]            in_store;
wire [PORT_COUNT*LEN_W-1:0]      in_len;
wire [PORT_COUNT*3-1:0]          in_prio;
wire [PORT_COUNT*DEST_WIDTH-1:0] in_dest;
wire [PORT_COUNT*4-1:0]          in_kind;
wire [PORT_COUNT-1:0]            in_remap;
wire [PORT_COUNT-1:0]            in_tagged;
// the beat's tdest after each port's input register (sw_port's in_slice_inst)
wire [PORT_COUNT*DEST_WIDTH-1:0] rx_tdest;
// prevention: the beat's tdest is a port of the ingress port's group (not 0)
wire [PORT_COUNT-1:0]            same_group;
wire [PORT_COUNT*8-1:0]          pause;
wire [PORT_COUNT*8-1:0]          rx_pfc_prio;
// pause as the egress scheduler sees it (through the watchdog when there is one)
wire [PORT_COUNT*8-1:0]          sched_pause;

// words to the ports' egress, from the read stage (sw_buffer's sw_read)
wire [PORT_COUNT-1:0]            out_push;
wire [PORT_COUNT*(OUT_PTR_W+1)-1:0] out_count;
wire [WORD_W-1:0]                data_rd;
wire [WB_W-1:0]                  out_bytes;
wire                             out_last;

wire [QN-1:0]                    pfc_xoff;

// each port: input register, ingress, pfc_rx, the PFC requests, pfc_tx, egress (sw_port)
generate
    for (gp = 0; gp < PORT_COUNT; gp = gp + 1) begin : port
        sw_port #(
            .PORT_COUNT(PORT_COUNT),
            .DATA_WIDTH(DATA_WIDTH),
            .KEEP_WIDTH(KW),
            .DEST_WIDTH(DEST_WIDTH),
            .WORD_BEATS(WORD_BEATS),
            .LEN_W(LEN_W),
            .WB_W(WB_W),
            .PFC_FCS_ENABLE(PFC_FCS_ENABLE),
            .PREVENT_ENABLE(PREVENT_ENABLE),
            .PREVENT_FAULT_INJECT(PREVENT_FAULT_INJECT),
            .OUT_DEPTH(OUT_DEPTH),
            .OUT_PTR_W(OUT_PTR_W)
        ) port_inst (
            .clk(clk),
            .rst(rst),
            .s_axis_tdata(s_axis_tdata[gp*DATA_WIDTH +: DATA_WIDTH]),
            .s_axis_tkeep(s_axis_tkeep[gp*KW +: KW]),
            .s_axis_tvalid(s_axis_tvalid[gp]),
            .s_axis_tready(s_axis_tready[gp]),
            .s_axis_tlast(s_axis_tlast[gp]),
            .s_axis_tuser(s_axis_tuser[gp]),
            .s_axis_tdest(s_axis_tdest[gp*DEST_WIDTH +: DEST_WIDTH]),
            .m_axis_tdata(m_axis_tdata[gp*DATA_WIDTH +: DATA_WIDTH]),
            .m_axis_tkeep(m_axis_tkeep[gp*KW +: KW]),
            .m_axis_tvalid(m_axis_tvalid[gp]),
            .m_axis_tready(m_axis_tready[gp]),
            .m_axis_tlast(m_axis_tlast[gp]),
            .m_axis_tuser(m_axis_tuser[gp]),
            .m_word_valid(in_valid[gp]),
            .m_word_ready(in_pop[gp]),
            .m_word_data(in_data[gp*WORD_W +: WORD_W]),
            .m_word_last(in_last[gp]),
            .m_word_store(in_store[gp]),
            .m_word_len(in_len[gp*LEN_W +: LEN_W]),
            .m_word_prio(in_prio[gp*3 +: 3]),
            .m_word_dest(in_dest[gp*DEST_WIDTH +: DEST_WIDTH]),
            .m_word_kind(in_kind[gp*4 +: 4]),
            .m_word_remap(in_remap[gp]),
            .m_word_tagged(in_tagged[gp]),
            .rx_tdest(rx_tdest[gp*DEST_WIDTH +: DEST_WIDTH]),
            .same_group(same_group[gp]),
            .pause(pause[gp*8 +: 8]),
            .rx_pfc_prio(rx_pfc_prio[gp*8 +: 8]),
            .pfc_xoff(pfc_xoff[gp*8 +: 8]),
            .s_word_valid(out_push[gp]),
            .s_word_data(data_rd),
            .s_word_bytes(out_bytes),
            .s_word_last(out_last),
            .word_count(out_count[gp*(OUT_PTR_W+1) +: OUT_PTR_W+1]),
            .cfg_default_prio(cfg_default_prio[gp*3 +: 3]),
            .cfg_prio_to_pg(cfg_prio_to_pg[gp*8*3 +: 8*3]),
            .cfg_link_pause_enable(cfg_link_pause_enable[gp]),
            .cfg_src_mac(cfg_src_mac[gp*48 +: 48]),
            .cfg_max_frame_bytes(cfg_max_frame_bytes),
            .cfg_stall_clocks(cfg_stall_clocks),
            .cfg_prev_enable(cfg_prev_enable),
            .cfg_prev_alt_prio(cfg_prev_alt_prio),
            .cfg_prev_alt_dscp(cfg_prev_alt_dscp),
            .cfg_pause_quanta(cfg_pause_quanta),
            .cfg_refresh_quanta(cfg_refresh_quanta),
            .cfg_quanta_step(cfg_quanta_step),
            .stat_rx_frames(stat_rx_frames[gp*32 +: 32]),
            .stat_rx_bytes(stat_rx_bytes[gp*32 +: 32]),
            .stat_drop_error(stat_drop_error[gp*32 +: 32]),
            .stat_drop_runt(stat_drop_runt[gp*32 +: 32]),
            .stat_drop_oversize(stat_drop_oversize[gp*32 +: 32]),
            .stat_pfc_rx_frames(stat_pfc_rx_frames[gp*32 +: 32]),
            .stat_pause_rx_frames(stat_pause_rx_frames[gp*32 +: 32]),
            .stat_ctrl_unknown(stat_ctrl_unknown[gp*32 +: 32]),
            .stat_ctrl_malformed(stat_ctrl_malformed[gp*32 +: 32]),
            .stat_drop_malformed(stat_drop_malformed[gp*32 +: 32]),
            .stat_drop_bad_dest(stat_drop_bad_dest[gp*32 +: 32]),
            .stat_drop_stall(stat_drop_stall[gp*32 +: 32]),
            .stat_tx_frames(stat_tx_frames[gp*32 +: 32]),
            .stat_tx_bytes(stat_tx_bytes[gp*32 +: 32])
        );
    end
endgenerate

assign stat_pause = pause;
assign stat_xoff = pfc_xoff;

// ---------------------------------------------------------------------------- admission
// mmu_core accepts one arrival and one release on every clock (no ready): the write stage's
// request and the read stage's release go to it from registers, with no FIFO in between.  It
// answers a fixed number of clocks after the request (docs/mmu_core.md "Stages"), in request
// order, with no back-pressure; the responses wait in the decision stage's response FIFO
// until it matches each with the head of the pending FIFO (sw_buffer's sw_decide).  Its
// PORT_COUNT is a power of two: with another port count the entries of the ports above
// PORT_COUNT exist in mmu_core, are written 0 by software (the image is padded to MMU_PORTS
// ports, docs/switch_core.md) and are never named by a request or a release.
wire                 req_valid_reg;
wire [P_W-1:0]       req_port_reg;
wire [2:0]           req_pg_reg;
wire [DEST_WIDTH-1:0] req_eport_reg;
wire [2:0]           req_queue_reg;
wire [LEN_W-1:0]     req_len_reg;
wire [TAG_W-1:0]     req_tag_reg;
wire                 mmu_resp_valid;
wire                 mmu_resp_admit;
wire [2:0]           mmu_resp_reason;
wire [CELL_W-1:0]    mmu_resp_cells;
wire [TAG_W-1:0]     mmu_resp_tag;
wire                 rel_valid_reg;
wire [P_W-1:0]       rel_port_reg;
wire [2:0]           rel_pg_reg;
wire [P_W-1:0]       rel_eport_reg;
wire [2:0]           rel_queue_reg;
wire [CELL_W-1:0]    rel_cells_reg;
// the PGs of ports PORT_COUNT .. MMU_PORTS-1 never hold a cell, so never pause
/* verilator lint_off UNUSEDSIGNAL */
wire [MMU_PORTS*8-1:0] mmu_pfc_xoff;
/* verilator lint_on UNUSEDSIGNAL */
wire                 mmu_cfg_wr_valid;
wire [15:0]          mmu_cfg_wr_addr;
wire [31:0]          mmu_cfg_wr_data;
wire [15:0]          mmu_stat_addr;
wire [31:0]          mmu_stat_data;
// the configuration is loaded (sw_mmu_csr: its last register written): requests may go to
// mmu_core
wire                 mmu_cfg_done;
wire                 mmu_cfg_done_ws;    // the write stage's copy
// mmu_core's configuration flags (any of them)
wire                 mmu_err_bad_config;

assign pfc_xoff = mmu_pfc_xoff[QN-1:0];

// the admission core and its CSR block take their reset from a register of their own (keep:
// not merged with the other copies), which fans out to nearly every register of the core and
// can be placed beside it; they leave reset a clock after the rest of the switch.  Nothing is
// held and no request comes before the configuration is loaded, so the extra clock changes
// nothing the switch shows; the benches count the core's clocks from this register
// (tb/common/mmu_bus.py).
reg rst_mmu;
(* keep *) always @(posedge clk) rst_mmu <= rst;

// the register block: the AXI4-Lite CSR in front of mmu_core's configuration / status port
// with the copies of buffer_cells / max_frame_bytes the datapath reads and the admission gate,
// and the switch's own registers (sw_csr)
sw_csr #(
    .PORT_COUNT(PORT_COUNT),
    .MMU_PORTS(MMU_PORTS),
    .CELL_W(CELL_W),
    .PORT_COUNTERS(PORT_COUNTERS),
    .FEATURE_REGS(FEATURE_REGS),
    .PREVENT_ENABLE(PREVENT_ENABLE),
    .WATCHDOG_ENABLE(WATCHDOG_ENABLE)
) csr_inst (
    .clk(clk), .rst(rst), .rst_mmu(rst_mmu),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr), .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),
    .m_cfg_wr_valid(mmu_cfg_wr_valid), .m_cfg_wr_addr(mmu_cfg_wr_addr),
    .m_cfg_wr_data(mmu_cfg_wr_data), .m_stat_addr(mmu_stat_addr), .m_stat_data(mmu_stat_data),
    .cfg_buffer_cells(cfg_buffer_cells), .cfg_max_frame_bytes(cfg_max_frame_bytes),
    .cfg_loaded(mmu_cfg_done), .cfg_loaded_copy(mmu_cfg_done_ws),
    .cfg_prio_to_pg(cfg_prio_to_pg),
    .cfg_prio_to_queue(cfg_prio_to_queue),
    .cfg_default_prio(cfg_default_prio),
    .cfg_src_mac(cfg_src_mac),
    .cfg_pause_quanta(cfg_pause_quanta),
    .cfg_refresh_quanta(cfg_refresh_quanta),
    .cfg_quanta_step(cfg_quanta_step),
    .cfg_link_pause_enable(cfg_link_pause_enable),
    .cfg_stall_clocks(cfg_stall_clocks),
    .cfg_wd_enable(cfg_wd_enable),
    .cfg_wd_detect_time(cfg_wd_detect_time),
    .cfg_wd_restore_time(cfg_wd_restore_time),
    .cfg_wd_action(cfg_wd_action),
    .cfg_wd_storm_limit(cfg_wd_storm_limit),
    .cfg_wd_reenable(cfg_wd_reenable),
    .cfg_port_group(cfg_port_group),
    .cfg_prev_enable(cfg_prev_enable),
    .cfg_prev_alt_prio(cfg_prev_alt_prio),
    .cfg_prev_alt_dscp(cfg_prev_alt_dscp),
    .stat_rx_frames(stat_rx_frames),
    .stat_rx_bytes(stat_rx_bytes),
    .stat_tx_frames(stat_tx_frames),
    .stat_tx_bytes(stat_tx_bytes),
    .stat_drop_error(stat_drop_error),
    .stat_drop_runt(stat_drop_runt),
    .stat_drop_oversize(stat_drop_oversize),
    .stat_drop_admission(stat_drop_admission),
    .stat_pfc_rx_frames(stat_pfc_rx_frames),
    .stat_pause_rx_frames(stat_pause_rx_frames),
    .stat_ctrl_unknown(stat_ctrl_unknown),
    .stat_ctrl_malformed(stat_ctrl_malformed),
    .stat_drop_malformed(stat_drop_malformed),
    .stat_drop_bad_dest(stat_drop_bad_dest),
    .stat_drop_stall(stat_drop_stall),
    .stat_wd_drop_frames(stat_wd_drop_frames),
    .stat_wd_fwd_frames(stat_wd_fwd_frames),
    .stat_wd_storms(stat_wd_storms),
    .stat_pause(stat_pause),
    .stat_xoff(stat_xoff),
    .stat_wd_storm(stat_wd_storm),
    .stat_wd_disabled(stat_wd_disabled),
    .stat_free_cells(stat_free_cells),
    .stat_free_low_wm(stat_free_low_wm),
    .stat_used_cells(stat_used_cells),
    .stat_queued_frames(stat_queued_frames),
    .stat_mmu_drop_count(stat_mmu_drop_count[7*32-1:32]),
    .stat_prev_frames(stat_prev_frames),
    .stat_prev_untagged(stat_prev_untagged),
    .err_release_underflow(err_release_underflow),
    .err_bad_config(err_bad_config),
    .err_reserve(err_reserve),
    .err_free_list(err_free_list),
    .err_response(err_response),
    .stat_axil_slverr(stat_axil_slverr)
);

assign board_xoff = stat_xoff;

// mmu_core's outputs left open are its per-segment split of the response and the ready
// flags (constant 1): open on purpose
/* verilator lint_off PINCONNECTEMPTY */
mmu_core #(
    .PORT_COUNT(MMU_PORTS),
    .CELL_BYTES(CELL_BYTES),
    .CELL_W(CELL_W),
    // a frame is asked for once it is in the buffer: the cells in flight never exceed
    // BUFFER_CELLS < 2^CELL_W, so the in-flight charge needs no wider sums
    .INFLIGHT_W(CELL_W),
    .LEN_W(LEN_W),
    .TAG_W(TAG_W),
    .PORT_W(MMU_PORT_W),
    .PG_W(4),
    .Q_W(4),
    .COMPACT(MMU_COMPACT),
    .HEADROOM_DSH(MMU_HEADROOM_DSH),
    .WATERMARKS(MMU_WATERMARKS),
    .COUNTERS(MMU_COUNTERS),
    .CFG_CHECK(MMU_CFG_CHECK),
    .CFG_READBACK(MMU_CFG_READBACK),
    .FAULT_INJECT(MMU_FAULT_INJECT)
) mmu_inst (
    .clk(clk),
    .rst(rst_mmu),
    .s_req_valid(req_valid_reg),
    .s_req_ready(),
    .s_req_port({{(MMU_PORT_W-P_W){1'b0}}, req_port_reg}),
    .s_req_pg({1'b0, req_pg_reg}),
    .s_req_eport({{(MMU_PORT_W-DEST_WIDTH){1'b0}}, req_eport_reg}),
    .s_req_queue({1'b0, req_queue_reg}),
    .s_req_len(req_len_reg),
    .s_req_tag(req_tag_reg),
    .m_resp_valid(mmu_resp_valid),
    .m_resp_admit(mmu_resp_admit),
    .m_resp_reason(mmu_resp_reason),
    .m_resp_cells(mmu_resp_cells),
    .m_resp_res(),
    .m_resp_shared(),
    .m_resp_hdrm(),
    .m_resp_eres(),
    .m_resp_eshared(),
    .m_resp_tag(mmu_resp_tag),
    .s_rel_valid(rel_valid_reg),
    .s_rel_ready(),
    .s_rel_port({{(MMU_PORT_W-P_W){1'b0}}, rel_port_reg}),
    .s_rel_pg({1'b0, rel_pg_reg}),
    .s_rel_eport({{(MMU_PORT_W-P_W){1'b0}}, rel_eport_reg}),
    .s_rel_queue({1'b0, rel_queue_reg}),
    .s_rel_cells(rel_cells_reg),
    .pfc_xoff(mmu_pfc_xoff),
    .pfc_change(),
    .cfg_wr_valid(mmu_cfg_wr_valid),
    .cfg_wr_addr(mmu_cfg_wr_addr),
    .cfg_wr_data(mmu_cfg_wr_data),
    .stat_addr(mmu_stat_addr),
    .stat_data(mmu_stat_data),
    .err_release_underflow(err_release_underflow),
    .err_bad_config(mmu_err_bad_config)
);
/* verilator lint_on PINCONNECTEMPTY */

// ---------------------------------------------------------------------------- shared buffer
// the cell buffer and its stages: the write, decision and read stages, the queue lists, the
// scheduler, the walker, the free list and the RAMs (sw_buffer; docs/switch_core.md)
// the free list's count, low watermark and error flags, each port's spare cell, a frame
// linked into a queue (sw_status)
wire [CNT_W-1:0]             fl_count;
wire [CNT_W-1:0]             fl_low_wm;
wire                         fl_err_underflow, fl_err_overflow;
wire [PORT_COUNT-1:0]        spare_valid;
wire                         enq_valid;
// the write slot loads a good frame's mmu_core request, and the slot's port (sw_pfc_guard)
wire                         req_go;
wire [P_W-1:0]               write_slot;
// queue {p, q} at [p*8 + q]: holds frames; in storm recovery with action drop, its frames
// discarded at dequeue (sw_pfc_guard); the read stage's dequeue commit
wire [QN-1:0]                q_ne;
wire [QN-1:0]                wd_qdrop;
wire                         deq_valid;
wire [P_W-1:0]               deq_port;
wire [QN_W-1:0]              deq_q;

sw_buffer #(
    .PORT_COUNT(PORT_COUNT),
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KW),
    .DEST_WIDTH(DEST_WIDTH),
    .WORD_BEATS(WORD_BEATS),
    .CELL_BYTES(CELL_BYTES),
    .BUFFER_CELLS(BUFFER_CELLS),
    .CELL_W(CELL_W),
    .LEN_W(LEN_W),
    .TAG_W(TAG_W),
    .P_W(P_W),
    .CA_W(CA_W),
    .CNT_W(CNT_W),
    .WB_W(WB_W),
    .OUT_DEPTH(OUT_DEPTH),
    .OUT_PTR_W(OUT_PTR_W),
    .FREE_LIST_FAULT_INJECT(FREE_LIST_FAULT_INJECT)
) buffer_inst (
    .clk(clk),
    .rst(rst),
    .in_valid(in_valid),
    .in_pop(in_pop),
    .in_data(in_data),
    .in_last(in_last),
    .in_store(in_store),
    .in_len(in_len),
    .in_prio(in_prio),
    .in_dest(in_dest),
    .in_kind(in_kind),
    .out_push(out_push),
    .out_data(data_rd),
    .out_bytes(out_bytes),
    .out_last(out_last),
    .out_count(out_count),
    .req_valid(req_valid_reg),
    .req_port(req_port_reg),
    .req_pg(req_pg_reg),
    .req_eport(req_eport_reg),
    .req_queue(req_queue_reg),
    .req_len(req_len_reg),
    .req_tag(req_tag_reg),
    .req_go(req_go),
    .write_slot(write_slot),
    .resp_valid(mmu_resp_valid),
    .resp_admit(mmu_resp_admit),
    .resp_cells(mmu_resp_cells),
    .resp_tag(mmu_resp_tag),
    .rel_valid(rel_valid_reg),
    .rel_port(rel_port_reg),
    .rel_pg(rel_pg_reg),
    .rel_eport(rel_eport_reg),
    .rel_queue(rel_queue_reg),
    .rel_cells(rel_cells_reg),
    .sched_pause(sched_pause),
    .qdrop(wd_qdrop),
    .q_ne(q_ne),
    .deq_valid(deq_valid),
    .deq_port(deq_port),
    .deq_q(deq_q),
    .spare_valid(spare_valid),
    .fl_count(fl_count),
    .fl_low_wm(fl_low_wm),
    .fl_err_underflow(fl_err_underflow),
    .fl_err_overflow(fl_err_overflow),
    .enq_valid(enq_valid),
    .cfg_prio_to_pg(cfg_prio_to_pg),
    .cfg_prio_to_queue(cfg_prio_to_queue),
    .cfg_loaded(mmu_cfg_done_ws),
    .stat_drop_admission(stat_drop_admission),
    .err_response(err_response)
);

// ---------------------------------------------------------------------------- PFC guards
// the PFC watchdog between pfc_rx and the scheduler, and deadlock prevention's port-group test
// for the ingress and its counters (sw_pfc_guard; docs/watchdog.md)
sw_pfc_guard #(
    .PORT_COUNT(PORT_COUNT),
    .P_W(P_W),
    .DEST_WIDTH(DEST_WIDTH),
    .WATCHDOG_ENABLE(WATCHDOG_ENABLE),
    .PREVENT_ENABLE(PREVENT_ENABLE),
    .GROUP_W(GROUP_W)
) pfc_guard_inst (
    .clk(clk),
    .rst(rst),
    .pause(pause),
    .rx_pfc_prio(rx_pfc_prio),
    .q_ne(q_ne),
    .deq_valid(deq_valid),
    .deq_port(deq_port),
    .deq_q(deq_q),
    .sched_pause(sched_pause),
    .qdrop(wd_qdrop),
    .rx_tdest(rx_tdest),
    .same_group(same_group),
    .req_valid(req_go),
    .req_port(write_slot),
    .in_remap(in_remap),
    .in_tagged(in_tagged),
    .cfg_prio_to_queue(cfg_prio_to_queue),
    .cfg_wd_enable(cfg_wd_enable),
    .cfg_wd_detect_time(cfg_wd_detect_time),
    .cfg_wd_restore_time(cfg_wd_restore_time),
    .cfg_wd_action(cfg_wd_action),
    .cfg_wd_storm_limit(cfg_wd_storm_limit),
    .cfg_wd_reenable(cfg_wd_reenable),
    .cfg_port_group(cfg_port_group),
    .stat_wd_storm(stat_wd_storm),
    .stat_wd_disabled(stat_wd_disabled),
    .stat_wd_storms(stat_wd_storms),
    .stat_wd_drop_frames(stat_wd_drop_frames),
    .stat_wd_fwd_frames(stat_wd_fwd_frames),
    .stat_prev_frames(stat_prev_frames),
    .stat_prev_untagged(stat_prev_untagged)
);

// ---------------------------------------------------------------------------- status
// free / used cells, queued frames, drops by reason, the cell reserve check and the error
// flags (sw_status)
sw_status #(
    .PORT_COUNT(PORT_COUNT),
    .CELL_BYTES(CELL_BYTES),
    .BUFFER_CELLS(BUFFER_CELLS),
    .CNT_W(CNT_W),
    .CELL_W(CELL_W),
    .MMU_PORTS(MMU_PORTS)
) status_inst (
    .clk(clk),
    .rst(rst),
    .spare_valid(spare_valid),
    .fl_count(fl_count),
    .fl_low_wm(fl_low_wm),
    .fl_err_underflow(fl_err_underflow),
    .fl_err_overflow(fl_err_overflow),
    .queue_enq(enq_valid),
    .queue_deq(deq_valid),
    .mmu_resp_valid(mmu_resp_valid),
    .mmu_resp_admit(mmu_resp_admit),
    .mmu_resp_reason(mmu_resp_reason),
    .mmu_cfg_done(mmu_cfg_done),
    .mmu_err_bad_config(mmu_err_bad_config),
    .cfg_buffer_cells(cfg_buffer_cells),
    .cfg_max_frame_bytes(cfg_max_frame_bytes),
    .stat_free_cells(stat_free_cells),
    .stat_free_low_wm(stat_free_low_wm),
    .stat_used_cells(stat_used_cells),
    .stat_queued_frames(stat_queued_frames),
    .stat_mmu_drop_count(stat_mmu_drop_count),
    .err_reserve(err_reserve),
    .err_free_list(err_free_list),
    .err_bad_config(err_bad_config)
);

endmodule

`resetall
