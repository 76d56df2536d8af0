"""mmu_csr cases: the generated AXI4-Lite CSR block (rtl/regs/pfcmmu_csr.v) in front of mmu_core,
driven by cocotbext-axi's AxiLiteMaster.

The core is configured from an MmuConfig through tb/mmu_core/regmap.py's config_image over
AXI4-Lite (byte address = word address << 2), every configuration register is read back,
traffic runs on the core's request / release ports against models.mmu_pipe.PipelinedMmu, and
the counters are read over AXI4-Lite and compared with the model.  sonic_image does the same
from a register image file of a SONiC example (models/regimage.py), the model built from the
image alone.  The error responses
(unmapped read, read-only write, partial WSTRB, unaligned address) are SLVERR and counted."""

from __future__ import annotations

import logging
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp

from common.mmu_bus import MmuDriver
from harness import scaled
from mmu_core import regmap
from mmu_core.mmu_core_cases import stress_config
from models import pfcmmu_regs as regs
from models import regimage
from models.mmu import REASON_NAMES
from models.mmu_pipe import PipelinedMmu, cfg_flags_latency

PORT_COUNT = int(os.environ.get("PARAM_PORT_COUNT", "2"))
CELL_BYTES = int(os.environ.get("PARAM_CELL_BYTES", "256"))
SHIFT = regs.ADDR_SHIFT
TRAFFIC_CLOCKS = 600
# enough for each SONiC example's first threshold with 9000-byte frames on two PGs (the
# latest: broadcom_td2_static's lossy static_th, 4096 cells, after about 460 clocks)
CONGESTION_CLOCKS = 500
# sonic_image at TB_SCALE below 1 (Icarus, tb/harness.py): a tenth of the random traffic, and
# the read-back and the counters of a sample (the globals, the entries the congestion used,
# the first and last entry) instead of all; Verilator reads everything
FULL = float(os.environ.get("TB_SCALE", "1")) >= 1
# an image file (.json, .hex or .h) test_mmu_csr.py wrote from a SONiC example for sonic_image;
# the other runs skip that test
SONIC_IMAGE = os.environ.get("SONIC_IMAGE", "")


def val(handle) -> int:
    return int(handle.value)


class TB:
    def __init__(self, dut):
        self.dut = dut
        self.log = dut._log
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
        # thousands of accesses: the master's line per access only at WARNING and above
        for channel in (self.axil.write_if, self.axil.read_if):
            channel.log.setLevel(logging.WARNING)
        self.mismatches: list[str] = []
        self.clocks = 0

    async def count_clocks(self) -> None:
        while True:
            await RisingEdge(self.dut.clk)
            self.clocks += 1

    async def reset(self) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        # the core's request and release ports (the shared bus model; inputs 0 from here)
        self.ports = MmuDriver(dut, dut.clk, cfg_ports=False)
        dut.rst.value = 1
        for _ in range(4):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        for _ in range(2):
            await RisingEdge(dut.clk)

    async def write(self, word: int, value: int, data: bytes | None = None) -> AxiResp:
        data = value.to_bytes(4, "little") if data is None else data
        return (await self.axil.write(word << SHIFT, data)).resp

    async def read(self, word: int, byte_offset: int = 0) -> tuple[int, AxiResp]:
        r = await self.axil.read((word << SHIFT) + byte_offset, 4)
        return int.from_bytes(r.data, "little"), r.resp

    async def expect(self, word: int, want: int, what: str) -> None:
        got, resp = await self.read(word)
        if resp != AxiResp.OKAY or got != want:
            self.mismatches.append(f"{what} (word {word:#06x}): got {got:#x} {resp.name}, "
                                   f"want {want:#x} OKAY")

    def done(self) -> None:
        for m in self.mismatches[:30]:
            self.log.error(m)
        assert not self.mismatches, f"{len(self.mismatches)} mismatches (see the log)"

    async def configure(self, cfg) -> list[tuple[int, int]]:
        image = regmap.config_image(cfg)
        for word, value in image:
            resp = await self.write(word, value)
            if resp != AxiResp.OKAY:
                self.mismatches.append(f"write {word:#06x} = {value:#x}: {resp.name}")
        return image


