"""The line-rate core's model (models/mmu_pipe.py): equal to models.mmu.Mmu when events are
spaced, conservative and consistent when they are not, safe under reconfiguration."""

from __future__ import annotations

import random

import pytest

from models.config import (HEADROOM_DSH, PG_COUNT, POOL_LOSSLESS, POOL_LOSSY, QUEUE_COUNT,
                           ConfigError, example_config, selftest_config)
from models.mmu import REASON_BUFFER_FULL, SEG_HEADROOM, SEG_RESERVED, SEG_SHARED, Mmu
from models.mmu_pipe import CFG_FLAG, VIEW_LAG, PipelinedMmu

from .helpers import small_cfg


def check_accounting(m: PipelinedMmu, width: int = 16) -> None:
    """Counters consistent with each other, never negative, never wrapped."""
    for name in ("res", "shared", "hdrm", "q_res", "q_shared"):
        vals = getattr(m, name)
        assert min(vals) >= 0 and max(vals) < (1 << width), name
    assert m.total_used == sum(m.res) + sum(m.shared) + sum(m.hdrm)
    assert m.total_used == sum(m.q_res) + sum(m.q_shared)
    for pool in (POOL_LOSSLESS, POOL_LOSSY):
        want = POOL_LOSSLESS if pool == POOL_LOSSLESS else POOL_LOSSY
        assert m.pool_used[pool] == sum(
            s for s, c in zip(m.shared, m.pg_class) if (POOL_LOSSLESS if c else POOL_LOSSY)
            == want), f"ingress pool {pool}"
        assert m.egress_used[pool] == sum(
            s for s, c in zip(m.q_shared, m.q_class) if (POOL_LOSSLESS if c else POOL_LOSSY)
            == want), f"egress pool {pool}"
    assert m.hdrm_pool_used == sum(m.hdrm)
    for i in range(m.n_pg):
        if not m.pg_class[i]:
            assert m.hdrm[i] == 0 and not m.xoff[i], f"lossy PG {i} holds headroom or XOFF"


def check_limits(m: PipelinedMmu) -> None:
    """Hard limits of the configuration as it stands (tests without reconfiguration)."""
    g = m.glob
    assert m.total_used <= g["buffer_cells"]
    for i, c in enumerate(m.pg_cfg):
        assert m.res[i] <= c["reserved"], f"PG {i} reserved"
        assert m.hdrm[i] <= c["headroom"], f"PG {i} headroom"
    if g["hdrm_pool"]:
        assert m.hdrm_pool_used <= g["hdrm_pool"]
    assert m.pool_used[0] <= g["pool_shared_lossless"]
    assert m.pool_used[1] <= g["pool_shared_lossy"]
    assert m.egress_used[0] <= g["egress_shared_lossless"]
    assert m.egress_used[1] <= g["egress_shared_lossy"]


def test_accounting_checker_can_fail():
    m = PipelinedMmu(small_cfg())
    m.clock(arrival=(0, 3, 1, 3, 256 * 6))
    m.idle(m.view_lag - 1)
    check_accounting(m)
    check_limits(m)
    m.pool_used[0] += 1
    with pytest.raises(AssertionError):
        check_accounting(m)
    m.pool_used[0] -= 1
    m.res[3] = 99
    with pytest.raises(AssertionError):
        check_limits(m)


def _random_event(rng: random.Random, held: list, ports: int = 2):
    if held and rng.random() < 0.4:
        return "release", held.pop(rng.randrange(len(held)))
    port = rng.randrange(ports)
    pg = rng.choice([0, 3, 3, 5])
    return "arrive", (port, pg, rng.randrange(ports), pg, rng.randint(1, 5 * 256 + 3))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("t_lag", [3, 6])
