"""mmu_core's admission interface for every bench that checks it (tb/mmu_core, tb/switch_core,
tb/loop, tb/uvm; tb/mmu_csr drives it, tb/soak replays a trace into the predictor): the bus
model on cocotb-bus and the admission predictor on models.mmu_pipe.PipelinedMmu.  The one place the interface's signals, its latencies and the
clock-exact comparison with the model are written.

Bus model (cocotb-bus ``Bus`` / ``BusDriver`` / ``BusMonitor``, signal names of rtl/mmu_core.v's
ports, docs/mmu_core.md):

* request ``s_req_{valid,port,pg,eport,queue,len,tag}`` and release
  ``s_rel_{valid,port,pg,eport,queue,cells}`` (no ready: mmu_core takes one of each every
  clock), configuration write ``cfg_wr_{valid,addr,data}``;
* response ``m_resp_{valid,admit,reason,cells,res,shared,hdrm,eres,eshared,tag}``
  (RESP_LAT clocks after its request, in order, no back-pressure);
* ``pfc_xoff`` and ``pfc_change``.

:class:`MmuDriver` drives the inputs of a bare mmu_core (tb/mmu_core, tb/mmu_csr) one clock at
a time; :class:`MmuMonitor` turns every clock that has something on the interface into one
:class:`MmuStep`, bound to the mmu_core instance of any design (inside switch_core: its
``mmu_inst``), or to the record a testbench top registers of those ports (tb/system's
``mmu_obs``: same fields, Python wakes only on clocks that have one).  :class:`MmuPredictor`
takes the steps (``write``, a monitor callback) and compares them with the model.

Clock k is the k-th rising edge after reset (the first edge that samples mmu_core's ``rst`` low
is clock 0; in switch_core that reset is ``rst_mmu``, SWITCH_RST_LAT clocks after the
switch's).  An observation of clock k is what mmu_core samples at that edge and what it shows before
it (the values a bench reads at the falling edge before the edge, or a record its testbench
top registers at the edge): the release and the arrival (mmu_core takes both every clock, no
ready), a configuration write, the response, the pfc_xoff vector.  A bench hands over only
the clocks that have something on them; the clocks in between are idle and are stepped in a
batch when the next observation comes (or at :meth:`MmuPredictor.sync`), so the model is
stepped on every clock and stays exact however rarely Python wakes.

Checks (collected in ``errors``; the bench asserts on them):

* every response at its clock: RESP_LAT clocks after its request, all nine fields equal, none
  missing, none extra;
* pfc_xoff: the monitor reports mmu_core's vector on every clock it changes (``pfc_change``
  non-zero); each change must come on the clock the model's change is due (XOFF_LAT after the
  model step that made it) with the same vector, and a model change with no change of the
  DUT on its clock is an error too.  A monitor that samples every clock (``every_clock``,
  tb/mmu_core) also has ``pfc_xoff`` and ``pfc_change`` checked on every clock against the
  model's vector and its change;
* configuration: every write observed is applied to the model on its clock (in effect for the
  next clock's pair, as in mmu_core); with an expected image (the configuration the bench put
  on switch_core's cfg_* vectors) each write must be a field of the image with its value, and
  :meth:`MmuPredictor.check_loaded` fails unless every field was written exactly once.
"""

from __future__ import annotations

import copy
from collections import deque
from dataclasses import dataclass

from cocotb.triggers import FallingEdge, ValueChange
from cocotb.utils import get_sim_time
from cocotb_bus.drivers import BusDriver
from cocotb_bus.monitors import BusMonitor

from mmu_core import regmap
from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig
from models.mmu import REASON_NAMES
from models.mmu_pipe import (DEFAULT_T_LAG, RTL_RESP_LATENCY, RTL_STAT_LATENCY,
                             RTL_XOFF_LATENCY, VIEW_LAG, PipelinedMmu)

# ---------------------------------------------------------------------------- latencies
T_LAG = DEFAULT_T_LAG
# clocks from a request's clock to its response's (the falling edge that shows it)
RESP_LAT = RTL_RESP_LATENCY + 1
# clocks from the model step that changes the PFC state to the clock that shows it on
# pfc_xoff (the model changes its PFC state at the commit, view_lag - 1 clocks after the
# request's clock)
XOFF_LAT = RTL_XOFF_LATENCY - VIEW_LAG + 2
# falling edges from driving stat_addr to seeing its stat_data, the address held
STAT_LAT = RTL_STAT_LATENCY

