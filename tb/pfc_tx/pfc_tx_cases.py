"""cocotb tests of pfc_tx (IEEE 802.1Qbb frame generator).

The monitor samples the stream on every falling edge (so it sees exactly what the DUT samples
at the next rising edge), rebuilds each frame, parses it with Scapy and checks it field by field
against a reference of the rules in docs/pfc.md:

* the content is frozen when the first beat is accepted: enable bits = priorities whose state
  differs from what was last advertised, plus every priority in XOFF, plus the ones that started
  the frame; each enabled priority carries req_xoff as sampled at that clock;
* an idle output (or the clock of an accepted tlast) with a pending change starts a frame on
  the next clock (so no change is lost and the latency is one clock);
* a frame without a pending change is a refresh, and only once the refresh interval ran out;
* FCS (when the DUT appends it) equals zlib.crc32; counters equal the frames seen.
"""

from __future__ import annotations

import math
import os
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge

from common import waits
from common.pfc_frames import (OPCODE_PAUSE, OPCODE_PFC, FrameMismatch, check_pfc, fcs,
                               parse_pfc, tshark_decode, tshark_int, with_fcs, write_pcap)

DW = int(os.environ.get("PARAM_DATA_WIDTH", "8"))
FCS = int(os.environ.get("PARAM_FCS_ENABLE", "0"))
LINK = int(os.environ.get("PARAM_LINK_PAUSE_ENABLE", "0"))
KW = DW // 8
SRC = "02:11:22:33:44:55"
QUANTA = [0x1000 * (k + 1) + 0x11 * k for k in range(8)]
LINK_QUANTA = 0xABCD
# link speed per clock: DW bits per clock (e.g. 1 Gb/s at 125 MHz, 10 Gb/s at 156.25 MHz)
STEP = (DW << 16) // 512


def refresh_clocks(refresh_quanta: int, step: int = STEP) -> int:
    """Clocks from the freezing of one frame until the next refresh may start (docs/pfc.md)."""
    return math.ceil(refresh_quanta * 65536 / step)


