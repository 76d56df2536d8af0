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
    assert conftest.list_problems(lists, ids) == []


def test_list_problems_are_reported():
    """The check above catches each fault: an item in two lists, a key naming two items, a
    key naming none."""
    ids = ["tb/a/test_a.py::test_x[8]", "tb/a/test_a.py::test_x[64]", "tb/b/test_b.py::test_y"]
    assert conftest.list_problems(({"test_x[8]": 1}, {"test_y": 2}), ids) == []
    assert conftest.list_problems(({"test_x[8]": 1}, {"test_x[8]": 2}), ids) == [
        "in lists 0 and 1: tb/a/test_a.py::test_x[8]"]
    assert conftest.list_problems(({"test_y": 1}, {"]": 2}), ids) == [
        "names 2 items: ]"]
    assert conftest.list_problems(({"test_z": 1},), ids) == ["names no item: test_z"]


def test_a_key_that_names_no_item_is_reported():
    ids = ["tb/loop/test_loop.py::test_loop_recovers_with_watchdog"]
    assert conftest.unmatched({"test_loop_recovers_with_watchdog": 1,
                               "test_loop_renamed": 2}, ids) == ["test_loop_renamed"]
