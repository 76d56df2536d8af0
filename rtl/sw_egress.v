/*
 * Egress port of switch_core: a small FIFO of buffer words, the serializer back to stream
 * beats, and the transmit mux that puts the port's PFC frames (pfc_tx) between data frames,
 * ahead of queued data and never inside a frame.
 *
 * Timing: the word from the shared data RAM is registered here first (the RAM's data bus
 * fans out to every port, so each port gets its own copy next to its FIFO), and the stream
 * output is a skid buffer (registered tdata / tvalid and a registered tready towards the
 * mux), so neither the RAM's clock-to-out nor the MAC's logic meet this module's muxes in one
 * clock.  Cost: one clock more from the RAM to the FIFO (word_count counts the word in that
 * register, so the read stage's room check stays exact) and one clock more to the output.
 * The word being sent leaves the FIFO into a shift register (cur_*), so a beat is never a
 * WORD_BEATS:1 mux of the FIFO head; word_count does not count it (it has its own storage).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module sw_egress #(
    // stream width in bits (8 or 64)
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH / 8,
    // stream beats per buffer word
    parameter WORD_BEATS = 8,
    // width of the byte count of one word, $clog2(WORD_BEATS*KEEP_WIDTH + 1)
    parameter WB_W = 7,
    // words of output staging (power of two)
    parameter FIFO_DEPTH = 2,
    parameter FIFO_PTR_W = 1
) (
    input  wire                             clk,
    input  wire                             rst,

    /*
     * Words from the buffer (no back-pressure: the read stage checks word_count first)
     */
    input  wire                             s_word_valid,
    input  wire [WORD_BEATS*DATA_WIDTH-1:0] s_word_data,
    input  wire [WB_W-1:0]                  s_word_bytes,
    input  wire                             s_word_last,
    output wire [FIFO_PTR_W:0]              word_count,

    /*
     * PFC frames of this port (pfc_tx)
     */
    input  wire [DATA_WIDTH-1:0]            s_pfc_tdata,
    input  wire [KEEP_WIDTH-1:0]            s_pfc_tkeep,
    input  wire                             s_pfc_tvalid,
    output wire                             s_pfc_tready,
    input  wire                             s_pfc_tlast,
    input  wire                             s_pfc_tuser,

    /*
     * Frames out (MAC TX side)
     */
    output wire [DATA_WIDTH-1:0]            m_axis_tdata,
    output wire [KEEP_WIDTH-1:0]            m_axis_tkeep,
    output wire                             m_axis_tvalid,
    input  wire                             m_axis_tready,
    output wire                             m_axis_tlast,
    output wire                             m_axis_tuser,

    /*
     * Status (data frames only; PFC frames are counted by pfc_tx)
     */
    output wire [31:0]                      stat_tx_frames,
    output wire [31:0]                      stat_tx_bytes
);

localparam WORD_W = WORD_BEATS * DATA_WIDTH;
localparam ENTRY_W = WORD_W + WB_W + 1;

wire              word_valid;
wire              word_pop;
wire [WORD_W-1:0] word_data;
wire [WB_W-1:0]   word_bytes;
wire              word_last;
wire [FIFO_PTR_W:0] fifo_count;

// input register: the RAM word, one clock before it enters the FIFO
reg                in_valid_reg;
reg  [ENTRY_W-1:0] in_entry_reg;

always @(posedge clk) begin
    in_valid_reg <= s_word_valid;
    if (s_word_valid) begin
        in_entry_reg <= {s_word_data, s_word_bytes, s_word_last};
    end
    if (rst) begin
        in_valid_reg <= 1'b0;
    end
end

/* verilator lint_off PINCONNECTEMPTY */
sw_fifo #(
    .WIDTH(ENTRY_W),
    .DEPTH(FIFO_DEPTH),
    .PTR_W(FIFO_PTR_W)
) fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(in_valid_reg),
    .s_ready(),             // never full: the read stage checks word_count first
    .s_data(in_entry_reg),
    .m_valid(word_valid),
    .m_ready(word_pop),
    .m_data({word_data, word_bytes, word_last}),
    .count(fifo_count)
);
/* verilator lint_on PINCONNECTEMPTY */

