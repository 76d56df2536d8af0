/*
 * mmu_core's input registers and the per-pair fields carried stage by stage: each arrival's
 * and release's indices, its length and index checks (stage 1), its cells (stage 2, (len - 1)
 * times a reciprocal), tag and released cells, and the scan PG (one PG per clock, for the PFC
 * scan and mmu_cfg_check), each kept to stage 12 for the parts that need it.
 *
 * Interfaces: s_req_* / s_rel_* (the top's inputs), the maximum frame length (mmu_core_cfg);
 * out the input registers' indices (stage 0), the scan counter (a RAM read address) and
 * *_bus: field x of stage p at bus slot p - 1 (a_cells: p - 2), stages 1 to 12.
 *
 * Latency: the pair accepted at edge E0 is in the input registers at E0, in stage p's
 * registers at Ep; no stall.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_core_carry #(
    // number of ports (ingress and egress)
    parameter PORT_COUNT = 4,
    // width of every cell counter and cell-valued configuration field
    parameter CELL_W = 16,
    // width of port index fields (carries out-of-range values)
    parameter PORT_W = 8,
    // width of the PG and queue index fields
    parameter PG_W = 4,
    parameter Q_W = 4,
    // bytes per buffer cell
    parameter CELL_BYTES = 256,
    // width of the frame length in bytes
    parameter LEN_W = 14,
    // width of the request tag
    parameter TAG_W = 8,
    // derived, left at their defaults by mmu_core: the PG / queue index; cell counts, signed
    // decision values, T and what is compared with it (alpha up to 2^7), carry-save sums; the
    // PG entry {class, res, shared, hdrm} and the queue entry {class, res, shared}
    parameter IW = $clog2(PORT_COUNT) + 3,
    parameter W = CELL_W,
    parameter SW = CELL_W + 3,
    parameter TW = CELL_W + 10,
    parameter XW = CELL_W + 4,
    parameter PGE_W = 3 * CELL_W + 1,
    parameter QE_W = 2 * CELL_W + 1
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * Requests and releases (mmu_core's inputs), the maximum frame length
     */
    input  wire                 s_req_valid,
    input  wire [PORT_W-1:0]    s_req_port,
    input  wire [PG_W-1:0]      s_req_pg,
    input  wire [PORT_W-1:0]    s_req_eport,
    input  wire [Q_W-1:0]       s_req_queue,
    input  wire [LEN_W-1:0]     s_req_len,
    input  wire [TAG_W-1:0]     s_req_tag,
    input  wire                 s_rel_valid,
    input  wire [PORT_W-1:0]    s_rel_port,
    input  wire [PG_W-1:0]      s_rel_pg,
    input  wire [PORT_W-1:0]    s_rel_eport,
    input  wire [Q_W-1:0]       s_rel_queue,
    input  wire [W-1:0]         s_rel_cells,
    input  wire [31:0]          g_max_frame_reg,

    /*
     * The scan counter (the scan PG before its input register), the input registers: the
     * indices and scan PG (stage 0), the release (its counters in mmu_core_status)
     */
    output reg  [IW-1:0]        scan_cnt_reg,
    output reg  [IW-1:0]        sc0,
    output wire [IW-1:0]        a_i0,
    output wire [IW-1:0]        a_j0,
    output wire [IW-1:0]        r_i0,
    output wire [IW-1:0]        r_j0,
    output reg                  r_v0,
    output reg  [PORT_W-1:0]    r_port0,
    output reg  [PG_W-1:0]      r_pg0,
    output reg  [PORT_W-1:0]    r_eport0,
    output reg  [Q_W-1:0]       r_q0,

    /*
     * The per-pair fields, stages 1 to 12
     */
    output wire [12-1:0]        a_v_bus,
    output wire [12-1:0]        a_ok_bus,
    output wire [12-1:0]        a_badlen_bus,
    output wire [12-1:0]        a_badidx_bus,
    output wire [12*IW-1:0]     a_i_bus,
    output wire [12*IW-1:0]     a_j_bus,
    output wire [12*TAG_W-1:0]  a_tag_bus,
    output wire [11*W-1:0]      a_cells_bus,
    output wire [12-1:0]        r_ok_bus,
    output wire [12*IW-1:0]     r_i_bus,
    output wire [12*IW-1:0]     r_j_bus,
    output wire [12*W-1:0]      r_c_bus,
    output wire [12*IW-1:0]     sc_bus,
    output wire [12-1:0]        sv_bus
);

