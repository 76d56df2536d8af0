/*
 * cfg_rom_boot: writes a register image from a ROM over AXI4-Lite after reset, then polls a
 * list of registers (issue 17: the board boots from the model's image and reads its status
 * line through the CSR block).
 *
 * Job: the ROM holds a register image as models/regimage.py writes it for $readmemh
 * (`pfcmmu sonic image ... --out x.hex`, docs/regs.md "Register image"): entry k is the byte
 * address at ROM word 2k and the 32-bit value at word 2k + 1, and the entry after the last
 * is the end marker, address ffffffff.  After rst the module writes every entry in order,
 * one write at a time (AWVALID and WVALID together, the next after the previous BVALID),
 * raises done at the end marker, then (POLL_ENABLE) reads the POLL_COUNT addresses of
 * POLL_ADDRS round-robin, entry 0, 1, .., POLL_COUNT - 1, 0, .., one read at a time (the next
 * AR after the previous R), for ever, and keeps each entry's last data in poll_data:
 * fpga_core prints the headroom pool's watermark, the switch's error flags and its per-port
 * admission drops that way.
 *
 * Format (ROM words, 32 bits each; `//` comment lines are allowed in the file):
 *
 *   word      | content
 *   ----------+-------------------------------------------
 *   2k        | byte address of entry k (AXI4-Lite AWADDR)
 *   2k + 1    | value of entry k (WDATA, WSTRB 4'hF)
 *   2 ENTRIES | ffffffff (end marker)
 *   2 ENTRIES + 1 | 00000000
 *
 * Poll list (parameter POLL_ADDRS, POLL_COUNT * ADDR_W bits): entry i's byte address at
 * [i*ADDR_W +: ADDR_W]; its data at poll_data[i*32 +: 32].
 *
 * err: sticky until rst; a write answered with anything but OKAY, no end marker within
 * ENTRIES + 1 entries (a file of the wrong length), or a polled read answered with anything
 * but OKAY (an address of the poll list that the slave does not map: a build whose list
 * does not match the register map; the entry keeps its last data and the round goes on).
 * The boot goes on after a bad response: the configuration checker and the benches say what
 * the core then holds.
 *
 * Interfaces:
 *   m_axil_*   AXI4-Lite master, 32-bit data, ADDR_W-bit byte addresses (AWPROT / ARPROT 0)
 *   done       1 from the clock after the last entry's write response until rst
 *   err        see above
 *   poll_data  entry i: the last data read from POLL_ADDRS entry i with an OKAY response (0
 *              until the first)
 *
 * Latency: a write every 8 clocks with a slave that answers as pfcmmu_csr does (AWREADY and
 * WREADY in the clock the valids rise, BVALID two clocks after): about 8 ENTRIES + 4 clocks
 * from rst to done (about 3,400 clocks, 27 us at 125 MHz, for 423 writes); the ROM is read two
 * clocks ahead of its use (rom_d), so the block RAM's clock-to-out is a path of its own.  The ROM has one
 * 32-bit read port (an entry's two words are read one after the other), so it takes one
 * block RAM per 512 words.  A polled read takes STAT_LATENCY + 3 clocks from one AR
 * handshake to the next with pfcmmu_csr (ARREADY high, RVALID STAT_LATENCY + 1 clocks after
 * the handshake, the next ARVALID the clock after the R handshake): 9 clocks with
 * switch_core's STAT_LATENCY 6, so each entry of poll_data is refreshed every
 * 9 POLL_COUNT clocks, with data about 9 POLL_COUNT + 8 clocks old at most (tb/fpga_core
 * measures the round).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module cfg_rom_boot #(
    // $readmemh image (models/regimage.py .hex); a path the tools resolve (the repository
    // root for lint and the board flow, an absolute path from the benches); the default is
    // the ULX3S board's, so that Yosys finds a file when it reads this module alone (lint)
    parameter IMAGE_FILE = "syn/ulx3s/mmu_image.hex",
    // register writes in the image (the end marker not counted): the ROM is 2 ENTRIES + 2
    // words
    parameter ENTRIES = 423,
    // AXI4-Lite byte address width
    parameter ADDR_W = 18,
    // 1: after the boot, read the poll list round-robin into poll_data
    parameter POLL_ENABLE = 1,
    // registers in the poll list (at least 1)
    parameter POLL_COUNT = 1,
    // the poll list: byte address of entry i at [i*ADDR_W +: ADDR_W]
    parameter [POLL_COUNT*ADDR_W-1:0] POLL_ADDRS = 0
) (
    input  wire                 clk,
    input  wire                 rst,

    /*
     * AXI4-Lite master
     */
    output wire [ADDR_W-1:0]    m_axil_awaddr,
    output wire [2:0]           m_axil_awprot,
    output wire                 m_axil_awvalid,
    input  wire                 m_axil_awready,
    output wire [31:0]          m_axil_wdata,
    output wire [3:0]           m_axil_wstrb,
    output wire                 m_axil_wvalid,
    input  wire                 m_axil_wready,
    input  wire [1:0]           m_axil_bresp,
    input  wire                 m_axil_bvalid,
    output wire                 m_axil_bready,
    output wire [ADDR_W-1:0]    m_axil_araddr,
    output wire [2:0]           m_axil_arprot,
    output wire                 m_axil_arvalid,
    input  wire                 m_axil_arready,
    input  wire [31:0]          m_axil_rdata,
    input  wire [1:0]           m_axil_rresp,
    input  wire                 m_axil_rvalid,
    output wire                 m_axil_rready,

    /*
     * Status
     */
    output wire                 done,
    output wire                 err,
    output wire [POLL_COUNT*32-1:0] poll_data
);

