"""mmu_core testbench: clock/reset, a cycle driver, and a scoreboard against models.mmu.Mmu.

The driver works on falling edges: at each falling edge it samples the DUT's registered
outputs (written by the rising edge just before) and drives the inputs for the next rising
edge.  Every driven cycle also steps the golden model (release first, then arrival, as
``Mmu.step``) and queues what the DUT must show LATENCY cycles later: the response (or none)
and the whole pfc_xoff vector.  pfc_change must equal the XOR of consecutive expected vectors.
"""

from __future__ import annotations

import os
from collections import Counter, deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from mmu_core import stat_map
from models.config import MmuConfig
from models.mmu import REASON_COUNT, REASON_NAMES, SEG_NONE, Mmu

PORT_COUNT = int(os.environ.get("PARAM_PORT_COUNT", "4"))
CELL_BYTES = int(os.environ.get("PARAM_CELL_BYTES", "256"))
CELL_W = int(os.environ.get("PARAM_CELL_W", "16"))
LEN_W = int(os.environ.get("PARAM_LEN_W", "14"))
TAG_W = int(os.environ.get("PARAM_TAG_W", "8"))
FAULT_INJECT = int(os.environ.get("PARAM_FAULT_INJECT", "0"))
# PIPELINE 1: the multi-cycle core (rtl/mmu_core.v g_multi); the driver waits for ready and the
# scoreboard checks the response and every pfc_xoff change on the exact clock the design
# states (falling-edge samples after the one that drove the slot): release PFC after
# PIPE_REL_XOFF, the arrival's response after PIPE_RESP[alone / after a release] and its PFC
# after PIPE_ARR_XOFF[...]
PIPELINE = int(os.environ.get("PARAM_PIPELINE", "0"))
PIPE_REL_XOFF = 9
PIPE_RESP = (8, 14)
PIPE_ARR_XOFF = (11, 17)
# stat_addr -> stat_data in clocks: the PIPELINE 1 core registers the addressed entry first
STAT_LATENCY = 3 if PIPELINE else 1
# falling-edge samples between driving a request and seeing its response: stage 1 registers
# at the next rising edge, stage 2 (response, counters, pfc_xoff) at the one after
LATENCY = 2
SEG_NAMES = {1: "reserved", 2: "shared", 3: "headroom"}


def start_clock(dut) -> None:
    """Once per cocotb test (the scheduler ends the clock task with the test)."""
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())


def val(handle) -> int:
    v = handle.value
    return v.to_unsigned() if hasattr(v, "to_unsigned") else int(v)


