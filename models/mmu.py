"""Golden model of the MMU admission core: the executable specification.

Plain Python, integers only, one event at a time.  The RTL admission core (rtl/mmu_core.v)
implements the same arithmetic and the same order of updates; its clock-by-clock specification
is models.mmu_pipe.PipelinedMmu, which keeps every rule of this model and states when each event
sees the others.  docs/model.md states every rule with its source.

Event order inside one clock: a release is applied before an arrival (see :meth:`Mmu.step`).

Headroom policies (``MmuConfig.headroom_policy``, docs/model.md "Headroom policies"):
``static`` (per-PG headroom, optionally capped in sum by the shared headroom pool; the RTL's)
and ``dsh`` (Dynamic and Shared Headroom: queue-level XOFF at T - headroom, in-flight cells in
the shared segment, a port-level pause into one ``port_headroom`` per port; the RTL's
rtl/mmu_core_dsh.v, with its timing in models.mmu_pipe).
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import (HEADROOM_DSH, PG_COUNT, POOL_LOSSLESS, POOL_LOSSY, QUEUE_COUNT,
                     MmuConfig)

# Drop reasons, numbered as the RTL's resp_reason output.
REASON_NONE = 0
REASON_BAD_LEN = 1  # length 0 or above cfg max_frame_bytes
REASON_BAD_INDEX = 2  # port, PG, egress port or queue out of range
REASON_BUFFER_FULL = 3  # hard guard: total cells would exceed buffer_cells
REASON_INGRESS_LOSSY = 4  # lossy PG over its shared threshold (or pool exhausted)
REASON_HEADROOM_FULL = 5  # lossless PG over threshold and its headroom cannot take the frame
REASON_EGRESS = 6  # egress queue over its threshold (or egress pool exhausted)
REASON_COUNT = 7
REASON_NAMES = ["none", "bad_len", "bad_index", "buffer_full", "ingress_lossy",
                "headroom_full", "egress"]

SEG_NONE = 0
SEG_RESERVED = 1
SEG_SHARED = 2
SEG_HEADROOM = 3


def release_split(cells: int, hdrm: int, shared: int, res: int) -> tuple[int, int, int, int]:
    """Cells a release takes from headroom, shared, reserved (in that order, each clamped at
    what is held) and the remainder above what was held (an underflow when non-zero)."""
    from_h = min(cells, hdrm)
    from_s = min(cells - from_h, shared)
    from_r = min(cells - from_h - from_s, res)
    return from_h, from_s, from_r, cells - from_h - from_s - from_r


def egress_release_split(cells: int, q_shared: int, q_res: int) -> tuple[int, int, int]:
    """Cells a release takes from the egress queue's shared then reserved segment, and the
    remainder above what was held."""
    from_es = min(cells, q_shared)
    from_er = min(cells - from_es, q_res)
    return from_es, from_er, cells - from_es - from_er


def shift_alpha(value: int, alpha_shift: int) -> int:
    """alpha * value, alpha = 2**alpha_shift: left shift for n >= 0, truncating right shift."""
    return value << alpha_shift if alpha_shift >= 0 else value >> -alpha_shift


@dataclass(frozen=True)
class Decision:
    admit: bool
    reason: int
    cells: int  # ceil(length / cell_bytes) (0 for a bad length)
    res: int  # cells placed in the PG's reserved segment
    shared: int  # cells placed in shared
    hdrm: int  # cells placed in headroom
    segment: int  # highest segment used (SEG_*), SEG_NONE when dropped


@dataclass(frozen=True)
class PfcEvent:
    seq: int  # index of the event (arrival or release) that caused it
    port: int
    pg: int
    xoff: bool  # True: XOFF (pause), False: XON (resume)


@dataclass(frozen=True)
class PortPauseEvent:
    """headroom_policy dsh: the port-level pause of an ingress port turned on or off.  While it
    is on, every priority mapped to a lossless PG of the port is paused (``Mmu.pfc_vector``)."""
    seq: int
    port: int
    xoff: bool


class Mmu:
    """Ingress (port, PG) and egress (port, queue) cell accounting with DT and PFC Xoff/Xon."""

    def __init__(self, cfg: MmuConfig, validate: bool = True) -> None:
        if validate:
            self.warnings = cfg.validate()
        else:
            self.warnings = []
        self.cfg = cfg
        self.ports = cfg.port_count
        n = self.ports * PG_COUNT
        nq = self.ports * QUEUE_COUNT
        # per-PG configuration, flattened for speed
        self.pg_lossless = [pg.lossless for _, _, pg in cfg.all_pgs()]
        self.pg_reserved = [pg.reserved for _, _, pg in cfg.all_pgs()]
        self.pg_dynamic = [pg.dynamic for _, _, pg in cfg.all_pgs()]
        self.pg_alpha = [pg.alpha_shift for _, _, pg in cfg.all_pgs()]
        self.pg_static = [pg.static_th for _, _, pg in cfg.all_pgs()]
        self.pg_hdrm_limit = [pg.headroom for _, _, pg in cfg.all_pgs()]
        self.pg_xon = [pg.xon for _, _, pg in cfg.all_pgs()]
        self.pg_xon_offset = [pg.xon_offset for _, _, pg in cfg.all_pgs()]
        self.q_pool = [POOL_LOSSLESS if q.lossless else POOL_LOSSY for _, _, q in cfg.all_queues()]
        self.q_reserved = [q.reserved for _, _, q in cfg.all_queues()]
        self.q_dynamic = [q.dynamic for _, _, q in cfg.all_queues()]
        self.q_alpha = [q.alpha_shift for _, _, q in cfg.all_queues()]
        self.q_static = [q.static_th for _, _, q in cfg.all_queues()]
        self.pool_shared_size = [cfg.lossless_shared, cfg.lossy_shared]
        self.egress_shared_size = [cfg.egress_lossless_shared, cfg.egress_lossy_shared]
        self.hdrm_pool_size = cfg.shared_headroom_pool
        self.buffer_cells = cfg.buffer_cells
        self.cell_bytes = cfg.cell_bytes
        self.max_frame_bytes = cfg.max_frame_bytes

        # ingress state
        self.res = [0] * n
        self.shared = [0] * n
        self.hdrm = [0] * n
        self.res_wm = [0] * n
        self.shared_wm = [0] * n
        self.hdrm_wm = [0] * n
        self.xoff = [False] * n
        self.xoff_count = [0] * n
        self.xon_count = [0] * n
        self.pool_used = [0, 0]  # shared occupancy of the lossless / lossy ingress pool
        self.pool_wm = [0, 0]
        self.hdrm_pool_used = 0  # sum of headroom occupancy over all PGs
        self.hdrm_pool_wm = 0
        self.total_used = 0  # every cell held (hard guard)
        self.total_wm = 0
        # egress state
        self.q_res = [0] * nq
        self.q_shared = [0] * nq
        self.q_wm = [0] * nq
        self.egress_used = [0, 0]
        self.egress_wm = [0, 0]
        # counters and event log
        self.drops = [0] * REASON_COUNT
        self.admitted = 0
        self.release_underflow = 0
        self.release_bad_index = 0
        self.events: list[PfcEvent] = []
        self.seq = 0
        # headroom_policy dsh (docs/model.md "Headroom policies"); idle with the static policy
        self.dsh = cfg.headroom_policy == HEADROOM_DSH
        self.port_hdrm_limit = [port.port_headroom for port in cfg.ports]
        self.port_hdrm_used = [0] * self.ports  # sum of hdrm over the port's PGs (dsh)
        self.port_hdrm_wm = [0] * self.ports
        self.port_req = [False] * n  # dsh: the PG asks for its port's port-level pause
        self.port_req_count = [0] * self.ports
        self.port_xoff = [False] * self.ports
        self.port_xoff_count = [0] * self.ports
        self.port_xon_count = [0] * self.ports
        self.port_events: list[PortPauseEvent] = []
        self.lossless_mask = [sum(1 << g for g in range(PG_COUNT)
                                  if self.pg_lossless[p * PG_COUNT + g])
                              for p in range(self.ports)]

    # ------------------------------------------------------------------ thresholds
    def pg_threshold(self, i: int) -> int:
        """T for PG i: alpha * (pool shared size - pool shared occupancy), or static_th."""
        if not self.pg_dynamic[i]:
            return self.pg_static[i]
        pool = POOL_LOSSLESS if self.pg_lossless[i] else POOL_LOSSY
        return shift_alpha(self.pool_shared_size[pool] - self.pool_used[pool], self.pg_alpha[i])

    def q_threshold(self, j: int) -> int:
        if not self.q_dynamic[j]:
            return self.q_static[j]
        pool = self.q_pool[j]
        return shift_alpha(self.egress_shared_size[pool] - self.egress_used[pool], self.q_alpha[j])

    # ------------------------------------------------------------------ events
    def step(self, release: tuple | None = None, arrival: tuple | None = None):
        """One clock: the release (port, pg, eport, queue, cells) first, then the arrival
        (port, pg, eport, queue, length).  Returns the arrival's Decision (or None)."""
        if release is not None:
            self.release(*release)
        if arrival is not None:
            return self.arrive(*arrival)
        return None

    def arrive(self, port: int, pg: int, eport: int, queue: int, length: int) -> Decision:
        seq = self.seq
        self.seq += 1
        if length <= 0 or length > self.max_frame_bytes:
            return self._drop(REASON_BAD_LEN, 0)
        cells = -(-length // self.cell_bytes)
        if not (0 <= port < self.ports and 0 <= pg < PG_COUNT
                and 0 <= eport < self.ports and 0 <= queue < QUEUE_COUNT):
            return self._drop(REASON_BAD_INDEX, cells)
        i = port * PG_COUNT + pg
        j = eport * QUEUE_COUNT + queue

        # ---- decide (all from the state before this arrival)
        lossless = self.pg_lossless[i]
        pool = POOL_LOSSLESS if lossless else POOL_LOSSY
        to_res = min(cells, self.pg_reserved[i] - self.res[i])
        rem = cells - to_res
        seg = SEG_RESERVED
        reason = REASON_NONE
        if self.total_used + cells > self.buffer_cells:
            reason = REASON_BUFFER_FULL
        elif rem > 0:
            t = self.pg_threshold(i)
            if self.shared[i] < t and self.pool_used[pool] + rem <= self.pool_shared_size[pool]:
                seg = SEG_SHARED
            elif lossless and (
                    self.port_hdrm_used[port] + rem <= self.port_hdrm_limit[port] if self.dsh
                    else (self.hdrm[i] + rem <= self.pg_hdrm_limit[i]
                          and (self.hdrm_pool_size == 0
                               or self.hdrm_pool_used + rem <= self.hdrm_pool_size))):
                seg = SEG_HEADROOM
            else:
                reason = REASON_HEADROOM_FULL if lossless else REASON_INGRESS_LOSSY
        eto_res = min(cells, self.q_reserved[j] - self.q_res[j])
        erem = cells - eto_res
        epool = self.q_pool[j]
        if reason == REASON_NONE and erem > 0:
            if not (self.q_shared[j] < self.q_threshold(j)
                    and self.egress_used[epool] + erem <= self.egress_shared_size[epool]):
                reason = REASON_EGRESS

        if reason != REASON_NONE:
            self.drops[reason] += 1
            self._pfc_eval(i, seq)
            return Decision(False, reason, cells, 0, 0, 0, SEG_NONE)

        # ---- commit
        if to_res:
            self.res[i] += to_res
            if self.res[i] > self.res_wm[i]:
                self.res_wm[i] = self.res[i]
        sh = hd = 0
        if seg == SEG_SHARED:
            sh = rem
            self.shared[i] += rem
            if self.shared[i] > self.shared_wm[i]:
                self.shared_wm[i] = self.shared[i]
            self.pool_used[pool] += rem
            if self.pool_used[pool] > self.pool_wm[pool]:
                self.pool_wm[pool] = self.pool_used[pool]
        elif seg == SEG_HEADROOM:
            hd = rem
            self.hdrm[i] += rem
            if self.hdrm[i] > self.hdrm_wm[i]:
                self.hdrm_wm[i] = self.hdrm[i]
            self.hdrm_pool_used += rem
            if self.hdrm_pool_used > self.hdrm_pool_wm:
                self.hdrm_pool_wm = self.hdrm_pool_used
            if self.dsh:
                self.port_hdrm_used[port] += rem
                if self.port_hdrm_used[port] > self.port_hdrm_wm[port]:
                    self.port_hdrm_wm[port] = self.port_hdrm_used[port]
        self.total_used += cells
        if self.total_used > self.total_wm:
            self.total_wm = self.total_used
        self.q_res[j] += eto_res
        self.q_shared[j] += erem
        occ = self.q_res[j] + self.q_shared[j]
        if occ > self.q_wm[j]:
            self.q_wm[j] = occ
        self.egress_used[epool] += erem
        if self.egress_used[epool] > self.egress_wm[epool]:
            self.egress_wm[epool] = self.egress_used[epool]
        self.admitted += 1
        self._pfc_eval(i, seq)
        return Decision(True, REASON_NONE, cells, to_res, sh, hd,
                        seg if rem else SEG_RESERVED)

    def _drop(self, reason: int, cells: int) -> Decision:
        self.drops[reason] += 1
        return Decision(False, reason, cells, 0, 0, 0, SEG_NONE)

    def release(self, port: int, pg: int, eport: int, queue: int, cells: int) -> bool:
        """A frame of ``cells`` left the buffer.  Headroom is drained first, then shared, then
        reserved (ns-3 switch-mmu order); egress shared first, then reserved.  Returns False on
        an underflow (more cells released than held), which is counted and clamped at zero."""
        seq = self.seq
        self.seq += 1
        if not (0 <= port < self.ports and 0 <= pg < PG_COUNT
                and 0 <= eport < self.ports and 0 <= queue < QUEUE_COUNT) or cells < 0:
            self.release_bad_index += 1
            return False
        i = port * PG_COUNT + pg
        j = eport * QUEUE_COUNT + queue
        pool = POOL_LOSSLESS if self.pg_lossless[i] else POOL_LOSSY
        from_h, from_s, from_r, left = release_split(cells, self.hdrm[i], self.shared[i],
                                                     self.res[i])
        self.hdrm[i] -= from_h
        self.shared[i] -= from_s
        self.res[i] -= from_r
        self.hdrm_pool_used -= from_h
        if self.dsh:
            self.port_hdrm_used[port] -= from_h
        self.pool_used[pool] -= from_s
        self.total_used -= from_h + from_s + from_r
        from_es, from_er, eleft = egress_release_split(cells, self.q_shared[j], self.q_res[j])
        self.q_shared[j] -= from_es
        self.q_res[j] -= from_er
        self.egress_used[self.q_pool[j]] -= from_es
        ok = left == 0 and eleft == 0
        if not ok:
            self.release_underflow += 1
        self._pfc_eval(i, seq)
        return ok

    # ------------------------------------------------------------------ PFC
    def xon_point(self, i: int, t: int | None = None) -> int:
        """max(xon, T - xon_offset) (SAI), never at or above T itself (so Xon < Xoff)."""
        if t is None:
            t = self.pg_threshold(i)
        return min(max(self.pg_xon[i], t - self.pg_xon_offset[i]), t - 1)

    def _pfc_eval(self, i: int, seq: int) -> None:
        """XOFF when the PG uses headroom or its (non-zero) shared occupancy reaches T; XON once
        headroom is empty and shared occupancy is zero or at or below the XON point.  Lossy PGs
        never pause.

        A PG holding no shared and no headroom cells is never paused, even when T is 0 (the
        pool is exhausted by others, or static_th is 0): PFC is only evaluated on the PG's own
        events, and an empty paused PG would have none left, so it would stay paused forever.
        Its next frame beyond reserved goes to headroom and pauses it again."""
        if not self.pg_lossless[i]:
            return
        t = self.pg_threshold(i)
        if self.dsh:
            self._dsh_eval(i, seq, t)
            return
        shared = self.shared[i]
        if not self.xoff[i]:
            if self.hdrm[i] > 0 or (shared > 0 and shared >= t):
                self.xoff[i] = True
                self.xoff_count[i] += 1
                self.events.append(PfcEvent(seq, i // PG_COUNT, i % PG_COUNT, True))
        elif self.hdrm[i] == 0 and (shared == 0 or shared <= self.xon_point(i, t)):
            self.xoff[i] = False
            self.xon_count[i] += 1
            self.events.append(PfcEvent(seq, i // PG_COUNT, i % PG_COUNT, False))

    def _dsh_eval(self, i: int, seq: int, t: int) -> None:
        """headroom_policy dsh, two levels (docs/model.md "Headroom policies"):

        * queue level (``xoff[i]``, PFC for the PG's priorities): the static rule with the
          Xoff point ``X = T - headroom`` in place of T: XOFF when headroom is in use or
          ``0 < shared >= X``; XON when headroom is empty and shared is zero or at most
          ``min(max(xon, X - xon_offset), X - 1)``.  The cells that arrive after the XOFF (at
          most ``headroom`` of them while T holds) still go to the shared segment, up to T.
        * port level (``port_req[i]``, the PG's request): the static rule itself, with T:
          requested when headroom is in use or ``0 < shared >= T``, withdrawn when headroom
          is empty and shared is zero or at most ``min(max(xon, T - xon_offset), T - 1)``.
          The port is paused while any of its PGs requests it; frames that find shared at T
          go to the port's headroom, which one eta of the link covers for all its PGs."""
        shared = self.shared[i]
        hd = self.hdrm[i]
        port = i // PG_COUNT
        x = t - self.pg_hdrm_limit[i]
        if not self.xoff[i]:
            if hd > 0 or (shared > 0 and shared >= x):
                self.xoff[i] = True
                self.xoff_count[i] += 1
                self.events.append(PfcEvent(seq, port, i % PG_COUNT, True))
        elif hd == 0 and (shared == 0 or shared <= self.xon_point(i, x)):
            self.xoff[i] = False
            self.xon_count[i] += 1
            self.events.append(PfcEvent(seq, port, i % PG_COUNT, False))
        req = self.port_req[i]
        if not req:
            req = hd > 0 or (shared > 0 and shared >= t)
        elif hd == 0 and (shared == 0 or shared <= self.xon_point(i, t)):
            req = False
        if req == self.port_req[i]:
            return
        self.port_req[i] = req
        self.port_req_count[port] += 1 if req else -1
        on = self.port_req_count[port] > 0
        if on != self.port_xoff[port]:
            self.port_xoff[port] = on
            if on:
                self.port_xoff_count[port] += 1
            else:
                self.port_xon_count[port] += 1
            self.port_events.append(PortPauseEvent(seq, port, on))

    def pfc_vector(self, port: int) -> int:
        """The PGs whose priorities the port's link partner must hold: the queue-level XOFF
        vector, and every lossless PG while the port-level pause (dsh) is on.  With the static
        policy this is ``xoff_vector``."""
        v = self.xoff_vector(port)
        if self.port_xoff[port]:
            v |= self.lossless_mask[port]
        return v

    def port_state(self, port: int) -> dict[str, int]:
        """dsh: the port's headroom use, its limit and watermark, and the port-level pause."""
        return {"hdrm": self.port_hdrm_used[port], "limit": self.port_hdrm_limit[port],
                "hdrm_wm": self.port_hdrm_wm[port], "xoff": int(self.port_xoff[port]),
                "requests": self.port_req_count[port]}

    # ------------------------------------------------------------------ views
    def pg_state(self, port: int, pg: int) -> dict[str, int]:
        i = port * PG_COUNT + pg
        return {"res": self.res[i], "shared": self.shared[i], "hdrm": self.hdrm[i],
                "res_wm": self.res_wm[i], "shared_wm": self.shared_wm[i],
                "hdrm_wm": self.hdrm_wm[i], "xoff": int(self.xoff[i])}

    def queue_state(self, port: int, queue: int) -> dict[str, int]:
        j = port * QUEUE_COUNT + queue
        return {"res": self.q_res[j], "shared": self.q_shared[j],
                "occupancy": self.q_res[j] + self.q_shared[j], "wm": self.q_wm[j]}

    def xoff_vector(self, port: int) -> int:
        v = 0
        for g in range(PG_COUNT):
            if self.xoff[port * PG_COUNT + g]:
                v |= 1 << g
        return v
