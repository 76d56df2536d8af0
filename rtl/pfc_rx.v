/*
 * IEEE 802.1Qbb priority flow control (PFC) receiver, one per switch port.
 *
 * Watches a tap of the MAC's RX stream (no back-pressure), recognises MAC Control PFC frames
 * and keeps one pause timer per priority, counted in quanta (512 bit times) at the link speed
 * given by cfg_quanta_step (quanta per clock, 16 fraction bits).
 *
 * Frame (802.3 Annex 31B/31D, 802.1Qbb clause 36):
 *
 *  Field                       Length
 *  Destination MAC             6 octets   must be 01-80-C2-00-00-01
 *  Source MAC                  6 octets   ignored
 *  EtherType                   2 octets   0x8808 (MAC Control): otherwise the frame is ignored
 *  Opcode                      2 octets   0x0101 (PFC); 0x0001 (802.3x PAUSE) with
 *                                         LINK_PAUSE_ENABLE
 *  class-enable vector         2 octets   first octet reserved (802.1Qbb 36.1.3: transmitted
 *                                         as zero, ignored on receipt), second octet bit k =
 *                                         priority k
 *  time[0] .. time[7]          8 x 2      quanta, priority 0 first
 *  padding                     26 octets  ignored
 *
 *  802.3x PAUSE (Annex 31B), LINK_PAUSE_ENABLE = 1 only:
 *  Opcode                      2 octets   0x0001
 *  pause_time                  2 octets   quanta, applied to every priority
 *  padding                     42 octets  ignored
 *  FCS                         4 octets   may or may not be on the tap: any length >= 60 is
 *                                         accepted; a bad FCS is flagged by tuser on tlast
 *
 * Rules (docs/pfc.md):
 *  - Only frames with EtherType 0x8808 are looked at; others are ignored (not counted).
 *  - A MAC Control frame with tuser set on any beat, a destination other than
 *    01-80-C2-00-00-01, an opcode other than 0x0101 (and 0x0001 with LINK_PAUSE_ENABLE) or
 *    fewer than 60 octets is discarded and counted in stat_malformed (once per frame).  In
 *    switch_core tuser on tlast carries the ingress parser's decision (sw_ingress: the frame is
 *    a well-formed PFC frame, or a PAUSE frame on a port that honours PAUSE), so the timers
 *    move only on frames that the one classification of the port calls so.
 *  - A good 802.3x PAUSE frame (LINK_PAUSE_ENABLE) loads every priority's timer with its
 *    pause_time (time 0: resume at once), counted in stat_pause_frames; rx_pfc_prio is then
 *    all ones.
 *  - A good frame is applied on its tlast beat: for each enabled priority, time 0 clears the
 *    timer (resume at once), time t > 0 restarts it at t quanta; a clear enable bit leaves the
 *    timer alone.  pause[k] is 1 from the clock after tlast while timer k is non-zero, i.e.
 *    for ceil(t * 65536 / cfg_quanta_step) clocks.
 *  - The stat_* counters show a frame one clock after its tlast beat.
 *
 * Timing structure (no change to the timing above): the octet count is a saturating
 * thermometer code, so "lane i holds octet p" and "the frame is 60 octets long" are one or two
 * of its bits; each header octet sets a flag the clock it arrives (the destination MAC through a
 * registered mismatch flag, one clock later), and the tlast decision uses "header good" and
 * "header good AND enable bit k" registered from those flags, plus the beat's tvalid, tlast,
 * tuser and tkeep; each timer's decrement and its "timer > step" test are one subtraction
 * (its borrow is the test), a carry chain that starts at flip-flops.  The s_axis inputs are
 * assumed to come from registers.
 *
 * IN_REG = 1 registers the tap here (everything above then happens a clock after the beat on
 * s_axis), in copies: one drives the parser (the clock enable and clear of some 200
 * flip-flops), one per priority only that priority's tlast decision and timer load, one the
 * frame events, so that each timer load starts at flip-flops next to it.  One register
 * driving all was the ULX3S build's critical path (3.3 to 4.5 ns of routing from the far end
 * of its fan-out into the timer loads), and one decision shared by the eight timers still
 * ran 3.2 ns across them.  The user then feeds the tap unregistered, e.g. tvalid AND tready
 * of the link.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module pfc_rx #(
    // stream width in bits (8 or 64)
    parameter DATA_WIDTH = 8,
    // tkeep width
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // 1: the tap is registered here, in two copies (a clock of latency, see above)
    parameter IN_REG = 0,
    // 1: 802.3x PAUSE frames (opcode 0x0001) pause every priority; 0: they are malformed
    parameter LINK_PAUSE_ENABLE = 0,
    // priorities with a pause timer: bit k 0 leaves priority k's timer out (pause[k] stays 0;
    // the frame is still parsed and counted).  For a receiver whose sender uses only some
    // priorities (the board self-test's link partners); a switch port keeps all eight
    parameter [7:0] PRIO_MASK = 8'hFF
) (
    input  wire                  clk,
    input  wire                  rst,

    // tap of the MAC RX stream (tuser on tlast: bad frame / bad FCS)
    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    input  wire                  s_axis_tlast,
    input  wire                  s_axis_tuser,

    // configuration
    input  wire [23:0]           cfg_quanta_step,

    // priority k paused while bit k is 1
    output wire [7:0]            pause,

    // pulses with tlast of a good PFC frame / of any MAC Control frame (EtherType 0x8808)
    output wire                  is_pfc,
    output wire                  is_mac_ctrl,
    // pulses with tlast of a good PFC frame: bit k set when the frame's enable bit k is; all
    // ones with a good PAUSE frame (LINK_PAUSE_ENABLE)
    // (XOFF or XON for priority k; the PFC watchdog's restoration timer watches it)
    output wire [7:0]            rx_pfc_prio,

    // status (a PAUSE frame counts in stat_xoff_rx / stat_xon_rx of every priority)
    output wire [31:0]           stat_pfc_frames,
    output wire [31:0]           stat_pause_frames,
    output wire [8*32-1:0]       stat_xoff_rx,
    output wire [8*32-1:0]       stat_xon_rx,
    output wire [31:0]           stat_malformed
);

localparam integer MIN_LEN = 60;

initial begin
    if (DATA_WIDTH != 8 && DATA_WIDTH != 64) begin
        $error("pfc_rx: DATA_WIDTH must be 8 or 64");
        $finish;
    end
    if (KEEP_WIDTH * 8 != DATA_WIDTH) begin
        $error("pfc_rx: KEEP_WIDTH must be DATA_WIDTH / 8");
        $finish;
    end
end

// the beat as the parser sees it (p_*) and as the tlast decisions see it (d_*: with IN_REG one
// copy per priority, whose timer load it drives, and one for the frame events; else the tap)
localparam NC = IN_REG != 0 ? 9 : 1;
localparam CE = NC - 1;     // the copy of the frame events (is_pfc, counters)
wire [DATA_WIDTH-1:0]    p_tdata;
wire [KEEP_WIDTH-1:0]    p_tkeep;
wire                     p_tvalid, p_tlast;
wire [NC*KEEP_WIDTH-1:0] d_tkeep;
wire [NC-1:0]            d_tvalid, d_tlast, d_tuser;

// the reset of everything after the input register: with IN_REG a local copy a clock later
// (the beat is a clock later too), so the reset tree ends at a flip-flop next to this block
// (the switch's one reset register drove the 256 timer resets of every port across the die)
wire rst_int;

genvar gc;
generate
    if (IN_REG != 0) begin : in_reg
        reg rst_reg;
        (* keep *) always @(posedge clk) begin
            rst_reg <= rst;
        end
        assign rst_int = rst_reg;
        reg [DATA_WIDTH-1:0] p_tdata_reg;
        reg [KEEP_WIDTH-1:0] p_tkeep_reg;
        reg                  p_tvalid_reg, p_tlast_reg;
        // keep: the copies are identical and must not be merged back into one
        (* keep *) always @(posedge clk) begin
            p_tdata_reg <= s_axis_tdata;
            p_tkeep_reg <= s_axis_tkeep;
            p_tvalid_reg <= s_axis_tvalid && !rst;
            p_tlast_reg <= s_axis_tlast;
        end
        assign p_tdata = p_tdata_reg;
        assign p_tkeep = p_tkeep_reg;
        assign p_tvalid = p_tvalid_reg;
        assign p_tlast = p_tlast_reg;
        for (gc = 0; gc < NC; gc = gc + 1) begin : dcopy
            reg [KEEP_WIDTH-1:0] d_tkeep_reg;
            reg                  d_tvalid_reg, d_tlast_reg, d_tuser_reg;
            (* keep *) always @(posedge clk) begin
                d_tkeep_reg <= s_axis_tkeep;
                d_tvalid_reg <= s_axis_tvalid && !rst;
                d_tlast_reg <= s_axis_tlast;
                d_tuser_reg <= s_axis_tuser;
            end
            assign d_tkeep[gc*KEEP_WIDTH +: KEEP_WIDTH] = d_tkeep_reg;
            assign d_tvalid[gc] = d_tvalid_reg;
            assign d_tlast[gc] = d_tlast_reg;
            assign d_tuser[gc] = d_tuser_reg;
        end
    end else begin : in_direct
        assign rst_int = rst;
        assign p_tdata = s_axis_tdata;
        assign p_tkeep = s_axis_tkeep;
        assign p_tvalid = s_axis_tvalid;
        assign p_tlast = s_axis_tlast;
        assign d_tkeep = s_axis_tkeep;
        assign d_tvalid = s_axis_tvalid;
        assign d_tlast = s_axis_tlast;
        assign d_tuser = s_axis_tuser;
    end
endgenerate

// destination MAC 01-80-C2-00-00-01, octet p at [p*8 +: 8]
localparam [47:0] PFC_DA = {8'h01, 8'h00, 8'h00, 8'hC2, 8'h80, 8'h01};
// octets 0..33 (header and PFC fields) are parsed
localparam integer PARSE_END = 34;

// Octets of the current frame before the current beat, as a thermometer code that saturates
// at MIN_LEN: ge_reg[c-1] = "at least c octets" (c = 1..MIN_LEN).  A beat shifts it by its
// lane count; "lane i carries octet p" and "the frame is MIN_LEN octets long with this beat"
// are then one or two bits of it, with no counter and no compare.
reg [MIN_LEN-1:0] ge_reg, ge_next;
// header checks as set-only flags per octet, taken as the octets arrive (frame_end clears them)
reg         da_bad_reg;                  // an octet of the destination MAC differed
// destination MAC octet p arrived in the last beat and differed (from a 16-input compare per
// octet, so it is registered first and ORed into da_bad_reg the clock after; cleared with
// frame_end like the flags, so a frame's last beat never marks the next frame)
reg [5:0]   da_mis_reg, da_mis_next;
reg [1:0]   type_ok_reg, type_ok_next;   // octet 12 == 0x88, octet 13 == 0x08
reg [1:0]   op_ok_reg, op_ok_next;       // octet 14 == 0x01, octet 15 == 0x01
reg         op_zero_reg, op_zero_next;   // octet 14 == 0x00 (PAUSE: with op_ok_reg[0])
reg         err_reg;                     // tuser on an earlier beat of this frame
reg [7:0]   en_reg, en_next;
reg [127:0] time_reg, time_next;         // priority k at [k*16 +: 16]

// Registered from the flags above, one clock late: the header is good (hdr_ok_reg), and the
// same AND enable bit k (hdr_en_reg[k]), and time k != 0 (time_nz_reg[k]).  They are used on
// the tlast beat of a frame of MIN_LEN octets or more only, which comes at least 5 clocks
// after the beat that held octet 17 (the beat holds octet 59 or later, so it starts at octet
// 52 or later, and octets 25..51 take at least 4 beats of at most 8 octets) and at least 3
// clocks after the one that held octet 33 (octets 41..51: at least 2 beats).  Both are
// enough: each flag is final one clock after its octet, and these registers one clock after
// that.  A stale value right after a frame's end meets a frame of a few octets only.
reg         hdr_ok_reg;
reg         hdr_pause_reg;               // of those, a PAUSE frame (LINK_PAUSE_ENABLE)
reg [7:0]   hdr_en_reg;
reg [7:0]   time_nz_reg;

// pause timers (quanta with 16 fraction bits), one carry chain each: while pause_reg[k] (timer
// k != 0), timer k is rtimer_reg[k] + fresh_reg[k], i.e. the loaded value on the clock after a
// load (fresh) and one less than the timer after that, so that both the decrement and the
// "timer > step" test are the one subtraction rtimer - step - fresh (its borrow is the test, its
// difference the next timer less one; a chain straight from flip-flops); the value is unused
// while pause_reg[k] is 0
reg [32*8-1:0] rtimer_reg, rtimer_next;
reg [7:0]      fresh_reg;
reg [7:0]      pause_reg, pause_next;

// counted the clock after the frame's tlast beat (a malformed frame is a MAC Control frame
// that is not a good PFC frame: the two are registered apart, as the MAC Control test may
// need the octets of the tlast beat)
reg            ev_pfc_reg, ev_pause_reg, ev_mac_ctrl_reg;
reg [7:0]      ev_xoff_reg, ev_xon_reg;
reg [31:0]     stat_pfc_reg;
reg [31:0]     stat_pause_reg;
reg [8*32-1:0] stat_xoff_reg;
reg [8*32-1:0] stat_xon_reg;
reg [31:0]     stat_malformed_reg;

// gex[KEEP_WIDTH + c] = "at least c octets before this beat", c = -KEEP_WIDTH .. MIN_LEN
wire [MIN_LEN+KEEP_WIDTH:0] gex = {ge_reg, {(KEEP_WIDTH+1){1'b1}}};
// lane i of this beat carries an octet (tkeep is contiguous from lane 0: lane i is octet
// count + i, and lv[i] means "at least i+1 octets in this beat").  The parser registers load
// only on a valid beat: s_axis_tvalid is their clock enable, and elsewhere it enters the last
// LUT only (in the switch and the board it is tvalid AND tready, a LUT away from a register).
wire [KEEP_WIDTH-1:0] lv = p_tkeep;
wire frame_end = p_tvalid && p_tlast;
wire d_frame_end = d_tvalid[CE] && d_tlast[CE];

reg [7:0] octet;
reg       sel;     // lane i carries octet p
integer i, p, c, k, m, mp;  // loop variables (Yosys: one driver each)

always @* begin
    // octets after this beat >= c: already, or through lane i (count + i + 1 >= c)
    for (c = 1; c <= MIN_LEN; c = c + 1) begin
        ge_next[c-1] = ge_reg[c-1];
        for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
            ge_next[c-1] = ge_next[c-1] | (lv[i] & gex[KEEP_WIDTH + c - i - 1]);
        end
    end
end

always @* begin
    da_mis_next = 6'd0;
    type_ok_next = type_ok_reg;
    op_ok_next = op_ok_reg;
    op_zero_next = op_zero_reg;
    en_next = en_reg;
    mp = 0;     // loop index only: assigned on every path, so no latch
    time_next = time_reg;
    octet = 8'd0;
    sel = 1'b0;
    // at most one lane holds a given octet, so each field is a one-hot select of the lanes
    for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
        octet = p_tdata[i*8 +: 8];
        for (p = i; p < PARSE_END; p = p + 1) begin
            // count == p - i: exactly p - i octets before this beat
            sel = lv[i] && gex[KEEP_WIDTH + p - i] && !gex[KEEP_WIDTH + p - i + 1];
            if (sel) begin
                // (p % 6: the same octet for p < 6, an index in range otherwise)
                if (p < 6 && octet != PFC_DA[(p % 6)*8 +: 8]) da_mis_next[p % 6] = 1'b1;
                if (p == 12 && octet == 8'h88) type_ok_next[1] = 1'b1;
                if (p == 13 && octet == 8'h08) type_ok_next[0] = 1'b1;
                if (p == 14 && octet == 8'h01) op_ok_next[1] = 1'b1;
                if (p == 14 && octet == 8'h00) op_zero_next = 1'b1;
                if (p == 15 && octet == 8'h01) op_ok_next[0] = 1'b1;
                if (p == 17) en_next = octet;
                // PFC: time (p - 18) / 2, high octet first; PAUSE (the opcode is in earlier
                // beats than octets 16, 17): pause_time into every priority's time, the
                // padding after it left out
                if (LINK_PAUSE_ENABLE != 0 && op_zero_reg) begin
                    if (p == 16 || p == 17) begin
                        for (mp = 0; mp < 8; mp = mp + 1) begin
                            time_next[mp * 16 + (p == 16 ? 8 : 0) +: 8] = octet;
                        end
                    end
                end else if (p >= 18) begin
                    time_next[((p - 18) / 2) * 16 + (p % 2 == 0 ? 8 : 0) +: 8] = octet;
                end
            end
        end
    end
end

// decision on the tlast beat.  A frame of MIN_LEN octets or more has all of its header and PFC
// fields (octets 0..33) in earlier beats (a beat holds at most 8 octets), so a good frame is
// recognised from registered flags and the beat's tvalid, tlast, tuser and tkeep; only the
// MAC Control / malformed classification of short frames needs the beat's octets.
// good[c]: the beat is the tlast of a frame of MIN_LEN octets or more (before it, or through
// its last lane) without tuser, as copy c of the tap sees it
reg  [NC-1:0] good;
reg           len_ok;
integer gi;
always @* begin
    for (gi = 0; gi < NC; gi = gi + 1) begin
        len_ok = gex[KEEP_WIDTH + MIN_LEN];
        for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
            len_ok = len_ok | (d_tkeep[gi*KEEP_WIDTH + i] & gex[KEEP_WIDTH + MIN_LEN - 1 - i]);
        end
        good[gi] = d_tvalid[gi] && d_tlast[gi] && !d_tuser[gi] && !err_reg && len_ok;
    end
end
wire       apply = good[CE] && hdr_ok_reg;
// opcode 0x0001 (802.3x PAUSE) from the registered opcode flags, with LINK_PAUSE_ENABLE only
wire       hdr_pause = LINK_PAUSE_ENABLE != 0 && op_zero_reg && op_ok_reg[0];
reg  [7:0] load;                 // == apply ? en_reg : 0
integer lk;
always @* begin
    for (lk = 0; lk < 8; lk = lk + 1) begin
        load[lk] = good[IN_REG != 0 ? lk : 0] && hdr_en_reg[lk];
    end
end
wire       mac_ctrl = type_ok_next == 2'b11;

assign is_pfc = apply && !hdr_pause_reg;
assign is_mac_ctrl = d_frame_end && mac_ctrl;
assign rx_pfc_prio = load;
assign pause = pause_reg;

assign stat_pfc_frames = stat_pfc_reg;
assign stat_pause_frames = stat_pause_reg;
assign stat_xoff_rx = stat_xoff_reg;
assign stat_xon_rx = stat_xon_reg;
assign stat_malformed = stat_malformed_reg;

// timer arithmetic, per priority: d = rtimer - step - fresh, as the one subtraction
// {rtimer, 0} - {step, fresh} (fresh the borrow into bit 1); no borrow out (d[33] 0) <=> timer >
// step (timer = rtimer + fresh), and then d[32:1] = timer - step - 1, the next clock's rtimer
// (fresh 0).  A load sets rtimer to the new timer and fresh.
/* verilator lint_off UNUSEDSIGNAL */
reg [33:0] d;           // (bit 0 is 0 - fresh's own bit: unused)
/* verilator lint_on UNUSEDSIGNAL */