def test_spaced_events_equal_the_sequential_model(seed, t_lag):
    """One event at a time, t_lag clocks apart: the pipeline's view and T are those of the
    sequential model, so every decision and counter is the same."""
    rng = random.Random(seed)
    cfg = small_cfg(pg={"dynamic": True, "alpha_shift": rng.randint(-2, 1), "headroom": 8},
                    shared_headroom_pool=rng.choice([0, 10]))
    ref = Mmu(cfg)
    m = PipelinedMmu(cfg, t_lag=t_lag, view_lag=min(t_lag, VIEW_LAG),
                     global_lag=min(t_lag, VIEW_LAG + 1))
    held: list = []
    for _ in range(400):
        kind, ev = _random_event(rng, held)
        if kind == "arrive":
            a = ref.arrive(*ev)
            b = m.clock(arrival=ev)
            assert (a.admit, a.reason, a.cells, a.res, a.shared, a.hdrm, a.segment) == \
                (b.admit, b.reason, b.cells, b.res, b.shared, b.hdrm, b.segment)
            if a.admit:
                held.append(ev[:4] + (a.cells,))
        else:
            assert ref.release(*ev)
            m.clock(release=ev)
        m.idle(t_lag)
        for name in ("res", "shared", "hdrm", "q_res", "q_shared", "pool_used", "egress_used",
                     "res_wm", "shared_wm", "hdrm_wm", "q_wm", "drops"):
            assert getattr(m, name) == getattr(ref, name), name
        assert (m.total_used, m.hdrm_pool_used, m.admitted) == \
            (ref.total_used, ref.hdrm_pool_used, ref.admitted)


@pytest.mark.parametrize("seed", range(8))
def test_back_to_back_pairs_keep_every_limit_and_drain_to_zero(seed):
    """A release and an arrival every clock, same-PG heavy: every hard limit holds after
    every clock, the counters stay consistent and return to zero."""
    rng = random.Random(1000 + seed)
    cfg = small_cfg(pg={"dynamic": True, "alpha_shift": rng.randint(-3, 1), "headroom": 10,
                        "reserved": rng.randint(0, 6)},
                    lossy_pg={"reserved": rng.randint(0, 3)},
                    shared_headroom_pool=rng.choice([0, 12]))
    m = PipelinedMmu(cfg, t_lag=rng.choice([4, 7]), view_lag=rng.choice([1, 2, 3]))
    held: list = []
    kinds = set()
    for _ in range(3000):
        rel = held.pop(rng.randrange(len(held))) if held and rng.random() < 0.45 else None
        port = rng.randrange(2) if rng.random() < 0.3 else 0
        pg = 3 if rng.random() < 0.7 else rng.choice([0, 5])
        arr = (port, pg, rng.randrange(2), pg, rng.randint(1, 3 * 256)) \
            if rng.random() < 0.9 else None
        d = m.clock(release=rel, arrival=arr)
        if d is not None:
            kinds.add((d.admit, d.reason, d.segment))
            if d.admit:
                held.append(arr[:4] + (d.cells,))
        check_accounting(m)
        check_limits(m)
    for rel in held:
        m.clock(release=rel)
    m.idle(VIEW_LAG + 1)
    check_accounting(m)
    assert m.total_used == 0 and m.pool_used == [0, 0] and m.egress_used == [0, 0]
    assert m.release_underflow == 0
    assert not any(m.xoff), "every PG resumes once empty"
    assert {s for a, _, s in kinds if a} >= {SEG_RESERVED, SEG_SHARED, SEG_HEADROOM}


def test_view_charges_the_arrival_in_flight_in_full():
    """Back-to-back one-cell frames to a PG with 4 reserved cells: each decision sees the
    committed reserved count plus the previous frame in full.  With one cell of room left and
    a frame every clock, every frame is refused (the one in flight is charged though it was
    dropped): pessimistic, never optimistic; view_lag - 1 idle clocks end it."""
    cfg = small_cfg(pg={"reserved": 4, "static_th": 0, "headroom": 0})
    m = PipelinedMmu(cfg)
    segs = [m.clock(arrival=(0, 3, 1, 3, 100)) for _ in range(5)]
    assert [d.segment for d in segs[:4]] == [SEG_RESERVED] * 4
    assert not segs[4].admit  # reserved full, T 0, no headroom
    m.idle(m.view_lag - 1)
    assert m.res[3] == 4
    m.clock(release=(0, 3, 1, 3, 1))
    d1 = m.clock(arrival=(0, 3, 1, 3, 100))
    assert not d1.admit, "the release of the previous clock is not yet in the view"
    for _ in range(5):
        assert not m.clock(arrival=(0, 3, 1, 3, 100)).admit, "the frame in flight is charged"
    m.idle(m.view_lag - 1)
    d = m.clock(arrival=(0, 3, 1, 3, 100))
    assert d.admit and d.segment == SEG_RESERVED
    m.idle(m.view_lag - 1)
    assert m.res[3] == 4 and m.total_used == 4


