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
localparam [6:0] COUNT_MAX = 7'd64;
localparam [6:0] MIN_LEN = 7'd60;

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

// parser state of the current frame (octets before the current beat)
reg [6:0]   count_reg, count_next;     // octets seen, saturating at COUNT_MAX
reg         da_bad_reg, da_bad_next;
reg [15:0]  type_reg, type_next;
reg [15:0]  opcode_reg, opcode_next;
reg [7:0]   en_reg, en_next;
reg [127:0] time_reg, time_next;       // priority k at [k*16 +: 16]

// pause timers: quanta with 16 fraction bits
reg [32*8-1:0] timer_reg, timer_next;

reg [31:0]     stat_pfc_reg;
reg [8*32-1:0] stat_xoff_reg;
reg [8*32-1:0] stat_xon_reg;
reg [31:0]     stat_malformed_reg;

// the frame including the current beat
reg [6:0] count_cur;
reg [6:0] pos;
reg [7:0] octet;
reg [6:0] da_idx;
reg [7:0] da_octet;

integer i, k, m;  // one loop variable per always block (Yosys: one driver each)

always @* begin
    count_next = count_reg;
    da_bad_next = da_bad_reg;
    type_next = type_reg;
    opcode_next = opcode_reg;
    en_next = en_reg;
    time_next = time_reg;
    count_cur = count_reg;
    pos = count_reg;
    octet = 8'd0;
    da_idx = 7'd0;
    da_octet = 8'd0;
    // tkeep is contiguous from lane 0 (the MAC's convention): lane i is octet count + i
    for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
        pos = count_reg + i[6:0];
        octet = s_axis_tdata[i*8 +: 8];
        if (s_axis_tvalid && s_axis_tkeep[i] && count_reg < COUNT_MAX) begin
            count_cur = pos + 7'd1;
            da_idx = pos;
            case (da_idx)
                7'd1: da_octet = 8'h80;
                7'd2: da_octet = 8'hC2;
                7'd3: da_octet = 8'h00;
                7'd4: da_octet = 8'h00;
                default: da_octet = 8'h01;
            endcase
            if (pos < 7'd6 && octet != da_octet) begin
                da_bad_next = 1'b1;
            end
            if (pos == 7'd12) type_next[15:8] = octet;
            if (pos == 7'd13) type_next[7:0] = octet;
            if (pos == 7'd14) opcode_next[15:8] = octet;
            if (pos == 7'd15) opcode_next[7:0] = octet;
            if (pos == 7'd17) en_next = octet;
            if (pos >= 7'd18 && pos < 7'd34) begin
                // time (pos - 18) / 2, high octet first
                time_next[{pos[3:1] - 3'd1, !pos[0], 3'd0} +: 8] = octet;
            end
        end
    end
    count_next = count_cur;
end

// decision on the tlast beat, from the fields including that beat
wire frame_end = s_axis_tvalid && s_axis_tlast;
wire mac_ctrl = type_next == 16'h8808 && count_cur >= 7'd14;
wire malformed = s_axis_tuser || da_bad_next || opcode_next != 16'h0101 || count_cur < MIN_LEN;
wire apply = frame_end && mac_ctrl && !malformed;

// the next frame starts from a clean parser
wire [6:0]  count_d = frame_end ? 7'd0 : count_next;
wire        da_bad_d = frame_end ? 1'b0 : da_bad_next;
wire [15:0] type_d = frame_end ? 16'd0 : type_next;
wire [15:0] opcode_d = frame_end ? 16'd0 : opcode_next;

assign is_pfc = apply;
assign is_mac_ctrl = frame_end && mac_ctrl;
assign rx_pfc_prio = apply ? en_next : 8'd0;

genvar g;
generate
    for (g = 0; g < 8; g = g + 1) begin : prio
        assign pause[g] = timer_reg[g*32 +: 32] != 32'd0;
    end
endgenerate

assign stat_pfc_frames = stat_pfc_reg;
assign stat_xoff_rx = stat_xoff_reg;
assign stat_xon_rx = stat_xon_reg;
assign stat_malformed = stat_malformed_reg;

always @* begin
    for (k = 0; k < 8; k = k + 1) begin
        if (apply && en_next[k]) begin
            timer_next[k*32 +: 32] = {time_next[k*16 +: 16], 16'd0};
        end else if (timer_reg[k*32 +: 32] > {8'd0, cfg_quanta_step}) begin
            timer_next[k*32 +: 32] = timer_reg[k*32 +: 32] - {8'd0, cfg_quanta_step};
        end else begin
            timer_next[k*32 +: 32] = 32'd0;
        end
    end
end

always @(posedge clk) begin
    count_reg <= count_d;
    da_bad_reg <= da_bad_d;
    type_reg <= type_d;
    opcode_reg <= opcode_d;
    en_reg <= en_next;
    time_reg <= time_next;
    timer_reg <= timer_next;

    if (frame_end && mac_ctrl) begin
        if (malformed) begin
            stat_malformed_reg <= stat_malformed_reg + 32'd1;
        end else begin
            stat_pfc_reg <= stat_pfc_reg + 32'd1;
        end
    end
    for (m = 0; m < 8; m = m + 1) begin
        if (apply && en_next[m]) begin
            if (time_next[m*16 +: 16] != 16'd0) begin
                stat_xoff_reg[m*32 +: 32] <= stat_xoff_reg[m*32 +: 32] + 32'd1;
            end else begin
                stat_xon_reg[m*32 +: 32] <= stat_xon_reg[m*32 +: 32] + 32'd1;
            end
        end
    end

    if (rst) begin
        count_reg <= 7'd0;
        da_bad_reg <= 1'b0;
        type_reg <= 16'd0;
        opcode_reg <= 16'd0;
        timer_reg <= {32*8{1'b0}};
        stat_pfc_reg <= 32'd0;
        stat_xoff_reg <= {8*32{1'b0}};
        stat_xon_reg <= {8*32{1'b0}};
        stat_malformed_reg <= 32'd0;
    end
end

endmodule

`resetall
