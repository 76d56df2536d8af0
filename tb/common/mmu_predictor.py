"""Admission predictor of the switch-level benches (tb/switch_core, tb/loop, tb/uvm): the
line-rate core's golden model, models.mmu_pipe.PipelinedMmu, stepped on every clock of
switch_core's mmu_core from what the bench observes at mmu_core's ports.

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

* every response at its clock: RESP_LAT clocks after its request (tb/mmu_core/pipe_tb.py is
  the one place the latencies are written), all nine fields equal, none missing, none extra;
* pfc_xoff (``check_xoff``): the bench reports mmu_core's vector on every clock it changes
  (``pfc_change`` non-zero); each change must come on the clock the model's change is due
  (XOFF_LAT after the model step that made it) with the same vector, and a model change with
  no change of the DUT on its clock is an error too;
* configuration: every write observed is applied to the model on its clock (in effect for the
  next clock's pair, as in mmu_core); with an expected image (the configuration the bench put
  on switch_core's cfg_* vectors) each write must be a field of the image with its value, and
  :meth:`MmuPredictor.check_loaded` fails unless every field was written exactly once.
"""

from __future__ import annotations

import copy
from collections import deque

from cocotb.triggers import FallingEdge

from mmu_core import regmap
from mmu_core.pipe_tb import RESP_LAT, STAT_LAT, T_LAG, XOFF_LAT
from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig
from models.mmu import REASON_NAMES
from models.mmu_pipe import PipelinedMmu

# switch_core's mmu_core leaves reset this many clocks after the switch (its own reset register,
# rst_mmu): a bench that counts clocks from the switch's reset subtracts it
SWITCH_RST_LAT = 1

RESP_FIELDS = ("admit", "reason", "cells", "res", "shared", "hdrm", "eres", "eshared", "tag")
# mmu_core's field widths (the write port keeps the low bits): 1-bit flags, 4-bit alpha
FLAG_FIELDS = ("lossless", "dynamic")


def mmu_ports(port_count: int) -> int:
    """mmu_core's PORT_COUNT in a switch_core of ``port_count`` ports (a power of two)."""
    return 1 << max(1, (port_count - 1).bit_length())


def pad_config(cfg: MmuConfig, ports: int) -> MmuConfig:
    """``cfg`` with ports added up to ``ports``, every field of theirs 0 (what
    mmu_cfg_loader writes for the entries beyond switch_core's ports)."""
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
                              else data & mask})
    elif kind == "pg" and name in regmap.PG_CFG and idx < model.n_pg:
        model.write_pg(idx // 8, idx % 8, **{name: width(name, data)})
    elif kind == "queue" and name in regmap.Q_CFG and idx < model.n_q:
        model.write_queue(idx // 8, idx % 8, **{name: width(name, data)})
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
        # the model: (clock it reaches pfc_xoff, models.mmu.PfcEvent)
        self.on_decision = None
        self.on_pfc = None
        self.reset()

    # ------------------------------------------------------------------ state
    def reset(self) -> None:
        """mmu_core's rst: counters and pipeline cleared; the configuration is written again
        by whoever writes it (the model restarts from the image it expects)."""
        self.model = PipelinedMmu(self.cfg, t_lag=T_LAG, validate=False)
        self.clock = 0                # the next clock to step
        self.resp: deque = deque()    # (due clock, decision, tag, arrival)
        self.xoff_due: deque = deque()  # (due clock, vector) of the model's changes
        self.model_xoff = 0           # the model's vector after the last step
        self.written: dict[int, int] = {}
        self.requests = self.releases = self.writes = self.responses = 0
        self.xoff_changes = 0

    def error(self, msg: str) -> None:
        self.error_count += 1
        if len(self.errors) < self.max_errors:
            self.errors.append(f"{self.name} clock {self.clock}: {msg}")

    def _vector(self) -> int:
        return sum(1 << i for i, x in enumerate(self.model.xoff) if x)

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

    def _step(self, rel=None, arr=None, tag: int = 0, write=None):
        m = self.model
        k = self.clock
        n_events = len(m.events)
        d = m.clock(rel, arr)
        if write is not None:
            self._write(*write)
        if rel is not None:
            self.releases += 1
        if arr is not None:
            self.requests += 1
            self.resp.append((k + RESP_LAT, d, tag, arr))
            if self.on_decision is not None:
                self.on_decision(k, arr, d, tag)
        if len(m.events) != n_events:
            if self.on_pfc is not None:
                for e in m.events[n_events:]:
                    self.on_pfc(k + XOFF_LAT, e)
            vec = self._vector()
            if vec != self.model_xoff:
                self.model_xoff = vec
                if self.check_xoff:
                    self.xoff_due.append((k + XOFF_LAT, vec))
        self.clock = k + 1
        return d

    def _write(self, addr: int, data: int) -> None:
        self.writes += 1
        if self.image is not None:
            if addr not in self.image:
                self.error(f"configuration write to {addr:#06x}, not a field of the image")
            elif data != self.image[addr]:
                self.error(f"configuration write {addr:#06x} = {data:#x}, the image has "
                           f"{self.image[addr]:#x}")
        self.written[addr] = self.written.get(addr, 0) + 1
        if not apply_write(self.model, addr, data, self.cell_w):
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

    def observe(self, clock: int, rel=None, arr=None, tag: int = 0, write=None, resp=None,
                xoff: int | None = None):
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
        return self._step(rel, arr, tag, write)

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


__all__ = ["MmuPredictor", "RESP_LAT", "XOFF_LAT", "STAT_LAT", "apply_write", "pad_config",
           "mmu_ports", "drained_status_addrs", "stat_reads"]
