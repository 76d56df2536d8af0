/*
 * UART transmitter, 8N1, for the board self-test's counter printout.  s_ready is a register
 * (high while idle); a character is taken on a clock with s_valid and s_ready, and its start
 * bit is on txd from the next clock, each bit for CLKS_PER_BIT clocks.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module uart_tx #(
    // clock cycles per bit (clock frequency / baud rate)
    parameter CLKS_PER_BIT = 1085
) (
    input  wire       clk,
    input  wire       rst,

    input  wire [7:0] s_data,
    input  wire       s_valid,
    output wire       s_ready,

    output wire       txd
);

// clocks left in the current bit, minus 2: the bit ends on the clock after the counter goes
// negative (its sign bit), so no wide compare sits in front of the shift and the ready flag
localparam CNT_W = $clog2(CLKS_PER_BIT + 1) + 1;
localparam [CNT_W-1:0] CNT_RELOAD = CLKS_PER_BIT - 2;

initial begin
    if (CLKS_PER_BIT < 2) begin
        $error("uart_tx: CLKS_PER_BIT must be at least 2");
        $finish;
    end
end

reg [9:0]       shift_reg;
reg [3:0]       bits_reg;       // bits left to send, including the current one
reg [CNT_W-1:0] cnt_reg;
reg             ready_reg;      // bits_reg == 0, as a register

assign s_ready = ready_reg;
assign txd = shift_reg[0];

always @(posedge clk) begin
    if (ready_reg) begin
        if (s_valid) begin
            // stop bit, data LSB first, start bit
            shift_reg <= {1'b1, s_data, 1'b0};
            bits_reg <= 4'd10;
            cnt_reg <= CNT_RELOAD;
            ready_reg <= 1'b0;
        end
    end else if (!cnt_reg[CNT_W-1]) begin
        cnt_reg <= cnt_reg - 1'b1;
    end else begin
        shift_reg <= {1'b1, shift_reg[9:1]};
        bits_reg <= bits_reg - 1'b1;
        cnt_reg <= CNT_RELOAD;
        ready_reg <= bits_reg == 4'd1;
    end
    if (rst) begin
        shift_reg <= 10'h3ff;
        bits_reg <= 4'd0;
        cnt_reg <= CNT_RELOAD;
        ready_reg <= 1'b1;
    end
end

endmodule

`resetall
