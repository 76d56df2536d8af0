/*
 * Small first-word-fall-through FIFO in registers (a few entries: staging, descriptors,
 * responses).  The head register is reset to zero; the ring is not (no reset fan-out into
 * every entry): an entry is read only after it was written.
 *
 * Timing: m_data is a register (the head entry, reloaded from the ring with a precomputed
 * next-read pointer), m_valid and s_ready are registered flags, so a consumer sees no
 * DEPTH:1 read mux and the producer / consumer handshakes only select between a few
 * registered values.  The flags follow from each other (the count moves by one at most) and
 * from compares of the registered count, so no adder sits between a handshake and a flag.
 * The write pointer is also kept one-hot, so an entry's write enable is one AND of registers.
 *
 * IN_REG = 1 registers the input first (no enable: valid and data are loaded every clock) and
 * pushes it into the ring a clock later, so the producer's logic ends at that register instead
 * of fanning out to every entry's write enable; the write enables are registers too (one per
 * entry and 64 bits).  s_ready then counts the registered entry
 * (ready while the ring plus the input register hold fewer than DEPTH), so the capacity stays
 * DEPTH and the input register never has to hold; entries appear at m_* a clock later.
 * s_ready is a register there too, counted a clock ahead with the same value.
 * IN_REG = 2 registers s_ready from the occupancy (ring + input register) of the clock
 * before instead (no pop or push logic in front of it): ready while it was below DEPTH - 1,
 * since one entry may have come in since.  The producer's accept then ends at the occupancy counter; the FIFO takes one entry less when
 * nearly full and sees a pop a clock late (give it a depth of 4 or more for back-to-back
 * entries).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_fifo #(
    // entry width in bits
    parameter WIDTH = 8,
    // number of entries, a power of two
    parameter DEPTH = 2,
    // pointer width, $clog2(DEPTH) (at least 1)
    parameter PTR_W = 1,
    // 1: input registered, 2: and s_ready registered (see above)
    parameter IN_REG = 0,
    // test only: 1 reloads the head from the input instead of the entry behind it (entries
    // overtake each other), for the formal run to show that it catches it; 0 in every build
    parameter FAULT_INJECT = 0
) (
    input  wire             clk,
    input  wire             rst,

    input  wire             s_valid,
    output wire             s_ready,
    input  wire [WIDTH-1:0] s_data,

    output wire             m_valid,
    input  wire             m_ready,
    output wire [WIDTH-1:0] m_data,

    output wire [PTR_W:0]   count
);

initial begin
    if ((1 << PTR_W) != DEPTH) begin
        $error("sw_fifo: DEPTH must be 2**PTR_W");
        $finish;
    end
end

localparam [PTR_W-1:0] PTR_ONE = 1;
localparam integer DEPTH_M2_I = DEPTH - 2;
localparam [PTR_W:0] DEPTH_M2 = DEPTH_M2_I[PTR_W:0];

wire [DEPTH*WIDTH-1:0] mem_w;    // the ring: entry i at [i*WIDTH +: WIDTH]
reg [PTR_W-1:0] rd_ptr_inc_reg;   // the entry behind the head
reg [PTR_W:0]   count_reg;
reg             valid_reg;        // count_reg != 0
reg             ready_reg;        // count_reg != DEPTH
reg             more_reg;         // count_reg >= 2
reg             afull_reg;        // count_reg == DEPTH - 1
reg [WIDTH-1:0] head_reg;         // the oldest entry while valid_reg
reg [DEPTH-1:0] wr_oh_reg;        // the entry written next, one-hot

// the entry entering the ring this clock (from the input register with IN_REG), and the write
// enable of entry i's bits [k*64 +: 64] at ring_we[i*NCH + k]
localparam NCH = (WIDTH + 63) / 64;
wire             f_valid;
wire [WIDTH-1:0] f_data;
wire [DEPTH*NCH-1:0] ring_we;
wire push = f_valid && ready_reg;
wire pop = valid_reg && m_ready;

genvar gi, gk;
generate
    if (IN_REG != 0) begin : in_reg
        reg             in_valid_reg;
        reg [WIDTH-1:0] in_data_reg;
        // ring + input register < DEPTH: the ring always takes the registered entry (push ==
        // in_valid_reg), so its write enables can be registered too: one register per entry
        // and 64 bits, each with a fan-out of 64 at most
        if (IN_REG == 2) begin : rdy_reg
            // occupancy: ring + input register
            reg [PTR_W:0] occ_reg;
            reg           s_ready_reg;
            localparam integer LIMIT_I = DEPTH - 1;
            localparam [PTR_W:0] LIMIT = LIMIT_I[PTR_W:0];
            // the occupancy after a pop, with and without the entry offered: the offer (the
            // producer's late signal) only selects between the two
            wire [PTR_W:0] occ_keep = occ_reg - {{PTR_W{1'b0}}, pop};
            wire [PTR_W:0] occ_take = occ_reg + {{PTR_W{1'b0}}, !pop};
            always @(posedge clk) begin
                occ_reg <= (s_valid && s_ready_reg) ? occ_take : occ_keep;
                s_ready_reg <= occ_reg < LIMIT;
                if (rst) begin
                    occ_reg <= {(PTR_W+1){1'b0}};
                    s_ready_reg <= 1'b0;
                end
            end
            assign s_ready = s_ready_reg;
        end else begin : rdy_exact
            // s_ready as a register with the same value as ready_reg && !(in_valid_reg &&
            // afull_reg), the ring plus the input register below DEPTH: that occupancy is
            // counted here and compared a clock ahead, so the producer's accept starts at a
            // flip-flop (formal: fv_rdy1)
            reg [PTR_W:0] occ_reg;
            reg           s_ready_reg;
            wire [PTR_W:0] occ_next = occ_reg - {{PTR_W{1'b0}}, pop}
                                      + {{PTR_W{1'b0}}, s_valid && s_ready_reg};
            always @(posedge clk) begin
                occ_reg <= occ_next;
                s_ready_reg <= {1'b0, occ_next} < DEPTH;
                if (rst) begin
                    occ_reg <= {(PTR_W+1){1'b0}};
                    s_ready_reg <= 1'b1;
                end
            end
            assign s_ready = s_ready_reg;
        end
        wire [DEPTH-1:0] oh_after = in_valid_reg ? {wr_oh_reg[DEPTH-2:0], wr_oh_reg[DEPTH-1]}
                                                 : wr_oh_reg;
        always @(posedge clk) begin
            in_valid_reg <= s_valid && s_ready;
            in_data_reg <= s_data;
            if (rst) begin
                in_valid_reg <= 1'b0;
            end
        end
        for (gi = 0; gi < DEPTH; gi = gi + 1) begin : ent
            for (gk = 0; gk < NCH; gk = gk + 1) begin : chunk
                reg we_reg;
                // keep: identical registers, not to be merged back into one
                // (the reset as the register's own synchronous reset, not in its data
                // logic: the reset tree's fan-out then ends at the flip-flop)
                (* keep *) always @(posedge clk) begin
                    we_reg <= s_valid && s_ready && oh_after[gi];
                    if (rst) begin
                        we_reg <= 1'b0;
                    end
                end
                assign ring_we[gi*NCH + gk] = we_reg;
            end
        end
        assign f_valid = in_valid_reg;
        assign f_data = in_data_reg;
    end else begin : in_direct
        assign s_ready = ready_reg;
        assign f_valid = s_valid;
        assign f_data = s_data;
        for (gi = 0; gi < DEPTH; gi = gi + 1) begin : ent
            assign ring_we[gi*NCH +: NCH] = {NCH{push && wr_oh_reg[gi]}};
        end
    end
endgenerate

assign m_valid = valid_reg;
assign m_data = head_reg;
assign count = count_reg;

wire [PTR_W:0] count_next = count_reg + {{PTR_W{1'b0}}, push} - {{PTR_W{1'b0}}, pop};
wire [WIDTH-1:0] second = mem_w[rd_ptr_inc_reg*WIDTH +: WIDTH];

// the ring: one register per entry and 64-bit chunk, each loaded by its own write enable
// (a whole-vector loop here ran bit by bit every clock in Icarus)
generate
    for (gi = 0; gi < DEPTH; gi = gi + 1) begin : ring
        for (gk = 0; gk < NCH; gk = gk + 1) begin : chunk
            localparam LO = gk * 64;
            localparam CW = WIDTH - LO < 64 ? WIDTH - LO : 64;
            reg [CW-1:0] ent_reg;
            always @(posedge clk) begin
                if (ring_we[gi*NCH + gk]) begin
                    ent_reg <= f_data[LO +: CW];
                end
            end
            assign mem_w[gi*WIDTH + LO +: CW] = ent_reg;
        end
    end
endgenerate

always @(posedge clk) begin
    if (push) begin
        wr_oh_reg <= {wr_oh_reg[DEPTH-2:0], wr_oh_reg[DEPTH-1]};
    end
    if (pop) begin
        rd_ptr_inc_reg <= rd_ptr_inc_reg + 1'b1;
    end
    // the head: the entry behind it on a pop (or the one pushed now), the pushed one into
    // an empty FIFO (more_reg is clear then).  Written as one enable, !valid_reg || m_ready,
    // and one candidate that does not depend on m_ready, so the consumer's ready reaches the
    // head register's clock enable through one gate and nothing else
    if (!valid_reg || m_ready) begin
        head_reg <= (more_reg && FAULT_INJECT == 0) ? second : f_data;
    end
    count_reg <= count_next;
    if (push && !pop) begin
        valid_reg <= 1'b1;
        more_reg <= valid_reg;
        ready_reg <= !afull_reg;
        afull_reg <= count_reg == DEPTH_M2;
    end else if (pop && !push) begin
        valid_reg <= more_reg;
        more_reg <= count_reg > 2;       // count - 1 >= 2
        ready_reg <= 1'b1;
        afull_reg <= !ready_reg;
    end
    if (rst) begin
        wr_oh_reg <= {{(DEPTH-1){1'b0}}, 1'b1};
        rd_ptr_inc_reg <= PTR_ONE;
        count_reg <= {(PTR_W+1){1'b0}};
        valid_reg <= 1'b0;
        ready_reg <= 1'b1;
        more_reg <= 1'b0;
        afull_reg <= DEPTH == 1;
        head_reg <= {WIDTH{1'b0}};
    end
end

`ifdef FORMAL
// ---- formal properties (SymbiYosys, formal/sw_fifo.sby; docs/formal.md): no overflow (an
// entry offered by the input register is always taken), no underflow, the registered flags
// equal their definitions from the count, and data order: one entry picked at random on
// entry (fv_pick) leaves after exactly the entries that were in before it, unchanged.
(* anyseq *) wire fv_pick;
reg              fv_past;
reg [1:0]        fv_state;        // 0: none picked, 1: the picked entry is inside, 2: it left
reg [WIDTH-1:0]  fv_data;
reg [PTR_W+1:0]  fv_ahead;        // entries in front of the picked one
wire             fv_accept = s_valid && s_ready;
// entries accepted and not yet popped: the ring plus the input register (IN_REG)
wire [PTR_W+1:0] fv_occ = {1'b0, count_reg} + {{(PTR_W+1){1'b0}}, IN_REG != 0 && f_valid};
// ring slot of the entry at position j behind the head (the head's slot is rd_ptr_inc - 1)
function [PTR_W-1:0] fv_slot(input [PTR_W+1:0] j);
    begin
        fv_slot = rd_ptr_inc_reg - PTR_ONE + j[PTR_W-1:0];
    end
endfunction
initial fv_past = 1'b0;
initial assume (rst);
always @(posedge clk) begin
    fv_past <= 1'b1;
    if (fv_state == 2'd0 && fv_accept && fv_pick) begin
        fv_state <= 2'd1;
        fv_data <= s_data;
        fv_ahead <= fv_occ - {{(PTR_W+1){1'b0}}, pop};
    end else if (fv_state == 2'd1 && pop) begin
        if (fv_ahead == {(PTR_W+2){1'b0}}) begin
            fv_state <= 2'd2;
        end else begin
            fv_ahead <= fv_ahead - 1'b1;
        end
    end
    if (rst) begin
        fv_state <= 2'd0;
    end
end
always @* begin
    if (fv_past && !rst) begin
        // no overflow: the ring takes every entry offered to it (with IN_REG the input
        // register never has to hold); no underflow: nothing leaves an empty FIFO
        if (IN_REG != 0) begin
            assert (!f_valid || ready_reg);
        end
        assert (count_reg <= DEPTH);
        assert (fv_occ <= DEPTH);
        assert (!m_valid || count_reg != {(PTR_W+1){1'b0}});
        // the registered flags are what the header says they are
        assert (valid_reg == (count_reg != {(PTR_W+1){1'b0}}));
        assert (ready_reg == (count_reg != DEPTH));
        assert (more_reg == (count_reg >= 2));
        assert (afull_reg == (count_reg == DEPTH - 1));
        // data order: the picked entry leaves after those ahead of it, unchanged
        if (fv_state == 2'd1 && pop && fv_ahead == {(PTR_W+2){1'b0}}) begin
            assert (m_data == fv_data);
        end
        // inductive helpers: where the picked entry is, and the write pointer
        if (fv_state == 2'd1) begin
            assert (fv_ahead < fv_occ);
            if (fv_ahead == {(PTR_W+2){1'b0}} && count_reg != {(PTR_W+1){1'b0}}) begin
                assert (head_reg == fv_data);
            end
            if (fv_ahead < {1'b0, count_reg}) begin
                assert (mem_w[fv_slot(fv_ahead)*WIDTH +: WIDTH] == fv_data);
            end else begin
                assert (f_data == fv_data);
            end
        end
        if (valid_reg) begin
            assert (head_reg == mem_w[fv_slot({(PTR_W+2){1'b0}})*WIDTH +: WIDTH]);
        end
        assert (wr_oh_reg == ({{(DEPTH-1){1'b0}}, 1'b1} << fv_slot({1'b0, count_reg})));
        if (IN_REG != 0) begin
            assert (ring_we == {NCH{1'b0}} || f_valid);
        end
    end
end
generate
    if (IN_REG == 1) begin : fv_rdy1
        // the registered s_ready equals the flags' ready with the input register counted
        always @* begin
            if (fv_past && !rst) begin
                assert (in_reg.rdy_exact.occ_reg == fv_occ[PTR_W:0]);
                assert (s_ready == (ready_reg && !(in_reg.in_valid_reg && afull_reg)));
            end
        end
    end
    if (IN_REG == 2) begin : fv_rdy
        // the registered s_ready: the occupancy it counts, and room for what it lets in
        always @* begin
            if (fv_past && !rst) begin
                assert (in_reg.rdy_reg.occ_reg == fv_occ[PTR_W:0]);
                assert (!s_ready || fv_occ < DEPTH);
            end
        end
    end
endgenerate
`endif

endmodule

`resetall
