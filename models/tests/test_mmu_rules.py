"""One test (or a few) per rule of models/mmu.py; docs/model.md states the rules."""

from __future__ import annotations

import pytest

from models.config import ConfigError, PgConfig, example_config
from models.mmu import (REASON_BAD_INDEX, REASON_BAD_LEN, REASON_BUFFER_FULL, REASON_EGRESS,
                        REASON_HEADROOM_FULL, REASON_INGRESS_LOSSY, REASON_NONE, SEG_HEADROOM,
                        SEG_NONE, SEG_RESERVED, SEG_SHARED, Mmu, shift_alpha)

from .helpers import small_cfg

CELL = 256
LL = (0, 3, 1, 3)  # port 0 PG 3 (lossless) -> port 1 queue 3


def fill(m: Mmu, n: int, cells: int = 1, where=LL):
    return [m.arrive(*where, cells * CELL) for _ in range(n)]


# ----------------------------------------------------------------- bytes -> cells
@pytest.mark.parametrize("length,cells", [(1, 1), (64, 1), (256, 1), (257, 2), (512, 2),
                                          (1500, 6), (9238, 37)])
def test_bytes_to_cells_is_ceiling(length, cells):
    cfg = small_cfg(lossless_pool=300, buffer_cells=500)
    assert cfg.bytes_to_cells(length) == cells
    d = Mmu(cfg).arrive(*LL, length)
    assert d.admit and d.cells == cells and d.res + d.shared + d.hdrm == cells


# ----------------------------------------------------------------- the four cases of seed 000
def test_four_cases_private_shared_headroom_drop():
    m = Mmu(small_cfg())  # reserved 4, static T 10, headroom 6
    segs = [d.segment for d in fill(m, 4 + 10 + 6 + 1)]
    assert segs == [SEG_RESERVED] * 4 + [SEG_SHARED] * 10 + [SEG_HEADROOM] * 6 + [SEG_NONE]
    assert m.pg_state(0, 3) | {} == {"res": 4, "shared": 10, "hdrm": 6, "res_wm": 4,
                                     "shared_wm": 10, "hdrm_wm": 6, "xoff": 1}
    assert m.drops[REASON_HEADROOM_FULL] == 1


def test_reserved_spill_into_shared():
    m = Mmu(small_cfg())
    fill(m, 3)
    d = m.arrive(*LL, 3 * CELL)
    assert (d.res, d.shared, d.hdrm, d.segment) == (1, 2, 0, SEG_SHARED)


def test_reserved_spill_into_headroom():
    m = Mmu(small_cfg(pg={"static_th": 0, "xon": 0}))  # T = 0: no shared at all
    fill(m, 3)
    d = m.arrive(*LL, 3 * CELL)
    assert (d.res, d.shared, d.hdrm, d.segment) == (1, 0, 2, SEG_HEADROOM)


def test_frame_that_does_not_fit_headroom_is_dropped_whole():
    m = Mmu(small_cfg())
    fill(m, 14)
    fill(m, 1, cells=5)  # headroom 5 of 6
    d = m.arrive(*LL, 2 * CELL)
    assert not d.admit and d.reason == REASON_HEADROOM_FULL
    assert m.pg_state(0, 3)["hdrm"] == 5 and m.total_used == 19


def test_shared_admission_lets_one_frame_overshoot_T():
    # s < T admits the whole remainder, so s may end above T (by less than one frame)
    m = Mmu(small_cfg())
    fill(m, 4 + 9)
    d = m.arrive(*LL, 4 * CELL)
    assert d.segment == SEG_SHARED and m.pg_state(0, 3)["shared"] == 13


def test_pool_exhausted_goes_to_headroom_even_below_T():
    cfg = small_cfg(lossless_pool=30, pg={"static_th": 50, "headroom": 10}, buffer_cells=200)
    m = Mmu(cfg)  # shared segment 30 - 8 - 20 = 2 cells
    assert cfg.lossless_shared == 2
    fill(m, 4)
    assert m.arrive(*LL, 3 * CELL).segment == SEG_HEADROOM  # 3 > 2 free shared cells
    assert m.xoff[3]  # entering headroom pauses although s (0) < T (50)


