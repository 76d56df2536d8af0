/*
 * Ingress port of switch_core: frame parser, bad-frame classification and the gather stage
 * that packs WORD_BEATS stream beats into one wide buffer word.
 *
 * Frames on the stream carry no FCS (the MAC checks and strips it on receive and appends it
 * on transmit); tuser on any beat marks a bad frame (bad FCS / MAC error).
 *
 *  Field                       Offset   Used for
 *  Destination MAC             0..5     01-80-C2-00-00-01: MAC Control, consumed
 *  Source MAC                  6..11    -
 *  EtherType / TPID            12..13   0x8808: MAC Control, consumed; 0x8100: 802.1Q tag
 *  TCI / MAC Control opcode    14..15   PCP = TCI[15:13] (byte 14 bits 7:5) = priority;
 *                                       opcode 0x0101 PFC, 0x0001 802.3x PAUSE
 *  EtherType (tagged)          16..17   0x0800: IPv4 (prevention rewrite)
 *  IPv4 TOS (tagged)           19       DSCP = bits 7:2, ECN = bits 1:0
 *  IPv4 header checksum        28..29   (tagged frame: 14 + 4 + 10)
 *
 * Deadlock prevention (PREVENT_ENABLE, docs/watchdog.md "Prevention"): s_axis_same_group
 * (with the frame's first beat: its tdest is a port of this port's group) and a protected
 * priority k (PCP, or cfg_default_prio if untagged) remap the frame to cfg_prev_alt_prio[k]:
 * m_word_prio is the alternate priority, and a tagged frame's bytes are rewritten in the
 * gathered word before it is stored: PCP <- alternate priority (DEI, VID kept); if IPv4
 * (EtherType 0x0800 after the tag) DSCP <- cfg_prev_alt_dscp[k] (ECN kept) and the header
 * checksum updated incrementally, RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m') in one's complement
 * (m, m': the old and new 16-bit word holding the TOS; the version / IHL byte is the same in
 * both, so it cancels and only the TOS byte enters).  An untagged frame is remapped in queue
 * and PG only, its bytes unchanged.  Frames carry no FCS here, so no FCS to recompute.  The
 * rewrite works on word-aligned byte lanes: a word holds WORD_BEATS*KEEP_WIDTH bytes of the
 * frame, so byte b is lane b % WORD_BYTES of word b / WORD_BYTES (every beat before tlast is
 * full); bytes 28 and 29 must share a word (checked at elaboration).
 * Stream: every beat before a frame's tlast is full (tkeep all ones, as a MAC delivers it);
 * only the last beat may be partial, with tkeep contiguous from lane 0 and not empty.  The
 * header positions and the length checks depend on it; a frame that breaks it (a hole in
 * tkeep, an empty beat) is malformed.
 *
 * The one decision per received frame (docs/switch_core.md "Bad input"), at tlast, first
 * match wins, each class counted in its own stat_* counter:
 *   error      tuser on any beat                                   stat_drop_error
 *   malformed  a beat before tlast not full, or a last beat with    stat_drop_malformed
 *              an empty or non-contiguous tkeep
 *   oversize   length above cfg_max_frame_bytes                    stat_drop_oversize
 *   runt       below 60 bytes                                      stat_drop_runt
 *   MAC Control (IEEE 802.3 Annex 31B; EtherType 0x8808 or destination 01-80-C2-00-00-01,
 *              consumed, never forwarded):
 *     PFC      0x8808 to 01-80-C2-00-00-01, opcode 0x0101          stat_pfc_frames
 *     PAUSE    0x8808 to 01-80-C2-00-00-01, opcode 0x0001          stat_pause_frames
 *              (honoured when cfg_link_pause_enable, else only counted)
 *     unknown  0x8808 to 01-80-C2-00-00-01, another opcode         stat_ctrl_unknown
 *     other    0x8808 to another address, or the address with      stat_ctrl_malformed
 *              another EtherType
 *   bad dest   tdest >= PORT_COUNT                                 stat_drop_bad_dest
 *   good       the rest: to the admission core
 * m_ctrl_apply pulses with tlast of a frame whose pause timers pfc_rx may load (PFC, or PAUSE
 * with cfg_link_pause_enable); switch_core feeds pfc_rx its inverse as tuser, so the timers
 * follow this classification and no other.
 * A frame that stalls (tvalid low after its first beat, before tlast) for cfg_stall_clocks
 * clocks (0: never) is cut: its last word goes to the buffer stage as kind stall (no data),
 * so its cells are returned, counted in stat_drop_stall; the beats that follow, up to and
 * including the next tlast, are accepted and discarded.
 * Words of a frame past cfg_max_frame_bytes are marked store = 0 and never take a cell; the
 * frame's last word always reaches the buffer stage (with its classification), so the frame's
 * cells are returned.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_ingress #(
    // number of switch ports (tdest at or above it: bad dest)
    parameter PORT_COUNT = 4,
    // stream width in bits (8 or 64)
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // tdest width (egress port)
    parameter DEST_WIDTH = 8,
    // stream beats per buffer word
    parameter WORD_BEATS = 8,
    // frame length width in bytes
    parameter LEN_W = 14,
    // width of the byte count of one word, $clog2(WORD_BEATS*KEEP_WIDTH + 1)
    parameter WB_W = 7,
    // staging words (power of two)
    parameter FIFO_DEPTH = 2,
    parameter FIFO_PTR_W = 1,
    // deadlock prevention remap and rewrite (0: none, m_word_prio is the frame's priority)
    parameter PREVENT_ENABLE = 0,
    // test only: 1 drops the end-around carry of the checksum update (a wrong checksum for
    // the testbench to catch); 0 in every real build
    parameter PREVENT_FAULT_INJECT = 0
) (
    input  wire                             clk,
    input  wire                             rst,

    /*
     * Frames in (MAC RX side)
     */
    input  wire [DATA_WIDTH-1:0]            s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]            s_axis_tkeep,
    input  wire                             s_axis_tvalid,
    output wire                             s_axis_tready,
    input  wire                             s_axis_tlast,
    input  wire                             s_axis_tuser,
    input  wire [DEST_WIDTH-1:0]            s_axis_tdest,
    // sideband of the beat: tdest is a port of this port's group (prevention; first beat)
    input  wire                             s_axis_same_group,

    /*
     * Words out (to the buffer write stage); the frame fields are valid with m_word_last
     */
    output wire                             m_word_valid,
    input  wire                             m_word_ready,
    output wire [WORD_BEATS*DATA_WIDTH-1:0] m_word_data,
    output wire [WB_W-1:0]                  m_word_bytes,
    output wire                             m_word_last,
    output wire                             m_word_store,
    output wire [LEN_W-1:0]                 m_word_len,
    output wire [2:0]                       m_word_prio,
    output wire [DEST_WIDTH-1:0]            m_word_dest,
    output wire [3:0]                       m_word_kind,
    // prevention: the frame was remapped to its alternate priority (m_word_prio is it), and
    // the frame was tagged (else: queue / PG remapped, bytes unchanged)
    output wire                             m_word_remap,
    output wire                             m_word_tagged,
    // pulses with the tlast beat of a PFC frame, or of a PAUSE frame with
    // cfg_link_pause_enable: pfc_rx may act on it
    output wire                             m_ctrl_apply,

    /*
     * Configuration
     */
    input  wire [2:0]                       cfg_default_prio,
    input  wire [31:0]                      cfg_max_frame_bytes,
    // 802.3x PAUSE frames pause every priority (else counted and dropped)
    input  wire                             cfg_link_pause_enable,
    // clocks a frame may stall between beats before it is cut (0: never cut)
    input  wire [31:0]                      cfg_stall_clocks,
    input  wire [7:0]                       cfg_prev_enable,
    input  wire [8*3-1:0]                   cfg_prev_alt_prio,
    input  wire [8*6-1:0]                   cfg_prev_alt_dscp,

    /*
     * Status
     */
    output wire [31:0]                      stat_rx_frames,
    output wire [31:0]                      stat_rx_bytes,
    output wire [31:0]                      stat_drop_error,
    output wire [31:0]                      stat_drop_runt,
    output wire [31:0]                      stat_drop_oversize,
    output wire [31:0]                      stat_pfc_frames,
    output wire [31:0]                      stat_pause_frames,
    output wire [31:0]                      stat_ctrl_unknown,
    output wire [31:0]                      stat_ctrl_malformed,
    output wire [31:0]                      stat_drop_malformed,
    output wire [31:0]                      stat_drop_bad_dest,
    output wire [31:0]                      stat_drop_stall
);

