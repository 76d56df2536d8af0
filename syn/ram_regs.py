"""Pin each ECP5 block RAM's output register next to its block RAM (a placement constraint).

Why: nextpnr times every DP16KD read at 5.83 ns from the clock to DO (speed grade 6; it uses
the NOREG arc even for REGMODE OUTREG, so the RAM's own output register would not show in the
report), which leaves about 2 ns at 125 MHz for the route to the register that takes the word.
The register next to the RAM is 0.9 to 1.1 ns away; the placer, pulled by the logic after that
register, put many of them 3 to 5 ns away (ULX3S builds: 100 to 115 failing endpoints, up to
-2.8 ns, different ones each build).  Every RAM in rtl/ is written so that its read data goes
into one register and nothing else (rtl/sw_ram.v), so that register can sit at the RAM.

How: every DP16KD gets a site and each register that is the only load of one of its DO pins
a flip-flop in the logic tiles right above or below it (`BEL` attributes in the Yosys netlist);
nextpnr places the rest of the design around them.  The sites come from a compact floorplan
(flow.py --ram-floorplan compact, the default): the block RAM sites nearest a centre between
the two closest block RAM rows (ECP5-85F: rows 70 and 82; the device's sites come from a probe
placement, device_sites), the memories with fewer block RAMs in the middle, each memory's block
RAMs in order along the rows.  The shared packet buffer's 128 block RAMs then take two
neighbouring rows and a part of a third instead of the whole die, and the logic that writes
and reads them gathers around them.  (--ram-floorplan placer takes the sites from a first
placement instead: the RAMs stay spread over the die, and the ULX3S build came out slower.)

    python syn/ram_regs.py <yosys.json> <placed.json> <pinned.json>   (sites of a placement)
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict

# flip-flop sites of a logic tile, in the order they are handed out: both flip-flops of a
# slice first (pinned registers share one control set: clock only), then the next slice
FF_SLOTS = [f"SLICE{s}.FF{f}" for s in "ABCD" for f in (0, 1)]


def _top(netlist: dict) -> dict:
    mods = netlist["modules"]
    for name, m in mods.items():
        if m.get("attributes", {}).get("top") not in (None, 0, "0", "00000000000000000000000000000000"):
            return m
    return next(iter(mods.values()))


def ram_output_regs(module: dict) -> dict[str, list[str]]:
    """DP16KD cell -> the TRELLIS_FF cells each of which is the only load of one of its DO
    pins (in DO order)."""
    cells = module["cells"]
    loads: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for name, c in cells.items():
        dirs = c.get("port_directions", {})
        for port, bits in c["connections"].items():
            if dirs.get(port) == "output":
                continue
            for b in bits:
                if isinstance(b, int):
                    loads[b].append((name, port))
    # nets read by the top's output ports are loads too
    for port in module.get("ports", {}).values():
        if port.get("direction") == "output":
            for b in port["bits"]:
                if isinstance(b, int):
                    loads[b].append(("<port>", ""))
    out: dict[str, list[str]] = {}
    for name, c in cells.items():
        if c["type"] != "DP16KD":
            continue
        regs = []
        for port in sorted((p for p in c["connections"] if re.fullmatch(r"DO[AB]\d+", p)),
                           key=lambda p: (p[2], int(p[3:]))):
            for b in c["connections"][port]:
                if not isinstance(b, int):
                    continue
                ld = loads.get(b, [])
                if len(ld) == 1 and ld[0][0] != "<port>" \
                        and cells[ld[0][0]]["type"] == "TRELLIS_FF" and ld[0][1] == "DI":
                    regs.append(ld[0][0])
        out[name] = regs
    return out


def placed_rams(placed: dict) -> dict[str, str]:
    """DP16KD cell -> its site (NEXTPNR_BEL) in a placed netlist nextpnr wrote."""
    m = _top(placed)
    return {n: c["attributes"]["NEXTPNR_BEL"] for n, c in m["cells"].items()
            if c["type"] == "DP16KD" and "NEXTPNR_BEL" in c.get("attributes", {})}


def device_sites(device: str, package: str, workdir, run) -> list[str]:
    """Every DP16KD site of an ECP5 device, from a probe: a netlist of as many block RAMs as
    the device has (Yosys), placed by nextpnr, read back.  `run(cmd, log)` runs a tool from
    the repository root; `workdir` is a folder relative to it.  Cached in workdir."""
    from pathlib import Path
    workdir = Path(workdir)
    cache = workdir / f"ebr_sites_{device}.json"
    if cache.exists():
        return json.loads(cache.read_text())
    count = {"12k": 12, "25k": 56, "45k": 108, "85k": 208}[device]
    workdir.mkdir(parents=True, exist_ok=True)
    v = workdir / "ebr_probe.v"
    lines = [f"module ebr_probe(input wire clk, input wire [13:0] a, output wire [{count - 1}:0] q);"]
    for i in range(count):
        lines.append(f"DP16KD #(.DATA_WIDTH_B(1)) r{i} (.CLKB(clk), .CEB(1'b1), .OCEB(1'b1), "
                     + ", ".join(f".ADB{k}(a[{k}])" for k in range(14)) + f", .DOB0(q[{i}]));")
    lines.append("endmodule")
    v.write_text("\n".join(lines) + "\n")
    net = workdir / "ebr_probe.json"
    placed = workdir / "ebr_probe_placed.json"
    run(["yosys", "-q", "-p", f"read_verilog -lib +/ecp5/cells_bb.v; read_verilog {v}; "
         f"synth_ecp5 -top ebr_probe -json {net}"], workdir / "ebr_probe_yosys.log")
    run(["nextpnr-ecp5", f"--{device}", "--package", package, "--json", str(net),
         "--out-of-context", "--no-route", "--write", str(placed)],
        workdir / "ebr_probe_nextpnr.log")
    sites = sorted(placed_rams(json.loads(placed.read_text())).values())
    cache.write_text(json.dumps(sites))
    return sites


def _ram_key(name: str):
    """(memory, position in it): sw_ram's banked slices in slice order with their banks
    next to each other (their outputs meet in one bank select), other memories by the
    index Yosys gave the block RAM."""
    m = re.match(r"(.*?)\.banked\.bank\[(\d+)\]\.slice\[(\d+)\]", name)
    if m:
        return m.group(1), (int(m.group(3)), int(m.group(2)))
    m = re.match(r"(.*?)\.(?:single\.)?mem[.\[]", name)
    base = m.group(1) if m else name
    return base, tuple(int(x) for x in re.findall(r"\d+", name[len(base):]))


def auto_center(sites: list[str]) -> tuple[float, float]:
    """The centre of a compact floorplan: between the two block RAM rows closest to each
    other (ECP5-85F: rows 70 and 82 of 22, 46, 70, 82), in the middle of the rows' span, so
    that a memory of more than one row's block RAMs takes two neighbouring rows first."""
    xs, rows = [], set()
    for site in sites:
        mt = re.fullmatch(r"X(\d+)/Y(\d+)/EBR\d", site)
        xs.append(int(mt.group(1)))
        rows.add(int(mt.group(2)))
    rows_s = sorted(rows)
    if len(rows_s) == 1:
        cy = float(rows_s[0])
    else:
        gap, a, b = min((b - a, a, b) for a, b in zip(rows_s, rows_s[1:]))
        cy = (a + b) / 2
    return (min(xs) + max(xs)) / 2, cy