# ----------------------------------------------------------------- thresholds
@pytest.mark.parametrize("shift", range(-7, 4))
def test_dt_threshold_is_alpha_times_free_shared(shift):
    cfg = small_cfg(lossless_pool=1000, buffer_cells=1200,
                    pg={"dynamic": True, "alpha_shift": shift, "static_th": 0,
                        "headroom": 6, "xon": 0},
                    egress_lossless_pool=1000)
    m = Mmu(cfg)
    s = cfg.lossless_shared
    assert m.pg_threshold(3) == shift_alpha(s, shift)
    fill(m, 4)  # reserved only: T unchanged
    assert m.pg_threshold(3) == shift_alpha(s, shift)
    m.arrive(*LL, CELL)  # one cell of shared
    free = s - 1
    expect = free * 2**shift if shift >= 0 else free // 2**-shift
    assert m.pg_threshold(3) == expect


def test_static_threshold_ignores_pool_occupancy():
    m = Mmu(small_cfg(pg={"static_th": 10}))
    assert m.pg_threshold(3) == 10
    fill(m, 4 + 8)
    fill(m, 5, where=(1, 3, 0, 3))
    assert m.pg_threshold(3) == 10 and m.pool_used[0] > 0


# ----------------------------------------------------------------- headroom limits
def test_private_headroom_limit_per_pg():
    m = Mmu(small_cfg())
    fill(m, 20)
    assert m.pg_state(0, 3)["hdrm"] == 6
    assert not m.arrive(*LL, CELL).admit
    # the other port's PG still has its own headroom
    fill(m, 20, where=(1, 3, 0, 3))
    assert m.pg_state(1, 3)["hdrm"] == 6


def test_shared_headroom_pool_caps_the_sum():
    cfg = small_cfg(shared_headroom_pool=8, pg={"headroom": 6})
    assert cfg.lossless_shared == 200 - 8 - 8  # the pool replaces the per-PG headroom sum
    m = Mmu(cfg)
    fill(m, 20)
    assert m.pg_state(0, 3)["hdrm"] == 6  # per-PG limit still applies
    fill(m, 20, where=(1, 3, 0, 3))
    assert m.pg_state(1, 3)["hdrm"] == 2  # only 2 left in the shared headroom pool
    assert m.hdrm_pool_used == 8 and m.drops[REASON_HEADROOM_FULL] >= 2


# ----------------------------------------------------------------- PFC XOFF / XON
def test_xoff_when_shared_reaches_T():
    m = Mmu(small_cfg())
    fill(m, 4 + 9)
    assert not m.xoff[3] and not m.events
    fill(m, 1)  # s = 10 = T
    assert m.xoff[3] and m.events[-1].xoff and m.events[-1].port == 0 and m.events[-1].pg == 3
    assert m.pg_state(0, 3)["hdrm"] == 0


def _to_xoff_then_release(m: Mmu) -> list[tuple[int, bool]]:
    """Fill PG (0,3) to the top, then release one cell at a time; (shared, xoff) after each."""
    fill(m, 20)
    out = []
    for _ in range(20):
        m.release(*LL, 1)
        st = m.pg_state(0, 3)
        out.append((st["hdrm"], st["shared"], bool(st["xoff"])))
    return out


@pytest.mark.parametrize("xon,offset,point", [(2, 3, 7), (8, 1, 9), (0, 0, 9), (3, 0, 9),
                                              (5, 10, 5)])
