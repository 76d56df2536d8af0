/*
 * Functions shared by the parts of mmu_core (mmu_core_view, _decide, _commit, _eval, _status),
 * included inside each module.  They read nothing but their arguments (Icarus re-evaluates a
 * continuous assignment on its arguments only) and the including module's parameters: PORT_COUNT,
 * PORT_W, PG_W, Q_W, W (cell counts), SW (signed decision values), TW (threshold values), XW
 * (carry-save sums), PGE_W and QE_W (PG and queue state entries).
 */

function signed [SW-1:0] sx;  // a cell count as a signed decision value
    input [W-1:0] v;
    begin
        sx = $signed({{(SW-W){1'b0}}, v});
    end
endfunction

// T and everything compared against it are TW bits: wide enough for alpha up to 2^7 (a bad
// configuration still computes what the model computes)
function signed [TW-1:0] tx;  // a cell count as a signed threshold-width value
    input [W-1:0] v;
    begin
        tx = $signed({{(TW-W){1'b0}}, v});
    end
endfunction

// carry-save arithmetic for the DEC and COMMIT stages: a three-operand sum is one LUT level
// (sum and majority bits) and one carry chain
function [XW-1:0] xz;
    input [W-1:0] v;
    begin
        xz = {{(XW-W){1'b0}}, v};
    end
endfunction
function [XW-1:0] add3;
    input [XW-1:0] a;
    input [XW-1:0] b;
    input [XW-1:0] c;
    input cin;
    // the top majority bit leaves the word (sums are taken modulo 2^XW)
    /* verilator lint_off UNUSEDSIGNAL */
    reg [XW-1:0] maj;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        maj = (a & b) | (a & c) | (b & c);
        add3 = (a ^ b ^ c) + {maj[XW-2:0], cin};
    end
endfunction

// the entry a forwarding select picks: the commit register's arrival bus (ma), its release bus
// (mr), else the entry carried (PG {class, res, shared, hdrm}, queue {class, res, shared})
function [PGE_W-1:0] sel_pg;
    input ma, mr;
    input [2*PGE_W-1:0] cval;
    input [PGE_W-1:0] v;
    begin
        sel_pg = ma ? cval[PGE_W +: PGE_W] : mr ? cval[0 +: PGE_W] : v;
    end
endfunction
function [QE_W-1:0] sel_q;
    input ma, mr;
    input [2*QE_W-1:0] cval;
    input [QE_W-1:0] v;
    begin
        sel_q = ma ? cval[QE_W +: QE_W] : mr ? cval[0 +: QE_W] : v;
    end
endfunction

// the request's or release's port, PG, egress port and queue all in range: for a power-of-two
// PORT_COUNT (and the 8 PGs and queues) the bits above the index are zero, a NOR (a compare
// with the constant becomes a carry chain)
function idx_port_ok;
    input [PORT_W-1:0] port;
    begin
        if ((PORT_COUNT & (PORT_COUNT - 1)) == 0) begin
            idx_port_ok = (port >> $clog2(PORT_COUNT)) == 0;
        end else begin
            idx_port_ok = {{(32-PORT_W){1'b0}}, port} < PORT_COUNT;
        end
    end
endfunction
function idx_ok;
    input [PORT_W-1:0] port;
    input [PG_W-1:0] pg;
    input [PORT_W-1:0] eport;
    input [Q_W-1:0] queue;
    begin
        idx_ok = idx_port_ok(port) && (pg >> 3) == 0 && idx_port_ok(eport) && (queue >> 3) == 0;
    end
endfunction