localparam ROM_WORDS = 2 * ENTRIES + 2;
localparam K_W = $clog2(ENTRIES + 1);
localparam ROM_AW = $clog2(ROM_WORDS);
localparam [31:0] END_MARK = 32'hffffffff;
localparam [1:0] RESP_OKAY = 2'b00;
localparam POLL_W = POLL_COUNT > 1 ? $clog2(POLL_COUNT) : 1;
localparam integer POLL_LAST_I = POLL_COUNT - 1;
localparam [POLL_W-1:0] POLL_LAST = POLL_LAST_I[POLL_W-1:0];
// S_START, S_START2: the two clocks for rom_d to hold word 0; S_VALUE1, S_VALUE2: the two
// clocks for rom_d to hold an entry's value after its address
// S_MARK: a clock for the registered end-marker compare (rom_end_reg) to see the word in
// rom_d before S_ADDR decides on it
localparam [3:0] S_START = 4'd0, S_START2 = 4'd1, S_ADDR = 4'd2, S_VALUE1 = 4'd3,
                 S_VALUE2 = 4'd4, S_ISSUE = 4'd5, S_WRITE = 4'd6, S_RESP = 4'd7,
                 S_DONE = 4'd8, S_POLL_AR = 4'd9, S_POLL_R = 4'd10, S_MARK = 4'd11;

initial begin
    if (ENTRIES < 1 || ADDR_W < 2 || ADDR_W > 32 || POLL_COUNT < 1) begin
        $error("cfg_rom_boot: ENTRIES >= 1, 2 <= ADDR_W <= 32 and POLL_COUNT >= 1");
        $finish;
    end
end

// one synchronous read port, 32 bits wide (one block RAM of 512 x 36 up to 255 entries):
// rom_q is the word rom_addr_reg named a clock earlier, rom_d (a fabric register, or the
// block RAM's output register) the word it named two clocks earlier: the FSM's logic starts
// at rom_d, so no path runs from the block RAM's output through it
reg [31:0] rom [0:ROM_WORDS-1];
initial begin
    $readmemh(IMAGE_FILE, rom);
end

reg [3:0]        state_reg, state_next;
reg [ROM_AW-1:0] rom_addr_reg, rom_addr_next;
reg [31:0]       rom_q, rom_d;
reg [K_W-1:0]    k_reg, k_next;          // entries written
reg              awvalid_reg, awvalid_next;
reg              wvalid_reg, wvalid_next;
reg [ADDR_W-1:0] awaddr_reg, awaddr_next;
reg [31:0]       wdata_reg, wdata_next;
reg              arvalid_reg, arvalid_next;
reg [ADDR_W-1:0] araddr_reg, araddr_next;
reg [POLL_W-1:0] poll_idx_reg, poll_idx_next;   // the entry being read
reg              done_reg, done_next;
reg              err_reg, err_next;

// rom_d is the end marker, and all ENTRIES entries are written: registered compares (a
// clock behind rom_d and k_reg, which S_MARK waits for), so S_ADDR's decision starts at
// flip-flops
reg rom_end_reg, k_full_reg;
always @(posedge clk) begin
    rom_q <= rom[rom_addr_reg];
    rom_d <= rom_q;
    rom_end_reg <= rom_d == END_MARK;
    k_full_reg <= k_reg == ENTRIES[K_W-1:0];
end