def test_xon_at_max_xon_or_T_minus_offset_never_at_T(xon, offset, point):
    m = Mmu(small_cfg(pg={"xon": xon, "xon_offset": offset}))
    assert m.xon_point(3) == point == min(max(xon, 10 - offset), 9)
    trace = _to_xoff_then_release(m)
    for hdrm, shared, xoff in trace:
        if hdrm > 0 or shared > point:
            assert xoff, (hdrm, shared)
    first_on = next(k for k, (_, _, x) in enumerate(trace) if not x)
    assert trace[first_on][:2] == (0, point)
    assert [e.xoff for e in m.events] == [True, False]


def test_xon_waits_for_headroom_to_empty():
    m = Mmu(small_cfg(pg={"xon": 0, "xon_offset": 10}))  # point max(0, 0) = 0
    fill(m, 20)
    m.release(*LL, 6)  # headroom drained first
    assert m.pg_state(0, 3)["hdrm"] == 0 and m.xoff[3]


def test_xon_point_tracks_dynamic_T():
    cfg = small_cfg(pg={"dynamic": True, "alpha_shift": -1, "static_th": 0, "xon": 0,
                        "xon_offset": 4})
    m = Mmu(cfg)
    t = m.pg_threshold(3)
    assert m.xon_point(3) == t - 4
    fill(m, 4 + 20)
    t2 = m.pg_threshold(3)
    assert t2 < t and m.xon_point(3) == t2 - 4


def test_lossy_pg_never_uses_headroom_never_pauses():
    m = Mmu(small_cfg())
    lossy = (0, 0, 1, 0)
    ds = fill(m, 200, where=lossy)
    assert all(d.segment != SEG_HEADROOM for d in ds)
    assert m.drops[REASON_INGRESS_LOSSY] > 0 and not m.events and m.hdrm_pool_used == 0


# ----------------------------------------------------------------- egress
def test_egress_threshold_drops_with_reason_egress():
    cfg = small_cfg(queue={"lossless": True, "dynamic": False, "static_th": 3})
    m = Mmu(cfg, validate=False)
    fill(m, 4 + 3)  # 4 cells? no: egress has no reserve, limit 3: s < 3 admits
    assert m.drops[REASON_EGRESS] == 4
    assert m.queue_state(1, 3)["occupancy"] == 3
    # an egress drop leaves the ingress accounting untouched
    assert m.pg_state(0, 3)["res"] == 3


def test_lossless_egress_limit_below_pool_warns():
    cfg = small_cfg(queue={"lossless": True, "dynamic": False, "static_th": 3})
    warnings = cfg.validate()
    assert any("queues[3]" in w and "dropped at egress" in w for w in warnings)
    assert not any("dropped at egress" in w for w in small_cfg().validate())


def test_egress_reserved_then_shared():
    cfg = small_cfg(queue={"lossless": True, "reserved": 2, "dynamic": False,
                           "static_th": 100})
    m = Mmu(cfg)
    fill(m, 1, cells=3)
    assert m.queue_state(1, 3) == {"res": 2, "shared": 1, "occupancy": 3, "wm": 3}
    assert m.egress_used == [1, 0]


# ----------------------------------------------------------------- release
def test_release_order_headroom_shared_reserved():
    m = Mmu(small_cfg())
    fill(m, 20)
    m.release(*LL, 8)  # 6 headroom + 2 shared
    st = m.pg_state(0, 3)
    assert (st["hdrm"], st["shared"], st["res"]) == (0, 8, 4)
    m.release(*LL, 10)  # 8 shared + 2 reserved
    st = m.pg_state(0, 3)
    assert (st["hdrm"], st["shared"], st["res"]) == (0, 0, 2)


def test_release_underflow_counted_and_clamped():
    m = Mmu(small_cfg())
    fill(m, 2)
    assert m.release(*LL, 5) is False
    assert m.release_underflow == 1
    assert m.pg_state(0, 3)["res"] == 0 and m.total_used == 0
    assert m.queue_state(1, 3)["occupancy"] == 0


