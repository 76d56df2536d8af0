"""mmu_core testbench: a clock-by-clock bench on the shared admission interface model
(tb/common/mmu_bus.py): MmuDriver drives, MmuMonitor samples, MmuPredictor
(models.mmu_pipe.PipelinedMmu) checks.

At every falling edge the bench drives the next clock's release, arrival and configuration
write (MmuDriver), and hands the clock to the predictor as one step: what was driven and what
the DUT shows (MmuMonitor, every clock: the response, pfc_xoff and pfc_change); the model is
stepped once per clock, idle clocks included.  The response of the pair driven at falling edge
n is due at falling edge n + RESP_LAT, the pfc_xoff vector the model holds after stepping clock
n at n + XOFF_LAT; pfc_change must be the XOR of consecutive vectors.  Every mismatch is
logged; the test fails at the end (or after max_mismatches).
"""

from __future__ import annotations

import os
from collections import Counter

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from common.mmu_bus import (RESP_LAT, STAT_LAT, T_LAG, XOFF_LAT, MmuDriver, MmuMonitor,
                            MmuPredictor, val)
from mmu_core import regmap
from models.config import MmuConfig
from models.mmu import REASON_NAMES
from models.mmu_pipe import CFG_FLAG_NAMES, cfg_flags_latency

PORT_COUNT = int(os.environ.get("PARAM_PORT_COUNT", "4"))
CELL_BYTES = int(os.environ.get("PARAM_CELL_BYTES", "256"))
# mmu_core WATERMARKS 0 / COUNTERS 0: the per-PG / per-queue watermarks / the event counters
# are left out and read 0
WATERMARKS = int(os.environ.get("PARAM_WATERMARKS", "1"))
COUNTERS = int(os.environ.get("PARAM_COUNTERS", "1"))
# mmu_core CFG_CHECK 0 / CFG_READBACK 0: the configuration checker is left out (its flags read
# 0, err_bad_config is 0) / the configuration fields read 0 through the status port
CFG_CHECK = int(os.environ.get("PARAM_CFG_CHECK", "1"))
CFG_READBACK = int(os.environ.get("PARAM_CFG_READBACK", "1"))
TAG_W = 8
# Status reads: read() holds the address STAT_LAT falling edges (common.mmu_bus).  Back to
# back (read_many()) each address is held STAT_HOLD clocks: the status port's state-RAM fields
# come a clock later than the rest (docs/mmu_core.md), and its data is seen STAT_PIPE falling
# edges after the address's last clock.
STAT_HOLD = 2
STAT_PIPE = 5


