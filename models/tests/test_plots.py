"""What the scenario plots rely on: symmetric ports grouped, the run's parameters in the title,
and the DT steady state of models.mmu against alpha / (1 + N alpha)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from models import scenario


def _rows(series: dict[int, list[int]]) -> list[dict]:
    n = len(next(iter(series.values())))
    rows = []
    for t in range(n):
        row = {"t_ns": t}
        for k, v in series.items():
            for c in ("res", "hdrm", "T"):
                row[f"p{k}pg3_{c}"] = 0
            row[f"p{k}pg3_shared"] = v[t]
        rows.append(row)
    return rows


def test_port_groups_merge_symmetric_senders():
    s = _rows({0: [0, 50, 100], 1: [0, 51, 100], 2: [0, 50, 100], 3: [0, 0, 0]})
    assert scenario.port_groups(s, 4, 3) == [([0, 1, 2], 1), ([3], 0)]
    assert scenario._ports_label([0, 1, 2], 1) == "ports 0..2 (within 1 cell)"
    assert scenario._ports_label([0, 2], 0) == "ports 0,2 (identical)"


def test_title_states_the_parameters():
    ap = scenario.Parser()
    scenario.add_arguments(ap)
    a = ap.parse_args(["incast", "--ports", "3", "--headroom-fraction", "0.5", "--us", "8"])
    a.drain = Fraction(1)
    t = scenario.title("incast", a)
    for word in ("3 senders", "100 Gb/s", "300 m", "64 B frames", "alpha 2^-1",
                 "0.5 x eta", "xon_offset", "8 us"):
        assert word in t, word


@pytest.mark.parametrize("n", [1, 2, 4])
def test_dt_steady_state_matches_theory(n):
    """Each of N congested PGs settles at alpha / (1 + N alpha) of the shared pool, to within
    the one-cell granularity of the admission rule (a PG is admitted while shared < T)."""
    rows = scenario.dt_steady_state([n], list(range(-3, 4)), pool=2048)
    for r in rows:
        gap = abs(r["measured_cells_per_pg"] - r["theory_fraction"] * r["pool_cells"])
        assert gap <= 2, r
        assert r["max_cells"] - r["min_cells"] <= 1, r