class TxMonitor:
    """Passive monitor + reference of pfc_tx's frame rules (see module docstring)."""

    def __init__(self, dut, refresh_quanta: int):
        self.dut = dut
        self.n_due = refresh_clocks(refresh_quanta) if refresh_quanta else None
        self.cycle = 0
        self.adv = 0            # PFC state last advertised (frozen)
        self.link_adv = 0
        self.frames: list[dict] = []
        self.errors: list[str] = []
        self.cur = None
        self.prev = None        # (req, lreq, tvalid, last handshake) of the previous cycle
        self.last_freeze = {OPCODE_PFC: None, OPCODE_PAUSE: None}
        cocotb.start_soon(self._run())

    def _err(self, msg):
        self.errors.append(f"cycle {self.cycle}: {msg}")

    async def _run(self):
        d = self.dut
        while True:
            await FallingEdge(d.clk)
            self.cycle += 1
            if int(d.rst.value):
                self.prev = None
                continue
            req = int(d.req_xoff.value)
            lreq = int(d.req_link_pause.value) if LINK else 0
            tv = int(d.m_axis_tvalid.value)
            tr = int(d.m_axis_tready.value)
            if self.prev is not None:
                p_req, p_lreq, p_tv, p_lasths = self.prev
                could_start = not p_tv or p_lasths
                pending = (p_req ^ self.adv) or (p_lreq != self.link_adv)
                if could_start and pending and not tv:
                    self._err(f"pending change {p_req:#x}/{self.adv:#x} started no frame")
                if tv and could_start:
                    self.cur = {"start": self.cycle - 1, "req_s": p_req, "adv_s": self.adv,
                                "data": bytearray(), "first": None}
            lasths = 0
            if tv and tr:
                c = self.cur
                if c["first"] is None:
                    c.update(first=self.cycle, req_f=req, lreq_f=lreq)
                data = int(d.m_axis_tdata.value).to_bytes(KW, "little")
                keep = int(d.m_axis_tkeep.value)
                c["data"] += bytes(data[i] for i in range(KW) if (keep >> i) & 1)
                if int(d.m_axis_tuser.value):
                    self._err("tuser set")
                if int(d.m_axis_tlast.value):
                    lasths = 1
                    self._finish(c)
                    self.cur = None
            self.prev = (req, lreq, tv, lasths)

    def _finish(self, c):
        raw = bytes(c["data"])
        try:
            st = parse_pfc(raw, bool(FCS))
        except FrameMismatch as e:
            self._err(f"bad frame {raw.hex()}: {e}")
            return
        frame = {"raw": raw, "start": c["start"], "first": c["first"], "state": st,
                 "req_f": c["req_f"], "refresh": False}
        if st.opcode == OPCODE_PFC:
            req_s, req_f = c["req_s"], c["req_f"]
            start_set = (req_s ^ c["adv_s"]) | req_s
            en = (req_f ^ self.adv) | req_f | start_set
            try:
                check_pfc(raw, bool(FCS), SRC, req_f, en, QUANTA)
            except FrameMismatch as e:
                self._err(f"frame {len(self.frames)} (req {req_f:#04x}, adv {self.adv:#04x}): {e}")
            if req_s == c["adv_s"]:
                # no change pending at the start: must be a due refresh
                frame["refresh"] = True
                last = self.last_freeze[OPCODE_PFC]
                if self.n_due is None or c["adv_s"] == 0 or last is None \
                        or c["start"] - last - 1 < self.n_due:
                    self._err(f"spurious frame at {c['start']} (last freeze {last})")
            self.adv = (self.adv & ~en) | (req_f & en)
        else:
            want = LINK_QUANTA if c["lreq_f"] else 0
            if not LINK or st.link_time != want or st.src != SRC:
                self._err(f"link PAUSE time {st.link_time} != {want}")
            if c["lreq_f"] == self.link_adv:
                frame["refresh"] = True
            self.link_adv = c["lreq_f"]
        self.last_freeze[st.opcode] = c["first"]
        self.frames.append(frame)

    def check(self):
        assert not self.errors, "\n".join(self.errors[:10])

    def pfc_frames(self):
        return [f for f in self.frames if f["state"].opcode == OPCODE_PFC]


async def reset(dut, refresh_quanta=0x7FFF, step=STEP):
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    dut.req_xoff.value = 0
    dut.req_link_pause.value = 0
    dut.m_axis_tready.value = 1
    dut.cfg_src_mac.value = int(SRC.replace(":", ""), 16)
    dut.cfg_pause_quanta.value = sum(q << (16 * k) for k, q in enumerate(QUANTA))
    dut.cfg_refresh_quanta.value = refresh_quanta
    dut.cfg_quanta_step.value = step
    dut.cfg_link_pause_quanta.value = LINK_QUANTA
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    await RisingEdge(dut.clk)


async def wait_idle(dut, clocks=8, limit=20_000):
    """Until busy has been low for ``clocks`` clocks in a row (at most ``limit`` clocks)."""
    quiet = 0

    def quiet_long_enough():
        nonlocal quiet
        quiet = 0 if int(dut.busy.value) else quiet + 1
        return quiet >= clocks

    await RisingEdge(dut.clk)
    await waits.until(dut.clk, quiet_long_enough, limit, f"pfc_tx busy low for {clocks} clocks")


async def set_req(dut, value):
    dut.req_xoff.value = value
    await RisingEdge(dut.clk)


def stat(dut, name, k):
    return (int(getattr(dut, name).value) >> (32 * k)) & 0xFFFFFFFF


def check_counters(dut, mon):
    for k in range(8):
        xoff = sum(1 for f in mon.pfc_frames() if (f["state"].xoff() >> k) & 1)
        xon = sum(1 for f in mon.pfc_frames() if (f["state"].xon() >> k) & 1)
        assert stat(dut, "stat_xoff_frames", k) == xoff, f"stat_xoff_frames[{k}]"
        assert stat(dut, "stat_xon_frames", k) == xon, f"stat_xon_frames[{k}]"


