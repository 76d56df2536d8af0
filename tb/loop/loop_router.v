/*
 * loop_router: the forwarding decision in front of one switch_core ingress port of the loop
 * testbench, and the IPv4 hop that makes a routing loop finite.
 *
 * switch_core takes the egress port as tdest with the frame (docs/switch_core.md: the dest of
 * the frame's last word is used).  This stage is the lookup of a static routing table: every
 * frame arriving here goes to cfg_route_dest, except an 802.1Q-tagged IPv4 frame whose TTL
 * this hop takes to 0, which goes to cfg_expire_dest (the switch's host port: the expired
 * frame leaves the ring there instead of being silently discarded, so the testbench can
 * account for it).  With TTL_ENABLE the TTL is decremented and the header checksum updated
 * incrementally (RFC 1624 eq. 3: HC' = ~(~HC + ~m + m')), as a router does on every hop; a
 * received TTL of 0 is not decremented and expires.  Other frames (PFC / MAC Control, untagged,
 * non-IPv4) pass unchanged.
 *
 * Frame layout at DATA_WIDTH 64 (byte n of the frame in lane n % 8 of beat n / 8):
 *
 *   beat 1  octets 12-13  TPID 0x8100
 *   beat 2  octets 16-17  EtherType 0x0800, octet 18 version / IHL (version 4)
 *   beat 3  octet 26 TTL, 27 protocol, 28-29 header checksum
 *
 * One pipeline register (ready passes through combinationally); test-only, not synthesised.
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

reg  [DATA_WIDTH-1:0]  data_reg;
reg  [KEEP_WIDTH-1:0]  keep_reg;
reg                    valid_reg;
reg                    last_reg;
reg                    user_reg;
reg  [DEST_WIDTH-1:0]  dest_reg;
reg  [2:0]             beat_reg;        // beat of the frame at the input, saturates at 4
reg                    tag_reg;         // octets 12-13 were 0x8100
reg                    ipv4_reg;        // and octets 16-18 say IPv4
reg  [DEST_WIDTH-1:0]  frame_dest_reg;  // decision for the rest of the frame (beat > 3)
reg  [31:0]            expired_reg;
reg  [31:0]            routed_reg;

wire load = !valid_reg || m_axis_tready;
wire fire = s_axis_tvalid && load;

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

reg [DATA_WIDTH-1:0] data_out;
reg [DEST_WIDTH-1:0] dest_out;
always @* begin
    data_out = s_axis_tdata;
    if (at_ttl && TTL_ENABLE != 0) begin
        data_out[23:16] = ttl_new;
        data_out[39:32] = csum_new[15:8];
        data_out[47:40] = csum_new[7:0];
    end
    if (beat_reg < 3'd3) begin
        dest_out = cfg_route_dest;
    end else if (beat_reg == 3'd3) begin
        dest_out = expire ? cfg_expire_dest : cfg_route_dest;
    end else begin
        dest_out = frame_dest_reg;
    end
end

always @(posedge clk) begin
    if (load) begin
        valid_reg <= s_axis_tvalid;
        data_reg <= data_out;
        keep_reg <= s_axis_tkeep;
        last_reg <= s_axis_tlast;
        user_reg <= s_axis_tuser;
        dest_reg <= dest_out;
    end
    if (fire) begin
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
            frame_dest_reg <= dest_out;
            if (expire) begin
                expired_reg <= expired_reg + 32'd1;
            end else if (at_ttl) begin
                routed_reg <= routed_reg + 32'd1;
            end
        end
    end
    if (rst) begin
        valid_reg <= 1'b0;
        beat_reg <= 3'd0;
        tag_reg <= 1'b0;
        ipv4_reg <= 1'b0;
        frame_dest_reg <= {DEST_WIDTH{1'b0}};
        expired_reg <= 32'd0;
        routed_reg <= 32'd0;
    end
end

assign s_axis_tready = load;
assign m_axis_tdata = data_reg;
assign m_axis_tkeep = keep_reg;
assign m_axis_tvalid = valid_reg;
assign m_axis_tlast = last_reg;
assign m_axis_tuser = user_reg;
assign m_axis_tdest = dest_reg;
assign stat_expired = expired_reg;
assign stat_routed = routed_reg;

endmodule

`resetall
