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
 * state advances to the next character as it is latched, and when the UART takes it the next
 * character is latched one clock later.  The position in a counter's field is kept as flags
 * (label, '=', separator) so that neither the character nor the state update decodes a
 * counter; only the control state is reset.
 */
reg  [32*COUNT-1:0] snap_reg;    // counters after the current one, next in the low word
reg  [31:0]         word_reg;    // current counter, next digit in the top nibble
reg  [8*COUNT-1:0]  label_reg;   // labels from the current counter's, in the low byte
reg  [FIELD_W-1:0]  field_reg;   // counter being printed; COUNT: the final "\n"
reg                 final_reg;   // field_reg == COUNT
reg                 lastf_reg;   // field_reg == COUNT - 1
reg  [3:0]          pos_reg;     // character within the counter's 11
reg                 at_label_reg;   // pos_reg == 0
reg                 at_eq_reg;      // pos_reg == 1
reg                 at_sep_reg;     // pos_reg == 10
reg                 active_reg;
reg                 done_reg;    // the final "\n" is latched: stop when the UART takes it
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
    end else if (at_label_reg) begin
        ch = label_reg[7:0];
    end else if (at_eq_reg) begin
        ch = 8'h3d;
    end else if (at_sep_reg) begin
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

// Each character is latched into ch_reg while the state advances to the next one; the UART
// takes it later (ch_valid_reg, tx_ready), so the wide shift registers are enabled by the
// latch (active, !ch_valid) and never by the UART's handshake.
wire latch = active_reg && !ch_valid_reg;

// the shift registers: loaded at the line start, stepped as a character is latched (the
// separator moves to the next counter, a digit to the next nibble); the enables and the
// data selects are plain functions of registers
wire sr_load = !active_reg && trigger;
wire next_field = !final_reg && at_sep_reg;
wire next_digit = !final_reg && !at_sep_reg && !at_label_reg && !at_eq_reg;

always @(posedge clk) begin
    if (sr_load || (latch && next_field)) begin
        snap_reg <= active_reg ? snap_reg >> 32 : values >> 32;
        label_reg <= active_reg ? label_reg >> 8 : LABELS;
    end
    if (sr_load || (latch && (next_field || next_digit))) begin
        if (!active_reg) begin
            word_reg <= values[31:0];
        end else if (at_sep_reg) begin
            word_reg <= snap_reg[31:0];
        end else begin
            word_reg <= word_reg << 4;
        end
    end
    if (latch) begin
        ch_reg <= ch;
    end
end

always @(posedge clk) begin
    if (!active_reg) begin
        if (trigger) begin
            field_reg <= {FIELD_W{1'b0}};
            final_reg <= 1'b0;
            lastf_reg <= COUNT == 1;
            pos_reg <= 4'd0;
            at_label_reg <= 1'b1;
            at_eq_reg <= 1'b0;
            at_sep_reg <= 1'b0;
            done_reg <= 1'b0;
            active_reg <= 1'b1;
        end
    end else if (!ch_valid_reg) begin
        ch_valid_reg <= 1'b1;
        if (final_reg) begin
            done_reg <= 1'b1;
        end else if (at_sep_reg) begin
            pos_reg <= 4'd0;
            at_label_reg <= 1'b1;
            at_sep_reg <= 1'b0;
            field_reg <= field_reg + 1'b1;
            final_reg <= lastf_reg;
            lastf_reg <= field_reg == COUNT[FIELD_W-1:0] - 2'd2;
        end else begin
            pos_reg <= pos_reg + 1'b1;
            at_label_reg <= 1'b0;
            at_eq_reg <= at_label_reg;
            at_sep_reg <= pos_reg == 4'd9;
        end
    end else if (tx_ready) begin
        ch_valid_reg <= 1'b0;
        if (done_reg) begin
            active_reg <= 1'b0;
        end
    end
    if (rst) begin
        active_reg <= 1'b0;
        ch_valid_reg <= 1'b0;
        done_reg <= 1'b0;
        field_reg <= {FIELD_W{1'b0}};
        final_reg <= 1'b0;
        lastf_reg <= 1'b0;
        pos_reg <= 4'd0;
        at_label_reg <= 1'b1;
        at_eq_reg <= 1'b0;
        at_sep_reg <= 1'b0;
    end
end

endmodule

`resetall
