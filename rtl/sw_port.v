/*
 * sw_port: one Ethernet port of switch_core, everything of the port that is not the shared
 * buffer: the input register at the link (in_slice_inst), the ingress parser and word
 * gatherer (sw_ingress), the PFC receiver (pfc_rx) on a tap of the accepted beats, the PFC
 * request per priority from mmu_core's XOFF state, the PFC transmitter (pfc_tx) and the
 * egress serializer (sw_egress) that puts the PFC frames between data frames.
 *
 * Interfaces:
 *   s_axis_*        the link's receive stream (MAC RX side), tdest = egress port
 *   m_axis_*        the link's transmit stream (MAC TX side)
 *   m_word_*        gathered words to the write stage (sw_ingress's word FIFO; valid / ready)
 *   rx_tdest, same_group
 *                   the beat's tdest after the input register, and prevention's answer for
 *                   it (sw_pfc_guard: a port of this port's group)
 *   pause, rx_pfc_prio
 *                   pfc_rx's pause state per priority and the priorities a PFC frame named
 *   pfc_xoff        mmu_core's XOFF state of this port's PGs (PG k at [k])
 *   s_word_*, word_count
 *                   words from the read stage (no back-pressure: the read stage checks
 *                   word_count first)
 *   cfg_*           this port's configuration and the switch's global fields it reads
 *   stat_*          this port's counters (the switch registers, pfcmmu_sw_regs)
 *
 * Latency: a beat reaches sw_ingress one clock after s_axis (the input register) and pfc_rx
 * two clocks after that (the tap register and pfc_rx's IN_REG); a change of pfc_xoff in clock
 * n puts a PFC frame's first beat on pfc_tx's output in clock n + 2 on an idle port (the
 * request register req_xoff_reg, then pfc_tx); sw_egress: docs/switch_core.md.  The blocks
 * that take the link's beats leave reset a clock after the rest of the switch (rst_port).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_port #(
    // number of ports of the switch (tdest >= PORT_COUNT is a bad destination)
    parameter PORT_COUNT = 4,
    // stream width in bits (8 or 64)
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // tdest width
    parameter DEST_WIDTH = 8,
    // stream beats per buffer word
    parameter WORD_BEATS = 8,
    // frame length width in bytes
    parameter LEN_W = 14,
    // width of the byte count of one word, $clog2(WORD_BEATS*KEEP_WIDTH + 1)
    parameter WB_W = 7,
    // pfc_tx appends the FCS (0: the MAC does, as for data frames)
    parameter PFC_FCS_ENABLE = 0,
    // PFC deadlock prevention's remap in the ingress (switch_core PREVENT_ENABLE)
    parameter PREVENT_ENABLE = 0,
    // test only: sw_ingress PREVENT_FAULT_INJECT; 0 in every real build
    parameter PREVENT_FAULT_INJECT = 0,
    // egress staging words (power of two) and their pointer width
    parameter OUT_DEPTH = 2,
    parameter OUT_PTR_W = 1
) (
    input  wire                             clk,
    input  wire                             rst,

    /*
     * Link receive stream (MAC RX side)
     */
    input  wire [DATA_WIDTH-1:0]            s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]            s_axis_tkeep,
    input  wire                             s_axis_tvalid,
    output wire                             s_axis_tready,
    input  wire                             s_axis_tlast,
    input  wire                             s_axis_tuser,
    input  wire [DEST_WIDTH-1:0]            s_axis_tdest,

    /*
     * Link transmit stream (MAC TX side)
     */
    output wire [DATA_WIDTH-1:0]            m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]            m_axis_tkeep,
    output wire                             m_axis_tvalid,
    input  wire                             m_axis_tready,
    output wire                             m_axis_tlast,
    output wire                             m_axis_tuser,

    /*
     * Words to the write stage (sw_ingress: frame fields with the last word)
     */
    output wire                             m_word_valid,
    input  wire                             m_word_ready,
    output wire [WORD_BEATS*DATA_WIDTH-1:0] m_word_data,
    output wire                             m_word_last,
    output wire                             m_word_store,
    output wire [LEN_W-1:0]                 m_word_len,
    output wire [2:0]                       m_word_prio,
    output wire [DEST_WIDTH-1:0]            m_word_dest,
    output wire [3:0]                       m_word_kind,
    output wire                             m_word_remap,
    output wire                             m_word_tagged,

    /*
     * Deadlock prevention's port-group test (sw_pfc_guard)
     */
    output wire [DEST_WIDTH-1:0]            rx_tdest,
    input  wire                             same_group,

    /*
     * PFC: received pause state, mmu_core's XOFF state of the port's PGs
     */
    output wire [7:0]                       pause,
    output wire [7:0]                       rx_pfc_prio,
    input  wire [7:0]                       pfc_xoff,

    /*
     * Words from the read stage
     */
    input  wire                             s_word_valid,
    input  wire [WORD_BEATS*DATA_WIDTH-1:0] s_word_data,
    input  wire [WB_W-1:0]                  s_word_bytes,
    input  wire                             s_word_last,
    output wire [OUT_PTR_W:0]               word_count,

    /*
     * Configuration: the port's own (priority k at [k*3 +: 3] of cfg_prio_to_pg), the
     * switch's global fields
     */
    input  wire [2:0]                       cfg_default_prio,
    input  wire [8*3-1:0]                   cfg_prio_to_pg,
    input  wire                             cfg_link_pause_enable,
    input  wire [47:0]                      cfg_src_mac,
    input  wire [31:0]                      cfg_max_frame_bytes,
    input  wire [31:0]                      cfg_stall_clocks,
    input  wire [7:0]                       cfg_prev_enable,
    input  wire [8*3-1:0]                   cfg_prev_alt_prio,
    input  wire [8*6-1:0]                   cfg_prev_alt_dscp,
    input  wire [8*16-1:0]                  cfg_pause_quanta,
    input  wire [15:0]                      cfg_refresh_quanta,
    input  wire [23:0]                      cfg_quanta_step,

    /*
     * Status: the port's counters (sw_ingress's classes, sw_egress's data frames)
     */
    output wire [31:0]                      stat_rx_frames,
    output wire [31:0]                      stat_rx_bytes,
    output wire [31:0]                      stat_drop_error,
    output wire [31:0]                      stat_drop_runt,
    output wire [31:0]                      stat_drop_oversize,
    output wire [31:0]                      stat_pfc_rx_frames,
    output wire [31:0]                      stat_pause_rx_frames,
    output wire [31:0]                      stat_ctrl_unknown,
    output wire [31:0]                      stat_ctrl_malformed,
    output wire [31:0]                      stat_drop_malformed,
    output wire [31:0]                      stat_drop_bad_dest,
    output wire [31:0]                      stat_drop_stall,
    output wire [31:0]                      stat_tx_frames,
    output wire [31:0]                      stat_tx_bytes
);

