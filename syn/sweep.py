"""make synth-sweep: synthesize the admission core and the switch core for several
configurations (out of context, ECP5-85F) and print a table of LUTs, FFs, block RAMs and Fmax.

The table is also written to docs/synth_sweep.md with the date and tool versions.  Runs one
configuration after another (each takes from seconds to many minutes); pass --quick for the
small ones only, or --only NAME to pick entries.
"""

from __future__ import annotations

import argparse
import datetime
import os
import signal
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import flow  # noqa: E402

ROOT = flow.ROOT

# (name, top, params, target MHz[, extra flow.py arguments])
# the 32-port configurations map LUTs with ABC's classic mapper: abc9's XAiger index recurses
# past the WebAssembly stack of YoWASP's Yosys on the 32-port admission core
BIG = ["--lut-map", "abc"]
CONFIGS = [
    # the admission core alone: the line-rate core (one arrival and one release every clock,
    # state in RAM)
    ("mmu_core p2", "mmu_core", {"PORT_COUNT": 2}, 156.25),
    ("mmu_core p4", "mmu_core", {"PORT_COUNT": 4}, 156.25),
    ("mmu_core p8", "mmu_core", {"PORT_COUNT": 8}, 156.25),
    ("mmu_core p32", "mmu_core", {"PORT_COUNT": 32}, 156.25),
    # the switch core (admission by mmu_core): DATA_WIDTH 8 (1 GbE byte clock) and DATA_WIDTH
    # 64 (10 GbE)
    ("switch_core p2 dw8", "switch_core", {"PORT_COUNT": 2, "DATA_WIDTH": 8}, 125),
    ("switch_core p4 dw8", "switch_core", {"PORT_COUNT": 4, "DATA_WIDTH": 8}, 125),
    ("switch_core p8 dw8", "switch_core", {"PORT_COUNT": 8, "DATA_WIDTH": 8}, 125),
    ("switch_core p32 dw8", "switch_core", {"PORT_COUNT": 32, "DATA_WIDTH": 8}, 125, BIG),
    ("switch_core p2 dw64", "switch_core", {"PORT_COUNT": 2, "DATA_WIDTH": 64}, 156.25),
    ("switch_core p4 dw64", "switch_core", {"PORT_COUNT": 4, "DATA_WIDTH": 64}, 156.25),
    ("switch_core p8 dw64", "switch_core", {"PORT_COUNT": 8, "DATA_WIDTH": 64}, 156.25),
]
QUICK = {"mmu_core p2", "mmu_core p4", "switch_core p2 dw8", "switch_core p4 dw8"}


