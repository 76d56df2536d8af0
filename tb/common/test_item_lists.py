"""tb/conftest.py's item lists (LONG_ITEMS: the scheduling order; ICARUS_CI_VERILATOR_ONLY /
VERILATOR_CI_ICARUS_ONLY: what make test's Icarus / Verilator leg leaves to the other) name
collected items: every key ends the node
id of a test that pytest collects from tb/, and a key that names none is reported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import conftest

TB = Path(__file__).resolve().parents[1]


def _nodeids() -> list[str]:
    out = subprocess.run([sys.executable, "-m", "pytest", str(TB), "--collect-only", "-q",
                          "-p", "no:xdist"], capture_output=True, text=True, cwd=TB.parent)
    ids = [ln.strip() for ln in out.stdout.splitlines() if "::" in ln]
    assert ids, f"collected nothing:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}"
    return ids


def test_every_listed_item_is_collected():
    ids = _nodeids()
    assert conftest.unmatched(conftest.LONG_ITEMS, ids) == []
    lists = (conftest.ICARUS_CI_VERILATOR_ONLY, conftest.VERILATOR_CI_ICARUS_ONLY,
             conftest.MAKE_TEST_LEAVES_OUT)
    every = {k: v for t in lists for k, v in t.items()}
    assert conftest.unmatched(every, ids) == []
    # every key of the three lists names exactly one item (a key matching several would skip
    # more than its reason says), and no item is in two of them (left by both legs through
    # the first two lists, or counted twice)
    for k in every:
        assert sum(n.endswith(k) for n in ids) == 1, k
    named = [n for t in lists for k in t for n in ids if n.endswith(k)]
    assert len(named) == len(set(named))


def test_a_key_that_names_no_item_is_reported():
    ids = ["tb/loop/test_loop.py::test_loop_recovers_with_watchdog"]
    assert conftest.unmatched({"test_loop_recovers_with_watchdog": 1,
                               "test_loop_renamed": 2}, ids) == ["test_loop_renamed"]
