"""sw_regs cases: switch_core's own registers (the generated pfcmmu_sw_regs behind sw_mmu_csr,
the map pfcmmu_switch of rtl/regs/pfcmmu.rdl) over AXI4-Lite with cocotbext-axi's
AxiLiteMaster: reset values, every configuration register written with a random value and
read back, every status register read against the pattern the top drives (tb/sw_regs/
top_gen.py), no clear on read, the routing to the admission core's half and the error
responses.  Any difference fails the test (the FAULT_INJECT build must fail it)."""

from __future__ import annotations

import logging
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp

from models import pfcmmu_switch_regs as swr
from scripts import regs_gen_switch
from sw_regs.top_gen import MMU_DATA, status_ports

PORT_COUNT = int(os.environ.get("PARAM_PORT_COUNT", "3"))
# LEAVE_OUT 1: the registers of every leave-out parameter of the block are not built: they
# answer OKAY and read 0, before and after a write
LEAVE_OUT = int(os.environ.get("PARAM_LEAVE_OUT", "0"))
LEFT_OUT = {n for _, names in regs_gen_switch.LEAVE_OUT.values() for n in names} if LEAVE_OUT else set()
SEED = int(os.environ.get("SEED") or random.randrange(1 << 32))


def _base(name: str) -> str:
    return name.split("[")[0]


def _index(name: str) -> int:
    return int(name.split("[")[1].rstrip("]")) if "[" in name else 0


def _signal(reg: swr.Reg, f: swr.Field) -> str:
    base = _base(reg.name)
    return f"stat_{base}" if len(reg.fields) == 1 and f.name == "value" else f"stat_{base}_{f.name}"


def registers() -> list[tuple[str, int, int | None, swr.Reg]]:
    """(label, byte address, port or None, register) of every register of a PORT_COUNT build."""
    out = [(n, r.offset << swr.ADDR_SHIFT, None, r) for n, r in swr.SW_GLOBALS.items()]
    for p in range(PORT_COUNT):
        for n, r in swr.SW_PORT.items():
            word = swr.SW_PORT_BASE + p * swr.SW_PORT_STRIDE + r.offset
            out.append((f"sw_port[{p}].{n}", word << swr.ADDR_SHIFT, p, r))
    return out


def expected_status(reg: swr.Reg, port: int | None, stat_value: int) -> int:
    """The value the top drives into status register ``reg`` (top_gen's pattern)."""
    order = [name for _, name in status_ports()]
    count = swr.SW_ARRAYS.get(_base(reg.name), 1)
    v = 0
    for f in reg.fields:
        i = order.index(_signal(reg, f))
        j = _index(reg.name) + (port * count if port is not None else 0)
        v |= ((stat_value * (i + 1) + j) & 0xFFFFFFFF & ((1 << f.width) - 1)) << f.lsb
    return v


class TB:
    def __init__(self, dut):
        self.dut = dut
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
        for channel in (self.axil.write_if, self.axil.read_if):
            channel.log.setLevel(logging.WARNING)
        self.errors: list[str] = []

    async def reset(self):
        cocotb.start_soon(Clock(self.dut.clk, 8, unit="ns").start())
        self.dut.stat_value.value = 0
        self.dut.rst.value = 1
        await ClockCycles(self.dut.clk, 4)
        self.dut.rst.value = 0
        await ClockCycles(self.dut.clk, 4)

    async def writes(self, writes: list[tuple[int, int]]) -> list[AxiResp]:
        evs = [self.axil.init_write(a, v.to_bytes(4, "little")) for a, v in writes]
        for ev in evs:
            await ev.wait()
        return [ev.data.resp for ev in evs]

    async def reads(self, addrs: list[int]) -> list[tuple[int, AxiResp]]:
        evs = [self.axil.init_read(a, 4) for a in addrs]
        for ev in evs:
            await ev.wait()
        return [(int.from_bytes(ev.data.data, "little"), ev.data.resp) for ev in evs]

    def expect(self, what: str, got, want) -> None:
        if got != want:
            self.errors.append(f"{what}: read {got!r}, expected {want!r}")


