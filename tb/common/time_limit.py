"""A simulated-time limit on every cocotb test of the regression.

tb/harness.py runs each simulation with this module's :func:`install` as a PYGPI_USERS entry
point ahead of cocotb's regression: every test that has no ``timeout_time`` of its own gets
the limit of its name from :data:`LIMITS_US` (tb/time_limits.json), ``TB_TIME_LIMIT_US`` for
tests not listed, so a fault that stalls a handshake ends the test instead of hanging the job.
The failure names the test, its limit and where the limit comes from; the benches' own wait
loops carry bounds that name what they waited for (a limit is the last line of defence).

Limits are simulated time, ten times the longest run of the test measured on Verilator at
full length (``sim_time_duration`` in results.xml; ``cd tb && python -m common.time_limit
../sim_build/verilator`` prints the table from a finished regression), never under 1 ms, and
multiplied by TB_SCALE / SOAK when those make a run longer; the pyuvm system tests get 2 ms
more, so their own drain bound (EnvConfig.drain_timeout_clocks, 1.6 ms) fails first and says
what was still in the switch.  No wall-clock figure is involved.
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "time_limits.json"
DEFAULT_US = 200_000.0  # a test not in the table: 200 ms of simulated time
FLOOR_US = 1_000.0
FACTOR = 10


def _table() -> dict[str, float]:
    try:
        return {k: float(v) for k, v in json.loads(TABLE.read_text()).items()}
    except (OSError, ValueError):
        return {}


def stretch() -> float:
    """How much longer than the measured run this run may be (TB_SCALE > 1, SOAK)."""
    s = max(1.0, float(os.environ.get("TB_SCALE", "1") or 1))
    if os.environ.get("SOAK", "0") not in ("", "0"):
        s *= 10
    return s


def limit_us(name: str) -> float:
    base = _table().get(name, float(os.environ.get("TB_TIME_LIMIT_US", DEFAULT_US)))
    return base * stretch()


def install() -> None:
    """PYGPI_USERS entry: default timeouts for the tests cocotb discovers, and a timeout
    message that names the test and its limit."""
    from cocotb import _test_manager, regression
    from cocotb.triggers import SimTimeoutError

    discover = regression.RegressionManager.discover_tests

    def discover_with_limits(self, *modules):
        discover(self, *modules)
        for t in self._test_queue:
            if t.timeout is None:
                t.timeout = (limit_us(t.name), "us")

    regression.RegressionManager.discover_tests = discover_with_limits

    def on_timeout(self):
        self._timeout_cb = None
        t, unit = self._timeout
        name = self._main_task.get_name().removeprefix("Test ")
        self._abort(SimTimeoutError(
            f"{name}: still running after {t:g} {unit} of simulated time, its limit "
            "(tb/common/time_limit.py: ten times its measured length); a handshake or a wait "
            "that never completes"))

    _test_manager.TestManager._on_timeout = on_timeout


def measure(build_root: Path) -> dict[str, float]:
    """Limits from the results.xml files under ``build_root`` (a finished regression)."""
    import xml.etree.ElementTree as ET

    out: dict[str, float] = {}
    for res in Path(build_root).glob("*/results.xml"):
        for tc in ET.parse(res).getroot().iter("testcase"):
            props = {p.get("name"): p.get("value") for p in tc.iter("property")}
            ns = float(props.get("sim_time_duration") or 0)
            name = tc.get("name")
            lim = int(max(FLOOR_US, math.ceil(FACTOR * ns / 1000 / 100) * 100))
            out[name] = max(out.get(name, 0), lim)
    return dict(sorted(out.items()))


if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1])), indent=1))
