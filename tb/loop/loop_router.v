/*
 * loop_router: the forwarding decision in front of one switch_core ingress port of the loop
 * testbench, and the IPv4 hop that makes a routing loop finite.
 *
 * switch_core takes the egress port as tdest with the frame; prevention (PREVENT_ENABLE)
 * decides "same port group" from the tdest of the first beat, so tdest must be the frame's
 * decision from its first beat on.  This stage is the lookup of a static routing table: every
 * frame arriving here goes to cfg_route_dest, except an 802.1Q-tagged IPv4 frame whose TTL
 * this hop takes to 0, which goes to cfg_expire_dest (the switch's host port: the expired
 * frame leaves the ring there instead of being silently discarded, so the testbench can
 * account for it).  With TTL_ENABLE the TTL is decremented and the header checksum updated
 * incrementally (RFC 1624 eq. 3: HC' = ~(~HC + ~m + m')), as a router does on every hop; a
 * received TTL of 0 is not decremented and expires.  Other frames (PFC / MAC Control,
 * untagged, non-IPv4) pass unchanged to cfg_route_dest.
 *
 * Frame layout at DATA_WIDTH 64 (byte n of the frame in lane n % 8 of beat n / 8):
 *
 *   beat 1  octets 12-13  TPID 0x8100
 *   beat 2  octets 16-17  EtherType 0x0800, octet 18 version / IHL (version 4)
 *   beat 3  octet 26 TTL, 27 protocol, 28-29 header checksum
 *
 * The decision is known with beat 3, so beats wait in a FIFO of FIFO_DEPTH beats and a frame
 * starts out only once its decision is in the decision queue (beat 3 or, for a shorter frame,
 * its last beat received).  The output lags the input by 3 beats and keeps the full rate.
 * Test-only, not synthesised.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module loop_router #(
    // stream width in bits (the header offsets above assume 64)
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // tdest width of switch_core
    parameter DEST_WIDTH = 8,
    // 1: decrement the IPv4 TTL (a routed hop); 0: route only
    parameter TTL_ENABLE = 1
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire [DATA_WIDTH-1:0]  s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0]  s_axis_tkeep,
    input  wire                   s_axis_tvalid,
    output wire                   s_axis_tready,
    input  wire                   s_axis_tlast,
    input  wire                   s_axis_tuser,

    output wire [DATA_WIDTH-1:0]  m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]  m_axis_tkeep,
    output wire                   m_axis_tvalid,
    input  wire                   m_axis_tready,
    output wire                   m_axis_tlast,
    output wire                   m_axis_tuser,
    output wire [DEST_WIDTH-1:0]  m_axis_tdest,

    /*
     * Routing table (static in the testbench)
     */
    input  wire [DEST_WIDTH-1:0]  cfg_route_dest,
    input  wire [DEST_WIDTH-1:0]  cfg_expire_dest,

    /*
     * Status
     */
    output wire [31:0]            stat_expired,
    output wire [31:0]            stat_routed
);

initial begin
    if (DATA_WIDTH != 64) begin
        $error("loop_router: DATA_WIDTH must be 64");
        $finish;
    end
end

localparam BEAT_W = DATA_WIDTH + KEEP_WIDTH + 2;
localparam FIFO_DEPTH = 16;
localparam FIFO_PTR_W = 4;
localparam DQ_DEPTH = 4;
localparam DQ_PTR_W = 2;

reg  [BEAT_W-1:0]      fifo_mem [0:FIFO_DEPTH-1];
reg  [FIFO_PTR_W:0]    wr_ptr_reg, rd_ptr_reg;
reg  [DEST_WIDTH-1:0]  dq_mem [0:DQ_DEPTH-1];
reg  [DQ_PTR_W:0]      dq_wr_reg, dq_rd_reg;
reg  [2:0]             beat_reg;        // beat of the frame at the input, saturates at 4
reg                    tag_reg;         // octets 12-13 were 0x8100
reg                    ipv4_reg;        // and octets 16-18 say IPv4
reg  [31:0]            expired_reg;
reg  [31:0]            routed_reg;

wire [FIFO_PTR_W:0] fifo_count = wr_ptr_reg - rd_ptr_reg;
wire [DQ_PTR_W:0]   dq_count = dq_wr_reg - dq_rd_reg;
wire fifo_full = fifo_count == FIFO_DEPTH[FIFO_PTR_W:0];
wire dq_full = dq_count == DQ_DEPTH[DQ_PTR_W:0];
wire in_ready = !fifo_full && !dq_full;
wire fire = s_axis_tvalid && in_ready;

