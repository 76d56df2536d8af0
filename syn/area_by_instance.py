"""Where the logic of a synthesised ECP5 netlist sits, by instance: the flow's Yosys JSON
(sim_build/syn/<name>/<top>.json) grouped by the hierarchical prefix of each cell's name
(Yosys names a flattened cell after its output net, `inst.sub.net_LUT4_Z`), to a depth.

Counts per group: LUT4, CCU2C, TRELLIS_DPR16X4, TRELLIS_FF, and the estimate of nextpnr's
TRELLIS_COMB (docs/synth_sweep.md): LUT4 + 2 CCU2C + 4 DPR16X4 + 0.104 FF.  A net that Yosys
named after a signal of another instance (a port's wire) lands in that instance's group, so
figures are as good as a few per cent.

    python syn/area_by_instance.py sim_build/syn/colorlight_i5/colorlight_i5_top.json --depth 3
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

KINDS = ("LUT4", "CCU2C", "TRELLIS_DPR16X4", "TRELLIS_FF")


def comb(c: dict[str, int]) -> float:
    """The TRELLIS_COMB estimate of a group's counts."""
    return c["LUT4"] + 2 * c["CCU2C"] + 4 * c["TRELLIS_DPR16X4"] + 0.104 * c["TRELLIS_FF"]


def group_of(name: str, depth: int) -> str:
    parts = name.split(".")[:-1]          # the last part is the cell's own (net) name
    return ".".join(parts[:depth]) or "(top)"


def by_instance(netlist: dict, depth: int) -> dict[str, dict[str, int]]:
    mods = netlist["modules"]
    top = next(k for k, v in mods.items() if v.get("attributes", {}).get("top"))
    out: dict[str, dict[str, int]] = defaultdict(lambda: {k: 0 for k in KINDS})
    for name, cell in mods[top]["cells"].items():
        if cell["type"] in KINDS:
            out[group_of(name, depth)][cell["type"]] += 1
    return dict(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--top", type=int, default=40, help="groups shown, largest first")
    args = ap.parse_args()
    with open(args.json) as f:
        groups = by_instance(json.load(f), args.depth)
    total = {k: sum(g[k] for g in groups.values()) for k in KINDS}
    print(f"{'instance':60s} {'LUT4':>7s} {'CCU2C':>6s} {'DPR':>5s} {'FF':>7s} {'COMB est':>9s}")
    for name, c in sorted(groups.items(), key=lambda kv: -comb(kv[1]))[:args.top]:
        print(f"{name[:60]:60s} {c['LUT4']:7d} {c['CCU2C']:6d} {c['TRELLIS_DPR16X4']:5d} "
              f"{c['TRELLIS_FF']:7d} {comb(c):9.0f}")
    print(f"{'total':60s} {total['LUT4']:7d} {total['CCU2C']:6d} "
          f"{total['TRELLIS_DPR16X4']:5d} {total['TRELLIS_FF']:7d} {comb(total):9.0f}")


if __name__ == "__main__":
    main()