def test_buffer_guard_counts_the_frame_in_flight():
    cfg = small_cfg(buffer_cells=10, pg={"reserved": 20, "headroom": 0},
                    lossless_pool=40, egress_lossless_pool=40)
    m = PipelinedMmu(cfg, validate=False)
    d = [m.clock(arrival=(0, 3, 1, 3, 256 * 4)) for _ in range(3)]
    assert [x.admit for x in d] == [True, True, False]
    assert d[2].reason == REASON_BUFFER_FULL  # 4 committed? no: 0 + 4 in flight + 4 + 4 > 10
    m.idle(m.view_lag - 1)
    assert m.total_used == 8


def test_threshold_uses_pool_t_lag_clocks_old():
    """T of clock k is computed from the pool committed after clock k - t_lag."""
    cfg = small_cfg(cell_bytes=64, lossy_pg={"alpha_shift": 0, "reserved": 0}, lossy_pool=100,
                    egress_lossy_pool=400, buffer_cells=600)
    for t_lag, expect_admit in ((3, False), (8, True)):
        m = PipelinedMmu(cfg, t_lag=t_lag, view_lag=3, global_lag=3)
        # port 1 PG 0 takes 50 of the 100 lossy shared cells (clock 0)
        assert m.clock(arrival=(1, 0, 1, 0, 50 * 64)).admit
        m.idle(4)
        # port 0 PG 0 takes 30 (clock 5, committed at clock 7)
        assert m.clock(arrival=(0, 0, 1, 0, 30 * 64)).admit
        m.idle(4)
        d = m.clock(arrival=(0, 0, 1, 0, 64))  # clock 10
        # t_lag 3: T from the pools after clock 7 (80 used): 20 <= 30, drop; t_lag 8: after
        # clock 2 (50 used): T 50 > 30, admit
        assert d.admit == expect_admit, t_lag


def test_pfc_scan_pauses_a_pg_without_events_of_its_own():
    """Other PGs' arrivals pull T below a quiet PG's occupancy: the scan pauses it within
    ports * 8 clocks (plus the commit), though the PG itself has no event."""
    cfg = small_cfg(pg={"dynamic": True, "alpha_shift": 3, "reserved": 0, "headroom": 20},
                    lossless_pool=120)
    m = PipelinedMmu(cfg)
    size = m.glob["pool_shared_lossless"]
    m.clock(arrival=(0, 3, 1, 3, 20 * 256))  # PG (0, 3): 20 shared, T = size - 0
    m.idle(m.view_lag - 1)
    assert m.shared[3] == 20 and not m.xoff[3]
    # port 1 PG 3 fills the pool: T = 8 * (size - used) falls to 0
    while m.pool_used[0] < size:
        d = m.clock(arrival=(1, 3, 0, 3, 10 * 256))
        assert d.admit
        m.idle(m.view_lag - 1)
    t0 = m.now
    while not m.xoff[3]:
        m.idle()
        assert m.now - t0 <= m.n_pg + VIEW_LAG, "the scan did not reach the quiet PG"
    ev = [e for e in m.events if (e.port, e.pg) == (0, 3)]
    assert ev and ev[-1].xoff and ev[-1].seq >= t0 - 1


