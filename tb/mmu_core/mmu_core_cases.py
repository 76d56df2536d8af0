"""cocotb tests of mmu_core against the golden model models.mmu.Mmu.

Directed tests first (each admission case, Xoff/Xon points, release order, hard guard, bad
input, every frame length), then randomized traffic and a back-to-back throughput check.
Every test runs the scoreboard of mmu_tb.MmuTB: each response, pfc_xoff / pfc_change every
cycle, and (check_counters) every counter and watermark through the stat port.

Random tests: seed = cocotb.RANDOM_SEED (logged; replay with SEED=n), length RANDOM_EVENTS
(arrivals + releases per random test, default 10000).
"""

from __future__ import annotations

import os
import random

import cocotb

from mmu_core import stat_map
from mmu_core.mmu_tb import CELL_BYTES, LATENCY, LEN_W, PORT_COUNT, MmuTB, start_clock, val
from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig
from models.mmu import (REASON_BAD_INDEX, REASON_BAD_LEN, REASON_BUFFER_FULL, REASON_EGRESS,
                        REASON_HEADROOM_FULL, REASON_INGRESS_LOSSY, REASON_NONE, SEG_HEADROOM,
                        SEG_RESERVED, SEG_SHARED)

C = CELL_BYTES  # a one-cell frame
# during collection cocotb.RANDOM_SEED is the regression seed (COCOTB_RANDOM_SEED, which the
# harness sets from SEED=n); while a test runs it is that seed combined with the test's name
REGRESSION_SEED = cocotb.RANDOM_SEED


def make_cfg(pg3: dict, lossy: dict, q3: dict, qlossy: dict, ll_shared: int, lossy_shared: int,
             e_ll_shared: int, e_lossy_shared: int, hdrm_pool: int = 0,
             buffer_cells: int | None = None, max_frame_bytes: int = 9238,
             per_port=None) -> MmuConfig:
    """PG 3 / queue 3 of every port as ``pg3`` / ``q3``, the other PGs / queues as ``lossy`` /
    ``qlossy``; pools sized from the wanted shared segments.  ``per_port(p, pgs, qs)`` may
    edit a port's lists."""
    ports = []
    for p in range(PORT_COUNT):
        pgs = [PgConfig(**(pg3 if g == 3 else lossy)) for g in range(8)]
        qs = [QueueConfig(**(q3 if q == 3 else qlossy)) for q in range(8)]
        if per_port is not None:
            per_port(p, pgs, qs)
        ports.append(PortConfig(pgs=pgs, queues=qs))
    all_pgs = [g for port in ports for g in port.pgs]
    all_qs = [q for port in ports for q in port.queues]
    ll_res = sum(g.reserved for g in all_pgs if g.lossless)
    ll_hdrm = hdrm_pool if hdrm_pool else sum(g.headroom for g in all_pgs if g.lossless)
    lossy_res = sum(g.reserved for g in all_pgs if not g.lossless)
    ll_pool = ll_shared + ll_res + ll_hdrm
    lossy_pool = lossy_shared + lossy_res
    e_ll_pool = e_ll_shared + sum(q.reserved for q in all_qs if q.lossless)
    e_lossy_pool = e_lossy_shared + sum(q.reserved for q in all_qs if not q.lossless)
    return MmuConfig(ports=ports, cell_bytes=CELL_BYTES,
                     buffer_cells=buffer_cells if buffer_cells else ll_pool + lossy_pool,
                     max_frame_bytes=max_frame_bytes, ingress_lossless_pool=ll_pool,
                     ingress_lossy_pool=lossy_pool, shared_headroom_pool=hdrm_pool,
                     egress_lossless_pool=e_ll_pool, egress_lossy_pool=e_lossy_pool)


LL_STATIC = dict(lossless=True, reserved=4, dynamic=False, static_th=10, headroom=6, xon=0,
                 xon_offset=0)
LOSSY_DT = dict(lossless=False, reserved=2, dynamic=True, alpha_shift=0)
Q_LL = dict(lossless=True, dynamic=False, static_th=1000)
Q_LOSSY = dict(lossless=False, reserved=0, dynamic=False, static_th=5)