def counters(m: PipelinedMmu) -> list[tuple[int, int, str]]:
    """(word, value, what) of every global counter and occupancy and of each PG's and queue's
    occupancies, as the model holds them."""
    want = {
        "ingress_lossless_used": m.pool_used[0], "ingress_lossless_wm": m.pool_wm[0],
        "ingress_lossy_used": m.pool_used[1], "ingress_lossy_wm": m.pool_wm[1],
        "hdrm_used": m.hdrm_pool_used, "hdrm_wm": m.hdrm_pool_wm,
        "egress_lossless_used": m.egress_used[0], "egress_lossless_wm": m.egress_wm[0],
        "egress_lossy_used": m.egress_used[1], "egress_lossy_wm": m.egress_wm[1],
        "total_used": m.total_used, "total_wm": m.total_wm, "admitted": m.admitted,
        "release_underflow": m.release_underflow, "release_bad_index": m.release_bad_index,
    }
    out = [(regmap.STATUS[k], v, k) for k, v in want.items()]
    out += [(regmap.DROP_BASE + r, m.drops[r], f"drop_{REASON_NAMES[r]}")
            for r in range(len(m.drops))]
    for i in range(m.n_pg):
        for name, v in (("res", m.res[i]), ("shared", m.shared[i]), ("hdrm", m.hdrm[i]),
                        ("res_wm", m.res_wm[i]), ("shared_wm", m.shared_wm[i]),
                        ("hdrm_wm", m.hdrm_wm[i])):
            out.append((regmap.pg_addr(i, name), v, f"PG {i} {name}"))
    for j in range(m.n_q):
        for name, v in (("res", m.q_res[j]), ("shared", m.q_shared[j]), ("wm", m.q_wm[j])):
            out.append((regmap.queue_addr(j, name), v, f"queue {j} {name}"))
    return out


@cocotb.test()
async def config_readback(dut):
    """The configuration of an MmuConfig written over AXI4-Lite and every configuration
    register read back; the constants; every counter 0 after reset; then random arrivals and
    releases on the core's ports and every counter read over AXI4-Lite against the model."""
    tb = TB(dut)
    await tb.reset()
    cfg = stress_config(ports=PORT_COUNT, cell_bytes=CELL_BYTES, hdrm_pool=40)
    model = PipelinedMmu(cfg, validate=False)
    await tb.expect(regmap.STATUS["port_count"], PORT_COUNT, "port_count")
    await tb.expect(regmap.STATUS["cell_bytes"], CELL_BYTES, "cell_bytes")
    for word, want, what in counters(model):
        await tb.expect(word, 0, f"{what} after reset")
    image = await tb.configure(cfg)
    for word, value in image:
        await tb.expect(word, value, f"configuration {regmap.decode(word)}")
    tb.log.info("%d configuration registers written and read back", len(image))
    # before any traffic: with a wrong configuration the counters would go undefined
    tb.done()

    await random_traffic(tb, model, TRAFFIC_CLOCKS)
    assert model.admitted and sum(model.drops), "the traffic should admit and drop"
    for word, want, what in counters(model):
        await tb.expect(word, want, what)
    tb.done()


async def random_traffic(tb: TB, model: PipelinedMmu, clocks: int,
                         pgs: tuple[int, ...] = (0, 1, 3, 4, 6)) -> None:
    """Arrivals (port, pg) -> (eport, queue pg) and releases of admitted frames on the core's
    own ports for ``clocks`` clocks, the model stepped with every clock, then drained of
    nothing: 40 idle clocks so every counter has settled.  The seed is logged."""
    dut = tb.dut
    seed = random.getrandbits(32)
    tb.log.info("traffic seed %d", seed)
    rng = random.Random(seed)
    held = []
    for _ in range(clocks):
        rel = held.pop(rng.randrange(len(held))) if held and rng.random() < 0.45 else None
        arr = None
        if rng.random() < 0.8:
            pg = rng.choice(pgs)
            arr = (rng.randrange(PORT_COUNT), pg, rng.randrange(PORT_COUNT), pg,
                   rng.choice([64, 300, 1500, 4000, 9000]))
        await FallingEdge(dut.clk)
        tb.ports.drive(rel, arr)
        d = model.clock(rel, arr)
        if d is not None and d.admit:
            held.append(arr[:4] + (d.cells,))
    await FallingEdge(dut.clk)
    tb.ports.idle()
    for _ in range(40):
        model.clock(None, None)
    for _ in range(40):
        await RisingEdge(dut.clk)
    tb.log.info("admitted %d, dropped %d (%s), XOFF %d", model.admitted, sum(model.drops),
                {REASON_NAMES[r]: n for r, n in enumerate(model.drops) if n},
                sum(model.xoff_count))


