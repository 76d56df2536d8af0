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

/*
 * Each character is computed into a register from shift registers (the counters left to
 * print, the digits of the current one, the labels) and offered to the UART from there; the
 * state advances when the UART takes it, and the next character is ready one clock later.
 */
reg  [32*COUNT-1:0] snap_reg;    // counters after the current one, next in the low word
reg  [31:0]         word_reg;    // current counter, next digit in the top nibble
reg  [8*COUNT-1:0]  label_reg;   // labels from the current counter's, in the low byte
reg  [FIELD_W-1:0]  field_reg;   // counter being printed; COUNT: the final "\n"
reg                 final_reg;   // field_reg == COUNT
reg                 lastf_reg;   // field_reg == COUNT - 1
reg  [3:0]          pos_reg;     // character within the counter's 11
reg                 active_reg;
reg  [7:0]          ch_reg;
reg                 ch_valid_reg;
wire                tx_ready;
reg  [7:0]          ch;

assign busy = active_reg;

function [7:0] hex;
    input [3:0] v;
    begin
        hex = (v < 4'd10) ? (8'h30 + {4'd0, v}) : (8'h37 + {4'd0, v});
    end
endfunction

always @* begin
    if (final_reg) begin
        ch = 8'h0a;
    end else if (pos_reg == 4'd0) begin
        ch = label_reg[7:0];
    end else if (pos_reg == 4'd1) begin
        ch = 8'h3d;
    end else if (pos_reg == 4'd10) begin
        ch = lastf_reg ? 8'h0d : 8'h20;
    end else begin
        ch = hex(word_reg[31:28]);
    end
end

uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) uart_inst (
    .clk(clk),
    .rst(rst),
    .s_data(ch_reg),
    .s_valid(ch_valid_reg),
    .s_ready(tx_ready),
    .txd(txd)
);

always @(posedge clk) begin
    if (!active_reg) begin
        if (trigger) begin
            snap_reg <= values >> 32;
            word_reg <= values[31:0];
            label_reg <= LABELS;
            field_reg <= {FIELD_W{1'b0}};
            final_reg <= 1'b0;
            lastf_reg <= COUNT == 1;
            pos_reg <= 4'd0;
            active_reg <= 1'b1;
        end
    end else if (!ch_valid_reg) begin
        ch_reg <= ch;
        ch_valid_reg <= 1'b1;
    end else if (tx_ready) begin
        ch_valid_reg <= 1'b0;
        if (final_reg) begin
            active_reg <= 1'b0;
        end else if (pos_reg == 4'd10) begin
            pos_reg <= 4'd0;
            field_reg <= field_reg + 1'b1;
            final_reg <= lastf_reg;
            lastf_reg <= field_reg == COUNT[FIELD_W-1:0] - 2'd2;
            word_reg <= snap_reg[31:0];
            snap_reg <= snap_reg >> 32;
            label_reg <= label_reg >> 8;
        end else begin
            pos_reg <= pos_reg + 1'b1;
            if (pos_reg >= 4'd2) begin
                word_reg <= word_reg << 4;
            end
        end
    end
    if (rst) begin
        active_reg <= 1'b0;
        ch_valid_reg <= 1'b0;
        ch_reg <= 8'h0a;
        field_reg <= {FIELD_W{1'b0}};
        final_reg <= 1'b0;
        lastf_reg <= 1'b0;
        pos_reg <= 4'd0;
        snap_reg <= {32*COUNT{1'b0}};
        word_reg <= 32'd0;
        label_reg <= {8*COUNT{1'b0}};
    end
end

endmodule

`resetall
