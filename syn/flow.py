"""Open FPGA flow: Yosys -> nextpnr -> ecppack / icepack, with a resource and Fmax report.

Used by `make synth BOARD=...` (through syn/<board>/Makefile) and `make synth-sweep`.
Runs the YoWASP tools from .venv; they see a private /tmp, so every path handed to them is
relative to the repository root, which is the working directory of every call.

    python syn/flow.py --top mmu_core --family ecp5 --device 85k --package CABGA381 \
        --freq 125 --out sim_build/syn/mmu_core --ooc [-P PORT_COUNT=4] [--lpf ...] [--src ...]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import ram_regs  # noqa: E402

VENV_BIN = ROOT / ".venv" / "bin"


def rel(p: Path | str) -> str:
    return os.path.relpath(Path(p).resolve(), ROOT)


def rtl_files() -> list[str]:
    out = []
    for line in (ROOT / "rtl" / "rtl.f").read_text().splitlines():
        line = line.split("//")[0].split("#")[0].strip()
        if line:
            out.append(line)
    return out


def tool(name: str) -> str:
    exe = VENV_BIN / f"yowasp-{name}"
    return str(exe) if exe.exists() else f"yowasp-{name}"


def tool_version(name: str, arg: str = "--version") -> str:
    try:
        r = subprocess.run([tool(name), arg], capture_output=True, text=True, cwd=ROOT,
                           timeout=300)
        txt = (r.stdout + r.stderr).strip().splitlines()
        txt = [t for t in txt if t and not t.startswith("Preparing")]
        return txt[0] if txt else "unknown"
    except Exception as e:  # pragma: no cover
        return f"unknown ({e})"


HEARTBEAT_S = 60.0  # a long phase (nextpnr: minutes) says it is still running this often


def _mmss(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    return f"{m} min {s:02d} s" if m else f"{s} s"


def run(cmd: list[str], log: Path, heartbeat: float = HEARTBEAT_S) -> float:
    """Run one tool of the flow with its output in ``log``; print the phase when it starts,
    every ``heartbeat`` seconds while it runs, and its elapsed time when it ends, so a
    seven-minute build is never silent."""
    phase = f"{Path(log).parent.name}/{Path(log).stem}"
    name = Path(cmd[0]).name
    print(f"flow: {phase}: {name} started (log {rel(log)})", flush=True)
    t0 = time.time()
    with open(log, "w") as f:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
        while True:
            try:
                rc = proc.wait(timeout=heartbeat)
                break
            except subprocess.TimeoutExpired:
                print(f"flow: {phase}: {name} running, {_mmss(time.time() - t0)}", flush=True)
            except BaseException:  # Ctrl-C or a timeout of the caller: leave no tool behind
                proc.kill()
                proc.wait()
                raise
    dt = time.time() - t0
    if rc != 0:
        sys.stderr.write(Path(log).read_text()[-4000:])
        raise SystemExit(f"flow: {cmd[0]} failed after {_mmss(dt)} (log {rel(log)})")
    print(f"flow: {phase}: {name} done in {_mmss(dt)}", flush=True)
    return dt


def synth_head(args, synth_cmd: str, run_to: str) -> list[str]:
    """Yosys commands from `begin` up to the label run_to ("" for the whole script).  With
    --merge-copies the (* keep *) of the flip-flops is removed after `proc`, so that
    opt_merge folds registers kept as copies for timing back into one (for a build whose
    device is full and whose clock is not the limit)."""
    end = f" -run coarse:{run_to}"
    if not args.merge_copies:
        return [f"{synth_cmd} -top {args.top}" + (f" -run begin:{run_to}" if run_to else "")]
    # each pattern names modules (Yosys's derived names carry the module's name:
    # "*mmu_core*" matches $paramod\mmu_core_view\...); "*" every module
    unset = [f"setattr -unset keep {pat}/t:$*dff*" for pat in args.merge_copies]
    return ([f"{synth_cmd} -top {args.top} -run begin:coarse", "proc"] + unset
            + [f"{synth_cmd} -top {args.top}{end}"])


def small_srst_cells(mid: dict, lsr_min: int) -> tuple[str, list[str], int]:
    """The flip-flops (fine-grained $_SDFF* cells before map_ffs) whose synchronous reset
    net drives fewer than lsr_min of them: (top module, cell names, groups)."""
    tops = [(n, m) for n, m in mid["modules"].items()
            if not m.get("attributes", {}).get("blackbox")]
    if len(tops) != 1:
        raise SystemExit(f"flow: --lsr-min expects one flattened module, found {len(tops)}")
    top, m = tops[0]
    groups: dict[str, list[str]] = {}
    for name, c in m["cells"].items():
        if c["type"].startswith("$_SDFF"):
            groups.setdefault(str(c["connections"]["R"][0]), []).append(name)
    small = [g for g in groups.values() if len(g) < lsr_min]
    return top, [n for g in small for n in g], len(small)


def lsr_split_synth(args, out: Path, srcs: list[str], params: list[str], json_net: str) -> float:
    """synth_ecp5 with the synchronous resets of small groups turned back into logic.

    An ECP5 logic tile (four slices, eight flip-flops) has one LSR (set / reset) signal for
    all its flip-flops (nextpnr's slices_compatible).  Yosys makes a synchronous set or reset
    of any condition that forces a register to a constant (opt_dff), so a design gets many
    LSR nets that each drive one to a few flip-flops, and every such net takes a tile's
    flip-flops to itself.  On a nearly full device nextpnr's strict legaliser then finds no
    tile for them and does not stop (the Colorlight i5 at 88 %: 99 such nets, 356
    flip-flops; `--placer heap --pnr-arg=--placer-heap-cell-placement-timeout ...` names
    one).  Here Yosys stops before map_ffs, the netlist's $_SDFF* cells are grouped by
    reset net, and `dffunmap -srst-only` turns the reset of every group smaller than
    --lsr-min into logic in front of D (LUT inputs) before synthesis goes on."""
    mid = out / f"{args.top}_premap.json"
    sel = out / "lsr_unmap.sel"
    synth_cmd = "synth_ecp5"
    a = out / "synth_a.ys"
    a.write_text("\n".join([f"read_verilog -sv {' '.join(srcs)}"] + params
                            + synth_head(args, synth_cmd, "map_ffs") + [
        f"select {args.top}",
        f"write_json -selected {rel(mid)}",
    ]) + "\n")
    t = run([tool("yosys"), "-q", "-s", rel(a)], out / "yosys_a.log")
    top, cells, n_groups = small_srst_cells(json.loads((ROOT / mid).read_text()), args.lsr_min)
    sel.write_text("".join(f"{top}/{c}\n" for c in cells))
    print(f"flow: {len(cells)} flip-flops in {n_groups} reset groups of fewer than "
          f"{args.lsr_min}: their synchronous reset becomes logic (--lsr-min)", flush=True)
    b = out / "synth_b.ys"
    if args.lut_map == "abc":
        tail = [f"{synth_cmd} -top {args.top} -run map_ffs:map_luts",
                "techmap -map +/lattice/latches_map.v", "abc -lut 4", "clean",
                f"{synth_cmd} -top {args.top} -run map_cells: -json {json_net}"]
    else:
        tail = [f"{synth_cmd} -top {args.top} -run map_ffs: -json {json_net}"]
    b.write_text("\n".join([
        f"read_json {rel(mid)}",
        f"{synth_cmd} -top {args.top} -run begin:coarse",
        f"select -read {rel(sel)}" if cells else "select -none",
        "dffunmap -srst-only",
        "select -clear",
    ] + tail + [f"tee -o {rel(out / 'yosys_stat.txt')} stat"]) + "\n")
    t += run([tool("yosys"), "-q", "-s", rel(b)], out / "yosys.log")
    (ROOT / mid).unlink()
    return t


def synth(args) -> dict:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    srcs = [rel(ROOT / s) for s in rtl_files()] + [rel(s) for s in (args.src or [])]
    # all parameters in one chparam: one at a time, each step elaborates the top with the
    # others still at their defaults, and a combination that is not legal on its own (e.g.
    # PORT_COUNT 32 with the default DATA_WIDTH 64 in switch_core) stops at its $error check
    sets = []
    for p in args.param or []:
        k, v = p.split("=", 1)
        sets.append(f"-set {k} {v}")
    params = [f"chparam {' '.join(sets)} {args.top}"] if sets else []
    json_net = rel(out / f"{args.top}.json")
    synth_cmd = "synth_ecp5" if args.family == "ecp5" else "synth_ice40"
    if args.lut_map == "abc" and args.family == "ecp5":
        # synth_ecp5's own steps with ABC's classic LUT mapper in place of abc9 (map_luts):
        # for designs whose abc9 XAiger index recurses deeper than the WebAssembly stack of
        # YoWASP's Yosys ("wasm trap: call stack exhausted", e.g. the 32-port admission core)
        synth = synth_head(args, synth_cmd, "map_luts") + [
                 "techmap -map +/lattice/latches_map.v",
                 "abc -lut 4",
                 "clean",
                 f"{synth_cmd} -top {args.top} -run map_cells: -json {json_net}"]
    else:
        # abc9: Yosys's default
        synth = synth_head(args, synth_cmd, "")
        synth[-1] += f" -json {json_net}"
    script = [f"read_verilog -sv {' '.join(srcs)}"] + params + synth + [
        f"tee -o {rel(out / 'yosys_stat.txt')} stat",
    ]
    ys = out / "synth.ys"
    t_syn = 0.0
    if args.lsr_min and args.family == "ecp5":
        # in two Yosys runs around map_ffs, with the small sync-reset groups unmapped between
        # them (lsr_split_scripts); the second script is part of the reuse check
        script += ["# lsr-min " + str(args.lsr_min)]
    if args.reuse_netlist and (ROOT / json_net).exists() and ys.exists() \
            and ys.read_text() == "\n".join(script) + "\n":
        print(f"flow: reusing {json_net} (same synthesis script)")
    elif args.lsr_min and args.family == "ecp5":
        ys.write_text("\n".join(script) + "\n")
        t_syn = lsr_split_synth(args, out, srcs, params, json_net)
    else:
        ys.write_text("\n".join(script) + "\n")
        t_syn = run([tool("yosys"), "-q", "-s", rel(ys)], out / "yosys.log")

    # a design larger than the device is reported from Yosys's counts (no place and route)
    stat = (out / "yosys_stat.txt").read_text()
    # nothing in rtl/ multiplies on purpose: a DSP multiplier in the netlist is index
    # arithmetic Yosys did not fold (a 14.5 ns path in the i5 build of 9bd2339)
    n_dsp = _stat_count(stat, r"(MULT18X18D)") + _stat_count(stat, r"(ALU54B)")
    if n_dsp:
        print(f"flow: warning: {n_dsp} DSP cells (MULT18X18D / ALU54B) in the netlist: a "
              f"multiply in the RTL (an index computed with '*'?)", flush=True)
    cap = DEVICE_CAPACITY.get((args.family, args.device))
    if cap is not None:
        need = {"luts": _stat_count(stat, r"(LUT4)") + 2 * _stat_count(stat, r"(CCU2C)")
                + _stat_count(stat, r"(SB_LUT4)"),
                "ffs": _stat_count(stat, r"(TRELLIS_FF)") + _stat_count(stat, r"(SB_DFF\w*)"),
                "brams": _stat_count(stat, r"(DP16KD)") + _stat_count(stat, r"(SB_RAM40_4K)")}
        over = [k for k in need if need[k] > cap[k]]
        if over:
            result = {
                "top": args.top, "family": args.family, "device": args.device,
                "package": args.package,
                "params": dict(p.split("=", 1) for p in (args.param or [])),
                "target_mhz": args.freq, "fmax": {}, "timing_met": None, "fits": False,
                "over": over, "capacity": cap, **need, "critical_paths": [],
                "bitstream": None, "seconds": {"synth": round(t_syn, 1), "pnr": 0.0},
                "made": provenance(args.seed),
            }
            (out / "report.json").write_text(json.dumps(result, indent=2))
            (out / "report.txt").write_text(format_report(result))
            print(format_report(result))
            return result

    report = rel(out / "nextpnr_report.json")
    t_pin = 0.0
    pinned = None
    if args.family == "ecp5":
        base = [tool("nextpnr-ecp5"), f"--{args.device}", "--package", args.package,
                "--freq", str(args.freq), "--seed", str(args.seed), "--threads", "1",
                "--timing-allow-fail"]
        base += ["--out-of-context"] if args.ooc else ["--lpf", rel(args.lpf)]
        base += ["--placer", args.placer]
        base += args.pnr_arg or []
        pnr_net = json_net
        if args.ram_floorplan != "none" and _stat_count(stat, r"(DP16KD)") > 0:
            # the block RAMs' output registers next to their RAMs (syn/ram_regs.py); the RAM
            # sites from a first placement, or a compact floorplan around a centre
            pnr_net = rel(out / f"{args.top}_pinned.json")
            netlist = json.loads((ROOT / json_net).read_text())
            t0 = time.time()
            if args.ram_floorplan == "placer":
                placed = rel(out / f"{args.top}_placed.json")
                run(base + ["--json", json_net, "--no-route", "--write", placed],
                    out / "nextpnr_place.log")
                sites = ram_regs.placed_rams(json.loads((ROOT / placed).read_text()))
                (ROOT / placed).unlink()
            else:
                all_sites = ram_regs.device_sites(
                    args.device, args.package, Path(rel(ROOT / "sim_build" / "syn")),
                    lambda cmd, log: run([tool(cmd[0])] + cmd[1:], ROOT / log))
                if args.ram_center == "auto":
                    cx, cy = ram_regs.auto_center(all_sites)
                else:
                    cx, cy = (float(v) for v in args.ram_center.split(","))
                sites = ram_regs.compact_sites(netlist, all_sites, (cx, cy))
            t_pin = time.time() - t0
            n_ram, n_reg = ram_regs.pin(netlist, sites)
            (ROOT / pnr_net).write_text(json.dumps(netlist))
            pinned = {"floorplan": args.ram_floorplan, "rams": n_ram, "registers": n_reg}
            print(f"flow: {n_ram} block RAMs placed ({args.ram_floorplan}), {n_reg} output "
                  f"registers pinned next to them")
        cmd = base + ["--json", pnr_net, "--report", report, "--sdf", rel(out / f"{args.top}.sdf")]
        if args.router:
            cmd += ["--router", args.router]
        if not args.ooc:
            cmd += ["--textcfg", rel(out / f"{args.top}.config")]
    else:
        cmd = [tool("nextpnr-ice40"), f"--{args.device}", "--package", args.package,
               "--json", json_net, "--freq", str(args.freq), "--report", report,
               "--seed", str(args.seed), "--timing-allow-fail"]
        if args.ooc:
            cmd += ["--pcf-allow-unconstrained"]
        else:
            cmd += ["--pcf", rel(args.pcf), "--asc", rel(out / f"{args.top}.asc")]
    t_pnr = run(cmd, out / "nextpnr.log")

    bitstream = None
    if not args.ooc:
        if args.family == "ecp5":
            bitstream = out / f"{args.top}.bit"
            run([tool("ecppack"), "--compress", rel(out / f"{args.top}.config"), rel(bitstream)],
                out / "pack.log")
        else:
            bitstream = out / f"{args.top}.bin"
            run([tool("icepack"), rel(out / f"{args.top}.asc"), rel(bitstream)], out / "pack.log")

    rep = json.loads((ROOT / report).read_text())
    util = {k: v for k, v in rep.get("utilization", {}).items() if v.get("used")}
    fmax = rep.get("fmax", {})
    crit = []
    for cp in rep.get("critical_paths", []):
        path = cp.get("path", [])
        if path:
            srcs = []
            for step in path:
                for src in step.get("sources", []):
                    if not src.startswith("/share") and src not in srcs:
                        srcs.append(src)
            crit.append({"from": cp.get("from"), "to": cp.get("to"),
                         "start": path[0].get("from", {}).get("cell"),
                         "end": path[-1].get("to", {}).get("cell"),
                         "delay_ns": round(sum(p.get("delay", 0) for p in path), 3),
                         "sources": srcs[:8]})
    # nextpnr's placed counts: LUT4 + carry halves (TRELLIS_COMB / ICESTORM_LC), FFs, BRAMs
    def used(*names):
        return sum(util.get(n, {}).get("used", 0) for n in names)
    luts = used("TRELLIS_COMB", "ICESTORM_LC")
    ffs = used("TRELLIS_FF") or _stat_count(stat, r"(SB_DFF\w*)")
    brams = used("DP16KD", "ICESTORM_RAM")
    met = all(v.get("achieved", 0) >= v.get("constraint", args.freq) - 1e-9 for v in fmax.values()) \
        if fmax else None
    result = {
        "top": args.top, "family": args.family, "device": args.device, "package": args.package,
        "params": dict(p.split("=", 1) for p in (args.param or [])),
        "target_mhz": args.freq, "fmax": fmax, "timing_met": met, "fits": True,
        "luts": luts, "ffs": ffs, "brams": brams, "utilization": util,
        "critical_paths": crit[:3], "bitstream": rel(bitstream) if bitstream else None,
        "ram_regs_pinned": pinned,
        "seconds": {"synth": round(t_syn, 1), "place_for_pins": round(t_pin, 1),
                    "pnr": round(t_pnr, 1)},
        "made": provenance(args.seed),
    }
    (out / "report.json").write_text(json.dumps(result, indent=2))
    (out / "report.txt").write_text(format_report(result))
    print(format_report(result))
    return result


# (LUT4 incl. carry halves, flip-flops, block RAMs) of the devices the boards use (Lattice
# ECP5 and iCE40 data sheets: LFE5U-25F/45F/85F, iCE40 HX8K / UP5K)
DEVICE_CAPACITY = {
    ("ecp5", "25k"): {"luts": 24288, "ffs": 24288, "brams": 56},
    ("ecp5", "45k"): {"luts": 43848, "ffs": 43848, "brams": 108},
    ("ecp5", "85k"): {"luts": 83640, "ffs": 83640, "brams": 208},
    ("ice40", "hx8k"): {"luts": 7680, "ffs": 7680, "brams": 32},
    ("ice40", "up5k"): {"luts": 5280, "ffs": 5280, "brams": 30},
}


def provenance(seed: int) -> dict:
    """When and from what a report was made: the date, the commit of the RTL (with -dirty for
    uncommitted changes) and nextpnr's seed, so tables built from reports name their source."""
    import datetime
    try:
        commit = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=7"],
                                cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {"date": datetime.date.today().isoformat(), "commit": commit, "seed": seed}


def _stat_count(stat: str, pattern: str) -> int:
    # the last "Number of cells" block is the top's (flattened) total
    total = 0
    block = stat.split("=== design hierarchy ===")[-1]
    for m in re.finditer(r"^\s+(\d+)\s+(?:[\d.]+\s+)?" + pattern + r"\s*$", block, re.M):
        total += int(m.group(1))
    if total == 0:
        for m in re.finditer(r"^\s+" + pattern + r"\s+(\d+)\s*$", block, re.M):
            total += int(m.group(2))
    return total


def format_report(r: dict) -> str:
    lines = [f"== {r['top']} on {r['family']} {r['device']} {r['package']} "
             f"params {r['params'] or 'default'}",
             f"   LUTs {r['luts']}   FFs {r['ffs']}   block RAMs {r['brams']}"]
    if r.get("fits") is False:
        cap = r["capacity"]
        lines.append(f"   does not fit the device ({', '.join(r['over'])}; it has {cap['luts']} "
                     f"LUTs, {cap['ffs']} FFs, {cap['brams']} block RAMs): Yosys's counts, "
                     f"no place and route")
    for clk, v in r["fmax"].items():
        ok = "MET" if v.get("achieved", 0) >= v.get("constraint", 0) else "MISSED"
        lines.append(f"   clock {clk}: Fmax {v.get('achieved', 0):.1f} MHz, target "
                     f"{v.get('constraint', 0):.1f} MHz: {ok}")
    if r["timing_met"] is False and r["critical_paths"]:
        cp = r["critical_paths"][0]
        lines.append(f"   critical path: {cp['start']} -> {cp['end']} ({cp['delay_ns']} ns)")
        for src in cp.get("sources", []):
            lines.append(f"      via {src}")
    if r["bitstream"]:
        lines.append(f"   bitstream: {r['bitstream']}")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", required=True)
    ap.add_argument("--family", choices=["ecp5", "ice40"], default="ecp5")
    ap.add_argument("--device", default="85k")
    ap.add_argument("--package", default="CABGA381")
    ap.add_argument("--freq", type=float, default=125.0)
    ap.add_argument("--lpf")
    ap.add_argument("--pcf")
    ap.add_argument("--src", action="append", help="extra source (board top, PLL wrapper)")
    ap.add_argument("-P", "--param", action="append", help="NAME=VALUE top parameter")
    ap.add_argument("--ooc", action="store_true", help="out of context (no pins, no bitstream)")
    ap.add_argument("--lut-map", choices=["abc9", "abc"], default="abc9",
                    help="ECP5 LUT mapping: abc9 (synth_ecp5's own) or ABC's classic mapper "
                         "(for designs too large for abc9 in YoWASP's WebAssembly stack)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pnr-arg", action="append",
                    help="extra nextpnr argument (repeat; e.g. --pnr-arg=--tmg-ripup)")
    ap.add_argument("--placer", choices=["static", "heap", "sa"], default="static",
                    help="ECP5 placer (default static: nextpnr's electrostatic placer; on the "
                         "ULX3S build it gave 124.5 MHz where HeAP gave 92 to 109)")
    ap.add_argument("--router", choices=["router1", "router2"],
                    help="nextpnr router (default: nextpnr's own, router1 on ECP5)")
    ap.add_argument("--ram-floorplan", choices=["none", "placer", "compact"], default="compact",
                    help="ECP5 block RAM sites, each RAM's output registers pinned next to it "
                         "(syn/ram_regs.py): 'placer' from a first placement, 'compact' the "
                         "sites nearest --ram-center; 'none' leaves all to the placer")
    ap.add_argument("--ram-center", default="auto",
                    help="X,Y tile of the compact floorplan's centre (auto: between the two "
                         "closest block RAM rows, see syn/ram_regs.py)")
    ap.add_argument("--merge-copies", action="append", metavar="MODULES",
                    help="remove (* keep *) from the flip-flops of the modules matching this "
                         "Yosys pattern (repeat; '*': all) before synthesis, so registers copied "
                         "for timing merge back (a full device, where the copies are not "
                         "needed)")
    ap.add_argument("--lsr-min", type=int, default=0,
                    help="ECP5: turn the synchronous set / reset of groups of fewer than N "
                         "flip-flops sharing one reset net into logic (an ECP5 tile has one "
                         "LSR net for its eight flip-flops; see lsr_split_synth); 0: off")
    ap.add_argument("--reuse-netlist", action="store_true",
                    help="skip Yosys when the netlist of the same script exists")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    t0 = time.time()
    synth(args)
    print(f"flow: {args.top}: finished in {_mmss(time.time() - t0)}", flush=True)


if __name__ == "__main__":
    main()
