"""mmu_core testbench: a clock-by-clock driver and scoreboard against
models.mmu_pipe.PipelinedMmu.

At every falling edge the bench checks the DUT's registered outputs against what the model
predicted for this clock, drives the next clock's release, arrival and configuration write,
and steps the model once (idle clocks included: the model is clock-exact).  The response of
the pair driven at falling edge n is due at falling edge n + RESP_LAT, the pfc_xoff vector the
model holds after stepping clock n at n + XOFF_LAT; pfc_change must be the XOR of consecutive
vectors.  Every mismatch is logged; the test fails at the end (or after max_mismatches).
"""

from __future__ import annotations

import os
from collections import Counter, deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from mmu_core import regmap
from models.config import MmuConfig
from models.mmu import REASON_NAMES
from models.mmu_pipe import (CFG_FLAG_NAMES, DEFAULT_T_LAG, RTL_RESP_LATENCY, RTL_STAT_LATENCY,
                             RTL_XOFF_LATENCY, VIEW_LAG, PipelinedMmu, cfg_flags_latency)

PORT_COUNT = int(os.environ.get("PARAM_PORT_COUNT", "4"))
CELL_BYTES = int(os.environ.get("PARAM_CELL_BYTES", "256"))
TAG_W = 8
T_LAG = DEFAULT_T_LAG
RESP_LAT = RTL_RESP_LATENCY + 1  # falling edges from driving a request to seeing its response
# falling edges from stepping the model to seeing its pfc_xoff (the model changes its PFC state
# at the commit, view_lag - 1 clocks after the request's clock)
XOFF_LAT = RTL_XOFF_LATENCY - VIEW_LAG + 2
# falling edges from driving stat_addr to seeing its stat_data, the address held (read()).
# Back to back (read_many()) each address is held STAT_HOLD clocks: the status port's state-RAM
# fields come a clock later than the rest (docs/mmu_core.md), and its data is seen STAT_PIPE
# falling edges after the address's last clock.
STAT_LAT = RTL_STAT_LATENCY
STAT_HOLD = 2
STAT_PIPE = 5


def val(handle) -> int:
    v = handle.value
    return v.to_unsigned() if hasattr(v, "to_unsigned") else int(v)


