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
 *  Opcode                      2 octets   must be 0x0101
 *  class-enable vector         2 octets   first octet ignored, second octet bit k = priority k
 *  time[0] .. time[7]          8 x 2      quanta, priority 0 first
 *  padding                     26 octets  ignored
 *  FCS                         4 octets   may or may not be on the tap: any length >= 60 is
 *                                         accepted; a bad FCS is flagged by tuser on tlast
 *
 * Rules (docs/pfc.md):
 *  - Only frames with EtherType 0x8808 are looked at; others are ignored (not counted).
 *  - A MAC Control frame with tuser set on tlast, a destination other than 01-80-C2-00-00-01,
 *    an opcode other than 0x0101 (802.3x PAUSE included) or fewer than 60 octets is discarded
 *    and counted in stat_malformed (once per frame).
 *  - A good frame is applied on its tlast beat: for each enabled priority, time 0 clears the
 *    timer (resume at once), time t > 0 restarts it at t quanta; a clear enable bit leaves the
 *    timer alone.  pause[k] is 1 from the clock after tlast while timer k is non-zero, i.e.
 *    for ceil(t * 65536 / cfg_quanta_step) clocks.
 *  - The stat_* counters show a frame one clock after its tlast beat.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module pfc_rx #(
    // stream width in bits (8 or 64)
    parameter DATA_WIDTH = 8,
    // tkeep width
    parameter KEEP_WIDTH = DATA_WIDTH / 8
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
    // pulses with tlast of a good PFC frame: bit k set when the frame's enable bit k is
    // (XOFF or XON for priority k; the PFC watchdog's restoration timer watches it)
    output wire [7:0]            rx_pfc_prio,

    // status
    output wire [31:0]           stat_pfc_frames,
    output wire [8*32-1:0]       stat_xoff_rx,
    output wire [8*32-1:0]       stat_xon_rx,
    output wire [31:0]           stat_malformed
);

// octets counted up to this value (enough to know "at least 60")
localparam integer COUNT_MAX = 64;
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

// destination MAC 01-80-C2-00-00-01, octet p at [p*8 +: 8]
localparam [47:0] PFC_DA = {8'h01, 8'h00, 8'h00, 8'hC2, 8'h80, 8'h01};

// value >= c for a constant c, written as logic: Yosys would map a compare to a carry chain,
// which logic synthesis cannot merge with what follows
function ge_const;
    input [6:0] value;
    input integer c;
    integer b;
    reg [6:0] cb;
    begin
        if (c <= 0) begin
            ge_const = 1'b1;
        end else begin
            cb = c[6:0];
            ge_const = 1'b1;
            for (b = 0; b < 7; b = b + 1) begin
                ge_const = (value[b] & ~cb[b]) | (~(value[b] ^ cb[b]) & ge_const);
            end
        end
    end
endfunction

// parser state of the current frame (octets before the current beat).  The header checks are
// kept as per-octet flags, so nothing on the tlast beat compares a field.
reg [6:0]   count_reg, count_next;     // octets seen, saturating at COUNT_MAX
reg         da_bad_reg, da_bad_next;
reg [1:0]   type_ok_reg, type_ok_next;   // octet 12 == 0x88, octet 13 == 0x08
reg [1:0]   op_ok_reg, op_ok_next;       // octet 14 == 0x01, octet 15 == 0x01
reg [7:0]   en_reg, en_next;
reg [127:0] time_reg, time_next;       // priority k at [k*16 +: 16]

// Precomputed from the state after this beat, for a frame that ends in the next beat: the
// header is good and lane i (if it is the last lane kept) makes it MIN_LEN octets long
// (len_lane), or it is that long already (len_done).  _prio: the same AND enable bit k, one
// copy per priority, so a timer load is a small function of the beat's tvalid / tlast / tuser
// / tkeep with a fan-out of one timer.
reg [KEEP_WIDTH-1:0]   ok_lane_reg, ok_lane_next;
reg                    ok_done_reg, ok_done_next;
reg [8*KEEP_WIDTH-1:0] ok_lane_prio_reg, ok_lane_prio_next;  // priority k at [k*KEEP_WIDTH +: KEEP_WIDTH]
reg [7:0]              ok_done_prio_reg, ok_done_prio_next;

// pause timers: quanta with 16 fraction bits; pause_reg[k] == (timer k != 0)
reg [32*8-1:0] timer_reg, timer_next;
reg [7:0]      pause_reg, pause_next;

