"""make regs, the switch registers (addrmap pfcmmu_switch of rtl/regs/pfcmmu.rdl): the Python
map models/pfcmmu_switch_regs.py and the register block rtl/regs/pfcmmu_sw_regs.v, from the
compiled map (systemrdl-compiler).  Imported by scripts/regs_gen.py, which also writes the
C header, the markdown and the pyuvm model of this map with the PeakRDL exporters.

The map's shape, checked here: global registers (arrays of registers allowed) in one window
of 64 words, and one register-file array of PORT_COUNT ports, 64 words each, at a 4096-word
boundary; every field of a register either software-writable configuration (sw = rw, hw = r:
a register in the block, driven out as cfg_*) or status (sw = r, hw = w: an input stat_*,
read only).
"""

from __future__ import annotations

from typing import NamedTuple

from systemrdl.node import AddrmapNode, FieldNode, RegfileNode, RegNode

ADDR_SHIFT = 2
# words per window: the globals' window and each port's
WINDOW = 64
WINDOW_BITS = 6


class Elem(NamedTuple):
    """One register of the map (an array's element k, or a lone register: k None)."""
    name: str          # the RDL instance name
    k: int | None      # element of a register array
    count: int         # elements of the array (1 for a lone register)
    word: int          # word offset in its window
    node: RegNode


# (word_of() and py_field() are regs_gen.py's too: it imports this module)
def word_of(byte_addr: int, what: str) -> int:
    """A byte address as a word address (ValueError if it is not a word's)."""
    if byte_addr % (1 << ADDR_SHIFT):
        raise ValueError(f"{what}: byte address {byte_addr:#x} is not a word address")
    return byte_addr >> ADDR_SHIFT


def py_field(node: FieldNode) -> str:
    """A field as the Python map's Field(...) constructor."""
    reset = node.get_property("reset")
    twos = bool(node.get_property("twos_complement", default=False))
    return (f"Field({node.inst_name!r}, {node.lsb}, {node.width}, "
            f"{node.get_property('sw').name!r}, {node.get_property('hw').name!r}, "
            f"{reset!r}{', True' if twos else ''})")


def _elems(regs, base_word: int) -> list[Elem]:
    out = []
    for r in regs:
        if not isinstance(r, RegNode):
            raise ValueError(f"{r.get_path()}: registers expected")
        k = r.current_idx[0] if r.is_array else None
        count = r.array_dimensions[0] if r.is_array else 1
        word = word_of(r.absolute_address if base_word else r.address_offset, r.get_path())
        word -= base_word
        if not 0 <= word < WINDOW:
            raise ValueError(f"{r.get_path()}: word {word} outside its {WINDOW}-word window")
        out.append(Elem(r.inst_name, k, count, word, r))
    return out


class SwitchMap(NamedTuple):
    glob_base: int            # word address of the globals' window
    globs: list[Elem]
    port_name: str
    port_base: int            # word address of port 0
    port_entries: int
    ports: list[Elem]         # word = field offset in a port's window


def switch_map(top: AddrmapNode) -> SwitchMap:
    regs = [c for c in top.children(unroll=True) if isinstance(c, RegNode)]
    files = [c for c in top.children(unroll=False) if isinstance(c, RegfileNode)]
    if len(files) != 1 or not files[0].is_array or len(files[0].array_dimensions) != 1:
        raise ValueError("pfcmmu_switch: one register-file array (the ports) expected")
    pf = files[0]
    glob_base = word_of(min(r.absolute_address for r in regs), "globals") & ~(WINDOW - 1)
    globs = _elems(regs, glob_base)
    if word_of(pf.array_stride, pf.get_path()) != WINDOW:
        raise ValueError(f"{pf.get_path()}: stride must be {WINDOW} words")
    port_base = word_of(pf.raw_absolute_address, pf.get_path())
    if port_base % 4096 or port_base >> 12 == glob_base >> 12:
        raise ValueError(f"{pf.get_path()}: must start at a 4096-word boundary of its own")
    ports = _elems(list(pf.children(unroll=True)), 0)
    return SwitchMap(glob_base, globs, pf.inst_name, port_base, pf.array_dimensions[0], ports)