@cocotb.test()
async def error_responses(dut):
    """SLVERR (and nothing written) for a write to a read-only register, to an unmapped
    address and with WSTRB other than 4'hF; SLVERR and RDATA 0 for a read of an unmapped
    address; OKAY around them; stat_slverr_count counts them."""
    tb = TB(dut)
    await tb.reset()
    cfg = stress_config(ports=PORT_COUNT, cell_bytes=CELL_BYTES)
    await tb.configure(cfg)
    errors = 0
    reg = regmap.GLOBAL_CFG["buffer_cells"]
    want_cells = dict(regmap.config_image(cfg))[reg]
    n_pg = PORT_COUNT * 8
    unmapped_reads = [0x1A, 0x28, 0x40, regmap.PG_BASE + n_pg * regs.PG_STRIDE,
                      regmap.queue_addr(0, "res") + 5,
                      regmap.Q_BASE + n_pg * regs.QUEUE_STRIDE + 8,
                      regmap.port_addr(0, "requests") + 1,
                      regs.PORT_BASE + PORT_COUNT * regs.PORT_STRIDE,
                      # the switch registers' half (word bit 15, pfcmmu_switch): a gap of its
                      # globals and a word above its ports
                      0x8005, 0xFFFF]
    for word in unmapped_reads:
        got, resp = await tb.read(word)
        errors += 1
        if resp != AxiResp.SLVERR or got != 0:
            tb.mismatches.append(f"read of unmapped {word:#06x}: {got:#x} {resp.name}")
    # unaligned: the register's own address + 1
    got, resp = await tb.read(reg, byte_offset=1)
    errors += 1
    if resp != AxiResp.SLVERR:
        tb.mismatches.append(f"unaligned read: {resp.name}")
    # writes that must be refused, each leaving what it aimed at unchanged
    for word, data, what in (
            (regmap.STATUS["admitted"], None, "read-only admitted"),
            (regmap.STATUS["port_count"], None, "read-only port_count"),
            (regmap.pg_addr(3, "res"), None, "read-only PG 3 res"),
            (0x28, None, "unmapped global 0x28"),
            (regmap.port_addr(1, "hdrm_used"), None, "read-only port 1 hdrm_used"),
            (regs.PORT_BASE + PORT_COUNT * regs.PORT_STRIDE + 8, None,
             "port index beyond PORT_COUNT"),
            (regmap.PG_BASE + n_pg * regs.PG_STRIDE + 8, None, "PG index beyond PORT_COUNT*8"),
            (reg, b"\x05\x00", "buffer_cells with WSTRB 4'h3"),
            (reg, b"\x07", "buffer_cells with WSTRB 4'h1")):
        resp = await tb.write(word, 5, data)
        errors += 1
        if resp != AxiResp.SLVERR:
            tb.mismatches.append(f"write to {what}: {resp.name}, want SLVERR")
    await tb.expect(regmap.STATUS["admitted"], 0, "admitted after refused writes")
    await tb.expect(regmap.STATUS["port_count"], PORT_COUNT, "port_count after refused writes")
    await tb.expect(regmap.pg_addr(3, "res"), 0, "PG 3 res after refused writes")
    await tb.expect(reg, want_cells, "buffer_cells after partial writes")
    # a good write still works after the errors
    if await tb.write(reg, want_cells + 1) != AxiResp.OKAY:
        tb.mismatches.append("write after errors not OKAY")
    await tb.expect(reg, want_cells + 1, "buffer_cells after a good write")
    await RisingEdge(dut.clk)
    if val(dut.stat_slverr_count) != errors:
        tb.mismatches.append(f"stat_slverr_count {val(dut.stat_slverr_count)} want {errors}")
    tb.log.info("%d error responses checked", errors)
    tb.done()


