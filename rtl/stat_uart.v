/*
 * Prints COUNT 32-bit counters as one text line on the UART when `trigger` pulses:
 *
 *     "<l0>=XXXXXXXX <l1>=XXXXXXXX ...\r\n"
 *
 * with a one-character label per counter (LABELS, first counter in the low byte) and
 * upper-case hex digits.  The values are sampled when the line starts.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module stat_uart #(
    // number of 32-bit counters on a line
    parameter COUNT = 4,
    // one ASCII label per counter, counter 0 in bits [7:0]
    parameter [8*COUNT-1:0] LABELS = "dcba",
    // clock cycles per UART bit
    parameter CLKS_PER_BIT = 1085
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              trigger,
    input  wire [32*COUNT-1:0] values,
    output wire              txd,
    output wire              busy
);

// per counter: label, '=', 8 hex digits, separator (' ', or "\r" after the last), then "\n"
localparam FIELD_W = $clog2(COUNT + 1);

reg  [32*COUNT-1:0] snap_reg;
reg  [FIELD_W-1:0]  field_reg;   // counter being printed; COUNT: the final "\n"
reg  [3:0]          pos_reg;     // character within the counter's 11
reg                 active_reg;
wire                tx_ready;
reg  [7:0]          ch;
reg  [31:0]         word;

assign busy = active_reg;

function [7:0] hex;
    input [3:0] v;
    begin
        hex = (v < 4'd10) ? (8'h30 + {4'd0, v}) : (8'h37 + {4'd0, v});
    end
endfunction

integer k;
always @* begin
    word = 32'd0;
    ch = 8'h0a;
    for (k = 0; k < COUNT; k = k + 1) begin
        if (field_reg == k[FIELD_W-1:0]) begin
            word = snap_reg[32*k +: 32];
            if (pos_reg == 4'd0) begin
                ch = LABELS[8*k +: 8];
            end else if (pos_reg == 4'd1) begin
                ch = 8'h3d;
            end else if (pos_reg == 4'd10) begin
                ch = (k == COUNT - 1) ? 8'h0d : 8'h20;
            end else begin
                ch = hex(word[31 - 4 * (pos_reg - 4'd2) -: 4]);
            end
        end
    end
end

uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) uart_inst (
    .clk(clk),
    .rst(rst),
    .s_data(ch),
    .s_valid(active_reg),
    .s_ready(tx_ready),
    .txd(txd)
);

always @(posedge clk) begin
    if (!active_reg) begin
        if (trigger) begin
            snap_reg <= values;
            field_reg <= {FIELD_W{1'b0}};
            pos_reg <= 4'd0;
            active_reg <= 1'b1;
        end
    end else if (tx_ready) begin
        if (field_reg == COUNT[FIELD_W-1:0]) begin
            active_reg <= 1'b0;
        end else if (pos_reg == 4'd10) begin
            pos_reg <= 4'd0;
            field_reg <= field_reg + 1'b1;
        end else begin
            pos_reg <= pos_reg + 1'b1;
        end
    end
    if (rst) begin
        active_reg <= 1'b0;
        field_reg <= {FIELD_W{1'b0}};
        pos_reg <= 4'd0;
        snap_reg <= {32*COUNT{1'b0}};
    end
end

endmodule

`resetall