localparam PI_W = $clog2(PORT_COUNT);

// cells = floor((len - 1) * RECIP_MUL / 2^RECIP_SHIFT) + 1 = ceil(len / CELL_BYTES), exact for
// 1 <= len < 2^LEN_W (docs/mmu_core.md)
localparam CB_W = $clog2(CELL_BYTES) > 0 ? $clog2(CELL_BYTES) : 1;
localparam RECIP_SHIFT = LEN_W + CB_W;
function [63:0] recip_mul_f;
    input integer c;
    input integer s;
    reg [63:0] c64;
    begin
        c64 = {32'd0, c};
        recip_mul_f = ((64'd1 << s) + c64 - 64'd1) / c64;
    end
endfunction
localparam [63:0] RECIP_MUL64 = recip_mul_f(CELL_BYTES, RECIP_SHIFT);
localparam RM_W = LEN_W + 2;
localparam [RM_W-1:0] RECIP_MUL = RECIP_MUL64[RM_W-1:0];
localparam PROD_W = RECIP_SHIFT + LEN_W;

`include "mmu_core_functions.vh"

// ------------------------------------------------------------------------------ stage 0

reg              a_v0;
reg [PORT_W-1:0] a_port0, a_eport0;
reg [PG_W-1:0]   a_pg0;
reg [Q_W-1:0]    a_q0;
reg [LEN_W-1:0]  a_len0;
reg [TAG_W-1:0]  a_tag0;
reg [W-1:0]      r_c0;
reg              sv0;             // a scan slot (none while in reset)

always @(posedge clk) begin
    a_v0 <= s_req_valid && !rst;
    r_v0 <= s_rel_valid && !rst;
    a_len0 <= s_req_len;
    a_tag0 <= s_req_tag;
    r_c0 <= s_rel_cells;
    // the scan visits PG (clock mod N), clock 0 being the first edge after reset
    sv0 <= !rst;
    scan_cnt_reg <= scan_cnt_reg + 1'b1;
    if (rst) begin
        scan_cnt_reg <= 0;
    end
end
// the input registers of the indices (kept, like every register that has copies: synthesis
// merges an unkept register into a kept copy with the same inputs)
(* keep *) always @(posedge clk) begin
    a_port0 <= s_req_port;
    a_pg0 <= s_req_pg;
    a_eport0 <= s_req_eport;
    a_q0 <= s_req_queue;
    r_port0 <= s_rel_port;
    r_pg0 <= s_rel_pg;
    r_eport0 <= s_rel_eport;
    r_q0 <= s_rel_queue;
    sc0 <= scan_cnt_reg;
end

assign a_i0 = {a_port0[PI_W-1:0], a_pg0[2:0]};
assign a_j0 = {a_eport0[PI_W-1:0], a_q0[2:0]};
assign r_i0 = {r_port0[PI_W-1:0], r_pg0[2:0]};
assign r_j0 = {r_eport0[PI_W-1:0], r_q0[2:0]};

// ------------------------------------------------------------------------------ pipeline
// per-pair fields carried stage by stage: index p = the stage whose register holds them
// (1 = written at E1 ... 12 = written at E12)
(* mem2reg *) reg            a_v [1:12];        // an arrival was accepted
(* mem2reg *) reg            a_ok [1:12];       // ... with a good length and good indices
(* mem2reg *) reg            a_badlen [1:12];
(* mem2reg *) reg            a_badidx [1:12];
(* mem2reg *) reg [IW-1:0]   a_i [1:12];
(* mem2reg *) reg [IW-1:0]   a_j [1:12];
(* mem2reg *) reg [TAG_W-1:0] a_tag [1:12];
(* mem2reg *) reg [W-1:0]    a_cells [2:12];
(* mem2reg *) reg            r_ok [1:12];
(* mem2reg *) reg [IW-1:0]   r_i [1:12];
(* mem2reg *) reg [IW-1:0]   r_j [1:12];
(* mem2reg *) reg [W-1:0]    r_c [1:12];
(* mem2reg *) reg [IW-1:0]   sc [1:12];
(* mem2reg *) reg            sv [1:12];
reg [PROD_W-1:0] prod1;
// the low RECIP_SHIFT bits of the product are the fraction of len / CELL_BYTES
/* verilator lint_off UNUSEDSIGNAL */
wire [PROD_W-1:0] quot1 = prod1 >> RECIP_SHIFT;
/* verilator lint_on UNUSEDSIGNAL */

// the length against the configured maximum: a LEN_W-bit compare with the maximum's low bits,
// any higher bit set admits every length (a 32-bit chain otherwise)
wire mf_big = (g_max_frame_reg >> LEN_W) != 0;
wire len_le = mf_big || a_len0 <= g_max_frame_reg[LEN_W-1:0];
integer st;
always @(posedge clk) begin
    // stage 1
    a_v[1] <= a_v0;
    a_badlen[1] <= a_v0 && (a_len0 == 0 || !len_le);
    a_badidx[1] <= a_v0 && !idx_ok(a_port0, a_pg0, a_eport0, a_q0);
    a_ok[1] <= a_v0 && a_len0 != 0 && len_le && idx_ok(a_port0, a_pg0, a_eport0, a_q0);
    a_i[1] <= a_i0;
    a_j[1] <= a_j0;
    a_tag[1] <= a_tag0;
    prod1 <= {{(PROD_W-LEN_W){1'b0}}, a_len0 - 1'b1} * {{(PROD_W-RM_W){1'b0}}, RECIP_MUL};
    r_ok[1] <= r_v0 && idx_ok(r_port0, r_pg0, r_eport0, r_q0);
    r_i[1] <= r_i0;
    r_j[1] <= r_j0;
    r_c[1] <= r_c0;
    sc[1] <= sc0;
    sv[1] <= sv0;
    // stage 2: cells
    a_cells[2] <= a_badlen[1] ? {W{1'b0}} : quot1[W-1:0] + 1'b1;
    for (st = 2; st <= 12; st = st + 1) begin
        a_v[st] <= a_v[st-1];
        a_ok[st] <= a_ok[st-1];
        a_badlen[st] <= a_badlen[st-1];
        a_badidx[st] <= a_badidx[st-1];
        a_i[st] <= a_i[st-1];
        a_j[st] <= a_j[st-1];
        a_tag[st] <= a_tag[st-1];
        r_ok[st] <= r_ok[st-1];
        r_i[st] <= r_i[st-1];
        r_j[st] <= r_j[st-1];
        r_c[st] <= r_c[st-1];
        sc[st] <= sc[st-1];
        sv[st] <= sv[st-1];
    end
    for (st = 3; st <= 12; st = st + 1) begin
        a_cells[st] <= a_cells[st-1];
    end
    if (rst) begin
        for (st = 1; st <= 12; st = st + 1) begin
            a_v[st] <= 1'b0;
            a_ok[st] <= 1'b0;
            a_badlen[st] <= 1'b0;
            a_badidx[st] <= 1'b0;
            r_ok[st] <= 1'b0;
            sv[st] <= 1'b0;
        end
    end
end

// the per-pair fields as buses
genvar pk;
generate
for (pk = 1; pk <= 12; pk = pk + 1) begin : carry
    assign a_v_bus[pk-1] = a_v[pk];
    assign a_ok_bus[pk-1] = a_ok[pk];
    assign a_badlen_bus[pk-1] = a_badlen[pk];
    assign a_badidx_bus[pk-1] = a_badidx[pk];
    assign a_i_bus[(pk-1)*IW +: IW] = a_i[pk];
    assign a_j_bus[(pk-1)*IW +: IW] = a_j[pk];
    assign a_tag_bus[(pk-1)*TAG_W +: TAG_W] = a_tag[pk];
    assign r_ok_bus[pk-1] = r_ok[pk];
    assign r_i_bus[(pk-1)*IW +: IW] = r_i[pk];
    assign r_j_bus[(pk-1)*IW +: IW] = r_j[pk];
    assign r_c_bus[(pk-1)*W +: W] = r_c[pk];
    assign sc_bus[(pk-1)*IW +: IW] = sc[pk];
    assign sv_bus[pk-1] = sv[pk];
end
for (pk = 2; pk <= 12; pk = pk + 1) begin : carry_cells
    assign a_cells_bus[(pk-2)*W +: W] = a_cells[pk];
end
endgenerate

endmodule

`resetall
