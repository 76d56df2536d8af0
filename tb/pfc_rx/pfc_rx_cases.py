"""cocotb tests of pfc_rx (802.1Qbb PFC receiver).

Frames are built with Scapy (common.pfc_frames) and sent with cocotbext-axi's AxiStreamSource.
A per-clock reference model of the pause timers (quanta with 16 fraction bits, loaded on the
tlast edge of a good frame, decremented by cfg_quanta_step per clock) is compared with pause[7:0]
on every clock; durations are also measured and compared with quanta * 512 / bits_per_clock.
With IN_REG = 1 the model sees the tap through a one-clock delay line (the DUT's input register).
"""

from __future__ import annotations

import math
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSource
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from common.pfc_frames import PFC_DA, pfc_frame, pause_frame, with_fcs

DW = int(os.environ.get("PARAM_DATA_WIDTH", "8"))
# IN_REG 1: the tap is registered inside pfc_rx, so everything happens a clock later
IN_REG = int(os.environ.get("PARAM_IN_REG", "0"))
# LINK_PAUSE_ENABLE 1: 802.3x PAUSE frames pause every priority (else they are malformed)
LINK_PAUSE = int(os.environ.get("PARAM_LINK_PAUSE_ENABLE", "0"))
# PRIO_MASK: priorities with a timer (the board partners' build: 0x09); the others never pause
PRIO_MASK = int(os.environ.get("PARAM_PRIO_MASK", "255"))
SRC = "02:aa:bb:cc:dd:ee"


def step_for(bits_per_clock: float) -> int:
    """cfg_quanta_step: quanta per clock with 16 fraction bits."""
    return round(bits_per_clock / 512 * 65536)


# link speed / clock: 1 Gb/s at 125 MHz, 10 Gb/s at 156.25 MHz, 25 Gb/s at 322.265625 MHz
SPEEDS = {"1G@125MHz": 8.0, "10G@156.25MHz": 64.0, "25G@322.27MHz": 25e9 / 322.265625e6}


class RxModel:
    """Reference timers; ``expect`` is the queue of effects of the frames in send order."""

    def __init__(self, dut):
        self.dut = dut
        self.timer = [0] * 8
        # (good, enabled, times, PAUSE frame)
        self.expect: list[tuple[bool, int, list[int], bool]] = []
        self.errors: list[str] = []
        self.cycle = 0
        self.loads: list[tuple[int, int, int]] = []           # (cycle, priority, quanta)
        self.pause_log: list[int] = []
        self.is_pfc = 0
        self.delay = [False] * IN_REG     # frame ends on the tap, the oldest first
        cocotb.start_soon(self._run())

    async def _run(self):
        d = self.dut
        while True:
            await FallingEdge(d.clk)
            self.cycle += 1
            if int(d.rst.value):
                self.timer = [0] * 8
                self.pause_log.append(0)
                self.delay = [False] * IN_REG
                continue
            pause = int(d.pause.value)
            self.pause_log.append(pause)   # pause_log[c - 1] is clock c
            want = sum(1 << k for k in range(8) if self.timer[k] and (PRIO_MASK >> k) & 1)
            if pause != want:
                self.errors.append(f"cycle {self.cycle}: pause {pause:#04x} != model {want:#04x}")
            step = int(d.cfg_quanta_step.value)
            load = None
            end = bool(int(d.s_axis_tvalid.value) and int(d.s_axis_tlast.value))
            if IN_REG:
                self.delay.append(end)
                end = self.delay.pop(0)
            if end:
                good, en, times, link = self.expect.pop(0)
                if int(d.is_pfc.value) != (good and not link):
                    self.errors.append(f"cycle {self.cycle}: is_pfc {int(d.is_pfc.value)}")
                self.is_pfc += int(d.is_pfc.value)
                want_prio = en & 0xFF if good else 0
                if int(d.rx_pfc_prio.value) != want_prio:
                    self.errors.append(f"cycle {self.cycle}: rx_pfc_prio "
                                       f"{int(d.rx_pfc_prio.value):#04x} != {want_prio:#04x}")
                if good:
                    load = (en, times)
            elif int(d.rx_pfc_prio.value):
                self.errors.append(f"cycle {self.cycle}: rx_pfc_prio outside a frame's end")
            for k in range(8):
                if load and (load[0] >> k) & 1:
                    self.timer[k] = load[1][k] << 16
                    self.loads.append((self.cycle, k, load[1][k]))
                else:
                    self.timer[k] = max(0, self.timer[k] - step)

    def check(self):
        assert not self.errors, "\n".join(self.errors[:10])
        assert not self.expect, f"{len(self.expect)} frames never ended"

    def paused_clocks(self, k: int, from_cycle: int) -> int:
        """Clocks pause[k] stayed high from the clock after ``from_cycle`` on."""
        n = 0
        for p in self.pause_log[from_cycle:]:
            if not (p >> k) & 1:
                break
            n += 1
        return n