async def tready_random(dut, rng, p_ready):
    while True:
        dut.m_axis_tready.value = 1 if rng.random() < p_ready else 0
        await RisingEdge(dut.clk)


@cocotb.test()
async def reaction_latency(dut):
    """req_xoff rising on an idle output: tvalid within 2 clocks (measured and printed)."""
    await reset(dut)
    mon = TxMonitor(dut, 0x7FFF)
    worst = 0
    for k in range(8):
        for value in (1 << k, 0):
            await wait_idle(dut)
            dut.req_xoff.value = value     # sampled by the DUT at the next rising edge
            clocks = 0
            while True:
                await RisingEdge(dut.clk)
                clocks += 1
                await ReadOnly()
                if int(dut.m_axis_tvalid.value):
                    break
                assert clocks < 10, "no frame"
            worst = max(worst, clocks)
    await wait_idle(dut)
    dut._log.info("XOFF-to-first-beat latency: %d clock(s) (req_xoff change at clock n, "
                  "tvalid at clock n+%d), DATA_WIDTH=%d", worst, worst, DW)
    assert worst <= 2
    mon.check()
    assert len(mon.frames) == 16
    check_counters(dut, mon)


@cocotb.test()
async def all_priorities(dut):
    """Each priority XOFF then XON alone, then all eight together; frames exact, counters."""
    await reset(dut)
    mon = TxMonitor(dut, 0x7FFF)
    for k in range(8):
        await set_req(dut, 1 << k)
        await wait_idle(dut)
        await set_req(dut, 0)
        await wait_idle(dut)
    await set_req(dut, 0xFF)
    await wait_idle(dut)
    await set_req(dut, 0x0F)
    await wait_idle(dut)
    await set_req(dut, 0x00)
    await wait_idle(dut)
    mon.check()
    got = [(f["state"].enabled, f["state"].xoff()) for f in mon.frames]
    want = []
    for k in range(8):
        want += [(1 << k, 1 << k), (1 << k, 0)]
    want += [(0xFF, 0xFF), (0xFF, 0x0F), (0x0F, 0)]
    assert got == want, got
    check_counters(dut, mon)
    for k in range(8):
        assert stat(dut, "stat_xoff_frames", k) == 2 + (k < 4)


@cocotb.test()
async def merge_and_backpressure(dut):
    """Changes while the first beat waits merge into that frame; a change after it was
    accepted sends another frame, carrying the then-current state."""
    await reset(dut)
    mon = TxMonitor(dut, 0x7FFF)
    dut.m_axis_tready.value = 0
    await set_req(dut, 0x01)
    await set_req(dut, 0x03)          # merged
    await set_req(dut, 0x13)          # merged
    await set_req(dut, 0x12)          # priority 0 back to XON before the frame went: merged
    await ClockCycles(dut.clk, 5)
    dut.m_axis_tready.value = 1
    await RisingEdge(dut.clk)         # first beat accepted: content frozen
    dut.m_axis_tready.value = 0
    await set_req(dut, 0x02)          # after the freeze: another frame
    await ClockCycles(dut.clk, 20)
    dut.m_axis_tready.value = 1
    await wait_idle(dut)
    mon.check()
    got = [(f["state"].enabled, f["state"].xoff()) for f in mon.frames]
    # frame 1: 0, 1, 4 enabled (0 started the frame, is now XON); frame 2: 4 -> XON, 1 refreshed
    assert got == [(0x13, 0x12), (0x12, 0x02)], got
    check_counters(dut, mon)


