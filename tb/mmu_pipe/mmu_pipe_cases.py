"""cocotb tests of mmu_pipe (rtl/mmu_pipe.v) against models.mmu_pipe, clock by clock.

RANDOM_CLOCKS sets the length of the random runs (default 20,000 clocks, TB_SCALE of that on
Icarus but at least 8,000; a seed is logged, SEED=n replays)."""

from __future__ import annotations

import os
import random
import time

import cocotb

from mmu_pipe import regmap
from mmu_pipe.pipe_tb import CELL_BYTES, PORT_COUNT, PipeTB
from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig

RANDOM_CLOCKS = int(os.environ.get("RANDOM_CLOCKS", "0")) or max(
    8000, round(20000 * float(os.environ.get("TB_SCALE", "1"))))


def stress_config(ports: int = PORT_COUNT, cell_bytes: int = CELL_BYTES, hdrm_pool: int = 0,
                  buffer_cells: int = 600) -> MmuConfig:
    """A small buffer that congests: PGs 3 and 4 lossless (DT, headroom), PG 1 static, the
    rest lossy with DT; lossy queues with DT, lossless queues with a static limit."""
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


async def random_run(dut, clocks: int, hdrm_pool: int = 0, reconfig: bool = False) -> PipeTB:
    seed = cocotb.RANDOM_SEED
    tb = PipeTB(dut, stress_config(hdrm_pool=hdrm_pool))
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


@cocotb.test()
async def random_pairs_shared_headroom(dut):
    """The same with a shared headroom pool smaller than the sum of the PG limits."""
    await random_run(dut, RANDOM_CLOCKS // 2, hdrm_pool=40)


@cocotb.test()
async def reconfiguration_under_traffic(dut):
    """Classes, sizes, alphas, thresholds and pools rewritten under traffic: the model
    follows the same writes at the same clocks; no counter wraps, everything drains."""
    tb = await random_run(dut, RANDOM_CLOCKS // 2, reconfig=True)
    assert tb.model.total_used == 0


@cocotb.test()
async def bad_inputs(dut):
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