class TB:
    def __init__(self, dut):
        self.dut = dut
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.model = RxModel(dut)

    async def send(self, data: bytes, good: bool, en: int = 0, times=None, bad_fcs=False,
                   link: bool = False):
        """``bad_fcs``: tuser on the last beat (True) or a per-byte list; ``link``: a PAUSE
        frame (good: every priority loads ``times``)."""
        self.model.expect.append((good, en, list(times or [0] * 8), link))
        tuser = bad_fcs if isinstance(bad_fcs, list) else (1 if bad_fcs else 0)
        await self.source.send(AxiStreamFrame(data, tuser=tuser))
        await self.source.wait()
        await ClockCycles(self.dut.clk, 2 + IN_REG)   # counters and timers updated

    def stat(self, name, k=None):
        v = int(getattr(self.dut, name).value)
        return v if k is None else (v >> (32 * k)) & 0xFFFFFFFF


async def reset(dut, step):
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    dut.cfg_quanta_step.value = step
    dut.s_axis_tvalid.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    return TB(dut)


def times_of(**kw):
    t = [0] * 8
    for k, v in kw.items():
        t[int(k[1:])] = v
    return t


@cocotb.test()
async def pause_resume_timing(dut):
    """Pause duration = ceil(quanta * 512 / bits_per_clock) clocks at three link speeds;
    time 0 resumes at once; a clear enable bit leaves a running timer alone; XOFF restarts."""
    tb = await reset(dut, step_for(8))
    m = tb.model
    for name, bpc in SPEEDS.items():
        step = step_for(bpc)
        dut.cfg_quanta_step.value = step
        await RisingEdge(dut.clk)
        for with_crc in (False, True):
            t = times_of(c0=100, c3=7, c7=1000)
            await tb.send(pfc_frame(SRC, 0x89, t, with_crc), True, 0x89, t)
            load = m.loads[-1][0]
            await ClockCycles(dut.clk, math.ceil(1000 * 512 / bpc) + 10)
            for k, q in ((0, 100), (3, 7), (7, 1000)):
                got = m.paused_clocks(k, load)
                ideal = q * 512 / bpc
                dut._log.info("%s step=%#x FCS=%s: priority %d, %d quanta: paused %d clocks, "
                              "ideal %.2f", name, step, with_crc, k, q, got, ideal)
                # exact: ceil of the quanta counted with the rounded step; within one clock of
                # the ideal plus the step's rounding (< 0.5/65536 quanta per clock)
                assert got == math.ceil(q * 65536 / step)
                assert abs(got - ideal) <= 1 + q * 65536 * abs(step - bpc / 512 * 65536) / step ** 2
        # XON (time 0) resumes at once, enable bit clear leaves the timer alone
        t = times_of(c1=5000, c2=5000)
        await tb.send(pfc_frame(SRC, 0x06, t), True, 0x06, t)
        await ClockCycles(dut.clk, 20)
        t2 = times_of(c1=0, c2=3)               # c2 enabled? no: only c1 (XON); c2 time ignored
        await tb.send(pfc_frame(SRC, 0x02, t2), True, 0x02, t2)
        xon_cycle = m.loads[-1][0]
        assert m.paused_clocks(1, xon_cycle) == 0, "XON did not resume at once"
        await ClockCycles(dut.clk, 2)
        assert int(dut.pause.value) & 0x04, "priority 2 timer touched by a clear enable bit"
        # XOFF again before expiry restarts the timer
        t3 = times_of(c2=10)
        await tb.send(pfc_frame(SRC, 0x04, t3), True, 0x04, t3)
        restart = m.loads[-1][0]
        await ClockCycles(dut.clk, math.ceil(10 * 512 / bpc) + 5)
        assert m.paused_clocks(2, restart) == math.ceil(10 * 65536 / step)
    m.check()