# switch_core's mmu_core leaves reset this many clocks after the switch (its own reset register,
# rst_mmu): a bench that counts clocks from the switch's reset subtracts it
SWITCH_RST_LAT = 1

# ---------------------------------------------------------------------------- signals
REQ_FIELDS = ("port", "pg", "eport", "queue", "len")
REL_FIELDS = ("port", "pg", "eport", "queue", "cells")
RESP_FIELDS = ("admit", "reason", "cells", "res", "shared", "hdrm", "eres", "eshared", "tag")
REQ_SIGNALS = ["s_req_valid"] + [f"s_req_{n}" for n in REQ_FIELDS] + ["s_req_tag"]
REL_SIGNALS = ["s_rel_valid"] + [f"s_rel_{n}" for n in REL_FIELDS]
RESP_SIGNALS = ["m_resp_valid"] + [f"m_resp_{n}" for n in RESP_FIELDS]
CFG_SIGNALS = ["cfg_wr_valid", "cfg_wr_addr", "cfg_wr_data"]
PFC_SIGNALS = ["pfc_xoff", "pfc_change"]
# mmu_core's field widths (the write port keeps the low bits): 1-bit flags, 4-bit alpha
FLAG_FIELDS = ("lossless", "dynamic")


def val(handle) -> int:
    """A signal's value, unsigned (int() of a LogicArray is its to_unsigned())."""
    return int(handle.value)


@dataclass
class MmuStep:
    """One clock at mmu_core's admission interface, as observed."""
    clock: int                   # clocks since mmu_core's reset (the predictor's clock)
    release: tuple | None = None  # (port, pg, eport, queue, cells)
    arrival: tuple | None = None  # (port, pg, eport, queue, length)
    tag: int = 0
    write: tuple | None = None   # (address, data)
    resp: tuple | None = None    # the nine fields of RESP_FIELDS
    xoff: int | None = None      # pfc_xoff, on a clock it changed (pfc_change non-zero)
    # every_clock monitors: pfc_xoff and pfc_change of every clock
    pfc_xoff: int | None = None
    pfc_change: int | None = None
    cycle: int = 0               # simulation cycle of the edge (record monitors)


class MmuDriver(BusDriver):
    """The inputs of a bare mmu_core, one clock at a time (call at a falling edge: the values
    are what mmu_core samples at the next rising edge).  ``cfg_ports=False``: the request and
    release ports only (behind the CSR block, tb/mmu_csr, the configuration write and status
    ports are not the bench's).  The bench says which, rather than cocotb-bus's optional
    signals: those are looked up through dir() of the whole entity, and that discovery of
    every object of the toplevel changed a result on Icarus 11 (tb/mmu_csr's
    concurrent_reads_and_writes lost a configuration write with SEED=1795769789; not on
    Verilator, not without the lookup)."""

    _signals = REQ_SIGNALS + REL_SIGNALS

    def __init__(self, mmu, clock, tag_w: int = 8, cfg_ports: bool = True):
        if cfg_ports:
            self._signals = REQ_SIGNALS + REL_SIGNALS + CFG_SIGNALS + ["stat_addr"]
        super().__init__(mmu, None, clock, case_insensitive=False)
        self.tag = 0
        self.tag_mask = (1 << tag_w) - 1
        self.has_cfg = cfg_ports
        for s in self._signals:
            getattr(self.bus, s).value = 0

    def drive(self, rel=None, arr=None, write=None, stat_addr=None) -> int:
        """Release (port, pg, eport, queue, cells), arrival (port, pg, eport, queue, length),
        configuration write (address, data), status address; returns the arrival's tag (tags
        count up, one per arrival)."""
        b = self.bus
        if rel is not None:
            for sig, v in zip(REL_SIGNALS[1:], rel):
                getattr(b, sig).value = v
        b.s_rel_valid.value = int(rel is not None)
        tag = self.tag
        if arr is not None:
            for sig, v in zip(REQ_SIGNALS[1:6], arr):
                getattr(b, sig).value = v
            b.s_req_tag.value = tag
            self.tag = (tag + 1) & self.tag_mask
        b.s_req_valid.value = int(arr is not None)
        if self.has_cfg:
            if write is not None:
                b.cfg_wr_addr.value, b.cfg_wr_data.value = write
            b.cfg_wr_valid.value = int(write is not None)
        if stat_addr is not None:
            b.stat_addr.value = stat_addr
        return tag

    def idle(self) -> None:
        """No release, arrival or write on the next clock."""
        self.bus.s_req_valid.value = 0
        self.bus.s_rel_valid.value = 0
        if self.has_cfg:
            self.bus.cfg_wr_valid.value = 0

    async def _driver_send(self, transaction, sync: bool = True) -> None:
        """``transaction``: (rel, arr, write, stat_addr) for the next clock."""
        if sync:
            await FallingEdge(self.clock)
        self.drive(*transaction)