// words held here: in the FIFO and in the input register (at most FIFO_DEPTH in all, which
// the read stage guarantees, so the sum fits FIFO_PTR_W + 1 bits)
assign word_count = fifo_count + {{FIFO_PTR_W{1'b0}}, in_valid_reg};

// the word being sent, out of the FIFO: shifted a beat at a time (the beat is always its low
// DATA_WIDTH bits, no WORD_BEATS:1 mux), with the bytes left from this beat on and the flag
// "this beat ends the word" kept as registers
reg              cur_valid_reg;
reg [WORD_W-1:0] cur_data_reg;
reg [WB_W-1:0]   cur_rem_reg;
reg              cur_end_reg;
reg              cur_last_reg;
reg            in_data_reg;     // inside a data frame
reg            in_pfc_reg;      // inside a PFC frame
reg [31:0]     tx_frames_reg, tx_bytes_reg;

localparam integer KEEP_I = KEEP_WIDTH;
localparam [WB_W-1:0] KEEP_N = KEEP_I[WB_W-1:0];
wire [WB_W-1:0] rem_bytes = cur_rem_reg;
wire word_end = cur_end_reg;

reg [KEEP_WIDTH-1:0] data_keep;
reg [WB_W-1:0]       data_beat_bytes;
integer i;
always @* begin
    data_keep = {KEEP_WIDTH{1'b0}};
    data_beat_bytes = {WB_W{1'b0}};
    for (i = 0; i < KEEP_WIDTH; i = i + 1) begin
        if ({{(32-WB_W){1'b0}}, rem_bytes} > i) begin
            data_keep[i] = 1'b1;
            data_beat_bytes = data_beat_bytes + 1'b1;
        end
    end
end

// the transmit mux, in front of the output skid buffer (tx_* -> m_axis_*)
wire                  tx_ready;
// pfc_sel_reg: the mux serves pfc_tx this clock: inside a PFC frame, or between data frames
// with a PFC frame waiting since the clock before (a register, so pfc_tx's tvalid does not
// reach the word FIFO's pop and head reload in the same clock; a PFC frame that appears just
// as a data frame starts waits for that frame's end, as it would a clock later)
reg  pfc_sel_reg;
// send_end_reg: the mux serves data and the current word is at its last beat
// (!pfc_sel_reg && cur_valid_reg && cur_end_reg, kept as one register), so the pop below is
// one 4-input function of registers in front of its fan-out (the FIFO head reload and cur_*)
reg  send_end_reg;
wire pfc_sel = pfc_sel_reg;
wire data_fire = !pfc_sel && cur_valid_reg && tx_ready;
wire pfc_fire = pfc_sel && s_pfc_tvalid && tx_ready;
// the next word moves in when there is none or the current one sends its last beat
assign word_pop = word_valid && (!cur_valid_reg || (send_end_reg && tx_ready));
assign s_pfc_tready = pfc_sel && tx_ready;

wire [DATA_WIDTH-1:0] tx_tdata = pfc_sel ? s_pfc_tdata : cur_data_reg[DATA_WIDTH-1:0];
wire [KEEP_WIDTH-1:0] tx_tkeep = pfc_sel ? s_pfc_tkeep : data_keep;
wire                  tx_tvalid = pfc_sel ? s_pfc_tvalid : cur_valid_reg;
wire                  tx_tlast = pfc_sel ? s_pfc_tlast : (cur_last_reg && word_end);
wire                  tx_tuser = pfc_sel ? s_pfc_tuser : 1'b0;
assign stat_tx_frames = tx_frames_reg;
assign stat_tx_bytes = tx_bytes_reg;

// ---- output skid buffer (the register slice of verilog-ethernet's axis_register, type 2):
// tx_ready is a register, m_axis_* are registers; a beat the sink does not take while
// tx_ready was high waits in the temporary register
localparam BEAT_W = DATA_WIDTH + KEEP_WIDTH + 2;
reg              out_ready_reg;
reg              out_valid_reg, out_valid_next;
reg              tmp_valid_reg, tmp_valid_next;
reg [BEAT_W-1:0] out_beat_reg, tmp_beat_reg;
reg              store_in_out, store_in_tmp, store_tmp_out;
wire [BEAT_W-1:0] tx_beat = {tx_tdata, tx_tkeep, tx_tlast, tx_tuser};
// ready next clock if the sink takes the output now, or nothing waits and the output will
// not be left holding a beat
wire out_ready_early = m_axis_tready || (!tmp_valid_reg && (!out_valid_reg || !tx_tvalid));

assign tx_ready = out_ready_reg;
assign {m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser} = out_beat_reg;
assign m_axis_tvalid = out_valid_reg;

always @* begin
    out_valid_next = out_valid_reg;
    tmp_valid_next = tmp_valid_reg;
    store_in_out = 1'b0;
    store_in_tmp = 1'b0;
    store_tmp_out = 1'b0;
    if (out_ready_reg) begin
        if (m_axis_tready || !out_valid_reg) begin
            out_valid_next = tx_tvalid;
            store_in_out = 1'b1;
        end else begin
            tmp_valid_next = tx_tvalid;
            store_in_tmp = 1'b1;
        end
    end else if (m_axis_tready) begin
        out_valid_next = tmp_valid_reg;
        tmp_valid_next = 1'b0;
        store_tmp_out = 1'b1;
    end
end

always @(posedge clk) begin
    out_ready_reg <= out_ready_early;
    out_valid_reg <= out_valid_next;
    tmp_valid_reg <= tmp_valid_next;
    if (store_in_out) begin
        out_beat_reg <= tx_beat;
    end else if (store_tmp_out) begin
        out_beat_reg <= tmp_beat_reg;
    end
    if (store_in_tmp) begin
        tmp_beat_reg <= tx_beat;
    end
    if (rst) begin
        out_ready_reg <= 1'b0;
        out_valid_reg <= 1'b0;
        tmp_valid_reg <= 1'b0;
        // no X on the stream outputs
        out_beat_reg <= {BEAT_W{1'b0}};
        tmp_beat_reg <= {BEAT_W{1'b0}};
    end
end

// the next state of cur_valid / cur_end / pfc_sel, for send_end_reg
reg  cur_valid_next, cur_end_next;
wire pfc_sel_next = (pfc_fire ? !s_pfc_tlast : in_pfc_reg)
                    || (!(data_fire ? !(cur_last_reg && word_end) : in_data_reg)
                        && s_pfc_tvalid && !(pfc_fire && s_pfc_tlast));
always @* begin
    cur_valid_next = cur_valid_reg;
    cur_end_next = cur_end_reg;
    if (word_pop) begin
        cur_valid_next = 1'b1;
        cur_end_next = {{(32-WB_W){1'b0}}, word_bytes} <= KEEP_I;
    end else if (data_fire) begin
        cur_valid_next = !word_end;
        cur_end_next = {{(32-WB_W){1'b0}}, cur_rem_reg} <= 2 * KEEP_I;
    end
end

always @(posedge clk) begin
    cur_valid_reg <= cur_valid_next;
    cur_end_reg <= cur_end_next;
    pfc_sel_reg <= pfc_sel_next;
    send_end_reg <= !pfc_sel_next && cur_valid_next && cur_end_next;
    if (word_pop) begin
        cur_data_reg <= word_data;
        cur_rem_reg <= word_bytes;
        cur_last_reg <= word_last;
    end else if (data_fire) begin
        cur_data_reg <= cur_data_reg >> DATA_WIDTH;
        cur_rem_reg <= cur_rem_reg - KEEP_N;
    end
    if (data_fire) begin
        in_data_reg <= !(cur_last_reg && word_end);
        tx_bytes_reg <= tx_bytes_reg + {{(32-WB_W){1'b0}}, data_beat_bytes};
        if (cur_last_reg && word_end) begin
            tx_frames_reg <= tx_frames_reg + 1'b1;
        end
    end
    if (pfc_fire) begin
        in_pfc_reg <= !s_pfc_tlast;
    end
    if (rst) begin
        pfc_sel_reg <= 1'b0;
        send_end_reg <= 1'b0;
        cur_valid_reg <= 1'b0;
        cur_data_reg <= {WORD_W{1'b0}};
        cur_rem_reg <= {WB_W{1'b0}};
        cur_end_reg <= 1'b0;
        cur_last_reg <= 1'b0;
        in_data_reg <= 1'b0;
        in_pfc_reg <= 1'b0;
        tx_frames_reg <= 32'd0;
        tx_bytes_reg <= 32'd0;
    end
end

endmodule

`resetall
