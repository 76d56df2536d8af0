"""cfg_rom_boot alone: the image's writes in order and done, then the poll list read
round-robin, one read at a time, with poll_data entry i = the data of the last OKAY read of
entry i (0 before) checked every clock, and err set by a read answered SLVERR (sticky, the
entry kept, the round going on).  The slave is cocotbext-axi's AxiLiteSlave with a target
that answers after pfcmmu_csr's read latency (STAT_LATENCY + 1 clocks) and records the writes.
stale_entry_is_caught (expect_fail) is the per-clock check's negative: a model that misses
entry 0's reads."""

from __future__ import annotations

import logging
import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteSlave

from common import waits

ADDR_W = 18
# (byte address, value): a few writes in both maps' ranges
IMAGE = [(0x00080, 0x12345678), (0x20008, 0x00000400), (0x09004, 0xdeadbeef),
         (0x24050, 0x0000ffff), (0x00014, 0x80000001)]
# the poll list of the longest build; a build of POLL_COUNT n polls the first n
POLL_ADDRS = [0x00014, 0x20094, 0x2405c]
# pfcmmu_csr: RVALID STAT_LATENCY + 1 clocks after the AR handshake (STAT_LATENCY 6)
READ_LATENCY = 7
PERIOD = 10

POLL = [int(a, 0) for a in os.environ.get("CFG_ROM_BOOT_POLL", "0x14").split(",")]


class Target:
    """The slave's memory: records the writes; a read answers (address << 8) + the number of
    reads so far (a new value every read), after READ_LATENCY clocks, SLVERR (an exception)
    for an address in ``errors``."""

    def __init__(self, clk, errors: set[int] = frozenset()):
        self.clk = clk
        self.errors = set(errors)
        self.writes: list[tuple[int, int]] = []
        self.reads = 0

    async def write(self, address: int, data: bytes) -> None:
        self.writes.append((address, int.from_bytes(data, "little")))

    async def read(self, address: int, length: int) -> bytes:
        await ClockCycles(self.clk, READ_LATENCY)
        self.reads += 1
        if address in self.errors:
            raise ValueError(f"unmapped {address:#x}")
        return (((address << 8) + self.reads) & 0xFFFFFFFF).to_bytes(length, "little")


class PollMonitor:
    """At every falling edge: poll_data and err against the model (the handshakes of the
    clocks before), then this clock's AR and R handshakes.  ``miss_entry0``: a wrong model
    (the negative)."""

    def __init__(self, dut, miss_entry0: bool = False):
        self.dut = dut
        self.miss_entry0 = miss_entry0
        self.expected = [0] * len(POLL)
        self.err = False
        self.ar: list[tuple[int, int]] = []        # (clock, address)
        self.r: list[tuple[int, int, int]] = []    # (clock, data, resp)
        self.pending: list[int] = []
        self.mismatches: list[str] = []
        self.clock = 0
        cocotb.start_soon(self._run())

    def _poll_data(self) -> list[int]:
        v = int(self.dut.poll_data.value)
        return [(v >> (32 * i)) & 0xFFFFFFFF for i in range(len(POLL))]

    async def _run(self):
        d = self.dut
        while True:
            await FallingEdge(d.clk)
            self.clock += 1
            if int(d.rst.value):
                continue
            got = self._poll_data()
            if got != self.expected and len(self.mismatches) < 10:
                self.mismatches.append(f"clock {self.clock}: poll_data "
                                       f"{[hex(x) for x in got]}, model "
                                       f"{[hex(x) for x in self.expected]}")
            if bool(int(d.err.value)) != self.err and len(self.mismatches) < 10:
                self.mismatches.append(f"clock {self.clock}: err {int(d.err.value)}, model "
                                       f"{int(self.err)}")
            if int(d.m_axil_arvalid.value) and int(d.m_axil_arready.value):
                assert not self.pending, "a second AR before the R of the first"
                addr = int(d.m_axil_araddr.value)
                self.ar.append((self.clock, addr))
                self.pending.append(addr)
            if int(d.m_axil_rvalid.value) and int(d.m_axil_rready.value):
                addr = self.pending.pop(0)
                data, resp = int(d.m_axil_rdata.value), int(d.m_axil_rresp.value)
                self.r.append((self.clock, data, resp))
                i = POLL.index(addr)
                if resp != 0:
                    self.err = True
                elif not (self.miss_entry0 and i == 0):
                    self.expected[i] = data


async def boot(dut, errors: set[int] = frozenset(), miss_entry0: bool = False):
    cocotb.start_soon(Clock(dut.clk, PERIOD, unit="ns").start())
    target = Target(dut.clk, errors)
    slave = AxiLiteSlave(AxiLiteBus.from_prefix(dut, "m_axil"), dut.clk, dut.rst, target=target)
    # a line per access would bury the bench's own log
    slave.write_if.log.setLevel(logging.WARNING)
    slave.read_if.log.setLevel(logging.ERROR)
    dut.rst.value = 1
    mon = PollMonitor(dut, miss_entry0)
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await waits.until(dut.clk, lambda: int(dut.done.value), 20 * len(IMAGE) + 20, "done")
    assert target.writes == IMAGE, f"writes {target.writes}, image {IMAGE}"
    return target, mon


async def run_rounds(dut, mon: PollMonitor, rounds: int) -> None:
    n = rounds * len(POLL)
    await waits.until(dut.clk, lambda: len(mon.r) >= n, 4 * n * (READ_LATENCY + 4),
                      f"{n} polled reads")
    await ClockCycles(dut.clk, 2)


def round_robin(mon: PollMonitor) -> list[str]:
    return [f"read {k}: {a:#x}, entry {k % len(POLL)} is {POLL[k % len(POLL)]:#x}"
            for k, (_, a) in enumerate(mon.ar) if a != POLL[k % len(POLL)]]


@cocotb.test()
async def boots_then_polls(dut):
    """The image written in order, done, no err; then POLL_COUNT registers round-robin,
    poll_data right every clock."""
    target, mon = await boot(dut)
    assert not int(dut.err.value)
    await run_rounds(dut, mon, 4)
    assert not round_robin(mon), round_robin(mon)
    assert not mon.mismatches, mon.mismatches
    assert all(mon.expected), f"an entry never read: {mon.expected}"
    starts = [c for c, a in mon.ar if a == POLL[0]]
    dut._log.info("%d writes, then %d polled reads of %d registers; a round every %d clocks "
                  "(slave read latency %d)", len(target.writes), len(mon.r), len(POLL),
                  starts[1] - starts[0], READ_LATENCY)


@cocotb.test()
async def read_error_sets_err(dut):
    """The last entry's address answered SLVERR: err rises with that read and stays, the
    entry stays 0, the other entries are still read round-robin."""
    bad = POLL[-1]
    target, mon = await boot(dut, errors={bad})
    assert not int(dut.err.value), "err before the first polled read"
    await run_rounds(dut, mon, 3)
    assert not round_robin(mon), round_robin(mon)
    assert not mon.mismatches, mon.mismatches
    assert int(dut.err.value) and mon.err
    assert mon.expected[-1] == 0
    assert all(mon.expected[:-1]), mon.expected


@cocotb.test(expect_fail=True)
async def stale_entry_is_caught(dut):
    """Negative: a model that misses entry 0's reads disagrees with poll_data."""
    _, mon = await boot(dut, miss_entry0=True)
    await run_rounds(dut, mon, 2)
    assert not mon.mismatches, mon.mismatches