class PipeTB:
    def __init__(self, dut, cfg: MmuConfig, max_mismatches: int = 20):
        self.dut = dut
        self.log = dut._log
        self.cfg = cfg
        self.max_mismatches = max_mismatches
        self.mismatches = 0
        self.mismatch_log: list[str] = []
        self.model = PipelinedMmu(cfg, t_lag=T_LAG, validate=False)
        self.clock_no = 0
        self.resp_q: deque = deque()      # (due clock, decision, tag)
        self.xoff_q: deque = deque()      # (due clock, vector)
        self.cur_xoff = 0
        self.prev_xoff = 0
        self.tag = 0
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
        for name in ("s_req_valid", "s_rel_valid", "cfg_wr_valid", "s_req_port", "s_req_pg",
                     "s_req_eport", "s_req_queue", "s_req_len", "s_req_tag", "s_rel_port",
                     "s_rel_pg", "s_rel_eport", "s_rel_queue", "s_rel_cells", "cfg_wr_addr",
                     "cfg_wr_data", "stat_addr"):
            getattr(dut, name).value = 0
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
        dut.s_req_valid.value = 0
        dut.s_rel_valid.value = 0
        dut.cfg_wr_valid.value = 0
        for _ in range(clocks):
            await RisingEdge(dut.clk)
        old = self.model
        self.model = PipelinedMmu(self.cfg, t_lag=T_LAG, validate=False)
        self.model.pg_cfg = old.pg_cfg
        self.model.q_cfg = old.q_cfg
        self.model.glob = old.glob
        self.resp_q.clear()
        self.xoff_q.clear()
        self.cur_xoff = self.prev_xoff = 0
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

    def _check(self) -> None:
        dut = self.dut
        valid = val(dut.m_resp_valid)
        due = bool(self.resp_q) and self.resp_q[0][0] == self.clock_no
        if valid != due:
            self.mismatch(f"m_resp_valid {valid}, a response due: {due}")
        if due:
            _, d, tag = self.resp_q.popleft()
            if valid:
                got = tuple(val(getattr(dut, f"m_resp_{n}")) for n in
                            ("admit", "reason", "cells", "res", "shared", "hdrm", "eres",
                             "eshared", "tag"))
                want = (int(d.admit), d.reason, d.cells, d.res, d.shared, d.hdrm, d.eres,
                        d.eshared, tag)
                if got != want:
                    self.mismatch(f"response (admit reason cells res shared hdrm eres "
                                  f"eshared tag) got {got} want {want}")
        while self.xoff_q and self.xoff_q[0][0] <= self.clock_no:
            self.cur_xoff = self.xoff_q.popleft()[1]
        got = val(dut.pfc_xoff)
        if got != self.cur_xoff:
            self.mismatch(f"pfc_xoff got {got:#x} want {self.cur_xoff:#x}")
        chg = val(dut.pfc_change)
        if chg != self.cur_xoff ^ self.prev_xoff:
            self.mismatch(f"pfc_change got {chg:#x} want {self.cur_xoff ^ self.prev_xoff:#x}")
        self.prev_xoff = self.cur_xoff

    def _xoff_vector(self) -> int:
        return sum(1 << i for i, x in enumerate(self.model.xoff) if x)

    # ------------------------------------------------------------------ one clock
    async def cycle(self, rel=None, arr=None, write=None, stat_addr=None, model_write=None):
        """One clock: release (port, pg, eport, queue, cells), arrival (port, pg, eport,
        queue, length), a configuration write (address, value) and its model form
        (callable applied after the clock), a status address.  Returns the model's decision."""
        dut = self.dut
        await FallingEdge(dut.clk)
        if self.in_reset:
            dut.rst.value = 0
            self.in_reset = False
        else:
            self._check()
        self.stat_seen = val(dut.stat_data)
        if rel is not None:
            for n, v in zip(("port", "pg", "eport", "queue", "cells"), rel):
                getattr(dut, f"s_rel_{n}").value = v
            self.releases += 1
        dut.s_rel_valid.value = int(rel is not None)
        tag = self.tag
        if arr is not None:
            for n, v in zip(("port", "pg", "eport", "queue", "len"), arr):
                getattr(dut, f"s_req_{n}").value = v
            dut.s_req_tag.value = tag
            self.tag = (tag + 1) % (1 << TAG_W)
            self.arrivals += 1
        dut.s_req_valid.value = int(arr is not None)
        if write is not None:
            dut.cfg_wr_addr.value, dut.cfg_wr_data.value = write
            self.last_write = self.clock_no
        dut.cfg_wr_valid.value = int(write is not None)
        if stat_addr is not None:
            dut.stat_addr.value = stat_addr
        d = self.model.clock(rel, arr)
        if model_write is not None:
            model_write(self.model)
        if d is not None:
            self.resp_q.append((self.clock_no + RESP_LAT, d, tag))
            self.cov[("admit" if d.admit else REASON_NAMES[d.reason], d.segment)] += 1
        self.xoff_q.append((self.clock_no + XOFF_LAT, self._xoff_vector()))
        self.clock_no += 1
        return d

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
            "total_used": m.total_used, "total_wm": m.total_wm, "admitted": m.admitted,
            "release_underflow": m.release_underflow,
            "release_bad_index": m.release_bad_index,
        }
        checks = [(regmap.STATUS[name], w, f"status {name}") for name, w in want.items()]
        checks += [(regmap.DROP_BASE + r, m.drops[r], f"drops[{REASON_NAMES[r]}]")
                   for r in range(1, len(m.drops))]
        # every PG and queue up to 64 of each; beyond, the ones traffic touched and every
        # eighth other (a 32-port read-back is 2,560 reads)
        pgs = [i for i in range(m.n_pg) if m.n_pg <= 64 or i % 8 == 0 or m.res_wm[i]
               or m.shared_wm[i] or m.hdrm_wm[i]]
        qs = [j for j in range(m.n_q) if m.n_q <= 64 or j % 8 == 0 or m.q_wm[j]]
        for i in pgs:
            for name, w in (("res", m.res[i]), ("shared", m.shared[i]), ("hdrm", m.hdrm[i]),
                            ("res_wm", m.res_wm[i]), ("shared_wm", m.shared_wm[i]),
                            ("hdrm_wm", m.hdrm_wm[i]), ("xoff", int(m.xoff[i]))):
                checks.append((regmap.pg_addr(i, name), w, f"PG {i} {name}"))
        for j in qs:
            for name, w in (("res", m.q_res[j]), ("shared", m.q_shared[j]), ("wm", m.q_wm[j])):
                checks.append((regmap.queue_addr(j, name), w, f"queue {j} {name}"))
        got = await self.read_many([a for a, _, _ in checks])
        for (_, w, what), g in zip(checks, got):
            if g != w:
                self.mismatch(f"{what} got {g} want {w}")

    async def check_config_flags(self) -> int:
        """The configuration flags (status 0x19, 0x0F bit 1, err_bad_config) against the
        model's config_flags(), once the last write has had its documented time to show.
        Returns the model's word."""
        m = self.model
        wait = self.last_write + cfg_flags_latency(m.n_pg) - self.clock_no
        if wait > 0:
            await self.idle(wait)
        want = m.config_flags()
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
        return want

    async def finish(self) -> None:
        await self.idle(RESP_LAT + XOFF_LAT + 2)
        await self.check_counters()
        await self.check_config_flags()
        self.log.info("clocks %d, events checked %d (arrivals %d, releases %d), outcomes %s",
                      self.clock_no, self.arrivals + self.releases, self.arrivals, self.releases,
                      dict(self.cov))
        assert not self.resp_q, "responses still due"
        assert self.mismatches == 0, f"{self.mismatches} mismatches (see the log)"


def flag_names(word: int) -> list[str]:
    return [n for k, n in enumerate(CFG_FLAG_NAMES) if word >> k & 1]