def test_release_bad_index_counted():
    m = Mmu(small_cfg())
    assert m.release(7, 3, 1, 3, 1) is False
    assert m.release(0, 3, 1, 3, -1) is False
    assert m.release_bad_index == 2


# ----------------------------------------------------------------- guards
def test_hard_buffer_guard():
    cfg = small_cfg(buffer_cells=5)  # invalid on purpose: pools exceed the buffer
    with pytest.raises(ConfigError):
        cfg.validate()
    m = Mmu(cfg, validate=False)
    ds = fill(m, 6)
    assert [d.admit for d in ds] == [True] * 5 + [False]
    assert ds[-1].reason == REASON_BUFFER_FULL and m.total_used == 5


@pytest.mark.parametrize("length", [0, -5, 9238 + 1])
def test_bad_length(length):
    m = Mmu(small_cfg())
    d = m.arrive(*LL, length)
    assert (d.admit, d.reason, d.cells) == (False, REASON_BAD_LEN, 0)
    assert m.total_used == 0


@pytest.mark.parametrize("where", [(2, 3, 1, 3), (0, 8, 1, 3), (0, 3, -1, 3), (0, 3, 1, 8),
                                   (-1, 0, 0, 0)])
def test_bad_index(where):
    m = Mmu(small_cfg())
    d = m.arrive(*where, 100)
    assert (d.admit, d.reason) == (False, REASON_BAD_INDEX)
    assert m.drops[REASON_BAD_INDEX] == 1 and m.total_used == 0


def test_max_frame_accepted():
    m = Mmu(small_cfg(lossless_pool=300, buffer_cells=500))
    assert m.arrive(*LL, 9238).reason == REASON_NONE


# ----------------------------------------------------------------- same clock
def test_step_applies_release_before_arrival():
    m = Mmu(small_cfg())
    fill(m, 20)  # full: next arrival drops
    d = m.step(release=LL + (1,), arrival=LL + (CELL,))
    assert d.admit and d.segment == SEG_HEADROOM
    m2 = Mmu(small_cfg())
    fill(m2, 20)
    d2 = m2.arrive(*LL, CELL)  # the other order drops
    m2.release(*LL, 1)
    assert not d2.admit
    assert m.step() is None


# ----------------------------------------------------------------- validation
def _bad(mutate, field):
    cfg = small_cfg()
    mutate(cfg)
    with pytest.raises(ConfigError) as e:
        cfg.validate()
    assert field in str(e.value), str(e.value)


def test_validation_reserved_plus_headroom_exceed_pool():
    _bad(lambda c: setattr(c.ports[0].pgs[3], "headroom", 500), "ingress_lossless_pool")


def test_validation_lossy_reserved_exceed_pool():
    _bad(lambda c: setattr(c.ports[0].pgs[0], "reserved", 500), "ingress_lossy_pool")


def test_validation_xon_above_xoff_point():
    _bad(lambda c: setattr(c.ports[1].pgs[3], "xon", 10), "ports[1].pgs[3].xon")


def test_validation_xon_above_dynamic_xoff_point():
    def m(c):
        pg = c.ports[0].pgs[3]
        pg.dynamic, pg.alpha_shift, pg.xon = True, -3, 200 // 8
    _bad(m, "ports[0].pgs[3].xon")


@pytest.mark.parametrize("shift", [-8, 4])
def test_validation_alpha_out_of_range(shift):
    _bad(lambda c: setattr(c.ports[0].pgs[3], "alpha_shift", shift), "pgs[3].alpha_shift")
    _bad(lambda c: setattr(c.ports[0].queues[5], "alpha_shift", shift), "queues[5].alpha_shift")


def test_validation_short_and_bad_maps():
    _bad(lambda c: setattr(c.ports[0], "prio_to_pg", [0] * 7), "ports[0].prio_to_pg")
    _bad(lambda c: setattr(c.ports[1], "prio_to_queue", []), "ports[1].prio_to_queue")
    _bad(lambda c: c.ports[0].prio_to_pg.__setitem__(2, 8), "ports[0].prio_to_pg[2]")
    _bad(lambda c: setattr(c, "ports", []), "ports")
    _bad(lambda c: setattr(c.ports[0], "pgs", c.ports[0].pgs[:7]), "ports[0].pgs")
    _bad(lambda c: setattr(c.ports[0], "queues", []), "ports[0].queues")