def compact_sites(netlist: dict, sites: list[str], center: tuple[float, float],
                  y_weight: float = 2.0) -> dict[str, str]:
    """A compact floorplan of the block RAMs: the sites nearest `center` (rows count
    `y_weight` times a column), handed out memory by memory, the memories with fewer block
    RAMs first (they take the middle), each memory's block RAMs in order along the rows."""
    cx, cy = center

    def xy(site):
        mt = re.fullmatch(r"X(\d+)/Y(\d+)/EBR\d", site)
        return int(mt.group(1)), int(mt.group(2))

    m = _top(netlist)
    rams = [n for n, c in m["cells"].items() if c["type"] == "DP16KD"]
    groups: dict[str, list] = defaultdict(list)
    for n in rams:
        base, pos = _ram_key(n)
        groups[base].append((pos, n))
    order = sorted(sites, key=lambda s: (abs(xy(s)[0] - cx) + y_weight * abs(xy(s)[1] - cy),
                                         xy(s)))
    chosen = order[:len(rams)]
    out: dict[str, str] = {}
    # the smallest memories get the sites nearest the centre; a large memory then takes the
    # rest in row order (left to right, row by row), so its neighbours in slice order are
    # neighbours on the die
    free = list(chosen)
    for base in sorted(groups, key=lambda b: (len(groups[b]), b)):
        mem = sorted(groups[base])
        take = free[:len(mem)]
        free = free[len(mem):]
        take.sort(key=lambda s: (xy(s)[1], xy(s)[0]))
        for (_pos, n), site in zip(mem, take):
            out[n] = site
    return out


def pin(netlist: dict, sites: dict[str, str]) -> tuple[int, int]:
    """Add BEL attributes: every DP16KD with a site in `sites` stays there, its output
    registers go to the flip-flops next to it.  Returns (RAMs, registers) pinned."""
    m = _top(netlist)
    regs = ram_output_regs(m)
    taken: set[str] = set()
    n_ram = n_reg = 0
    for ram in sorted(regs):
        site = sites.get(ram)
        if site is None:
            continue
        mt = re.fullmatch(r"X(\d+)/Y(\d+)/EBR\d", site)
        if not mt:
            continue
        x, y = int(mt.group(1)), int(mt.group(2))
        m["cells"][ram]["attributes"]["BEL"] = site
        n_ram += 1
        # the two logic columns of the RAM, the rows right below and above it
        tiles = [(x, y + 1), (x, y - 1), (x + 1, y + 1), (x + 1, y - 1)]
        free = (f"X{tx}/Y{ty}/{slot}" for tx, ty in tiles for slot in FF_SLOTS)
        for reg in regs[ram]:
            for bel in free:
                if bel not in taken:
                    taken.add(bel)
                    m["cells"][reg]["attributes"]["BEL"] = bel
                    n_reg += 1
                    break
    return n_ram, n_reg


def pin_files(src, placed_path, dst) -> tuple[int, int]:
    """pin() from files: Yosys netlist, nextpnr's placed netlist, pinned netlist out."""
    with open(src) as f:
        netlist = json.load(f)
    with open(placed_path) as f:
        sites = placed_rams(json.load(f))
    n_ram, n_reg = pin(netlist, sites)
    with open(dst, "w") as f:
        json.dump(netlist, f)
    return n_ram, n_reg


def main(argv=None):
    argv = argv if argv is not None else sys.argv[1:]
    if len(argv) != 3:
        raise SystemExit(__doc__.strip().splitlines()[-1].strip())
    n_ram, n_reg = pin_files(*argv)
    print(f"ram_regs: {n_ram} block RAMs kept at their sites, {n_reg} output registers "
          f"pinned next to them")


if __name__ == "__main__":
    main()