// counted the clock after the frame's tlast beat
reg            ev_pfc_reg, ev_malformed_reg;
reg [7:0]      ev_xoff_reg, ev_xon_reg;
reg [31:0]     stat_pfc_reg;
reg [8*32-1:0] stat_xoff_reg;
reg [8*32-1:0] stat_xon_reg;
reg [31:0]     stat_malformed_reg;

// the frame including the current beat
reg [7:0]            octet;
reg [KEEP_WIDTH:0]   nkeep;   // one-hot: lanes in the beat (highest lane kept + 1), bit 0: none
// lane i carries octet p of the frame: count_reg == p - i (decoded from the register only)
reg                  at;

integer i, p, n, k, m;  // loop variables (Yosys: one driver each)

wire count_open = !ge_const(count_reg, COUNT_MAX);
wire hdr_ok = type_ok_reg == 2'b11 && op_ok_reg == 2'b11 && !da_bad_reg;
wire beat = s_axis_tvalid && count_open;

always @* begin
    da_bad_next = da_bad_reg;
    type_ok_next = type_ok_reg;
    op_ok_next = op_ok_reg;
    en_next = en_reg;
    time_next = time_reg;
    octet = 8'd0;
    at = 1'b0;
    nkeep = {{KEEP_WIDTH{1'b0}}, 1'b1};
    // tkeep is contiguous from lane 0 (the MAC's convention): lane i is octet count + i.  At
    // most one lane holds a given octet, so each field is a one-hot select of the lanes, not
    // a priority chain across them.
    for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
        octet = s_axis_tdata[i*8 +: 8];
        if (beat && s_axis_tkeep[i]) begin
            nkeep = {{KEEP_WIDTH{1'b0}}, 1'b1} << (i + 1);
        end
        for (p = i; p < 34; p = p + 1) begin
            at = count_reg == p[6:0] - i[6:0];
            if (beat && s_axis_tkeep[i] && at) begin
                if (p < 6 && octet != PFC_DA[p*8 +: 8]) da_bad_next = 1'b1;
                if (p == 12) type_ok_next[1] = octet == 8'h88;
                if (p == 13) type_ok_next[0] = octet == 8'h08;
                if (p == 14) op_ok_next[1] = octet == 8'h01;
                if (p == 15) op_ok_next[0] = octet == 8'h01;
                if (p == 17) en_next = octet;
                // time (p - 18) / 2, high octet first
                if (p >= 18) time_next[((p - 18) / 2) * 16 + (p % 2 == 0 ? 8 : 0) +: 8] = octet;
            end
        end
    end
    count_next = count_reg;
    for (n = 1; n <= KEEP_WIDTH; n = n + 1) begin
        if (nkeep[n]) count_next = count_reg + n[6:0];
    end

    // count_next >= c is count_reg >= c - n for the n lanes of this beat.  The flags only
    // matter once count_next >= MIN_LEN - KEEP_WIDTH (52 or 59), and then the header and the
    // enable vector (octets 0..17) all came before this beat: the registered ones are final.
    ok_done_next = 1'b0;
    ok_lane_next = {KEEP_WIDTH{1'b0}};
    for (n = 0; n <= KEEP_WIDTH; n = n + 1) begin
        if (nkeep[n]) begin
            ok_done_next = hdr_ok && ge_const(count_reg, MIN_LEN - n);
            for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
                ok_lane_next[i] = hdr_ok && ge_const(count_reg, MIN_LEN - 1 - i - n);
            end
        end
    end
    for (k = 0; k < 8; k = k + 1) begin
        ok_done_prio_next[k] = ok_done_next && en_reg[k];
        ok_lane_prio_next[k*KEEP_WIDTH +: KEEP_WIDTH] = ok_lane_next & {KEEP_WIDTH{en_reg[k]}};
    end
end

// decision on the tlast beat.  A frame of 60 octets or more has all of its header and PFC
// fields (octets 0..33) in earlier beats (a beat holds at most 8 octets), so a good frame is
// recognised from the precomputed flags and the beat's tvalid, tlast, tuser and tkeep; only
// the MAC Control / malformed classification of short frames needs the beat's octets.
wire frame_end = s_axis_tvalid && s_axis_tlast;
wire apply = frame_end && !s_axis_tuser && (ok_done_reg || (ok_lane_reg & s_axis_tkeep) != 0);
wire mac_ctrl = type_ok_next == 2'b11;
wire malformed = !apply;

assign is_pfc = apply;
assign is_mac_ctrl = frame_end && mac_ctrl;
assign rx_pfc_prio = apply ? en_reg : 8'd0;
assign pause = pause_reg;

assign stat_pfc_frames = stat_pfc_reg;
assign stat_xoff_rx = stat_xoff_reg;
assign stat_xon_rx = stat_xon_reg;
assign stat_malformed = stat_malformed_reg;

// timer arithmetic, per priority: timer - step, and timer > step as the carry out of
// timer + ~step (a separate chain, so no zero test follows the subtraction)
reg [31:0] dec;
// only the carry out (bit 32) of this sum is used
/* verilator lint_off UNUSEDSIGNAL */
reg [32:0] gt;
/* verilator lint_on UNUSEDSIGNAL */
reg [7:0]  load;
reg [7:0]  time_nz;

always @* begin
    for (k = 0; k < 8; k = k + 1) begin
        load[k] = frame_end && !s_axis_tuser &&
                  (ok_done_prio_reg[k] ||
                   (ok_lane_prio_reg[k*KEEP_WIDTH +: KEEP_WIDTH] & s_axis_tkeep) != 0);
        time_nz[k] = time_reg[k*16 +: 16] != 16'd0;
        dec = timer_reg[k*32 +: 32] - {8'd0, cfg_quanta_step};
        gt = {1'b0, timer_reg[k*32 +: 32]} + {1'b0, 8'hFF, ~cfg_quanta_step};
        if (load[k]) begin
            timer_next[k*32 +: 32] = {time_reg[k*16 +: 16], 16'd0};
            pause_next[k] = time_nz[k];
        end else begin
            // a value not above the step goes to 0 (an AND, not a mux to a constant, so
            // that synthesis does not turn it into a synchronous reset behind another LUT)
            timer_next[k*32 +: 32] = dec & {32{gt[32]}};
            pause_next[k] = gt[32];
        end
    end
end

always @(posedge clk) begin
    // the next frame starts from a clean parser
    count_reg <= frame_end ? 7'd0 : count_next;
    da_bad_reg <= frame_end ? 1'b0 : da_bad_next;
    type_ok_reg <= frame_end ? 2'b00 : type_ok_next;
    op_ok_reg <= frame_end ? 2'b00 : op_ok_next;
    ok_lane_reg <= frame_end ? {KEEP_WIDTH{1'b0}} : ok_lane_next;
    ok_done_reg <= frame_end ? 1'b0 : ok_done_next;
    ok_lane_prio_reg <= frame_end ? {8*KEEP_WIDTH{1'b0}} : ok_lane_prio_next;
    ok_done_prio_reg <= frame_end ? 8'd0 : ok_done_prio_next;
    en_reg <= en_next;
    time_reg <= time_next;
    timer_reg <= timer_next;
    pause_reg <= pause_next;

    ev_pfc_reg <= apply;
    ev_malformed_reg <= frame_end && mac_ctrl && malformed;
    ev_xoff_reg <= load & time_nz;
    ev_xon_reg <= load & ~time_nz;

    if (ev_malformed_reg) begin
        stat_malformed_reg <= stat_malformed_reg + 32'd1;
    end
    if (ev_pfc_reg) begin
        stat_pfc_reg <= stat_pfc_reg + 32'd1;
    end
    for (m = 0; m < 8; m = m + 1) begin
        if (ev_xoff_reg[m]) begin
            stat_xoff_reg[m*32 +: 32] <= stat_xoff_reg[m*32 +: 32] + 32'd1;
        end
        if (ev_xon_reg[m]) begin
            stat_xon_reg[m*32 +: 32] <= stat_xon_reg[m*32 +: 32] + 32'd1;
        end
    end

    if (rst) begin
        count_reg <= 7'd0;
        da_bad_reg <= 1'b0;
        type_ok_reg <= 2'b00;
        op_ok_reg <= 2'b00;
        ok_lane_reg <= {KEEP_WIDTH{1'b0}};
        ok_done_reg <= 1'b0;
        ok_lane_prio_reg <= {8*KEEP_WIDTH{1'b0}};
        ok_done_prio_reg <= 8'd0;
        timer_reg <= {32*8{1'b0}};
        pause_reg <= 8'd0;
        ev_pfc_reg <= 1'b0;
        ev_malformed_reg <= 1'b0;
        ev_xoff_reg <= 8'd0;
        ev_xon_reg <= 8'd0;
        stat_pfc_reg <= 32'd0;
        stat_xoff_reg <= {8*32{1'b0}};
        stat_xon_reg <= {8*32{1'b0}};
        stat_malformed_reg <= 32'd0;
    end
end

endmodule

`resetall
