/*
 * Test-frame generator for the board self-test: one per switch port, acting as the port's
 * link partner.  Sends 802.1Q-tagged frames on AXI-Stream to a destination port, and honours
 * PFC: a priority paused by the partner's pfc_rx (`pause`) starts no new frame (a frame in
 * flight is finished, as 802.1Qbb requires).
 *
 * Frame (no FCS; the MAC adds it):
 *
 *  Field                       Length
 *  Destination MAC             6 octets   02-00-00-00-00-<dest port>
 *  Source MAC                  6 octets   02-00-00-00-00-<SRC_PORT>
 *  802.1Q TPID                 2 octets   0x8100
 *  TCI                         2 octets   PCP = priority, VID 1
 *  EtherType                   2 octets   0x88B5 (IEEE local experimental)
 *  sequence number             4 octets   per (source, priority), big endian
 *  payload                     len-22     byte i = seq[7:0] + i ^ SRC_PORT (i from frame start)
 *
 * tdest carries the destination port (the lookup result the switch core expects).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module frame_gen #(
    // stream width in bits (8 or 64)
    parameter DATA_WIDTH = 8,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // width of tdest
    parameter DEST_WIDTH = 2,
    // this generator's port number (source MAC, payload pattern)
    parameter SRC_PORT = 0
) (
    input  wire                  clk,
    input  wire                  rst,

    // frame requests: one frame per enable, destination, priority and length from cfg
    input  wire                  enable,
    input  wire [DEST_WIDTH-1:0] cfg_dest,
    input  wire [2:0]            cfg_prio,
    input  wire [13:0]           cfg_len,      // bytes without FCS, 64..9216
    input  wire [15:0]           cfg_gap,      // idle clocks between frames
    input  wire [7:0]            pause,        // from the partner's PFC receiver

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,
    output wire [DEST_WIDTH-1:0] m_axis_tdest,

    output wire [31:0]           stat_frames,
    output wire [31:0]           stat_paused_cycles
);

initial begin
    if (DATA_WIDTH != 8 && DATA_WIDTH != 64) begin
        $error("frame_gen: DATA_WIDTH must be 8 or 64");
        $finish;
    end
end

// header octets 0..21 (MACs, tag, EtherType, sequence number); payload from octet 22
localparam HDR_OCTETS = 22;
// beats that carry header octets; the rest of the last of them is payload
localparam HDR_BEATS = (HDR_OCTETS + KEEP_WIDTH - 1) / KEEP_WIDTH;
localparam HDR_BYTES = HDR_BEATS * KEEP_WIDTH;
localparam [7:0] PAY_OFFSET = HDR_BYTES;
localparam [7:0] BEAT_OCTETS = KEEP_WIDTH;
localparam KW_LOG = $clog2(KEEP_WIDTH);
localparam [13:0] LANE_MASK = KEEP_WIDTH - 1;
localparam HI_W = $clog2(HDR_BEATS + 1);

/*
 * A frame starts in two clocks, then streams from registers:
 *
 *   decide  gap over, enabled, priority not paused: the request (cfg_*) and the priority's
 *           sequence number are latched
 *   load    the first beat goes to the output register; the header beat index, per lane
 *           payload counters, beat counter and last-beat tkeep are set up
 *   stream  each accepted beat loads the next one: a header beat selected by the index from
 *           the header the latched fields give (with the payload octets that share its last
 *           beat), or a payload beat from the lane counters
 *
 * The header is selected, not shifted: the fields it is built from hold still during the
 * frame, so an accepted beat only moves a small index (the handshake's fan-out stays at the
 * output register and the counters, not a register of the whole header).
 *
 * The gap counts cfg_gap - 1 clocks so that the idle time between frames stays cfg_gap + 1
 * clocks as in a one-clock start (cfg_gap 0: two clocks).  The counter runs from that minus 2
 * down to -1, so "gap over" is its sign bit rather than a 16-bit compare.
 */