def test_validation_other_fields():
    _bad(lambda c: setattr(c, "cell_bytes", 0), "cell_bytes")
    _bad(lambda c: setattr(c, "ingress_lossy_pool", 300), "ingress_lossless_pool")
    _bad(lambda c: setattr(c.ports[0].pgs[0], "headroom", 3), "ports[0].pgs[0].headroom")
    _bad(lambda c: setattr(c.ports[0].pgs[3], "xon_offset", -1), "pgs[3].xon_offset")
    _bad(lambda c: setattr(c, "egress_lossy_pool", 1000), "egress_lossy_pool")
    _bad(lambda c: setattr(c.ports[0], "default_prio", 8), "default_prio")


def test_lossless_without_headroom_warns():
    cfg = small_cfg(pg={"headroom": 0})
    assert any("without headroom" in w for w in cfg.validate())


def test_example_config_and_json_round_trip():
    cfg = example_config()
    assert cfg.validate() == []
    from models.config import MmuConfig
    assert MmuConfig.from_json(cfg.to_json()) == cfg
    assert isinstance(cfg.pg(0, 3), PgConfig) and cfg.pg(0, 3).lossless


def test_empty_pg_is_never_left_paused_at_zero_threshold():
    """static_th 0: a frame beyond reserved goes to headroom and pauses the PG; once it has
    left, the empty PG resumes even though T is 0 (else it would stay paused forever: PFC is
    evaluated only on the PG's own events)."""
    m = Mmu(small_cfg(pg=dict(static_th=0, reserved=1, headroom=8)), validate=False)
    d = m.arrive(0, 3, 1, 3, 3 * 256)
    assert d.admit and (d.res, d.shared, d.hdrm) == (1, 0, 2)
    assert m.xoff[3]
    m.release(0, 3, 1, 3, 3)
    assert not m.xoff[3], "empty PG still paused"
    assert [e.xoff for e in m.events] == [True, False]


def test_empty_pg_resumes_when_others_exhausted_the_pool():
    """Dynamic T falls to 0 because another PG holds the whole shared pool.  A PG holding a
    shared cell at T = 0 stays paused; a PG that drains to empty at T = 0 resumes."""
    cfg = small_cfg(ports=3, pg=dict(dynamic=True, alpha_shift=3, static_th=0, reserved=0,
                                     headroom=20))
    m = Mmu(cfg, validate=False)
    shared = cfg.lossless_shared
    # port 1 PG 3 with a static limit above the pool, so it can take all of it
    m.pg_dynamic[8 + 3] = False
    m.pg_static[8 + 3] = 10 * shared
    assert m.arrive(0, 3, 1, 3, 256).shared == 1
    while m.pool_used[0] < shared:
        assert m.arrive(1, 3, 0, 3, 256).admit
    assert m.pg_threshold(3) == 0
    # port 0: a frame lands in headroom and pauses; headroom drains, the shared cell stays
    assert m.arrive(0, 3, 1, 3, 256).hdrm == 1 and m.xoff[3]
    m.release(0, 3, 1, 3, 1)
    assert m.hdrm[3] == 0 and m.shared[3] == 1 and m.xoff[3]
    # port 2: empty, pauses on a headroom frame, resumes when it has left, T still 0
    i2 = 2 * 8 + 3
    assert m.arrive(2, 3, 1, 3, 2 * 256).hdrm == 2 and m.xoff[i2]
    m.release(2, 3, 1, 3, 2)
    assert m.pg_threshold(i2) == 0 and not m.xoff[i2], "empty PG left paused at T = 0"