def test_reconfiguration_lossless_to_lossy_under_traffic():
    """A PG switched from lossless to lossy while it holds shared and headroom cells keeps its
    class until it drains: every release returns to the lossless pool, no counter wraps; then
    it is lossy (lossy pool, no headroom, never paused)."""
    cfg = small_cfg(pg={"reserved": 2, "static_th": 6, "headroom": 12})
    m = PipelinedMmu(cfg)
    held = []
    for _ in range(6):
        d = m.clock(arrival=(0, 3, 1, 3, 3 * 256))
        if d.admit:
            held.append((0, 3, 1, 3, d.cells))
    m.idle(m.view_lag - 1)
    assert m.hdrm[3] > 0 and m.xoff[3]
    m.write_pg(0, 3, lossless=0)
    for rel in held[:-1]:
        m.clock(release=rel)
        d = m.clock(arrival=(1, 0, 0, 0, 256))  # lossy traffic elsewhere meanwhile
        check_accounting(m)
    m.idle(m.view_lag - 1)
    assert m.pg_class[3] == 1, "still holds cells: class unchanged"
    m.clock(release=held[-1])
    m.idle(m.view_lag - 1)
    check_accounting(m)
    assert m.res[3] + m.shared[3] + m.hdrm[3] == 0 and not m.xoff[3]
    assert m.pool_used[POOL_LOSSLESS] == 0 and m.release_underflow == 0
    d = m.clock(arrival=(0, 3, 1, 3, 6 * 256))  # decided as lossy: no headroom, lossy pool
    assert d.admit and d.hdrm == 0 and d.shared == 4
    m.idle(m.view_lag - 1)
    check_accounting(m)
    assert m.pg_class[3] == 0 and m.pool_used[POOL_LOSSY] == 4 + m.shared[PG_COUNT] and not m.xoff[3]


@pytest.mark.parametrize("seed", range(6))
def test_random_reconfiguration_under_traffic_never_corrupts(seed):
    """Classes, reserved sizes, alphas, thresholds and pool sizes rewritten at random while a
    release and an arrival arrive every clock: counters stay consistent and never wrap, and
    the buffer drains to zero."""
    rng = random.Random(77 + seed)
    cfg = small_cfg(pg={"dynamic": True, "alpha_shift": -1, "headroom": 10})
    m = PipelinedMmu(cfg)
    held: list = []
    for n in range(4000):
        rel = held.pop(rng.randrange(len(held))) if held and rng.random() < 0.45 else None
        pg = rng.choice([0, 3, 3, 5])
        arr = (rng.randrange(2), pg, rng.randrange(2), pg, rng.randint(1, 3 * 256))
        d = m.clock(release=rel, arrival=arr)
        if d.admit:
            held.append(arr[:4] + (d.cells,))
        if rng.random() < 0.02:
            p, g = rng.randrange(2), rng.choice([0, 3, 5])
            m.write_pg(p, g, lossless=rng.randrange(2), reserved=rng.randint(0, 8),
                       alpha_shift=rng.randint(-7, 3), dynamic=rng.randrange(2),
                       static_th=rng.randint(0, 30), headroom=rng.randint(0, 12))
        if rng.random() < 0.01:
            m.write_queue(rng.randrange(2), rng.choice([0, 3, 5]), lossless=rng.randrange(2),
                          reserved=rng.randint(0, 4))
        if rng.random() < 0.005:
            m.write_global(pool_shared_lossless=rng.randint(0, 200),
                           pool_shared_lossy=rng.randint(0, 100),
                           hdrm_pool=rng.choice([0, 8, 30]), buffer_cells=rng.randint(50, 400))
        check_accounting(m)
        assert m.total_used <= 400
    for rel in held:
        m.clock(release=rel)
    m.idle(m.n_pg + VIEW_LAG)
    check_accounting(m)
    assert m.total_used == 0 and m.release_underflow == 0 and not any(m.xoff)
    d = [m.clock(arrival=(p, g, p, g, 100)) for p in range(2) for g in range(8)]
    m.idle(m.view_lag - 1)
    assert m.pg_class == [c["lossless"] for c in m.pg_cfg], "an empty PG takes its new class"


