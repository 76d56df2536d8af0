/*
 * loop_link: one direction of a link between two switch_core ports in the loop testbench.
 *
 * DELAY register stages (the beats in flight on the cable), each a pipeline register whose
 * ready passes through combinationally, so the link runs at full rate and passes the
 * receiver's back-pressure (switch_core's s_axis_tready) to the sender.  Data frames and the
 * sender's PFC frames share the link, as on a real cable.  Test-only, not synthesised.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module loop_link #(
    // stream width in bits
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // clocks a beat spends on the link (>= 1)
    parameter DELAY = 4
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
    output wire                   m_axis_tuser
);

localparam BEAT_W = DATA_WIDTH + KEEP_WIDTH + 2;

initial begin
    if (DELAY < 1) begin
        $error("loop_link: DELAY must be at least 1");
        $finish;
    end
end

// stage i holds beat_reg[i]; stage DELAY-1 drives the output
reg  [BEAT_W-1:0]  beat_reg [0:DELAY-1];
reg  [DELAY-1:0]   valid_reg;
wire [DELAY:0]     ready;          // ready[i]: stage i may load (ready[DELAY] = output ready)

assign ready[DELAY] = m_axis_tready;

genvar i;
generate
    for (i = 0; i < DELAY; i = i + 1) begin : stage
        wire [BEAT_W-1:0] beat_in;
        wire              valid_in;
        if (i == 0) begin : first
            assign beat_in = {s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser};
            assign valid_in = s_axis_tvalid;
        end else begin : next
            assign beat_in = beat_reg[i-1];
            assign valid_in = valid_reg[i-1];
        end
        assign ready[i] = !valid_reg[i] || ready[i+1];
        always @(posedge clk) begin
            if (ready[i]) begin
                valid_reg[i] <= valid_in;
                beat_reg[i] <= beat_in;
            end
            if (rst) begin
                valid_reg[i] <= 1'b0;
            end
        end
    end
endgenerate

assign s_axis_tready = ready[0];
assign {m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser} = beat_reg[DELAY-1];
assign m_axis_tvalid = valid_reg[DELAY-1];

endmodule

`resetall
