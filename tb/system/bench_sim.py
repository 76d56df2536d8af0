"""Simulator benchmark (not part of the regression): one fixed scenario (IncastTest, fixed
seed) on Icarus and on Verilator, through the same switch_tb_top build the system regression
uses (tb/system/test_system.py run_system); prints simulated frames (into + out of the
switch) per second of wall time (the test's own time in results.xml: the simulator's start-up
and the pyuvm build are outside it, and printed separately) and the Verilator / Icarus ratio.

    .venv/bin/python tb/system/bench_sim.py [--test IncastTest] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1]))

from system.test_system import run_system  # noqa: E402


def run_one(sim: str, test: str, seed: int) -> dict:
    os.environ["SEED"] = str(seed)
    t0 = time.monotonic()
    # the same traffic on both (the regression runs Icarus at TB_SCALE 0.1)
    build = run_system(test, sim, test_id=f"bench-{test}", extra_env={"TB_SCALE": "1"})
    wall_total = time.monotonic() - t0
    tc = ET.parse(build / "results.xml").getroot().find(".//testcase")
    real = float(tc.get("time"))
    props = {p.get("name"): p.get("value") for p in tc.iter("property")}
    sim_ns = float(props.get("sim_time_duration", 0) or 0)
    log = (build / "sim.log").read_text()
    m = re.search(r"frames in (\d+) \(bad \d+\), out (\d+)", log)
    frames = int(m.group(1)) + int(m.group(2))
    clocks = int(re.search(r"SUMMARY \S+ \(SEED=\S+\): (\d+) clocks", log).group(1))
    return {"sim": sim, "frames": frames, "clocks": clocks, "sim_ns": sim_ns,
            "test_wall_s": real, "total_wall_s": wall_total,
            "frames_per_s": frames / real, "clocks_per_s": clocks / real}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", default="IncastTest")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    res = {s: run_one(s, a.test, a.seed) for s in ("icarus", "verilator")}
    print(f"bench {a.test} SEED={a.seed}")
    for r in res.values():
        print(f"  {r['sim']:9s}: {r['frames']} frames, {r['clocks']} clocks in "
              f"{r['test_wall_s']:.2f} s wall (test), {r['total_wall_s']:.1f} s with start-up "
              f"-> {r['frames_per_s']:.1f} frames/s, {r['clocks_per_s']:.0f} clocks/s")
    ratio = res["verilator"]["frames_per_s"] / res["icarus"]["frames_per_s"]
    print(f"  verilator / icarus: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