# Configuration registers a build may leave out with the feature they configure: a parameter
# of the block each (default 1, built).  With the parameter 0 the registers are not built: a
# write has no effect, a read returns 0 and the cfg_* output is the register's reset value
# (each feature's "off": stall cut never, no port group, prevention and watchdog disabled,
# PAUSE not honoured).  switch_core sets them (FEATURE_REGS; docs/regs.md "Registers left
# out").
LEAVE_OUT: dict[str, tuple[str, tuple[str, ...]]] = {
    "STALL_REGS": ("the stall cut's limit", ("stall_clocks",)),
    "LINK_PAUSE_REGS": ("802.3x PAUSE per port", ("link_pause_enable",)),
    "PREV_REGS": ("deadlock prevention's", ("prev_enable", "prev_alt_prio", "prev_alt_dscp",
                                           "port_group")),
    "WD_REGS": ("the PFC watchdog's", ("wd_enable", "wd_detect_time", "wd_restore_time",
                                       "wd_action", "wd_storm_limit", "wd_reenable")),
}


def leave_out_param(name: str) -> str | None:
    """The parameter that may leave register ``name`` out (None: always built)."""
    for param, (_, regs) in LEAVE_OUT.items():
        if name in regs:
            return param
    return None


def _is_cfg(f: FieldNode) -> bool:
    sw, hw = f.get_property("sw").name, f.get_property("hw").name
    if (sw, hw) == ("rw", "r"):
        return True
    if (sw, hw) == ("r", "w"):
        return False
    raise ValueError(f"{f.get_path()}: sw = {sw}, hw = {hw}: only rw / r or r / w")


def _fields(e: Elem) -> list[FieldNode]:
    return sorted(e.node.fields(), key=lambda f: f.lsb)


def signal(e: Elem, f: FieldNode) -> str:
    """The block's port for field ``f`` of register ``e``: cfg_ / stat_ + the register's name
    (+ _field when the register has more than one field or it is not called value)."""
    pre = "cfg_" if _is_cfg(f) else "stat_"
    if len(list(e.node.fields())) == 1 and f.inst_name == "value":
        return pre + e.name
    return f"{pre}{e.name}_{f.inst_name}"


# ------------------------------------------------------------------------------ Python map

PY_HEAD = '''\
"""pfcmmu switch registers (switch_core's own configuration and status), as word addresses.

GENERATED by scripts/regs_gen.py from rtl/regs/pfcmmu.rdl (addrmap pfcmmu_switch): do not
edit, run `make regs` (docs/regs.md "The switch registers").  Plain Python.

    SW_GLOBALS       name -> Reg, offset = the word address (an array's element k is
                     "name[k]")
    SW_PORT          name -> Reg, offset = the field f of port p (word address
                     SW_PORT_BASE + p * SW_PORT_STRIDE + f, p < SW_PORT_ENTRIES)
    SW_ARRAYS        an array register's name -> its number of elements

Byte address (AXI4-Lite) = word address << ADDR_SHIFT.  Field.reset: the value after rst
(configuration included: the switch registers are registers with reset values).  Counters:
32 bits, wrap, no clear on read.
"""

from __future__ import annotations

from models.pfcmmu_regs import ADDR_SHIFT, Field, Reg

'''


def _py_regs(elems: list[Elem], base: int) -> list[str]:
    out = []
    for e in elems:
        key = e.name if e.k is None else f"{e.name}[{e.k}]"
        out.append(f"    {key!r}: Reg({key!r}, {base + e.word:#06x}, (")
        out += [f"        {py_field(f)}," for f in _fields(e)]
        out.append("    )),")
    return out