def directed_cfg(**kw) -> MmuConfig:
    args = dict(pg3=LL_STATIC, lossy=LOSSY_DT, q3=Q_LL, qlossy=Q_LOSSY, ll_shared=100,
                lossy_shared=30, e_ll_shared=100, e_lossy_shared=100)
    args.update(kw)
    return make_cfg(**args)


async def new_tb(dut, cfg: MmuConfig, validate: bool = True) -> MmuTB:
    tb = MmuTB(dut, cfg, validate=validate)
    await tb.reset()
    return tb


def seg_of(dec) -> str:
    if not dec.admit:
        return f"drop{dec.reason}"
    return {SEG_RESERVED: "res", SEG_SHARED: "shared", SEG_HEADROOM: "hdrm"}[dec.segment]


# ---------------------------------------------------------------------------- directed
@cocotb.test()
async def dir_admission_cases(dut):
    """Reserved, shared, headroom, drop (lossless: headroom full; lossy: ingress; egress),
    and a frame split between reserved and shared."""
    start_clock(dut)
    tb = await new_tb(dut, directed_cfg())
    ll = (0, 3, 1, 3, C)
    segs = [seg_of(await tb.cycle(arr=ll)) for _ in range(21)]
    want = ["res"] * 4 + ["shared"] * 10 + ["hdrm"] * 6 + [f"drop{REASON_HEADROOM_FULL}"]
    assert segs == want, segs
    assert tb.model.xoff[3], "XOFF expected once shared reached T"
    # lossy PG 0 (alpha_shift 0: T = free shared): 2 reserved, then shared while s < 30 - s
    lossy = (0, 0, 1, 3, C)
    segs = [seg_of(await tb.cycle(arr=lossy)) for _ in range(18)]
    assert segs == ["res"] * 2 + ["shared"] * 15 + [f"drop{REASON_INGRESS_LOSSY}"], segs
    # egress: queue (1, 0) static 5 cells, no reserve
    eg = (0, 1, 1, 0, C)
    segs = [seg_of(await tb.cycle(arr=eg)) for _ in range(6)]
    assert segs == ["res"] * 2 + ["shared"] * 3 + [f"drop{REASON_EGRESS}"], segs
    # one frame across reserved and shared: 6 cells on a fresh lossless PG with 4 reserved
    dec = await tb.cycle(arr=(2, 3, 2, 3, 6 * C))
    assert (dec.admit, dec.res, dec.shared, dec.hdrm) == (True, 4, 2, 0), dec
    await tb.check_counters("admission")
    tb.finish("dir_admission_cases")


