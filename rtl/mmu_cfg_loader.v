/*
 * mmu_cfg_loader: writes the configuration vectors of switch_core (its cfg_* ports,
 * MmuConfig.rtl_cfg()) into mmu_core's configuration port after reset, one field per clock.
 *
 * Job: mmu_core keeps its configuration in RAM behind one address / data write port
 * (docs/mmu_core.md "Configuration and status port", tb/mmu_core/regmap.py); until the
 * register block of issue 17 drives that port, this module turns the wide vectors into
 * writes.  It writes every field once after each reset and then nothing: a change of the
 * vectors takes effect at the next reset (docs/switch_core.md "Admission core (mmu_core) and
 * its configuration" says why).
 *
 * Order: the seven global fields (0x0020 .. 0x0026), then PG i = 0 .. MMU_PORTS*8-1 fields
 * 8 .. 15 (0x2000 | i << 4 | f), then queue j fields 8 .. 12 (0x4000 | j << 4 | f).  Entries
 * of ports PORT_COUNT .. MMU_PORTS-1 (mmu_core's port count is a power of two) are written 0.
 * That is 7 + 13 * MMU_PORTS * 8 writes: 423 clocks for 4 ports.
 *
 * Interfaces:
 *   cfg_*          the vectors, entry i at [i*W +: W] (as switch_core's ports)
 *   m_cfg_wr_*     to mmu_core's cfg_wr_valid / addr / data (registered outputs)
 *   done           1 from the clock after the last write was presented (its field is in
 *                  effect for the pairs mmu_core accepts from the clock after that) until rst
 *   done_copy      done from a register of its own (switch_core's write stage: one register
 *                  placed beside both consumers was a critical route on the ULX3S)
 *
 * The values are written as they are: mmu_core's configuration checker (mmu_cfg_check) flags
 * the ones MmuConfig.validate() refuses.
 *
 * Latency: the first write is presented two clocks after rst falls (a counter stage and a
 * select stage); done rises 7 + 13 * MMU_PORTS * 8 + 2 clocks after rst falls.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mmu_cfg_loader #(
    // ports the configuration vectors describe
    parameter PORT_COUNT = 4,
    // mmu_core's PORT_COUNT (a power of two, at least PORT_COUNT)
    parameter MMU_PORTS = 4,
    // width of a cell-valued field
    parameter CELL_W = 16,
    // width of mmu_core's frame length field (the loader writes max_frame_bytes whole)
    parameter LEN_W = 14
) (
    input  wire                           clk,
    input  wire                           rst,

    /*
     * Configuration vectors (MmuConfig.rtl_cfg)
     */
    input  wire [CELL_W-1:0]              cfg_buffer_cells,
    input  wire [31:0]                    cfg_max_frame_bytes,
    input  wire [2*CELL_W-1:0]            cfg_pool_shared,
    input  wire [CELL_W-1:0]              cfg_hdrm_pool,
    input  wire [2*CELL_W-1:0]            cfg_egress_pool_shared,
    input  wire [PORT_COUNT*8-1:0]        cfg_pg_lossless,
    input  wire [PORT_COUNT*8*CELL_W-1:0] cfg_pg_reserved,
    input  wire [PORT_COUNT*8-1:0]        cfg_pg_dynamic,
    input  wire [PORT_COUNT*8*4-1:0]      cfg_pg_alpha_shift,
    input  wire [PORT_COUNT*8*CELL_W-1:0] cfg_pg_static_th,
    input  wire [PORT_COUNT*8*CELL_W-1:0] cfg_pg_headroom,
    input  wire [PORT_COUNT*8*CELL_W-1:0] cfg_pg_xon,
    input  wire [PORT_COUNT*8*CELL_W-1:0] cfg_pg_xon_offset,
    input  wire [PORT_COUNT*8-1:0]        cfg_q_lossless,
    input  wire [PORT_COUNT*8*CELL_W-1:0] cfg_q_reserved,
    input  wire [PORT_COUNT*8-1:0]        cfg_q_dynamic,
    input  wire [PORT_COUNT*8*4-1:0]      cfg_q_alpha_shift,
    input  wire [PORT_COUNT*8*CELL_W-1:0] cfg_q_static_th,

    /*
     * mmu_core configuration write port
     */
    output wire                           m_cfg_wr_valid,
    output wire [15:0]                    m_cfg_wr_addr,
    output wire [31:0]                    m_cfg_wr_data,

    /*
     * Status
     */
    output wire                           done,
    // the same as done, from a register of its own (for a consumer placed far from done's)
    output wire                           done_copy
);

