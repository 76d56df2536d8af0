/*
 * UART transmitter, 8N1, for the board self-test's counter printout.
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

localparam CNT_W = $clog2(CLKS_PER_BIT + 1);

initial begin
    if (CLKS_PER_BIT < 2) begin
        $error("uart_tx: CLKS_PER_BIT must be at least 2");
        $finish;
    end
end

reg [9:0]       shift_reg, shift_next;
reg [3:0]       bits_reg, bits_next;
reg [CNT_W-1:0] cnt_reg, cnt_next;

assign s_ready = (bits_reg == 4'd0);
assign txd = shift_reg[0];

always @* begin
    shift_next = shift_reg;
    bits_next = bits_reg;
    cnt_next = cnt_reg;
    if (bits_reg == 4'd0) begin
        if (s_valid) begin
            // stop bit, data LSB first, start bit
            shift_next = {1'b1, s_data, 1'b0};
            bits_next = 4'd10;
            cnt_next = CLKS_PER_BIT[CNT_W-1:0] - 1'b1;
        end
    end else if (cnt_reg != {CNT_W{1'b0}}) begin
        cnt_next = cnt_reg - 1'b1;
    end else begin
        shift_next = {1'b1, shift_reg[9:1]};
        bits_next = bits_reg - 1'b1;
        cnt_next = CLKS_PER_BIT[CNT_W-1:0] - 1'b1;
    end
end

always @(posedge clk) begin
    shift_reg <= shift_next;
    bits_reg <= bits_next;
    cnt_reg <= cnt_next;
    if (rst) begin
        shift_reg <= 10'h3ff;
        bits_reg <= 4'd0;
        cnt_reg <= {CNT_W{1'b0}};
    end
end

endmodule

`resetall