@cocotb.test()
async def malformed_and_ignored(dut):
    """Wrong DA, wrong opcode (802.3x PAUSE too), bad FCS via tuser, runts and truncated
    PFC fields are discarded and counted once each; non-MAC-control frames are ignored and not
    counted; an all-clear enable vector is a good frame that changes nothing."""
    tb = await reset(dut, step_for(8))
    t = times_of(c0=300, c4=300)
    good = pfc_frame(SRC, 0x11, t)
    bad_opcode = bytearray(good)
    bad_opcode[15] = 0x02
    cases = [
        ("wrong DA", pfc_frame(SRC, 0x11, t, dst="01:80:c2:00:00:02"), False),
        ("wrong DA (unicast)", pfc_frame(SRC, 0x11, t, dst="02:00:00:00:00:01"), False),
        ("opcode 0x0102", bytes(bad_opcode), False),
    ] + ([] if LINK_PAUSE else [("802.3x PAUSE", pause_frame(SRC, 100), False)]) + [
        ("runt 59", good[:59], False),
        ("PFC fields truncated (30)", good[:30], False),
        ("runt 59 + FCS-like", with_fcs(good[:55]), False),
    ]
    n_mal = 0
    for what, data, _ in cases:
        await tb.send(data, False)
        n_mal += 1
        assert tb.stat("stat_malformed") == n_mal, what
        assert int(dut.pause.value) == 0, what
    await tb.send(with_fcs(good), False, bad_fcs=True)          # bad FCS flagged by the MAC
    n_mal += 1
    assert tb.stat("stat_malformed") == n_mal and int(dut.pause.value) == 0
    # not MAC Control: ignored, not counted
    ip = bytes(Ether(dst=PFC_DA, src=SRC) / IP() / UDP() / (b"\x01\x01" * 20))
    await tb.send(ip, False)
    await tb.send(ip[:20], False)
    await tb.send(bytes(12), False)                              # shorter than an EtherType
    other = bytearray(good)
    other[12:14] = b"\x88\x09"
    await tb.send(bytes(other), False)
    assert tb.stat("stat_malformed") == n_mal
    assert tb.stat("stat_pfc_frames") == 0
    # enable vector clear: a good frame, no timer touched
    await tb.send(pfc_frame(SRC, 0x00, t), True, 0x00, t)
    assert tb.stat("stat_pfc_frames") == 1 and int(dut.pause.value) == 0
    # the same frame, good: 60 octets, 64 with FCS, and longer (accepted: any length >= 60)
    await tb.send(good, True, 0x11, t)
    await tb.send(with_fcs(good), True, 0x11, t)
    await tb.send(good + bytes(10), True, 0x11, t)
    assert int(dut.pause.value) == 0x11
    assert tb.stat("stat_pfc_frames") == 4
    assert tb.stat("stat_xoff_rx", 0) == 3 and tb.stat("stat_xoff_rx", 4) == 3
    assert tb.stat("stat_xoff_rx", 1) == 0 and tb.stat("stat_xon_rx", 0) == 0
    assert tb.model.is_pfc == 4
    tb.model.check()


