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


def pytest_collection_modifyitems(session, config, items):
    """The system suite's traffic tests first, longest first (the long pole of a parallel
    run starts at once), its coverage closure check last (it waits for them)."""
    from system.test_system import CLOSURE, TRAFFIC

    def key(it):
        if it.nodeid.startswith("system/test_system.py") or "tb/system/test_system.py" in \
                it.nodeid:
            if it.originalname == "test_system":
                name = it.callspec.params["name"]
                return (0, TRAFFIC.index(name))
            if it.originalname == "test_coverage_closure":
                return (2, 0)
        return (1, 0)

    items.sort(key=key)  # stable: everything else keeps its collection order
