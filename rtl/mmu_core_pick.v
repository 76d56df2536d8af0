/*
 * mmu_core's forwarding picks (stages E0 to E2): for each entry the pair reads from the state
 * RAMs at E1 (the arrival's PG and queue, the release's PG and queue, the scan PG), which of
 * the commits the read missed it takes in stage 3 (pairs k-10, k-9, k-8, each with a release
 * and an arrival bus), or the RAM's data: one-hot, newest first, the arrival bus before the
 * release bus, so that mmu_core_view's stage 3 is an AND-OR of registers.
 *
 * Interfaces: the input registers' indices (stage 0) and the per-pair fields of stages 7 to 9
 * (mmu_core_carry, *_bus); the admits of the pairs then in stage 8 (d_admit), in C2
 * (dec_admit_reg) and in the commit register (adm9) (mmu_core_decide, _commit); out the picks
 * (bit 6: the commit register's arrival bus .. bit 1: its second history register's release
 * bus, bit 0: the RAM) to mmu_core_view.
 *
 * Latency: the pair accepted at edge E0: its index compares registered at E1, their priority
 * (the picks) at E2; mmu_core_view merges at E3 with the commit register and its history.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_pick #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // derived, given by mmu_core_view: the PG / queue index
    parameter IW = $clog2(PORT_COUNT) + 3
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * The input registers' indices (arrival PG / queue, release PG / queue, scan PG) and the
     * per-pair fields, stages 1 to 12 (mmu_core_carry); the admits of the pairs in stage 8,
     * in C2 and in the commit register (mmu_core_decide, _commit)
     */
    input  wire [IW-1:0]        a_i0,
    input  wire [IW-1:0]        a_j0,
    input  wire [IW-1:0]        r_i0,
    input  wire [IW-1:0]        r_j0,
    input  wire [IW-1:0]        sc0,
    input  wire [12*IW-1:0]     a_i_bus,
    input  wire [12*IW-1:0]     a_j_bus,
    input  wire [12-1:0]        r_ok_bus,
    input  wire [12*IW-1:0]     r_i_bus,
    input  wire [12*IW-1:0]     r_j_bus,
    input  wire                 d_admit,
    input  wire                 dec_admit_reg,
    input  wire                 adm9,

    /*
     * The picks of the arrival's PG (A), the release's (R), the scan PG (S), the arrival's
     * and the release's queue (qA, qR)
     */
    output reg  [6:0]           pA2, pR2, pS2, pqA2, pqR2
);

// the per-pair fields of the pipeline (mmu_core_carry), stage p of each at bus slot p - 1; a
// part reads only some of the stages
/* verilator lint_off UNUSEDSIGNAL */
(* mem2reg *) reg [IW-1:0] a_i [1:12];
(* mem2reg *) reg [IW-1:0] a_j [1:12];
(* mem2reg *) reg r_ok [1:12];
(* mem2reg *) reg [IW-1:0] r_i [1:12];
(* mem2reg *) reg [IW-1:0] r_j [1:12];
/* verilator lint_on UNUSEDSIGNAL */
genvar pk;
generate
for (pk = 1; pk <= 12; pk = pk + 1) begin : carry
    always @* a_i[pk] = a_i_bus[(pk-1)*IW +: IW];
    always @* a_j[pk] = a_j_bus[(pk-1)*IW +: IW];
    always @* r_ok[pk] = r_ok_bus[pk-1];
    always @* r_i[pk] = r_i_bus[(pk-1)*IW +: IW];
    always @* r_j[pk] = r_j_bus[(pk-1)*IW +: IW];
end
endgenerate