@cocotb.test()
async def dir_pfc_xoff_xon(dut):
    """XOFF on reaching T and on entering headroom below T; XON at max(xon, T - xon_offset),
    clamped to T - 1, static and dynamic."""
    start_clock(dut)
    one = (0, 3, 1, 3, C)
    rel1 = (0, 3, 1, 3, 1)

    async def fill(tb, n):
        for _ in range(n):
            await tb.cycle(arr=one)

    # (a) static T = 10, xon 2, offset 3: XOFF when shared reaches 10; point = 7
    tb = await new_tb(dut, directed_cfg(pg3=dict(LL_STATIC, xon=2, xon_offset=3)))
    await fill(tb, 4 + 9)
    assert not tb.model.xoff[3]
    await fill(tb, 1)
    assert tb.model.xoff[3] and tb.model.shared[3] == 10, "XOFF at shared == T"
    await fill(tb, 2)  # headroom 2
    seen = []
    for _ in range(5):
        await tb.cycle(rel=rel1)
        seen.append((tb.model.hdrm[3], tb.model.shared[3], tb.model.xoff[3]))
    assert seen == [(1, 10, True), (0, 10, True), (0, 9, True), (0, 8, True),
                    (0, 7, False)], seen
    await tb.check_counters("xon_offset")
    tb.finish("pfc static xon_offset")

    # (b) xon above T - offset: xon 6, offset 8 -> point 6
    tb = await new_tb(dut, directed_cfg(pg3=dict(LL_STATIC, xon=6, xon_offset=8)))
    await fill(tb, 14)
    assert tb.model.xoff[3]
    for s in (9, 8, 7, 6):
        await tb.cycle(rel=rel1)
        assert tb.model.xoff[3] == (s > 6), (s, tb.model.xoff[3])
    tb.finish("pfc static xon")

    # (c) XOFF on entering headroom while shared < T: the pool (8 cells) runs out first
    tb = await new_tb(dut, directed_cfg(pg3=dict(LL_STATIC, static_th=100), ll_shared=8))
    await fill(tb, 12)
    assert not tb.model.xoff[3] and tb.model.shared[3] == 8
    dec = await tb.cycle(arr=one)
    assert dec.segment == SEG_HEADROOM and tb.model.xoff[3], "XOFF on headroom"
    await tb.cycle(rel=rel1)
    assert not tb.model.xoff[3], "XON once headroom drained (shared 8 <= point 99)"
    tb.finish("pfc headroom")

    # (d) dynamic alpha 1 over 40 shared cells: XOFF at s >= 40 - s (s = 20); offset 0 clamps
    # the point to T - 1: XON at s <= (40 - s) - 1, i.e. s = 19
    dyn = dict(lossless=True, reserved=0, dynamic=True, alpha_shift=0, headroom=6, xon=0,
               xon_offset=0)
    tb = await new_tb(dut, directed_cfg(pg3=dyn, ll_shared=40))
    await fill(tb, 19)
    assert not tb.model.xoff[3]
    await fill(tb, 1)
    assert tb.model.xoff[3] and tb.model.shared[3] == 20
    await tb.cycle(rel=rel1)
    assert not tb.model.xoff[3] and tb.model.shared[3] == 19, "XON at T - 1 (clamp)"
    # offset 4: XON at s <= 40 - s - 4, i.e. s = 18
    tb2 = await new_tb(dut, directed_cfg(pg3=dict(dyn, xon_offset=4), ll_shared=40))
    await fill(tb2, 20)
    await tb2.cycle(rel=rel1)
    assert tb2.model.xoff[3] and tb2.model.shared[3] == 19
    await tb2.cycle(rel=rel1)
    assert not tb2.model.xoff[3] and tb2.model.shared[3] == 18
    await tb2.check_counters("dynamic")
    tb.finish("pfc dynamic clamp")
    tb2.finish("pfc dynamic offset")


@cocotb.test()
async def dir_release_order(dut):
    """A release drains headroom first, then shared, then reserved (read back via stat)."""
    start_clock(dut)
    tb = await new_tb(dut, directed_cfg())
    await tb.cycle(arr=(0, 3, 1, 3, 4 * C))   # reserved 4
    await tb.cycle(arr=(0, 3, 1, 3, 10 * C))  # shared 10 (below T when decided)
    await tb.cycle(arr=(0, 3, 1, 3, 3 * C))   # headroom 3
    addrs = [stat_map.pg_addr(0, 3, f) for f in ("hdrm", "shared", "res")]
    await tb.flush()
    assert await tb.read_stats(addrs) == [3, 10, 4]
    for cells, want in ((2, [1, 10, 4]), (5, [0, 6, 4]), (8, [0, 0, 2]), (2, [0, 0, 0])):
        await tb.cycle(rel=(0, 3, 1, 3, cells))
        await tb.flush()
        got = await tb.read_stats(addrs)
        assert got == want, (cells, got, want)
    await tb.check_counters("release order")
    tb.finish("dir_release_order")


@cocotb.test()
async def dir_buffer_guard(dut):
    """total + cells > buffer_cells drops first (REASON_BUFFER_FULL), even into reserved."""
    start_clock(dut)
    tb = await new_tb(dut, directed_cfg(buffer_cells=6), validate=False)
    d = [await tb.cycle(arr=(0, 3, 1, 3, n * C)) for n in (3, 4, 3, 1)]
    assert [x.reason for x in d] == [REASON_NONE, REASON_BUFFER_FULL, REASON_NONE,
                                     REASON_BUFFER_FULL], d
    await tb.cycle(rel=(0, 3, 1, 3, 2))
    dec = await tb.cycle(arr=(0, 0, 1, 3, 2 * C))
    assert dec.admit
    await tb.check_counters("guard")
    tb.finish("dir_buffer_guard")


