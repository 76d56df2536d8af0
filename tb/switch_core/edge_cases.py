"""switch_core bad-input tests (issue 18): every MAC Control class and every malformed data
frame class at switch level, each counted in its own per-port counter, the counters compared
with the classification model (models.rx_class), the admission core's requests and drops
with the golden admission model (SwitchTB's predictor), the buffer with the cell shadow map.

Frames are built with Scapy; per-byte tkeep / tuser lists of cocotbext-axi make the holes,
empty beats and mid-frame errors, the source's pause makes a stall."""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamFrame
from scapy.contrib.mac_control import MACControlClassBasedFlowControl, MACControlPause
from scapy.layers.l2 import Ether

from common import waits
from common.pfc_frames import pfc_frame
from models.rx_class import COUNTER, RxClass, RxConfig, RxFrame, acts, classify
from switch_core.sc_tb import (BUFFER_CELLS, DATA_WIDTH, MAX_FRAME, PORT_COUNT, SwitchTB,
                               drain_sink, frame, mac, make_config, split_rx)

KW = DATA_WIDTH // 8
PFC_DA = "01:80:c2:00:00:01"


def rx_cfg(tb: SwitchTB, port: int) -> RxConfig:
    return RxConfig(port_count=PORT_COUNT, max_frame_bytes=MAX_FRAME, keep_width=KW,
                    link_pause_enable=bool((tb.link_pause >> port) & 1),
                    stall_clocks=tb.stall_clocks)


def beat_keeps(keep: list[int]) -> tuple[int, ...]:
    """Per-byte tkeep (cocotbext-axi) to the tkeep of each beat."""
    out = []
    for b in range(0, len(keep), KW):
        out.append(sum((k & 1) << i for i, k in enumerate(keep[b:b + KW])))
    return tuple(out)


class Sent:
    """The frames one test sends, each with its class by the model, per port."""

    def __init__(self, tb: SwitchTB):
        self.tb = tb
        self.frames: dict[int, list[RxFrame]] = {p: [] for p in range(PORT_COUNT)}
        self.forwarded: dict[int, list[bytes]] = {p: [] for p in range(PORT_COUNT)}

    async def send(self, port: int, data: bytes, dest: int, *, tuser=0, keep=None,
                   what: str = "") -> RxClass:
        rx = RxFrame(data=data if keep is None else bytes(b for b, k in zip(data, keep) if k),
                     dest=dest, error=bool(tuser if isinstance(tuser, int) else any(tuser)),
                     keeps=None if keep is None else beat_keeps(keep))
        cls = classify(rx, rx_cfg(self.tb, port))
        self.frames[port].append(rx)
        if cls is RxClass.GOOD:
            self.forwarded[dest].append(data)
        f = AxiStreamFrame(data, tdest=dest, tuser=tuser)
        if keep is not None:
            f.tkeep = list(keep)
        await self.tb.sources[port].send(f)
        self.tb.log.info("sent %s on port %d: %s", what or "frame", port, cls.value)
        return cls

    def stalled(self, port: int, data: bytes, dest: int, stall: int) -> None:
        """A frame sent with a stall of ``stall`` clocks (the test makes the stall)."""
        rx = RxFrame(data=data, dest=dest, stall=stall)
        self.frames[port].append(rx)
        if classify(rx, rx_cfg(self.tb, port)) is RxClass.GOOD:
            self.forwarded[dest].append(data)

    async def check(self) -> None:
        """Counters per class equal the model's, every forwarded frame is a GOOD one, the
        admission core saw exactly the GOOD ones, the buffer drained (check_drained: the
        admission model's drops, the cell shadow map)."""
        tb = self.tb
        await tb.wait_idle()
        for p in range(PORT_COUNT):
            want = {c: 0 for c in COUNTER}
            for f in self.frames[p]:
                c = classify(f, rx_cfg(tb, p))
                if c in want:
                    want[c] += 1
            got = {c: tb.port_stat(name, p) for c, name in COUNTER.items()}
            assert got == want, f"port {p}: counters {_nz(got)} != model {_nz(want)}"
            assert tb.port_stat("stat_rx_frames", p) == len(self.frames[p]), f"port {p} rx"
        good = sum(classify(f, rx_cfg(tb, p)) is RxClass.GOOD
                   for p in range(PORT_COUNT) for f in self.frames[p])
        assert tb.requests == good, f"{tb.requests} admission requests, {good} good frames"
        for p in range(PORT_COUNT):
            data, _ = split_rx(drain_sink(tb.sinks[p]))
            got = sorted(bytes(f.tdata) for f in data)
            assert got == sorted(self.forwarded[p]), \
                f"port {p}: {len(got)} frames out, {len(self.forwarded[p])} expected"
        await tb.check_drained()


