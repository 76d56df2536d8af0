"""Golden model of the line-rate admission core: the executable specification of a pipeline
that accepts one arrival and one release every clock (issue 16, docs/model.md "Line-rate
admission").

It keeps every rule of :class:`models.mmu.Mmu` (cells, reserved -> shared -> headroom, DT,
release order headroom -> shared -> reserved, XOFF / XON with the SAI resume point) and states
exactly what a pipelined core with its counters in RAM sees and when:

* **Clock stepped.**  :meth:`PipelinedMmu.clock` is called once per clock, idle clocks
  included; each call is one *pair* (the clock's release and arrival, either may be absent).
* **Decision view (view_lag, 5 in the RTL).**  The arrival of clock k is decided on the
  counters as committed after clock k - view_lag, plus a worst-case charge for every arrival
  of clocks k - view_lag + 1 .. k - 1 (decided, not yet committed): its full cell count is
  added to every counter it could have raised (its PG's reserved, shared and headroom, its
  queue's reserved and shared, every pool, the headroom pool and the total).  Releases of those
  clocks and of clock k are not credited yet.  The view is never below the true occupancy, so
  no admitted frame can exceed the total buffer, a reserved segment, a headroom limit or the
  headroom pool (hard limits hold for every decision).
* **Global counters (global_lag, 6 in the RTL).**  The total, the pools and the headroom pool
  in that view are the ones committed after clock k - global_lag, and the arrivals of clocks
  k - global_lag + 1 .. k - 1 are charged to them in full: the global counters commit a clock
  after the per-entry counters.
* **Threshold lag (t_lag).**  T (DT) of every decision and evaluation for clock k is computed
  from the pool occupancy committed after clock k - t_lag (the core computes it in the stages
  before the decision; ASICs do the same).
* **Commit.**  The pair of clock k is committed exactly, release first then the arrival's
  decided amounts, at the end of clock k + view_lag - 1 (in the model: right after that
  clock's decision).
* **PFC evaluation.**  At each commit, the release's PG, the arrival's PG (any arrival with a
  good length and index) and the *scan* PG (``clock mod (ports * 8)``) are evaluated on their
  post-commit counters with T of that clock: every PG is re-evaluated at least once every
  ``ports * 8`` clocks, so a PG whose T fell under its occupancy because of other PGs is paused
  within ``ports * 8`` clocks (plus the pipeline), even without an event of its own.
* **Configuration under traffic.**  :meth:`write_pg`, :meth:`write_queue` and
  :meth:`write_global` called after :meth:`clock` for clock k take effect from clock k + 1: the
  pair of a clock carries the configuration of its clock through decision, commit and
  evaluation.  A PG's (or queue's) *class* (lossless / lossy: which pool its cells are charged to, whether
  it may use headroom and pause) is recorded with its counters: an arrival is decided with the
  configured class when its PG holds no cell (in the committed state, with no arrival for it in
  flight), with the class of the arrival in flight when there is one, and with the recorded
  class otherwise; an admitted arrival records the class it was decided with.  A release
  therefore always returns cells to the pool they were charged to, a class change takes effect
  once the PG has drained, and no counter can wrap whatever is written.  A PG whose recorded
  class is lossy is never in XOFF.

* **Headroom policy dsh** (``headroom_policy`` 1, carried by each pair from its clock):
  headroom admission by the port's counter (committed after clock k - port_lag, 7 in the RTL,
  plus the full cells of the port's arrivals of clocks k - port_lag + 1 .. k - 1) against
  ``port_headroom``; queue-level XOFF at X = T - headroom, the PG's port-level request at T;
  the ports' pause applied once per pair after its evaluations; :meth:`pfc_word` is the core's
  ``pfc_xoff`` (docs/model.md "Line-rate admission", docs/mmu_core.md "Headroom policy dsh").

Integers only; no cocotb.  The RTL implements the same arithmetic and order of updates.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .config import (ALPHA_SHIFT_MAX, ALPHA_SHIFT_MIN, HEADROOM_DSH, PG_COUNT, POOL_LOSSLESS,
                     POOL_LOSSY, QUEUE_COUNT, MmuConfig)
from .mmu import (REASON_BAD_INDEX, REASON_BAD_LEN, REASON_BUFFER_FULL, REASON_COUNT,
                  REASON_EGRESS, REASON_HEADROOM_FULL, REASON_INGRESS_LOSSY, REASON_NONE,
                  SEG_HEADROOM, SEG_NONE, SEG_RESERVED, SEG_SHARED, Decision, PfcEvent,
                  PortPauseEvent, egress_release_split, release_split, shift_alpha)

VIEW_LAG = 5        # the RTL's (rtl/mmu_core.v)
GLOBAL_EXTRA = 1    # the pool, headroom-pool and total counters commit a clock after entries
# headroom_policy dsh: the decision sees a port's headroom counter a clock later than the
# global counters (port_lag = global_lag + PORT_EXTRA, 7 in the RTL): the counter is selected
# by the arrival's port into a register in front of DEC1a (rtl/mmu_core_dsh.v)
PORT_EXTRA = 1
DEFAULT_T_LAG = 10
# the RTL's latencies in clocks: request edge to registered response, and to pfc_xoff (one
# source for every bench and for the switch that instantiates the core)
RTL_RESP_LATENCY = 9
RTL_XOFF_LATENCY = 14
# stat_addr to stat_data in clocks, the address held (docs/mmu_core.md "Configuration and
# status port"; the default of rtl/regs/pfcmmu_csr.v's STAT_LATENCY, generated from here)
RTL_STAT_LATENCY = 6

PG_FIELDS = ("lossless", "reserved", "dynamic", "alpha_shift", "static_th", "headroom", "xon",
             "xon_offset")
QUEUE_FIELDS = ("lossless", "reserved", "dynamic", "alpha_shift", "static_th")
GLOBAL_FIELDS = ("buffer_cells", "max_frame_bytes", "pool_shared_lossless", "pool_shared_lossy",
                 "hdrm_pool", "egress_shared_lossless", "egress_shared_lossy", "headroom_policy")
# per-port configuration (dsh): the port's headroom limit
PORT_FIELDS = ("port_headroom",)
# the global register headroom_policy: 0 static, 1 dsh
POLICY_STATIC = 0
POLICY_DSH = 1

# configuration flags (rtl/mmu_cfg_check.v, status 0x19; docs/mmu_core.md "Configuration
# flags"): bit k is CFG_FLAG_NAMES[k], PipelinedMmu.config_flags() the rules
CFG_FLAG_NAMES = ("pg_alpha", "queue_alpha", "lossy_headroom", "xon", "zero_pool",
                  "ingress_pools", "egress_pools", "max_frame", "buffer")
CFG_FLAG = {name: 1 << k for k, name in enumerate(CFG_FLAG_NAMES)}
RTL_LEN_W = 14      # rtl/mmu_core.v's default frame length width
# clocks from the scan reading an entry (sc0) to the flag word of its scan (the RAM read, the
# checker's seven stages), plus the clock of the checker's registered alpha multiples of the
# lossless shared segment; a configuration write shows in the word (and so does its repair)
# within cfg_flags_latency(N) clocks: the scan that reads the new value may start up to N
# clocks after the write, and takes N
CFG_FLAGS_PIPE = 10


def cfg_flags_latency(n_pg: int) -> int:
    """Clocks from a configuration write (the clock it is presented) to the flags word and
    err_bad_config that include it, at most (docs/mmu_core.md)."""
    return 2 * n_pg + CFG_FLAGS_PIPE


@dataclass(frozen=True)
class PipeDecision(Decision):
    eres: int = 0  # cells placed in the egress queue's reserved segment
    eshared: int = 0  # cells placed in the egress queue's shared segment


@dataclass
class _Pair:
    """One clock's events between decision and commit, with the configuration of its clock."""
    clock: int
    rel: tuple | None = None  # (i, j, cells) of a release with good indices
    rel_cfg: dict | None = None  # release PG's configuration (for its PFC evaluation)
    arr: tuple | None = None  # (i, j, cells) of an arrival with good length and indices
    arr_cfg: dict | None = None
    admit: bool = False
    pg_class: int = 0  # class the arrival was decided with (PG, queue)
    q_class: int = 0
    amounts: tuple = (0, 0, 0, 0, 0)  # res, shared, hdrm, eres, eshared
    scan: int = 0
    scan_cfg: dict = field(default_factory=dict)
    sizes: tuple = ()  # (pool_shared[2], egress_shared[2]) of this clock, for T
    pools: tuple = ()  # pool occupancy committed after clock - t_lag, for T
    dsh: bool = False  # headroom_policy of this clock is dsh
    mask: int = 0  # the configured lossless PGs of this clock (bit i: PG i), for pfc_word