@pytest.mark.parametrize("view_lag,t_lag", [(1, 1), (2, 5), (3, 3), (3, 7), (3, 9)])
def test_threshold_pool_is_exactly_t_lag_clocks_old(view_lag, t_lag):
    """At every clock k the pools T is computed from are those committed after clock
    k - t_lag (the state after each clock's commits, recorded as the model runs)."""
    rng = random.Random(view_lag * 100 + t_lag)
    m = PipelinedMmu(small_cfg(), t_lag=t_lag, view_lag=view_lag, global_lag=view_lag)
    after: dict[int, tuple] = {}  # clock c -> pools with every pair <= c committed
    held: list = []
    for k in range(400):
        if k - t_lag >= 0 and k - t_lag in after:
            assert m._lagged_pools() == after[k - t_lag], k
        rel = held.pop(0) if held and rng.random() < 0.4 else None
        arr = (rng.randrange(2), rng.choice([0, 3]), rng.randrange(2), 3, rng.randint(64, 3000))
        d = m.clock(release=rel, arrival=arr)
        if d.admit:
            held.append(arr[:4] + (d.cells,))
        # after clock k, pairs <= k - view_lag + 1 are committed
        after[k - view_lag + 1] = (m.pool_used[0], m.pool_used[1], m.egress_used[0],
                                   m.egress_used[1])


@pytest.mark.parametrize("global_lag", [3, 4, 6])
def test_global_view_charges_every_arrival_since_its_snapshot(global_lag):
    """The total (and every pool) in the view is the one committed global_lag clocks back,
    plus every arrival since in full: back-to-back 4-cell frames against a 10-cell buffer are
    refused as soon as the uncommitted ones could fill it."""
    cfg = small_cfg(buffer_cells=10, pg={"reserved": 20, "headroom": 0},
                    lossless_pool=40, egress_lossless_pool=40)
    m = PipelinedMmu(cfg, validate=False, view_lag=3, global_lag=global_lag,
                     t_lag=max(global_lag, 7))
    d = [m.clock(arrival=(0, 3, 1, 3, 256 * 4)) for _ in range(3)]
    assert [x.admit for x in d] == [True, True, False]
    m.idle(global_lag)
    assert m.total_used == 8
    # with the buffer at 8, a 4-cell frame is refused, a 2-cell one admitted
    assert not m.clock(arrival=(0, 3, 1, 3, 256 * 4)).admit
    m.idle(global_lag)
    assert m.clock(arrival=(0, 3, 1, 3, 256 * 2)).admit


# ---------------------------------------------------------------------------- configuration flags
def _flags(cfg, **kw) -> int:
    return PipelinedMmu(cfg, validate=False).config_flags(**kw)


def test_config_flags_zero_for_valid_configurations():
    for cfg in (small_cfg(), small_cfg(shared_headroom_pool=10), example_config(),
                example_config(ports=8, cell_bytes=208), selftest_config()):
        assert cfg.validate() == [] or all("shared segment is empty" not in w
                                           for w in cfg.validate())
        assert _flags(cfg) == 0