localparam KW = KEEP_WIDTH;

// the link's beats after the input register
wire [DATA_WIDTH-1:0]   rx_tdata;
wire [KW-1:0]           rx_tkeep;
wire                    rx_tvalid, rx_tready, rx_tlast, rx_tuser;
// the ingress parser's decision at tlast: pfc_rx may load its timers from this frame
wire                    ctrl_apply;
// pfc_tx's frames into sw_egress
wire [DATA_WIDTH-1:0]   pfc_tdata;
wire [KW-1:0]           pfc_tkeep;
wire                    pfc_tvalid, pfc_tready, pfc_tlast, pfc_tuser;

// Sub-block outputs left open below are status the switch does not export (pfc_tx / pfc_rx
// counters: the switch exports its own parser's count of the PFC frames consumed, sw_ingress's;
// the word byte count, implied by the frame length: only the last word is short; FIFO counts):
// open on purpose.
/* verilator lint_off PINCONNECTEMPTY */

// the port's own copy of the reset for the blocks that take the link's beats (keep: not
// merged with the other ports' copies), so the reset reaches them from a register placed
// beside them; they leave reset a clock after the rest of the switch, and the port is not
// ready meanwhile
reg rst_port;
(* keep *) always @(posedge clk) rst_port <= rst;

// input register stage at the link (the MAC boundary): every beat is registered before any
// logic of the port sees it, and tready is a register (a two-entry sw_fifo: full rate, one
// clock of latency)
localparam SL_W = DATA_WIDTH + KW + 2 + DEST_WIDTH;
wire slice_ready;
sw_fifo #(
    .WIDTH(SL_W),
    .DEPTH(2),
    .PTR_W(1)
) in_slice_inst (
    .clk(clk),
    .rst(rst_port),
    .s_valid(s_axis_tvalid),
    .s_ready(slice_ready),
    .s_data({s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser, s_axis_tdest}),
    .m_valid(rx_tvalid),
    .m_ready(rx_tready),
    .m_data({rx_tdata, rx_tkeep, rx_tlast, rx_tuser, rx_tdest}),
    .count()
);
// (a beat offered while rst_port is high is not taken: the slice is held in reset)
assign s_axis_tready = slice_ready && !rst_port;