def run_one(name, top, params, mhz, extra, timeout_min, table_only):
    """Synthesize one configuration (or read its report): a table row."""
    import json
    out = f"sim_build/syn/sweep/{name.replace(' ', '_')}"
    cmd = [sys.executable, "syn/flow.py", "--top", top, "--ooc", "--freq", str(mhz),
           "--out", out] + [a for k, v in params.items() for a in ("-P", f"{k}={v}")] + extra
    # a run that ended without a report (timeout, tool failure), for --table-only
    stamp = ROOT / out / "outcome.json"
    if table_only:
        if not (ROOT / out / "report.json").exists():
            if stamp.exists():
                t = json.loads(stamp.read_text())
                return (name, "failed", "", "", "", mhz, t["why"], f"{t['date']} {t['commit']}")
            return (name, "failed", "", "", "", mhz, "not run", "")
    else:
        print(f"sweep: {name} ...", flush=True)
        # own process group: on a timeout the tools flow.py started go too, not only flow.py
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        try:
            so, se = proc.communicate(timeout=timeout_min * 60)
            r = subprocess.CompletedProcess(cmd, proc.returncode, so, se)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            made = flow.provenance(1)
            (ROOT / out / "report.json").unlink(missing_ok=True)
            why = f"not finished in {timeout_min:g} min"
            stamp.write_text(json.dumps({"why": why, **made}))
            return (name, "failed", "", "", "", mhz, why, f"{made['date']} {made['commit']}")
        stamp.unlink(missing_ok=True)
        if r.returncode != 0:
            print(r.stdout[-1000:], r.stderr[-1000:])
            made = flow.provenance(1)
            lines = (r.stderr or r.stdout).strip().splitlines()
            why = f"failed: {lines[-1][:160] if lines else 'no output'}"
            (ROOT / out / "report.json").unlink(missing_ok=True)
            stamp.write_text(json.dumps({"why": why, **made}))
            return (name, "failed", "", "", "", mhz, why, f"{made['date']} {made['commit']}")
    rep = json.loads((ROOT / out / "report.json").read_text())
    print(flow.format_report(rep), flush=True)
    made = rep.get("made", {})
    made = f"{made.get('date', '?')} {made.get('commit', '?')}"
    if rep.get("fits") is False:
        return (name, "ok", rep["luts"], rep["ffs"], rep["brams"], mhz, "-",
                f"does not fit the LFE5U-{rep['device'].upper()} ({', '.join(rep['over'])}): "
                f"Yosys's counts, not placed", made)
    fmax = min((v.get("achieved", 0) for v in rep["fmax"].values()), default=0)
    crit = ""
    if rep["critical_paths"] and not rep["timing_met"]:
        cp = rep["critical_paths"][0]
        crit = f"{cp['start']} -> {cp['end']}"
    return (name, "ok", rep["luts"], rep["ffs"], rep["brams"], mhz, f"{fmax:.1f}",
            "met" if rep["timing_met"] else f"missed: {crit}", made)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", action="append")
    ap.add_argument("--no-doc", action="store_true", help="do not rewrite docs/synth_sweep.md")
    ap.add_argument("--timeout", type=float, default=120,
                    help="minutes per configuration before it is reported as not finished")
    ap.add_argument("--jobs", "-j", type=int, default=1,
                    help="configurations synthesized at once (each tool runs on one core)")
    ap.add_argument("--table-only", action="store_true",
                    help="run nothing: build the table from the reports already in sim_build")
    args = ap.parse_args(argv)
    todo = [(c[0], c[1], c[2], c[3], c[4] if len(c) > 4 else [])
            for c in CONFIGS
            if not (args.quick and c[0] not in QUICK) and not (args.only and c[0] not in args.only)]
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda c: run_one(*c, args.timeout, args.table_only), todo))
    versions = (f"{flow.tool_version('yosys', '-V')}; "
                f"{flow.tool_version('nextpnr-ecp5', '--version')}")
    lines = [f"Synthesis sweep, table of {datetime.date.today().isoformat()} (each row: the date "
             f"and commit it was built from, in 'made'), ECP5 LFE5U-85F out of context "
             f"({versions})", "",
             "| configuration | LUTs | FFs | block RAMs | target MHz | Fmax MHz | timing | made |",
             "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        if row[1] == "failed":
            why = row[6].splitlines()[-1] if row[6] else ""
            label = "not run" if why == "not run" else (
                "not finished" if why.startswith("not finished") else "failed")
            lines.append(f"| {row[0]} | {label} | | | {row[5]} | | {why} | {row[7]} |")
        else:
            lines.append(f"| {row[0]} | {row[2]} | {row[3]} | {row[4]} | {row[5]} | {row[6]} | "
                         f"{row[7]} | {row[8]} |")
    table = "\n".join(lines) + "\n"
    print(table)
    if not args.no_doc and not args.only and not args.quick:
        write_doc_table(table)


BEGIN, END = "<!-- sweep table: written by make synth-sweep -->", "<!-- end of sweep table -->"


def write_doc_table(table: str) -> None:
    """Put the table into docs/synth_sweep.md between its markers (the notes around it are
    kept); a file without the markers gets the table at its top."""
    doc = ROOT / "docs" / "synth_sweep.md"
    text = doc.read_text() if doc.exists() else "# Synthesis sweep\n\n"
    block = f"{BEGIN}\n{table}{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        title, _, body = text.partition("\n\n")
        text = f"{title}\n\n{block}\n\n{body}"
    doc.write_text(text)


if __name__ == "__main__":
    main()