reg                  loading_reg;
reg                  active_reg;
reg [2:0]            prio_reg;
reg [DEST_WIDTH-1:0] dest_reg;
reg [13:0]           len_reg;
reg [31:0]           seq_cur_reg;          // sequence number of the frame being sent
reg [31:0]           seq_inc_reg;          // seq_cur_reg + 1, written back at the frame's end
reg [31:0]           seq_reg [0:7];
reg [16:0]           gap_reg;              // idle clocks left, minus 2 (sign bit: last one)
reg                  gap_zero_reg;
reg [16:0]           gap_load_reg;
reg                  gap_load_zero_reg;
reg [31:0]           frames_reg;
reg [31:0]           paused_reg;

// the header beat the next beat is, while hdr_more_reg[0]
reg [HI_W-1:0]        hdr_idx_reg;
reg [HDR_BEATS-1:0]   hdr_more_reg;        // bit 0: the next beat is a header beat (hdr_idx_reg)
reg [DATA_WIDTH-1:0]  lane_reg;           // per lane: seq[7:0] + octet offset of the lane
// beats after the next one, minus one: the sign bit says the next beat is the last
reg [14-KW_LOG:0]     beats_reg;
reg [KEEP_WIDTH-1:0]  last_keep_reg;

reg [DATA_WIDTH-1:0] tdata_reg;
reg [KEEP_WIDTH-1:0] tkeep_reg;
reg                  tvalid_reg;
reg                  tlast_reg;

assign m_axis_tdata = tdata_reg;
assign m_axis_tkeep = tkeep_reg;
assign m_axis_tvalid = tvalid_reg;
assign m_axis_tlast = tlast_reg;
assign m_axis_tuser = 1'b0;
assign m_axis_tdest = dest_reg;
assign stat_frames = frames_reg;
assign stat_paused_cycles = paused_reg;