sw_ingress #(
    .PORT_COUNT(PORT_COUNT),
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KW),
    .DEST_WIDTH(DEST_WIDTH),
    .WORD_BEATS(WORD_BEATS),
    .LEN_W(LEN_W),
    .WB_W(WB_W),
    .PREVENT_ENABLE(PREVENT_ENABLE),
    .PREVENT_FAULT_INJECT(PREVENT_FAULT_INJECT)
) ingress_inst (
    .clk(clk),
    .rst(rst_port),
    .s_axis_tdata(rx_tdata),
    .s_axis_tkeep(rx_tkeep),
    .s_axis_tvalid(rx_tvalid),
    .s_axis_tready(rx_tready),
    .s_axis_tlast(rx_tlast),
    .s_axis_tuser(rx_tuser),
    .s_axis_tdest(rx_tdest),
    .s_axis_same_group(same_group),
    .m_word_valid(m_word_valid),
    .m_word_ready(m_word_ready),
    .m_word_data(m_word_data),
    .m_word_bytes(),
    .m_word_last(m_word_last),
    .m_word_store(m_word_store),
    .m_word_len(m_word_len),
    .m_word_prio(m_word_prio),
    .m_word_dest(m_word_dest),
    .m_word_kind(m_word_kind),
    .m_word_remap(m_word_remap),
    .m_word_tagged(m_word_tagged),
    .m_ctrl_apply(ctrl_apply),
    .cfg_default_prio(cfg_default_prio),
    .cfg_max_frame_bytes(cfg_max_frame_bytes),
    .cfg_link_pause_enable(cfg_link_pause_enable),
    .cfg_stall_clocks(cfg_stall_clocks),
    .cfg_prev_enable(cfg_prev_enable),
    .cfg_prev_alt_prio(cfg_prev_alt_prio),
    .cfg_prev_alt_dscp(cfg_prev_alt_dscp),
    .stat_rx_frames(stat_rx_frames),
    .stat_rx_bytes(stat_rx_bytes),
    .stat_drop_error(stat_drop_error),
    .stat_drop_runt(stat_drop_runt),
    .stat_drop_oversize(stat_drop_oversize),
    .stat_pfc_frames(stat_pfc_rx_frames),
    .stat_pause_frames(stat_pause_rx_frames),
    .stat_ctrl_unknown(stat_ctrl_unknown),
    .stat_ctrl_malformed(stat_ctrl_malformed),
    .stat_drop_malformed(stat_drop_malformed),
    .stat_drop_bad_dest(stat_drop_bad_dest),
    .stat_drop_stall(stat_drop_stall)
);

// pfc_rx watches the accepted beats through a register of the tap and its own input register
// (IN_REG, in copies): two clocks later.  Its tuser is sw_ingress's decision, not the link's:
// set on the tlast of every frame the ingress did not classify as PFC (or as PAUSE on a port
// that honours PAUSE), so one classification per frame decides both whether it is forwarded
// and whether it moves a pause timer (docs/switch_core.md "Bad input").  The tap register
// holds that decision, so the last beat's checks end at one flip-flop beside the ingress, not
// at every copy of pfc_rx's input register.
reg [DATA_WIDTH-1:0] tap_tdata_reg;
reg [KW-1:0]         tap_tkeep_reg;
reg                  tap_tvalid_reg, tap_tlast_reg, tap_tuser_reg;
always @(posedge clk) begin
    tap_tdata_reg <= rx_tdata;
    tap_tkeep_reg <= rx_tkeep;
    tap_tvalid_reg <= rx_tvalid && rx_tready;
    tap_tlast_reg <= rx_tlast;
    tap_tuser_reg <= rx_tlast && !ctrl_apply;
    if (rst_port) begin
        tap_tvalid_reg <= 1'b0;
    end