// frame classes (m_word_kind; switch_core stores only KIND_GOOD frames)
localparam [3:0] KIND_GOOD = 4'd0, KIND_ERROR = 4'd1, KIND_RUNT = 4'd2,
                 KIND_OVERSIZE = 4'd3, KIND_PFC = 4'd4, KIND_PAUSE = 4'd5,
                 KIND_CTRL_UNKNOWN = 4'd6, KIND_CTRL_MALFORMED = 4'd7,
                 KIND_MALFORMED = 4'd8, KIND_BAD_DEST = 4'd9, KIND_STALL = 4'd10;
localparam [47:0] PFC_DA = 48'h0180C2000001;
localparam WORD_W = WORD_BEATS * DATA_WIDTH;
localparam BI_W = WORD_BEATS > 1 ? $clog2(WORD_BEATS) : 1;
localparam integer BEAT_LAST_I = WORD_BEATS - 1;
localparam [BI_W-1:0] BEAT_LAST = BEAT_LAST_I[BI_W-1:0];
localparam ENTRY_W = WORD_W + WB_W + 2 + LEN_W + 3 + DEST_WIDTH + 4 + 2;
localparam MIN_LEN = 60;
// byte lanes of the prevention rewrite: word index and lane of frame bytes 14, 19, 28, 29
localparam integer WORD_BYTES = WORD_BEATS * KEEP_WIDTH;
localparam integer W_PCP = 14 / WORD_BYTES, L_PCP = 14 % WORD_BYTES;
localparam integer W_TOS = 19 / WORD_BYTES, L_TOS = 19 % WORD_BYTES;
localparam integer W_CSUM = 28 / WORD_BYTES, L_CSUM = 28 % WORD_BYTES;
localparam integer WIDX_MAX = 31;