def _nz(d: dict) -> dict:
    return {c.value: n for c, n in d.items() if n}


def pause_frame(quanta: int) -> bytes:
    return bytes(Ether(dst=PFC_DA, src=mac(9)) / MACControlPause(pause_time=quanta))


def ctrl_frame(dst: str, ethertype: int, opcode: int) -> bytes:
    """A 60-byte frame with the given destination, EtherType and first two payload bytes."""
    head = Ether(dst=dst, src=mac(9), type=ethertype)
    return bytes(head) + opcode.to_bytes(2, "big") + bytes(60 - 16)


def prio_paused(tb: SwitchTB, port: int) -> int:
    return (int(tb.dut.stat_pause.value) >> (8 * port)) & 0xFF


@cocotb.test()
async def mac_control_one_decision(dut):
    """Every MAC Control class on port 2 (PAUSE disabled there): PFC acts, nothing else does;
    none is forwarded; a PFC frame with tuser on a middle beat is an error drop and pauses
    nothing (the bug of issue 18); EtherType 0x8808 to a unicast address and 0x8809 to
    01-80-C2-00-00-01 are consumed, not forwarded; each class in its counter."""
    tb = SwitchTB(dut, make_config(), link_pause=0)
    await tb.reset()
    s = Sent(tb)
    n = 0

    async def good(p=2, dst=3):
        nonlocal n
        n += 1
        await s.send(p, frame(p, dst, 0, n, 64 + n), dst, what="data")

    await good()
    xoff5 = pfc_frame(mac(9), 1 << 5, [0, 0, 0, 0, 0, 0xFFFF, 0, 0])
    assert await s.send(2, xoff5, 3, what="PFC XOFF prio 5") is RxClass.PFC
    await good()
    xoff6 = pfc_frame(mac(9), 1 << 6, [0, 0, 0, 0, 0, 0, 0xFFFF, 0])
    mid = [0] * len(xoff6)
    m0 = KW * (len(xoff6) // KW // 2)             # a middle beat (cocotbext-axi: the beat's
    mid[m0:m0 + KW] = [1] * KW                     # tuser is its last byte's)
    assert await s.send(2, xoff6, 3, tuser=mid, what="PFC, tuser mid-frame") is RxClass.ERROR
    assert await s.send(2, pause_frame(0xFFFF), 3, what="PAUSE (disabled)") is RxClass.PAUSE
    await good()
    assert await s.send(2, ctrl_frame(PFC_DA, 0x8808, 0x0002), 3,
                        what="opcode 0x0002") is RxClass.CTRL_UNKNOWN
    assert await s.send(2, ctrl_frame(mac(3), 0x8808, 0x0101), 3,
                        what="0x8808 unicast") is RxClass.CTRL_MALFORMED
    assert await s.send(2, ctrl_frame(PFC_DA, 0x8809, 0x0101), 3,
                        what="0x8809 to 01-80-C2-00-00-01") is RxClass.CTRL_MALFORMED
    assert await s.send(2, xoff6[:59], 3, what="PFC runt") is RxClass.RUNT
    # the reserved octet of the class-enable vector is ignored on receipt: still PFC
    xon = bytearray(bytes(Ether(dst=PFC_DA, src=mac(9)) /
                          MACControlClassBasedFlowControl(c5_enabled=1, c5_pause_time=0)))
    xon[16] = 0xA5
    await good()
    await tb.sources[2].wait()
    await ClockCycles(dut.clk, 20)
    assert prio_paused(tb, 2) == 1 << 5, f"pause {prio_paused(tb, 2):#x}: only prio 5 may act"
    assert await s.send(2, bytes(xon), 3, what="PFC XON, reserved octet set") is RxClass.PFC
    await tb.sources[2].wait()
    await ClockCycles(dut.clk, 20)
    assert prio_paused(tb, 2) == 0
    await s.check()
    assert sum(acts(classify(f, rx_cfg(tb, 2)), rx_cfg(tb, 2)) for f in s.frames[2]) == 2


@cocotb.test()
async def link_pause_per_port(dut):
    """802.3x PAUSE enabled on port 1 only: a PAUSE frame there pauses every priority of port
    1's egress until a PAUSE of time 0; the same frame on port 0 is counted and dropped and
    pauses nothing."""
    tb = SwitchTB(dut, make_config(), link_pause=0b0010)
    await tb.reset()
    s = Sent(tb)
    assert await s.send(1, pause_frame(0xFFFF), 0, what="PAUSE on port 1") is RxClass.PAUSE
    assert await s.send(0, pause_frame(0xFFFF), 1, what="PAUSE on port 0") is RxClass.PAUSE
    await tb.sources[1].wait()
    await tb.sources[0].wait()
    await ClockCycles(dut.clk, 20)
    assert prio_paused(tb, 1) == 0xFF and prio_paused(tb, 0) == 0
    held = [frame(0, 1, k, k, 80) for k in (0, 3, 7)]
    for f in held:
        await s.send(0, f, 1, what="data to paused port 1")
    await tb.sources[0].wait()
    await ClockCycles(dut.clk, 400)
    assert tb.port_stat("stat_tx_frames", 1) == 0, "a paused port sent a frame"
    assert await s.send(1, pause_frame(0), 0, what="PAUSE time 0") is RxClass.PAUSE
    await s.check()
    assert prio_paused(tb, 1) == 0


@cocotb.test()
async def malformed_data_frames(dut):
    """tkeep holes, an empty beat before tlast, an empty last beat, a non-contiguous last
    beat and a tdest beyond the ports: each dropped and counted, never forwarded corrupted;
    the good frames around them pass unchanged."""
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    s = Sent(tb)
    n = 0
    for p in (0, 3):
        dst = (p + 1) % PORT_COUNT
        for what in ("hole", "empty beat", "empty last beat", "split last beat", "bad dest"):
            n += 1
            f = frame(p, dst, 1, n, 200 + n)
            keep = [1] * len(f)
            data, dest = f, dst
            if what == "hole":
                keep[3 * KW + KW // 2] = 0              # one byte of beat 3
            elif what == "empty beat":
                data = f[:4 * KW] + bytes(KW) + f[4 * KW:]
                keep = [1] * (4 * KW) + [0] * KW + [1] * (len(f) - 4 * KW)
            elif what == "empty last beat":
                data = f + bytes(KW)
                keep = [1] * len(f) + [0] * KW
            elif what == "split last beat":
                if KW == 1:
                    data, keep = f + bytes(1), [1] * (len(f) - 1) + [0, 1]
                else:
                    whole = len(f) - len(f) % KW
                    data = f[:whole] + bytes([0xEE] * KW)
                    keep = [1] * whole + [1, 0] + [1] * (KW - 2)
            else:
                keep, dest = None, PORT_COUNT + 3
            cls = await s.send(p, data, dest, keep=keep, what=what)
            assert cls is not RxClass.GOOD, what
            n += 1
            await s.send(p, frame(p, dst, 1, n, 64 + n), dst, what="data")
    await s.check()


@cocotb.test()
async def stall_cut(dut):
    """A frame whose source stops for cfg_stall_clocks inside it is cut: its cells (several)
    return to the free list, it is counted once, nothing of it is forwarded, the rest of it is
    discarded when the source resumes; a shorter stall cuts nothing; traffic on the other ports
    goes on meanwhile."""
    stall = 300
    tb = SwitchTB(dut, make_config(), stall_clocks=stall)
    await tb.reset()
    s = Sent(tb)
    src = tb.sources[1]
    beats = 0

    async def count_beats():
        nonlocal beats
        while True:
            await RisingEdge(dut.clk)
            if int(dut.s1_axis_tvalid.value) and int(dut.s1_axis_tready.value):
                beats += 1

    counter = cocotb.start_soon(count_beats())
    for gap, n in ((stall - 50, 1), (stall + 200, 2)):
        await tb.wait_idle()                       # every cell free but the stalled frame's
        f = frame(1, 2, 3, n, 900)
        s.stalled(1, f, 2, gap)
        start = beats
        await src.send(AxiStreamFrame(f, tdest=2))
        # stop the source part-way through the frame (after 500 bytes: several cells held)
        await waits.until(dut.clk, lambda: beats - start >= 500 // KW, 20_000,
                          "500 bytes of the stalled frame")
        src.pause = True
        held = BUFFER_CELLS - int(dut.stat_free_cells.value)
        await s.send(0, frame(0, 3, 1, 50 + n, 100), 3, what="data on port 0 meanwhile")
        await ClockCycles(dut.clk, gap)
        if gap >= stall:
            assert int(dut.stat_free_cells.value) == BUFFER_CELLS, \
                f"cut frame's {held} cells not returned"
        src.pause = False
        await src.wait()
        await s.send(1, frame(1, 2, 3, 90 + n, 100), 2, what="data after the stall")
    await s.check()
    counter.kill()
    assert tb.port_stat("stat_drop_stall", 1) == 1


def big_frame(r, p: int, dst: int, i: int) -> bytes:
    """Long frames (many cells each), so the buffer's cells are handed out again soon."""
    return frame(p, dst, r.randrange(8), i, r.randint(700, MAX_FRAME))


@cocotb.test()
async def free_list_wrap(dut):
    """Random long frames until every cell was handed out more than twice (the free list's
    ring of returned cells wrapped at BUFFER_CELLS, which is 672 or 384 here): forwarding,
    admission and drops against the models, and the cell shadow map (random_run)."""
    from switch_core.switch_core_cases import random_run
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    # 64-byte cells, about 18 a frame (dropped frames take cells too): frames for 2.5 rounds
    # of the buffer with a margin, not scaled down on Icarus, as the wrap is the point
    total = (2 * BUFFER_CELLS + PORT_COUNT) * 5 // 4 // 16
    # the 384-cell buffer holds about 20 of these frames: with two sinks back-pressured at
    # 70 % a quarter admitted is legitimate (COCOTB_RANDOM_SEED 1795818605: 15 of 60, each
    # drop the golden model's), so the floor against a vacuous run is an eighth here; the
    # wrap itself is asserted below from the cells handed out
    await random_run(dut, tb, cocotb.RANDOM_SEED, total, make_frame=big_frame,
                     min_admitted=total // 8)
    dut._log.info("free_list_wrap: %d cells, %d frames, %d cells handed out, %d returned",
                  BUFFER_CELLS, total, tb.cells.allocs, tb.cells.frees)
    assert tb.cells.allocs > 2 * BUFFER_CELLS + PORT_COUNT, "the ring did not wrap"


@cocotb.test()
async def cell_map_catches_wrong_wrap(dut):
    """Negative: the free list whose ring wraps at a power of two (FREE_LIST_FAULT_INJECT)
    hands out a cell from past the ring's end; the cell shadow map must record it before
    every cell went round twice."""
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    import random
    r = random.Random(cocotb.RANDOM_SEED)
    n = 0

    async def sender(p):
        nonlocal n
        while not tb.cells.faults:
            n += 1
            dst = (p + 1) % PORT_COUNT
            await tb.send(p, big_frame(r, p, dst, n), dst)
            await tb.sources[p].wait()

    for p in range(PORT_COUNT):
        tb.sinks[p].clear_pause_generator()
        cocotb.start_soon(sender(p))
    await waits.until(dut.clk, lambda: tb.cells.faults or tb.cells.allocs > 3 * BUFFER_CELLS,
                      2_000_000, "a cell fault or three rounds of the buffer")
    assert tb.cells.faults, f"no fault seen in {tb.cells.allocs} allocations"
    dut._log.info("shadow map caught the wrong wrap after %d allocations: %s",
                  tb.cells.allocs, tb.cells.faults[0])