// the picks' compares a stage early (stage 1, against the pairs then in stage 8, stage 9 and
// the commit register, which are in stage 9, the commit register and its first history
// register at stage 2), registered; stage 2 resolves their priority
function [5:0] match6;
    input [IW-1:0] idx;
    input [1:0] en6;
    input [2*IW-1:0] idx6;
    input [1:0] en7;
    input [2*IW-1:0] idx7;
    input [1:0] en8;
    input [2*IW-1:0] idx8;
    begin
        match6 = {en6[1] && idx6[IW +: IW] == idx, en6[0] && idx6[0 +: IW] == idx,
                  en7[1] && idx7[IW +: IW] == idx, en7[0] && idx7[0 +: IW] == idx,
                  en8[1] && idx8[IW +: IW] == idx, en8[0] && idx8[0 +: IW] == idx};
    end
endfunction
function [6:0] prio7;
    input [5:0] m;
    begin
        prio7[6] = m[5];
        prio7[5] = m[4] && !m[5];
        prio7[4] = m[3] && !(|m[5:4]);
        prio7[3] = m[2] && !(|m[5:3]);
        prio7[2] = m[1] && !(|m[5:2]);
        prio7[1] = m[0] && !(|m[5:1]);
        prio7[0] = !(|m);
    end
endfunction
reg [5:0] mA1, mR1, mS1, mqA1, mqR1;
// the compares' own copies of the three pairs' enables and indices, stored inverted (not
// merged with the pipeline's registers, which fan out to every stage): the pair in stage 8,
// in stage 9, in the commit register
reg [1:0]      mt6_en_n, mt7_en_n, mt8_en_n;
reg [2*IW-1:0] mt6_i_n, mt7_i_n, mt8_i_n, mt6_j_n, mt7_j_n, mt8_j_n;
(* keep *) always @(posedge clk) begin
    mt6_en_n <= ~(rst ? 2'b00 : {d_admit, r_ok[7]});
    mt7_en_n <= ~(rst ? 2'b00 : {dec_admit_reg, r_ok[8]});
    mt8_en_n <= ~(rst ? 2'b00 : {adm9, r_ok[9]});
    mt6_i_n <= ~{a_i[7], r_i[7]};
    mt7_i_n <= ~{a_i[8], r_i[8]};
    mt8_i_n <= ~{a_i[9], r_i[9]};
    mt6_j_n <= ~{a_j[7], r_j[7]};
    mt7_j_n <= ~{a_j[8], r_j[8]};
    mt8_j_n <= ~{a_j[9], r_j[9]};
end
wire [1:0] m_en6 = ~mt6_en_n;
wire [1:0] m_en7 = ~mt7_en_n;
wire [1:0] m_en8 = ~mt8_en_n;
// a pick made in a clock of reset forwards nothing: cleared a stage later by rst's own local
// register (the same as enables gated by rst, without rst in the compares' paths)
reg rst_q;
(* keep *) always @(posedge clk) rst_q <= rst;
always @(posedge clk) begin
    mA1 <= match6(a_i0, m_en6, ~mt6_i_n, m_en7, ~mt7_i_n, m_en8, ~mt8_i_n);
    mR1 <= match6(r_i0, m_en6, ~mt6_i_n, m_en7, ~mt7_i_n, m_en8, ~mt8_i_n);
    mS1 <= match6(sc0, m_en6, ~mt6_i_n, m_en7, ~mt7_i_n, m_en8, ~mt8_i_n);
    mqA1 <= match6(a_j0, m_en6, ~mt6_j_n, m_en7, ~mt7_j_n, m_en8, ~mt8_j_n);
    mqR1 <= match6(r_j0, m_en6, ~mt6_j_n, m_en7, ~mt7_j_n, m_en8, ~mt8_j_n);
end
always @(posedge clk) begin
    pA2 <= prio7(rst_q ? 6'd0 : mA1);
    pR2 <= prio7(rst_q ? 6'd0 : mR1);
    pS2 <= prio7(rst_q ? 6'd0 : mS1);
    pqA2 <= prio7(rst_q ? 6'd0 : mqA1);
    pqR2 <= prio7(rst_q ? 6'd0 : mqR1);
end

endmodule

`resetall