class PipeTB:
    def __init__(self, dut, cfg: MmuConfig, max_mismatches: int = 20):
        self.dut = dut
        self.log = dut._log
        self.cfg = cfg
        self.max_mismatches = max_mismatches
        self.mismatches = 0
        self.mismatch_log: list[str] = []
        self.driver = MmuDriver(dut, dut.clk, tag_w=TAG_W)
        self.monitor = MmuMonitor(dut, dut.clk, every_clock=True, run=False)
        self.pred = MmuPredictor(cfg, ports=cfg.port_count, expect_image=False,
                                 max_errors=1 << 30)
        self.pred.on_decision = self._decision
        self.monitor.add_callback(self._step)
        self._model_write = None
        self.clock_no = 0
        self.clock_base = 0               # clock_no of the model's clock 0 (after a reset)
        self.errors_seen = 0
        self.cov: Counter = Counter()
        self.arrivals = self.releases = 0
        self.stat_seen = 0
        self.in_reset = False
        self.last_write = 0               # clock of the last configuration write

    # ------------------------------------------------------------------ set-up
    async def start(self, clock: bool = True) -> None:
        """Clock, reset, then the configuration written through the port (model idles).
        ``clock=False``: the clock already runs (a second bench in the same test)."""
        dut = self.dut
        if clock:
            cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        for _ in range(4):
            await RisingEdge(dut.clk)
        # the first cycle() releases the reset on the falling edge it drives: that pair is the
        # model's clock 0 (the scan starts at PG 0 on the first edge out of reset)
        self.in_reset = True
        for addr, value in regmap.config_image(self.cfg):
            await self.cycle(write=(addr, value))

    async def reset_in_traffic(self, clocks: int = 4) -> None:
        """Assert rst for ``clocks`` clocks (one is enough) with whatever is in flight, then go
        on: counters and state clear, the configuration stays (the model restarts with the
        same one)."""
        dut = self.dut
        await FallingEdge(dut.clk)
        dut.rst.value = 1
        self.driver.idle()
        for _ in range(clocks):
            await RisingEdge(dut.clk)
        self.pred.reset(keep_config=True)
        self.clock_base = self.clock_no
        self.in_reset = True
        # the reset clears the configuration flags; the scans after it recompute them
        self.last_write = self.clock_no

    # ------------------------------------------------------------------ scoreboard
    def mismatch(self, what: str) -> None:
        self.mismatches += 1
        self.mismatch_log.append(what)
        if self.mismatches <= 10:
            self.log.error("MISMATCH at clock %d: %s", self.clock_no, what)
        if self.mismatches >= self.max_mismatches:
            raise AssertionError(f"{self.mismatches} mismatches (first ones in the log)")

    @property
    def model(self):
        """The predictor's golden model (models.mmu_pipe.PipelinedMmu)."""
        return self.pred.model

    def _decision(self, clock, arr, d, tag) -> None:
        self.cov[("admit" if d.admit else REASON_NAMES[d.reason], d.segment)] += 1

    def _step(self, step) -> None:
        """The monitor's callback: the clock's step to the predictor, with the bench's own
        model form of its configuration write."""
        self.decision = self.pred.write(step, self._model_write)
        errors = self.pred.errors
        while self.errors_seen < len(errors):
            self.errors_seen += 1
            self.mismatch(errors[self.errors_seen - 1])

    # ------------------------------------------------------------------ one clock
    async def cycle(self, rel=None, arr=None, write=None, stat_addr=None, model_write=None):
        """One clock: release (port, pg, eport, queue, cells), arrival (port, pg, eport,
        queue, length), a configuration write (address, value) and its model form
        (callable applied after the clock), a status address.  Returns the model's decision."""
        dut = self.dut
        await FallingEdge(dut.clk)
        # the outputs of the clock that releases the reset are the reset's: not compared
        ev = None
        if self.in_reset:
            dut.rst.value = 0
            self.in_reset = False
            ev = 0
        self.stat_seen = val(dut.stat_data)
        tag = self.driver.drive(rel, arr, write, stat_addr)
        if rel is not None:
            self.releases += 1
        if arr is not None:
            self.arrivals += 1
        else:
            tag = 0
        if write is not None:
            self.last_write = self.clock_no
        # the model changes only through model_write (as the cases write it), never by decoding
        # the write: start()'s image is the configuration the model was built with
        self._model_write = model_write or _keep_model
        self.decision = None
        step = self.monitor.sample(self.clock_no - self.clock_base, ev, rel, arr, tag, write)
        if ev is not None:
            step.pfc_xoff = step.pfc_change = None
        self.monitor._recv(step)
        self.clock_no += 1
        return self.decision

    async def idle(self, clocks: int) -> None:
        for _ in range(clocks):
            await self.cycle()

    # ------------------------------------------------------------------ status
    async def read(self, addr: int) -> int:
        """One status read: the address, then STAT_LAT idle clocks."""
        await self.cycle(stat_addr=addr)
        for _ in range(STAT_LAT):
            await self.cycle()
        return self.stat_seen

    async def read_many(self, addrs: list[int]) -> list[int]:
        """Status reads back to back, each address held STAT_HOLD clocks, the values in the
        order of ``addrs``: STAT_HOLD * len(addrs) + STAT_PIPE clocks where read() one by one
        takes (STAT_LAT + 1) * len(addrs)."""
        drive = [a for a in addrs for _ in range(STAT_HOLD)]
        out = []
        for c in range(len(drive) + STAT_PIPE):
            await self.cycle(stat_addr=drive[c] if c < len(drive) else None)
            k = c - STAT_PIPE
            if k >= 0 and k % STAT_HOLD == STAT_HOLD - 1:
                out.append(self.stat_seen)
        return out

    async def check_counters(self) -> None:
        """Every counter, watermark and drop count read through the status port."""
        m = self.model
        await self.idle(XOFF_LAT + 2)
        want = {
            "ingress_lossless_used": m.pool_used[0], "ingress_lossless_wm": m.pool_wm[0],
            "ingress_lossy_used": m.pool_used[1], "ingress_lossy_wm": m.pool_wm[1],
            "hdrm_used": m.hdrm_pool_used, "hdrm_wm": m.hdrm_pool_wm,
            "egress_lossless_used": m.egress_used[0], "egress_lossless_wm": m.egress_wm[0],
            "egress_lossy_used": m.egress_used[1], "egress_lossy_wm": m.egress_wm[1],
            "total_used": m.total_used, "total_wm": m.total_wm,
        }
        # (COUNTERS 0: the event counters read 0)
        cnt = 1 if COUNTERS else 0
        want.update({"admitted": cnt * m.admitted, "release_underflow": cnt * m.release_underflow,
                     "release_bad_index": cnt * m.release_bad_index})
        checks = [(regmap.STATUS[name], w, f"status {name}") for name, w in want.items()]
        checks += [(regmap.DROP_BASE + r, cnt * m.drops[r], f"drops[{REASON_NAMES[r]}]")
                   for r in range(1, len(m.drops))]
        # every PG and queue up to 64 of each; beyond, the ones traffic touched and every
        # eighth other (a 32-port read-back is 2,560 reads)
        pgs = [i for i in range(m.n_pg) if m.n_pg <= 64 or i % 8 == 0 or m.res_wm[i]
               or m.shared_wm[i] or m.hdrm_wm[i]]
        qs = [j for j in range(m.n_q) if m.n_q <= 64 or j % 8 == 0 or m.q_wm[j]]
        # (WATERMARKS 0: the per-PG / per-queue watermarks read 0)
        wm = 1 if WATERMARKS else 0
        for i in pgs:
            for name, w in (("res", m.res[i]), ("shared", m.shared[i]), ("hdrm", m.hdrm[i]),
                            ("res_wm", wm * m.res_wm[i]), ("shared_wm", wm * m.shared_wm[i]),
                            ("hdrm_wm", wm * m.hdrm_wm[i]), ("xoff", int(m.xoff[i]))):
                checks.append((regmap.pg_addr(i, name), w, f"PG {i} {name}"))
        for j in qs:
            for name, w in (("res", m.q_res[j]), ("shared", m.q_shared[j]),
                            ("wm", wm * m.q_wm[j])):
                checks.append((regmap.queue_addr(j, name), w, f"queue {j} {name}"))
        # every port: its headroom, watermark, port-level pause, its counts and requests
        for p in range(m.ports):
            for name, w in m.port_state(p).items():
                checks.append((regmap.port_addr(p, name), w, f"port {p} {name}"))
        checks += config_checks(m, pgs, qs)
        got = await self.read_many([a for a, _, _ in checks])
        for (_, w, what), g in zip(checks, got):
            if g != w:
                self.mismatch(f"{what} got {g} want {w}")

    async def check_config_flags(self) -> int:
        """The configuration flags (status 0x19, 0x0F bit 1, err_bad_config) against the
        model's config_flags(), once the last write has had its documented time to show
        (CFG_CHECK 0: against 0, the checker is left out).  Returns the model's word."""
        m = self.model
        wait = self.last_write + cfg_flags_latency(m.n_pg) - self.clock_no
        if wait > 0:
            await self.idle(wait)
        want = m.config_flags() if CFG_CHECK else 0
        got = await self.read(regmap.STATUS["config_flags"])
        if got != want:
            self.mismatch(f"config_flags got {got:#x} {flag_names(got)} want {want:#x} "
                          f"{flag_names(want)}")
        got = await self.read(regmap.STATUS["flags"])
        want_flags = (regmap.FLAG_RELEASE_UNDERFLOW if m.release_underflow else 0) | (
            regmap.FLAG_BAD_CONFIG if want else 0)
        if got != want_flags:
            self.mismatch(f"flags got {got:#x} want {want_flags:#x}")
        if val(self.dut.err_bad_config) != int(want != 0):
            self.mismatch(f"err_bad_config {val(self.dut.err_bad_config)} with flags {want:#x}")
        return m.config_flags()

    async def finish(self) -> None:
        await self.idle(RESP_LAT + XOFF_LAT + 2)
        await self.check_counters()
        await self.check_config_flags()
        self.log.info("clocks %d, events checked %d (arrivals %d, releases %d), outcomes %s",
                      self.clock_no, self.arrivals + self.releases, self.arrivals, self.releases,
                      dict(self.cov))
        assert not self.pred.outstanding(), "responses still due"
        assert self.mismatches == 0, f"{self.mismatches} mismatches (see the log)"