@cocotb.test()
async def tuser_mid_frame_and_pause(dut):
    """tuser on a middle beat (not the last) makes a PFC frame malformed: no timer moves (the
    issue-18 bug: only tuser on tlast was checked).  802.3x PAUSE: with LINK_PAUSE_ENABLE every
    priority pauses for pause_time quanta and time 0 resumes, counted in stat_pause_frames; a
    PAUSE with tuser mid-frame does nothing; without LINK_PAUSE_ENABLE a PAUSE is malformed."""
    tb = await reset(dut, step_for(8))
    kw = DW // 8
    t = times_of(c2=400)
    f = pfc_frame(SRC, 0x04, t)
    mid = [0] * len(f)
    m0 = kw * (len(f) // kw // 2)
    mid[m0:m0 + kw] = [1] * kw            # a middle beat (its tuser is its last byte's)
    await tb.send(f, False, bad_fcs=mid)
    assert int(dut.pause.value) == 0 and tb.stat("stat_malformed") == 1
    p = pause_frame(SRC, 300)
    if LINK_PAUSE:
        await tb.send(p, False, bad_fcs=mid[:len(p)], link=True)
        assert int(dut.pause.value) == 0 and tb.stat("stat_malformed") == 2
        await tb.send(p, True, 0xFF, [300] * 8, link=True)
        assert int(dut.pause.value) == 0xFF and tb.stat("stat_pause_frames") == 1
        assert tb.stat("stat_pfc_frames") == 0 and tb.stat("stat_xoff_rx", 7) == 1
        await tb.send(pause_frame(SRC, 0), True, 0xFF, [0] * 8, link=True)
        assert int(dut.pause.value) == 0 and tb.stat("stat_pause_frames") == 2
    else:
        await tb.send(p, False)
        assert int(dut.pause.value) == 0 and tb.stat("stat_malformed") == 2
        assert tb.stat("stat_pause_frames") == 0
    tb.model.check()


@cocotb.test()
async def random_frames(dut):
    """Random PFC frames (some malformed, some not MAC Control) with random gaps and idle
    beats inside frames; pause[7:0] equals the reference on every clock; counters match."""
    rng = random.Random(cocotb.RANDOM_SEED)
    dut._log.info("seed %d", cocotb.RANDOM_SEED)
    tb = await reset(dut, step_for(64.0 if DW == 64 else 8.0))
    tb.source.set_pause_generator(iter(lambda: rng.random() < 0.2, None))
    xoff = [0] * 8
    xon = [0] * 8
    good_n = mal_n = 0
    for _ in range(60):
        en = rng.randrange(256)
        t = [rng.choice([0, 0, 1, 2, 5, 20, 60]) for _ in range(8)]
        kind = rng.random()
        crc = rng.random() < 0.5
        if kind < 0.7:
            await tb.send(pfc_frame(SRC, en, t, crc), True, en, t)
            good_n += 1
            for k in range(8):
                if (en >> k) & 1:
                    if t[k]:
                        xoff[k] += 1
                    else:
                        xon[k] += 1
        elif kind < 0.8:
            await tb.send(pfc_frame(SRC, en, t, crc), False, bad_fcs=True)
            mal_n += 1
        elif kind < 0.9:
            await tb.send(pfc_frame(SRC, en, t)[:rng.randrange(14, 60)], False)
            mal_n += 1
        else:
            await tb.send(bytes(Ether(dst=PFC_DA, src=SRC) / IP() / UDP() / bytes(30)), False)
        await ClockCycles(dut.clk, rng.choice([0, 1, 5, 30]))
    await ClockCycles(dut.clk, 200)
    tb.model.check()
    assert tb.stat("stat_pfc_frames") == good_n and tb.stat("stat_malformed") == mal_n
    for k in range(8):
        assert tb.stat("stat_xoff_rx", k) == xoff[k] and tb.stat("stat_xon_rx", k) == xon[k]
    dut._log.info("%d good, %d malformed frames; %d timer loads checked clock by clock",
                  good_n, mal_n, len(tb.model.loads))


@cocotb.test(expect_fail=True)
async def model_catches_wrong_pause(dut):
    """Negative: the reference expects a pause the DUT does not apply (frame claimed good but
    sent with a wrong DA): the per-clock comparison must fail."""
    tb = await reset(dut, step_for(8))
    t = times_of(c5=50)
    await tb.send(pfc_frame(SRC, 0x20, t, dst="01:80:c2:00:00:0e"), True, 0x20, t)
    await ClockCycles(dut.clk, 10)
    tb.model.check()