class PipelinedMmu:
    """Ingress (port, PG) and egress (port, queue) accounting of the line-rate core."""

    def __init__(self, cfg: MmuConfig, t_lag: int = DEFAULT_T_LAG, validate: bool = True,
                 view_lag: int = VIEW_LAG, global_lag: int | None = None,
                 port_lag: int | None = None):
        global_lag = view_lag + GLOBAL_EXTRA if global_lag is None else global_lag
        port_lag = global_lag + PORT_EXTRA if port_lag is None else port_lag
        if view_lag < 1 or global_lag < view_lag or t_lag < global_lag or port_lag < global_lag:
            raise ValueError(f"t_lag {t_lag}, view_lag {view_lag}, global_lag {global_lag}, "
                             f"port_lag {port_lag}: need 1 <= view_lag <= global_lag <= t_lag "
                             "and global_lag <= port_lag")
        self.view_lag = view_lag
        self.global_lag = global_lag
        self.port_lag = port_lag
        self.warnings = cfg.validate() if validate else []
        self.t_lag = t_lag
        self.ports = cfg.port_count
        self.cell_bytes = cfg.cell_bytes
        n = self.ports * PG_COUNT
        nq = self.ports * QUEUE_COUNT
        self.n_pg, self.n_q = n, nq
        # configuration (what the register map holds)
        self.pg_cfg = [{f: int(getattr(pg, f)) for f in PG_FIELDS} for _, _, pg in cfg.all_pgs()]
        self.q_cfg = [{f: int(getattr(q, f)) for f in QUEUE_FIELDS}
                      for _, _, q in cfg.all_queues()]
        self.glob = {
            "buffer_cells": cfg.buffer_cells, "max_frame_bytes": cfg.max_frame_bytes,
            "pool_shared_lossless": cfg.lossless_shared, "pool_shared_lossy": cfg.lossy_shared,
            "hdrm_pool": cfg.shared_headroom_pool,
            "egress_shared_lossless": cfg.egress_lossless_shared,
            "egress_shared_lossy": cfg.egress_lossy_shared,
            "headroom_policy": POLICY_DSH if cfg.headroom_policy == HEADROOM_DSH else POLICY_STATIC}
        self.port_cfg = [{"port_headroom": port.port_headroom} for port in cfg.ports]
        # the lossless bits of the configuration (bit i: PG i), carried by each pair
        self.lossless_bits = sum(1 << i for i, c in enumerate(self.pg_cfg) if c["lossless"])
        # committed state
        self.res = [0] * n
        self.shared = [0] * n
        self.hdrm = [0] * n
        self.res_wm = [0] * n
        self.shared_wm = [0] * n
        self.hdrm_wm = [0] * n
        # recorded class, 1: lossless (state, see above); 0 (lossy) until the first arrival, the
        # reset value of the RTL's register (an empty PG's arrival is decided with its
        # configured class, so the recorded class of an entry that holds nothing decides nothing)
        self.pg_class = [0] * n
        self.xoff = [False] * n
        self.xoff_count = [0] * n
        self.xon_count = [0] * n
        self.q_res = [0] * nq
        self.q_shared = [0] * nq
        self.q_wm = [0] * nq
        self.q_class = [0] * nq
        self.pool_used = [0, 0]
        self.pool_wm = [0, 0]
        self.hdrm_pool_used = 0
        self.hdrm_pool_wm = 0
        self.total_used = 0
        self.total_wm = 0
        self.egress_used = [0, 0]
        self.egress_wm = [0, 0]
        # counters
        self.drops = [0] * REASON_COUNT
        self.admitted = 0
        self.release_underflow = 0
        self.release_bad_index = 0
        self.events: list[PfcEvent] = []
        # headroom_policy dsh (docs/model.md "Headroom policies"; docs/mmu_core.md "DSH"): the
        # port's headroom (the sum of its PGs' hdrm, counted under either policy), the PGs'
        # port-level requests, the port-level pause and the lossless mask it applies to
        self.port_hdrm = [0] * self.ports
        self.port_hdrm_wm = [0] * self.ports
        self.port_req = [False] * n
        self.port_req_count = [0] * self.ports
        self.port_xoff = [False] * self.ports
        self.port_xoff_count = [0] * self.ports
        self.port_xon_count = [0] * self.ports
        self.port_events: list[PortPauseEvent] = []
        self._req_ports: set[int] = set()
        self.pfc_mask = self.lossless_bits
        # pipeline
        self.now = 0  # clocks stepped so far (the next clock() is clock `now`)
        self.inflight: deque[_Pair] = deque()  # decided, not committed
        # pools (ingress lossless / lossy, egress lossless / lossy) committed after clocks
        # now - t_lag .. now - view_lag (the reset state before clock 0)
        depth = t_lag - view_lag + 1
        self.pool_hist: deque[tuple] = deque([(0, 0, 0, 0)] * depth, maxlen=depth)
        # global counters (total, pools, headroom pool, egress pools) committed after clocks
        # now - global_lag .. now - view_lag, and the arrivals of the clocks since the oldest
        gdepth = global_lag - view_lag + 1
        self.gsnap: deque[tuple] = deque([(0, 0, 0, 0, 0, 0)] * gdepth, maxlen=gdepth)
        self.recent: deque = deque([None] * (global_lag - 1), maxlen=max(global_lag - 1, 1))
        # dsh: the port headroom counters committed after clocks now - port_lag .. now -
        # view_lag, and the (port, cells) of the arrivals of the last port_lag - 1 clocks
        pdepth = port_lag - view_lag + 1
        self.psnap: deque[tuple] = deque([(0,) * self.ports] * pdepth, maxlen=pdepth)
        self.recent_p: deque = deque([None] * (port_lag - 1), maxlen=max(port_lag - 1, 1))

    # ------------------------------------------------------------------ configuration
    def write_pg(self, port: int, pg: int, **fields) -> None:
        i = port * PG_COUNT + pg
        c = self.pg_cfg[i]
        for k, v in fields.items():
            if k not in c:
                raise KeyError(k)
            c[k] = int(v)
        if "lossless" in fields:
            self.lossless_bits = (self.lossless_bits & ~(1 << i)) | ((c["lossless"] & 1) << i)

    def write_port(self, port: int, **fields) -> None:
        c = self.port_cfg[port]
        for k, v in fields.items():
            if k not in c:
                raise KeyError(k)
            c[k] = int(v)

    def set_pg_cfg(self, pg_cfg: list[dict]) -> None:
        """Adopt another model's PG configuration (a reset that keeps the configuration)."""
        self.pg_cfg = pg_cfg
        self.lossless_bits = sum(1 << i for i, c in enumerate(pg_cfg) if c["lossless"] & 1)
        self.pfc_mask = self.lossless_bits

    def write_queue(self, port: int, queue: int, **fields) -> None:
        c = self.q_cfg[port * QUEUE_COUNT + queue]
        for k, v in fields.items():
            if k not in c:
                raise KeyError(k)
            c[k] = int(v)

    def write_global(self, **fields) -> None:
        for k, v in fields.items():
            if k not in self.glob:
                raise KeyError(k)
            self.glob[k] = int(v)

    # ------------------------------------------------------------------ configuration flags
    def config_flags(self, len_w: int = RTL_LEN_W) -> int:
        """The configuration flag word (CFG_FLAG_NAMES) of the current configuration: the
        rules of MmuConfig.validate() on the values the core's registers hold (global shared
        segment sizes, not whole pools; alpha_shift as its 4-bit two's complement field).
        The core computes what this model computes whatever the flags say."""
        g = self.glob
        shared = (g["pool_shared_lossless"], g["pool_shared_lossy"])
        eshared = (g["egress_shared_lossless"], g["egress_shared_lossy"])
        buffer_cells = g["buffer_cells"]
        flags = 0
        res_sum = hdrm_sum = 0
        dsh = g["headroom_policy"] & 1 == POLICY_DSH
        for c in self.pg_cfg:
            a = _alpha4(c["alpha_shift"])
            if not ALPHA_SHIFT_MIN <= a <= ALPHA_SHIFT_MAX:
                flags |= CFG_FLAG["pg_alpha"]
            if not c["lossless"] and c["headroom"]:
                flags |= CFG_FLAG["lossy_headroom"]
            if c["lossless"]:
                xoff_point = (shift_alpha(shared[POOL_LOSSLESS], a) if c["dynamic"]
                              else c["static_th"])
                if dsh:  # the queue-level Xoff point X = T - headroom (validate()'s rule)
                    xoff_point -= c["headroom"]
                if c["xon"] >= max(xoff_point, 1):
                    flags |= CFG_FLAG["xon"]
                hdrm_sum += c["headroom"]
            pool = POOL_LOSSLESS if c["lossless"] else POOL_LOSSY
            if (c["dynamic"] or c["static_th"]) and shared[pool] == 0:
                flags |= CFG_FLAG["zero_pool"]
            res_sum += c["reserved"]
        q_res = [0, 0]
        for c in self.q_cfg:
            if not ALPHA_SHIFT_MIN <= _alpha4(c["alpha_shift"]) <= ALPHA_SHIFT_MAX:
                flags |= CFG_FLAG["queue_alpha"]
            pool = POOL_LOSSLESS if c["lossless"] else POOL_LOSSY
            if (c["dynamic"] or c["static_th"]) and eshared[pool] == 0:
                flags |= CFG_FLAG["zero_pool"]
            q_res[pool] += c["reserved"]
        # MmuConfig's ingress_lossless_pool + ingress_lossy_pool, from the core's registers;
        # the headroom reserved is the policy's (MmuConfig.lossless_shared): under dsh every
        # port's port_headroom (a PG's headroom is its eta_q, taken from the shared segment; the
        # headroom pool is not used), under static the headroom pool if set, else the lossless
        # PGs' headroom
        if dsh:
            headroom = sum(c["port_headroom"] for c in self.port_cfg)
        else:
            headroom = g["hdrm_pool"] if g["hdrm_pool"] else hdrm_sum
        if shared[0] + shared[1] + res_sum + headroom > buffer_cells:
            flags |= CFG_FLAG["ingress_pools"]
        if any(eshared[p] + q_res[p] > buffer_cells for p in (POOL_LOSSLESS, POOL_LOSSY)):
            flags |= CFG_FLAG["egress_pools"]
        mf = g["max_frame_bytes"]
        if mf < 64 or mf >= 1 << len_w or mf > buffer_cells * self.cell_bytes:
            flags |= CFG_FLAG["max_frame"]
        if buffer_cells == 0:
            flags |= CFG_FLAG["buffer"]
        return flags

    # ------------------------------------------------------------------ thresholds
    def _sizes(self) -> tuple:
        g = self.glob
        return (g["pool_shared_lossless"], g["pool_shared_lossy"],
                g["egress_shared_lossless"], g["egress_shared_lossy"])

    def _lagged_pools(self) -> tuple:
        """Ingress and egress pool occupancy committed after clock now - t_lag."""
        return self.pool_hist[0]

    @staticmethod
    def _threshold(c: dict, size: int, used: int) -> int:
        if not c["dynamic"]:
            return c["static_th"]
        a = c["alpha_shift"]
        return shift_alpha(size - used, a - 16 if a >= 8 else a)

    def pg_threshold(self, c: dict, pool: int, sizes: tuple, pools: tuple) -> int:
        return self._threshold(c, sizes[pool], pools[pool])

    def q_threshold(self, c: dict, pool: int, sizes: tuple, pools: tuple) -> int:
        return self._threshold(c, sizes[2 + pool], pools[2 + pool])

    # ------------------------------------------------------------------ one clock
    def clock(self, release: tuple | None = None, arrival: tuple | None = None):
        """One clock: ``release`` (port, pg, eport, queue, cells) and ``arrival`` (port, pg,
        eport, queue, length) presented together.  Returns the arrival's PipeDecision (or
        None); decision and counters follow the rules of the module docstring."""
        k = self.now
        pools = self._lagged_pools()
        pair = _Pair(clock=k, sizes=self._sizes(), pools=pools, scan=k % self.n_pg,
                     dsh=self.glob["headroom_policy"] & 1 == POLICY_DSH, mask=self.lossless_bits)
        pair.scan_cfg = dict(self.pg_cfg[pair.scan])
        dec = None
        if release is not None:
            port, pg, eport, queue, cells = release
            if not (0 <= port < self.ports and 0 <= pg < PG_COUNT and 0 <= eport < self.ports
                    and 0 <= queue < QUEUE_COUNT) or cells < 0:
                self.release_bad_index += 1
            else:
                i = port * PG_COUNT + pg
                pair.rel = (i, eport * QUEUE_COUNT + queue, cells)
                pair.rel_cfg = dict(self.pg_cfg[i])
        if arrival is not None:
            dec = self._decide(pair, arrival, pools)
        # commit the pair decided view_lag - 1 clocks ago, then this one is in flight
        while self.inflight and len(self.inflight) >= self.view_lag - 1:
            self._commit(self.inflight.popleft())
        if self.view_lag > 1:
            self.inflight.append(pair)
        else:
            self._commit(pair)
        if self.global_lag > 1:
            self.recent.append(pair.arr)
        if self.port_lag > 1:
            self.recent_p.append(pair.arr)
        self.now += 1
        return dec

    def idle(self, clocks: int = 1) -> None:
        for _ in range(clocks):
            self.clock()

    # ------------------------------------------------------------------ decision
    def _decide(self, pair: _Pair, arrival: tuple, pools: tuple) -> PipeDecision:
        port, pg, eport, queue, length = arrival
        g = self.glob
        if length <= 0 or length > g["max_frame_bytes"]:
            self.drops[REASON_BAD_LEN] += 1
            return PipeDecision(False, REASON_BAD_LEN, 0, 0, 0, 0, SEG_NONE)
        cells = -(-length // self.cell_bytes)
        if not (0 <= port < self.ports and 0 <= pg < PG_COUNT
                and 0 <= eport < self.ports and 0 <= queue < QUEUE_COUNT):
            self.drops[REASON_BAD_INDEX] += 1
            return PipeDecision(False, REASON_BAD_INDEX, cells, 0, 0, 0, SEG_NONE)
        i = port * PG_COUNT + pg
        j = eport * QUEUE_COUNT + queue
        c = self.pg_cfg[i]
        qc = self.q_cfg[j]
        pair.arr = (i, j, cells)
        pair.arr_cfg = dict(c)

        # worst-case charge of the arrivals in flight: those not yet in the committed entries
        # (the last view_lag - 1 clocks) and those not yet in the committed global counters
        # (the last global_lag - 1 clocks)
        f_pg = f_q = 0
        for p in self.inflight:
            if p.arr is not None:
                fi, fj, fc = p.arr
                f_pg += fc if fi == i else 0
                f_q += fc if fj == j else 0
        f_all = sum(a[2] for a in self.recent if a is not None) if self.global_lag > 1 else 0
        g_total, g_pool0, g_pool1, g_hpool, g_eg0, g_eg1 = self.gsnap[0]
        g_pool = (g_pool0, g_pool1)
        g_eg = (g_eg0, g_eg1)
        lossless = self._class_for(i, self.res[i] + self.shared[i] + self.hdrm[i], c["lossless"],
                                   lambda p: p.arr[0] == i, lambda p: p.pg_class, self.pg_class)
        qclass = self._class_for(j, self.q_res[j] + self.q_shared[j], qc["lossless"],
                                 lambda p: p.arr[1] == j, lambda p: p.q_class, self.q_class)
        pair.pg_class, pair.q_class = lossless, qclass
        pool = POOL_LOSSLESS if lossless else POOL_LOSSY
        epool = POOL_LOSSLESS if qclass else POOL_LOSSY
        sizes = pair.sizes
        res_v = self.res[i] + f_pg
        to_res = min(cells, max(c["reserved"] - res_v, 0))
        rem = cells - to_res
        seg = SEG_RESERVED
        reason = REASON_NONE
        if g_total + f_all + cells > g["buffer_cells"]:
            reason = REASON_BUFFER_FULL
        elif rem > 0:
            t = self.pg_threshold(c, pool, sizes, pools)
            if (self.shared[i] + f_pg < t
                    and g_pool[pool] + f_all + rem <= sizes[pool]):
                seg = SEG_SHARED
            elif lossless and (self._port_view(port) + rem <= self.port_cfg[port]["port_headroom"]
                               if pair.dsh else
                               (self.hdrm[i] + f_pg + rem <= c["headroom"]
                                and (g["hdrm_pool"] == 0
                                     or g_hpool + f_all + rem <= g["hdrm_pool"]))):
                seg = SEG_HEADROOM
            else:
                reason = REASON_HEADROOM_FULL if lossless else REASON_INGRESS_LOSSY
        eto_res = min(cells, max(qc["reserved"] - (self.q_res[j] + f_q), 0))
        erem = cells - eto_res
        if reason == REASON_NONE and erem > 0:
            tq = self.q_threshold(qc, epool, sizes, pools)
            if not (self.q_shared[j] + f_q < tq
                    and g_eg[epool] + f_all + erem <= sizes[2 + epool]):
                reason = REASON_EGRESS
        if reason != REASON_NONE:
            self.drops[reason] += 1
            return PipeDecision(False, reason, cells, 0, 0, 0, SEG_NONE)
        self.admitted += 1
        sh = rem if seg == SEG_SHARED else 0
        hd = rem if seg == SEG_HEADROOM else 0
        pair.admit = True
        pair.amounts = (to_res, sh, hd, eto_res, erem)
        return PipeDecision(True, REASON_NONE, cells, to_res, sh, hd,
                            seg if rem else SEG_RESERVED, eres=eto_res, eshared=erem)

    def _port_view(self, port: int) -> int:
        """dsh: the port's headroom as the decision sees it: committed after clock now -
        port_lag, every arrival to the port since charged in full (its whole cells)."""
        f = sum(a[2] for a in self.recent_p if a is not None and a[0] // PG_COUNT == port)
        return self.psnap[0][port] + f

    def _class_for(self, idx, held, configured, same, used, recorded) -> int:
        """The class an arrival is decided with (module docstring)."""
        for p in reversed(self.inflight):
            if p.arr is not None and same(p):
                return used(p)
        return configured if held == 0 else recorded[idx]

    # ------------------------------------------------------------------ commit
    def _commit(self, pair: _Pair) -> None:
        if pair.rel is not None:
            self._release(*pair.rel)
        if pair.admit:
            self._charge(pair)
        pools = pair.pools
        evaluated = set()
        for i, c in ((pair.rel[0] if pair.rel else None, pair.rel_cfg),
                     (pair.arr[0] if pair.arr else None, pair.arr_cfg),
                     (pair.scan, pair.scan_cfg)):
            if i is not None and i not in evaluated:
                evaluated.add(i)
                self._pfc_eval(i, c, pair, pools)
        self._port_pause(pair.clock)
        self.pfc_mask = pair.mask
        self.psnap.append(tuple(self.port_hdrm))
        self.pool_hist.append((self.pool_used[0], self.pool_used[1],
                               self.egress_used[0], self.egress_used[1]))
        self.gsnap.append((self.total_used, self.pool_used[0], self.pool_used[1],
                           self.hdrm_pool_used, self.egress_used[0], self.egress_used[1]))

    def _release(self, i: int, j: int, cells: int) -> None:
        pool = POOL_LOSSLESS if self.pg_class[i] else POOL_LOSSY
        from_h, from_s, from_r, left = release_split(cells, self.hdrm[i], self.shared[i],
                                                     self.res[i])
        self.hdrm[i] -= from_h
        self.shared[i] -= from_s
        self.res[i] -= from_r
        self.hdrm_pool_used -= from_h
        self.port_hdrm[i // PG_COUNT] -= from_h
        self.pool_used[pool] -= from_s
        self.total_used -= from_h + from_s + from_r
        epool = POOL_LOSSLESS if self.q_class[j] else POOL_LOSSY
        from_es, from_er, eleft = egress_release_split(cells, self.q_shared[j], self.q_res[j])
        self.q_shared[j] -= from_es
        self.q_res[j] -= from_er
        self.egress_used[epool] -= from_es
        if left or eleft:
            self.release_underflow += 1

    def _charge(self, pair: _Pair) -> None:
        i, j, cells = pair.arr
        to_res, sh, hd, eres, esh = pair.amounts
        self.pg_class[i] = pair.pg_class
        self.q_class[j] = pair.q_class
        pool = POOL_LOSSLESS if pair.pg_class else POOL_LOSSY
        epool = POOL_LOSSLESS if pair.q_class else POOL_LOSSY
        self.res[i] += to_res
        self.res_wm[i] = max(self.res_wm[i], self.res[i])
        self.shared[i] += sh
        self.shared_wm[i] = max(self.shared_wm[i], self.shared[i])
        self.hdrm[i] += hd
        self.hdrm_wm[i] = max(self.hdrm_wm[i], self.hdrm[i])
        self.pool_used[pool] += sh
        self.pool_wm[pool] = max(self.pool_wm[pool], self.pool_used[pool])
        self.hdrm_pool_used += hd
        self.hdrm_pool_wm = max(self.hdrm_pool_wm, self.hdrm_pool_used)
        port = i // PG_COUNT
        self.port_hdrm[port] += hd
        self.port_hdrm_wm[port] = max(self.port_hdrm_wm[port], self.port_hdrm[port])
        self.total_used += cells
        self.total_wm = max(self.total_wm, self.total_used)
        self.q_res[j] += eres
        self.q_shared[j] += esh
        self.q_wm[j] = max(self.q_wm[j], self.q_res[j] + self.q_shared[j])
        self.egress_used[epool] += esh
        self.egress_wm[epool] = max(self.egress_wm[epool], self.egress_used[epool])

    # ------------------------------------------------------------------ PFC
    def xon_point(self, c: dict, t: int) -> int:
        return min(max(c["xon"], t - c["xon_offset"]), t - 1)

    def _pfc_eval(self, i: int, c: dict, pair: _Pair, pools: tuple) -> None:
        """As Mmu._pfc_eval (static) or Mmu._dsh_eval (the pair's policy dsh), on the
        post-commit counters with the clock's T; a PG whose class is lossy is released (XON)
        if it was paused.  A PG evaluated under the static policy, or lossy, withdraws its
        port-level request (so a port pause cannot outlive a switch back to static)."""
        if not self.pg_class[i]:
            if self.xoff[i]:
                self._set_xoff(i, False, pair.clock)
            self._set_req(i, False, pair.clock)
            return
        t = self.pg_threshold(c, POOL_LOSSLESS, pair.sizes, pools)
        shared = self.shared[i]
        hd = self.hdrm[i]
        # queue level: T, or under dsh the Xoff point X = T - headroom
        x = t - c["headroom"] if pair.dsh else t
        if not self.xoff[i]:
            if hd > 0 or (shared > 0 and shared >= x):
                self._set_xoff(i, True, pair.clock)
        elif hd == 0 and (shared == 0 or shared <= self.xon_point(c, x)):
            self._set_xoff(i, False, pair.clock)
        if not pair.dsh:
            self._set_req(i, False, pair.clock)
            return
        # port level (dsh): the PG's request, the static rule with T
        if not self.port_req[i]:
            if hd > 0 or (shared > 0 and shared >= t):
                self._set_req(i, True, pair.clock)
        elif hd == 0 and (shared == 0 or shared <= self.xon_point(c, t)):
            self._set_req(i, False, pair.clock)

    def _set_req(self, i: int, on: bool, clock: int) -> None:
        if self.port_req[i] == on:
            return
        self.port_req[i] = on
        port = i // PG_COUNT
        self.port_req_count[port] += 1 if on else -1
        self._req_ports.add(port)

    def _port_pause(self, clock: int) -> None:
        """The port-level pause of each port whose requests changed in this pair: on while
        any PG of the port requests.  Applied once per pair, after its three evaluations (the
        RTL's EVAL3 applies them together: one PG withdrawing and another requesting in the
        same pair leave the port paused, no resume and pause)."""
        for port in sorted(self._req_ports):
            paused = self.port_req_count[port] > 0
            if paused != self.port_xoff[port]:
                self.port_xoff[port] = paused
                if paused:
                    self.port_xoff_count[port] += 1
                else:
                    self.port_xon_count[port] += 1
                self.port_events.append(PortPauseEvent(clock, port, paused))
        self._req_ports.clear()

    def _set_xoff(self, i: int, on: bool, clock: int) -> None:
        self.xoff[i] = on
        if on:
            self.xoff_count[i] += 1
        else:
            self.xon_count[i] += 1
        self.events.append(PfcEvent(clock, i // PG_COUNT, i % PG_COUNT, on))

    # ------------------------------------------------------------------ views
    def xoff_vector(self, port: int) -> int:
        return sum(1 << g for g in range(PG_COUNT) if self.xoff[port * PG_COUNT + g])

    def pfc_vector(self, port: int) -> int:
        """What the port's link partner must hold (Mmu.pfc_vector): the queue-level vector,
        and every PG lossless in the configuration of the last committed pair while the
        port-level pause (dsh) is on."""
        v = self.xoff_vector(port)
        if self.port_xoff[port]:
            v |= (self.pfc_mask >> (port * PG_COUNT)) & 0xFF
        return v

    def pfc_word(self) -> int:
        """mmu_core's pfc_xoff: pfc_vector of every port, port p at bits 8p .. 8p + 7."""
        v = sum(1 << i for i, x in enumerate(self.xoff) if x)
        for p, on in enumerate(self.port_xoff):
            if on:
                v |= self.pfc_mask & (0xFF << (p * PG_COUNT))
        return v

    def port_state(self, port: int) -> dict[str, int]:
        """The port's headroom use, its watermark, the port-level pause and its counts, the
        PGs requesting it (bit g: PG g), as the status port reads them."""
        return {"hdrm_used": self.port_hdrm[port], "hdrm_wm": self.port_hdrm_wm[port],
                "xoff": int(self.port_xoff[port]),
                "xoff_count": self.port_xoff_count[port],
                "xon_count": self.port_xon_count[port],
                "requests": sum(1 << g for g in range(PG_COUNT)
                                if self.port_req[port * PG_COUNT + g])}

    def held(self) -> int:
        """Cells held (committed), for drain checks."""
        return self.total_used

    def quiescent(self) -> bool:
        """Nothing in flight: every pair decided has been committed."""
        return all(p.rel is None and p.arr is None for p in self.inflight)


def _alpha4(a: int) -> int:
    """alpha_shift as the core's 4-bit two's complement field holds it (-8..7)."""
    return ((a & 0xF) ^ 8) - 8
