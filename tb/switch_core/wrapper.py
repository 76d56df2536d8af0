"""Generates the test-only wrapper of switch_core that splits the flattened per-port stream
vectors into named streams s<p>_axis_* / m<p>_axis_* (cocotbext-axi binds by prefix); every
other port passes through under its own name.  Plain Python, no cocotb."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _core_ports() -> list[tuple[str, str, str]]:
    """(direction, width expression, name) of switch_core's ports, read from the RTL."""
    text = (ROOT / "rtl" / "switch_core.v").read_text()
    head = text[text.index("module switch_core"):text.index("\n);", text.index(") ("))]
    ports = []
    for m in re.finditer(r"^\s*(input|output)\s+wire\s+(\[[^\]]+\])?\s*(\w+)\s*,?\s*$", head,
                         re.M):
        ports.append((m.group(1), m.group(2) or "", m.group(3)))
    return ports


def _core_status() -> list[tuple[str, str]]:
    """(width expression, name) of switch_core's internal status wires (stat_*, err_*: what
    its registers read), from the RTL's "switch registers" section."""
    text = (ROOT / "rtl" / "switch_core.v").read_text()
    sec = text[text.index("// ------------------------------------------------------------"
                          "---------------- switch registers"):
               text.index("// the configuration the datapath reads")]
    return [(m.group(1) or "", m.group(2)) for m in re.finditer(
        r"^wire\s+(\[[^\]]+\])?\s*((?:stat|err)_\w+)\s*;", sec, re.M)]


def generate(port_count: int, out: Path) -> Path:
    n = port_count
    stream = {"tdata": "DATA_WIDTH", "tkeep": "KEEP_WIDTH", "tvalid": "", "tready": "",
              "tlast": "", "tuser": "", "tdest": "DEST_WIDTH"}
    s_dir = {"tready": "output"}
    m_dir = {"tready": "input"}
    params = ["PORT_COUNT", "DATA_WIDTH", "KEEP_WIDTH", "DEST_WIDTH", "WORD_BEATS",
              "CELL_BYTES", "BUFFER_CELLS", "CELL_W", "LEN_W", "PFC_FCS_ENABLE", "WATCHDOG_ENABLE",
              "PREVENT_ENABLE", "GROUP_W", "PREVENT_FAULT_INJECT", "MMU_FAULT_INJECT",
              "FREE_LIST_FAULT_INJECT", "PORT_COUNTERS"]
    defaults = {"PORT_COUNT": str(n), "DATA_WIDTH": "64", "KEEP_WIDTH": "DATA_WIDTH / 8",
                "DEST_WIDTH": "8", "WORD_BEATS": "2 * PORT_COUNT", "CELL_BYTES": "256",
                "BUFFER_CELLS": "256", "CELL_W": "16", "LEN_W": "14", "PFC_FCS_ENABLE": "0",
                "WATCHDOG_ENABLE": "0", "PREVENT_ENABLE": "0", "GROUP_W": "2",
                "PREVENT_FAULT_INJECT": "0", "MMU_FAULT_INJECT": "0", "FREE_LIST_FAULT_INJECT": "0",
                "PORT_COUNTERS": "1"}
    lines = ["`resetall", "`timescale 1ns / 1ps", "`default_nettype none", "",
             "module switch_core_tb #("]
    lines.append(",\n".join(f"    parameter {p} = {defaults[p]}" for p in params))
    lines.append(") (")
    decl = []
    for p in range(n):
        for sig, w in stream.items():
            rng = f"[{w}-1:0] " if w else ""
            decl.append(f"    {s_dir.get(sig, 'input')} wire {rng}s{p}_axis_{sig}")
            if sig != "tdest":
                decl.append(f"    {m_dir.get(sig, 'output')} wire {rng}m{p}_axis_{sig}")
    for d, w, name in _core_ports():
        if name.startswith(("s_axis_", "m_axis_")):
            continue
        decl.append(f"    {d} wire {w} {name}")
    lines.append(",\n".join(decl))
    lines.append(");")
    conns = []
    for d, w, name in _core_ports():
        if name.startswith(("s_axis_", "m_axis_")):
            pre, sig = name[0], name.split("_", 2)[2]
            parts = ", ".join(f"{pre}{p}_axis_{sig}" for p in reversed(range(n)))
            conns.append(f"    .{name}({{{parts}}})")
        else:
            conns.append(f"    .{name}({name})")
    lines.append("switch_core #(" + ", ".join(f".{p}({p})" for p in params) + ") core (")
    lines.append(",\n".join(conns))
    lines.append(");")
    # what the bench's admission predictor (tb/common/mmu_bus.py) and cell shadow map
    # follow, in one vector (one read per clock from Python instead of seven): {pfc_xoff
    # changed, mmu_core configuration write, free-list push, pop, mmu_core response, release,
    # request}; and the clock number since reset (clock k: the k-th edge sampling the admission
    # core's reset, core.rst_mmu, low)
    # the switch's status as the benches read it through the hierarchy (the same values its
    # registers answer over AXI4-Lite)
    lines.append("// testbench probes: switch_core's status wires under their own names")
    lines += [f"wire {w} {name} = core.{name};" for w, name in _core_status()]
    lines += ["// testbench probe: read by tb/switch_core/sc_tb.py every clock",
              "wire [6:0] tb_events = {|core.mmu_inst.pfc_change, "
              "core.mmu_inst.cfg_wr_valid, "
              "core.buffer_inst.free_list_inst.push, "
              "core.buffer_inst.free_list_inst.pop && core.buffer_inst.free_list_inst.pop_valid, "
              "core.mmu_inst.m_resp_valid, "
              "core.mmu_inst.s_rel_valid, "
              "core.mmu_inst.s_req_valid};",
              "reg [31:0] tb_clock;",
              "always @(posedge clk) tb_clock <= core.rst_mmu ? 32'd0 : tb_clock + 32'd1;"]
    lines += ["endmodule", "", "`resetall", ""]
    out.parent.mkdir(parents=True, exist_ok=True)
    # every test of a run writes the same file: write a copy and rename it, so that a build
    # reading the file while another worker writes it never sees it half written
    tmp = out.with_name(f"{out.name}.{os.getpid()}.tmp")
    tmp.write_text("\n".join(lines))
    os.replace(tmp, out)
    return out


if __name__ == "__main__":
    import sys

    print(generate(int(sys.argv[1]), Path(sys.argv[2])).read_text())