# (what is written on the model's registers, the flag it raises); each is also checked to be
# a configuration validate() rejects or warns about, below
FLAG_CASES = [
    ("pg alpha 4", lambda m: m.write_pg(0, 1, alpha_shift=4), "pg_alpha"),
    ("pg alpha -8", lambda m: m.write_pg(1, 3, alpha_shift=-8), "pg_alpha"),
    ("pg alpha 7 as its 4-bit field", lambda m: m.write_pg(0, 0, alpha_shift=7), "pg_alpha"),
    ("queue alpha -8", lambda m: m.write_queue(1, 2, alpha_shift=-8), "queue_alpha"),
    ("queue alpha 4 on a static queue", lambda m: m.write_queue(0, 3, alpha_shift=4),
     "queue_alpha"),
    ("lossy PG with headroom", lambda m: m.write_pg(0, 5, headroom=1), "lossy_headroom"),
    ("xon at the static Xoff point", lambda m: m.write_pg(0, 3, xon=10), "xon"),
    ("xon 1 with static_th 0", lambda m: m.write_pg(0, 3, static_th=0, xon=1), "xon"),
    ("xon at the dynamic Xoff point",
     lambda m: m.write_pg(1, 3, dynamic=1, alpha_shift=-1, xon=90), "xon"),
    ("xon with alpha 8", lambda m: m.write_pg(1, 3, dynamic=1, alpha_shift=3, xon=1440), "xon"),
    ("zero lossy shared segment", lambda m: m.write_global(pool_shared_lossy=0), "zero_pool"),
    ("zero egress lossy segment", lambda m: m.write_global(egress_shared_lossy=0), "zero_pool"),
    ("ingress pools above the buffer", lambda m: m.write_global(buffer_cells=299),
     "ingress_pools"),
    ("shared headroom pool counted", lambda m: m.write_global(hdrm_pool=113), "ingress_pools"),
    ("reserved counted", lambda m: m.write_pg(0, 0, reserved=101), "ingress_pools"),
    ("egress pool above the buffer", lambda m: m.write_global(egress_shared_lossless=401),
     "egress_pools"),
    ("egress reserved counted", lambda m: m.write_queue(1, 6, reserved=301), "egress_pools"),
    ("max frame below 64", lambda m: m.write_global(max_frame_bytes=63), "max_frame"),
    ("max frame beyond LEN_W", lambda m: m.write_global(max_frame_bytes=1 << 14), "max_frame"),
]
# the same values one step inside each rule: no flag
NO_FLAG_CASES = [
    lambda m: m.write_pg(0, 1, alpha_shift=3), lambda m: m.write_pg(0, 1, alpha_shift=-7),
    lambda m: m.write_pg(0, 3, xon=9), lambda m: m.write_pg(0, 3, static_th=0, xon=0),
    lambda m: m.write_pg(1, 3, dynamic=1, alpha_shift=-1, xon=89),
    lambda m: m.write_pg(1, 3, dynamic=1, alpha_shift=3, xon=1439),
    lambda m: m.write_pg(0, 3, xon=1000, lossless=0, headroom=0),
    lambda m: m.write_global(buffer_cells=300), lambda m: m.write_global(hdrm_pool=112),
    lambda m: m.write_pg(0, 0, reserved=100), lambda m: m.write_global(egress_shared_lossless=400),
    lambda m: m.write_queue(1, 6, reserved=300),
    lambda m: m.write_global(max_frame_bytes=64), lambda m: m.write_global(max_frame_bytes=16383),
    # a zero segment no PG or queue of that class can use: static thresholds of 0
    lambda m: ([m.write_pg(i // 8, i % 8, dynamic=0, static_th=0) for i in range(16)
                if i % 8 != 3], m.write_global(pool_shared_lossy=0)),
]


def dsh_small_cfg():
    """small_cfg under headroom_policy dsh: each port's port_headroom 6 (what its lossless PG
    reserves under static), the PG's headroom (eta_q) 6, the same pools: 300 of 400 cells."""
    cfg = small_cfg()
    cfg.headroom_policy = HEADROOM_DSH
    for port in cfg.ports:
        port.port_headroom = 6
    return cfg


# under dsh the headroom a configuration reserves is every port's port_headroom: a PG's headroom
# (eta_q, taken from the shared segment) and the headroom pool (not used) are not counted;
# (write, flags after it); shared segments 180 + 100, reserved 8, port headroom 12: 300 of 400
DSH_FLAG_CASES = [
    ("port headroom counted", lambda m: m.write_port(0, port_headroom=107), "ingress_pools"),
    ("port headroom at the buffer", lambda m: m.write_port(1, port_headroom=106), None),
    ("every port counted", lambda m: (m.write_port(0, port_headroom=56),
                                      m.write_port(1, port_headroom=57)), "ingress_pools"),
    ("PG headroom not counted", lambda m: m.write_pg(0, 3, headroom=150), None),
    ("headroom pool not counted", lambda m: m.write_global(hdrm_pool=113), None),
    ("static again: the PG headroom counted",
     lambda m: (m.write_pg(0, 3, headroom=150), m.write_global(headroom_policy=0)),
     "ingress_pools"),
    ("static: the port headroom not counted",
     lambda m: (m.write_global(headroom_policy=0), m.write_port(0, port_headroom=107)), None),
    # the xon rule under dsh is at the queue-level Xoff point X = T - headroom = 10 - 6 = 4
    ("xon at X", lambda m: m.write_pg(0, 3, xon=4), "xon"),
    ("xon below X", lambda m: m.write_pg(1, 3, xon=3), None),
    ("xon at X, static: below T", lambda m: (m.write_pg(0, 3, xon=4),
                                             m.write_global(headroom_policy=0)), None),
    ("X at 0: xon 1", lambda m: m.write_pg(0, 3, headroom=10, xon=1), "xon"),
    ("X below 0: xon 0", lambda m: m.write_pg(0, 3, headroom=12, xon=0), None),
    ("X of a dynamic PG: 180 / 2 - 6", lambda m: m.write_pg(1, 3, dynamic=1, alpha_shift=-1,
                                                             xon=84), "xon"),
    ("below X of a dynamic PG", lambda m: m.write_pg(1, 3, dynamic=1, alpha_shift=-1, xon=83),
     None),
]


@pytest.mark.parametrize("case", DSH_FLAG_CASES, ids=[c[0] for c in DSH_FLAG_CASES])
def test_config_flags_ingress_pools_dsh(case):
    _, write, name = case
    cfg = dsh_small_cfg()
    assert cfg.validate() == []
    m = PipelinedMmu(cfg)
    assert m.config_flags() == 0
    write(m)
    assert m.config_flags() == (CFG_FLAG[name] if name else 0), bin(m.config_flags())


def test_config_flags_ingress_pools_dsh_agrees_with_validate():
    """The dsh rule is validate()'s: a port_headroom one cell above what the buffer holds is
    its ingress_lossless_pool error (the pool grown by it), one cell less passes."""
    for extra, bad in ((100, False), (101, True)):
        cfg = dsh_small_cfg()
        cfg.ports[0].port_headroom += extra
        cfg.ingress_lossless_pool += extra
        m = PipelinedMmu(cfg, validate=False)
        if bad:
            with pytest.raises(ConfigError, match="ingress_lossless_pool"):
                cfg.validate()
            assert m.config_flags() == CFG_FLAG["ingress_pools"]
        else:
            assert cfg.validate() == [] and m.config_flags() == 0


@pytest.mark.parametrize("seed", range(40))
def test_config_flags_ingress_pools_dsh_random(seed):
    """Random dsh configurations (port headrooms, PG headrooms (eta_q), pools and buffer, xon
    around the queue-level Xoff point T - headroom): no flag exactly when validate() passes,
    and its error's field has its flag (ingress_lossless_pool: ingress_pools, xon: xon)."""
    rng = random.Random(seed)
    ports = rng.choice([2, 4])
    port_hdrm = [rng.randint(1, 30) for _ in range(ports)]
    # (no negative shared segment: the register holds a size)
    cfg = small_cfg(ports=ports, lossless_pool=4 * ports + sum(port_hdrm) + rng.randint(1, 150),
                    lossy_pool=rng.randint(0, 100),
                    pg={"headroom": rng.randint(0, 12), "dynamic": rng.random() < 0.5,
                        "alpha_shift": rng.randint(-3, 1), "xon": rng.randint(0, 12)})
    cfg.headroom_policy = HEADROOM_DSH
    for port, h in zip(cfg.ports, port_hdrm):
        port.port_headroom = h
    cfg.buffer_cells = (cfg.ingress_lossless_pool + cfg.ingress_lossy_pool
                        + rng.choice([-2, -1, 0, 0, 1, 20]))
    cfg.egress_lossless_pool = min(cfg.egress_lossless_pool, cfg.buffer_cells)
    cfg.egress_lossy_pool = min(cfg.egress_lossy_pool, cfg.buffer_cells)
    for _, _, q in cfg.all_queues():
        if q.lossless:
            q.static_th = cfg.egress_lossless_pool
    flags = _flags(cfg)
    try:
        warnings = cfg.validate()
    except ConfigError as e:
        field = str(e).split(":")[0].split(".")[-1]
        want = {"ingress_lossless_pool": "ingress_pools", "xon": "xon"}[field]
        assert flags & CFG_FLAG[want], (str(e), bin(flags))
        return
    shared = [w for w in warnings if "segment is empty" in w]
    assert (flags == 0) == (not shared), (warnings, bin(flags))


@pytest.mark.parametrize("case", FLAG_CASES, ids=[c[0] for c in FLAG_CASES])
def test_config_flags_each_rule(case):
    """Each rule raises its own flag and no other; buffer_cells 0 raises its own and the
    pool and max-frame flags that follow from it."""
    _, write, name = case
    m = PipelinedMmu(small_cfg())
    assert m.config_flags() == 0
    write(m)
    assert m.config_flags() == CFG_FLAG[name], bin(m.config_flags())


@pytest.mark.parametrize("k", range(len(NO_FLAG_CASES)))
def test_config_flags_boundaries(k):
    m = PipelinedMmu(small_cfg())
    NO_FLAG_CASES[k](m)
    assert m.config_flags() == 0


def test_config_flags_zero_buffer_and_len_w():
    m = PipelinedMmu(small_cfg())
    m.write_global(buffer_cells=0)
    assert m.config_flags() == (CFG_FLAG["buffer"] | CFG_FLAG["ingress_pools"]
                                | CFG_FLAG["egress_pools"] | CFG_FLAG["max_frame"])
    m = PipelinedMmu(small_cfg())
    m.write_global(max_frame_bytes=(1 << 16) - 1)
    assert m.config_flags(len_w=16) == 0 and m.config_flags() == CFG_FLAG["max_frame"]
    # a frame above the buffer: 400 cells of 16 bytes
    m = PipelinedMmu(small_cfg(cell_bytes=16))
    m.write_global(max_frame_bytes=400 * 16)
    assert m.config_flags() == 0
    m.write_global(max_frame_bytes=400 * 16 + 1)
    assert m.config_flags() == CFG_FLAG["max_frame"]


@pytest.mark.parametrize("seed", range(60))
def test_config_flags_agree_with_validate(seed):
    """Random configurations (fields in their registers' ranges, no negative shared segment,
    maximum frame below 2^14), each rule broken now and then: no flag exactly when validate()
    passes without the two warnings the flags share; when it raises, the field it names has
    its flag."""
    rng = random.Random(seed)

    def rare(bad, good):
        return bad if rng.random() < 0.06 else good

    ports = rng.choice([2, 4])
    lossy_res = rng.randint(0, 3)
    lossless_pool = rng.randint(150, 260)
    lossy_pool = 7 * ports * lossy_res + rare(0, rng.choice([40, 100]))
    buffer_cells = lossless_pool + lossy_pool + rare(-1, rng.choice([0, 10, 50]))
    cfg = small_cfg(
        ports=ports, cell_bytes=rng.choice([16, 64, 256]), lossless_pool=lossless_pool,
        lossy_pool=lossy_pool, buffer_cells=buffer_cells,
        egress_lossless_pool=rare(buffer_cells + 1, rng.randint(100, buffer_cells)),
        egress_lossy_pool=rare(buffer_cells + 1, rng.randint(0, 100)),
        shared_headroom_pool=rng.choice([0, 0, 20]),
        pg={"dynamic": rng.random() < 0.5, "alpha_shift": rare(rng.choice([-8, 4]),
                                                               rng.randint(-7, 3)),
            "static_th": rng.choice([0, 10, 40]), "xon": rare(60, rng.choice([0, 5, 9]))},
        lossy_pg={"headroom": rare(1, 0), "alpha_shift": rare(7, rng.randint(-7, 3)),
                  "dynamic": rng.random() < 0.8, "reserved": lossy_res})
    cfg.max_frame_bytes = rare(63, rng.choice([64, 1518, 9238, 16383]))
    for _, _, q in cfg.all_queues():
        q.alpha_shift = rare(rng.choice([-8, 4]), q.alpha_shift) if rng.random() < 0.2 \
            else q.alpha_shift
    flags = _flags(cfg)
    try:
        warnings = cfg.validate()
    except ConfigError as e:
        field = str(e).split(":")[0].split(".")[-1]
        want = {"alpha_shift": ("pg_alpha", "queue_alpha"), "headroom": ("lossy_headroom",),
                "xon": ("xon",), "ingress_lossless_pool": ("ingress_pools",),
                "egress_lossless_pool": ("egress_pools",),
                "egress_lossy_pool": ("egress_pools",), "max_frame_bytes": ("max_frame",)}
        assert any(flags & CFG_FLAG[n] for n in want[field]), (str(e), bin(flags))
        return
    shared = [w for w in warnings if "segment is empty" in w or w.startswith("max_frame")]
    assert (flags == 0) == (not shared), (warnings, bin(flags))
