"""pytest entry of the system regression: ONE build of switch_tb_top (switch_core) per
simulator and one simulator run over every pyuvm test, in order (the coverage closure test
aggregates the earlier ones).  TESTS=<ClassName,...> (env SYSTEM_TESTS) runs a subset;
SEED=n replays; SOAK=1 makes the soak-style tests ten times longer (nightly)."""

import os
import re
from pathlib import Path

import harness

HERE = Path(__file__).resolve().parent
ALL = ["WarmupTest", "RandomTest", "IncastTest", "IncastUndersizedTest", "MixedLossyTest",
       "EgressPauseTest", "SoakTest", "CoverageClosureTest"]


def _summaries(log: Path) -> list[str]:
    if not log.exists():
        return []
    return [ln.split("SUMMARY", 1)[1].strip() for ln in log.read_text().splitlines()
            if "SUMMARY" in ln]


def sources() -> list[Path]:
    """rtl/rtl.f, then the tb-only wrapper that names each port's streams."""
    return harness.rtl_sources() + [HERE / "switch_tb_top.v"]


def test_system_regression():
    sel = os.environ.get("SYSTEM_TESTS")
    tests = [t for t in re.split(r"[,\s]+", sel) if t] if sel else ALL
    sim = harness.sim_name()
    build = harness.SIM_BUILD / sim / "system"
    build.mkdir(parents=True, exist_ok=True)
    try:
        harness.run("switch_tb_top", "system.system_cases", test_id="system",
                    sources=sources(),
                    testcase=tests, extra_env={"COV_DIR": str(build)})
    finally:
        for s in _summaries(build / "sim.log"):
            print("SUMMARY", s)
