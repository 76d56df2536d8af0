"""Rough static timing of a Yosys ECP5 netlist (the JSON `make synth` writes), to find every
long register-to-register path in one pass (nextpnr names only the worst one per clock).

    .venv/bin/python syn/depth.py sim_build/syn/ulx3s/ulx3s_top.json [--ns 6.5] [--top N]

Delay model (ns, placed-and-routed ECP5 -6 rough averages): LUT4 1.1 (cell + net), carry in
0.9 then 0.06 per CCU2C, PFUMX / L6MUX21 0.35, FF / BRAM clock-to-out 0.5 / 3.0, MULT18X18D
4.0.  An estimate to rank paths, not a sign-off: nextpnr's report is the figure.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("netlist")
    ap.add_argument("--ns", type=float, default=6.5, help="report endpoints above this")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--path", help="print the named nets of the worst path into endpoints whose "
                    "source contains this string")
    ap.add_argument("--regs", help="list endpoint registers (by Q net name, bits merged) whose "
                    "source contains this string, worst first")
    a = ap.parse_args(argv)
    nl = json.load(open(a.netlist))
    mods = nl["modules"]
    top = next(n for n, m in mods.items() if m.get("attributes", {}).get("top"))
    cells = mods[top]["cells"]
    names = {}
    for nm, nd in mods[top]["netnames"].items():
        for b in nd["bits"]:
            if isinstance(b, int) and (b not in names or ("$" in names[b] and "$" not in nm)):
                names[b] = nm
    driver = {}          # net -> (cell, port)
    for cn, c in cells.items():
        for p, bits in c["connections"].items():
            if c["port_directions"].get(p) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = (cn, p)
    seq = {"TRELLIS_FF", "DP16KD", "TRELLIS_IO", "EHXPLLL", "DCCA", "TRELLIS_DPR16X4"}
    memo: dict = {}
    sys.setrecursionlimit(1000000)

    def src(cn):
        s = cells[cn].get("attributes", {}).get("src", "")
        return s.split("|")[0]

    def arrival_net(b):
        if not isinstance(b, int) or b not in driver:
            return 0.0, None
        cn, p = driver[b]
        key = (cn, p)
        if key in memo:
            return memo[key]
        memo[key] = (0.0, None)  # loop guard
        c = cells[cn]
        t = c["type"]
        if t in seq:
            r = (3.0 if t == "DP16KD" else 0.5, None)
            memo[key] = r
            return r
        ins = [(pp, bb) for pp, bits in c["connections"].items()
               if c["port_directions"].get(pp) == "input" for bb in bits]
        if t == "CCU2C":
            best = (0.0, None)
            for pp, bb in ins:
                at, _ = arrival_net(bb)
                d = 0.06 if pp == "CIN" else 0.9 + 0.3
                if pp == "CIN" and p in ("S0", "S1"):
                    d = 0.25
                if at + d > best[0]:
                    best = (at + d, bb)
        else:
            d = {"LUT4": 1.1, "PFUMX": 0.35, "L6MUX21": 0.35, "MULT18X18D": 4.0}.get(t, 1.1)
            best = (0.0, None)
            for pp, bb in ins:
                at, _ = arrival_net(bb)
                if at + d > best[0]:
                    best = (at + d, bb)
        memo[key] = best
        return best

    ends = []
    for cn, c in cells.items():
        if c["type"] not in ("TRELLIS_FF", "DP16KD"):
            continue
        worst = (0.0, None)
        for pp, bits in c["connections"].items():
            if c["port_directions"].get(pp) != "input" or pp in ("CLK", "CLKA", "CLKB"):
                continue
            for bb in bits:
                at, _ = arrival_net(bb)
                if at > worst[0]:
                    worst = (at, bb)
        if worst[0] >= a.ns:
            ends.append((worst[0], cn, worst[1]))
    ends.sort(reverse=True)
    if a.regs:
        regs = {}
        for at, cn, bb in ends:
            if a.regs not in src(cn):
                continue
            q = cells[cn]["connections"].get("Q") or cells[cn]["connections"].get("DOA0") or []
            nm = names.get(q[0], cn) if q and isinstance(q[0], int) else cn
            nm = nm.split("[")[0]
            b = bb
            start = None
            while b is not None and isinstance(b, int) and b in driver:
                start = driver[b][0]
                b = memo.get(driver[b], (0, None))[1]
            sn = start
            sq = cells[start]["connections"].get("Q") if start else None
            if sq and isinstance(sq[0], int):
                sn = names.get(sq[0], start)
            if nm not in regs or at > regs[nm][0]:
                regs[nm] = (at, sn, regs.get(nm, (0, 0, 0, 0))[2] + 1, bb)
            else:
                regs[nm] = (regs[nm][0], regs[nm][1], regs[nm][2] + 1, regs[nm][3])
        for nm, (at, sn, n, bb) in sorted(regs.items(), key=lambda kv: -kv[1][0])[:a.top]:
            print(f"{at:6.1f} ns {n:5d}  {sn}  ->  {nm}")
            if a.path and a.path in nm:
                b = bb
                while b is not None and isinstance(b, int) and b in driver:
                    cn, p = driver[b]
                    print(f"        {memo.get((cn, p), (0,))[0]:5.1f}  {cells[cn]['type']:10s} "
                          f"{names.get(b, '')[:110]}  [{src(cn).split('/')[-1]}]")
                    b = memo.get((cn, p), (0, None))[1]
        return
    by_src = defaultdict(lambda: [0, 0.0, None])
    for at, cn, bb in ends:
        k = src(cn)
        e = by_src[k]
        e[0] += 1
        if at > e[1]:
            e[1] = at
            e[2] = bb
    print(f"{len(ends)} endpoints above {a.ns} ns; by endpoint source (count, worst ns):")
    for k, (n, w, bb) in sorted(by_src.items(), key=lambda kv: -kv[1][1])[:a.top]:
        b = bb
        start = None
        levels = 0
        while b is not None and isinstance(b, int) and b in driver:
            cn, p = driver[b]
            start = cn
            levels += 1
            b = memo.get((cn, p), (0, None))[1]
        s0 = src(start) if start else "?"
        print(f"{w:6.1f} ns {n:5d}  {s0}  ->  {k}  ({levels} cells)")
        if a.path and a.path in k:
            b = bb
            while b is not None and isinstance(b, int) and b in driver:
                cn, p = driver[b]
                nm = names.get(b, "")
                print(f"        {memo.get((cn, p), (0,))[0]:5.1f}  {cells[cn]['type']:10s} {nm}")
                b = memo.get((cn, p), (0, None))[1]


if __name__ == "__main__":
    main()