@cocotb.test()
async def dir_bad_inputs(dut):
    """Bad length, bad indices, bad releases (index, underflow: clamp, count, flag), bad
    configuration flags; the pipeline keeps going and matches the model throughout."""
    start_clock(dut)
    cfg = directed_cfg()
    tb = await new_tb(dut, cfg)
    mf = cfg.max_frame_bytes
    cases = [((0, 3, 1, 3, 0), REASON_BAD_LEN), ((0, 3, 1, 3, mf + 1), REASON_BAD_LEN),
             ((0, 3, 1, 3, (1 << LEN_W) - 1), REASON_BAD_LEN),
             ((PORT_COUNT, 3, 1, 3, 64), REASON_BAD_INDEX), ((255, 3, 1, 3, 64), REASON_BAD_INDEX),
             ((0, 8, 1, 3, 64), REASON_BAD_INDEX), ((0, 15, 1, 3, 64), REASON_BAD_INDEX),
             ((0, 3, PORT_COUNT + 3, 3, 64), REASON_BAD_INDEX),
             ((0, 3, 1, 8, 64), REASON_BAD_INDEX), ((0, 3, 1, 15, 64), REASON_BAD_INDEX),
             ((PORT_COUNT, 3, 1, 3, 0), REASON_BAD_LEN)]
    for arr, reason in cases:
        dec = await tb.cycle(arr=arr)
        assert dec.reason == reason, (arr, dec)
    dec = await tb.cycle(arr=(0, 3, 1, 3, mf))
    assert dec.admit and dec.cells == -(-mf // C)
    # releases with bad indices: counted, nothing changes
    for rel in ((PORT_COUNT, 3, 1, 3, 1), (0, 8, 1, 3, 1), (0, 3, 200, 3, 1), (0, 3, 1, 9, 1)):
        await tb.cycle(rel=rel)
    assert tb.model.release_bad_index == 4
    await tb.flush()
    assert val(dut.err_release_underflow) == 0
    # underflow: more than held on the PG and on the queue; then on an empty PG
    held = tb.model.res[3] + tb.model.shared[3] + tb.model.hdrm[3]
    await tb.cycle(rel=(0, 3, 1, 3, held + 5))
    await tb.cycle(rel=(1, 5, 2, 6, 3))
    assert tb.model.release_underflow == 2 and tb.model.total_used == 0
    # same clock: a bad release and a good arrival, then traffic continues
    await tb.cycle(rel=(0, 3, 1, 3, 1000), arr=(0, 3, 1, 3, 2 * C))
    for _ in range(5):
        await tb.cycle(arr=(0, 3, 1, 3, C))
    await tb.flush()
    assert val(dut.err_release_underflow) == 1
    await tb.check_counters("bad input")
    [flags] = await tb.read_stats([stat_map.global_addr("flags")])
    assert flags == stat_map.FLAG_UNDERFLOW, hex(flags)
    assert val(dut.err_bad_config) == 0
    tb.finish("bad input")

    # bad configuration: alpha_shift 4 (outside -7..3) on a lossy PG and an egress queue,
    # max_frame_bytes wider than LEN_W, a lossy PG with headroom.  Flagged, and the core still
    # computes exactly what the model computes for that configuration.
    def tweak(p, pgs, qs):
        if p == 0:
            pgs[1].alpha_shift = 4
            qs[2].dynamic, qs[2].alpha_shift = True, -8
            pgs[2].headroom = 3

    bad = directed_cfg(per_port=tweak, max_frame_bytes=(1 << LEN_W) + 5)
    tb = await new_tb(dut, bad, validate=False)
    await tb.flush()
    [flags] = await tb.read_stats([stat_map.global_addr("flags")])
    assert flags == (stat_map.FLAG_BAD_CONFIG | stat_map.FLAG_BAD_ALPHA
                     | stat_map.FLAG_BAD_MAX_FRAME | stat_map.FLAG_LOSSY_HEADROOM), hex(flags)
    assert val(dut.err_bad_config) == 1
    for n in (1, 3, (1 << LEN_W) - 1, 2, 5):
        await tb.cycle(arr=(0, 1, 0, 2, n * C if n < 100 else n))
        await tb.cycle(arr=(0, 2, 0, 2, n * C if n < 100 else n))
    await tb.check_counters("bad config")
    tb.finish("bad config")
    # sticky until reset
    tb.cfg = directed_cfg()
    tb.apply_cfg()
    await tb.idle(3)
    [flags] = await tb.read_stats([stat_map.global_addr("flags")])
    assert flags == stat_map.FLAG_BAD_CONFIG and val(dut.err_bad_config) == 1, hex(flags)
    await tb.reset()
    await tb.idle(2)
    assert val(dut.err_bad_config) == 0


@cocotb.test()
async def dir_cells_every_length(dut):
    """Every LEN_W length through the reciprocal multiply: cells compared with the model's
    ceil(len / CELL_BYTES) (max_frame_bytes = 2^LEN_W - 1 so no length is a bad length)."""
    start_clock(dut)
    cfg = directed_cfg(pg3=dict(LL_STATIC, static_th=30000), ll_shared=30000,
                       e_ll_shared=30000, max_frame_bytes=(1 << LEN_W) - 1)
    tb = await new_tb(dut, cfg)
    held = []
    for n in range(1 << LEN_W):
        rel = held.pop(0) if len(held) > 4 else None
        dec = await tb.cycle(rel=rel, arr=(n % 2, 3, 1, 3, n))
        assert dec.cells == (-(-n // C) if n else 0)
        if dec.admit:
            held.append((n % 2, 3, 1, 3, dec.cells))
    await tb.check_counters("every length")
    tb.finish(f"dir_cells_every_length ({1 << LEN_W} lengths, CELL_BYTES {C})")


# ---------------------------------------------------------------------------- random
# random traffic concentrates on a few ports (85 %) so the pools fill whatever PORT_COUNT is
ACTIVE_PORTS = min(PORT_COUNT, 4)


def pick_port(rng: random.Random) -> int:
    return rng.randrange(ACTIVE_PORTS) if rng.random() < 0.85 else rng.randrange(PORT_COUNT)


def random_cfg(variant: str) -> MmuConfig:
    """Mixed lossless / lossy PGs, dynamic (alpha_shift -7..3) and static thresholds, sized
    so that every segment fills and every drop reason happens; buffer_cells below the pool
    sum so the hard guard binds (hence validate=False for the model: the rest is valid)."""
    p_n = ACTIVE_PORTS
    ll_alpha = [-1, 0, 1, -2]
    ll_alpha4 = [3, -3, 2, -7]
    lossy_alpha = [-3, -1, 0, 1, 2, 3]

    def per_port(p, pgs, qs):
        pgs[3] = PgConfig(lossless=True, reserved=4, dynamic=True, alpha_shift=ll_alpha[p % 4],
                          headroom=24, xon=0, xon_offset=4)
        pgs[4] = PgConfig(lossless=True, reserved=2, dynamic=True,
                          alpha_shift=ll_alpha4[p % 4], headroom=16, xon=0, xon_offset=8)
        pgs[6] = PgConfig(lossless=True, reserved=0, dynamic=False, static_th=20, headroom=12,
                          xon=5, xon_offset=0)
        for g in (0, 1, 2, 5):
            pgs[g] = PgConfig(lossless=False, reserved=1, dynamic=True,
                              alpha_shift=lossy_alpha[(p + g) % 6])
        pgs[7] = PgConfig(lossless=False, reserved=1, dynamic=False, static_th=12)
        qs[3] = QueueConfig(lossless=True, dynamic=False, static_th=4000)
        qs[4] = QueueConfig(lossless=True, dynamic=True, alpha_shift=-1)
        qs[6] = QueueConfig(lossless=True, dynamic=False, static_th=30)
        for q in (0, 1, 2, 5):
            qs[q] = QueueConfig(lossless=False, reserved=1, dynamic=True,
                                alpha_shift=[-2, -1, 0, 1][(p + q) % 4])
        qs[7] = QueueConfig(lossless=False, reserved=1, dynamic=False, static_th=10)

    cfg = make_cfg(pg3=LL_STATIC, lossy=LOSSY_DT, q3=Q_LL, qlossy=Q_LOSSY,
                   ll_shared=60 * p_n, lossy_shared=40 * p_n, e_ll_shared=400 * p_n,
                   e_lossy_shared=35 * p_n,
                   hdrm_pool=(30 * p_n if variant == "shared_hdrm" else 0), per_port=per_port)
    cfg.egress_lossless_pool = min(cfg.egress_lossless_pool, cfg.buffer_cells)
    cfg.validate()
    # the hard guard binds below what the busy ports could hold (idle ports' reserve and
    # headroom would otherwise keep it out of reach)
    cfg.buffer_cells = (60 + 40 + 63) * p_n * 7 // 10
    return cfg


async def random_traffic(dut, variant: str, salt: int) -> MmuTB:
    start_clock(dut)
    seed = cocotb.RANDOM_SEED
    rng = random.Random(seed * 16 + salt)
    n_target = int(os.environ.get("RANDOM_EVENTS", "10000"))
    dut._log.info("random %s: test seed %d from regression seed %d (replay: SEED=%d), %d events",
                  variant, seed, REGRESSION_SEED, REGRESSION_SEED, n_target)
    cfg = random_cfg(variant)
    tb = MmuTB(dut, cfg, validate=False)
    await tb.reset()
    mf = cfg.max_frame_bytes
    held: list[tuple] = []
    last = None
    fill = False
    phase_left = 0
    events = 0
    cycles = 0

    def rand_len():
        r = rng.random()
        if r < 0.45:
            return rng.randint(60, C)
        if r < 0.80:
            return rng.randint(C + 1, 4 * C)
        if r < 0.93:
            return rng.randint(1, 2048)
        return rng.randint(2048, mf)

    def gen_arrival():
        nonlocal last
        r = rng.random()
        if r < 0.01:
            return (rng.randrange(PORT_COUNT), rng.randrange(8), rng.randrange(PORT_COUNT),
                    rng.randrange(8), rng.choice([0, mf + 1, (1 << LEN_W) - 1]))
        if r < 0.02:
            a = [rng.randrange(PORT_COUNT), rng.randrange(8), rng.randrange(PORT_COUNT),
                 rng.randrange(8), rand_len()]
            k = rng.randrange(4)
            a[k] = rng.randrange(PORT_COUNT, 256) if k in (0, 2) else rng.randrange(8, 16)
            return tuple(a)
        if last is not None and rng.random() < 0.45:
            port, pg = last  # back-to-back on one PG
        else:
            port = pick_port(rng)
            pg = rng.choice([3, 3, 4, 4, 6, 0, 1, 2, 5, 7])
        last = (port, pg)
        eport = pick_port(rng)
        queue = pg if rng.random() < 0.8 else rng.randrange(8)
        return (port, pg, eport, queue, rand_len())

    def gen_release():
        r = rng.random()
        if held and r < 0.96:
            # mostly the oldest frames, sometimes any
            k = rng.randrange(min(len(held), 6)) if rng.random() < 0.7 else rng.randrange(len(held))
            return held.pop(k)
        if r < 0.98:
            a = [rng.randrange(PORT_COUNT), rng.randrange(8), rng.randrange(PORT_COUNT),
                 rng.randrange(8), rng.randint(1, 8)]
            k = rng.randrange(4)
            a[k] = rng.randrange(PORT_COUNT, 256) if k in (0, 2) else rng.randrange(8, 16)
            return tuple(a)
        return (rng.randrange(PORT_COUNT), rng.randrange(8), rng.randrange(PORT_COUNT),
                rng.randrange(8), rng.randint(1, 40))

    while events < n_target:
        if phase_left == 0:
            fill = not fill
            phase_left = rng.randint(100, 500)
        phase_left -= 1
        p_arr, p_rel = (0.93, 0.35) if fill else (0.4, 0.95)
        arr = gen_arrival() if rng.random() < p_arr else None
        rel = gen_release() if rng.random() < p_rel else None
        dec = await tb.cycle(rel=rel, arr=arr)
        if dec is not None and dec.admit:
            held.append(arr[:4] + (dec.cells,))
        events += (arr is not None) + (rel is not None)
        cycles += 1
        if cycles % 1500 == 0:
            await tb.check_counters(f"cycle {cycles}")
    if tb.cov["drop_buffer_full"] == 0:
        # Some seeds never reach the hard guard: steer the stimulus there (arrivals spread over
        # every busy port and PG, no releases) so the guard is exercised on every seed.  The
        # model still checks every decision of this phase.
        for _ in range(3000):
            if tb.cov["drop_buffer_full"]:
                break
            arr = (pick_port(rng), rng.randrange(8), pick_port(rng), rng.randrange(8),
                   rng.randint(2 * C, 4 * C))
            dec = await tb.cycle(rel=None, arr=arr)
            if dec is not None and dec.admit:
                held.append(arr[:4] + (dec.cells,))
            events += 1
            cycles += 1
        dut._log.info("random %s: steered to the buffer guard (%d buffer-full drops)", variant,
                      tb.cov["drop_buffer_full"])
    await tb.check_counters("end")
    dut._log.info("random %s: %d events in %d cycles, SEED=%d, %d mismatches", variant,
                  events, cycles, REGRESSION_SEED, tb.mismatches)
    tb.finish(f"random {variant}")
    need = ["seg_reserved", "seg_shared", "seg_headroom", "drop_bad_len", "drop_bad_index",
            "drop_buffer_full", "drop_ingress_lossy", "drop_headroom_full", "drop_egress",
            "xoff", "xon", "same_clock", "same_clock_same_pg", "back_to_back_same_pg",
            "release_underflow", "release_bad_index"]
    missing = [k for k in need if tb.cov[k] == 0]
    assert not missing, f"random traffic never produced {missing}: the test proves too little"
    return tb


@cocotb.test()
async def run_random_private(dut):
    """Random mixed traffic, private headroom per PG."""
    await random_traffic(dut, "private", 1)


@cocotb.test()
async def run_random_shared_hdrm(dut):
    """Random mixed traffic, a shared headroom pool."""
    await random_traffic(dut, "shared_hdrm", 2)


# ---------------------------------------------------------------------------- throughput
@cocotb.test()
async def stress_back_to_back(dut):
    """An arrival every clock to one PG with a release to the same PG in the same clock:
    one decision per clock, no stall, every request answered (ratio printed, not asserted)."""
    start_clock(dut)
    cfg = directed_cfg(pg3=dict(LL_STATIC, static_th=6, headroom=40))
    tb = await new_tb(dut, cfg)
    n = int(os.environ.get("STRESS_CYCLES", "2000"))
    held = []
    rng = random.Random(cocotb.RANDOM_SEED)
    for _ in range(n):
        rel = held.pop(0) if len(held) >= rng.randint(1, 6) else None
        dec = await tb.cycle(rel=rel, arr=(0, 3, 1, 3, rng.randint(1, 3 * C)))
        if dec.admit:
            held.append((0, 3, 1, 3, dec.cells))
    await tb.flush()
    span = tb.last_resp_cycle - tb.first_resp_cycle + 1
    ratio = tb.responses / span
    dut._log.info("back-to-back: %d requests, %d responses over %d clocks: %.2f decisions "
                  "per clock (latency %d clocks)", n, tb.responses, span, ratio, LATENCY)
    print(f"mmu_core back-to-back: {ratio:.2f} decisions per clock")
    assert tb.responses == n, "every request must get a response"
    await tb.check_counters("stress")
    tb.finish("stress_back_to_back")