class MmuMonitor(BusMonitor):
    """Every clock with something at mmu_core's admission interface, as one :class:`MmuStep`
    to the callbacks (cocotb-bus ``add_callback``; an :class:`MmuPredictor`'s ``write``).

    ``mmu``: the mmu_core instance; the monitor samples at every falling edge, what mmu_core
    samples at the next rising edge and what it shows before it.  Which clocks have something
    comes from the valid signals, or from the bench (``ev`` of :meth:`sample`: tb/switch_core's
    probe vector {pfc_change != 0, cfg_wr_valid, -, -, m_resp_valid, s_rel_valid,
    s_req_valid}, tb/switch_core/wrapper.py, one read instead of five).  Its own coroutine
    counts the clocks from its start (``clock_offset`` added).  ``every_clock``: a step on every
    clock, with pfc_xoff and pfc_change.  ``run=False``: no coroutine of its own; the bench
    calls :meth:`observe` (or :meth:`sample`) at its falling edges, which is how the benches
    here share one wake per clock with their other per-clock work.

    ``record``: the name of a vector of ``mmu`` (then a testbench top) that registers mmu_core's
    interface at each edge with something on it (tb/system/switch_tb_top.v ``mmu_obs``: 32-bit
    fields, see RECORD_FIELDS) instead of the ports themselves; ``clk_ns`` turns its change
    times into cycles."""

    _signals = REQ_SIGNALS + REL_SIGNALS + RESP_SIGNALS + CFG_SIGNALS + PFC_SIGNALS

    def __init__(self, mmu, clock, callback=None, clock_offset: int = 0,
                 every_clock: bool = False, run: bool = True, record=None, clk_ns: float = 0.0):
        self.clock_offset = clock_offset
        self.every_clock = every_clock
        self.run = run
        self.record = record
        self.clk_ns = clk_ns
        self.clock_no = clock_offset - 1
        self.errors: list[str] = []
        if record is not None:
            self._signals = {"record": record}
        super().__init__(mmu, None, clock, callback=callback, case_insensitive=False)

    # ------------------------------------------------------------------ sampling
    def valids(self) -> int:
        """This clock's {pfc_change, cfg_wr, -, -, resp, rel, req} flags."""
        b = self.bus
        return (val(b.s_req_valid) | val(b.s_rel_valid) << 1 | val(b.m_resp_valid) << 2
                | val(b.cfg_wr_valid) << 5 | (val(b.pfc_change) != 0) << 6)

    def sample(self, clock: int, ev: int | None = None, rel=None, arr=None, tag: int = 0,
               write=None) -> MmuStep | None:
        """The step of ``clock`` from the bus (None on an idle clock, unless every_clock).
        A driving bench passes what it drives (``rel``, ``arr``, ``tag``, ``write``) instead of
        reading it back."""
        b = self.bus
        if ev is not None:
            ev &= 0b1100111
        if ev is None:
            if self.every_clock:
                ev = val(b.m_resp_valid) << 2 | (1 << 6 if val(b.pfc_change) else 0)
            else:
                ev = self.valids()
        step = None
        if ev or self.every_clock or rel is not None or arr is not None or write is not None:
            step = MmuStep(clock, rel, arr, tag, write)
            if ev & 0b0000010:
                step.release = tuple(val(getattr(b, s)) for s in REL_SIGNALS[1:])
            if ev & 0b0000001:
                step.arrival = tuple(val(getattr(b, s)) for s in REQ_SIGNALS[1:6])
                step.tag = val(b.s_req_tag)
            if ev & 0b0000100:
                step.resp = tuple(val(getattr(b, s)) for s in RESP_SIGNALS[1:])
            if ev & 0b0100000:
                step.write = (val(b.cfg_wr_addr), val(b.cfg_wr_data))
            if ev & 0b1000000 or self.every_clock:
                x = val(b.pfc_xoff)
                if ev & 0b1000000:
                    step.xoff = x
                if self.every_clock:
                    step.pfc_xoff, step.pfc_change = x, val(b.pfc_change)
        return step

    def observe(self, clock: int, **driven) -> MmuStep | None:
        """:meth:`sample`, then the step to the callbacks (``run=False`` benches)."""
        step = self.sample(clock, **driven)
        if step is not None:
            self._recv(step)
        return step

    async def _monitor_recv(self):
        if not self.run:
            return
        if self.record is not None:
            await self._monitor_record()
            return
        clk = self.clock
        while True:
            await FallingEdge(clk)
            self.clock_no += 1
            ev = self.valids() if not self.every_clock else None
            if ev == 0:
                continue
            step = self.sample(self.clock_no, ev)
            if step is not None:
                self._recv(step)

    # fields of the registered record (32 bits each, from the lowest): 0 release valid,
    # 1..5 port pg eport queue cells, 6 arrival valid, 7..11 port pg eport queue len, 12 tag,
    # 13 response valid, 14..22 admit reason cells res shared hdrm eres eshared tag,
    # 23 configuration write valid, 24 address, 25 data, 26 pfc_xoff changed, 27 pfc_xoff,
    # 28 clock, 29 record sequence number (0 in reset)
    RECORD_FIELDS = 30

    async def _monitor_record(self):
        rec = self.bus.record
        mask = 0xFFFFFFFF
        last = 0
        while True:
            await ValueChange(rec)
            v = int(rec.value)
            f = [(v >> (32 * i)) & mask for i in range(self.RECORD_FIELDS)]
            seq = f[29]
            if seq == 0:  # reset
                last = 0
                continue
            if seq != last + 1 and len(self.errors) < 10:
                self.errors.append(f"mmu monitor: record {seq} after {last} (clocks missed)")
            last = seq
            self._recv(MmuStep(
                clock=f[28],
                release=tuple(f[1:6]) if f[0] else None,
                arrival=tuple(f[7:12]) if f[6] else None,
                tag=f[12] if f[6] else 0,
                write=(f[24], f[25]) if f[23] else None,
                resp=tuple(f[14:23]) if f[13] else None,
                xoff=f[27] if f[26] else None,
                # this edge's index
                cycle=int((get_sim_time("ns") + self.clk_ns / 4) // self.clk_ns)))


def mmu_ports(port_count: int) -> int:
    """mmu_core's PORT_COUNT in a switch_core of ``port_count`` ports (a power of two)."""
    return 1 << max(1, (port_count - 1).bit_length())


def pad_config(cfg: MmuConfig, ports: int) -> MmuConfig:
    """``cfg`` with ports added up to ``ports``, every field of theirs 0 (what
    the switch image writes for the entries beyond switch_core's ports: common.mmu_axil)."""
    if cfg.port_count >= ports:
        return cfg
    out = copy.deepcopy(cfg)
    for _ in range(ports - cfg.port_count):
        out.ports.append(PortConfig(
            pgs=[PgConfig(lossless=False, reserved=0, dynamic=False, alpha_shift=0,
                          static_th=0, headroom=0, xon=0, xon_offset=0) for _ in range(8)],
            queues=[QueueConfig(lossless=False, reserved=0, dynamic=False, alpha_shift=0,
                                static_th=0) for _ in range(8)]))
    return out


def apply_write(model: PipelinedMmu, addr: int, data: int, cell_w: int = 16) -> bool:
    """A configuration write of mmu_core's port (tb/mmu_core/regmap.py) applied to the model,
    with the field's width; False for an address that holds no configuration."""
    mask = (1 << cell_w) - 1
    kind, idx, name = regmap.decode(addr) or (None, 0, None)

    def width(name: str, v: int) -> int:
        return v & 1 if name in FLAG_FIELDS else v & 0xF if name == "alpha_shift" else v & mask
    if kind == "global" and name in regmap.GLOBAL_CFG:
        model.write_global(**{name: data & 0xFFFFFFFF if name == "max_frame_bytes"
                              else data & 1 if name == "headroom_policy" else data & mask})
    elif kind == "pg" and name in regmap.PG_CFG and idx < model.n_pg:
        model.write_pg(idx // 8, idx % 8, **{name: width(name, data)})
    elif kind == "queue" and name in regmap.Q_CFG and idx < model.n_q:
        model.write_queue(idx // 8, idx % 8, **{name: width(name, data)})
    elif kind == "port" and name in regmap.PORT_CFG and idx < model.ports:
        model.write_port(idx, **{name: data & mask})
    else:
        return False
    return True


def drained_status_addrs(n_entries: int) -> list[int]:
    """The status addresses that read 0 in a drained mmu_core: the occupancy of every pool and
    the total, every PG's reserved / shared / headroom and every queue's reserved / shared."""
    st = regmap.STATUS
    out = [st[n] for n in ("ingress_lossless_used", "ingress_lossy_used", "hdrm_used",
                           "egress_lossless_used", "egress_lossy_used", "total_used")]
    for i in range(n_entries):
        out += [regmap.pg_addr(i, f) for f in ("res", "shared", "hdrm")]
        out += [regmap.queue_addr(i, f) for f in ("res", "shared")]
    return out


async def stat_reads(clk, set_addr, get_data, addrs: list[int]) -> list[int]:
    """mmu_core status reads, one address per clock (its status port is pipelined: stat_data
    answers the address driven STAT_LAT falling edges earlier).  ``set_addr(a)`` drives
    stat_addr, ``get_data()`` reads stat_data."""
    out = []
    await FallingEdge(clk)
    for i in range(len(addrs) + STAT_LAT):
        if i >= STAT_LAT:
            out.append(get_data())
        if i < len(addrs):
            set_addr(addrs[i])
        await FallingEdge(clk)
    return out


class MmuPredictor:
    """PipelinedMmu fed from one mmu_core's observed ports (module docstring)."""

    def __init__(self, cfg: MmuConfig, ports: int | None = None, check_xoff: bool = True,
                 expect_image: bool = True, cell_w: int = 16, name: str = "mmu_core",
                 max_errors: int = 50):
        self.ports = ports or mmu_ports(cfg.port_count)
        self.cfg = pad_config(cfg, self.ports)
        self.check_xoff = check_xoff
        self.cell_w = cell_w
        self.name = name
        self.max_errors = max_errors
        self.image = dict(regmap.config_image(self.cfg)) if expect_image else None
        self.errors: list[str] = []
        self.error_count = 0
        # called for every decision: (clock, arrival, decision, tag); for every PFC event of
        # the model: (clock it reaches pfc_xoff, models.mmu.PfcEvent); for every change of the
        # model's pfc_xoff vector (queue level and, under dsh, the port-level pause):
        # (clock it reaches pfc_xoff, new vector, old vector)
        self.on_decision = None
        self.on_pfc = None
        self.on_vector = None
        self.reset()

    # ------------------------------------------------------------------ state
    def reset(self, keep_config: bool = False) -> None:
        """mmu_core's rst: counters and pipeline cleared; the configuration is written again
        by whoever writes it (the model restarts from the image it expects), or, with
        ``keep_config``, kept as written (mmu_core's reset leaves its configuration RAM)."""
        old = getattr(self, "model", None)
        self.model = PipelinedMmu(self.cfg, t_lag=T_LAG, validate=False)
        if keep_config and old is not None:
            self.model.set_pg_cfg(old.pg_cfg)
            self.model.q_cfg = old.q_cfg
            self.model.glob = old.glob
            self.model.port_cfg = old.port_cfg
        self.clock = 0                # the next clock to step
        self.resp: deque = deque()    # (due clock, decision, tag, arrival)
        self.xoff_due: deque = deque()  # (due clock, vector) of the model's changes
        self.model_xoff = 0           # the model's vector after the last step
        # every-clock check (steps with pfc_xoff): the model's vectors by the clock due, the
        # vector due at the last clock observed
        self.xoff_seen: deque = deque()
        self.xoff_now = 0
        self.written: dict[int, int] = {}
        self.requests = self.releases = self.writes = self.responses = 0
        self.xoff_changes = 0

    def error(self, msg: str) -> None:
        self.error_count += 1
        if len(self.errors) < self.max_errors:
            self.errors.append(f"{self.name} clock {self.clock}: {msg}")

    def _vector(self) -> int:
        """mmu_core's pfc_xoff as the model holds it: the queue-level state, and the port's
        lossless PGs while its port-level pause (headroom policy dsh) is on."""
        return self.model.pfc_word()

    # ------------------------------------------------------------------ stepping
    def _due_checks(self, clock: int, dut_xoff: int | None) -> None:
        """Responses and pfc_xoff changes due before ``clock`` that never came; then, if the
        DUT's vector changed at ``clock`` (``dut_xoff``), the model's change due then."""
        while self.resp and self.resp[0][0] < clock:
            due, d, tag, arr = self.resp.popleft()
            self.error(f"no response at clock {due} for the arrival {arr} (tag {tag})")
        if not self.check_xoff:
            self.xoff_due.clear()
            return
        while self.xoff_due and self.xoff_due[0][0] < clock:
            due, vec = self.xoff_due.popleft()
            self.error(f"the model's pfc_xoff became {vec:#x} at clock {due}, mmu_core's "
                       "did not change then")
        if dut_xoff is not None:
            self.xoff_changes += 1
            if self.xoff_due and self.xoff_due[0][0] == clock:
                _, vec = self.xoff_due.popleft()
                if vec != dut_xoff:
                    self.error(f"pfc_xoff {dut_xoff:#x}, model {vec:#x}")
            else:
                self.error(f"pfc_xoff changed to {dut_xoff:#x}, the model's did not change")

    def _step(self, rel=None, arr=None, tag: int = 0, write=None, model_write=None):
        m = self.model
        k = self.clock
        n_events = len(m.events)
        n_port = len(m.port_events)
        mask = m.pfc_mask
        d = m.clock(rel, arr)
        if write is not None:
            self._write(*write, model_write)
        if rel is not None:
            self.releases += 1
        if arr is not None:
            self.requests += 1
            self.resp.append((k + RESP_LAT, d, tag, arr))
            if self.on_decision is not None:
                self.on_decision(k, arr, d, tag)
        if len(m.events) != n_events or len(m.port_events) != n_port or m.pfc_mask != mask:
            if self.on_pfc is not None:
                for e in m.events[n_events:]:
                    self.on_pfc(k + XOFF_LAT, e)
            vec = self._vector()
            if vec != self.model_xoff:
                if self.on_vector is not None:
                    self.on_vector(k + XOFF_LAT, vec, self.model_xoff)
                self.model_xoff = vec
                if self.check_xoff:
                    self.xoff_due.append((k + XOFF_LAT, vec))
                    self.xoff_seen.append((k + XOFF_LAT, vec))
        self.clock = k + 1
        return d

    def _write(self, addr: int, data: int, model_write=None) -> None:
        self.writes += 1
        if self.image is not None:
            if addr not in self.image:
                self.error(f"configuration write to {addr:#06x}, not a field of the image")
            elif data != self.image[addr]:
                self.error(f"configuration write {addr:#06x} = {data:#x}, the image has "
                           f"{self.image[addr]:#x}")
        self.written[addr] = self.written.get(addr, 0) + 1
        if model_write is not None:
            model_write(self.model)
        elif not apply_write(self.model, addr, data, self.cell_w):
            self.error(f"configuration write to {addr:#06x}: no such field")

    def advance(self, clock: int) -> None:
        """Step the idle clocks before ``clock`` (nothing was observed on them)."""
        while self.clock < clock:
            if self.resp or self.xoff_due:
                self._due_checks(self.clock, None)
            self._step()

    def sync(self, clock: int) -> None:
        """The model up to ``clock`` (exclusive: only clocks every observation of which has
        been handed over), with the checks of what was due before it."""
        self.advance(clock)
        self._due_checks(clock, None)

    def write(self, step: MmuStep, model_write=None):
        """One :class:`MmuStep` (a monitor's callback).  ``model_write``: applied to the model
        for the step's configuration write instead of decoding it (tb/mmu_core's own form of
        each write).  Returns the arrival's decision."""
        if step.pfc_xoff is not None:
            self._xoff_every_clock(step.clock, step.pfc_xoff, step.pfc_change)
        return self.observe(step.clock, step.release, step.arrival, step.tag, step.write,
                            step.resp, step.xoff, model_write)

    def _xoff_every_clock(self, clock: int, xoff: int, change: int) -> None:
        """pfc_xoff and pfc_change of a clock against the model's vector due then and its
        change from the clock before (every clock observed)."""
        prev = self.xoff_now
        while self.xoff_seen and self.xoff_seen[0][0] <= clock:
            self.xoff_now = self.xoff_seen.popleft()[1]
        if xoff != self.xoff_now:
            self.error(f"pfc_xoff {xoff:#x}, model {self.xoff_now:#x}")
        if change != self.xoff_now ^ prev:
            self.error(f"pfc_change {change:#x}, model {self.xoff_now ^ prev:#x}")

    def observe(self, clock: int, rel=None, arr=None, tag: int = 0, write=None, resp=None,
                xoff: int | None = None, model_write=None):
        """Clock ``clock``: ``rel`` (port, pg, eport, queue, cells), ``arr`` (port, pg, eport,
        queue, length) with its ``tag``, ``write`` (address, data), ``resp`` (the nine fields
        of RESP_FIELDS) when m_resp_valid, ``xoff`` mmu_core's vector when it changed.  Returns
        the arrival's decision."""
        if clock < self.clock:
            self.error(f"observation of clock {clock} after clock {self.clock - 1}")
            return None
        self.advance(clock)
        self._due_checks(clock, xoff)
        if resp is not None:
            self.responses += 1
            if not self.resp or self.resp[0][0] != clock:
                self.error(f"a response {tuple(resp)} with none due")
            else:
                _, d, tag0, arr0 = self.resp.popleft()
                want = (int(d.admit), d.reason, d.cells, d.res, d.shared, d.hdrm, d.eres,
                        d.eshared, tag0)
                got = tuple(int(v) for v in resp)
                if got != want:
                    self.error(f"response to {arr0} ({', '.join(RESP_FIELDS)}) {got}, model "
                               f"{want} ({REASON_NAMES[d.reason]})")
        return self._step(rel, arr, tag, write, model_write)

    # ------------------------------------------------------------------ end checks
    def check_loaded(self) -> None:
        """Every field of the expected image written exactly once."""
        if self.image is None:
            return
        missing = [a for a in self.image if a not in self.written]
        twice = [a for a, n in self.written.items() if n > 1]
        if missing:
            self.error(f"{len(missing)} configuration fields never written, first "
                       f"{missing[0]:#06x}")
        if twice:
            self.error(f"{len(twice)} configuration fields written more than once, first "
                       f"{twice[0]:#06x}")

    def outstanding(self) -> int:
        """Responses still due."""
        return len(self.resp)

    def summary(self) -> str:
        m = self.model
        return (f"{self.name}: {self.clock} clocks, {self.requests} arrivals, {self.releases} "
                f"releases, {self.writes} configuration writes, {self.responses} responses "
                f"checked, {self.xoff_changes} pfc_xoff changes checked, admitted {m.admitted}, "
                f"drops {dict((REASON_NAMES[r], n) for r, n in enumerate(m.drops) if n)}, "
                f"{self.error_count} errors")


__all__ = ["MmuStep", "MmuDriver", "MmuMonitor", "MmuPredictor", "RESP_LAT", "XOFF_LAT",
           "STAT_LAT", "T_LAG", "SWITCH_RST_LAT", "apply_write", "pad_config",
           "mmu_ports", "drained_status_addrs", "stat_reads"]
