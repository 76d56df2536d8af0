"""The switch benches' cell shadow map (tb/switch_core/cell_shadow.py) catches each fault it
is for: a double allocation, a double free, a free of a cell never allocated, a cell beyond
the buffer or with X bits, a leak; and passes a clean history.  Plain pytest, no simulator."""

import pytest

from switch_core.cell_shadow import CellShadow


def test_clean_history_passes():
    m = CellShadow(4)
    for c in (0, 1, 2):
        m.allocate(c)
    m.free(1)
    m.allocate(1)
    m.free(0)
    m.free(1)
    m.check_drained(spares={2})


@pytest.mark.parametrize("fault,history", [
    ("allocated twice", [("a", 1), ("a", 1)]),
    ("freed twice", [("a", 1), ("f", 1), ("f", 1)]),
    ("freed twice (or never allocated)", [("f", 3)]),
    ("beyond the buffer", [("a", 4)]),
    ("unknown (X) bits", [("a", None)]),
])
def test_fault_fails(fault, history):
    m = CellShadow(4)
    for op, c in history:
        (m.allocate if op == "a" else m.free)(c)
    with pytest.raises(AssertionError, match=fault.split(" (")[0]):
        m.check_drained(spares=set())


def test_leak_fails():
    m = CellShadow(4)
    m.allocate(0)
    m.allocate(3)
    with pytest.raises(AssertionError, match="leaked: \\[3\\]"):
        m.check_drained(spares={0})