class MmuTB:
    def __init__(self, dut, cfg: MmuConfig, validate: bool = True, max_mismatches: int = 20):
        assert cfg.port_count == PORT_COUNT, "config built for another PORT_COUNT"
        assert cfg.cell_bytes == CELL_BYTES, "config built for another CELL_BYTES"
        self.dut = dut
        self.log = dut._log
        self.cfg = cfg
        self.validate = validate
        self.model = Mmu(cfg, validate=validate)
        self.max_mismatches = max_mismatches
        self.mismatches = 0
        self.cov: Counter = Counter()
        self.cycle_no = 0
        self.pipe: deque = deque()
        self.xoff_exp = 0
        self.prev_xoff_exp = 0
        self.n_events_seen = 0
        self.tag = 0
        self.releases = 0
        self.responses = 0
        self.last_arr_pg = None
        self.first_resp_cycle = None
        self.last_resp_cycle = None
        # PIPELINE 1: expected responses (cycle, decision, tag) and pfc_xoff timeline
        self.resp_q: deque = deque()
        self.xoff_sched: deque = deque()
        self.cur_xoff = 0
        self.slots = 0

    # ------------------------------------------------------------------ set-up
    def apply_cfg(self, cfg: MmuConfig | None = None) -> None:
        for name, value in (cfg or self.cfg).rtl_cfg(CELL_W).items():
            getattr(self.dut, name).value = value

    async def reset(self) -> None:
        dut = self.dut
        dut.s_req_valid.value = 0
        dut.s_rel_valid.value = 0
        for name in ("s_req_port", "s_req_pg", "s_req_eport", "s_req_queue", "s_req_len",
                     "s_req_tag", "s_rel_port", "s_rel_pg", "s_rel_eport", "s_rel_queue",
                     "s_rel_cells", "stat_addr"):
            getattr(dut, name).value = 0
        self.apply_cfg()
        dut.rst.value = 1
        for _ in range(3):
            await RisingEdge(dut.clk)
        await FallingEdge(dut.clk)
        dut.rst.value = 0
        self.model = Mmu(self.cfg, validate=self.validate)
        self.pipe = deque([(None, 0, 0)] * LATENCY)
        self.resp_q.clear()
        self.xoff_sched.clear()
        self.cur_xoff = 0
        self.xoff_exp = self.prev_xoff_exp = 0
        self.n_events_seen = 0
        self.last_arr_pg = None
        assert val(dut.s_req_ready) == 1 and val(dut.s_rel_ready) == 1

    # ------------------------------------------------------------------ scoreboard
    def mismatch(self, what: str) -> None:
        self.mismatches += 1
        if self.mismatches <= 10:
            self.log.error("MISMATCH at cycle %d: %s", self.cycle_no, what)
        if self.mismatches >= self.max_mismatches:
            raise AssertionError(f"{self.mismatches} mismatches, stopping (first: see log)")

    def _check_outputs(self) -> None:
        if PIPELINE:
            self._check_outputs_pipe()
        else:
            self._check_outputs_single()

    def _compare_response(self, exp, tag) -> None:
        dut = self.dut
        self.responses += 1
        if self.first_resp_cycle is None:
            self.first_resp_cycle = self.cycle_no
        self.last_resp_cycle = self.cycle_no
        got = (val(dut.m_resp_admit), val(dut.m_resp_reason), val(dut.m_resp_cells),
               val(dut.m_resp_res), val(dut.m_resp_shared), val(dut.m_resp_hdrm),
               val(dut.m_resp_tag))
        want = (int(exp.admit), exp.reason, exp.cells, exp.res, exp.shared, exp.hdrm, tag)
        if got != want:
            self.mismatch(f"response (admit, reason, cells, res, shared, hdrm, tag) "
                          f"got {got} want {want}")

    def _check_outputs_pipe(self) -> None:
        dut = self.dut
        valid = val(dut.m_resp_valid)
        due = self.resp_q and self.resp_q[0][0] <= self.cycle_no
        if valid and not due:
            self.mismatch("response without a request, or early")
            if self.resp_q:
                self.resp_q.popleft()
        elif due and not valid:
            self.mismatch(f"no response for tag {self.resp_q[0][2]} on its clock")
            self.resp_q.popleft()
        elif valid:
            _, exp, tag = self.resp_q.popleft()
            self._compare_response(exp, tag)
        while self.xoff_sched and self.xoff_sched[0][0] <= self.cycle_no:
            self.cur_xoff = self.xoff_sched.popleft()[1]
        got_xoff = val(dut.pfc_xoff)
        if got_xoff != self.cur_xoff:
            self.mismatch(f"pfc_xoff got {got_xoff:#x} want {self.cur_xoff:#x}")
        got_change = val(dut.pfc_change)
        if got_change != self.cur_xoff ^ self.prev_xoff_exp:
            self.mismatch(f"pfc_change got {got_change:#x} "
                          f"want {self.cur_xoff ^ self.prev_xoff_exp:#x}")
        self.prev_xoff_exp = self.cur_xoff

    def _collect_xoff(self) -> int:
        """Apply the model's new PFC events to xoff_exp; returns it."""
        events = self.model.events
        while self.n_events_seen < len(events):
            ev = events[self.n_events_seen]
            self.n_events_seen += 1
            bit = 1 << (ev.port * 8 + ev.pg)
            if ev.xoff:
                self.xoff_exp |= bit
                self.cov["xoff"] += 1
            else:
                self.xoff_exp &= ~bit
                self.cov["xon"] += 1
        return self.xoff_exp

    def _check_outputs_single(self) -> None:
        dut = self.dut
        exp, tag, xoff = self.pipe.popleft()
        valid = val(dut.m_resp_valid)
        if exp is None:
            if valid:
                self.mismatch("response without a request")
        elif not valid:
            self.mismatch(f"no response for tag {tag}")
        else:
            self._compare_response(exp, tag)
        got_xoff = val(dut.pfc_xoff)
        if got_xoff != xoff:
            self.mismatch(f"pfc_xoff got {got_xoff:#x} want {xoff:#x}")
        got_change = val(dut.pfc_change)
        if got_change != xoff ^ self.prev_xoff_exp:
            self.mismatch(f"pfc_change got {got_change:#x} want {xoff ^ self.prev_xoff_exp:#x}")
        self.prev_xoff_exp = xoff

    # ------------------------------------------------------------------ one clock
    async def cycle(self, rel: tuple | None = None, arr: tuple | None = None,
                    stat_addr: int | None = None):
        """One clock: release (port, pg, eport, queue, cells) and/or arrival
        (port, pg, eport, queue, length).  Returns the model's Decision for the arrival."""
        dut = self.dut
        await FallingEdge(dut.clk)
        self._check_outputs()
        self.cycle_no += 1
        if PIPELINE and (rel is not None or arr is not None):
            dut.s_rel_valid.value = 0
            dut.s_req_valid.value = 0
            while not (val(dut.s_req_ready) and val(dut.s_rel_ready)):
                await FallingEdge(dut.clk)
                self._check_outputs()
                self.cycle_no += 1
        if stat_addr is not None:
            dut.stat_addr.value = stat_addr
        if rel is not None:
            p, g, e, q, c = rel
            dut.s_rel_port.value = p
            dut.s_rel_pg.value = g
            dut.s_rel_eport.value = e
            dut.s_rel_queue.value = q
            dut.s_rel_cells.value = c
            dut.s_rel_valid.value = 1
            self.releases += 1
        else:
            dut.s_rel_valid.value = 0
        tag = self.tag
        if arr is not None:
            p, g, e, q, n = arr
            dut.s_req_port.value = p
            dut.s_req_pg.value = g
            dut.s_req_eport.value = e
            dut.s_req_queue.value = q
            dut.s_req_len.value = n
            dut.s_req_tag.value = tag
            dut.s_req_valid.value = 1
            self.tag = (self.tag + 1) % (1 << TAG_W)
        else:
            dut.s_req_valid.value = 0
        n_underflow = self.model.release_underflow
        n_bad_rel = self.model.release_bad_index
        if PIPELINE:
            # the same order as Mmu.step: release, then arrival; each has its own PFC clock
            c = self.cycle_no
            dec = None
            if rel is not None:
                self.model.step(rel, None)
                self.xoff_sched.append((c + PIPE_REL_XOFF, self._collect_xoff()))
            if arr is not None:
                after = int(rel is not None)
                dec = self.model.step(None, arr)
                self.resp_q.append((c + PIPE_RESP[after], dec, tag))
                self.xoff_sched.append((c + PIPE_ARR_XOFF[after], self._collect_xoff()))
            if rel is not None or arr is not None:
                self.slots += 1
        else:
            dec = self.model.step(rel, arr)
            self.pipe.append((dec, tag, self._collect_xoff()))
        self._coverage(rel, arr, dec, n_underflow, n_bad_rel)
        return dec

    def _coverage(self, rel, arr, dec, n_underflow, n_bad_rel) -> None:
        cov = self.cov
        if rel is not None:
            cov["releases"] += 1
            if self.model.release_underflow != n_underflow:
                cov["release_underflow"] += 1
            if self.model.release_bad_index != n_bad_rel:
                cov["release_bad_index"] += 1
        if arr is not None:
            cov["arrivals"] += 1
            if rel is not None:
                cov["same_clock"] += 1
                if (rel[0], rel[1]) == (arr[0], arr[1]):
                    cov["same_clock_same_pg"] += 1
            pg = (arr[0], arr[1])
            if pg == self.last_arr_pg:
                cov["back_to_back_same_pg"] += 1
            self.last_arr_pg = pg
            if dec.admit:
                cov["seg_" + SEG_NAMES[dec.segment]] += 1
            else:
                assert dec.segment == SEG_NONE
                cov["drop_" + REASON_NAMES[dec.reason]] += 1
        else:
            self.last_arr_pg = None

    async def idle(self, n: int = 1) -> None:
        for _ in range(n):
            await self.cycle()

    async def flush(self) -> None:
        """Idle until every driven event has been compared."""
        if PIPELINE:
            while self.resp_q or self.xoff_sched or not val(self.dut.s_req_ready):
                await self.cycle()
            await self.idle(1)
        else:
            await self.idle(LATENCY + 1)

    # ------------------------------------------------------------------ stat port
    async def read_stats(self, addrs: list[int]) -> list[int]:
        """Read stat_addr -> stat_data for each address (STAT_LATENCY clocks later), with
        no traffic; the scoreboard keeps checking the (idle) outputs meanwhile."""
        out = []
        dut = self.dut
        for i in range(len(addrs) + STAT_LATENCY):
            await FallingEdge(dut.clk)
            if i >= STAT_LATENCY:
                out.append(val(dut.stat_data))
            self._check_outputs()
            self.cycle_no += 1
            dut.s_req_valid.value = 0
            dut.s_rel_valid.value = 0
            if i < len(addrs):
                dut.stat_addr.value = addrs[i]
            if not PIPELINE:
                self.pipe.append((None, 0, self.xoff_exp))
        return out

    async def check_counters(self, label: str = "") -> int:
        """Flush, then compare every counter and watermark the stat port exposes (and
        stat_drop_count, err_release_underflow) with the model.  Returns the number of
        registers compared."""
        await self.flush()
        m = self.model
        exp: list[tuple[str, int, int]] = []
        for name, v in stat_map.expected_globals(m).items():
            exp.append((name, stat_map.global_addr(name), v))
        for r in range(REASON_COUNT):
            exp.append((f"drops[{REASON_NAMES[r]}]", stat_map.drop_addr(r), m.drops[r]))
        exp.append(("arrivals", stat_map.global_addr("arrivals"),
                    m.admitted + sum(m.drops)))
        exp.append(("releases", stat_map.global_addr("releases"), self.releases))
        exp.append(("port_count", stat_map.global_addr("port_count"), PORT_COUNT))
        exp.append(("cell_bytes", stat_map.global_addr("cell_bytes"), CELL_BYTES))
        for p in range(PORT_COUNT):
            for g in range(8):
                for f, v in stat_map.expected_pg(m, p, g).items():
                    exp.append((f"pg[{p}][{g}].{f}", stat_map.pg_addr(p, g, f), v))
            for q in range(8):
                for f, v in stat_map.expected_queue(m, p, q).items():
                    exp.append((f"q[{p}][{q}].{f}", stat_map.queue_addr(p, q, f), v))
        got = await self.read_stats([a for _, a, _ in exp])
        bad = 0
        for (name, addr, want), g in zip(exp, got):
            if g != want:
                bad += 1
                self.mismatch(f"stat {label} {name} @ {addr:#06x}: got {g} want {want}")
        drops = val(self.dut.stat_drop_count)
        for r in range(REASON_COUNT):
            if (drops >> (32 * r)) & 0xFFFFFFFF != m.drops[r]:
                self.mismatch(f"stat_drop_count[{r}] {(drops >> (32 * r)) & 0xFFFFFFFF} "
                              f"want {m.drops[r]}")
        if val(self.dut.err_release_underflow) != int(m.release_underflow > 0):
            self.mismatch("err_release_underflow")
        self.cov["stat_checks"] += 1
        return len(exp)

    def report(self, name: str) -> None:
        self.log.info("%s: %d arrivals, %d releases (%d same clock), %d mismatches",
                      name, self.cov["arrivals"], self.cov["releases"],
                      self.cov["same_clock"], self.mismatches)
        self.log.info("%s coverage: %s", name, dict(sorted(self.cov.items())))

    def finish(self, name: str) -> None:
        self.report(name)
        assert self.mismatches == 0, f"{self.mismatches} mismatches between RTL and model"