wire       at_ttl = beat_reg == 3'd3 && tag_reg && ipv4_reg;
wire [7:0] ttl_in = s_axis_tdata[23:16];
wire [7:0] proto = s_axis_tdata[31:24];
wire [7:0] ttl_new = (TTL_ENABLE != 0 && ttl_in != 8'd0) ? ttl_in - 8'd1 : ttl_in;
wire       expire = at_ttl && (TTL_ENABLE != 0 ? ttl_new == 8'd0 : 1'b0);
wire [15:0] csum_in = {s_axis_tdata[39:32], s_axis_tdata[47:40]};
// RFC 1624 eq. 3 in ones' complement arithmetic
wire [17:0] csum_sum = {2'b00, ~csum_in} + {2'b00, ~{ttl_in, proto}} + {2'b00, ttl_new, proto};
wire [16:0] csum_fold1 = {1'b0, csum_sum[15:0]} + {15'd0, csum_sum[17:16]};
wire [15:0] csum_fold2 = csum_fold1[15:0] + {15'd0, csum_fold1[16]};
wire [15:0] csum_new = ~csum_fold2;

reg [DATA_WIDTH-1:0] data_in;
always @* begin
    data_in = s_axis_tdata;
    if (at_ttl && TTL_ENABLE != 0) begin
        data_in[23:16] = ttl_new;
        data_in[39:32] = csum_new[15:8];
        data_in[47:40] = csum_new[7:0];
    end
end

// the frame's decision: with beat 3, or with the last beat of a shorter frame
wire decide = fire && (beat_reg == 3'd3 || (s_axis_tlast && beat_reg < 3'd3));
wire [DEST_WIDTH-1:0] decision = expire ? cfg_expire_dest : cfg_route_dest;

wire [BEAT_W-1:0] head = fifo_mem[rd_ptr_reg[FIFO_PTR_W-1:0]];
wire out_valid = fifo_count != {(FIFO_PTR_W+1){1'b0}} && dq_count != {(DQ_PTR_W+1){1'b0}};
wire out_fire = out_valid && m_axis_tready;

always @(posedge clk) begin
    if (fire) begin
        fifo_mem[wr_ptr_reg[FIFO_PTR_W-1:0]] <= {data_in, s_axis_tkeep, s_axis_tlast,
                                                 s_axis_tuser};
        wr_ptr_reg <= wr_ptr_reg + 1'b1;
        if (s_axis_tlast) begin
            beat_reg <= 3'd0;
            tag_reg <= 1'b0;
            ipv4_reg <= 1'b0;
        end else begin
            if (beat_reg != 3'd4) begin
                beat_reg <= beat_reg + 3'd1;
            end
            if (beat_reg == 3'd1) begin
                tag_reg <= s_axis_tdata[39:32] == 8'h81 && s_axis_tdata[47:40] == 8'h00;
            end
            if (beat_reg == 3'd2) begin
                ipv4_reg <= s_axis_tdata[7:0] == 8'h08 && s_axis_tdata[15:8] == 8'h00
                            && s_axis_tdata[23:20] == 4'h4;
            end
        end
        if (beat_reg == 3'd3) begin
            if (expire) begin
                expired_reg <= expired_reg + 32'd1;
            end else if (at_ttl) begin
                routed_reg <= routed_reg + 32'd1;
            end
        end
    end
    if (decide) begin
        dq_mem[dq_wr_reg[DQ_PTR_W-1:0]] <= decision;
        dq_wr_reg <= dq_wr_reg + 1'b1;
    end
    if (out_fire) begin
        rd_ptr_reg <= rd_ptr_reg + 1'b1;
        if (m_axis_tlast) begin
            dq_rd_reg <= dq_rd_reg + 1'b1;
        end
    end
    if (rst) begin
        wr_ptr_reg <= {(FIFO_PTR_W+1){1'b0}};
        rd_ptr_reg <= {(FIFO_PTR_W+1){1'b0}};
        dq_wr_reg <= {(DQ_PTR_W+1){1'b0}};
        dq_rd_reg <= {(DQ_PTR_W+1){1'b0}};
        beat_reg <= 3'd0;
        tag_reg <= 1'b0;
        ipv4_reg <= 1'b0;
        expired_reg <= 32'd0;
        routed_reg <= 32'd0;
    end
end

assign s_axis_tready = in_ready;
assign {m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser} = head;
assign m_axis_tvalid = out_valid;
assign m_axis_tdest = dq_mem[dq_rd_reg[DQ_PTR_W-1:0]];
assign stat_expired = expired_reg;
assign stat_routed = routed_reg;

endmodule

`resetall
