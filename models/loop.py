"""A ring of switches with a routing loop on a lossless priority: PFC deadlock, its recovery by
the PFC watchdog, and its prevention by moving high-risk flows to another priority (issue 9,
seed 004 sections 2.1.2 and 2.1.3).  Plain Python, integer clocks, one `step` per clock.

Topology (the same as tb/loop/loop_top.v): ``switches`` switches in a ring, each with three
ports: port 0 (PORT_NEXT) faces the next switch, port 1 (PORT_PREV) the previous one, port 2
(PORT_HOST) a host.  Every link is full duplex with ``link_delay`` clocks of flight time; a beat
is 8 bytes (DATA_WIDTH 64), so a frame of L bytes occupies a link for ceil(L / 8) clocks.

Routing table (static): a frame from port 1 or from the host goes out of port 0, so a flow a
host injects goes round the ring for ever: the routing loop.  Every ring hop decrements the
IPv4 TTL (loop_router in the RTL testbench); a frame whose TTL reaches 0 leaves the ring on the
host port of the switch it reached.  While the ring is deadlocked nothing moves, so nothing
expires (a TTL does not break a PFC deadlock; Hu et al., HotNets 2016).

Per switch: the buffer accounting of models.mmu.Mmu (one MmuConfig for all switches, admission
at the frame's last beat, release when its last beat has left), egress queues per (port,
queue) with strict priority over the queues not paused by received PFC, 802.1Qbb PFC between
neighbours (a frame per change of a port's XOFF vector, refresh while any priority is XOFF,
PFC frames go first at the next frame boundary, pause timers in quanta at the link rate), and
optionally one models.watchdog.Watchdog per port between the received pause and the scheduler
(as switch_core with WATCHDOG_ENABLE).  Prevention (seed 004 2.1.3, models.prevention's rule,
switch_core PREVENT_ENABLE): a frame of the protected priority that enters and leaves through
ports of the same port group is a high-risk flow and is moved to the alternate priority (PG,
queue and PCP), here a lossy one, so it is dropped instead of paused.

Not cycle-exact with switch_core: the pipeline inside a switch is two fixed latencies
(``latency_in`` from the last beat to the admission, ``latency_out`` from the enqueue to the
first beat out).  What the model predicts and the RTL test checks: the ring deadlocks without
a watchdog, every watchdog detects the storm exactly ``detect_time`` clocks after its
condition starts, the ring then drains to empty, and with prevention it never deadlocks.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .config import MmuConfig, PgConfig, PortConfig, QueueConfig
from .mmu import Mmu
from .prevention import PreventionConfig, same_group
from .watchdog import DISABLED, DROP, IDLE, STORM, Watchdog, WatchdogConfig

PORT_NEXT, PORT_PREV, PORT_HOST = 0, 1, 2
PORTS = 3
BEAT_BYTES = 8                 # DATA_WIDTH 64
PFC_BYTES = 60                 # IEEE 802.1Qbb frame without FCS (the MAC appends it)
PFC_BEATS = -(-PFC_BYTES // BEAT_BYTES)


def beats(length: int) -> int:
    return -(-length // BEAT_BYTES)


def pause_clocks(quanta: int, quanta_step: int) -> int:
    """Clocks pfc_rx stays paused for ``quanta`` (docs/pfc.md: ceil(q * 65536 / step))."""
    return -(-quanta * 65536 // quanta_step)


def refresh_clocks(refresh_quanta: int, quanta_step: int) -> int:
    """Clocks between the first beats of two refresh frames (docs/pfc.md)."""
    return -(-refresh_quanta * 65536 // quanta_step) + 2


ALT_DSCP = 8                   # CS1: DSCP of the lossy alternate class


def loop_prevention(cfg: LoopConfig) -> PreventionConfig | None:
    """switch_core's prevention configuration for the loop (None: PREVENT off): the ports of
    ``groups`` in their groups, the loop's priority protected and moved to ``alt_prio`` with
    DSCP ALT_DSCP."""
    if not cfg.prevention:
        return None
    alt_prio = list(range(8))
    alt_prio[cfg.prio] = cfg.alt_prio
    alt_dscp = [0] * 8
    alt_dscp[cfg.prio] = ALT_DSCP
    return PreventionConfig(port_group=list(cfg.groups), enable=1 << cfg.prio,
                            alt_prio=alt_prio, alt_dscp=alt_dscp)


def high_risk(pcfg: PreventionConfig | None, iport: int, eport: int, prio: int) -> bool:
    """models.prevention's rule (seed 004 2.1.3): a frame of a protected priority entering
    ``iport`` and switched to ``eport`` of the same port group is remapped to
    ``pcfg.alt_prio[prio]`` (and counted in stat_prev_frames)."""
    return pcfg is not None and bool(pcfg.enable >> prio & 1) and same_group(pcfg, iport, eport)


@dataclass
class LoopConfig:
    switches: int = 3
    frame_bytes: int = 64
    ttl: int = 32                  # IPv4 TTL of injected frames (ring hops before expiry)
    prio: int = 3                  # the looping flow's lossless priority (PCP)
    alt_prio: int = 1              # prevention: the lossy alternate priority
    prevention: bool = False       # switch_core PREVENT_ENABLE with loop_prevention(cfg)
    groups: tuple[int, ...] = (1, 1, 0)   # port group of ports 0, 1, 2 (0: no group)
    link_delay: int = 4            # clocks of flight on every ring link (loop_link DELAY)
    router_delay: int = 4          # loop_router: a frame waits for its decision (beat 3)
    host_delay: int = 0            # host <-> switch
    latency_in: int = 4            # last beat in -> admission
    latency_out: int = 8           # enqueue -> first beat out (earliest)
    # buffer (switch_core parameters and the MMU profile)
    cell_bytes: int = 96
    buffer_cells: int = 64         # switch_core BUFFER_CELLS (the MMU gets what the reserve leaves)
    max_frame_bytes: int = 128
    reserved: int = 1
    headroom: int = 8
    alpha_shift: int = 0
    xon_offset: int = 2
    lossy_pool: int = 12
    # PFC (quanta of 512 bit times; quanta_step = quanta per clock << 16, 64 bits per clock)
    pause_quanta: int = 400
    refresh_quanta: int = 200
    quanta_step: int = 0x2000
    watchdog: WatchdogConfig | None = None
    # host of ``inject_switch`` offers back-to-back frames for ``inject_clocks`` clocks,
    # honouring the PFC its switch sends
    inject_switch: int = 0
    inject_clocks: int = 2000
    inject_limit: int | None = None    # frames; None: as many as the time allows

    def mmu_config(self) -> MmuConfig:
        return loop_mmu_config(self)


def reserve_cells(cfg: LoopConfig) -> int:
    """switch_core keeps a frame being written plus a spare cell per port outside the MMU."""
    return PORTS * (-(-cfg.max_frame_bytes // cfg.cell_bytes) + 1)


def loop_mmu_config(cfg: LoopConfig) -> MmuConfig:
    """One MmuConfig for every switch: ``prio`` lossless on every port (reserved, DT shared,
    private headroom), every other priority lossy in a small lossy pool; egress limits equal
    their pools (never bind).  Identity priority -> PG / queue maps."""
    cells = cfg.buffer_cells - reserve_cells(cfg)
    lossy = cfg.lossy_pool
    lossless = cells - lossy
    ports = []
    for _ in range(PORTS):
        pgs, qs = [], []
        for g in range(8):
            if g == cfg.prio:
                pgs.append(PgConfig(lossless=True, reserved=cfg.reserved,
                                    alpha_shift=cfg.alpha_shift, headroom=cfg.headroom,
                                    xon_offset=cfg.xon_offset))
                qs.append(QueueConfig(lossless=True, dynamic=False, static_th=lossless))
            else:
                pgs.append(PgConfig(lossless=False, reserved=0, alpha_shift=0))
                qs.append(QueueConfig(lossless=False, dynamic=False, static_th=lossy))
        ports.append(PortConfig(pgs=pgs, queues=qs))
    m = MmuConfig(ports=ports, cell_bytes=cfg.cell_bytes, buffer_cells=cells,
                  max_frame_bytes=cfg.max_frame_bytes, ingress_lossless_pool=lossless,
                  ingress_lossy_pool=lossy, egress_lossless_pool=lossless,
                  egress_lossy_pool=lossy)
    m.validate()
    return m


@dataclass
class Frame:
    fid: int
    prio: int          # PCP as it travels (prevention rewrites it)
    ttl: int
    length: int
    src: int           # switch whose host injected it


@dataclass
class Queued:
    frame: Frame
    iport: int
    pg: int
    queue: int
    cells: int
    ready: int         # earliest clock its first beat may go out


@dataclass
class StormEvent:
    switch: int
    port: int
    prio: int
    cond_start: int    # first clock of the uninterrupted paused-and-busy condition
    detected: int      # clock the watchdog state became STORM (or DISABLED)

    @property
    def latency(self) -> int:
        return self.detected - self.cond_start


@dataclass
class LoopResult:
    clocks: int = 0
    injected: int = 0
    expired: list[int] = field(default_factory=list)           # frames out per host
    drops_lossless: int = 0
    drops_lossy: int = 0
    wd_discarded: int = 0                                     # action drop
    remapped: int = 0                                         # prevention
    ring_tx: list[tuple[int, int, int]] = field(default_factory=list)  # (clock, switch, port)
    storms: list[StormEvent] = field(default_factory=list)
    restores: list[tuple[int, int, int, int]] = field(default_factory=list)  # clock, s, p, k
    pfc_frames: int = 0
    inject_end: int = 0                                       # clock the last frame started
    drained_at: int | None = None                             # first clock all buffers empty
    # stretches [start, end or None] in which every ring egress queue of the loop's priority
    # held frames and was paused as its scheduler sees it
    dead_stretches: list = field(default_factory=list)

    @property
    def deadlock_since(self) -> int | None:
        """Start of the longest stretch of the deadlock condition (None: never held)."""
        best = None
        for start, end in self.dead_stretches:
            n = (self.clocks if end is None else end) - start
            if best is None or n > best[0]:
                best = (n, start)
        return None if best is None else best[1]

    def progress(self, start: int, end: int) -> int:
        """Data frames started on ring links in [start, end)."""
        return sum(1 for t, _, _ in self.ring_tx if start <= t < end)

    def moves(self) -> list[int]:
        return [t for t, _, _ in self.ring_tx]


class DeadlockError(AssertionError):
    """A window in which the ring made no progress while frames were waiting."""


def check_progress(moves: list[int], start: int, end: int, window: int,
                   drained_at: int | None = None) -> None:
    """Progress checker: ``moves`` are the clocks at which data frames moved on ring links.
    Every stretch of ``window`` clocks inside [start, end) before the ring drained
    (``drained_at``, None: not drained) must contain a move.  Raises DeadlockError naming the
    first stretch without one."""
    times = sorted(t for t in moves if start <= t < end)
    stop = end if drained_at is None else min(end, drained_at)
    last = start
    for t in times + [stop]:
        if t - last >= window and last < stop:
            raise DeadlockError(f"no frame moved on any ring link from clock {last} to {t} "
                                f"(window {window})")
        last = t


def _quiet(w: Watchdog, cond: int) -> bool:
    """A Watchdog.step with these inputs would change nothing (every priority idle with no
    condition, or disabled, and no timer running): skipped for speed."""
    for k, p in enumerate(w.prio):
        if p.timer or p.state == STORM:
            return False
        if p.state == IDLE and w.cfg.enable and cond >> k & 1:
            return False
    return True


class _Switch:
    def __init__(self, idx: int, cfg: LoopConfig, mcfg: MmuConfig) -> None:
        self.idx = idx
        self.cfg = cfg
        self.mcfg = mcfg
        self.mmu = Mmu(mcfg)
        self.queues = [[deque() for _ in range(8)] for _ in range(PORTS)]
        self.busy_until = [-1] * PORTS      # last clock of the frame on the wire
        self.pause_until = [[0] * 8 for _ in range(PORTS)]  # paused while clock < value
        self.rx_pfc = [0] * PORTS          # pulses this clock
        self.advertised = [0] * PORTS      # XOFF vector last frozen in a PFC frame
        self.last_pfc = [-10 ** 9] * PORTS
        self.wd = [Watchdog(cfg.watchdog) if cfg.watchdog else None for _ in range(PORTS)]
        self.cond_start = [[None] * 8 for _ in range(PORTS)]
        self.pending_adm: deque = deque()   # (clock, iport, frame)
        self.releases: deque = deque()      # (clock, args)

    def pause_vec(self, p: int, t: int) -> int:
        return sum(1 << k for k in range(8) if t < self.pause_until[p][k])

    def sched_pause(self, p: int, t: int) -> int:
        v = self.pause_vec(p, t)
        w = self.wd[p]
        return w.pause_out(v) if w is not None else v

    def busy_vec(self, p: int) -> int:
        pq = self.mcfg.ports[p].prio_to_queue
        return sum(1 << k for k in range(8) if self.queues[p][pq[k]])

    def req_xoff(self, p: int) -> int:
        pg = self.mcfg.ports[p].prio_to_pg
        return sum(1 << k for k in range(8) if self.mmu.xoff[p * 8 + pg[k]])

    def held_cells(self) -> int:
        return self.mmu.total_used

    def queued(self) -> int:
        return sum(len(q) for port in self.queues for q in port)


class LoopNetwork:
    def __init__(self, cfg: LoopConfig) -> None:
        if cfg.switches < 2:
            raise ValueError("a ring needs at least two switches")
        self.cfg = cfg
        self.mcfg = loop_mmu_config(cfg)
        self.pcfg = loop_prevention(cfg)
        self.sw = [_Switch(s, cfg, self.mcfg) for s in range(cfg.switches)]
        self.t = 0
        self.res = LoopResult(expired=[0] * cfg.switches)
        # link arrivals: clock -> list of (switch, port, kind, payload)
        self.arrivals: dict[int, list] = {}
        self.next_fid = 0
        self.host_busy_until = -1
        self.host_pause_until = 0
        self.refresh = refresh_clocks(cfg.refresh_quanta, cfg.quanta_step)
        self.pause_len = pause_clocks(cfg.pause_quanta, cfg.quanta_step)

    # ------------------------------------------------------------------ wiring
    def peer(self, s: int, p: int) -> tuple[int, int] | None:
        n = self.cfg.switches
        if p == PORT_NEXT:
            return (s + 1) % n, PORT_PREV
        if p == PORT_PREV:
            return (s - 1) % n, PORT_NEXT
        return None                         # host

    def _arrive(self, t: int, s: int, p: int, kind: str, payload) -> None:
        self.arrivals.setdefault(t, []).append((s, p, kind, payload))

    # ------------------------------------------------------------------ one clock
    def step(self) -> None:
        t = self.t
        cfg = self.cfg
        for sw in self.sw:
            sw.rx_pfc = [0] * PORTS
        # 1. last beats arriving: PFC applied at once, data admitted latency_in later
        for s, p, kind, payload in self.arrivals.pop(t, ()):
            if s < 0:                        # PFC frame to the host
                enable, times = payload
                if enable >> cfg.prio & 1:
                    q = times[cfg.prio]
                    self.host_pause_until = t + 1 + pause_clocks(q, cfg.quanta_step) if q else t
                continue
            sw = self.sw[s]
            if kind == "pfc":
                enable, times = payload
                sw.rx_pfc[p] |= enable
                for k in range(8):
                    if enable >> k & 1:
                        q = times[k]
                        sw.pause_until[p][k] = (t + 1 + pause_clocks(q, cfg.quanta_step)
                                                if q else t)
            else:
                sw.pending_adm.append((t + cfg.latency_in, p, payload))
        for sw in self.sw:
            # 2. releases (before arrivals, as Mmu.step)
            while sw.releases and sw.releases[0][0] <= t:
                sw.mmu.release(*sw.releases.popleft()[1])
            # 3. admissions
            while sw.pending_adm and sw.pending_adm[0][0] <= t:
                _, ip, fr = sw.pending_adm.popleft()
                self._admit(sw, ip, fr, t)
        # 4. host injection
        self._host(t)
        for sw in self.sw:
            # 5. egress: PFC first at a frame boundary, then strict priority
            for p in range(PORTS):
                if sw.busy_until[p] >= t:
                    continue
                self._egress(sw, p, t)
            # 6. watchdogs see this clock's pause, queue occupancy and PFC pulses
            for p in range(PORTS):
                w = sw.wd[p]
                if w is None:
                    continue
                pv = sw.pause_vec(p, t)
                bv = sw.busy_vec(p)
                if _quiet(w, pv & bv):
                    continue
                before = w.states()
                for k in range(8):
                    if pv >> k & 1 and bv >> k & 1:
                        if sw.cond_start[p][k] is None:
                            sw.cond_start[p][k] = t
                    else:
                        sw.cond_start[p][k] = None
                w.step(pause_in=pv, queue_busy=bv, rx_pfc=sw.rx_pfc[p])
                after = w.states()
                for k in range(8):
                    if before[k] == IDLE and after[k] in (STORM, DISABLED):
                        # the state is registered: it shows from the next clock, which is
                        # detect_time clocks after the condition's first clock
                        self.res.storms.append(StormEvent(sw.idx, p, k, sw.cond_start[p][k],
                                                          t + 1))
                        sw.cond_start[p][k] = None
                    elif before[k] == STORM and after[k] == IDLE:
                        self.res.restores.append((t + 1, sw.idx, p, k))
        self._observe(t)
        self.t = t + 1
        self.res.clocks = self.t

    def _admit(self, sw: _Switch, ip: int, fr: Frame, t: int) -> None:
        cfg = self.cfg
        if ip != PORT_HOST:
            if fr.ttl > 0:
                fr.ttl -= 1
            dest = PORT_HOST if fr.ttl == 0 or ip == PORT_NEXT else PORT_NEXT
        else:
            dest = PORT_NEXT
        if high_risk(self.pcfg, ip, dest, fr.prio):
            self.res.remapped += 1
            fr.prio = self.pcfg.alt_prio[fr.prio]
        pg = self.mcfg.ports[ip].prio_to_pg[fr.prio]
        q = self.mcfg.ports[dest].prio_to_queue[fr.prio]
        d = sw.mmu.arrive(ip, pg, dest, q, fr.length)
        if d.admit:
            sw.queues[dest][q].append(Queued(fr, ip, pg, q, d.cells, t + cfg.latency_out))
        elif sw.mmu.pg_lossless[ip * 8 + pg]:
            self.res.drops_lossless += 1
        else:
            self.res.drops_lossy += 1

    def _egress(self, sw: _Switch, p: int, t: int) -> None:
        cfg = self.cfg
        want = sw.req_xoff(p)
        refresh_due = sw.advertised[p] and t - sw.last_pfc[p] >= self.refresh
        if want != sw.advertised[p] or (sw.advertised[p] and refresh_due):
            # pfc_tx: changed priorities, every XOFF one; each carries its current state
            enable = (want ^ sw.advertised[p]) | want
            times = [cfg.pause_quanta if want >> k & 1 else 0 for k in range(8)]
            sw.advertised[p] = want
            sw.last_pfc[p] = t
            sw.busy_until[p] = t + PFC_BEATS - 1
            self.res.pfc_frames += 1
            peer = self.peer(sw.idx, p)
            if peer is None:
                self._arrive(t + PFC_BEATS - 1 + cfg.host_delay, -1, 0, "pfc", (enable, times))
            else:
                self._arrive(t + PFC_BEATS - 1 + cfg.link_delay + cfg.router_delay, peer[0],
                             peer[1], "pfc", (enable, times))
            return
        if not any(sw.queues[p]):
            return
        paused = sw.sched_pause(p, t)
        pq = self.mcfg.ports[p].prio_to_queue
        paused_q = 0
        for k in range(8):
            if paused >> k & 1:
                paused_q |= 1 << pq[k]
        w = sw.wd[p]
        drop_q = 0
        dv = w.drop() if w is not None else 0
        if dv:
            for k in range(8):
                if dv >> k & 1:
                    drop_q |= 1 << pq[k]
        for q in range(7, -1, -1):
            qu = sw.queues[p][q]
            if not qu or paused_q >> q & 1 or qu[0].ready > t:
                continue
            item = qu.popleft()
            fr = item.frame
            rel = (item.iport, item.pg, p, item.queue, item.cells)
            if drop_q >> q & 1:
                # watchdog action drop: the frame is discarded whole, its cells released
                self.res.wd_discarded += 1
                sw.busy_until[p] = t + item.cells - 1
                sw.releases.append((t + item.cells - 1, rel))
                return
            n = beats(fr.length)
            end = t + n - 1
            sw.busy_until[p] = end
            sw.releases.append((end, rel))
            peer = self.peer(sw.idx, p)
            if peer is None:
                self.res.expired[sw.idx] += 1
            else:
                self.res.ring_tx.append((t, sw.idx, p))
                self._arrive(end + cfg.link_delay + cfg.router_delay, peer[0], peer[1], "data",
                             fr)
            return

    def _host(self, t: int) -> None:
        cfg = self.cfg
        if t >= cfg.inject_clocks or t <= self.host_busy_until or t < self.host_pause_until:
            return
        if cfg.inject_limit is not None and self.res.injected >= cfg.inject_limit:
            return
        fr = Frame(self.next_fid, cfg.prio, cfg.ttl, cfg.frame_bytes, cfg.inject_switch)
        self.next_fid += 1
        n = beats(cfg.frame_bytes)
        self.host_busy_until = t + n - 1
        self.res.injected += 1
        self.res.inject_end = t
        self._arrive(t + n - 1 + cfg.host_delay, cfg.inject_switch, PORT_HOST, "data", fr)

    def _observe(self, t: int) -> None:
        res = self.res
        q = self.mcfg.ports[PORT_NEXT].prio_to_queue[self.cfg.prio]
        dead = all(sw.queues[PORT_NEXT][q] and sw.sched_pause(PORT_NEXT, t) >> self.cfg.prio & 1
                   for sw in self.sw)
        st = res.dead_stretches
        if dead and (not st or st[-1][1] is not None):
            st.append([t, None])
        elif not dead and st and st[-1][1] is None:
            st[-1][1] = t
        if self.injection_done():
            if self.empty():
                if res.drained_at is None:
                    res.drained_at = t
            else:
                res.drained_at = None

    def injection_done(self) -> bool:
        cfg = self.cfg
        return self.t >= cfg.inject_clocks or (cfg.inject_limit is not None
                                                and self.res.injected >= cfg.inject_limit)

    def empty(self) -> bool:
        return (not self.arrivals and all(
            sw.held_cells() == 0 and sw.queued() == 0 and not sw.pending_adm for sw in self.sw))

    # ------------------------------------------------------------------ runs
    def run(self, clocks: int) -> LoopResult:
        for _ in range(clocks):
            self.step()
        self.res.clocks = self.t
        return self.res

    def state(self) -> dict:
        """Per switch: cells held, frames queued, ring egress paused (as the scheduler sees it),
        ring ingress PG in XOFF, watchdog states of the ring egress port."""
        out = []
        pg = self.mcfg.ports[PORT_PREV].prio_to_pg[self.cfg.prio]
        for sw in self.sw:
            out.append({
                "cells": sw.held_cells(),
                "queued": sw.queued(),
                "egress_paused": bool(sw.sched_pause(PORT_NEXT, self.t) >> self.cfg.prio & 1),
                "ingress_xoff": sw.mmu.xoff[PORT_PREV * 8 + pg],
                "wd": sw.wd[PORT_NEXT].states()[self.cfg.prio] if sw.wd[PORT_NEXT] else None,
                "storms": sw.wd[PORT_NEXT].prio[self.cfg.prio].storms if sw.wd[PORT_NEXT]
                else 0,
            })
        return {"clock": self.t, "switches": out}


def simulate(cfg: LoopConfig, clocks: int) -> tuple[LoopNetwork, LoopResult]:
    net = LoopNetwork(cfg)
    res = net.run(clocks)
    return net, res


def run_until_drained(cfg: LoopConfig, limit: int) -> tuple[LoopNetwork, LoopResult]:
    """Run past the injection until every buffer is empty (or ``limit`` clocks)."""
    net = LoopNetwork(cfg)
    while net.t < limit:
        net.step()
        if net.injection_done() and net.res.drained_at is not None:
            break
    net.res.clocks = net.t
    return net, net.res


__all__ = ["LoopConfig", "LoopNetwork", "LoopResult", "StormEvent", "DeadlockError",
           "check_progress", "high_risk", "loop_prevention", "loop_mmu_config", "ALT_DSCP",
           "simulate", "run_until_drained", "reserve_cells", "pause_clocks", "refresh_clocks",
           "PORT_NEXT", "PORT_PREV", "PORT_HOST", "WatchdogConfig", "DROP"]
