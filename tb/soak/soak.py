"""make soak: the soak on Verilator until the switch has delivered 1,000,000 frames (tb/soak/soak_top.v, checks in
tb/soak/replay.py).  Prints the summary table and frames per second; exits 1 on any failed
check.

    python tb/soak/soak.py [--frames N] [--seed S] [--bad-rate R] [--pfc-ports MASK]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1]))

import harness  # noqa: E402
from soak.run import run_soak  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="make soak", description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=int(os.environ.get("SOAK_FRAMES", 1_000_000)),
                    help="test frames the switch delivers before the partners stop (default "
                         "1,000,000; about 1.65 times as many are offered)")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("SEED") or 1))
    ap.add_argument("--bad-rate", type=int, default=16,
                    help="priority-1 frames marked bad, in 256 (default 16)")
    ap.add_argument("--pfc-ports", type=lambda v: int(v, 0), default=3,
                    help="bit mask of the partners that send PFC to the switch (default 0x3)")
    ap.add_argument("--sim", default="verilator", choices=("verilator", "icarus"))
    ap.add_argument("--mmu-fault", action="store_true",
                    help="test only: the switch built with MMU_FAULT_INJECT (the soak must fail)")
    a = ap.parse_args(argv)
    test_id = f"soak-{a.frames}-seed{a.seed}" + ("-mmu-fault" if a.mmu_fault else "")
    try:
        s, rep, fails, text = run_soak(test_id, a.frames, seed=a.seed, mmu_fault=int(a.mmu_fault),
                                       bad_rate=a.bad_rate, pfc_ports=a.pfc_ports,
                                       chunk=100_000 if a.frames >= 100_000 else 5000,
                                       sim=a.sim)
    except AssertionError as e:
        # the simulation itself failed (a frame_check or cell-map check during the run, the
        # drain, the build): the harness names the log
        print(f"soak: FAILED in the simulation: {e}")
        return 1
    print(text)
    print(f"run folder: {harness.run_dir(test_id, a.sim)}")
    for f in fails:
        print("FAIL:", f)
    print("soak:", "FAILED" if fails else "passed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