@cocotb.test()
async def random_toggle_backpressure(dut):
    """Rapid random XOFF/XON toggling under random back-pressure: every frame matches the
    reference, no change is lost, the last frame advertises the final state."""
    rng = random.Random(cocotb.RANDOM_SEED)
    dut._log.info("seed %d", cocotb.RANDOM_SEED)
    await reset(dut)
    mon = TxMonitor(dut, 0x7FFF)
    for p_ready in (0.9, 0.3, 0.05):
        task = cocotb.start_soon(tready_random(dut, rng, p_ready))
        req = 0
        for _ in range(60 if DW == 8 else 120):
            mode = rng.random()
            if mode < 0.4:
                req ^= 1 << rng.randrange(8)             # one priority
            elif mode < 0.6:
                req = rng.randrange(256)                 # many at once
            else:
                b = 1 << rng.randrange(8)                # quick toggle: XOFF, XON
                req ^= b
                await set_req(dut, req)
                req ^= b
            await set_req(dut, req)
            await ClockCycles(dut.clk, rng.choice([0, 0, 1, 2, 3, 10, 40, 100]))
        task.cancel()
        dut.m_axis_tready.value = 1
        await wait_idle(dut)
        assert mon.adv == int(dut.req_xoff.value), "final state not advertised"
    mon.check()
    dut._log.info("%d frames, %d with enable bits from more than one change", len(mon.frames),
                  sum(1 for f in mon.frames if bin(f["state"].enabled).count("1") > 1))
    check_counters(dut, mon)


@cocotb.test()
async def refresh_timing(dut):
    """While XOFF lasts a refresh goes every ceil(R*65536/step)+2 clocks (tready high), with
    every XOFF priority; XON stops it; refresh 0 disables it."""
    R = 8 if DW == 8 else 40
    await reset(dut, refresh_quanta=R)
    mon = TxMonitor(dut, R)
    n_due = refresh_clocks(R)
    await set_req(dut, 0x21)
    await ClockCycles(dut.clk, 4 * (n_due + 2) + 10)
    await set_req(dut, 0x20)
    await ClockCycles(dut.clk, 2 * (n_due + 2) + 10)
    await set_req(dut, 0x00)
    await ClockCycles(dut.clk, 3 * n_due)
    mon.check()
    firsts = [f["first"] for f in mon.frames]
    gaps = [b - a for a, b in zip(firsts, firsts[1:])]
    dut._log.info("refresh R=%d quanta, step=%#x: frames at %s, gaps %s (expected %d)",
                  R, STEP, firsts, gaps, n_due + 2)
    kinds = [(f["refresh"], f["state"].enabled, f["state"].xoff()) for f in mon.frames]
    assert [k for k in kinds if k[0]] and all(k[1] == k[2] for k in kinds if k[0]), kinds
    for f, g in zip(mon.frames[1:], gaps):
        if f["refresh"]:
            assert g == n_due + 2, gaps
    # the interval in quanta must stay below the pause time it refreshes
    assert (n_due + 2) * STEP / 65536 < min(QUANTA)
    assert not mon.frames[-1]["state"].xoff()
    n = len(mon.frames)
    # refresh off
    dut.cfg_refresh_quanta.value = 0
    await set_req(dut, 0x80)
    await ClockCycles(dut.clk, 4 * n_due)
    await set_req(dut, 0x00)
    await wait_idle(dut)
    mon.check()
    assert len(mon.frames) == n + 2
    check_counters(dut, mon)


@cocotb.test()
async def link_pause(dut):
    """LINK_PAUSE_ENABLE: 802.3x PAUSE on req_link_pause (time, XON, refresh), interleaved
    with PFC frames; without the parameter req_link_pause does nothing."""
    R = 8 if DW == 8 else 40
    await reset(dut, refresh_quanta=R)
    mon = TxMonitor(dut, R)
    n_due = refresh_clocks(R)
    dut.req_link_pause.value = 1
    dut.req_xoff.value = 0x04
    await RisingEdge(dut.clk)
    await ClockCycles(dut.clk, 2 * n_due + 40)
    dut.req_link_pause.value = 0
    dut.req_xoff.value = 0
    await RisingEdge(dut.clk)
    await wait_idle(dut)
    mon.check()
    links = [f for f in mon.frames if f["state"].opcode == OPCODE_PAUSE]
    if not LINK:
        assert not links
        return
    assert links[0]["state"].link_time == LINK_QUANTA and not links[0]["refresh"]
    assert any(f["refresh"] for f in links), "no link refresh"
    assert links[-1]["state"].link_time == 0
    assert int(dut.stat_link_xoff_frames.value) == len(links) - 1
    assert int(dut.stat_link_xon_frames.value) == 1
    check_counters(dut, mon)


