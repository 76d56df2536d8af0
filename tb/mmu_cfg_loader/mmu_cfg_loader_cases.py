"""mmu_cfg_loader alone: the writes it makes after reset are exactly the configuration image
of the vectors (tb/mmu_core/regmap.py config_image, the entries of the ports beyond the vectors
written 0), in order, one per clock, then nothing; done rises the clock after the last write.
The write checker has a negative case: a configuration that differs from the vectors in one
field is reported.  (Bad values are written as they are; mmu_core's configuration checker flags
them: tb/mmu_core.)"""

from __future__ import annotations

import copy
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from common.mmu_bus import loader_image, pad_config
from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig

PORTS = int(os.environ.get("PARAM_PORT_COUNT", "3"))
MMU_PORTS = int(os.environ.get("PARAM_MMU_PORTS", "4"))
CELL_W = 16


def random_config(rng: random.Random) -> MmuConfig:
    """Every field random (validation off: the loader writes any value); reserved and headroom
    small enough that the pools' shared segments stay positive."""
    def cells():
        return rng.randrange(1 << CELL_W)
    ports = []
    for _ in range(PORTS):
        pgs = [PgConfig(lossless=bool(rng.getrandbits(1)), reserved=rng.randrange(256),
                        dynamic=bool(rng.getrandbits(1)), alpha_shift=rng.randint(-7, 3),
                        static_th=cells(), headroom=0, xon=cells(), xon_offset=cells())
               for _ in range(8)]
        for pg in pgs:
            if pg.lossless:
                pg.headroom = rng.randrange(256)
        qs = [QueueConfig(lossless=bool(rng.getrandbits(1)), reserved=rng.randrange(256),
                          dynamic=bool(rng.getrandbits(1)), alpha_shift=rng.randint(-7, 3),
                          static_th=cells()) for _ in range(8)]
        ports.append(PortConfig(pgs=pgs, queues=qs))
    return MmuConfig(ports=ports, cell_bytes=256, buffer_cells=cells(),
                     max_frame_bytes=rng.randint(64, (1 << 14) - 1),
                     ingress_lossless_pool=rng.randrange(20000, 1 << CELL_W),
                     ingress_lossy_pool=rng.randrange(20000, 1 << CELL_W),
                     shared_headroom_pool=rng.choice((0, rng.randrange(1, 1000))),
                     egress_lossless_pool=rng.randrange(20000, 1 << CELL_W),
                     egress_lossy_pool=rng.randrange(20000, 1 << CELL_W))


async def load(dut, cfg: MmuConfig, vectors: dict | None = None) -> tuple[list, int]:
    """Reset, the vectors of ``cfg`` (or ``vectors``), then every falling edge: the writes
    (clock, address, data) until done, and the clock done rose."""
    for k, v in (vectors or cfg.rtl_cfg(CELL_W)).items():
        getattr(dut, k).value = v
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    writes = []
    done_at = None
    for clock in range(20000):
        await FallingEdge(dut.clk)
        if int(dut.m_cfg_wr_valid.value):
            writes.append((clock, int(dut.m_cfg_wr_addr.value), int(dut.m_cfg_wr_data.value)))
        assert int(dut.done_copy.value) == int(dut.done.value), f"done_copy differs at {clock}"
        if int(dut.done.value):
            done_at = clock
            break
    assert done_at is not None, "done never rose"
    for _ in range(20):                  # nothing more once done
        await FallingEdge(dut.clk)
        assert not int(dut.m_cfg_wr_valid.value), "a write after done"
        assert int(dut.done.value) and int(dut.done_copy.value)
    return writes, done_at


def check_writes(cfg: MmuConfig, writes: list) -> list[str]:
    """The loader's writes against the image of ``cfg``: the same (address, value) list in
    order, on consecutive clocks."""
    # (the image less the dsh registers, which the loader's cfg_* vectors do not carry)
    image = list(loader_image(pad_config(cfg, MMU_PORTS)).items())
    errs = []
    got = [(a, d) for _, a, d in writes]
    if len(got) != len(image):
        errs.append(f"{len(got)} writes, the image has {len(image)}")
    for n, (g, w) in enumerate(zip(got, image)):
        if g != w:
            errs.append(f"write {n}: ({g[0]:#06x}, {g[1]:#x}), image ({w[0]:#06x}, {w[1]:#x})")
            break
    clocks = [c for c, _, _ in writes]
    if clocks != list(range(clocks[0], clocks[0] + len(clocks))):
        errs.append("the writes are not on consecutive clocks")
    return errs


def setup(dut) -> None:
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())


@cocotb.test()
async def writes_the_image(dut):
    """Three random configurations, each loaded after its own reset: the writes equal the
    image, one per clock, done the clock after the last."""
    setup(dut)
    rng = random.Random(int(cocotb.RANDOM_SEED))
    n_image = 7 + 13 * 8 * MMU_PORTS
    for _ in range(3):
        cfg = random_config(rng)
        writes, done_at = await load(dut, cfg)
        errs = check_writes(cfg, writes)
        assert not errs, errs[:3]
        assert len(writes) == n_image
        assert done_at == writes[-1][0] + 1, (done_at, writes[-1][0])
        dut._log.info("%d writes from clock %d, done at clock %d", len(writes), writes[0][0],
                      done_at)


@cocotb.test()
async def write_check_catches_a_wrong_field(dut):
    """Negative: the same check against a configuration one field away from the vectors (one
    PG's xon) reports it."""
    setup(dut)
    rng = random.Random(int(cocotb.RANDOM_SEED) + 1)
    cfg = random_config(rng)
    writes, _ = await load(dut, cfg)
    other = copy.deepcopy(cfg)
    other.ports[PORTS - 1].pgs[5].xon ^= 1
    errs = check_writes(other, writes)
    assert errs and "write" in errs[0], errs