def config_checks(m, pgs: list[int], qs: list[int]) -> list[tuple[int, int, str]]:
    """(status address, expected word, label) of every configuration field: the globals,
    PGs ``pgs``' and queues ``qs``' fields, every port's; the model's values (CFG_READBACK 0:
    0, the configuration is not read back)."""
    from models.mmu_pipe import GLOBAL_FIELDS, PG_FIELDS, PORT_FIELDS, QUEUE_FIELDS
    rb = 1 if CFG_READBACK else 0
    out = [(regmap.GLOBAL_CFG[f], rb * m.glob[f], f"global {f}") for f in GLOBAL_FIELDS]
    out += [(regmap.pg_addr(i, f), rb * regmap.encode(f, m.pg_cfg[i][f]), f"PG {i} {f}")
            for i in pgs for f in PG_FIELDS]
    out += [(regmap.queue_addr(j, f), rb * regmap.encode(f, m.q_cfg[j][f]), f"queue {j} {f}")
            for j in qs for f in QUEUE_FIELDS]
    out += [(regmap.port_addr(p, f), rb * m.port_cfg[p][f], f"port {p} {f}")
            for p in range(m.ports) for f in PORT_FIELDS]
    return out


def _keep_model(model) -> None:
    pass


def flag_names(word: int) -> list[str]:
    return [n for k, n in enumerate(CFG_FLAG_NAMES) if word >> k & 1]
