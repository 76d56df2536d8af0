"""Property tests (hypothesis) and the Dynamic Threshold steady state (seed 001 table)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.config import PG_COUNT, POOL_LOSSLESS, POOL_LOSSY, QUEUE_COUNT
from models.mmu import Mmu

from .helpers import small_cfg

# ----------------------------------------------------------------- invariants


def check_invariants(m: Mmu) -> None:
    """Raise AssertionError when the accounting is inconsistent."""
    n = m.ports * PG_COUNT
    for name in ("res", "shared", "hdrm", "q_res", "q_shared"):
        assert min(getattr(m, name)) >= 0, name
    assert min(m.pool_used) >= 0 and m.hdrm_pool_used >= 0 and min(m.egress_used) >= 0
    assert m.total_used == sum(m.res) + sum(m.shared) + sum(m.hdrm)
    assert m.total_used == sum(m.q_res) + sum(m.q_shared)
    for pool in (POOL_LOSSLESS, POOL_LOSSY):
        assert m.pool_used[pool] == sum(
            m.shared[i] for i in range(n) if (POOL_LOSSLESS if m.pg_lossless[i] else POOL_LOSSY)
            == pool)
        assert m.egress_used[pool] == sum(
            m.q_shared[j] for j in range(m.ports * QUEUE_COUNT) if m.q_pool[j] == pool)
        assert m.pool_used[pool] <= m.pool_shared_size[pool]
        assert m.egress_used[pool] <= m.egress_shared_size[pool]
    assert m.hdrm_pool_used == sum(m.hdrm)
    assert m.total_used <= m.buffer_cells
    for i in range(n):
        assert m.res[i] <= m.pg_reserved[i]
        assert m.hdrm[i] <= m.pg_hdrm_limit[i]
        if not m.pg_lossless[i]:
            assert m.hdrm[i] == 0 and not m.xoff[i]
    if m.hdrm_pool_size:
        assert m.hdrm_pool_used <= m.hdrm_pool_size


def test_invariant_checker_can_fail():
    m = Mmu(small_cfg())
    m.arrive(0, 3, 1, 3, 256 * 6)
    check_invariants(m)
    m.pool_used[0] += 1  # a broken model
    with pytest.raises(AssertionError):
        check_invariants(m)


cfg_st = st.fixed_dictionaries({
    "reserved": st.integers(0, 6),
    "dynamic": st.booleans(),
    "alpha_shift": st.integers(-7, 3),
    "static_th": st.integers(1, 40),
    "headroom": st.integers(0, 12),
    "xon_offset": st.integers(0, 12),
    "hdrm_pool": st.sampled_from([0, 0, 10]),
    "lossy_reserved": st.integers(0, 3),
})
op_st = st.lists(st.tuples(
    st.sampled_from(["arrive", "arrive", "release"]),
    st.integers(0, 1),  # port
    st.sampled_from([0, 3, 3, 5]),  # PG (3 lossless)
    st.integers(0, 1),  # egress port
    st.integers(1, 5 * 256 + 3),  # length
    st.integers(0, 10_000),  # which held frame to release
), min_size=1, max_size=150)


def build(c: dict) -> Mmu:
    pg = {"reserved": c["reserved"], "dynamic": c["dynamic"], "alpha_shift": c["alpha_shift"],
          "static_th": c["static_th"], "headroom": c["headroom"], "xon": 0,
          "xon_offset": c["xon_offset"]}
    cfg = small_cfg(lossless_pool=120, lossy_pool=60, buffer_cells=200,
                    egress_lossless_pool=120, egress_lossy_pool=60,
                    shared_headroom_pool=c["hdrm_pool"], pg=pg,
                    lossy_pg={"reserved": c["lossy_reserved"], "alpha_shift": c["alpha_shift"]})
    return Mmu(cfg)


@given(cfg_st, op_st)
def test_random_sequences_keep_invariants_and_return_to_zero(c, ops):
    m = build(c)
    held: list[tuple] = []
    for kind, port, pg, eport, length, pick in ops:
        n_events = len(m.events)
        if kind == "arrive" or not held:
            i = port * PG_COUNT + pg
            d = m.arrive(port, pg, eport, pg, length)
            if d.admit:
                held.append((port, pg, eport, pg, d.cells))
        else:
            rel = held.pop(pick % len(held))
            assert m.release(*rel)
            i = rel[0] * PG_COUNT + rel[1]
        check_invariants(m)
        # PFC of the PG just touched
        t = m.pg_threshold(i)
        if m.pg_lossless[i] and (m.hdrm[i] > 0 or 0 < m.shared[i] >= t):
            assert m.xoff[i]
        for e in m.events[n_events:]:
            j = e.port * PG_COUNT + e.pg
            assert j == i
            if not e.xoff:  # XON never while shared is above the XON point (or not empty)
                assert m.hdrm[j] == 0
                assert m.shared[j] == 0 or m.shared[j] <= m.xon_point(j) < t
    for rel in held:
        assert m.release(*rel)
    check_invariants(m)
    assert m.total_used == 0 and sum(m.q_res) + sum(m.q_shared) == 0
    assert m.pool_used == [0, 0] and m.egress_used == [0, 0] and m.hdrm_pool_used == 0
    assert m.release_underflow == 0
    # PFC alternates XOFF / XON per PG
    for i in range(m.ports * PG_COUNT):
        seq = [e.xoff for e in m.events if e.port * PG_COUNT + e.pg == i]
        assert all(a != b for a, b in zip(seq, seq[1:]))
        if seq:
            assert seq[0]


# ----------------------------------------------------------------- DT steady state
SEED001_TABLE = {  # alpha -> percent of the free shared buffer one congested queue settles at
    -7: 0.77, -6: 1.53, -5: 3.03, -4: 5.88, -3: 11.11, -2: 20.00, -1: 33.33,
    0: 50.00, 1: 66.66, 2: 80.00, 3: 88.88}


def dt_steady_state(alpha_shift: int, queues: int, shared: int = 20000) -> list[int]:
    """``queues`` lossy PGs (reserved 0, one pool of ``shared`` cells) each offered one-cell
    frames round robin until every one is refused: the shared cells each ends up holding."""
    from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig
    ports = []
    for _ in range(queues):
        pgs = [PgConfig(lossless=False, alpha_shift=alpha_shift)] + [PgConfig()] * 7
        qs = [QueueConfig(lossless=False, dynamic=False, static_th=shared)] + [QueueConfig()] * 7
        ports.append(PortConfig(pgs=[PgConfig(**vars(p)) for p in pgs],
                                queues=[QueueConfig(**vars(q)) for q in qs]))
    cfg = MmuConfig(ports=ports, cell_bytes=64, buffer_cells=shared, ingress_lossless_pool=0,
                    ingress_lossy_pool=shared, egress_lossless_pool=0, egress_lossy_pool=shared)
    m = Mmu(cfg)
    active = set(range(queues))
    while active:
        for p in list(active):
            if not m.arrive(p, 0, p, 0, 64).admit:
                active.discard(p)
    return [m.shared[p * PG_COUNT] for p in range(queues)]


def dt_fraction_ok(measured: float, alpha_shift: int, queues: int, tol: float = 0.002) -> bool:
    """Does a measured share of the shared pool match alpha / (1 + N alpha)?"""
    alpha = Fraction(2) ** alpha_shift
    expect = alpha / (1 + queues * alpha)
    return abs(measured - float(expect)) <= tol


@pytest.mark.parametrize("alpha_shift", sorted(SEED001_TABLE))
def test_dt_single_queue_matches_seed001_table(alpha_shift):
    shared = 20000
    (s,) = dt_steady_state(alpha_shift, 1, shared)
    pct = 100 * s / shared
    assert abs(pct - SEED001_TABLE[alpha_shift]) <= 0.02, pct
    assert dt_fraction_ok(s / shared, alpha_shift, 1)


@pytest.mark.parametrize("alpha_shift,queues", [(-3, 2), (-1, 4), (0, 2), (1, 8), (3, 4),
                                                (-5, 8)])
def test_dt_n_queues_settle_at_alpha_over_1_plus_n_alpha(alpha_shift, queues):
    shared = 20000
    ss = dt_steady_state(alpha_shift, queues, shared)
    assert max(ss) - min(ss) <= 1  # equally congested queues share equally
    for s in ss:
        assert dt_fraction_ok(s / shared, alpha_shift, queues)


def test_dt_check_rejects_wrong_alpha():
    shared = 20000
    (s,) = dt_steady_state(-1, 1, shared)
    assert dt_fraction_ok(s / shared, -1, 1)
    assert not dt_fraction_ok(s / shared, 0, 1)  # a model using alpha 1 instead of 1/2
    assert not dt_fraction_ok(s / shared, -2, 1)
    ss = dt_steady_state(0, 4, shared)
    assert not dt_fraction_ok(ss[0] / shared, 0, 1)  # wrong N
