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
