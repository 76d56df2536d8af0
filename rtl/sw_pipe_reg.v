/*
 * sw_pipe_reg: a chain of DEPTH registers (a delay line), every stage visible.  Retiming or a
 * deeper RAM is one parameter: the logic around the chain does not change.
 *
 * Interfaces:
 *   s_data            the value entering the chain (loaded every clock, no enable)
 *   stages            stage k (s_data k + 1 clocks ago) at [k*WIDTH +: WIDTH]
 *   m_data            the last stage (s_data DEPTH clocks ago)
 *
 * Latency: DEPTH clocks.  RESET = 1: every stage is 0 in the clock after rst (synchronous);
 * RESET = 0: no reset (the stages load s_data regardless, so they hold data only while a
 * reset copy of their valid does not).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_pipe_reg #(
    // bits per stage
    parameter WIDTH = 8,
    // number of stages (at least 1)
    parameter DEPTH = 1,
    // 1: the stages reset to 0; 0: no reset
    parameter RESET = 1
) (
    input  wire                        clk,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire                        rst,     // (not used with RESET 0)
    /* verilator lint_on UNUSEDSIGNAL */

    input  wire [WIDTH-1:0]            s_data,
    output wire [DEPTH*WIDTH-1:0]      stages,
    output wire [WIDTH-1:0]            m_data
);

initial begin
    if (DEPTH < 1) begin
        $error("sw_pipe_reg: DEPTH must be at least 1");
        $finish;
    end
end

genvar k;
generate
    for (k = 0; k < DEPTH; k = k + 1) begin : stage
        reg  [WIDTH-1:0] data_reg;
        wire [WIDTH-1:0] data_in;
        if (k == 0) begin : first
            assign data_in = s_data;
        end else begin : next
            assign data_in = stages[(k-1)*WIDTH +: WIDTH];
        end
        if (RESET != 0) begin : with_reset
            always @(posedge clk) begin
                data_reg <= data_in;
                if (rst) begin
                    data_reg <= {WIDTH{1'b0}};
                end
            end
        end else begin : no_reset
            always @(posedge clk) begin
                data_reg <= data_in;
            end
        end
        assign stages[k*WIDTH +: WIDTH] = data_reg;
    end
endgenerate

assign m_data = stages[(DEPTH-1)*WIDTH +: WIDTH];

endmodule

`resetall