initial begin
    if (KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("sw_ingress: DATA_WIDTH must be 8 * KEEP_WIDTH");
        $finish;
    end
    if (PREVENT_ENABLE != 0 && 29 / WORD_BYTES != W_CSUM) begin
        $error("sw_ingress: prevention needs IPv4 checksum bytes 28, 29 in one word");
        $finish;
    end
end

// the frame's length if this beat holds k bytes, for k = 0 .. KEEP_WIDTH: the bytes before the
// beat plus k, saturating at the largest LEN_W-bit value (every beat before tlast is full, so
// each moves by KEEP_WIDTH per beat, from registers); the beat's size only selects one
reg [(KEEP_WIDTH+1)*LEN_W-1:0] len_k_reg;
reg [4:0]        bidx_reg;       // beats of the frame before this one (saturating at 31)
// timing: the classification at tlast works on registered flags, not on this beat's sum
reg              first_reg;      // this beat starts a frame
// the length checks of the next beat, all registered: rem_reg = cfg_max_frame_bytes minus the
// bytes of the frame before that beat (two's complement; at a frame's first beat the maximum
// itself, followed from a registered copy of the configuration every clock between frames, so
// a change of cfg_max_frame_bytes applies from the first beat two clocks after it), ov_reg[b] = a
// beat of b bytes (b = 0..KEEP_WIDTH) goes past the maximum, and short_reg, a thermometer of
// the bytes still missing to MIN_LEN: short_reg[j] = more than j bytes missing, so a last beat
// of b bytes makes a runt when short_reg[b] (a beat of b bytes shifts it right by b).  At the
// beat only its size selects a flag: no subtraction or compare sits between the beat and the
// classification, and the flags' own updates have one carry chain at most.
reg [32:0]       rem_reg;
reg              rem_neg_reg;    // rem_reg < 0: an earlier beat went past the maximum
reg [KEEP_WIDTH:0] ov_reg;
reg [MIN_LEN-1:0] short_reg;
// the header, captured by position: a header register loads the lane of its byte whenever the
// beat count points at that byte's beat, taken or not (bidx_reg moves only with a taken beat,
// so the last load before it moves is the taken beat's byte), and the frame-start clear comes a
// clock after the frame's end (hdr_clear_reg).  No handshake reaches these registers, and the
// classification at tlast reads only the header's verdict (below), taken from earlier beats.
reg              hdr_clear_reg;  // the parser started over a clock ago: clear the header
reg [5:0]        da_hit_reg;     // destination byte k equals 01-80-C2-00-00-01's byte k
reg [15:0]       ethertype_reg;
reg [7:0]        tci_hi_reg;     // byte 14: PCP when tagged, opcode high byte of MAC Control
reg [7:0]        op_lo_reg;      // byte 15: opcode low byte of MAC Control
reg              hole_reg;       // a beat of this frame before tlast was not full
// the header's verdict in two registered steps after the header registers (so final three
// clocks after a header byte's beat, before a non-runt's tlast): the field compares (the
// destination, EtherType 0x8808 / 0x8100, opcode 0x0101 / 0x0001), then MAC Control
// (destination or EtherType) and its class, PFC and PAUSE apart for m_ctrl_apply
reg              da_ok_reg;
reg              type_ctrl_reg;
reg              op_pfc_reg;
reg              op_pause_reg;
reg              hdr_tag_reg;    // the 802.1Q tag (the first step)
reg              hdr_ctrl_reg;
reg [3:0]        hdr_kind_reg;
reg              hdr_pfc_reg;
reg              hdr_pause_reg;
// stall cut: clocks without a beat inside a frame; the cut waits for room in the FIFO
// (s_axis_tready low meanwhile), then the rest of the frame is discarded (cut_reg)
reg [31:0]       stall_cnt_reg;
// stall_cnt_reg + 1 >= cfg_stall_clocks (and cfg_stall_clocks != 0), computed a clock ahead
// for the count the register takes, so the cut starts at a flip-flop: the count either
// restarts at 0 (then the flag is cfg_stall_clocks == 1) or goes up by one (then it is
// stall_cnt_reg >= cfg_stall_clocks - 2, one compare of registers against the registered
// limit); the beat's handshake only selects between the two.  A new cfg_stall_clocks applies
// two clocks after its write.
reg              stall_ge_reg;
reg              stall_en_reg;    // cfg_stall_clocks != 0
reg              stall_one_reg;   // cfg_stall_clocks == 1
reg signed [33:0] stall_lim_reg;  // cfg_stall_clocks - 2
reg              cut_pend_reg;
reg              cut_reg;
reg              blk_reg;         // cut_pend_reg || cut_reg, one flag for take
reg [15:0]       inner_type_reg;  // EtherType after the 802.1Q tag (bytes 16..17)
reg [7:0]        tos_reg;         // byte 19
reg              same_group_reg;  // latched with the frame's first beat
reg [4:0]        widx_reg;        // word of the frame being gathered (saturating)
reg              err_reg;
reg [BI_W-1:0]   beat_reg;
reg [WB_W-1:0]   word_bytes_reg;
reg [WORD_W-1:0] gather_reg;
reg [31:0]       rx_frames_reg, rx_bytes_reg, drop_error_reg, drop_runt_reg;
reg [31:0]       drop_oversize_reg, pfc_frames_reg;
reg [31:0]       pause_frames_reg, ctrl_unknown_reg, ctrl_malformed_reg;
reg [31:0]       drop_malformed_reg, drop_bad_dest_reg, drop_stall_reg;

wire [4:0] bidx_succ = (bidx_reg != 5'd31) ? bidx_reg + 5'd1 : bidx_reg;

wire fifo_ready;
wire fire = s_axis_tvalid && s_axis_tready;
// a beat of a frame being cut is accepted and discarded; the parse sees only the others
wire take = s_axis_tvalid && fifo_ready && !blk_reg;
wire cut_push = cut_pend_reg && fifo_ready;
// the parser starts over: after a frame's tlast, after a cut, at reset
wire parse_start = (take && s_axis_tlast) || cut_push || rst;
// the frame has stalled for cfg_stall_clocks clocks after this one
wire in_frame = !first_reg && !cut_reg && !cut_pend_reg;
wire stall_due = stall_ge_reg && in_frame && !s_axis_tvalid;
// the count goes up (else it restarts at 0: at reset, on a beat or outside a frame, which
// includes a cut pending or being pushed)
wire stall_inc = !rst && in_frame && !s_axis_tvalid;
wire stall_ge_inc = $signed({2'b00, stall_cnt_reg}) >= stall_lim_reg;
assign s_axis_tready = fifo_ready && !cut_pend_reg;

// this beat's contribution; the *_next header fields are the header as of this beat (the
// registers with this beat's bytes over them), for the prevention rewrite inside the first words
reg [WB_W-1:0]   beat_bytes;
reg [15:0]       ethertype_next;
reg [2:0]        pcp_next;       // byte 14 bits 7:5
reg [15:0]       inner_type_next;
reg [7:0]        tos_next;
reg [WORD_W-1:0] gather_next;
integer i;
integer pos;
integer k;
always @* begin
    beat_bytes = {WB_W{1'b0}};
    pos = 0;
    ethertype_next = ethertype_reg;
    pcp_next = tci_hi_reg[7:5];
    inner_type_next = inner_type_reg;
    tos_next = tos_reg;
    for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
        if (s_axis_tkeep[i]) begin
            beat_bytes = beat_bytes + 1'b1;
            // every beat before tlast is full, so the byte's position follows from the beat
            // count (no adder in front of the header compares)
            pos = {27'd0, bidx_reg} * KEEP_WIDTH + i;
            if (pos == 12) begin
                ethertype_next[15:8] = s_axis_tdata[i*8 +: 8];
            end
            if (pos == 13) begin
                ethertype_next[7:0] = s_axis_tdata[i*8 +: 8];
            end
            if (pos == 14) begin
                pcp_next = s_axis_tdata[i*8 + 5 +: 3];
            end
            if (pos == 16) begin
                inner_type_next[15:8] = s_axis_tdata[i*8 +: 8];
            end
            if (pos == 17) begin
                inner_type_next[7:0] = s_axis_tdata[i*8 +: 8];
            end
            if (pos == 19) begin
                tos_next = s_axis_tdata[i*8 +: 8];
            end
        end
    end
    gather_next = gather_reg;
    gather_next[beat_reg*DATA_WIDTH +: DATA_WIDTH] = s_axis_tdata;
end

// frame byte p is in the beat at bidx_reg (every beat before tlast is full: lane
// p % KEEP_WIDTH of beat p / KEEP_WIDTH), and that lane of the stream
function at_byte(input [4:0] b, input integer p);
    at_byte = {27'd0, b} == p / KEEP_WIDTH;
endfunction
function [7:0] lane_of(input [DATA_WIDTH-1:0] d, input integer p);
    lane_of = d[(p % KEEP_WIDTH)*8 +: 8];
endfunction

wire err_next = err_reg || s_axis_tuser;
// tkeep: full before tlast; on tlast contiguous from lane 0 and not empty
localparam [KEEP_WIDTH-1:0] KEEP_FULL = {KEEP_WIDTH{1'b1}};
wire keep_last_ok = s_axis_tkeep != {KEEP_WIDTH{1'b0}}
                    && (s_axis_tkeep & (s_axis_tkeep + 1'b1)) == {KEEP_WIDTH{1'b0}};
wire malformed = hole_reg || !keep_last_ok;
wire hole_next = hole_reg || s_axis_tkeep != KEEP_FULL;
// length above cfg_max_frame_bytes: this beat's bytes exceed what was left (or an earlier
// beat's did); shorter than MIN_LEN (the flags above)
// (a beat holds at most KEEP_WIDTH bytes: its size in KB_W bits indexes the flags)
localparam KB_W = $clog2(KEEP_WIDTH + 1);
wire [KB_W-1:0] beat_n = beat_bytes[KB_W-1:0];
wire oversize = rem_neg_reg || ov_reg[beat_n];
// (the thermometer as of this beat: all ones at a frame's first beat, see short_upd)
wire [MIN_LEN-1:0] short_base = short_reg | {MIN_LEN{first_reg}};
wire [KEEP_WIDTH:0] short_lo = short_base[KEEP_WIDTH:0];
wire runt = short_lo[beat_n];
// a beat before tlast is full (KEEP_WIDTH bytes; see the header), and tlast (or, for the runt
// thermometer, the next first_reg) reloads the
// checks: so the updates take a constant, not the beat's size (no carry chain from tkeep)
localparam integer KEEP_I = KEEP_WIDTH;
localparam [32:0] KEEP_33 = {1'b0, KEEP_I[31:0]};
wire [32:0] rem_next = rem_reg - KEEP_33;
// ov flags of a remainder: ov[b] = rem < b (b = 0..KEEP_WIDTH; a negative rem is flagged by
// rem_neg_reg): the high bits zero and the low ones below b, no 33-bit compare
function [KEEP_WIDTH:0] ov_of(input [32:0] r);
    integer b;
    begin
        for (b = 0; b <= KEEP_WIDTH; b = b + 1) begin
            ov_of[b] = r[32:KB_W+1] == {(32-KB_W){1'b0}} && r[KB_W:0] < b[KB_W:0];
        end
    end
endfunction
// ov_of(r - KEEP_WIDTH), from r itself (no subtraction in front of the flags): r - K < b with
// r - K >= 0 is K <= r < K + b, and K + b <= 2 K fits the low KB_W + 1 bits
function [KEEP_WIDTH:0] ov_dec_of(input [32:0] r);
    integer b;
    begin
        for (b = 0; b <= KEEP_WIDTH; b = b + 1) begin
            ov_dec_of[b] = r[32:KB_W+1] == {(32-KB_W){1'b0}}
                           && {1'b0, r[KB_W:0]} >= KEEP_I[KB_W+1:0]
                           && {1'b0, r[KB_W:0]} < KEEP_I[KB_W+1:0] + b[KB_W+1:0];
        end
    end
endfunction
// the values the next beat sees and their flags: the flags of each candidate (the maximum, a
// full beat less, unchanged) are computed from registers and the configuration, and the beat's
// handshake only selects among them (it comes from the link's registers across the die)
// The maximum and its flags come from registers (max_reg, ov_cfg_reg: a new
// cfg_max_frame_bytes applies from the first beat two clocks after it).  A frame starts with
// first_reg set and no beat taken (after a tlast, a cut or a reset the next clock loads the
// maximum: a cut frame's remaining beats and the reset's clocks are never taken), so only the
// handshake, tlast and first_reg select the next value.
reg [31:0]         max_reg;
reg [KEEP_WIDTH:0] ov_cfg_reg;
wire [KEEP_WIDTH:0] ov_cfg = ov_cfg_reg;
wire [KEEP_WIDTH:0] ov_dec = ov_dec_of(rem_reg);
reg [32:0]         rem_upd;
reg [MIN_LEN-1:0]  short_upd;
/* verilator lint_off UNUSEDSIGNAL */
reg [KEEP_WIDTH:0] ov_upd;         // (bit 0 unused: ov_reg[0] is the constant 0)
/* verilator lint_on UNUSEDSIGNAL */
always @* begin
    if (take) begin
        rem_upd = s_axis_tlast ? {1'b0, max_reg} : rem_next;
        ov_upd = s_axis_tlast ? ov_cfg : ov_dec;
    end else begin
        rem_upd = first_reg ? {1'b0, max_reg} : rem_reg;
        ov_upd = first_reg ? ov_cfg : ov_reg;
    end
    // the thermometer restarts from first_reg (a register) rather than from the beat's tlast:
    // a frame's first beat reads all ones through short_base, so the value left after a
    // tlast does not matter.  Written as AND / OR, not as a select with constant inputs,
    // which Yosys turns into a set-reset net driven by the handshake's logic
    short_upd = ((short_base >> KEEP_WIDTH) & {MIN_LEN{take}})
                | (short_base & {MIN_LEN{!take}});
end
// MAC Control / tag from the registered header: a frame that is not a runt (which wins over
// the header classes) has its header (bytes 0..19) in beats three or more before its last
// (bytes 0..15 in beats 0..15 at DATA_WIDTH 8, last beat 59 or later; beats 0..1 at 64, last
// 7 or later), so the verdict registers (hdr_*_reg, three clocks after a header byte's beat)
// hold the frame's header at its tlast
wire ctrl_ok = da_ok_reg && type_ctrl_reg;
reg [3:0] hdr_kind;
always @* begin
    if (!ctrl_ok) begin
        hdr_kind = KIND_CTRL_MALFORMED;
    end else if (op_pfc_reg) begin
        hdr_kind = KIND_PFC;
    end else if (op_pause_reg) begin
        hdr_kind = KIND_PAUSE;
    end else begin
        hdr_kind = KIND_CTRL_UNKNOWN;
    end
end
wire dest_bad = {{(32-DEST_WIDTH){1'b0}}, s_axis_tdest} >= PORT_COUNT;
// the header as of this beat, for the prevention rewrite inside the first words
wire has_tag = ethertype_next == 16'h8100;
wire word_done = s_axis_tlast || beat_reg == BEAT_LAST;

reg [3:0] kind;
always @* begin
    if (err_next) begin
        kind = KIND_ERROR;
    end else if (malformed) begin
        kind = KIND_MALFORMED;
    end else if (oversize) begin
        kind = KIND_OVERSIZE;
    end else if (runt) begin
        kind = KIND_RUNT;
    end else if (hdr_ctrl_reg) begin
        kind = hdr_kind_reg;
    end else if (dest_bad) begin
        kind = KIND_BAD_DEST;
    end else begin
        kind = KIND_GOOD;
    end
end
// the same as kind PFC, or kind PAUSE when enabled, written flat: the header's part comes from
// registers, only the last beat's checks sit in front of pfc_rx's input register
wire ctrl_acts = hdr_pfc_reg || (hdr_pause_reg && cfg_link_pause_enable);
assign m_ctrl_apply = take && s_axis_tlast && ctrl_acts && !err_next && !malformed && !oversize
                      && !runt;

wire [LEN_W-1:0] len_out = len_k_reg[beat_n*LEN_W +: LEN_W];
// each length a full beat later, saturating (min(min(x, M) + K, M) = min(x + K, M))
localparam [LEN_W:0] LEN_MAX = {1'b0, {LEN_W{1'b1}}};
wire [(KEEP_WIDTH+1)*LEN_W-1:0] len_k_full;
wire [(KEEP_WIDTH+1)*LEN_W-1:0] len_k_first;   // at a frame's first beat: k
genvar glk;
generate
    for (glk = 0; glk <= KEEP_WIDTH; glk = glk + 1) begin : lenk
        localparam [LEN_W-1:0] K_FIRST = glk;
        wire [LEN_W:0] sum = {1'b0, len_k_reg[glk*LEN_W +: LEN_W]} + KEEP_I[LEN_W:0];
        assign len_k_full[glk*LEN_W +: LEN_W] = sum > LEN_MAX ? LEN_MAX[LEN_W-1:0]
                                                              : sum[LEN_W-1:0];
        assign len_k_first[glk*LEN_W +: LEN_W] = K_FIRST;
    end
endgenerate
wire [2:0] prio = has_tag ? pcp_next : cfg_default_prio;
// the frame's priority at its last word (registered header, see hdr_tag_reg)
wire [2:0] prio_last = hdr_tag_reg ? tci_hi_reg[7:5] : cfg_default_prio;

// ---- deadlock prevention: remap decision and the rewrite of the gathered word
wire [WORD_W-1:0] word_out;
wire              remap;
wire [2:0]        prio_out;

generate
    if (PREVENT_ENABLE != 0) begin : prevent
        wire       same_group = first_reg ? s_axis_same_group : same_group_reg;
        wire [2:0] alt_prio = cfg_prev_alt_prio[prio*3 +: 3];
        wire [7:0] new_tos = {cfg_prev_alt_dscp[prio*6 +: 6], tos_next[1:0]};
        wire       ipv4 = has_tag && inner_type_next == 16'h0800;
        assign remap = same_group && cfg_prev_enable[prio];
        assign prio_out = remap ? alt_prio : prio;

        // RFC 1624 eqn. 3 with m = {b18, old TOS}, m' = {b18, new TOS}: ~m + m' is
        // {8'hff, ~old TOS} + {8'h00, new TOS} in one's complement, b18 cancelling
        wire [15:0] old_csum = {gather_next[L_CSUM*8 +: 8], gather_next[(L_CSUM+1)*8 +: 8]};
        wire [17:0] csum_sum = {2'b00, ~old_csum} + {2'b00, 8'hff, ~tos_next}
                               + {10'd0, new_tos};
        wire [16:0] csum_fold1 = {1'b0, csum_sum[15:0]} + {15'd0, csum_sum[17:16]};
        // (fold1 is at most 0x10002, so a second fold never carries again)
        wire [15:0] csum_fold2 = PREVENT_FAULT_INJECT != 0 ? csum_sum[15:0]
                                 : csum_fold1[15:0] + {15'd0, csum_fold1[16]};
        wire [15:0] new_csum = ~csum_fold2;

        reg [WORD_W-1:0] word;
        always @* begin
            word = gather_next;
            if (remap && has_tag) begin
                if ({27'd0, widx_reg} == W_PCP) begin
                    word[L_PCP*8 + 5 +: 3] = alt_prio;
                end
                if (ipv4 && {27'd0, widx_reg} == W_TOS) begin
                    word[L_TOS*8 +: 8] = new_tos;
                end
                if (ipv4 && {27'd0, widx_reg} == W_CSUM) begin
                    word[L_CSUM*8 +: 8] = new_csum[15:8];
                    word[(L_CSUM+1)*8 +: 8] = new_csum[7:0];
                end
            end
        end
        assign word_out = word;
        // the remap decision uses the header as of this beat (prio)
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused = &{1'b0, prio_last, 1'b0};
        /* verilator lint_on UNUSEDSIGNAL */
    end else begin : no_prevent
        assign word_out = gather_next;
        assign remap = 1'b0;
        assign prio_out = prio_last;
        // without prevention its configuration, sideband and parse state are unused
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused = &{1'b0, s_axis_same_group, same_group_reg, cfg_prev_enable,
                        cfg_prev_alt_prio, cfg_prev_alt_dscp, inner_type_next, tos_next,
                        widx_reg, prio, has_tag, 1'b0};
        /* verilator lint_on UNUSEDSIGNAL */
    end
endgenerate

// a cut frame's last word: no data stored, kind stall (the buffer stage returns its cells)
wire [ENTRY_W-1:0] entry_in = cut_pend_reg
    ? {word_out, word_bytes_reg, 1'b1, 1'b0, len_out, prio_out, s_axis_tdest, KIND_STALL,
       1'b0, hdr_tag_reg}
    : {word_out, word_bytes_reg + beat_bytes, s_axis_tlast, !oversize, len_out, prio_out,
       s_axis_tdest, kind, remap, hdr_tag_reg};
wire [ENTRY_W-1:0] entry_out;

/* verilator lint_off PINCONNECTEMPTY */
sw_fifo #(
    .WIDTH(ENTRY_W),
    .DEPTH(FIFO_DEPTH),
    .PTR_W(FIFO_PTR_W),
    // the word enters through a register: tvalid's logic ends there, not at the write
    // enables of every entry (one wide word each)
    .IN_REG(1)
) fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_valid((take && word_done) || cut_push),
    .s_ready(fifo_ready),
    .s_data(entry_in),
    .m_valid(m_word_valid),
    .m_ready(m_word_ready),
    .m_data(entry_out),
    .count()                // s_ready is the stream's tready; the count is not needed
);
/* verilator lint_on PINCONNECTEMPTY */

assign {m_word_data, m_word_bytes, m_word_last, m_word_store, m_word_len, m_word_prio,
        m_word_dest, m_word_kind, m_word_remap, m_word_tagged} = entry_out;

assign stat_rx_frames = rx_frames_reg;
assign stat_rx_bytes = rx_bytes_reg;
assign stat_drop_error = drop_error_reg;
assign stat_drop_runt = drop_runt_reg;
assign stat_drop_oversize = drop_oversize_reg;
assign stat_pfc_frames = pfc_frames_reg;
assign stat_pause_frames = pause_frames_reg;
assign stat_ctrl_unknown = ctrl_unknown_reg;
assign stat_ctrl_malformed = ctrl_malformed_reg;
assign stat_drop_malformed = drop_malformed_reg;
assign stat_drop_bad_dest = drop_bad_dest_reg;
assign stat_drop_stall = drop_stall_reg;

// the counters count a clock after the beat, from registers: the beat's size, whether it
// ended a frame or a cut, and the frame's class (the handshake reaches only these)
reg              cnt_bytes_en_reg;
reg [WB_W-1:0]   cnt_bytes_reg;
reg              cnt_last_reg;
reg              cnt_cut_reg;
reg [3:0]        cnt_kind_reg;
always @(posedge clk) begin
    cnt_bytes_en_reg <= take;
    cnt_bytes_reg <= beat_bytes;
    cnt_last_reg <= take && s_axis_tlast;
    cnt_cut_reg <= cut_push;
    cnt_kind_reg <= kind;
    if (cnt_bytes_en_reg) begin
        rx_bytes_reg <= rx_bytes_reg + {{(32-WB_W){1'b0}}, cnt_bytes_reg};
    end
    if (cnt_last_reg || cnt_cut_reg) begin
        rx_frames_reg <= rx_frames_reg + 1'b1;
    end
    if (cnt_cut_reg) begin
        drop_stall_reg <= drop_stall_reg + 1'b1;
    end
    if (cnt_last_reg) begin
        case (cnt_kind_reg)
            KIND_ERROR: drop_error_reg <= drop_error_reg + 1'b1;
            KIND_OVERSIZE: drop_oversize_reg <= drop_oversize_reg + 1'b1;
            KIND_RUNT: drop_runt_reg <= drop_runt_reg + 1'b1;
            KIND_PFC: pfc_frames_reg <= pfc_frames_reg + 1'b1;
            KIND_PAUSE: pause_frames_reg <= pause_frames_reg + 1'b1;
            KIND_CTRL_UNKNOWN: ctrl_unknown_reg <= ctrl_unknown_reg + 1'b1;
            KIND_CTRL_MALFORMED: ctrl_malformed_reg <= ctrl_malformed_reg + 1'b1;
            KIND_MALFORMED: drop_malformed_reg <= drop_malformed_reg + 1'b1;
            KIND_BAD_DEST: drop_bad_dest_reg <= drop_bad_dest_reg + 1'b1;
            default: ;
        endcase
    end
    if (rst) begin
        cnt_bytes_en_reg <= 1'b0;
        cnt_last_reg <= 1'b0;
        cnt_cut_reg <= 1'b0;
        rx_frames_reg <= 32'd0;
        rx_bytes_reg <= 32'd0;
        drop_error_reg <= 32'd0;
        drop_runt_reg <= 32'd0;
        drop_oversize_reg <= 32'd0;
        pfc_frames_reg <= 32'd0;
        pause_frames_reg <= 32'd0;
        ctrl_unknown_reg <= 32'd0;
        ctrl_malformed_reg <= 32'd0;
        drop_malformed_reg <= 32'd0;
        drop_bad_dest_reg <= 32'd0;
        drop_stall_reg <= 32'd0;
    end
end

always @(posedge clk) begin
    if (take) begin
        gather_reg <= gather_next;
        // (at tlast the parser's state starts over below: parse_start)
        if (!s_axis_tlast) begin
            len_k_reg <= len_k_full;
            bidx_reg <= bidx_succ;
            first_reg <= 1'b0;
            err_reg <= err_next;
            hole_reg <= hole_next;
        end
        if (first_reg) begin
            same_group_reg <= s_axis_same_group;
        end
        if (s_axis_tlast) begin
            widx_reg <= 5'd0;
        end else if (word_done && widx_reg != WIDX_MAX[4:0]) begin
            widx_reg <= widx_reg + 5'd1;
        end
        if (word_done) begin
            beat_reg <= {BI_W{1'b0}};
            word_bytes_reg <= {WB_W{1'b0}};
        end else begin
            beat_reg <= beat_reg + 1'b1;
            word_bytes_reg <= word_bytes_reg + beat_bytes;
        end
    end
    // stall cut: the cut frame's last word went into the FIFO (cut_push); the parser starts
    // over, and the rest of the frame up to its tlast is discarded (cut_reg)
    // (AND, not a select with a constant: Yosys makes the latter a set-reset net driven by
    // the handshake's logic)
    stall_cnt_reg <= (stall_cnt_reg + 32'd1) & {32{stall_inc}};
    // (stall_one_reg implies stall_en_reg: both registered from the same cfg_stall_clocks)
    stall_ge_reg <= stall_inc ? (stall_en_reg && stall_ge_inc) : stall_one_reg;
    stall_en_reg <= cfg_stall_clocks != 32'd0;
    stall_one_reg <= cfg_stall_clocks == 32'd1;
    stall_lim_reg <= $signed({2'b00, cfg_stall_clocks}) - 34'sd2;
    // (stall_due and cut_push exclusive: in_frame needs !cut_pend_reg)
    blk_reg <= stall_due || cut_pend_reg || (cut_reg && !(fire && s_axis_tlast));
    if (stall_due) begin
        cut_pend_reg <= 1'b1;
    end
    if (fire && cut_reg && s_axis_tlast) begin
        cut_reg <= 1'b0;
    end
    if (cut_push) begin
        cut_pend_reg <= 1'b0;
        cut_reg <= 1'b1;
        widx_reg <= 5'd0;
        beat_reg <= {BI_W{1'b0}};
        word_bytes_reg <= {WB_W{1'b0}};
    end
    // the parser's state at the start of a frame: after a tlast, after a cut, at reset
    if (parse_start) begin
        len_k_reg <= len_k_first;
        bidx_reg <= 5'd0;
        first_reg <= 1'b1;
        err_reg <= 1'b0;
        hole_reg <= 1'b0;
    end
    // the header by position (see its declaration): a load wins over the clear, which comes
    // while bidx_reg is 0, where only destination bytes can be
    hdr_clear_reg <= parse_start;
    for (k = 0; k < 6; k = k + 1) begin
        if (at_byte(bidx_reg, k)) begin
            da_hit_reg[k] <= lane_of(s_axis_tdata, k) == PFC_DA[(5 - k)*8 +: 8];
        end else if (hdr_clear_reg) begin
            da_hit_reg[k] <= 1'b1;
        end
    end
    da_ok_reg <= &da_hit_reg;
    type_ctrl_reg <= ethertype_reg == 16'h8808;
    op_pfc_reg <= tci_hi_reg == 8'h01 && op_lo_reg == 8'h01;
    op_pause_reg <= tci_hi_reg == 8'h00 && op_lo_reg == 8'h01;
    hdr_tag_reg <= ethertype_reg == 16'h8100;
    hdr_ctrl_reg <= da_ok_reg || type_ctrl_reg;
    hdr_kind_reg <= hdr_kind;
    hdr_pfc_reg <= ctrl_ok && op_pfc_reg;
    hdr_pause_reg <= ctrl_ok && op_pause_reg;
    if (at_byte(bidx_reg, 12)) begin
        ethertype_reg[15:8] <= lane_of(s_axis_tdata, 12);
    end else if (hdr_clear_reg) begin
        ethertype_reg[15:8] <= 8'd0;
    end
    if (at_byte(bidx_reg, 13)) begin
        ethertype_reg[7:0] <= lane_of(s_axis_tdata, 13);
    end else if (hdr_clear_reg) begin
        ethertype_reg[7:0] <= 8'd0;
    end
    if (at_byte(bidx_reg, 14)) begin
        tci_hi_reg <= lane_of(s_axis_tdata, 14);
    end else if (hdr_clear_reg) begin
        tci_hi_reg <= 8'd0;
    end
    if (at_byte(bidx_reg, 15)) begin
        op_lo_reg <= lane_of(s_axis_tdata, 15);
    end else if (hdr_clear_reg) begin
        op_lo_reg <= 8'd0;
    end
    if (at_byte(bidx_reg, 16)) begin
        inner_type_reg[15:8] <= lane_of(s_axis_tdata, 16);
    end else if (hdr_clear_reg) begin
        inner_type_reg[15:8] <= 8'd0;
    end
    if (at_byte(bidx_reg, 17)) begin
        inner_type_reg[7:0] <= lane_of(s_axis_tdata, 17);
    end else if (hdr_clear_reg) begin
        inner_type_reg[7:0] <= 8'd0;
    end
    if (at_byte(bidx_reg, 19)) begin
        tos_reg <= lane_of(s_axis_tdata, 19);
    end else if (hdr_clear_reg) begin
        tos_reg <= 8'd0;
    end
    max_reg <= cfg_max_frame_bytes;
    ov_cfg_reg <= ov_of({1'b0, cfg_max_frame_bytes});
    rem_reg <= rem_upd;
    rem_neg_reg <= rem_upd[32];
    // (a beat of no bytes never goes past the maximum: bit 0 is a constant, not a register
    // whose hold / clear logic would become a set-reset net of its own)
    ov_reg <= {ov_upd[KEEP_WIDTH:1], 1'b0};
    short_reg <= short_upd;
    if (rst) begin
        stall_cnt_reg <= 32'd0;
        cut_pend_reg <= 1'b0;
        cut_reg <= 1'b0;
        blk_reg <= 1'b0;
        same_group_reg <= 1'b0;
        widx_reg <= 5'd0;
        beat_reg <= {BI_W{1'b0}};
        word_bytes_reg <= {WB_W{1'b0}};
        gather_reg <= {WORD_W{1'b0}};
    end
end

endmodule

`resetall
