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

reg                  active_reg;
reg [13:0]           pos_reg;        // byte offset of the current beat
reg [13:0]           len_reg;
reg [2:0]            prio_reg;
reg [DEST_WIDTH-1:0] dest_reg;
reg [15:0]           gap_reg;
reg [31:0]           seq_reg [0:7];
reg [31:0]           frames_reg;
reg [31:0]           paused_reg;

wire [31:0] seq = seq_reg[prio_reg];

function [7:0] frame_byte;
    input [13:0] idx;
    input [DEST_WIDTH-1:0] dest;
    input [2:0] prio;
    input [31:0] sq;
    begin
        case (idx)
            14'd0, 14'd1, 14'd2, 14'd3, 14'd4: frame_byte = (idx == 14'd0) ? 8'h02 : 8'h00;
            14'd5: frame_byte = {{(8-DEST_WIDTH){1'b0}}, dest};
            14'd6: frame_byte = 8'h02;
            14'd7, 14'd8, 14'd9, 14'd10: frame_byte = 8'h00;
            14'd11: frame_byte = SRC_PORT[7:0];
            14'd12: frame_byte = 8'h81;
            14'd13: frame_byte = 8'h00;
            14'd14: frame_byte = {prio, 5'd0};
            14'd15: frame_byte = 8'h01;
            14'd16: frame_byte = 8'h88;
            14'd17: frame_byte = 8'hb5;
            14'd18: frame_byte = sq[31:24];
            14'd19: frame_byte = sq[23:16];
            14'd20: frame_byte = sq[15:8];
            14'd21: frame_byte = sq[7:0];
            default: frame_byte = (sq[7:0] + idx[7:0]) ^ SRC_PORT[7:0];
        endcase
    end
endfunction

reg [DATA_WIDTH-1:0] data;
reg [KEEP_WIDTH-1:0] keep;
integer b;
always @* begin
    data = {DATA_WIDTH{1'b0}};
    keep = {KEEP_WIDTH{1'b0}};
    for (b = 0; b < KEEP_WIDTH; b = b + 1) begin
        if (pos_reg + b[13:0] < len_reg) begin
            data[8*b +: 8] = frame_byte(pos_reg + b[13:0], dest_reg, prio_reg, seq);
            keep[b] = 1'b1;
        end
    end
end

wire last = (pos_reg + KEEP_WIDTH[13:0] >= len_reg);

assign m_axis_tdata = data;
assign m_axis_tkeep = keep;
assign m_axis_tvalid = active_reg;
assign m_axis_tlast = last;
assign m_axis_tuser = 1'b0;
assign m_axis_tdest = dest_reg;
assign stat_frames = frames_reg;
assign stat_paused_cycles = paused_reg;

integer i;
always @(posedge clk) begin
    if (!active_reg) begin
        if (gap_reg != 16'd0) begin
            gap_reg <= gap_reg - 1'b1;
        end else if (enable) begin
            if (pause[cfg_prio]) begin
                paused_reg <= paused_reg + 1'b1;
            end else begin
                active_reg <= 1'b1;
                pos_reg <= 14'd0;
                len_reg <= (cfg_len < 14'd64) ? 14'd64 : cfg_len;
                prio_reg <= cfg_prio;
                dest_reg <= cfg_dest;
            end
        end
    end else if (m_axis_tready) begin
        pos_reg <= pos_reg + KEEP_WIDTH[13:0];
        if (last) begin
            active_reg <= 1'b0;
            gap_reg <= cfg_gap;
            seq_reg[prio_reg] <= seq + 1'b1;
            frames_reg <= frames_reg + 1'b1;
        end
    end
    if (rst) begin
        active_reg <= 1'b0;
        pos_reg <= 14'd0;
        len_reg <= 14'd64;
        prio_reg <= 3'd0;
        dest_reg <= {DEST_WIDTH{1'b0}};
        gap_reg <= 16'd0;
        frames_reg <= 32'd0;
        paused_reg <= 32'd0;
        for (i = 0; i < 8; i = i + 1) begin
            seq_reg[i] <= 32'd0;
        end
    end
end

endmodule

`resetall