@cocotb.test()
async def concurrent_reads_and_writes(dut):
    """Writes and reads issued at once from two coroutines (AW / W and AR together): every
    write OKAY, every read the value its register held (reads of registers not being
    written), then every written register read back."""
    tb = TB(dut)
    await tb.reset()
    cfg = stress_config(ports=PORT_COUNT, cell_bytes=CELL_BYTES)
    image = regmap.config_image(cfg)
    written = dict(image[: len(image) // 2])
    for word, value in written.items():
        await tb.write(word, value)
    rest = image[len(image) // 2:]

    async def writer():
        for word, value in rest:
            if await tb.write(word, value) != AxiResp.OKAY:
                tb.mismatches.append(f"concurrent write {word:#06x}: not OKAY")

    async def reader():
        for word, value in written.items():
            await tb.expect(word, value, f"concurrent read {regmap.decode(word)}")

    w = cocotb.start_soon(writer())
    r = cocotb.start_soon(reader())
    await w
    await r
    for word, value in rest:
        await tb.expect(word, value, f"read back {regmap.decode(word)}")
    tb.done()


@cocotb.test()
async def pipelined_with_backpressure(dut):
    """The block's pipelined channels (one write per two clocks, one read per two clocks, up to 16
    reads outstanding): the whole image queued at once, then every configuration register
    and every counter read back with all reads queued at once, while the master's AW / W / AR
    valids and BREADY / RREADY are withheld on random clocks; every answer in order and equal
    to what was written (or the model's counter).  The clocks each batch took are logged."""
    tb = TB(dut)
    await tb.reset()
    rng = random.Random(random.getrandbits(32))

    def pauses(p: float):
        while True:
            yield rng.random() < p

    cfg = stress_config(ports=PORT_COUNT, cell_bytes=CELL_BYTES, hdrm_pool=40)
    model = PipelinedMmu(cfg, validate=False)
    image = regmap.config_image(cfg)

    async def batch(what: str, writes: list[tuple[int, int]], reads: list[tuple[int, int, str]]):
        start = tb.clocks
        wev = [tb.axil.init_write(w << SHIFT, v.to_bytes(4, "little")) for w, v in writes]
        rev = [tb.axil.init_read(w << SHIFT, 4) for w, _, _ in reads]
        for ev, (w, v) in zip(wev, writes):
            await ev.wait()
            if ev.data.resp != AxiResp.OKAY:
                tb.mismatches.append(f"{what}: write {regmap.decode(w)} = {v:#x} {ev.data.resp}")
        for ev, (w, want, name) in zip(rev, reads):
            await ev.wait()
            got = int.from_bytes(ev.data.data, "little")
            if ev.data.resp != AxiResp.OKAY or got != want:
                tb.mismatches.append(f"{what}: {name} (word {w:#06x}) got {got:#x} "
                                     f"{ev.data.resp}, want {want:#x} OKAY")
        tb.log.info("%s: %d writes and %d reads in %d clocks", what, len(writes), len(reads),
                    tb.clocks - start)

    cocotb.start_soon(tb.count_clocks())
    # first without back-pressure (the throughput), then with it on every channel
    await batch("image", image, [])
    await batch("read-back", [], [(w, v, f"configuration {regmap.decode(w)}") for w, v in image])
    for ch, p in ((tb.axil.write_if.aw_channel, 0.3), (tb.axil.write_if.w_channel, 0.3),
                  (tb.axil.write_if.b_channel, 0.4), (tb.axil.read_if.ar_channel, 0.3),
                  (tb.axil.read_if.r_channel, 0.5)):
        ch.set_pause_generator(pauses(p))
    # the image written again with each value + 1 where the field allows it, read back
    # interleaved with the writes of the other half
    bumped = [(w, v ^ 1) for w, v in image]
    half = len(bumped) // 2
    await batch("bumped first half", bumped[:half], [])
    await batch("second half with reads", bumped[half:],
                [(w, v, f"bumped {regmap.decode(w)}") for w, v in bumped[:half]])
    # (AXI orders nothing between the write and the read channel: a read only follows a
    # write it must see once that write is answered)
    await batch("image again", image, [])
    await batch("read-back again", [], [(w, v, f"configuration {regmap.decode(w)}")
                                        for w, v in image])
    tb.done()

    await random_traffic(tb, model, TRAFFIC_CLOCKS)
    await batch("counters", [], counters(model))
    tb.done()


@cocotb.test(skip=not SONIC_IMAGE)
async def sonic_image(dut):
    """A SONiC example's register image, read from the file test_mmu_csr.py wrote
    (models.regimage: .json, .hex or .h), written entry by entry at its byte addresses over
    AXI4-Lite as a boot loader would; each register read back; the configuration flags
    against the model's; congestion until the configuration's thresholds bind, then random
    traffic, against a model built from the image alone (regimage.config_from_image); every
    counter read over AXI4-Lite against it (a sample of both read-backs on Icarus: FULL)."""
    tb = TB(dut)
    await tb.reset()
    image = regimage.read_image(SONIC_IMAGE)
    cfg = regimage.config_from_image(image, cell_bytes=CELL_BYTES)
    assert cfg.port_count == PORT_COUNT, f"{SONIC_IMAGE}: {cfg.port_count} ports"
    model = PipelinedMmu(cfg, validate=False)
    tb.log.info("%s: %d writes, lossless shared %d, lossy shared %d, headroom pool %d cells",
                SONIC_IMAGE, len(image), cfg.lossless_shared, cfg.lossy_shared,
                cfg.shared_headroom_pool)
    for addr, value in image:
        resp = (await tb.axil.write(addr, value.to_bytes(4, "little"))).resp
        if resp != AxiResp.OKAY:
            tb.mismatches.append(f"image write {regimage.reg_label(addr)} = {value:#x}: "
                                 f"{resp.name}")
    sample = image if FULL else [(a, v) for a, v in image if _sampled(a)]
    for addr, value in sample:
        await tb.expect(addr >> SHIFT, value, f"image {regimage.reg_label(addr)}")
    for _ in range(cfg_flags_latency(model.n_pg)):
        await RisingEdge(dut.clk)
    await tb.expect(regmap.STATUS["config_flags"], model.config_flags(), "config_flags")
    tb.log.info("%d of %d image registers read back", len(sample), len(image))
    tb.done()

    # the configuration's own thresholds: one lossless and one lossy PG fed 9000-byte frames
    # without a release until its DT / static limit binds (XOFF, headroom, lossy drops), then
    # every frame released (XON); then random traffic
    await congestion(tb, model, CONGESTION_CLOCKS)
    assert model.admitted and (sum(model.drops) or sum(model.xoff_count)), \
        "the congestion should reach a threshold of the configuration (an XOFF or a drop)"
    await random_traffic(tb, model, scaled(TRAFFIC_CLOCKS, low=60))
    checks = counters(model)
    if not FULL:
        checks = [c for c in checks if _sampled(c[0] << SHIFT)]
    tb.log.info("%d counters compared", len(checks))
    for word, want, what in checks:
        await tb.expect(word, want, what)
    tb.done()


def _sampled(addr: int) -> bool:
    """The registers sonic_image reads at TB_SCALE below 1: the globals, the entries the
    congestion used (port 0 PG 0 and 3, port 1 queue 0 and 3) and the last PG and queue."""
    kind, index, _ = regimage.decode_word(addr >> SHIFT)
    last = PORT_COUNT * 8 - 1
    return kind == "global" or index == last or (
        (kind == "pg" and index in (0, 3)) or (kind == "queue" and index in (8, 11)))


async def congestion(tb: TB, model: PipelinedMmu, clocks: int, lossless_pg: int = 3,
                     lossy_pg: int = 0) -> None:
    """Port 0 sends 9000-byte frames to port 1, PG / queue ``lossless_pg`` and ``lossy_pg`` in
    turn, for ``clocks`` clocks without a release; then every admitted frame is released, one
    a clock, the model stepped alongside."""
    dut = tb.dut
    held = []
    for k in range(clocks):
        pg = lossless_pg if k % 2 == 0 else lossy_pg
        arr = (0, pg, 1, pg, 9000)
        await FallingEdge(dut.clk)
        tb.ports.drive(None, arr)
        d = model.clock(None, arr)
        if d is not None and d.admit:
            held.append(arr[:4] + (d.cells,))
    peak = (max(model.shared_wm), max(model.hdrm_wm), sum(model.xoff_count), sum(model.drops))
    xon = sum(model.xon_count)
    for rel in held:
        await FallingEdge(dut.clk)
        tb.ports.drive(rel, None)
        model.clock(rel, None)
    await FallingEdge(dut.clk)
    tb.ports.drive(None, None)
    tb.log.info("congestion: %d frames admitted, peak shared %d / headroom %d cells, XOFF %d, "
                "drops %d (%s); all released, XON %d", len(held), *peak,
                {REASON_NAMES[r]: n for r, n in enumerate(model.drops) if n},
                sum(model.xon_count) - xon)

