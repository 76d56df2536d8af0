"""Loop testbench (tb/loop/loop_top.v): configuration from models.loop, the host that injects
the looping flow and honours its switch's PFC, counters and checkers.

Checkers (each has a negative case in loop_cases.py):

* the admission predictor: per switch, tb/common/mmu_bus.py (an MmuMonitor on its mmu_core, an
  MmuPredictor stepping models.mmu_pipe.PipelinedMmu on every clock from mmu_core's requests, releases and configuration writes) must
  give every response and every pfc_xoff change of mmu_core on its clock, and the writes at
  mmu_core's port must be exactly the model's register image (written over AXI4-Lite);
* the watchdog scoreboard: per switch and port, models.watchdog.Watchdog fed every clock with
  the RTL watchdog's inputs (pfc_rx pause, queue busy, PFC pulses) must show the same state
  and storm counters as stat_wd_storm / stat_wd_disabled / stat_wd_storms, and the detection
  latency (first clock of the paused-and-busy condition to the storm flag) is measured;
* progress: models.loop.check_progress over the clocks at which data frames moved on ring
  links (DeadlockError when a whole window passes without one while frames wait), and the
  deadlock check (the opposite: nothing moved for the window, every ring egress paused with
  frames queued, every ring ingress PG in XOFF);
* conservation: every injected frame is queued in a switch, expired out of a host port, or
  counted as dropped (admission drop counters, watchdog discards, TTL-expired frames checked
  byte by byte: TTL 0, IPv4 checksum valid, payload intact).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw

from models.loop import (ALT_DSCP, PORT_HOST, PORT_NEXT, PORT_PREV, PORTS, LoopConfig,
                         check_progress, loop_mmu_config, loop_prevention, pause_clocks)
from common import switch_regs, waits
from common.mmu_axil import MmuAxil
from models.swconfig import SwitchConfig, WatchdogPort
from common.mmu_bus import (SWITCH_RST_LAT, MmuMonitor, MmuPredictor, drained_status_addrs,
                            mmu_ports)
from models.mmu import REASON_COUNT
from models.prevention import PreventionConfig, csum_update, prevention_remap
from models.watchdog import DISABLED, STORM, Watchdog, WatchdogConfig

SWITCHES = int(os.environ.get("PARAM_SWITCH_COUNT", "3"))
CELL_BYTES = int(os.environ.get("PARAM_CELL_BYTES", "96"))
BUFFER_CELLS = int(os.environ.get("PARAM_BUFFER_CELLS", "64"))
LINK_DELAY = int(os.environ.get("PARAM_LINK_DELAY", "4"))
WATCHDOG_ENABLE = int(os.environ.get("PARAM_WATCHDOG_ENABLE", "0"))
PREVENT_ENABLE = int(os.environ.get("PARAM_PREVENT_ENABLE", "0"))
GROUP_W = int(os.environ.get("PARAM_GROUP_W", "2"))
CELL_W = 16
PFC_DA = bytes.fromhex("0180c2000001")


# lossless headroom per PG in cells: models.loop's 8 plus 2 for the line-rate admission core,
# whose XOFF follows 14 clocks after the request (and whose view charges the frames in flight
# in full): with 8 the deadlocking loop dropped 2 lossless frames
HEADROOM = 10


def loop_config(**kw) -> LoopConfig:
    """The models.loop configuration this build runs (switch_core parameters from the build)."""
    kw.setdefault("headroom", HEADROOM)
    return LoopConfig(switches=SWITCHES, cell_bytes=CELL_BYTES, buffer_cells=BUFFER_CELLS,
                      link_delay=LINK_DELAY, **kw)


def is_pfc(data: bytes) -> bool:
    return len(data) >= 14 and data[0:6] == PFC_DA and data[12:14] == b"\x88\x08"


def host_mac(s: int) -> str:
    return f"02:00:00:00:aa:{s:02x}"


def ring_frame(src: int, seq: int, prio: int, ttl: int, length: int) -> bytes:
    """Ether / 802.1Q (PCP prio) / IPv4 (TTL ttl) / UDP / payload (src, seq) of ``length``
    bytes (no FCS)."""
    body = b"LOOP" + src.to_bytes(1, "big") + seq.to_bytes(4, "big")
    pkt = (Ether(dst="02:00:00:00:bb:00", src=host_mac(src)) / Dot1Q(prio=prio, vlan=10)
           / IP(src=f"10.0.{src}.1", dst="10.9.9.9", ttl=ttl, id=seq & 0xFFFF)
           / UDP(sport=4791, dport=4791) / Raw(body))
    raw = bytes(pkt)
    assert len(raw) <= length
    return raw + bytes(length - len(raw))


def parse_ring_frame(data: bytes) -> tuple[int, int, int, int, bool, int]:
    """(src, seq, pcp, ttl, checksum ok, dscp) of a frame built by ring_frame after any number
    of hops: the IPv4 checksum is recomputed by Scapy and compared with the one received."""
    pkt = Ether(data)
    ip = pkt[IP]
    got = ip.chksum
    ip2 = IP(bytes(ip))
    ip2.chksum = None
    ok = IP(bytes(ip2)).chksum == got
    body = bytes(pkt[UDP].payload)
    assert body[:4] == b"LOOP", body[:8]
    return body[4], int.from_bytes(body[5:9], "big"), pkt[Dot1Q].prio, ip.ttl, ok, ip.tos >> 2


def router_hop(data: bytes) -> bytes:
    """What loop_router does to a tagged IPv4 frame: TTL - 1 (a TTL of 0 stays), checksum
    updated by RFC 1624 eq. 3 (models.prevention.csum_update) over the word {TTL, protocol}."""
    d = bytearray(data)
    ttl, proto = d[26], d[27]
    new = ttl - 1 if ttl else 0
    hc = int.from_bytes(d[28:30], "big")
    d[28:30] = csum_update(hc, ttl << 8 | proto, new << 8 | proto).to_bytes(2, "big")
    d[26] = new
    return bytes(d)


def expected_expired(cfg: LoopConfig, src: int, seq: int) -> tuple[int, bytes]:
    """(switch whose host port it leaves by, bytes) of frame ``seq`` injected by host ``src``:
    every ring hop is loop_router (TTL) then switch_core's prevention (models.prevention)
    towards the egress port the router chose, until the TTL reaches 0."""
    pcfg = loop_prevention(cfg)
    data = ring_frame(src, seq, cfg.prio, cfg.ttl, cfg.frame_bytes)
    data = prevention_remap(pcfg, PORT_HOST, PORT_NEXT, data).data
    s = src
    for _ in range(256):  # the 8-bit TTL falls by one a hop
        s = (s + 1) % SWITCHES
        data = router_hop(data)
        out = PORT_HOST if data[26] == 0 else PORT_NEXT
        data = prevention_remap(pcfg, PORT_PREV, out, data).data
        if out == PORT_HOST:
            return s, data
    raise AssertionError(f"frame {seq} of host {src} still in the ring after 256 hops")


def val(h) -> int:
    return int(h.value)


def field_of(vec: int, idx: int, width: int) -> int:
    return (vec >> (idx * width)) & ((1 << width) - 1)


@dataclass
class Expired:
    host: int          # switch whose host port it left by
    src: int
    seq: int
    pcp: int
    ttl: int
    csum_ok: bool
    dscp: int
    data: bytes


@dataclass
class HostStats:
    injected: int = 0
    expired: list = field(default_factory=list)   # Expired
    pfc_rx: int = 0


def _longest(stretches: list, now: int) -> int | None:
    best = None
    for start, end in stretches:
        n = (now if end is None else end) - start
        if best is None or n > best[0]:
            best = (n, start)
    return None if best is None else best[1]


class LoopTB:
    def __init__(self, dut, cfg: LoopConfig, wd: WatchdogConfig | None = None,
                 model_cfg: LoopConfig | None = None,
                 model_wd: WatchdogConfig | None = None) -> None:
        """``cfg`` / ``wd`` configure the RTL; the golden models use the same unless
        ``model_cfg`` / ``model_wd`` are given (negative tests: a wrong model must be caught)."""
        self.dut = dut
        self.log = dut._log
        self.cfg = cfg
        self.mcfg = loop_mmu_config(cfg)
        self.wd_cfg = wd
        self.n = SWITCHES
        self.clock = 0
        self.sources = [AxiStreamSource(AxiStreamBus.from_prefix(dut, f"h{s}_in_axis"),
                                        dut.clk, dut.rst) for s in range(self.n)]
        self.sinks = [AxiStreamSink(AxiStreamBus.from_prefix(dut, f"h{s}_out_axis"),
                                    dut.clk, dut.rst) for s in range(self.n)]
        self.hosts = HostStats()
        self.host_pause_until = [0] * self.n
        self.injecting = False
        # predictor: one per switch (its mmu_core has mmu_ports(PORTS) ports)
        pred_cfg = loop_mmu_config(model_cfg) if model_cfg is not None else self.mcfg
        self.preds = [MmuPredictor(pred_cfg, name=f"switch {s} mmu_core")
                      for s in range(self.n)]
        # sampled by _per_clock, one wake per clock for every switch and the watchdogs
        self.monitors = [MmuMonitor(dut.sw[s].core.mmu_inst, dut.clk,
                                    callback=self.preds[s].write, run=False)
                         for s in range(self.n)]
        # watchdog scoreboard
        wd_model = model_wd if model_wd is not None else wd
        self.wd_models = [[Watchdog(wd_model) for _ in range(PORTS)] for _ in range(self.n)] \
            if wd is not None else None
        self.wd_mismatch: list = []
        self.cond_start: dict = {}
        self.storm_events: list = []         # (switch, port, prio, cond_start, storm clock)
        self.restore_events: list = []       # (switch, port, prio, clock)
        self.rtl_flags: dict = {}
        self.dead_stretches: list = []       # [start, end or None] of the deadlock condition
        # the switches' admission registers over AXI4-Lite (loop_top: writes to all, reads
        # from the switch at byte address bits 19:18)
        self.regs = MmuAxil(dut, dut.clk, dut.rst)
        # progress: clocks at which ring tx counters moved (sampled)
        self.moves: list[int] = []
        self.drained_at: int | None = None

    @property
    def models(self) -> list:
        """The predictors' golden models (models.mmu_pipe.PipelinedMmu), per switch."""
        return [p.model for p in self.preds]

    @property
    def mismatch(self) -> list[str]:
        return [e for p in self.preds for e in p.errors]

    @property
    def requests(self) -> list[int]:
        return [p.requests for p in self.preds]

    # ------------------------------------------------------------------ set-up
    def apply_config(self) -> None:
        d = self.dut
        cfg = self.cfg
        w = self.wd_cfg
        # prevention (PREVENT_ENABLE builds): models.loop.loop_prevention, the ring ports in
        # one group, the loop's priority protected, moved to the lossy alternate priority
        pcfg = loop_prevention(cfg) or PreventionConfig.off(PORTS, GROUP_W)
        pcfg.group_w = GROUP_W
        # every switch's registers (models.swconfig), written over AXI4-Lite at reset: the
        # same watchdog configuration on every port
        self.scfg = SwitchConfig.from_mmu(
            self.mcfg, pause_quanta=[cfg.pause_quanta] * 8, refresh_quanta=cfg.refresh_quanta,
            quanta_step=cfg.quanta_step, prevention=pcfg,
            watchdog=[WatchdogPort(enable=w is not None and bool(w.enable),
                                   detect_time=w.detect_time if w else 0,
                                   restore_time=w.restore_time if w else 0,
                                   action=w.action if w else 0,
                                   storm_limit=w.storm_limit if w else 0)
                      for _ in range(PORTS)])
        for s in range(3):
            getattr(d, f"h{s}_in_axis_tuser").value = 0
            if s >= self.n:
                getattr(d, f"h{s}_in_axis_tvalid").value = 0
                getattr(d, f"h{s}_out_axis_tready").value = 1

    async def reset(self) -> None:
        cocotb.start_soon(Clock(self.dut.clk, 8, unit="ns").start())
        self.apply_config()
        self.dut.rst.value = 1
        await ClockCycles(self.dut.clk, 4)
        self.dut.rst.value = 0
        await RisingEdge(self.dut.clk)
        errs = val(self.dut.err_flags)
        assert errs == 0, f"error flags after reset {errs:#x} (err_reserve: buffer config)"
        cocotb.start_soon(self._per_clock())
        for s in range(self.n):
            cocotb.start_soon(self._host_rx(s))
        # traffic starts on configured switches (the model's register image written over
        # AXI4-Lite into every switch at once: until its last write a switch holds its
        # frames), so the loop's timing is counted from a working ring
        await self.regs.load_switch(self.scfg)
        await self.regs.load(self.mcfg, mmu_ports(PORTS))
        cores = [self.dut.sw[s].core for s in range(self.n)]
        await waits.until(self.dut.clk, lambda: all(val(c.mmu_cfg_done) for c in cores), 10,
                          "every switch's admission gate after the image's last write")

    # ------------------------------------------------------------------ host
    async def _host_rx(self, s: int) -> None:
        """Host s: PFC frames from its switch pause its sender (802.1Qbb, applied at the last
        beat, ceil(q * 65536 / step) clocks); data frames are the loop's expired frames."""
        sink = self.sinks[s]
        prio = self.cfg.prio
        while True:
            f = await sink.recv()
            data = bytes(f.tdata)
            if is_pfc(data):
                self.hosts.pfc_rx += 1
                enable = data[17]
                if enable >> prio & 1:
                    q = int.from_bytes(data[18 + 2 * prio:20 + 2 * prio], "big")
                    self.host_pause_until[s] = (
                        self.clock + 1 + pause_clocks(q, self.cfg.quanta_step) if q
                        else self.clock)
                continue
            src, seq, pcp, ttl, ok, dscp = parse_ring_frame(data)
            self.hosts.expired.append(Expired(s, src, seq, pcp, ttl, ok, dscp, data))

    async def inject(self, s: int, clocks: int, limit: int | None = None) -> int:
        """Host s offers back-to-back frames of the looping flow for ``clocks`` clocks: the next
        frame is queued while the current one goes out, never while its switch pauses it (so
        a pause is honoured from the next frame boundary but one); returns the frames sent."""
        src = self.sources[s]
        cfg = self.cfg
        end = self.clock + clocks
        sent = 0
        self.injecting = True
        while self.clock < end and (limit is None or sent < limit):
            if src.empty() and self.clock >= self.host_pause_until[s]:
                data = ring_frame(s, self.hosts.injected, cfg.prio, cfg.ttl, cfg.frame_bytes)
                await src.send(AxiStreamFrame(data))
                self.hosts.injected += 1
                sent += 1
            await RisingEdge(self.dut.clk)
        await src.wait()
        self.injecting = False
        return sent

    # ------------------------------------------------------------------ per clock
    async def _per_clock(self) -> None:
        """Clock counter, admission predictor and watchdog scoreboard, sampled at the falling
        edge (registered values of the clock that just ended; for mmu_core, what it samples at
        the next edge: clock self.clock counted from the first edge out of reset)."""
        d = self.dut
        mons = self.monitors
        cores = [d.sw[s].core for s in range(self.n)]
        wd = self.wd_models
        ring_q = PORT_NEXT * 8 + self.mcfg.ports[PORT_NEXT].prio_to_queue[self.cfg.prio]
        cnt_w = (BUFFER_CELLS).bit_length()          # switch_core CNT_W = $clog2(cells + 1)
        while True:
            await FallingEdge(d.clk)
            self.clock += 1
            t = self.clock
            for mon in mons:
                # an idle clock gives no step: the predictor steps it with the next one.  (The
                # core's clock: it leaves reset SWITCH_RST_LAT clocks after the switch.)
                mon.observe(t - SWITCH_RST_LAT)
            pause = val(d.stat_pause)
            # deadlock condition: every ring egress queue of the loop's priority holds frames
            # and is paused as its scheduler sees it (pfc_rx, through the watchdog if any);
            # stretches [start, end) of it are recorded
            dead = True
            for s in range(self.n):
                if not (field_of(val(cores[s].sched_pause), PORT_NEXT, 8) >> self.cfg.prio & 1
                        and field_of(val(cores[s].buffer_inst.queues_inst.q_cnt), ring_q, cnt_w)):
                    dead = False
                    break
            if dead and (not self.dead_stretches or self.dead_stretches[-1][1] is not None):
                self.dead_stretches.append([t, None])
            elif not dead and self.dead_stretches and self.dead_stretches[-1][1] is None:
                self.dead_stretches[-1][1] = t
            if wd is None:
                continue
            storm = val(d.stat_wd_storm)
            disabled = val(d.stat_wd_disabled)
            for s in range(self.n):
                busy = val(cores[s].pfc_guard_inst.wd.busy)
                rxp = val(cores[s].rx_pfc_prio)
                for p in range(PORTS):
                    i = s * PORTS + p
                    w = wd[s][p]
                    st = field_of(storm, i, 8)
                    di = field_of(disabled, i, 8)
                    # the RTL's registered state this clock = the model after the last step
                    want_st = sum(1 << k for k in range(8) if w.prio[k].state == STORM)
                    want_di = sum(1 << k for k in range(8) if w.prio[k].state == DISABLED)
                    if (st, di) != (want_st, want_di):
                        self.wd_mismatch.append((t, s, p, (st, di), (want_st, want_di)))
                    # detection latency from the RTL's own flags: the first clock of the
                    # uninterrupted paused-and-busy condition while idle, to the flag rising
                    pv = field_of(pause, i, 8)
                    bv = field_of(busy, p, 8)
                    was = self.rtl_flags.get(i, 0)
                    now = st | di
                    for k in range(8):
                        key = (s, p, k)
                        if now >> k & 1 and not was >> k & 1:
                            self.storm_events.append((s, p, k, self.cond_start.pop(key, None),
                                                      t))
                        elif was >> k & 1 and not now >> k & 1:
                            self.restore_events.append((s, p, k, t))
                        if not now >> k & 1 and pv >> k & 1 and bv >> k & 1:
                            self.cond_start.setdefault(key, t)
                        else:
                            self.cond_start.pop(key, None)
                    self.rtl_flags[i] = now
                    w.step(pause_in=pv, queue_busy=bv, rx_pfc=field_of(rxp, p, 8))

    # ------------------------------------------------------------------ status
    @property
    def deadlock_since(self) -> int | None:
        """Start of the longest stretch of the deadlock condition (None: never held)."""
        return _longest(self.dead_stretches, self.clock)

    def ring_tx(self) -> int:
        """Data frames sent on ring ports (0 and 1) of all switches so far."""
        v = val(self.dut.stat_tx_frames)
        return sum(field_of(v, s * PORTS + p, 32) for s in range(self.n)
                   for p in (PORT_NEXT, PORT_PREV))

    def queued(self) -> list[int]:
        v = val(self.dut.stat_queued_frames)
        return [field_of(v, s, 32) for s in range(self.n)]

    def used(self) -> list[int]:
        v = val(self.dut.stat_used_cells)
        return [field_of(v, s, 32) for s in range(self.n)]

    def mmu_drops(self, s: int) -> list[int]:
        v = val(self.dut.stat_mmu_drop_count)
        return [field_of(v, s * 7 + r, 32) for r in range(7)]

    def ring_state(self) -> dict:
        """Per switch: frames queued, cells used, ring egress paused on the loop's priority as
        the scheduler sees it, ring ingress PG in XOFF."""
        d = self.dut
        xoff = val(d.stat_xoff)
        k = self.cfg.prio
        pg = self.mcfg.ports[PORT_PREV].prio_to_pg[k]
        return {
            "queued": self.queued(),
            "used": self.used(),
            "egress_paused": [field_of(val(d.sw[s].core.sched_pause), PORT_NEXT, 8) >> k & 1
                              for s in range(self.n)],
            "ingress_xoff": [field_of(xoff, s * PORTS + PORT_PREV, 8) >> pg & 1
                             for s in range(self.n)],
        }

    async def watch(self, clocks: int, every: int = 64) -> None:
        """Sample the ring tx counter every ``every`` clocks for ``clocks`` clocks; a change is
        recorded as a move at the sample clock; the first clock every buffer is empty is
        recorded as drained_at."""
        last = self.ring_tx()
        end = self.clock + clocks
        while self.clock < end:
            await ClockCycles(self.dut.clk, every)
            now = self.ring_tx()
            if now != last:
                self.moves.append(self.clock)
                last = now
            if self.drained_at is None and not any(self.queued()) and not any(self.used()):
                self.drained_at = self.clock

    def check_progress(self, start: int, end: int, window: int) -> None:
        """models.loop.check_progress on the sampled moves of this run."""
        check_progress(self.moves, start, end, window, self.drained_at)

    async def mmu_stats(self, addrs: list[int]) -> list[list[int]]:
        """mmu_core status registers (word addresses) of every switch over AXI4-Lite:
        [switch][address].  One switch's reads at a time, pipelined (loop_top routes the
        answers by the switch of the latest AR handshake)."""
        return [await self.regs.read_words(addrs, base=s << 18) for s in range(self.n)]

    def sync_predictors(self) -> None:
        """Every predictor up to the clock being sampled (call at a falling edge)."""
        for p in self.preds:
            p.sync(self.clock + 1 - SWITCH_RST_LAT)

    async def check_drained(self) -> None:
        """Every switch: all cells free, every mmu_core counter zero, no error flag, the
        golden model empty and agreeing with every decision and drop counter."""
        await ClockCycles(self.dut.clk, 16)
        free = val(self.dut.stat_free_cells)
        addrs = drained_status_addrs(mmu_ports(PORTS) * 8)
        stats = await self.mmu_stats(addrs)
        await FallingEdge(self.dut.clk)
        self.sync_predictors()
        for s in range(self.n):
            assert field_of(free, s, 32) == BUFFER_CELLS, f"switch {s}: cells not all free"
            assert self.used()[s] == 0
            held = [(hex(a), v) for a, v in zip(addrs, stats[s]) if v]
            assert not held, f"switch {s}: mmu_core counters not zero: {held[:8]}"
            assert self.models[s].total_used == 0, f"switch {s}: model holds cells"
            drops = self.mmu_drops(s)
            for r in range(REASON_COUNT):
                assert drops[r] == self.models[s].drops[r], f"switch {s} drop reason {r}"
        assert val(self.dut.err_flags) == 0, f"error flags {val(self.dut.err_flags):#x}"
        await self.check_switch_regs()
        self.check_predictor()

    async def check_switch_regs(self) -> None:
        """Every switch's own registers over AXI4-Lite (common.switch_regs, at byte address
        bits 19:18 = switch): the drained globals, the admission drops against the model, and
        each port's frame counters as the switch shows them inside."""
        ports = ["rx_frames", "tx_frames", "drop_admission", "pfc_rx_frames"]
        for s in range(self.n):
            want = switch_regs.drained(BUFFER_CELLS, self.models[s].drops)

            def live(s=s) -> dict[str, int]:
                out = {}
                for n in ports:
                    v = val(getattr(self.dut, f"stat_{n}"))
                    out.update({f"{n}[{p}]": field_of(v, s * PORTS + p, 32)
                                for p in range(PORTS)})
                return out
            bad = await switch_regs.check_live(self.regs, want, live, base=s << 18)
            assert not bad, f"switch {s} registers (name, read, expected): {bad[:8]}"

    def check_predictor(self) -> None:
        for p in self.preds:
            p.check_loaded()
        assert not self.mismatch, f"mmu_core differs from the golden model: {self.mismatch[:5]}"
        assert not self.wd_mismatch, \
            f"watchdog differs from models.watchdog: {self.wd_mismatch[:5]}"

    def drops_total(self) -> int:
        return sum(sum(self.mmu_drops(s)) for s in range(self.n))


__all__ = ["LoopTB", "loop_config", "ring_frame", "parse_ring_frame", "expected_expired",
           "router_hop", "SWITCHES", "WATCHDOG_ENABLE", "PREVENT_ENABLE", "ALT_DSCP", "GROUP_W",
           "BUFFER_CELLS", "PORTS", "PORT_NEXT", "PORT_PREV", "PORT_HOST", "field_of", "val"]