@cocotb.test()
async def pause_pfc_fairness(dut):
    """LINK_PAUSE_ENABLE: with a PFC change and a PAUSE change always pending (each request
    flipped again as soon as a frame of its kind has frozen it), under random back-pressure,
    the frames alternate PFC / PAUSE: neither kind starves the other (pfc_tx picks the kind
    not sent last; a fixed priority sends one kind only and fails here)."""
    if not LINK:
        return
    import random
    rng = random.Random(cocotb.RANDOM_SEED)
    await reset(dut, refresh_quanta=0)
    mon = TxMonitor(dut, 0)
    bp = cocotb.start_soon(tready_random(dut, rng, 0.6))
    # both kinds pending from the start, and each made pending again in the clock after a
    # frame of its kind froze its content (first beat accepted: first_*_reg with tready), so
    # both are pending at every frame start
    req, lreq = 0x10, 1
    dut.req_xoff.value = req
    dut.req_link_pause.value = lreq
    for _ in range(400):
        await FallingEdge(dut.clk)
        ready = int(dut.m_axis_tready.value)
        freeze_pfc = ready and int(dut.first_pfc_reg.value)
        freeze_link = ready and int(dut.first_link_reg.value)
        await RisingEdge(dut.clk)
        if freeze_pfc:
            req ^= 0x10
        if freeze_link:
            lreq ^= 1
        dut.req_xoff.value = req
        dut.req_link_pause.value = lreq
    await RisingEdge(dut.clk)
    dut.req_xoff.value = 0
    dut.req_link_pause.value = 0
    bp.kill()
    dut.m_axis_tready.value = 1
    await wait_idle(dut)
    mon.check()
    kinds = "".join("P" if f["state"].opcode == OPCODE_PFC else "L" for f in mon.frames)
    dut._log.info("fairness: %d frames %s", len(kinds), kinds)
    assert kinds.count("P") >= 8 and kinds.count("L") >= 8, kinds
    # both kinds pending at every start: strict alternation; the last two frames follow the
    # end of the stimulus
    body = kinds[:-2]
    assert "PP" not in body and "LL" not in body, f"a kind went twice in a row: {kinds}"


@cocotb.test()
async def pause_refresh_spacing(dut):
    """LINK_PAUSE_ENABLE: while req_link_pause holds, a PAUSE refresh goes every
    ceil(R*65536/step)+2 clocks, alone and beside a PFC XOFF that refreshes too (a PFC frame in
    the way delays it by at most one frame); a refresh that fired every clock, or never, fails
    here, not as a hung test."""
    if not LINK:
        return
    R = 40
    await reset(dut, refresh_quanta=R)
    mon = TxMonitor(dut, R)
    n_due = refresh_clocks(R)
    frame_clocks = 64 // KW + 2
    for with_pfc in (False, True):
        start = len(mon.frames)
        dut.req_xoff.value = 0x08 if with_pfc else 0
        dut.req_link_pause.value = 1
        await RisingEdge(dut.clk)
        await ClockCycles(dut.clk, 5 * (n_due + 2) + 10)
        dut.req_xoff.value = 0
        dut.req_link_pause.value = 0
        await RisingEdge(dut.clk)
        await wait_idle(dut)
        mon.check()
        links = [f for f in mon.frames[start:] if f["state"].opcode == OPCODE_PAUSE]
        firsts = [f["first"] for f in links if f["state"].link_time]
        gaps = [b - a for a, b in zip(firsts, firsts[1:])]
        dut._log.info("PAUSE refresh (PFC XOFF too: %s): gaps %s, expected %d", with_pfc,
                      gaps, n_due + 2)
        assert len(gaps) >= 4, f"{len(firsts)} PAUSE frames: refresh missing"
        if with_pfc:
            assert all(n_due + 2 <= g <= n_due + 2 + frame_clocks for g in gaps), gaps
        else:
            assert all(g == n_due + 2 for g in gaps), gaps
        assert links[-1]["state"].link_time == 0


