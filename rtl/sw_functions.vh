/*
 * Functions shared by the switch core's stages (sw_write, sw_read), included inside each
 * module.  They read nothing but their arguments and the including module's parameters and
 * localparams: CA_W (cell index), WI_W (word index in a cell), ADDR_W (data RAM address) and
 * WPC (words per cell).
 */

// data RAM address of word w of cell c (c * WPC + w; a concatenation when WPC is a power of
// two, so no adder)
function [ADDR_W-1:0] word_addr;
    input [CA_W-1:0] c;
    input [WI_W-1:0] w;
    reg   [CA_W+WI_W-1:0] cat;
    begin
        cat = {c, w};
        if ((1 << WI_W) == WPC) begin
            word_addr = cat[ADDR_W-1:0];
        end else begin
            // (WPC is a 32-bit parameter here, so the sum is 32 bits wide; the address is its
            // low ADDR_W bits, which no higher bit affects: the width warnings say nothing)
            /* verilator lint_off WIDTHEXPAND */
            /* verilator lint_off WIDTHTRUNC */
            word_addr = c * WPC + {{(ADDR_W-WI_W){1'b0}}, w};
            /* verilator lint_on WIDTHTRUNC */
            /* verilator lint_on WIDTHEXPAND */
        end
    end
endfunction
