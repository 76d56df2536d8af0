"""Static timing of a routed design from the SDF nextpnr writes (`make synth` writes
sim_build/syn/<board>/<top>.sdf): every register-to-register path, not only the worst one
per clock that nextpnr prints, so one place-and-route run shows all the paths to fix.

    .venv/bin/python syn/sta.py sim_build/syn/ulx3s/ulx3s_top.sdf [--period 8] [--top 30]
        [--group-depth 3] [--paths 10] [--match NAME]

Delays are the SDF's maximum values (cell arcs, routed interconnect, setup), single clock:
each register's clock-to-out starts a path at 0, each setup check ends one at --period.
nextpnr also counts clock skew, so its worst figure differs from this one by a few tens of
picoseconds.  Prints the number of failing endpoints and their total negative slack,
failing endpoints grouped by the hierarchy of their register (worst first), and the worst
paths cell by cell, each from one group at most once (so that one wide bus does not fill
the list).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict

TOKEN = re.compile(r'\(|\)|"[^"]*"|[^\s()]+')


def unescape(name: str) -> str:
    return re.sub(r"\\(.)", r"\1", name)


def parse(path: str):
    """Cells: inst -> (type, arcs {(in, out): ps}, setup {pin: ps}, clocked outputs
    {out: ps}); interconnect: list of (src inst, src pin, dst inst, dst pin, ps)."""
    text = open(path).read()
    toks = TOKEN.findall(text)
    pos = 0
    # a small recursive-descent reader of S-expressions into nested lists
    sys.setrecursionlimit(100000)

    def read():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t == "(":
            lst = []
            while toks[pos] != ")":
                lst.append(read())
            pos += 1
            return lst
        return t

    root = read()

    def val(triple: str) -> int:
        # (min:typ:max) -> max in ps; "()" or "" -> 0
        parts = triple.split(":")
        try:
            return int(float(parts[-1]))
        except ValueError:
            return 0

    def first_delay(node) -> int:
        for x in node:
            if isinstance(x, list):
                return val(" ".join(x)) if x else 0
        return 0

    cells = {}
    inter = []
    for cell in root:
        if not (isinstance(cell, list) and cell and cell[0] == "CELL"):
            continue
        ctype = inst = None
        arcs, setup, clocked = {}, {}, {}
        for item in cell[1:]:
            if not isinstance(item, list) or not item:
                continue
            if item[0] == "CELLTYPE":
                ctype = item[1].strip('"')
            elif item[0] == "INSTANCE":
                inst = unescape(item[1]) if len(item) > 1 else ""
            elif item[0] == "DELAY":
                for absn in item[1:]:
                    for d in absn[1:]:
                        if d[0] == "IOPATH":
                            src, dst = d[1], d[2]
                            if isinstance(src, list):   # (posedge CLK)
                                src = src[-1]
                            ps = first_delay(d[3:])
                            if src in ("CLK", "CLKA", "CLKB", "CLKW", "CLKR", "WCK"):
                                clocked[dst] = max(clocked.get(dst, 0), ps)
                            else:
                                arcs[(src, dst)] = max(arcs.get((src, dst), 0), ps)
                        elif d[0] == "INTERCONNECT":
                            s_inst, s_pin = d[1].rsplit("/", 1)
                            t_inst, t_pin = d[2].rsplit("/", 1)
                            inter.append((unescape(s_inst), s_pin, unescape(t_inst), t_pin,
                                          first_delay(d[3:])))
            elif item[0] == "TIMINGCHECK":
                for chk in item[1:]:
                    if chk[0] in ("SETUPHOLD", "SETUP"):
                        pin = chk[1][-1] if isinstance(chk[1], list) else chk[1]
                        ps = first_delay(chk[3:])
                        setup[pin] = max(setup.get(pin, 0), ps)
        if inst is not None and ctype != "top":
            cells[inst] = (ctype, arcs, setup, clocked)
    return cells, inter


def hier(inst: str, depth: int) -> str:
    # nextpnr names a packed cell after a net: "core_inst.switch_inst.rs_head_reg_TRELLIS..."
    parts = inst.split(".")
    mods = parts[:-1][:depth]
    leaf = parts[len(mods)] if len(parts) > len(mods) else ""
    if len(mods) < depth:
        # the register: the net name up to the first mapped-cell suffix
        leaf = re.split(r"_TRELLIS|_LUT4|_CCU2C|_PFUMX|_L6MUX|_DP16KD|\$", leaf)[0]
        leaf = re.sub(r"\[\d+\]", "", leaf)
        return ".".join(mods + [leaf])
    return ".".join(mods)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sdf")
    ap.add_argument("--period", type=float, default=8.0, help="clock period in ns")
    ap.add_argument("--top", type=int, default=30, help="groups to list")
    ap.add_argument("--group-depth", type=int, default=3,
                    help="hierarchy levels of a group (then the register name)")
    ap.add_argument("--paths", type=int, default=10, help="worst paths to print in full")
    ap.add_argument("--match", help="only endpoints whose cell name contains this")
    a = ap.parse_args(argv)

    cells, inter = parse(a.sdf)
    fanin = defaultdict(list)        # (inst, pin) -> [(src inst, src pin, ps)]
    for s_i, s_p, t_i, t_p, ps in inter:
        # the packer's constant drivers never switch: no path starts there
        if s_i.startswith(("$PACKER_VCC", "$PACKER_GND")):
            continue
        fanin[(t_i, t_p)].append((s_i, s_p, ps))
    arc_in = defaultdict(list)       # (inst, out pin) -> [(in pin, ps)]
    for inst, (_t, arcs, _s, _c) in cells.items():
        for (i, o), ps in arcs.items():
            arc_in[(inst, o)].append((i, ps))

    memo: dict = {}

    def arrival(node):
        """Latest arrival (ps) at a pin, and the pin it came from."""
        if node in memo:
            return memo[node]
        memo[node] = (0, None)       # combinational loop guard
        inst, pin = node
        best = (0, None)
        if node in fanin:            # an input pin: through its nets
            for s_i, s_p, ps in fanin[node]:
                at = arrival((s_i, s_p))[0] + ps
                if at > best[0]:
                    best = (at, (s_i, s_p))
        else:                        # an output pin: clocked, or through the cell's arcs
            cell = cells.get(inst)
            if cell is not None:
                if pin in cell[3]:
                    best = (cell[3][pin], None)
                for i, ps in arc_in.get(node, ()):
                    at = arrival((inst, i))[0] + ps
                    if at > best[0]:
                        best = (at, (inst, i))
        memo[node] = best
        return best

    period = int(a.period * 1000)
    ends = []
    for inst, (ctype, _arcs, setup, _clk) in cells.items():
        if a.match and a.match not in inst:
            continue
        for pin, su in setup.items():
            if (inst, pin) not in fanin:
                continue
            at, _ = arrival((inst, pin))
            ends.append((period - su - at, inst, pin, at))
    ends.sort()
    failing = [e for e in ends if e[0] < 0]
    tns = sum(e[0] for e in failing) / 1000
    wns = ends[0][0] / 1000 if ends else 0.0
    print(f"sta: {len(ends)} endpoints at {a.period} ns ({1000 / a.period:.2f} MHz): "
          f"{len(failing)} failing, worst slack {wns:.3f} ns "
          f"(Fmax {1e3 / (a.period - wns):.1f} MHz), total negative slack {tns:.1f} ns")

    def trace(inst, pin):
        steps = []
        node = (inst, pin)
        while node is not None:
            at, prev = memo.get(node, (0, None))
            steps.append((node, at))
            node = prev
        return steps[::-1]

    def start_of(inst, pin):
        return trace(inst, pin)[0][0][0]

    groups = defaultdict(lambda: [0, 0, None])
    for slack, inst, pin, at in failing:
        g = f"{hier(start_of(inst, pin), a.group_depth)}  ->  {hier(inst, a.group_depth)}"
        e = groups[g]
        e[0] += 1
        if slack < e[1] or e[2] is None:
            e[1] = slack
            e[2] = (inst, pin)
    print(f"\nfailing endpoints by start -> end group (count, worst slack ns), "
          f"{len(groups)} groups:")
    for g, (n, w, _e) in sorted(groups.items(), key=lambda kv: kv[1][1])[:a.top]:
        print(f"  {w / 1000:7.3f} {n:6d}  {g}")

    shown = 0
    for g, (n, w, (inst, pin)) in sorted(groups.items(), key=lambda kv: kv[1][1]):
        if shown >= a.paths:
            break
        shown += 1
        print(f"\npath {shown}: slack {w / 1000:.3f} ns  {g}")
        prev_at = 0
        for (i, p), at in trace(inst, pin):
            print(f"   {at / 1000:6.3f} (+{(at - prev_at) / 1000:5.3f})  {i}/{p}")
            prev_at = at


if __name__ == "__main__":
    main()