@cocotb.test()
async def pcap_tshark(dut):
    """Every frame sent goes into sim_build/.../pfc_tx.pcap (with FCS); tshark decodes it as
    Class Based Flow Control with the right vector, times and a good FCS."""
    await reset(dut)
    mon = TxMonitor(dut, 0x7FFF)
    for v in (0x01, 0x81, 0xFF, 0x7E, 0x00, 0x55, 0xAA, 0x00):
        await set_req(dut, v)
        await wait_idle(dut)
    mon.check()
    frames = [f["raw"] if FCS else with_fcs(f["raw"]) for f in mon.frames]
    path = Path.cwd() / "pfc_tx.pcap"
    write_pcap(path, frames)
    dut._log.info("wrote %d frames to %s (FCS %s)", len(frames), path,
                  "from the DUT" if FCS else "appended by the testbench: FCS_ENABLE=0")
    rows = tshark_decode(path)
    if rows is None:
        dut._log.warning("tshark not installed: pcap decode check SKIPPED")
        return
    assert len(rows) == len(frames)
    for f, row in zip(mon.frames, rows):
        st = f["state"]
        assert tshark_int(row["macc.opcode"]) == OPCODE_PFC, row
        assert tshark_int(row["macc.cbfc.enbv"]) == st.enabled, row
        for k in range(8):
            assert int(row[f"macc.cbfc.pause_time.c{k}"]) == st.times[k], row
        assert row["eth.fcs.status"] == "1", f"tshark says FCS bad: {row}"
    dut._log.info("tshark: %d frames decoded as Class Based Flow Control, vectors %s, "
                  "FCS good", len(rows), [r["macc.cbfc.enbv"] for r in rows])


@cocotb.test()
async def scoreboard_catches_wrong_frame(dut):
    """Negative: corrupted copies of a real DUT frame are rejected by the checker."""
    await reset(dut)
    mon = TxMonitor(dut, 0x7FFF)
    await set_req(dut, 0x09)
    await wait_idle(dut)
    mon.check()
    good = mon.frames[0]["raw"]
    check_pfc(good, bool(FCS), SRC, 0x09, 0x09, QUANTA)

    def corrupt(off, xor=0x01):
        b = bytearray(good)
        b[off] ^= xor
        return bytes(b)

    bad = {"DA": corrupt(0), "EtherType": corrupt(13), "opcode": corrupt(15),
           "enable": corrupt(17, 0x02), "time": corrupt(19), "pad": corrupt(50),
           "length": good[:-1]}
    if FCS:
        bad["FCS"] = corrupt(62)
        bad["data under good-looking FCS"] = corrupt(20)
    for what, raw in bad.items():
        try:
            check_pfc(raw, bool(FCS), SRC, 0x09, 0x09, QUANTA)
        except FrameMismatch as e:
            dut._log.info("checker rejects %s: %s", what, e)
        else:
            raise AssertionError(f"checker accepted a frame with a corrupted {what}")
    # wrong expectation (state the DUT did not send) is also caught
    for xoff, en in ((0x08, 0x09), (0x09, 0x0B)):
        try:
            check_pfc(good, bool(FCS), SRC, xoff, en, QUANTA)
        except FrameMismatch:
            pass
        else:
            raise AssertionError("checker accepted a wrong state")
    assert fcs(good[:60]) == (good[60:] if FCS else fcs(good))
