"""cocotb tests of mmu_core (rtl/mmu_core.v) against models.mmu_pipe, clock by clock.

RANDOM_CLOCKS sets the length of the random runs (default 20,000 clocks, TB_SCALE of that on
Icarus but at least 4,000; a seed is logged, SEED=n replays)."""

from __future__ import annotations

import os
import random
import time

import cocotb

from mmu_core import regmap
from mmu_core.pipe_tb import (CELL_BYTES, CFG_CHECK, CFG_READBACK, PORT_COUNT, RESP_LAT, T_LAG,
                              XOFF_LAT, PipeTB, flag_names, val)
from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig
from models.mmu import (REASON_BAD_INDEX, REASON_BAD_LEN, REASON_BUFFER_FULL, REASON_EGRESS,
                        REASON_HEADROOM_FULL, REASON_INGRESS_LOSSY, REASON_NAMES, REASON_NONE,
                        SEG_HEADROOM, SEG_RESERVED, SEG_SHARED)
from models.mmu_pipe import cfg_flags_latency

RANDOM_CLOCKS = int(os.environ.get("RANDOM_CLOCKS", "0")) or max(
    4000, round(20000 * float(os.environ.get("TB_SCALE", "1"))))


def stress_config(ports: int = PORT_COUNT, cell_bytes: int = CELL_BYTES, hdrm_pool: int = 0,
                  buffer_cells: int = 600, oversubscribe: bool = True) -> MmuConfig:
    """A small buffer that congests: PGs 3 and 4 lossless (DT, headroom), PG 1 static, the
    rest lossy with DT; lossy queues with DT, lossless queues with a static limit.

    ``oversubscribe``: the pools add up to more than ``buffer_cells`` from 4 ports on (so the
    buffer guard drops), which MmuConfig.validate() rejects and the core flags
    (ingress_pools, from 8 ports also egress_pools); False sizes the buffer to the pools, a
    configuration validate() accepts and the core does not flag."""
    port_cfgs = []
    for p in range(ports):
        pgs, qs = [], []
        for g in range(8):
            if g in (3, 4):
                pgs.append(PgConfig(lossless=True, reserved=3, dynamic=True,
                                    alpha_shift=(-1, 0, 1, -2)[p % 4], headroom=24, xon=2,
                                    xon_offset=4))
                qs.append(QueueConfig(lossless=True, reserved=2, dynamic=False, static_th=400))
            elif g == 1:
                pgs.append(PgConfig(lossless=False, reserved=2, dynamic=False, static_th=20))
                qs.append(QueueConfig(lossless=False, dynamic=True, alpha_shift=1))
            else:
                pgs.append(PgConfig(lossless=False, reserved=1, dynamic=True,
                                    alpha_shift=(g % 4) - 2))
                qs.append(QueueConfig(lossless=False, reserved=1, dynamic=True,
                                      alpha_shift=0))
        port_cfgs.append(PortConfig(pgs=pgs, queues=qs))
    if not oversubscribe:
        buffer_cells = max(buffer_cells, ports * 90 + 360)
    return MmuConfig(ports=port_cfgs, cell_bytes=cell_bytes, buffer_cells=buffer_cells,
                     max_frame_bytes=9238, ingress_lossless_pool=ports * 80 + 200,
                     ingress_lossy_pool=ports * 10 + 160, shared_headroom_pool=hdrm_pool,
                     egress_lossless_pool=ports * 80 + 200, egress_lossy_pool=ports * 10 + 160)


class Traffic:
    """Random pairs: an arrival and a release (of an admitted frame) nearly every clock,
    same-PG heavy; releases follow occupancy so the buffer stays near full."""

    def __init__(self, tb: PipeTB, seed: int):
        self.tb = tb
        self.rng = random.Random(seed)
        self.held: list[tuple] = []
        self.hot = (0, 3)

    def next_pair(self):
        rng = self.rng
        m = self.tb.model
        rel = None
        fill = m.total_used / max(1, m.glob["buffer_cells"])
        if self.held and rng.random() < (0.35 + 0.6 * fill):
            rel = self.held.pop(rng.randrange(len(self.held)) if rng.random() < 0.3 else 0)
        arr = None
        if rng.random() < 0.95:
            if rng.random() < 0.02:
                self.hot = (rng.randrange(PORT_COUNT), rng.choice([0, 1, 3, 4, 6]))
            port, pg = self.hot if rng.random() < 0.6 else (rng.randrange(PORT_COUNT),
                                                            rng.randrange(8))
            length = rng.choice([64, 64, 128, 300, 1500, 1518, 4000, 9000])
            length = max(1, length + rng.randint(-3, 3))
            arr = (port, pg, rng.randrange(PORT_COUNT), pg, length)
        return rel, arr

    def record(self, arr, d) -> None:
        if d is not None and d.admit:
            self.held.append(arr[:4] + (d.cells,))

    async def drain(self) -> None:
        while self.held:
            await self.tb.cycle(rel=self.held.pop(0))


