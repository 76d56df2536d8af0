/*
 * Testbench-only (tb/system): the beat-level half of one link partner of the pyuvm system
 * tests, so Python works per frame and never per clock.
 *
 * Source (into the switch's s_axis): Python writes a frame's beats into the word ring
 * src_data and one descriptor {tdest, tuser, last tkeep, beat count} into desc, then moves
 * desc_wr on.  The port sends the beats back to back as the switch takes them (tkeep full but
 * on the last beat, tuser on the last beat only), like cocotbext-axi's AxiStreamSource.
 * Each frame the switch took completes in_rec {seq, first-beat time, last-beat time}.
 *
 * Monitor (the switch's m_axis): every beat taken goes into mon_data / mon_keep; a clock
 * after a frame's last beat out_rec carries {seq, start time, end time, first word, beats,
 * tuser of any beat, irregular tkeep} (16 + 48 + 48 + 16 + 16 + 1 + 1 bits, zero below), so Python reads the words (all written a clock
 * earlier) when out_rec changes.  Irregular tkeep (not full before the last beat, or a last
 * beat whose tkeep is not a run of ones from bit 0): Python then packs the bytes by tkeep.
 *
 * Drain (m_axis_tready): rx_mode 0 always ready, 1 never, 2 ready rx_n clocks of every rx_m,
 * restarting at the clock Python changes rx_gen.
 *
 * Times are $time at the rising edge that took the beat (the timescale's unit, ns).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_axis_port #(
    // stream width in bits
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // tdest width
    parameter DEST_WIDTH = 8,
    // log2 of the source ring's words
    parameter SRC_AW = 14,
    // log2 of the monitor ring's words (two of the largest frames at least)
    parameter MON_AW = 12,
    // log2 of the descriptor FIFO's entries
    parameter DESC_AW = 8
) (
    input  wire                    clk,
    input  wire                    rst,

    output wire [DATA_WIDTH-1:0]   s_axis_tdata,
    output wire [KEEP_WIDTH-1:0]   s_axis_tkeep,
    output wire                    s_axis_tvalid,
    input  wire                    s_axis_tready,
    output wire                    s_axis_tlast,
    output wire                    s_axis_tuser,
    output wire [DEST_WIDTH-1:0]   s_axis_tdest,

    input  wire [DATA_WIDTH-1:0]   m_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]   m_axis_tkeep,
    input  wire                    m_axis_tvalid,
    output wire                    m_axis_tready,
    input  wire                    m_axis_tlast,
    input  wire                    m_axis_tuser
);

localparam DESC_W = DEST_WIDTH + 1 + KEEP_WIDTH + 16;

// ---------------------------------------------------------------- source (written by Python)
reg [DATA_WIDTH-1:0] src_data [0:(1<<SRC_AW)-1];
reg [DESC_W-1:0]     desc [0:(1<<DESC_AW)-1];
reg [15:0]           desc_wr;   // Python: descriptors written so far (mod 2^16)
reg [15:0]           desc_rd;   // frames the switch took
reg [SRC_AW-1:0]     src_rd;    // next word to send
reg [15:0]           beat;
reg [63:0]           in_start;
reg [127:0]          in_rec;    // {seq 32, start 48, end 48}
reg [63:0]           t_now, t_first;  // blocking temporaries of the clocked blocks

wire [DESC_W-1:0]     d = desc[desc_rd[DESC_AW-1:0]];
wire [15:0]           d_beats = d[15:0];
wire [KEEP_WIDTH-1:0] d_keep = d[16 +: KEEP_WIDTH];
wire                  d_user = d[16 + KEEP_WIDTH];

assign s_axis_tvalid = !rst && desc_rd != desc_wr;
assign s_axis_tdata  = src_data[src_rd];
assign s_axis_tlast  = beat == d_beats - 16'd1;
assign s_axis_tkeep  = s_axis_tlast ? d_keep : {KEEP_WIDTH{1'b1}};
assign s_axis_tuser  = s_axis_tlast & d_user;
assign s_axis_tdest  = d[16 + KEEP_WIDTH + 1 +: DEST_WIDTH];

always @(posedge clk) begin
    t_now = $time;
    if (s_axis_tvalid && s_axis_tready) begin
        src_rd <= src_rd + 1'b1;
        t_first = beat == 16'd0 ? t_now : in_start;
        if (beat == 16'd0)
            in_start <= t_now;
        if (s_axis_tlast) begin
            beat <= 16'd0;
            desc_rd <= desc_rd + 16'd1;
            in_rec <= {in_rec[127:96] + 32'd1, t_first[47:0], t_now[47:0]};
        end else begin
            beat <= beat + 16'd1;
        end
    end
    if (rst) begin
        src_rd <= {SRC_AW{1'b0}};
        desc_rd <= 16'd0;
        beat <= 16'd0;
        in_rec <= 128'd0;
    end
end

// ---------------------------------------------------------------- monitor of m_axis
reg [DATA_WIDTH-1:0] mon_data [0:(1<<MON_AW)-1];
reg [KEEP_WIDTH-1:0] mon_keep [0:(1<<MON_AW)-1];
reg [MON_AW-1:0]     mon_wp;
reg [MON_AW-1:0]     mon_first;
reg [15:0]           mon_beats;
reg [63:0]           mon_start;
reg                  mon_user, mon_irr;
reg                  rec_pend;
reg [255:0]          rec_next;
reg [255:0]          out_rec;   // {seq 16, start 48, end 48, first 16, beats 16, user, irr}

wire                  m_take = m_axis_tvalid && m_axis_tready;
wire                  first_beat = mon_beats == 16'd0;
wire [KEEP_WIDTH-1:0] keep_plus = m_axis_tkeep + 1'b1;
wire                  keep_bad = m_axis_tlast ? (m_axis_tkeep == 0 || (m_axis_tkeep & keep_plus) != 0)
                                              : m_axis_tkeep != {KEEP_WIDTH{1'b1}};

reg [63:0]           m_now, m_first;

always @(posedge clk) begin
    m_now = $time;
    rec_pend <= 1'b0;
    if (rec_pend)
        out_rec <= {out_rec[255:240] + 16'd1, rec_next[239:0]};
    if (m_take) begin
        mon_data[mon_wp] <= m_axis_tdata;
        mon_keep[mon_wp] <= m_axis_tkeep;
        mon_wp <= mon_wp + 1'b1;
        m_first = first_beat ? m_now : mon_start;
        if (m_axis_tlast) begin
            mon_beats <= 16'd0;
            mon_user <= 1'b0;
            mon_irr <= 1'b0;
            rec_pend <= 1'b1;
            rec_next <= {16'd0, m_first[47:0], m_now[47:0],
                         {{(16-MON_AW){1'b0}}, first_beat ? mon_wp : mon_first},
                         mon_beats + 16'd1, mon_user | m_axis_tuser, mon_irr | keep_bad,
                         110'd0};
        end else begin
            if (first_beat) begin
                mon_start <= m_now;
                mon_first <= mon_wp;
            end
            mon_beats <= mon_beats + 16'd1;
            mon_user <= mon_user | m_axis_tuser;
            mon_irr <= mon_irr | keep_bad;
        end
    end
    if (rst) begin
        mon_wp <= {MON_AW{1'b0}};
        mon_beats <= 16'd0;
        mon_user <= 1'b0;
        mon_irr <= 1'b0;
        rec_pend <= 1'b0;
        out_rec <= 256'd0;
    end
end

// ---------------------------------------------------------------- drain pattern (Python)
reg [1:0]  rx_mode;
reg [15:0] rx_n, rx_m, rx_gen;
reg [15:0] rx_gen_q, rx_cnt;
wire       rx_restart = rx_gen != rx_gen_q;
wire [15:0] rx_c = rx_restart ? 16'd0 : rx_cnt;

assign m_axis_tready = rx_mode == 2'd0 ? 1'b1 : rx_mode == 2'd1 ? 1'b0 : rx_c < rx_n;

always @(posedge clk) begin
    rx_gen_q <= rx_gen;
    rx_cnt <= rx_c + 16'd1 == rx_m ? 16'd0 : rx_c + 16'd1;
end

endmodule

`resetall