// the whole header region as the load step builds it (octet i at [8*i +: 8])
reg [8*HDR_BYTES-1:0] hdr_full;
integer i, b;           // loop variables of the combinational blocks
integer lane, pr;        // loop variables of the clocked block (one driver each for Yosys)
always @* begin
    hdr_full = {8*HDR_BYTES{1'b0}};
    hdr_full[8*0 +: 8] = 8'h02;
    hdr_full[8*5 +: 8] = {{(8-DEST_WIDTH){1'b0}}, dest_reg};
    hdr_full[8*6 +: 8] = 8'h02;
    hdr_full[8*11 +: 8] = SRC_PORT[7:0];
    hdr_full[8*12 +: 8] = 8'h81;
    hdr_full[8*14 +: 8] = {prio_reg, 5'd0};
    hdr_full[8*15 +: 8] = 8'h01;
    hdr_full[8*16 +: 8] = 8'h88;
    hdr_full[8*17 +: 8] = 8'hb5;
    hdr_full[8*18 +: 8] = seq_cur_reg[31:24];
    hdr_full[8*19 +: 8] = seq_cur_reg[23:16];
    hdr_full[8*20 +: 8] = seq_cur_reg[15:8];
    hdr_full[8*21 +: 8] = seq_cur_reg[7:0];
    // payload octets in the last header beat: octet i = seq[7:0] + i ^ SRC_PORT
    for (i = HDR_OCTETS; i < HDR_BYTES; i = i + 1) begin
        hdr_full[8*i +: 8] = (seq_cur_reg[7:0] + i[7:0]) ^ SRC_PORT[7:0];
    end
end

// the beat after the one in the output register
reg [DATA_WIDTH-1:0] next_data;
reg [KEEP_WIDTH-1:0] next_keep;
wire                 next_last = beats_reg[14-KW_LOG];
always @* begin
    next_keep = next_last ? last_keep_reg : {KEEP_WIDTH{1'b1}};
    for (b = 0; b < KEEP_WIDTH; b = b + 1) begin
        if (!next_keep[b]) begin
            next_data[8*b +: 8] = 8'd0;
        end else if (hdr_more_reg[0]) begin
            next_data[8*b +: 8] = hdr_full[DATA_WIDTH*hdr_idx_reg + 8*b +: 8];
        end else begin
            next_data[8*b +: 8] = lane_reg[8*b +: 8] ^ SRC_PORT[7:0];
        end
    end
end

wire decide = !active_reg && !loading_reg && gap_zero_reg && enable;
wire accept = tvalid_reg && m_axis_tready;

always @(posedge clk) begin
    gap_load_reg <= {1'b0, cfg_gap} - 17'd3;     // used when cfg_gap > 1
    gap_load_zero_reg <= cfg_gap <= 16'd1;
    seq_inc_reg <= seq_cur_reg + 1'b1;

    // the gap: loaded as a frame's last beat is taken, then counted down while idle
    if (accept && tlast_reg) begin
        gap_reg <= gap_load_reg;
    end else if (!active_reg && !gap_zero_reg) begin
        gap_reg <= gap_reg - 1'b1;
    end
    if (!active_reg && !loading_reg && !gap_zero_reg) begin
        gap_zero_reg <= gap_reg[16];
    end

    if (decide) begin
        if (pause[cfg_prio]) begin
            paused_reg <= paused_reg + 1'b1;
        end else begin
            loading_reg <= 1'b1;
            prio_reg <= cfg_prio;
            dest_reg <= cfg_dest;
            // (below 64 as its high bits zero: a LUT, not a carry chain, before the register)
            len_reg <= (cfg_len[13:6] == 8'd0) ? 14'd64 : cfg_len;
            seq_cur_reg <= seq_reg[cfg_prio];
        end
    end

    if (loading_reg) begin
        // len_reg >= 64 > 2 * KEEP_WIDTH: the first beat is full and not the last
        loading_reg <= 1'b0;
        active_reg <= 1'b1;
        tvalid_reg <= 1'b1;
        tdata_reg <= hdr_full[0 +: DATA_WIDTH];
        tkeep_reg <= {KEEP_WIDTH{1'b1}};
        tlast_reg <= 1'b0;
        hdr_idx_reg <= 1;
        hdr_more_reg <= {1'b0, {(HDR_BEATS-1){1'b1}}};
        for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
            lane_reg[8*lane +: 8] <= seq_cur_reg[7:0] + PAY_OFFSET + lane[7:0];
        end
        // beats in the frame: ceil(len / KEEP_WIDTH); after the second: that minus 2, so
        // minus one more for the sign-bit test
        beats_reg <= ((len_reg - 14'd1) >> KW_LOG) - 14'd2;
        for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
            last_keep_reg[lane] <= lane[13:0] <= ((len_reg - 14'd1) & LANE_MASK);
        end
    end else if (accept) begin
        if (tlast_reg) begin
            active_reg <= 1'b0;
            tvalid_reg <= 1'b0;
            gap_zero_reg <= gap_load_zero_reg;
            seq_reg[prio_reg] <= seq_inc_reg;
            frames_reg <= frames_reg + 1'b1;
        end else begin
            tdata_reg <= next_data;
            tkeep_reg <= next_keep;
            tlast_reg <= next_last;
            beats_reg <= beats_reg - 1'b1;
            hdr_more_reg <= hdr_more_reg >> 1;
            if (hdr_more_reg[0]) begin
                hdr_idx_reg <= hdr_idx_reg + 1'b1;
            end else begin
                for (lane = 0; lane < KEEP_WIDTH; lane = lane + 1) begin
                    lane_reg[8*lane +: 8] <= lane_reg[8*lane +: 8] + BEAT_OCTETS;
                end
            end
        end
    end

    if (rst) begin
        loading_reg <= 1'b0;
        active_reg <= 1'b0;
        tvalid_reg <= 1'b0;
        tlast_reg <= 1'b0;
        prio_reg <= 3'd0;
        dest_reg <= {DEST_WIDTH{1'b0}};
        gap_zero_reg <= 1'b1;
        frames_reg <= 32'd0;
        paused_reg <= 32'd0;
        for (pr = 0; pr < 8; pr = pr + 1) begin
            seq_reg[pr] <= 32'd0;
        end
    end
end

endmodule

`resetall