async def random_run(dut, clocks: int, hdrm_pool: int = 0, reconfig: bool = False,
                     oversubscribe: bool = True) -> PipeTB:
    seed = cocotb.RANDOM_SEED
    tb = PipeTB(dut, stress_config(hdrm_pool=hdrm_pool, oversubscribe=oversubscribe))
    await tb.start()
    tr = Traffic(tb, seed)
    rng = random.Random(seed + 1)
    t0 = time.monotonic()
    for _ in range(clocks):
        rel, arr = tr.next_pair()
        write = model_write = None
        if reconfig and rng.random() < 0.01:
            write, model_write = random_write(rng)
        d = await tb.cycle(rel=rel, arr=arr, write=write, model_write=model_write)
        tr.record(arr, d)
    wall = time.monotonic() - t0
    await tr.drain()
    await tb.finish()
    m = tb.model
    dut._log.info("random run (seed %d): %d clocks, %.2f arrivals and %.2f releases per clock, "
                  "%.0f clocks/s; XOFF %d, XON %d", seed, clocks, tb.arrivals / tb.clock_no,
                  tb.releases / tb.clock_no, clocks / wall, sum(m.xoff_count),
                  sum(m.xon_count))
    return tb


def random_write(rng: random.Random):
    """One random configuration write and the same write on the model."""
    kind = rng.random()
    if kind < 0.6:
        i = rng.randrange(PORT_COUNT * 8)
        field, value = rng.choice([("lossless", rng.randrange(2)), ("reserved", rng.randint(0, 8)),
                                   ("dynamic", rng.randrange(2)),
                                   ("alpha_shift", rng.randint(-7, 3)),
                                   ("static_th", rng.randint(0, 60)),
                                   ("headroom", rng.randint(0, 30)), ("xon", rng.randint(0, 8)),
                                   ("xon_offset", rng.randint(0, 8))])
        return ((regmap.pg_addr(i, field), regmap.encode(field, value)),
                lambda m: m.write_pg(i // 8, i % 8, **{field: value}))
    if kind < 0.85:
        j = rng.randrange(PORT_COUNT * 8)
        field, value = rng.choice([("lossless", rng.randrange(2)), ("reserved", rng.randint(0, 6)),
                                   ("dynamic", rng.randrange(2)),
                                   ("alpha_shift", rng.randint(-7, 3)),
                                   ("static_th", rng.randint(0, 300))])
        return ((regmap.queue_addr(j, field), regmap.encode(field, value)),
                lambda m: m.write_queue(j // 8, j % 8, **{field: value}))
    field, value = rng.choice([("buffer_cells", rng.randint(300, 700)),
                               ("pool_shared_lossless", rng.randint(50, 600)),
                               ("pool_shared_lossy", rng.randint(20, 300)),
                               ("hdrm_pool", rng.choice([0, 20, 80])),
                               ("egress_shared_lossless", rng.randint(100, 600)),
                               ("egress_shared_lossy", rng.randint(20, 300))])
    return ((regmap.GLOBAL_CFG[field], value), lambda m: m.write_global(**{field: value}))


@cocotb.test()
async def random_pairs(dut):
    """An arrival and a release nearly every clock, same-PG heavy, against the model."""
    tb = await random_run(dut, RANDOM_CLOCKS)
    seen = {k for k, n in tb.cov.items() if n}
    for outcome in [("admit", 1), ("admit", 2), ("admit", 3), ("headroom_full", 0),
                    ("ingress_lossy", 0)]:
        assert outcome in seen, f"random traffic never produced {outcome}: {seen}"
    assert sum(tb.model.xoff_count) > 0 and sum(tb.model.xon_count) > 0
    # the buffer is oversubscribed on purpose (stress_config): those flags and no other (the
    # core's word was compared with the model's in finish())
    oversubscribed = regmap.CONFIG_FLAG["ingress_pools"] | regmap.CONFIG_FLAG["egress_pools"]
    assert tb.model.config_flags() & ~oversubscribed == 0, flag_names(tb.model.config_flags())


@cocotb.test()
async def random_pairs_shared_headroom(dut):
    """The same with a shared headroom pool smaller than the sum of the PG limits, on a
    configuration MmuConfig.validate() accepts (the buffer sized to the pools): no flag."""
    stress_config(hdrm_pool=40, oversubscribe=False).validate()
    tb = await random_run(dut, RANDOM_CLOCKS // 2, hdrm_pool=40, oversubscribe=False)
    assert tb.model.config_flags() == 0


@cocotb.test()
async def reconfiguration_under_traffic(dut):
    """Classes, sizes, alphas, thresholds and pools rewritten under traffic: the model
    follows the same writes at the same clocks; no counter wraps, everything drains."""
    tb = await random_run(dut, RANDOM_CLOCKS // 2, reconfig=True)
    assert tb.model.total_used == 0


@cocotb.test()
async def bad_input_answers(dut):
    """Zero and oversize lengths, indices out of range, a release of more than held and a
    release with a bad index: answered as the model answers, counted."""
    tb = PipeTB(dut, stress_config())
    await tb.start()
    for arr in [(0, 3, 1, 3, 0), (0, 3, 1, 3, 9239), (PORT_COUNT, 3, 1, 3, 64),
                (0, 8, 1, 3, 64), (0, 3, PORT_COUNT, 3, 64), (0, 3, 1, 9, 64)]:
        await tb.cycle(arr=arr)
    d = await tb.cycle(arr=(1, 3, 0, 3, 1000))
    assert d.admit
    await tb.cycle(rel=(1, 3, 0, 3, d.cells + 5))      # more than held: clamps, counts
    await tb.cycle(rel=(PORT_COUNT, 3, 0, 3, 1))         # bad index: counted, ignored
    await tb.cycle(rel=(1, 3, 0, 3, 1))                  # nothing held any more
    await tb.finish()
    m = tb.model
    assert m.drops[1] == 2 and m.drops[2] == 4 and m.release_underflow == 2
    assert m.release_bad_index == 1


@cocotb.test()
async def cells_every_length(dut):
    """ceil(len / CELL_BYTES) for every length up to the maximum frame, back to back."""
    tb = PipeTB(dut, stress_config())
    await tb.start()
    held = []
    for n in range(1, 9239 + 1, 1 if os.environ.get("SIM") == "verilator" else 7):
        d = await tb.cycle(rel=held.pop(0) if held else None, arr=(n % PORT_COUNT, 0, 0, 0, n))
        if d.admit:
            held.append((n % PORT_COUNT, 0, 0, 0, d.cells))
    for rel in held:
        await tb.cycle(rel=rel)
    await tb.finish()


@cocotb.test()
async def stress_back_to_back(dut):
    """Benchmark: an arrival and a release on every clock, same-PG heavy, for STRESS_CLOCKS
    clocks (100,000 on Verilator; TB_SCALE of that on Icarus), the model equal on every clock.
    Prints arrivals and releases accepted per clock (the core has no ready: 1.00 each)."""
    clocks = int(os.environ.get("STRESS_CLOCKS", "0")) or max(
        2000, round(100_000 * float(os.environ.get("TB_SCALE", "1"))))
    seed = cocotb.RANDOM_SEED
    rng = random.Random(seed)
    tb = PipeTB(dut, stress_config())
    await tb.start()
    held: list[tuple] = []
    accepted_arr = accepted_rel = 0
    start = tb.clock_no
    for n in range(clocks):
        # keep the buffer about 80 % full: below that, a release of 0 cells (a no-op event)
        if held and tb.model.total_used > 0.8 * tb.model.glob["buffer_cells"]:
            rel = held.pop(0 if rng.random() < 0.8 else rng.randrange(len(held)))
        else:
            rel = (0, 3, 0, 3, 0)
        port = 0 if rng.random() < 0.7 else rng.randrange(PORT_COUNT)
        pg = 3 if rng.random() < 0.7 else rng.randrange(8)
        arr = (port, pg, rng.randrange(PORT_COUNT), pg,
               rng.choice([64, 64, 64, 200, 600, 1518]))
        # the core's inputs carry no ready: accepted means valid on this clock
        accepted_arr += int(dut.s_req_ready.value)
        accepted_rel += int(dut.s_rel_ready.value)
        d = await tb.cycle(rel=rel, arr=arr)
        if d.admit:
            held.append(arr[:4] + (d.cells,))
    span = tb.clock_no - start
    for rel in held:
        await tb.cycle(rel=rel)
    await tb.finish()
    dut._log.info("stress_back_to_back (seed %d): %.2f arrivals and %.2f releases per clock "
                  "over %d clocks, %d admitted, %d dropped, XOFF %d, peak headroom %d cells, "
                  "model equal on every clock", seed, accepted_arr / span, accepted_rel / span,
                  span, tb.model.admitted, sum(tb.model.drops), sum(tb.model.xoff_count),
                  tb.model.hdrm_pool_wm)


# ---------------------------------------------------------------------------- directed
# The directed cases of the first admission core's bench (dir_admission_cases, dir_pfc_xoff_xon,
# dir_release_order, dir_buffer_guard, dir_bad_inputs; that core and its bench were removed in
# issue 16) on the line-rate core.  Events are spaced T_LAG clocks apart (event()): every
# decision then sees the committed counters and pools of every earlier event, so the pipelined
# model decides as the sequential one and the expected sequences of the first core hold
# unchanged; each assertion on the model's XOFF state follows the commit.  The DUT is compared
# with the model on every clock as in every case here.
LEN_W = 14          # rtl/mmu_core.v default (the harness does not override it)
C = CELL_BYTES      # a one-cell frame


def make_cfg(pg3: dict, lossy: dict, q3: dict, qlossy: dict, ll_shared: int, lossy_shared: int,
             e_ll_shared: int, e_lossy_shared: int, hdrm_pool: int = 0,
             buffer_cells: int | None = None, max_frame_bytes: int = 9238,
             per_port=None) -> MmuConfig:
    """As the first core's bench's make_cfg: PG 3 / queue 3 of every port as ``pg3`` / ``q3``, the
    others as ``lossy`` / ``qlossy``; pools sized from the wanted shared segments."""
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


async def new_tb(dut, cfg: MmuConfig, first: bool = True) -> PipeTB:
    """A bench (and the model) from reset; ``first=False`` for a further bench in the same
    test (the clock already runs; the reset clears the core's counters and state)."""
    tb = PipeTB(dut, cfg)
    await tb.start(clock=first)
    return tb


async def event(tb: PipeTB, rel=None, arr=None):
    """One pair, then T_LAG idle clocks: the pair is committed (counters, pools, its PFC
    evaluation) before the next event is decided, so each decision sees what the sequential
    model (models.mmu.Mmu) sees.  Returns the model's decision."""
    d = await tb.cycle(rel=rel, arr=arr)
    await tb.idle(T_LAG)
    return d


async def settle(tb: PipeTB) -> None:
    """A full scan of every PG: each is re-evaluated with T of the current pools.  Needed for
    dynamic thresholds: an event's own PFC evaluation uses T of the pools from before it (the
    pipelined rule), the sequential model's evaluation T of the pools after it."""
    await tb.idle(tb.model.n_pg + T_LAG)


def seg_of(dec) -> str:
    if not dec.admit:
        return f"drop{dec.reason}"
    return {SEG_RESERVED: "res", SEG_SHARED: "shared", SEG_HEADROOM: "hdrm"}[dec.segment]


@cocotb.test()
async def dir_admission_cases(dut):
    """Reserved, shared, headroom, drop (lossless: headroom full; lossy: ingress; egress),
    and a frame split between reserved and shared (the first core's case, events spaced)."""
    tb = await new_tb(dut, directed_cfg())
    ll = (0, 3, 1, 3, C)
    segs = [seg_of(await event(tb, arr=ll)) for _ in range(21)]
    want = ["res"] * 4 + ["shared"] * 10 + ["hdrm"] * 6 + [f"drop{REASON_HEADROOM_FULL}"]
    assert segs == want, segs
    assert tb.model.xoff[3], "XOFF expected once shared reached T"
    # lossy PG 0 (alpha_shift 0: T = free shared): 2 reserved, then shared while s < 30 - s
    lossy = (0, 0, 1, 3, C)
    segs = [seg_of(await event(tb, arr=lossy)) for _ in range(18)]
    assert segs == ["res"] * 2 + ["shared"] * 15 + [f"drop{REASON_INGRESS_LOSSY}"], segs
    # egress: queue (1, 0) static 5 cells, no reserve
    eg = (0, 1, 1, 0, C)
    segs = [seg_of(await event(tb, arr=eg)) for _ in range(6)]
    assert segs == ["res"] * 2 + ["shared"] * 3 + [f"drop{REASON_EGRESS}"], segs
    # one frame across reserved and shared: 6 cells on a fresh lossless PG with 4 reserved
    dec = await event(tb, arr=(2, 3, 2, 3, 6 * C))
    assert (dec.admit, dec.res, dec.shared, dec.hdrm) == (True, 4, 2, 0), dec
    await tb.finish()


@cocotb.test()
async def dir_pfc_xoff_xon(dut):
    """XOFF on reaching T and on entering headroom below T; XON at max(xon, T - xon_offset),
    clamped to T - 1, static and dynamic (the first core's case, events spaced; the dynamic
    part waits a scan of every PG before each check, see settle())."""
    one = (0, 3, 1, 3, C)
    rel1 = (0, 3, 1, 3, 1)

    async def fill(tb, n):
        for _ in range(n):
            await event(tb, arr=one)

    # (a) static T = 10, xon 2, offset 3: XOFF when shared reaches 10; point = 7
    tb = await new_tb(dut, directed_cfg(pg3=dict(LL_STATIC, xon=2, xon_offset=3)))
    await fill(tb, 4 + 9)
    assert not tb.model.xoff[3]
    await fill(tb, 1)
    assert tb.model.xoff[3] and tb.model.shared[3] == 10, "XOFF at shared == T"
    await fill(tb, 2)  # headroom 2
    seen = []
    for _ in range(5):
        await event(tb, rel=rel1)
        seen.append((tb.model.hdrm[3], tb.model.shared[3], tb.model.xoff[3]))
    assert seen == [(1, 10, True), (0, 10, True), (0, 9, True), (0, 8, True),
                    (0, 7, False)], seen
    await tb.finish()

    # (b) xon above T - offset: xon 6, offset 8 -> point 6
    tb = await new_tb(dut, directed_cfg(pg3=dict(LL_STATIC, xon=6, xon_offset=8)), first=False)
    await fill(tb, 14)
    assert tb.model.xoff[3]
    for s in (9, 8, 7, 6):
        await event(tb, rel=rel1)
        assert tb.model.xoff[3] == (s > 6), (s, tb.model.xoff[3])
    await tb.finish()

    # (c) XOFF on entering headroom while shared < T: the pool (8 cells) runs out first
    tb = await new_tb(dut, directed_cfg(pg3=dict(LL_STATIC, static_th=100), ll_shared=8),
                      first=False)
    await fill(tb, 12)
    assert not tb.model.xoff[3] and tb.model.shared[3] == 8
    dec = await event(tb, arr=one)
    assert dec.segment == SEG_HEADROOM and tb.model.xoff[3], "XOFF on headroom"
    await event(tb, rel=rel1)
    assert not tb.model.xoff[3], "XON once headroom drained (shared 8 <= point 99)"
    await tb.finish()

    # (d) dynamic alpha 1 over 40 shared cells: XOFF at s >= 40 - s (s = 20); offset 0 clamps
    # the point to T - 1: XON at s <= (40 - s) - 1, i.e. s = 19
    dyn = dict(lossless=True, reserved=0, dynamic=True, alpha_shift=0, headroom=6, xon=0,
               xon_offset=0)
    tb = await new_tb(dut, directed_cfg(pg3=dyn, ll_shared=40), first=False)
    await fill(tb, 19)
    await settle(tb)
    assert not tb.model.xoff[3]
    await fill(tb, 1)
    await settle(tb)
    assert tb.model.xoff[3] and tb.model.shared[3] == 20
    await event(tb, rel=rel1)
    await settle(tb)
    assert not tb.model.xoff[3] and tb.model.shared[3] == 19, "XON at T - 1 (clamp)"
    await tb.finish()
    # offset 4: XON at s <= 40 - s - 4, i.e. s = 18
    tb = await new_tb(dut, directed_cfg(pg3=dict(dyn, xon_offset=4), ll_shared=40), first=False)
    await fill(tb, 20)
    await settle(tb)
    assert tb.model.xoff[3] and tb.model.shared[3] == 20
    await event(tb, rel=rel1)
    await settle(tb)
    assert tb.model.xoff[3] and tb.model.shared[3] == 19
    await event(tb, rel=rel1)
    await settle(tb)
    assert not tb.model.xoff[3] and tb.model.shared[3] == 18
    await tb.finish()


@cocotb.test()
async def dir_release_order(dut):
    """A release drains headroom first, then shared, then reserved (read back through the
    status port; the first core's case, events spaced)."""
    tb = await new_tb(dut, directed_cfg())
    await event(tb, arr=(0, 3, 1, 3, 4 * C))   # reserved 4
    await event(tb, arr=(0, 3, 1, 3, 10 * C))  # shared 10 (below T when decided)
    await event(tb, arr=(0, 3, 1, 3, 3 * C))   # headroom 3
    addrs = [regmap.pg_addr(3, f) for f in ("hdrm", "shared", "res")]

    async def read_all():
        # the model commits a pair view_lag - 1 clocks after it; the core writes its counter
        # RAM at E9 and the status port reads the RAM: wait as check_counters() does
        await tb.idle(XOFF_LAT + 2)
        return [await tb.read(a) for a in addrs]

    assert await read_all() == [3, 10, 4]
    for cells, want in ((2, [1, 10, 4]), (5, [0, 6, 4]), (8, [0, 0, 2]), (2, [0, 0, 0])):
        await event(tb, rel=(0, 3, 1, 3, cells))
        got = await read_all()
        assert got == want, (cells, got, want)
        m = tb.model
        assert [m.hdrm[3], m.shared[3], m.res[3]] == want, "model and status port agree"
    await tb.finish()


@cocotb.test()
async def dir_counter_readback_negative(dut):
    """check_counters() reads every counter back to back (read_many); it catches a value the
    core does not hold: the model alone is given one PG's shared watermark, one queue's
    reserved count and one drop count off by one, and exactly those three are reported;
    put back, the read-back is clean."""
    tb = await new_tb(dut, directed_cfg())
    await event(tb, arr=(0, 3, 1, 3, 4 * C))
    await event(tb, arr=(0, 3, 1, 3, 6 * C))
    await tb.idle(RESP_LAT + XOFF_LAT + 2)
    m = tb.model
    last_q = m.n_q - 1
    faults = [(m.shared_wm, 3), (m.q_res, last_q), (m.drops, 1)]
    for arr, k in faults:
        arr[k] += 1
    await tb.check_counters()
    want = {"PG 3 shared_wm", f"queue {last_q} res", f"drops[{REASON_NAMES[1]}]"}
    seen = {" ".join(w.split()[:3 if w.startswith(("PG", "queue")) else 1])
            for w in tb.mismatch_log}
    assert tb.mismatches == 3 and seen == want, (tb.mismatch_log, want)
    dut._log.info("read-back caught: %s", "; ".join(tb.mismatch_log))
    for arr, k in faults:
        arr[k] -= 1
    tb.mismatches = 0
    tb.mismatch_log.clear()
    await tb.finish()


@cocotb.test()
async def dir_buffer_guard(dut):
    """total + cells > buffer_cells drops first (REASON_BUFFER_FULL), even into reserved
    (the first core's case, events spaced)."""
    tb = await new_tb(dut, directed_cfg(buffer_cells=6))
    d = [await event(tb, arr=(0, 3, 1, 3, n * C)) for n in (3, 4, 3, 1)]
    assert [x.reason for x in d] == [REASON_NONE, REASON_BUFFER_FULL, REASON_NONE,
                                     REASON_BUFFER_FULL], d
    await event(tb, rel=(0, 3, 1, 3, 2))
    dec = await event(tb, arr=(0, 0, 1, 3, 2 * C))
    assert dec.admit
    await tb.finish()


@cocotb.test()
async def dir_inflight_charge(dut):
    """Five arrivals of the longest frame on back-to-back clocks to one PG and queue: each
    decision subtracts the cells of the arrivals in flight before it (up to 4 x 64 = 256
    cells at CELL_BYTES 256), beyond 2^CELL_W in the CELL_W 7 build that runs this case.  The
    core must stay equal to the model (its INFLIGHT_W default, CELL_W + 3, holds the sum; an
    INFLIGHT_W 7 build wraps it and admits the fifth frame beyond the buffer)."""
    cell_w = int(os.environ.get("PARAM_CELL_W", "16"))
    cfg = make_cfg(pg3=dict(lossless=True, reserved=0, dynamic=False, static_th=120, headroom=2,
                            xon=0, xon_offset=0),
                   lossy=dict(lossless=False, reserved=0, dynamic=False, static_th=10),
                   q3=dict(lossless=True, dynamic=False, static_th=120),
                   qlossy=dict(lossless=False, reserved=0, dynamic=False, static_th=5),
                   ll_shared=110, lossy_shared=0, e_ll_shared=110, e_lossy_shared=0,
                   buffer_cells=120, max_frame_bytes=9238)
    tb = await new_tb(dut, cfg)
    length = 9000                       # 36 cells of 256 bytes
    d = [await tb.cycle(arr=(0, 3, 1, 3, length)) for _ in range(5)]
    await tb.finish()
    if (CELL_BYTES, cell_w) == (256, 7):
        # the build of test_mmu_core_inflight_*: the charge before the fifth exceeds CELL_W;
        # three fit the buffer (108 of 120 cells), the fourth and fifth do not (the other
        # builds run the case for the comparison with the model only)
        assert 4 * d[0].cells >= 1 << cell_w, (d[0].cells, cell_w)
        assert [x.admit for x in d] == [True, True, True, False, False], d
        assert d[4].reason == REASON_BUFFER_FULL, d[4]


@cocotb.test()
async def dir_bad_inputs(dut):
    """Bad length, bad indices, bad releases (index, underflow: clamp, count, flag); an
    out-of-range configuration computed as the model computes it, and flagged; the underflow
    flag sticky until reset (the first core's case; each configuration flag on its own:
    dir_config_flags)."""
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
        dec = await event(tb, arr=arr)
        assert dec.reason == reason, (arr, dec)
    dec = await event(tb, arr=(0, 3, 1, 3, mf))
    assert dec.admit and dec.cells == -(-mf // C)
    # releases with bad indices: counted, nothing changes
    for rel in ((PORT_COUNT, 3, 1, 3, 1), (0, 8, 1, 3, 1), (0, 3, 200, 3, 1), (0, 3, 1, 9, 1)):
        await event(tb, rel=rel)
    assert tb.model.release_bad_index == 4
    await tb.idle(RESP_LAT)
    assert val(dut.err_release_underflow) == 0
    # underflow: more than held on the PG and on the queue; then on an empty PG
    held = tb.model.res[3] + tb.model.shared[3] + tb.model.hdrm[3]
    await event(tb, rel=(0, 3, 1, 3, held + 5))
    await event(tb, rel=(1, 5, 2, 6, 3))
    assert tb.model.release_underflow == 2 and tb.model.total_used == 0
    # same clock: a bad release and a good arrival, then traffic continues back to back
    await tb.cycle(rel=(0, 3, 1, 3, 1000), arr=(0, 3, 1, 3, 2 * C))
    for _ in range(5):
        await tb.cycle(arr=(0, 3, 1, 3, C))
    await tb.idle(RESP_LAT)
    assert val(dut.err_release_underflow) == 1
    assert await tb.read(regmap.STATUS["flags"]) == regmap.FLAG_RELEASE_UNDERFLOW, \
        "flags: the underflow bit alone"
    await tb.finish()

    # out-of-range configuration: alpha_shift 4 on a lossy PG, -8 on an egress queue,
    # max_frame_bytes wider than LEN_W, a lossy PG with headroom.  mmu_core computes exactly
    # what the model computes for that configuration, and flags each (finish() compares the
    # flags with the model's).
    def tweak(p, pgs, qs):
        if p == 0:
            pgs[1].alpha_shift = 4
            qs[2].dynamic, qs[2].alpha_shift = True, -8
            pgs[2].headroom = 3

    bad = directed_cfg(per_port=tweak, max_frame_bytes=(1 << LEN_W) + 5)
    tb = await new_tb(dut, bad, first=False)
    # the reset clears the sticky underflow flag
    assert val(dut.err_release_underflow) == 0
    for n in (1, 3, (1 << LEN_W) - 1, 2, 5):
        await event(tb, arr=(0, 1, 0, 2, n * C if n < 100 else n))
        await event(tb, arr=(0, 2, 0, 2, n * C if n < 100 else n))
        await event(tb, arr=(0, 1, 0, 1, n * C if n < 100 else n))
    assert tb.cov[("admit", 1)] + tb.cov[("admit", 2)] > 0, tb.cov
    assert await tb.read(regmap.STATUS["flags"]) == regmap.FLAG_BAD_CONFIG
    await tb.finish()
    assert flag_names(tb.model.config_flags()) == ["pg_alpha", "queue_alpha", "lossy_headroom",
                                                   "max_frame"]


@cocotb.test()
async def reset_under_traffic(dut):
    """rst asserted while pairs are in every stage, for four clocks and then for one: after
    it every counter, the PFC state and the scan start from zero (nothing in flight leaks into
    the new run), then random traffic against a fresh model."""
    seed = cocotb.RANDOM_SEED
    tb = PipeTB(dut, stress_config())
    await tb.start()
    for n, clocks in enumerate((4, 1)):
        tr = Traffic(tb, seed + 2 * n)
        for _ in range(3000):
            rel, arr = tr.next_pair()
            tr.record(arr, await tb.cycle(rel=rel, arr=arr))
        # the random traffic's frames released (a buffer it left full would refuse the frames
        # below), then every lossless PG into headroom (frames back to back, no release):
        # stale scan slots would then find headroom in whatever PG they name
        await tr.drain()
        for _ in range(40):
            for p in range(PORT_COUNT):
                for g in (3, 4):
                    await tb.cycle(arr=(p, g, (p + 1) % PORT_COUNT, g, 1500))
        assert tb.model.hdrm_pool_used > 0 and any(tb.model.xoff)
        await tb.reset_in_traffic(clocks=clocks)
    tr = Traffic(tb, seed + 5)
    for _ in range(3000):
        rel, arr = tr.next_pair()
        tr.record(arr, await tb.cycle(rel=rel, arr=arr))
    await tr.drain()
    await tb.finish()


# ---------------------------------------------------------------------------- configuration flags
def cfg_write(kind: str, index: int, field: str, value: int):
    """A configuration write on the core and the same on the model: ``kind`` "pg" or "queue"
    (``index`` = port * 8 + n), "port" (``index`` = port) or "global"."""
    if kind == "port":
        return ((regmap.port_addr(index, field), value),
                lambda m: m.write_port(index, **{field: value}))
    if kind == "pg":
        return ((regmap.pg_addr(index, field), regmap.encode(field, value)),
                lambda m: m.write_pg(index // 8, index % 8, **{field: value}))
    if kind == "queue":
        return ((regmap.queue_addr(index, field), regmap.encode(field, value)),
                lambda m: m.write_queue(index // 8, index % 8, **{field: value}))
    return ((regmap.GLOBAL_CFG[field], value), lambda m: m.write_global(**{field: value}))


def cfg_value(m, kind: str, index: int, field: str) -> int:
    return (m.pg_cfg[index][field] if kind == "pg" else m.q_cfg[index][field]
            if kind == "queue" else m.port_cfg[index][field] if kind == "port"
            else m.glob[field])


async def write_fields(tb: PipeTB, writes) -> None:
    for w in writes:
        write, model_write = cfg_write(*w)
        await tb.cycle(write=write, model_write=model_write)


def config_flag_cases(m) -> list:
    """(what, writes (kind, index, field, value), the flags they raise) on directed_cfg():
    one rule broken at a time, on the first, a middle or the last entry of the scan."""
    n = m.n_pg
    last = n - 1
    g = m.glob
    b = g["buffer_cells"]
    ll = 8 + 3                                   # a lossless PG (LL_STATIC, static_th 10)
    hdrm_sum = sum(c["headroom"] for c in m.pg_cfg if c["lossless"])
    return [
        ("PG alpha 4", [("pg", 1, "alpha_shift", 4)], ["pg_alpha"]),
        ("PG alpha -8, last PG", [("pg", last, "alpha_shift", -8)], ["pg_alpha"]),
        ("queue alpha -8", [("queue", 0, "alpha_shift", -8)], ["queue_alpha"]),
        ("queue alpha 5, last queue", [("queue", last, "alpha_shift", 5)], ["queue_alpha"]),
        ("lossy PG with headroom", [("pg", 13, "headroom", 3)], ["lossy_headroom"]),
        ("xon at the static Xoff point", [("pg", 3, "xon", 10)], ["xon"]),
        ("xon 1 with static_th 0", [("pg", ll, "static_th", 0), ("pg", ll, "xon", 1)], ["xon"]),
        ("xon at the dynamic Xoff point",
         [("pg", last - 4, "dynamic", 1), ("pg", last - 4, "alpha_shift", -1),
          ("pg", last - 4, "xon", g["pool_shared_lossless"] >> 1)], ["xon"]),
        ("xon at the Xoff point with alpha 8",
         [("pg", ll, "dynamic", 1), ("pg", ll, "alpha_shift", 3),
          ("pg", ll, "xon", g["pool_shared_lossless"] << 3)], ["xon"]),
        ("lossy shared segment 0", [("global", 0, "pool_shared_lossy", 0)], ["zero_pool"]),
        ("lossless egress segment 0", [("global", 0, "egress_shared_lossless", 0)],
         ["zero_pool"]),
        ("ingress pools one above the buffer", [("global", 0, "buffer_cells", b - 1)],
         ["ingress_pools"]),
        ("a reserved segment", [("pg", last, "reserved", m.pg_cfg[last]["reserved"] + 1)],
         ["ingress_pools"]),
        ("shared headroom pool", [("global", 0, "hdrm_pool", hdrm_sum + 1)], ["ingress_pools"]),
        ("egress pool above the buffer", [("global", 0, "egress_shared_lossy", b + 1)],
         ["egress_pools"]),
        ("an egress reserved segment",
         [("queue", last, "reserved", b - g["egress_shared_lossy"] + 1)], ["egress_pools"]),
        ("max frame 2^LEN_W", [("global", 0, "max_frame_bytes", 1 << LEN_W)], ["max_frame"]),
        ("max frame 63", [("global", 0, "max_frame_bytes", 63)], ["max_frame"]),
        ("buffer 0", [("global", 0, "buffer_cells", 0)],
         ["ingress_pools", "egress_pools", "max_frame", "buffer"]),
    ]


async def check_config_readback(tb: PipeTB) -> int:
    """Every configuration field (globals, each PG's, each queue's and each port's) read
    through the status port against the model's; returns the fields read."""
    from models.mmu_pipe import GLOBAL_FIELDS, PG_FIELDS, PORT_FIELDS, QUEUE_FIELDS
    m = tb.model
    reads = [(regmap.GLOBAL_CFG[f], m.glob[f], ("global", f)) for f in GLOBAL_FIELDS]
    reads += [(regmap.pg_addr(i, f), regmap.encode(f, m.pg_cfg[i][f]), ("pg", i, f))
              for i in range(m.n_pg) for f in PG_FIELDS]
    reads += [(regmap.queue_addr(j, f), regmap.encode(f, m.q_cfg[j][f]), ("queue", j, f))
              for j in range(m.n_q) for f in QUEUE_FIELDS]
    reads += [(regmap.port_addr(p, f), m.port_cfg[p][f], ("port", p, f))
              for p in range(m.ports) for f in PORT_FIELDS]
    got = await tb.read_many([addr for addr, _, _ in reads])
    for (addr, want, what), g in zip(reads, got):
        assert g == want, (what, hex(addr), g, want)
    return len(reads)


# (not on a build with CFG_READBACK 0: the configuration fields read 0)
@cocotb.test(skip=not CFG_READBACK)
async def dir_config_readback(dut):
    """The status port reads back every configuration field as written (the loaded
    configuration, then a rewrite of every PG's and queue's fields with other values)."""
    tb = await new_tb(dut, directed_cfg())
    n = await check_config_readback(tb)
    rng = random.Random(7)
    m = tb.model
    writes = []
    for i in range(m.n_pg):
        writes += [("pg", i, "reserved", rng.randrange(0, 50)),
                   ("pg", i, "alpha_shift", rng.randrange(-7, 4)),
                   ("pg", i, "xon_offset", rng.randrange(0, 20))]
    for j in range(m.n_q):
        writes += [("queue", j, "static_th", rng.randrange(0, 200)),
                   ("queue", j, "alpha_shift", rng.randrange(-7, 4))]
    await write_fields(tb, writes)
    n += await check_config_readback(tb)
    dut._log.info("configuration read back: %d fields", n)
    await tb.finish()


# (not on a build with CFG_READBACK 0: the configuration fields read 0)
@cocotb.test(skip=not CFG_READBACK)
async def dir_config_readback_negative(dut):
    """The read-back check catches a field the core does not hold: the model alone is given a
    different PG reserved size, and check_config_readback must fail on it."""
    tb = await new_tb(dut, directed_cfg())
    m = tb.model
    i = m.n_pg - 1
    m.pg_cfg[i]["reserved"] += 1          # the model only: the core keeps the loaded value
    try:
        await check_config_readback(tb)
    except AssertionError as e:
        assert repr(("pg", i, "reserved")) in str(e), str(e)
        dut._log.info("read-back check caught the wrong field: %s", str(e).splitlines()[0])
    else:
        raise AssertionError("check_config_readback missed a field the core does not hold")


# (not on a build with CFG_CHECK 0: no checker, the flags read 0)
@cocotb.test(skip=not CFG_CHECK)
async def dir_config_flags(dut):
    """Each configuration flag: a bad field written through the configuration port, the
    documented time waited (models.mmu_pipe.cfg_flags_latency: two scans), the flags read
    (status 0x19, 0x0F bit 1, err_bad_config) and compared with the model's
    config_flags(); the field written back, the flag gone after the same time.  Last, rst
    with a bad field in place: the word reads 0, then the scans raise the flag again."""
    tb = await new_tb(dut, directed_cfg())
    assert await tb.check_config_flags() == 0
    for what, writes, want in config_flag_cases(tb.model):
        old = [(k, i, f, cfg_value(tb.model, k, i, f)) for k, i, f, _ in writes]
        await write_fields(tb, writes)
        got = flag_names(await tb.check_config_flags())
        assert got == want, (what, got, want)
        await write_fields(tb, reversed(old))
        assert await tb.check_config_flags() == 0, what
        dut._log.info("config flag %s: %s, cleared", what, want)
    # rst clears the word, the configuration stays: the scans after it raise the flag again
    await write_fields(tb, [("pg", 1, "alpha_shift", 4)])
    assert flag_names(await tb.check_config_flags()) == ["pg_alpha"]
    await tb.reset_in_traffic()
    await tb.cycle()
    assert val(dut.err_bad_config) == 0, "rst clears the flags"
    assert flag_names(await tb.check_config_flags()) == ["pg_alpha"]
    await tb.finish()


# (not on a build with CFG_CHECK 0: no checker, err_bad_config stays 0)
@cocotb.test(skip=not CFG_CHECK)
async def config_flags_latency(dut):
    """A bad field written at every phase of the scan (every PG index on Verilator, every
    fifth on Icarus) for the first and the last PG and for two global fields (the lossless
    shared segment, 0: its zero test is registered in the checker): err_bad_config
    rises within cfg_flags_latency(N) clocks of the write and falls within as many of the
    repair; the flags follow the model's word at the end."""
    tb = await new_tb(dut, directed_cfg())
    n = tb.model.n_pg
    bound = cfg_flags_latency(n)
    await tb.idle(bound)
    step = 1 if os.environ.get("SIM") == "verilator" else 5
    worst = {}
    for target in ((("pg", 0, "alpha_shift"), 4), (("pg", n - 1, "alpha_shift"), 4),
                   (("global", 0, "max_frame_bytes"), 63),
                   (("global", 0, "pool_shared_lossless"), 0)):
        (kind, index, field), bad = target
        good = cfg_value(tb.model, kind, index, field)
        for phase in range(0, n, step):
            for value, level in ((bad, 1), (good, 0)):
                while tb.clock_no % n != phase:
                    await tb.cycle()
                w = tb.clock_no
                await write_fields(tb, [(kind, index, field, value)])
                while val(dut.err_bad_config) != level:
                    assert tb.clock_no - w <= bound + 1, (target, phase, value)
                    await tb.cycle()
                # sampled at the falling edge of clock clock_no - 1
                took = tb.clock_no - 1 - w
                worst[(kind, index, level)] = max(worst.get((kind, index, level), 0), took)
    dut._log.info("clocks from a write to err_bad_config, worst over the phases (N = %d, "
                  "bound %d): %s", n, bound, worst)
    assert max(worst.values()) <= bound, worst
    await tb.finish()