@cocotb.test()
async def readback(dut):
    """Reset values, random configuration written and read back, status pattern read."""
    rng = random.Random(SEED)
    dut._log.info("seed %d (SEED=%d replays)", SEED, SEED)
    tb = TB(dut)
    await tb.reset()
    regs = registers()
    cfg = [(lab, a, r) for lab, a, _, r in regs if r.writable]
    stat = [(lab, a, p, r) for lab, a, p, r in regs if not r.writable]

    # reset values (rst sets the configuration registers, docs/regs.md)
    got = await tb.reads([a for _, a, _ in cfg])
    for (lab, _, r), (v, resp) in zip(cfg, got):
        reset = 0 if _base(r.name) in LEFT_OUT else sum((f.reset or 0) << f.lsb for f in r.fields)
        tb.expect(f"{lab} after rst", (v, resp), (reset, AxiResp.OKAY))

    # every configuration register, random values (pipelined writes), read back
    values = {a: sum(rng.randrange(1 << f.width) << f.lsb for f in r.fields) for _, a, r in cfg}
    resps = await tb.writes(list(values.items()))
    bad = [hex(a) for a, resp in zip(values, resps) if resp != AxiResp.OKAY]
    tb.expect("configuration writes not OKAY", bad, [])
    got = await tb.reads([a for _, a, _ in cfg])
    for (lab, a, r), (v, resp) in zip(cfg, got):
        tb.expect(lab, (v, resp), (0 if _base(r.name) in LEFT_OUT else values[a], AxiResp.OKAY))
    if LEAVE_OUT:
        left = [lab for lab, _, r in cfg if _base(r.name) in LEFT_OUT]
        tb.expect("left-out registers checked", len(left) > 0, True)

    # status: the top's pattern of stat_value in every register, twice (no clear on read)
    sv = rng.randrange(1 << 32)
    dut.stat_value.value = sv
    await ClockCycles(dut.clk, 2)
    for rnd in range(2):
        got = await tb.reads([a for _, a, _, _ in stat])
        for (lab, _, p, r), (v, resp) in zip(stat, got):
            tb.expect(f"{lab} (read {rnd + 1})", (v, resp), (expected_status(r, p, sv), AxiResp.OKAY))

    # the admission core's half of the port: its (constant) data, not the switch block's
    (v, resp), = await tb.reads([0x00080])
    tb.expect("admission core's buffer_cells (constant MMU_DATA here)", (v, resp),
              (MMU_DATA, AxiResp.OKAY))
    # a port of the power-of-two address space the build does not have: OKAY, 0
    mmu_ports = 1 << (PORT_COUNT - 1).bit_length()
    if mmu_ports > PORT_COUNT:
        word = swr.SW_PORT_BASE + PORT_COUNT * swr.SW_PORT_STRIDE + swr.SW_PORT["rx_frames"].offset
        got = await tb.reads([word << swr.ADDR_SHIFT])
        tb.expect(f"port {PORT_COUNT} (absent) rx_frames", got[0], (0, AxiResp.OKAY))
    # errors: a word the map leaves out, a write to a status register, partial WSTRB
    gap = (swr.SW_GLOBAL_BASE << swr.ADDR_SHIFT) + 0x14
    assert all(r.offset << swr.ADDR_SHIFT != gap for r in swr.SW_GLOBALS.values())
    got = await tb.reads([gap])
    tb.expect(f"unmapped {gap:#x}", got[0], (0, AxiResp.SLVERR))
    rx0 = dict((lab, a) for lab, a, _, _ in regs)["sw_port[0].rx_frames"]
    resps = await tb.writes([(rx0, 5), (gap, 5)])
    tb.expect("write to rx_frames / unmapped", resps, [AxiResp.SLVERR, AxiResp.SLVERR])

    assert not tb.errors, f"{len(tb.errors)} differences: {tb.errors[:6]}"
    dut._log.info("%d configuration and %d status registers checked (%d ports)", len(cfg),
                  len(stat), PORT_COUNT)
