"""pytest glue: simulator selection, versions in the header, tb/ importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import harness  # noqa: E402


def pytest_report_header(config):
    harness.setup_env()
    v = harness.simulator_versions()
    return [f"pfcmmu SIM={harness.sim_name()}",
            f"icarus: {v['icarus']}", f"verilator: {v['verilator']}"]


# Rough Icarus wall times (s) of the longest items, from the CI run of 2026-11-25 (two
# workers): the scheduler starts the longest first, so no long item starts last and leaves
# one worker running alone (with xdist --maxschedchunk 1, see the Makefile).  Only the order
# depends on them; an item not listed keeps its collection order after these.
LONG_ITEMS = {
    "test_switch_core.py::test_mmu_pipeline": 440,
    "test_system[MixedLossyTest]": 330, "test_system[SoakTest]": 306,
    "test_system[EgressPauseTest]": 302, "test_system[RandomTest]": 287,
    "test_system[WarmupTest]": 260,
    "test_switch_core.py::test_watchdog_storm[64]": 205,
    "test_switch_core.py::test_watchdog_storm[8]": 186,
    "test_fpga_core.py::test_fpga_core_selftest[4-256-672]": 183,
    "test_system[IncastUndersizedTest]": 165,
    "test_mmu_core.py::test_mmu_core[p4_c256_pipe]": 164,
    "test_system[IncastTest]": 143,
    "test_loop.py::test_loop_recovers_with_watchdog": 131,
}


def pytest_collection_modifyitems(session, config, items):
    """Longest items first (LONG_ITEMS), everything else in collection order, the system
    suite's coverage closure check last (it waits for the system tests)."""

    def key(it):
        if it.originalname == "test_coverage_closure":
            return (2, 0)
        for k, t in LONG_ITEMS.items():
            if it.nodeid.endswith(k):
                return (0, -t)
        return (1, 0)

    items.sort(key=key)  # stable: everything else keeps its collection order