wire k_full = k_full_reg;
// the entry after poll_idx_reg (round-robin) and its address
wire [POLL_W-1:0] poll_idx_succ = poll_idx_reg == POLL_LAST ? {POLL_W{1'b0}}
                                                            : poll_idx_reg + 1'b1;
wire [ADDR_W-1:0] poll_addr_succ = POLL_ADDRS[poll_idx_succ * ADDR_W +: ADDR_W];
// a polled read's data is taken (entry poll_idx_reg)
wire              poll_take = state_reg == S_POLL_R && m_axil_rvalid
                              && m_axil_rresp == RESP_OKAY;

assign m_axil_awaddr = awaddr_reg;
assign m_axil_awprot = 3'd0;
assign m_axil_awvalid = awvalid_reg;
assign m_axil_wdata = wdata_reg;
assign m_axil_wstrb = 4'hf;
assign m_axil_wvalid = wvalid_reg;
assign m_axil_bready = state_reg == S_RESP;
assign m_axil_araddr = araddr_reg;
assign m_axil_arprot = 3'd0;
assign m_axil_arvalid = arvalid_reg;
assign m_axil_rready = state_reg == S_POLL_R;
assign done = done_reg;
assign err = err_reg;

// one register per poll entry, written when its read returns OKAY
genvar i;
generate
for (i = 0; i < POLL_COUNT; i = i + 1) begin : poll_entry
    localparam integer IDX_I = i;
    localparam [POLL_W-1:0] IDX = IDX_I[POLL_W-1:0];
    reg [31:0] data_reg;
    always @(posedge clk) begin
        if (poll_take && poll_idx_reg == IDX) begin
            data_reg <= m_axil_rdata;
        end
        if (rst) begin
            data_reg <= 32'd0;
        end
    end
    assign poll_data[i*32 +: 32] = data_reg;
end
endgenerate

// rom_d holds the word rom_addr_reg named two clocks earlier.  Entry k: S_ADDR sees its address
// (word 2k) and moves the ROM to 2k + 1; S_VALUE1 / S_VALUE2 wait; S_ISSUE sees the value and
// moves the ROM to 2k + 2, which S_WRITE, S_RESP and S_MARK (at least a clock each) leave in
// rom_d, and rom_end_reg's compare on it, for the next S_ADDR.
always @* begin
    state_next = state_reg;
    rom_addr_next = rom_addr_reg;
    k_next = k_reg;
    awvalid_next = awvalid_reg && !m_axil_awready;
    wvalid_next = wvalid_reg && !m_axil_wready;
    awaddr_next = awaddr_reg;
    wdata_next = wdata_reg;
    arvalid_next = arvalid_reg && !m_axil_arready;
    araddr_next = araddr_reg;
    poll_idx_next = poll_idx_reg;
    done_next = done_reg;
    err_next = err_reg;

    case (state_reg)
        S_START: begin
            state_next = S_START2;
        end
        S_START2: begin
            state_next = S_MARK;
        end
        S_MARK: begin
            state_next = S_ADDR;
        end
        // rom_d: entry k's address, or the end marker
        S_ADDR: begin
            if (rom_end_reg || k_full) begin
                // k_full without the end marker: a file of another length than ENTRIES
                state_next = S_DONE;
                done_next = 1'b1;
                err_next = err_reg || !rom_end_reg;
            end else begin
                awaddr_next = rom_d[ADDR_W-1:0];
                rom_addr_next = rom_addr_reg + 1'b1;
                state_next = S_VALUE1;
            end
        end
        S_VALUE1: begin
            state_next = S_VALUE2;
        end
        S_VALUE2: begin
            state_next = S_ISSUE;
        end
        // rom_d: entry k's value
        S_ISSUE: begin
            awvalid_next = 1'b1;
            wvalid_next = 1'b1;
            wdata_next = rom_d;
            k_next = k_reg + 1'b1;
            rom_addr_next = rom_addr_reg + 1'b1;
            state_next = S_WRITE;
        end
        // address and data accepted (each in its own handshake): wait for the response
        S_WRITE: begin
            if (!awvalid_next && !wvalid_next) begin
                state_next = S_RESP;
            end
        end
        S_RESP: begin
            if (m_axil_bvalid) begin
                if (m_axil_bresp != RESP_OKAY) begin
                    err_next = 1'b1;
                end
                state_next = S_MARK;
            end
        end
        // (poll_idx_reg 0 from rst: the first read is entry 0's)
        S_DONE: begin
            if (POLL_ENABLE != 0) begin
                arvalid_next = 1'b1;
                araddr_next = POLL_ADDRS[0 +: ADDR_W];
                state_next = S_POLL_AR;
            end
        end
        S_POLL_AR: begin
            if (!arvalid_next) begin
                state_next = S_POLL_R;
            end
        end
        // the data goes to entry poll_idx_reg (poll_entry); the next read is the next entry's
        S_POLL_R: begin
            if (m_axil_rvalid) begin
                if (m_axil_rresp != RESP_OKAY) begin
                    err_next = 1'b1;
                end
                arvalid_next = 1'b1;
                araddr_next = poll_addr_succ;
                poll_idx_next = poll_idx_succ;
                state_next = S_POLL_AR;
            end
        end
        default: begin
            state_next = S_START;
        end
    endcase
end

always @(posedge clk) begin
    state_reg <= state_next;
    rom_addr_reg <= rom_addr_next;
    k_reg <= k_next;
    awvalid_reg <= awvalid_next;
    wvalid_reg <= wvalid_next;
    awaddr_reg <= awaddr_next;
    wdata_reg <= wdata_next;
    arvalid_reg <= arvalid_next;
    araddr_reg <= araddr_next;
    poll_idx_reg <= poll_idx_next;
    done_reg <= done_next;
    err_reg <= err_next;

    if (rst) begin
        state_reg <= S_START;
        rom_addr_reg <= {ROM_AW{1'b0}};
        k_reg <= {K_W{1'b0}};
        awvalid_reg <= 1'b0;
        wvalid_reg <= 1'b0;
        arvalid_reg <= 1'b0;
        araddr_reg <= {ADDR_W{1'b0}};
        poll_idx_reg <= {POLL_W{1'b0}};
        done_reg <= 1'b0;
        err_reg <= 1'b0;
    end
end

endmodule

`resetall