always @* begin
    for (k = 0; k < 8; k = k + 1) begin
        d = {1'b0, rtimer_reg[k*32 +: 32], 1'b0} - {9'd0, cfg_quanta_step, fresh_reg[k]};
        if (!PRIO_MASK[k]) begin
            rtimer_next[k*32 +: 32] = 32'd0;
            pause_next[k] = 1'b0;
        end else if (load[k]) begin
            rtimer_next[k*32 +: 32] = {time_reg[k*16 +: 16], 16'd0};
            pause_next[k] = time_nz_reg[k];
        end else begin
            rtimer_next[k*32 +: 32] = d[32:1];
            pause_next[k] = pause_reg[k] && !d[33];
        end
    end
end

always @(posedge clk) begin
    // the next frame starts from a clean parser
    if (p_tvalid) begin
        ge_reg <= p_tlast ? {MIN_LEN{1'b0}} : ge_next;
        da_mis_reg <= p_tlast ? 6'd0 : da_mis_next;
        type_ok_reg <= p_tlast ? 2'b00 : type_ok_next;
        op_ok_reg <= p_tlast ? 2'b00 : op_ok_next;
        op_zero_reg <= p_tlast ? 1'b0 : op_zero_next;
        en_reg <= en_next;
        time_reg <= time_next;
    end
    da_bad_reg <= frame_end ? 1'b0 : (da_bad_reg || da_mis_reg != 6'd0);
    // (the tuser of every beat but the last, from the frame-event copy of the tap)
    err_reg <= d_frame_end ? 1'b0 : (err_reg || (d_tvalid[CE] && d_tuser[CE]));
    hdr_ok_reg <= !da_bad_reg && type_ok_reg == 2'b11 && (op_ok_reg == 2'b11 || hdr_pause);
    hdr_pause_reg <= !da_bad_reg && type_ok_reg == 2'b11 && hdr_pause;
    hdr_en_reg <= ({8{!da_bad_reg && type_ok_reg == 2'b11 && op_ok_reg == 2'b11}} & en_reg)
                  | {8{!da_bad_reg && type_ok_reg == 2'b11 && hdr_pause}};
    for (m = 0; m < 8; m = m + 1) begin
        time_nz_reg[m] <= time_reg[m*16 +: 16] != 16'd0;
    end
    rtimer_reg <= rtimer_next;
    fresh_reg <= load;
    pause_reg <= pause_next;

    ev_pfc_reg <= apply && !hdr_pause_reg;
    ev_pause_reg <= apply && hdr_pause_reg;
    ev_mac_ctrl_reg <= d_frame_end && mac_ctrl;
    ev_xoff_reg <= load & time_nz_reg;
    ev_xon_reg <= load & ~time_nz_reg;

    if (ev_mac_ctrl_reg && !ev_pfc_reg && !ev_pause_reg) begin
        stat_malformed_reg <= stat_malformed_reg + 32'd1;
    end
    if (ev_pfc_reg) begin
        stat_pfc_reg <= stat_pfc_reg + 32'd1;
    end
    if (ev_pause_reg) begin
        stat_pause_reg <= stat_pause_reg + 32'd1;
    end
    for (m = 0; m < 8; m = m + 1) begin
        if (ev_xoff_reg[m]) begin
            stat_xoff_reg[m*32 +: 32] <= stat_xoff_reg[m*32 +: 32] + 32'd1;
        end
        if (ev_xon_reg[m]) begin
            stat_xon_reg[m*32 +: 32] <= stat_xon_reg[m*32 +: 32] + 32'd1;
        end
    end

    if (rst_int) begin
        ge_reg <= {MIN_LEN{1'b0}};
        da_mis_reg <= 6'd0;
        da_bad_reg <= 1'b0;
        type_ok_reg <= 2'b00;
        op_ok_reg <= 2'b00;
        op_zero_reg <= 1'b0;
        err_reg <= 1'b0;
        hdr_ok_reg <= 1'b0;
        hdr_pause_reg <= 1'b0;
        hdr_en_reg <= 8'd0;
        rtimer_reg <= {32*8{1'b0}};
        fresh_reg <= 8'd0;
        pause_reg <= 8'd0;
        ev_pfc_reg <= 1'b0;
        ev_pause_reg <= 1'b0;
        ev_mac_ctrl_reg <= 1'b0;
        ev_xoff_reg <= 8'd0;
        ev_xon_reg <= 8'd0;
        stat_pfc_reg <= 32'd0;
        stat_pause_reg <= 32'd0;
        stat_xoff_reg <= {8*32{1'b0}};
        stat_xon_reg <= {8*32{1'b0}};
        stat_malformed_reg <= 32'd0;
    end
end

endmodule

`resetall