end

pfc_rx #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KW),
    .IN_REG(1),
    .LINK_PAUSE_ENABLE(1)
) pfc_rx_inst (
    .clk(clk),
    .rst(rst_port),
    .s_axis_tdata(tap_tdata_reg),
    .s_axis_tkeep(tap_tkeep_reg),
    .s_axis_tvalid(tap_tvalid_reg),
    .s_axis_tlast(tap_tlast_reg),
    .s_axis_tuser(tap_tuser_reg),
    .cfg_quanta_step(cfg_quanta_step),
    .pause(pause),
    .rx_pfc_prio(rx_pfc_prio),
    .stat_pfc_frames(),
    .stat_pause_frames(),
    .stat_xoff_rx(),
    .stat_xon_rx(),
    .stat_malformed(),
    .is_pfc(),
    .is_mac_ctrl()
);

// 802.1Qbb: the request for priority k is the XOFF state of the PG k maps to, registered
// beside the port's pfc_tx (mmu_core's pfc_xoff and the map come from registers across the
// die; pfc_tx's own logic starts at this register)
reg [7:0] req_xoff_reg;
genvar gk;
generate
    for (gk = 0; gk < 8; gk = gk + 1) begin : prio
        always @(posedge clk) begin
            req_xoff_reg[gk] <= pfc_xoff[cfg_prio_to_pg[gk*3 +: 3]];
            if (rst) begin
                req_xoff_reg[gk] <= 1'b0;
            end
        end
    end
endgenerate

pfc_tx #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KW),
    .FCS_ENABLE(PFC_FCS_ENABLE),
    .LINK_PAUSE_ENABLE(0)
) pfc_tx_inst (
    .clk(clk),
    .rst(rst),
    .req_xoff(req_xoff_reg),
    .req_link_pause(1'b0),
    .m_axis_tdata(pfc_tdata),
    .m_axis_tkeep(pfc_tkeep),
    .m_axis_tvalid(pfc_tvalid),
    .m_axis_tready(pfc_tready),
    .m_axis_tlast(pfc_tlast),
    .m_axis_tuser(pfc_tuser),
    .cfg_src_mac(cfg_src_mac),
    .cfg_pause_quanta(cfg_pause_quanta),
    .cfg_refresh_quanta(cfg_refresh_quanta),
    .cfg_quanta_step(cfg_quanta_step),
    .cfg_link_pause_quanta(16'd0),
    .busy(),
    .stat_xoff_frames(),
    .stat_xon_frames(),
    .stat_link_xoff_frames(),
    .stat_link_xon_frames()
);

sw_egress #(
    .DATA_WIDTH(DATA_WIDTH),
    .KEEP_WIDTH(KW),
    .WORD_BEATS(WORD_BEATS),
    .WB_W(WB_W),
    .FIFO_DEPTH(OUT_DEPTH),
    .FIFO_PTR_W(OUT_PTR_W)
) egress_inst (
    .clk(clk),
    .rst(rst),
    .s_word_valid(s_word_valid),
    .s_word_data(s_word_data),
    .s_word_bytes(s_word_bytes),
    .s_word_last(s_word_last),
    .word_count(word_count),
    .s_pfc_tdata(pfc_tdata),
    .s_pfc_tkeep(pfc_tkeep),
    .s_pfc_tvalid(pfc_tvalid),
    .s_pfc_tready(pfc_tready),
    .s_pfc_tlast(pfc_tlast),
    .s_pfc_tuser(pfc_tuser),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(m_axis_tuser),
    .stat_tx_frames(stat_tx_frames),
    .stat_tx_bytes(stat_tx_bytes)
);

/* verilator lint_on PINCONNECTEMPTY */

endmodule

`resetall