def python_map(top: AddrmapNode) -> str:
    m = switch_map(top)
    params = {p.name: p.get_value() for p in top.inst.parameters}
    arrays = {e.name: e.count for e in m.globs + m.ports if e.k is not None}
    lines = [PY_HEAD.rstrip("\n"), "",
             "# the RDL's parameters this map was generated with",
             f"SW_PARAMS = {params!r}",
             f"SW_GLOBAL_BASE = {m.glob_base:#06x}",
             f"SW_PORT_BASE = {m.port_base:#06x}",
             f"SW_PORT_STRIDE = {WINDOW:#x}",
             f"SW_PORT_ENTRIES = {m.port_entries}",
             f"SW_ARRAYS: dict[str, int] = {arrays!r}",
             "",
             "SW_GLOBALS: dict[str, Reg] = {"]
    lines += _py_regs(m.globs, m.glob_base)
    lines += ["}", "", "SW_PORT: dict[str, Reg] = {"]
    lines += _py_regs(m.ports, 0)
    lines += ["}", "", "__all__ = [\"ADDR_SHIFT\", \"Field\", \"Reg\", \"SW_GLOBALS\", \"SW_PORT\"]"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ RTL block

V_HEAD = '''\
/*
 * pfcmmu_sw_regs: switch_core's own registers (configuration and status), behind pfcmmu_csr.
 *
 * GENERATED by scripts/regs_gen.py from rtl/regs/pfcmmu.rdl (addrmap pfcmmu_switch,
 * systemrdl-compiler): do not edit, run `make regs` (docs/regs.md "The switch registers").
 *
 * Job: the configuration registers (sw = rw) as flip-flops with their RDL reset values,
 * driven out as cfg_* vectors; the read mux over them and the status inputs stat_* (sw = r),
 * answering with a fixed latency.  pfcmmu_csr decodes the AXI4-Lite port (which words are
 * registers, which writable, SLVERR) and hands every access of the map's word addresses to
 * its one write port and one read port; sw_mmu_csr sends the accesses with word address bit
 * 15 set here (the rest to mmu_core).  This block takes a write of any word in its windows
 * (it does not check writability again: a read-only word has no register to write).
 *
 * Registers left out: STALL_REGS, LINK_PAUSE_REGS, PREV_REGS and WD_REGS 0 leave out the
 * registers of a feature the build does not use (not built: a write has no effect, a read
 * returns 0, the cfg_* outputs are the reset values, the feature's "off"; docs/regs.md).
 *
 * Vectors: a per-port field of W bits at [p*W +: W] (an array register's element k of port p
 * at [(p*N + k)*W +: W]); a global array's element k at [k*W +: W].
 *
 * Interfaces:
 *   wr_valid / wr_addr / wr_data   a write of word wr_addr (pfcmmu_csr's m_cfg_wr_*)
 *   rd_addr                        the word read (pfcmmu_csr's m_stat_addr)
 *   rd_data, rd_hit                the data of rd_addr and "rd_addr was a word of this half
 *                                  (bit 15)", RD_LATENCY clocks after rd_addr (registers)
 *   cfg_*                          the configuration registers
 *   stat_*                         the status the reads return (sampled the clock after
 *                                  rd_addr: a 32-bit counter reads whole)
 *
 * Latency: a write is registered as it comes (wr_valid / wr_addr / wr_data, so the routing
 * in front of this block ends there) and is in its register two clocks after wr_valid
 * (pfcmmu_csr answers the write first, so a read that follows its response sees it); a
 * read's data RD_LATENCY
 * clocks after rd_addr (stage 1: each port's word and the global word by the field; stage
 * 2: the port's word by the port index; stage 3: global or port; then RD_LATENCY - 3
 * registers, so the data comes with mmu_core's status latency).
 */
'''


def _rng(width: str) -> str:
    return f"[{width}-1:0]"


def _const(width: int, v: int) -> str:
    return f"{width}'h{v:x}"


def verilog(top: AddrmapNode, stat_latency: int) -> str:
    m = switch_map(top)
    L = [V_HEAD.rstrip("\n"), "", "`resetall", "`timescale 1ns / 1ps", "`default_nettype none",
         "", "module pfcmmu_sw_regs #(",
         f"    // ports of the switch (the port array's entries answered, 1 .. {m.port_entries})",
         "    parameter PORT_COUNT = 4,",
         "    // clocks from rd_addr to rd_data (mmu_core's status latency, "
         "models.mmu_pipe.RTL_STAT_LATENCY; at least 3)",
         f"    parameter RD_LATENCY = {stat_latency},"]
    for i, (param, (what, regs)) in enumerate(LEAVE_OUT.items()):
        L += [f"    // 0: {what} registers left out (not built, read 0; docs/regs.md)",
              f"    parameter {param} = 1{',' if i + 1 < len(LEAVE_OUT) else ''}"]
    L += [") (",
         "    input  wire                     clk,",
         "    input  wire                     rst,",
         "",
         "    /*",
         "     * Register port (word addresses; pfcmmu_csr)",
         "     */",
         "    input  wire                     wr_valid,",
         "    input  wire [15:0]              wr_addr,",
         "    input  wire [31:0]              wr_data,",
         "    input  wire [15:0]              rd_addr,",
         "    output wire [31:0]              rd_data,",
         "    output wire                     rd_hit,"]
    decl = []
    for scope, elems in (("global", m.globs), ("port", m.ports)):
        seen = set()
        for e in elems:
            if e.name in seen:
                continue
            seen.add(e.name)
            for f in _fields(e):
                n = e.count * f.width
                w = f"PORT_COUNT*{n}" if scope == "port" else str(n)
                d = "output" if _is_cfg(f) else "input "
                decl.append((d, w, signal(e, f), scope))
    L += ["", "    /*", "     * Configuration (registers) and status, global then per port",
          "     */"]
    for i, (d, w, name, _) in enumerate(decl):
        rng = f"[{w}-1:0]" if not w.isdigit() else f"[{int(w) - 1}:0]"
        L.append(f"    {d} wire {rng:<22} {name}{',' if i + 1 < len(decl) else ''}")
    L += [");", ""]
    gb, pb = m.glob_base, m.port_base
    L += ["initial begin",
          f"    if (PORT_COUNT < 1 || PORT_COUNT > {m.port_entries}) begin",
          f"        $error(\"pfcmmu_sw_regs: PORT_COUNT %0d outside 1 .. {m.port_entries}\", "
          "PORT_COUNT);",
          "        $finish;",
          "    end",
          "    if (RD_LATENCY < 3 || RD_LATENCY > 16) begin",
          "        $error(\"pfcmmu_sw_regs: RD_LATENCY %0d outside 3 .. 16\", RD_LATENCY);",
          "        $finish;",
          "    end",
          "end",
          "",
          f"// the globals' window: words {gb:#06x} + f; port p: {pb:#06x} | p << 6 | f",
          "// the write, registered first: the window, the field, the port and the data",
          "reg        wr_glob, wr_port;",
          "reg [5:0]  wr_field, wr_index;",
          "reg [31:0] wr_data_q;",
          "always @(posedge clk) begin",
          f"    wr_glob <= wr_valid && wr_addr[15:6] == {_const(10, gb >> 6)};",
          f"    wr_port <= wr_valid && wr_addr[15:12] == {_const(4, pb >> 12)};",
          "    wr_field <= wr_addr[5:0];",
          "    wr_index <= wr_addr[11:6];",
          "    wr_data_q <= wr_data;",
          "    if (rst) begin",
          "        wr_glob <= 1'b0;",
          "        wr_port <= 1'b0;",
          "    end",
          "end",
          ""]

    def cfg_block(elems: list[Elem], enable: str, indent: str, suffix: str) -> list[str]:
        """registers, their write, reset and output assigns"""
        out = []
        for e in elems:
            if e.k not in (None, 0):
                continue
            for f in _fields(e):
                if not _is_cfg(f):
                    continue
                out.append(f"{indent}reg [{e.count * f.width - 1}:0] {signal(e, f)}_reg;")
        out += [f"{indent}always @(posedge clk) begin",
                f"{indent}    if ({enable}) begin",
                f"{indent}        case (wr_field)"]
        for e in elems:
            cf = [f for f in _fields(e) if _is_cfg(f)]
            if not cf:
                continue
            k = e.k or 0
            acts = [f"{signal(e, f)}_reg[{k * f.width + f.width - 1}:{k * f.width}] <= "
                    f"wr_data_q[{f.msb}:{f.lsb}];" for f in cf]
            out.append(f"{indent}            {_const(6, e.word)}: begin")
            out += [f"{indent}                {a}" for a in acts]
            out.append(f"{indent}            end")
        out += [f"{indent}            default: ;",
                f"{indent}        endcase",
                f"{indent}    end",
                f"{indent}    if (rst) begin"]
        for e in elems:
            for f in _fields(e):
                if _is_cfg(f):
                    k = e.k or 0
                    out.append(f"{indent}        {signal(e, f)}_reg[{k * f.width + f.width - 1}:"
                               f"{k * f.width}] <= {_const(f.width, f.get_property('reset') or 0)};")
        out += [f"{indent}    end", f"{indent}end"]
        seen = set()
        for e in elems:
            if e.name in seen:
                continue
            seen.add(e.name)
            lo = leave_out_param(e.name)
            for f in _fields(e):
                if _is_cfg(f):
                    n = e.count * f.width
                    v = f"{signal(e, f)}_reg"
                    if lo:
                        rv = _const(f.width, f.get_property("reset") or 0)
                        rv = rv if e.count == 1 else f"{{{e.count}{{{rv}}}}}"
                        v = f"{lo} != 0 ? {v} : {rv}"
                    out.append(f"{indent}assign {signal(e, f)}{suffix.format(n=n)} = {v};")
        return out

    def read_case(elems: list[Elem], target: str, indent: str, stat: str) -> list[str]:
        # the window's 64 words as one vector (unused words and bits 0), read by an index:
        # a binary mux tree on rd_addr[5:0] (a case statement became a one-hot select with
        # about one LUT per word and bit)
        out = [f"{indent}wire [64*32-1:0] {target}_words;"]
        by_word = {e.word: e for e in elems}
        for w in range(WINDOW):
            e = by_word.get(w)
            if e is None:
                out.append(f"{indent}assign {target}_words[{w * 32 + 31}:{w * 32}] = 32'd0;")
                continue
            k = e.k or 0
            parts, pos = [], 0
            for f in _fields(e):
                if f.lsb > pos:
                    parts.append(f"{f.lsb - pos}'d0")
                sl = f"[{k * f.width + f.width - 1}:{k * f.width}]"
                lo = leave_out_param(e.name)
                if _is_cfg(f) and lo:
                    parts.append(f"({lo} != 0 ? {signal(e, f)}_reg{sl} : {f.width}'d0)")
                else:
                    parts.append(f"{signal(e, f)}_reg{sl}" if _is_cfg(f) else stat.format(
                        s=signal(e, f), n=e.count * f.width, lo=k * f.width, w=f.width))
                pos = f.msb + 1
            if pos < 32:
                parts.append(f"{32 - pos}'d0")
            out.append(f"{indent}assign {target}_words[{w * 32 + 31}:{w * 32}] = "
                       f"{{{', '.join(reversed(parts))}}};")
        out += [f"{indent}always @* begin",
                f"{indent}    {target} = {target}_words[rd_addr[5:0]*32 +: 32];",
                f"{indent}end"]
        return out

    L += ["// ---- globals", ""]
    L += cfg_block(m.globs, "wr_glob", "", "")
    L += ["", "reg [31:0] glob_rd;"]
    L += read_case(m.globs, "glob_rd", "", "{s}[{lo}+{w}-1:{lo}]")
    L += ["", "// ---- ports: one generate block per port (its registers and its read word)",
          "wire [PORT_COUNT*32-1:0] port_rd_all;",
          "genvar gp;",
          "generate",
          "    for (gp = 0; gp < PORT_COUNT; gp = gp + 1) begin : port"]
    L += cfg_block(m.ports, "wr_port && wr_index == gp", "        ", "[gp*{n} +: {n}]")
    L += ["        reg [31:0] rd;"]
    L += read_case(m.ports, "rd", "        ", "{s}[gp*{n}+{lo} +: {w}]")
    L += ["        // stage 1: the port's word",
          "        reg [31:0] rd_reg;",
          "        always @(posedge clk) begin",
          "            rd_reg <= rd;",
          "        end",
          "        assign port_rd_all[gp*32 +: 32] = rd_reg;",
          "    end",
          "endgenerate",
          ""]
    L += [f"""// ---- read pipeline
reg [31:0] glob_rd_reg;          // stage 1
reg        s1_glob_reg, s1_port_reg, s1_hit_reg;
reg [5:0]  s1_index_reg;
reg [31:0] port_sel;
reg [31:0] glob2_reg, port2_reg; // stage 2
reg        s2_glob_reg, s2_port_reg, s2_hit_reg;
// stage 3 and the delay to RD_LATENCY: stage k + 3 at [k*32 +: 32] / bit k
reg [(RD_LATENCY-2)*32-1:0] rd_pipe_reg;
reg [RD_LATENCY-3:0] hit_pipe_reg;
integer i;

always @* begin
    port_sel = 32'd0;
    for (i = 0; i < PORT_COUNT; i = i + 1) begin
        if (s1_index_reg == i[5:0]) begin
            port_sel = port_rd_all[i*32 +: 32];
        end
    end
end

always @(posedge clk) begin
    glob_rd_reg <= glob_rd;
    s1_glob_reg <= rd_addr[15:6] == {_const(10, gb >> 6)};
    s1_port_reg <= rd_addr[15:12] == {_const(4, pb >> 12)};
    s1_hit_reg <= rd_addr[15];
    s1_index_reg <= rd_addr[11:6];
    glob2_reg <= glob_rd_reg;
    port2_reg <= port_sel;
    s2_glob_reg <= s1_glob_reg;
    s2_port_reg <= s1_port_reg;
    s2_hit_reg <= s1_hit_reg;
    rd_pipe_reg[31:0] <= s2_glob_reg ? glob2_reg : s2_port_reg ? port2_reg : 32'd0;
    hit_pipe_reg[0] <= s2_hit_reg;
end

generate
    if (RD_LATENCY > 3) begin : delay
        always @(posedge clk) begin
            rd_pipe_reg[(RD_LATENCY-2)*32-1:32] <= rd_pipe_reg[(RD_LATENCY-3)*32-1:0];
            hit_pipe_reg[RD_LATENCY-3:1] <= hit_pipe_reg[RD_LATENCY-4:0];
        end
    end
endgenerate

assign rd_data = rd_pipe_reg[(RD_LATENCY-3)*32 +: 32];
assign rd_hit = hit_pipe_reg[RD_LATENCY-3];

// wr_data bits above a narrow field and the read address bits between the windows carry
// nothing here (pfcmmu_csr has decoded them)
/* verilator lint_off UNUSEDSIGNAL */
wire [15:0] rd_addr_unused = rd_addr;
/* verilator lint_on UNUSEDSIGNAL */

endmodule

`resetall"""]
    return "\n".join(L) + "\n"


def csr_decode(top: AddrmapNode) -> tuple[list[int], list[int], tuple]:
    """For pfcmmu_csr's decode: the global words (all, writable) and the port block
    (name, base word, stride, field offsets, writable offsets) with its entries per port 1."""
    m = switch_map(top)
    g_r = sorted(m.glob_base + e.word for e in m.globs)
    g_w = sorted(m.glob_base + e.word for e in m.globs if any(_is_cfg(f) for f in _fields(e)))
    p_r = sorted(e.word for e in m.ports)
    p_w = sorted(e.word for e in m.ports if any(_is_cfg(f) for f in _fields(e)))
    return g_r, g_w, (m.port_name, m.port_base, WINDOW, p_r, p_w)