localparam N = MMU_PORTS * 8;             // PGs and queues of mmu_core
localparam NV = PORT_COUNT * 8;           // of them, the ones the vectors describe
localparam IW = $clog2(N);
localparam W = CELL_W;
localparam [1:0] R_GLOBAL = 2'd0, R_PG = 2'd1, R_QUEUE = 2'd2, R_DONE = 2'd3;
localparam integer LAST_I = N - 1;
localparam [IW-1:0] LAST_IDX = LAST_I[IW-1:0];

initial begin
    if (MMU_PORTS < PORT_COUNT || (1 << $clog2(MMU_PORTS)) != MMU_PORTS || MMU_PORTS < 2
            || MMU_PORTS > 64) begin
        $error("mmu_cfg_loader: MMU_PORTS a power of two, 2..64, at least PORT_COUNT");
        $finish;
    end
    if (CELL_W > 32 || LEN_W > 31) begin
        $error("mmu_cfg_loader: CELL_W <= 32, LEN_W <= 31");
        $finish;
    end
end

function [31:0] z32;
    input [W-1:0] v;
    begin
        z32 = {{(32-W){1'b0}}, v};
    end
endfunction

// ---------------------------------------------------------------------------- counter
// region, entry index and field of the write selected next
reg [1:0]    region_reg, region_next;
reg [IW-1:0] idx_reg, idx_next;
reg [2:0]    fld_reg, fld_next;

always @* begin
    region_next = region_reg;
    idx_next = idx_reg;
    fld_next = fld_reg + 1'b1;
    case (region_reg)
        R_GLOBAL: begin
            if (fld_reg == 3'd6) begin
                region_next = R_PG;
                fld_next = 3'd0;
            end
        end
        R_PG: begin
            if (fld_reg == 3'd7) begin
                fld_next = 3'd0;
                idx_next = idx_reg + 1'b1;
                if (idx_reg == LAST_IDX) begin
                    region_next = R_QUEUE;
                end
            end
        end
        R_QUEUE: begin
            if (fld_reg == 3'd4) begin
                fld_next = 3'd0;
                idx_next = idx_reg + 1'b1;
                if (idx_reg == LAST_IDX) begin
                    region_next = R_DONE;
                end
            end
        end
        default: begin      // R_DONE: hold
            fld_next = fld_reg;
        end
    endcase
end

always @(posedge clk) begin
    region_reg <= region_next;
    idx_reg <= idx_next;
    fld_reg <= fld_next;
    if (rst) begin
        region_reg <= R_GLOBAL;
        idx_reg <= {IW{1'b0}};
        fld_reg <= 3'd0;
    end
end

// ---------------------------------------------------------------------------- select
// stage 1: the entry's fields at the counter's index (an entry beyond the vectors is 0) and
// the global field; stage 2: the field into the write registers
reg [1:0]    s1_region_reg;
reg [IW-1:0] s1_idx_reg;
reg [2:0]    s1_fld_reg;
reg [31:0]   s1_glob_reg;
reg [8*32-1:0] s1_pg_reg;     // fields 8 .. 15 at [(f-8)*32 +: 32]
reg [8*32-1:0] s1_q_reg;      // fields 8 .. 12 (13 .. 15: 0)

reg [31:0]     glob_sel;
reg [8*32-1:0] pg_sel;
reg [8*32-1:0] q_sel;
integer e;
always @* begin
    case (fld_reg)
        3'd0: glob_sel = z32(cfg_buffer_cells);
        3'd1: glob_sel = cfg_max_frame_bytes;
        3'd2: glob_sel = z32(cfg_pool_shared[0 +: W]);
        3'd3: glob_sel = z32(cfg_pool_shared[W +: W]);
        3'd4: glob_sel = z32(cfg_hdrm_pool);
        3'd5: glob_sel = z32(cfg_egress_pool_shared[0 +: W]);
        default: glob_sel = z32(cfg_egress_pool_shared[W +: W]);
    endcase
    pg_sel = {8*32{1'b0}};
    q_sel = {8*32{1'b0}};
    // one AND-OR per entry (a constant part-select each): the vectors are constants in the
    // board build, so this folds into a small table of the index
    for (e = 0; e < NV; e = e + 1) begin
        if ({{(32-IW){1'b0}}, idx_reg} == e) begin
            pg_sel = {z32(cfg_pg_xon_offset[e*W +: W]), z32(cfg_pg_xon[e*W +: W]),
                      z32(cfg_pg_headroom[e*W +: W]), z32(cfg_pg_static_th[e*W +: W]),
                      28'd0, cfg_pg_alpha_shift[e*4 +: 4], 31'd0, cfg_pg_dynamic[e],
                      z32(cfg_pg_reserved[e*W +: W]), 31'd0, cfg_pg_lossless[e]};
            q_sel = {96'd0, z32(cfg_q_static_th[e*W +: W]), 28'd0, cfg_q_alpha_shift[e*4 +: 4],
                     31'd0, cfg_q_dynamic[e], z32(cfg_q_reserved[e*W +: W]),
                     31'd0, cfg_q_lossless[e]};
        end
    end
end

always @(posedge clk) begin
    s1_region_reg <= region_reg;
    s1_idx_reg <= idx_reg;
    s1_fld_reg <= fld_reg;
    s1_glob_reg <= glob_sel;
    s1_pg_reg <= pg_sel;
    s1_q_reg <= q_sel;
    if (rst) begin
        s1_region_reg <= R_DONE;
    end
end

// ---------------------------------------------------------------------------- write
reg        wr_valid_reg;
reg [15:0] wr_addr_reg;
reg [31:0] wr_data_reg;
reg        wr_last_reg;
reg        done_reg;

// the entry index as the 9-bit field of the address (up to 64 ports)
reg  [8:0] s1_idx9;
always @* begin
    s1_idx9 = 9'd0;
    s1_idx9[IW-1:0] = s1_idx_reg;
end
reg        w_valid;
reg [15:0] w_addr;
reg [31:0] w_data;
always @* begin
    w_valid = s1_region_reg != R_DONE;
    w_addr = 16'd0;
    w_data = s1_glob_reg;
    case (s1_region_reg)
        R_GLOBAL: begin
            w_addr = {8'd0, 5'b00100, s1_fld_reg};
        end
        R_PG: begin
            w_addr = {3'b001, s1_idx9, 1'b1, s1_fld_reg};
            w_data = s1_pg_reg[s1_fld_reg*32 +: 32];
        end
        R_QUEUE: begin
            w_addr = {3'b010, s1_idx9, 1'b1, s1_fld_reg};
            w_data = s1_q_reg[s1_fld_reg*32 +: 32];
        end
        default: begin
            w_addr = 16'd0;
        end
    endcase
end

always @(posedge clk) begin
    wr_valid_reg <= w_valid;
    wr_addr_reg <= w_addr;
    wr_data_reg <= w_data;
    wr_last_reg <= s1_region_reg == R_QUEUE && s1_idx_reg == LAST_IDX && s1_fld_reg == 3'd4;
    if (rst) begin
        wr_valid_reg <= 1'b0;
        wr_last_reg <= 1'b0;
    end
end
// done and its copy (kept: synthesis would merge the two registers)
reg done_copy_reg;
(* keep *) always @(posedge clk) begin
    done_reg <= done_reg || (wr_valid_reg && wr_last_reg);
    done_copy_reg <= done_copy_reg || (wr_valid_reg && wr_last_reg);
    if (rst) begin
        done_reg <= 1'b0;
        done_copy_reg <= 1'b0;
    end
end

assign m_cfg_wr_valid = wr_valid_reg;
assign m_cfg_wr_addr = wr_addr_reg;
assign m_cfg_wr_data = wr_data_reg;
assign done = done_reg;
assign done_copy = done_copy_reg;

endmodule

`resetall
