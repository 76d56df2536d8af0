"""Discrete-time network model for lossless checks: N senders -> links -> one switch -> egress.

Time is an integer number of *byte times* at the link speed (8 bit times; 0.08 ns at 100 Gb/s);
every link runs at the same speed.  The simulation is event driven (a heap of integer time
stamps), which is exact for this model and much faster than ticking every byte.

What is modelled (IEEE 802.1Qbb / 802.3 Annex 31B behaviour, seed 000's delay budget):

* sender k sends back-to-back frames (``frame_bytes`` + 20 bytes of preamble and inter-frame
  gap) on ingress port k of the switch, round robin over its flows (priorities); a frame is
  never cut: pause is checked only when a new frame would start;
* the last bit of a frame reaches the switch ``D = C * D_prop`` byte times after it left; the
  switch's Mmu (models.mmu) admits or drops it on arrival; admitted frames wait in their egress
  queue; the egress port sends them at ``drain`` (a fraction of the link rate, 0 = paused) and
  releases their cells when the last byte has left.  A release and an arrival at the same time
  stamp are applied release first (Mmu.step order);
* each XOFF / XON in Mmu.events becomes a PFC frame (64 bytes + 20 on the wire) on the reverse
  link of that ingress port.  Worst case by default: the reverse link has just begun a
  ``mtu``-byte data frame, so every PFC frame waits behind it (seed 000 "waiting delay");
  PFC frames then go out in order;
* the sender acts on a PFC frame ``response_bytes`` byte times (3840: seed 000's processing
  allowance) after its last bit arrived: pause time ``quanta * 64`` byte times (one quantum =
  512 bit times), restarting the timer; quanta 0 is XON (resume now);
* while a PG stays in XOFF the switch refreshes the PAUSE every ``refresh_quanta`` quanta;
  a sender whose timer expires without refresh or XON resumes sending.
* with ``headroom_policy`` dsh (docs/model.md "Headroom policies") the switch sends what
  ``Mmu.pfc_vector`` says: the queue-level XOFF vector, and every lossless priority of the port
  while its port-level pause is on.  Each frame it sends on a port enables every priority of the
  port's lossless PGs, with the pause time for those held and 0 for the others (so a port-level
  XON does not resume a PG that is still paused at queue level), and refreshes all of them.

Worst-case headroom needed per PG after the XOFF decision, in bytes on the wire:
``2 D + mtu (wait) + 84 (the PFC frame) + response + frame (last frame started) + frame (the
frame already on the wire)``, i.e. seed 000's eta plus two small-frame terms;
models.headroom's worst-case cell figure covers it (tests/test_network.py).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from fractions import Fraction

from .config import MmuConfig, PgConfig, PortConfig, QueueConfig
from .headroom import link_delay_bytes
from .mmu import PG_COUNT, REASON_NAMES, Mmu

WIRE_OVERHEAD = 20  # preamble + SFD (8) + inter-frame gap (12), bytes
PFC_FRAME = 64  # IEEE 802.1Qbb / 802.3 Annex 31D MAC Control frame, FCS included
QUANTUM_BYTES = 64  # 512 bit times

# same-time order: release before arrival (Mmu.step), a sender may start one more frame
# before a PFC frame takes effect at the same instant (the worst case)
_ORDER = {"egress_done": 0, "arrive": 1, "sender_free": 2, "pfc_act": 3}


@dataclass
class Flow:
    prio: int
    frame_bytes: int
    total_bytes: int | None = None  # None: infinite backlog
    start: int = 0  # byte time the flow starts


@dataclass
class NetConfig:
    senders: int = 4
    speed_gbps: float = 100
    cable_m: float = 300
    prop_ns_per_m: float = 5
    mtu: int = 1500  # largest frame on the reverse link (the PFC frame may wait behind it)
    reverse_busy: bool = True  # worst case: every PFC frame waits behind an mtu frame
    response_bytes: int = 3840  # sender reaction allowance, byte times
    pause_quanta: int = 0xFFFF
    refresh_quanta: int = 0x7FFF
    drain: Fraction = Fraction(1)  # egress rate as a fraction of the link rate
    egress_stop: int | None = None  # byte time the egress is paused for good (stuck receiver)
    duration: int = 250_000  # byte times
    sample_every: int = 0  # byte times between samples (0: duration / 500)
    flows: list[list[Flow]] = field(default_factory=list)  # per sender; default one lossless

    @property
    def delay(self) -> int:
        return -(-link_delay_bytes(self.speed_gbps, self.cable_m, self.prop_ns_per_m) // 1)

    def ns(self, byte_times: int) -> float:
        return byte_times * 8 / self.speed_gbps


def switch_config(senders: int, headroom: int, cell_bytes: int = 256, lossless_shared: int = 1000,
                  lossy_shared: int = 1000, alpha_shift: int = -1, reserved: int = 8,
                  xon_offset: int = 12, lossless_prios: tuple[int, ...] = (3,),
                  lossy_alpha_shift: int | None = None, shared_headroom_pool: int = 0,
                  max_frame_bytes: int = 9216 + 22) -> MmuConfig:
    """``senders`` + 1 ports; ``lossless_prios`` lossless with private ``headroom`` cells each,
    the rest lossy; pools sized so the shared segments are exactly the given sizes.  Egress
    limits equal their pools (never bind: admission is decided at ingress)."""
    ports = senders + 1
    lossy_alpha = alpha_shift if lossy_alpha_shift is None else lossy_alpha_shift
    ll_pool = lossless_shared + ports * len(lossless_prios) * (
        reserved + (0 if shared_headroom_pool else headroom)) + shared_headroom_pool
    ly_pool = lossy_shared
    port_cfgs = []
    for _ in range(ports):
        pgs, qs = [], []
        for g in range(PG_COUNT):
            if g in lossless_prios:
                pgs.append(PgConfig(lossless=True, reserved=reserved, alpha_shift=alpha_shift,
                                    headroom=headroom, xon=0, xon_offset=xon_offset))
                qs.append(QueueConfig(lossless=True, dynamic=False, static_th=ll_pool))
            else:
                pgs.append(PgConfig(lossless=False, alpha_shift=lossy_alpha))
                qs.append(QueueConfig(lossless=False, dynamic=False, static_th=ly_pool))
        port_cfgs.append(PortConfig(pgs=pgs, queues=qs))
    return MmuConfig(ports=port_cfgs, cell_bytes=cell_bytes, buffer_cells=ll_pool + ly_pool,
                     max_frame_bytes=max_frame_bytes, ingress_lossless_pool=ll_pool,
                     ingress_lossy_pool=ly_pool, shared_headroom_pool=shared_headroom_pool,
                     egress_lossless_pool=ll_pool, egress_lossy_pool=ly_pool)


@dataclass
class Result:
    frames_sent: int = 0
    frames_admitted: int = 0
    lossless_drops: int = 0
    lossy_drops: int = 0
    drop_reasons: dict[str, int] = field(default_factory=dict)
    delivered_bytes: int = 0
    pfc_xoff: int = 0  # PFC frames with pause time > 0 (first XOFF and refreshes)
    pfc_refresh: int = 0
    pfc_xon: int = 0
    max_hdrm: list[int] = field(default_factory=list)  # per sender, lossless PGs
    paused_since: list[int | None] = field(default_factory=list)  # per sender, XOFF still on
    samples: list[dict] = field(default_factory=list)
    pfc_log: list[tuple[int, int, int, bool]] = field(default_factory=list)  # t, port, pg, xoff
    # dsh: port-level pause changes (t, port, xoff) and their count; the frames that carry them
    # are counted in pfc_xoff / pfc_xon like every other PFC frame
    port_log: list[tuple[int, int, bool]] = field(default_factory=list)
    port_pause: int = 0
    max_port_hdrm: int = 0
    refresh_log: list[tuple[int, int, int]] = field(default_factory=list)  # t, port, pg
    end: int = 0


class Network:
    def __init__(self, net: NetConfig, cfg: MmuConfig) -> None:
        if cfg.port_count < net.senders + 1:
            raise ValueError("the switch needs senders + 1 ports")
        self.net = net
        self.cfg = cfg
        self.mmu = Mmu(cfg)
        self.egress = net.senders  # egress port index
        self.d = net.delay
        n = net.senders
        self.flows = net.flows or [[Flow(3, net.mtu)] for _ in range(n)]
        self.sent = [[0] * len(f) for f in self.flows]
        self.rr = [0] * n
        self.busy = [False] * n
        self.pause_until = [[0] * 8 for _ in range(n)]
        self.rev_free_at = [0] * n
        self.queues: list[list[tuple]] = [[] for _ in range(8)]
        self.q_rr = 0
        self.egress_busy = False
        self.heap: list = []
        self.seq = 0
        self.now = 0
        self.ev_done = 0
        self.gen = [0] * (cfg.port_count * PG_COUNT)
        self.res = Result(max_hdrm=[0] * n, paused_since=[None] * n)
        self.xoff_since: dict[int, int] = {}
        self.pev_done = 0  # dsh: port events handled
        self.sent_vec = [0] * cfg.port_count  # dsh: the PG vector last sent on each port
        self.pgen = [0] * cfg.port_count  # dsh: frames sent per port (refresh timer's guard)

    # ---------------------------------------------------------------- plumbing
    def _at(self, t: int, kind: str, *data) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (t, _ORDER.get(kind, 4), self.seq, kind, data))

    def run(self) -> Result:
        net = self.net
        for k in range(net.senders):
            # one transmitter per sender: it starts at its first flow's start and picks up
            # the others as they start (one event per flow ran one transmitter per flow, so a
            # sender with n flows sent at n times the line rate)
            if self.flows[k]:
                self._at(min(f.start for f in self.flows[k]), "sender_free", k)
        every = net.sample_every or max(1, net.duration // 500)
        for t in range(0, net.duration + 1, every):
            self._at(t, "sample")
        if net.egress_stop is not None:
            self._at(net.egress_stop, "egress_stop")
        while self.heap and self.heap[0][0] <= net.duration:
            t, _, _, kind, data = heapq.heappop(self.heap)
            self.now = t
            getattr(self, "_" + kind)(*data)
        self.res.end = net.duration
        m = self.mmu
        self.res.drop_reasons = {REASON_NAMES[r]: c for r, c in enumerate(m.drops) if c}
        self.res.frames_admitted = m.admitted
        self.res.max_port_hdrm = max(m.port_hdrm_wm)
        for k in range(net.senders):
            self.res.paused_since[k] = min(
                (self.xoff_since[i] for i in self.xoff_since if i // PG_COUNT == k), default=None)
        return self.res

    # ---------------------------------------------------------------- senders
    def _sender_free(self, k: int) -> None:
        self.busy[k] = False
        flows = self.flows[k]
        t = self.now
        wake = None
        for n in range(len(flows)):
            fi = (self.rr[k] + n) % len(flows)
            f = flows[fi]
            if t < f.start:
                wake = f.start if wake is None else min(wake, f.start)
                continue
            if f.total_bytes is not None and self.sent[k][fi] >= f.total_bytes:
                continue
            pu = self.pause_until[k][f.prio]
            if t < pu:  # 802.1Qbb: paused priority, try again when the timer expires
                wake = pu if wake is None else min(wake, pu)
                continue
            self.rr[k] = (fi + 1) % len(flows)
            self.sent[k][fi] += f.frame_bytes
            self.busy[k] = True
            end = t + f.frame_bytes + WIRE_OVERHEAD
            self.res.frames_sent += 1
            self._at(end, "sender_free", k)
            self._at(end + self.d, "arrive", k, f.prio, f.frame_bytes)
            return
        if wake is not None:
            self._at(wake, "wake", k)

    def _wake(self, k: int) -> None:
        if not self.busy[k]:
            self._sender_free(k)

    def _pfc_rx(self, k: int, prio: int, quanta: int) -> None:
        self._at(self.now + self.net.response_bytes, "pfc_act", k, prio, quanta)

    def _pfc_act(self, k: int, prio: int, quanta: int) -> None:
        self.pause_until[k][prio] = self.now + quanta * QUANTUM_BYTES
        if not self.busy[k]:
            self._sender_free(k)

    # ---------------------------------------------------------------- switch
    def _arrive(self, k: int, prio: int, length: int) -> None:
        port_cfg = self.cfg.ports[k]
        pg = port_cfg.prio_to_pg[prio]
        q = self.cfg.ports[self.egress].prio_to_queue[prio]
        d = self.mmu.arrive(k, pg, self.egress, q, length)
        i = k * PG_COUNT + pg
        if d.admit:
            self.queues[q].append((k, pg, q, d.cells, length))
            if self.mmu.hdrm[i] > self.res.max_hdrm[k]:
                self.res.max_hdrm[k] = self.mmu.hdrm[i]
            if not self.egress_busy:
                self._egress_start()
        elif self.mmu.pg_lossless[i]:
            self.res.lossless_drops += 1
        else:
            self.res.lossy_drops += 1
        self._pfc_out()

    def _egress_start(self) -> None:
        net = self.net
        if net.drain == 0 or (net.egress_stop is not None and self.now >= net.egress_stop):
            return
        for n in range(8):
            q = (self.q_rr + n) % 8
            if self.queues[q]:
                self.q_rr = (q + 1) % 8
                item = self.queues[q].pop(0)
                wire = Fraction(item[4] + WIRE_OVERHEAD) / net.drain
                self.egress_busy = True
                self._at(self.now + -(-wire // 1), "egress_done", item)
                return

    def _egress_done(self, item: tuple) -> None:
        k, pg, q, cells, length = item
        self.egress_busy = False
        self.mmu.release(k, pg, self.egress, q, cells)
        self.res.delivered_bytes += length
        self._pfc_out()
        self._egress_start()

    def _egress_stop(self) -> None:
        pass  # _egress_start checks the time; the frame on the wire finishes

    # ---------------------------------------------------------------- PFC out
    def _pfc_out(self) -> None:
        m = self.mmu
        if m.dsh:
            self._pfc_out_vector()
            return
        while self.ev_done < len(m.events):
            e = m.events[self.ev_done]
            self.ev_done += 1
            i = e.port * PG_COUNT + e.pg
            self.gen[i] += 1
            self.res.pfc_log.append((self.now, e.port, e.pg, e.xoff))
            if e.xoff:
                self.xoff_since[i] = self.now
            else:
                self.xoff_since.pop(i, None)
            self._send_pfc(e.port, e.pg, e.xoff)
            if e.xoff:
                self._at(self.now + self.net.refresh_quanta * QUANTUM_BYTES, "refresh", i,
                         self.gen[i])

    def _send_pfc(self, port: int, pg: int, xoff: bool) -> None:
        if port >= self.net.senders:
            return  # no sender on that port
        end = self._reverse_slot(port)
        quanta = self.net.pause_quanta if xoff else 0
        if xoff:
            self.res.pfc_xoff += 1
        else:
            self.res.pfc_xon += 1
        for prio, g in enumerate(self.cfg.ports[port].prio_to_pg):
            if g == pg:
                self._at(end + self.d, "pfc_rx", port, prio, quanta)

    def _pfc_out_vector(self) -> None:
        """dsh: one frame per change of a port's ``pfc_vector``, all its lossless priorities
        enabled (module docstring)."""
        m = self.mmu
        ports = set()
        while self.ev_done < len(m.events):
            ports.add(m.events[self.ev_done].port)
            self.ev_done += 1
        while self.pev_done < len(m.port_events):
            e = m.port_events[self.pev_done]
            self.pev_done += 1
            ports.add(e.port)
            self.res.port_log.append((self.now, e.port, e.xoff))
            if e.xoff:
                self.res.port_pause += 1
        for port in sorted(ports):
            v, old = m.pfc_vector(port), self.sent_vec[port]
            if v == old:
                continue
            self.sent_vec[port] = v
            for g in range(PG_COUNT):
                on = bool(v >> g & 1)
                if on != bool(old >> g & 1):
                    self.res.pfc_log.append((self.now, port, g, on))
                    i = port * PG_COUNT + g
                    if on:
                        self.xoff_since[i] = self.now
                    else:
                        self.xoff_since.pop(i, None)
            if v & ~old:
                self.res.pfc_xoff += 1
            else:
                self.res.pfc_xon += 1
            self._send_vector(port, v)

    def _send_vector(self, port: int, v: int) -> None:
        self.pgen[port] += 1
        if v:
            self._at(self.now + self.net.refresh_quanta * QUANTUM_BYTES, "refresh_port", port,
                     self.pgen[port])
        if port >= self.net.senders:
            return
        end = self._reverse_slot(port)
        mask = self.mmu.lossless_mask[port]
        for prio, g in enumerate(self.cfg.ports[port].prio_to_pg):
            if mask >> g & 1:
                self._at(end + self.d, "pfc_rx", port, prio,
                         self.net.pause_quanta if v >> g & 1 else 0)

    def _refresh_port(self, port: int, gen: int) -> None:
        if self.pgen[port] != gen or not self.sent_vec[port]:
            return
        self.res.pfc_refresh += 1
        self.res.pfc_xoff += 1
        for g in range(PG_COUNT):
            if self.sent_vec[port] >> g & 1:
                self.res.refresh_log.append((self.now, port, g))
        self._send_vector(port, self.sent_vec[port])

    def _reverse_slot(self, port: int) -> int:
        """End of the next PFC frame on the reverse link of ``port``: behind the frames already
        queued there, or behind a data frame just begun when the link was idle (worst case)."""
        t = self.now
        start = max(t, self.rev_free_at[port])
        if self.net.reverse_busy and start == t:
            start = t + self.net.mtu + WIRE_OVERHEAD
        end = start + PFC_FRAME + WIRE_OVERHEAD
        self.rev_free_at[port] = end
        return end

    def _refresh(self, i: int, gen: int) -> None:
        if self.gen[i] != gen or not self.mmu.xoff[i]:
            return
        self.res.pfc_refresh += 1
        self.res.refresh_log.append((self.now, i // PG_COUNT, i % PG_COUNT))
        self._send_pfc(i // PG_COUNT, i % PG_COUNT, True)
        self._at(self.now + self.net.refresh_quanta * QUANTUM_BYTES, "refresh", i, gen)

    # ---------------------------------------------------------------- samples
    def _sample(self) -> None:
        m = self.mmu
        row = {"t_ns": round(self.net.ns(self.now), 3)}
        for k in range(self.net.senders):
            for f in {f.prio for f in self.flows[k]}:
                g = self.cfg.ports[k].prio_to_pg[f]
                i = k * PG_COUNT + g
                tag = f"p{k}pg{g}"
                row[f"{tag}_res"] = m.res[i]
                row[f"{tag}_shared"] = m.shared[i]
                row[f"{tag}_hdrm"] = m.hdrm[i]
                row[f"{tag}_T"] = m.pg_threshold(i)
                row[f"{tag}_xoff"] = int(m.xoff[i])
        if m.dsh:
            for k in range(self.net.senders):
                row[f"p{k}_port_hdrm"] = m.port_hdrm_used[k]
                row[f"p{k}_port_xoff"] = int(m.port_xoff[k])
        row["pool_lossless_shared"] = m.pool_used[0]
        row["pool_lossy_shared"] = m.pool_used[1]
        row["egress_cells"] = m.total_used
        row["pfc_xoff"] = self.res.pfc_xoff
        row["pfc_xon"] = self.res.pfc_xon
        row["lossless_drops"] = self.res.lossless_drops
        row["lossy_drops"] = self.res.lossy_drops
        row["delivered_bytes"] = self.res.delivered_bytes
        self.res.samples.append(row)


def simulate(net: NetConfig, cfg: MmuConfig) -> Result:
    return Network(net, cfg).run()


def paused_byte_times(r: Result) -> int:
    """Sum over (port, PG) of the time the switch held the PG in XOFF on the wire (its PFC
    frames' state: the queue-level XOFF, or with dsh the port-level pause too), from the
    decision to pause to the decision to resume or the end of the run."""
    since: dict[tuple[int, int], int] = {}
    total = 0
    for t, port, pg, xoff in r.pfc_log:
        if xoff:
            since.setdefault((port, pg), t)
        elif (port, pg) in since:
            total += t - since.pop((port, pg))
    return total + sum(r.end - t for t in since.values())
