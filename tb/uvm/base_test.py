"""Base of every system test: builds the env for the test's configuration, resets and
configures the switch, runs the test's stimulus, waits for the switch to drain, reads the
DUT counters and prints the summary.  Checks live in the scoreboard's check_phase.

The seed is cocotb's (SEED=n replays a run); it is printed at the start of every test."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles
from pyuvm import ConfigDB, uvm_test

from common.mmu_axil import switch_image
from models.mmu import REASON_NAMES

from .cov_db import CovDb
from .cov_export import write_xml
from .reg_agent import check_registers, find_reg, reg_alter, switch_status
from .sim_clock import clocks
from .switch_env import SwitchEnv
from .system_config import BUFFER_CELLS


# cocotb.RANDOM_SEED while this module is imported (test collection) is the regression seed;
# during a test it is that seed combined with the test's name.  SEED=<regression seed> and the
# same test name replay the run.
REGRESSION_SEED = getattr(cocotb, "RANDOM_SEED", None)


class SwitchBaseTest(uvm_test):
    soak_scale = 1

    def make_config(self, seed: int):
        raise NotImplementedError

    async def stimulus(self):
        raise NotImplementedError

    def build_phase(self):
        self.seed = int(cocotb.RANDOM_SEED)
        self.soak_scale = 10 if os.environ.get("SOAK", "0") not in ("", "0") else 1
        self.cfg = self.make_config(self.seed)
        self.logger.info("%s: test seed %d; replay with SEED=%s SYSTEM_TESTS=%s",
                         type(self).__name__, self.seed, REGRESSION_SEED, type(self).__name__)
        ConfigDB().set(None, "*", "env_cfg", self.cfg)
        self.env = SwitchEnv("env", self)
        self.cov_before = Counter(CovDb.hits)

    def frames(self, n: int, low: int) -> int:
        """``n`` frames at this run's length: SOAK=1 makes it ten times more, TB_SCALE (0.1 on
        Icarus, tb/harness.py) scales it, never below ``low``, which keeps the test's point
        (XOFF fires, lossy frames drop, the switch pauses upstream)."""
        scale = self.soak_scale * float(os.environ.get("TB_SCALE", "1") or 1)
        return max(low, round(n * scale))

    def agent(self, p):
        return self.env.agents[p]

    def now(self) -> int:
        from cocotb.utils import get_sim_time
        return int(get_sim_time("ns") // self.cfg.timing.clk_ns)

    async def send(self, port: int, seq) -> None:
        await seq.start(self.agent(port).seqr)

    async def reset(self):
        dut = cocotb.top
        cocotb.start_soon(Clock(dut.clk, self.cfg.timing.clk_ns, unit="ns").start())
        dut.rst.value = 1
        await ClockCycles(dut.clk, 8)
        dut.rst.value = 0
        # the switch registers (models.swconfig), then the admission core's configuration: the
        # model's register images over AXI4-Lite (the switch sends no request to mmu_core
        # before the admission image's last write), with the register agent's AxiLiteMaster
        await self.env.regs.axil.load_switch(self.cfg.switch_config())
        await self.env.regs.axil.load(self.cfg.mmu)
        alter = reg_alter()
        if alter:
            # negative tests (tb/system/test_system.py): one configuration register written
            # wrong through the register model; the register read-back at the end must name
            # it (an MMU register: the predictor's image check too)
            reg = find_reg(self.env.regs.blocks(), alter)
            written = dict(switch_image(self.cfg.mmu)) | dict(self.cfg.switch_config().image())
            value = written[reg.get_address()] ^ 1
            self.logger.warning("SYSTEM_REG_ALTER: writing %s = %#x through the register "
                                "model (the image has %#x)", reg.get_full_name(), value,
                                value ^ 1)
            await reg.write(value)
        await ClockCycles(dut.clk, 8)

    async def drain(self):
        """Wait until every frame sent has left or been dropped and the model is empty, then
        long enough for the last XON frames to go out and be seen."""
        clk = cocotb.top.clk
        sb = self.env.scoreboard
        m = self.env.predictor.model
        waited = 0
        while True:
            await clocks(clk, 256, self.cfg.timing.clk_ns)
            waited += 256
            self.env.predictor.sync_now()
            if (self.env.drivers_idle() and sb.flows.outstanding() == 0
                    and sb.flows.unmatched_ingress() == 0 and m.total_used == 0):
                break
            if waited > self.cfg.drain_timeout_clocks:
                sb.err(f"drain: waited {waited} clocks for the switch to empty: drivers idle "
                       f"{self.env.drivers_idle()}, admitted frames not yet out "
                       f"{sb.flows.outstanding()}, frames in with no mmu request "
                       f"{sb.flows.unmatched_ingress()}, model cells {m.total_used}")
                break
        await clocks(clk, 2 * self.cfg.pfc_window_max, self.cfg.timing.clk_ns)

    async def read_counters(self) -> dict:
        """switch_core's counters read through the switch register model (pfcmmu_switch,
        ``RegAgent.read_switch``: uvm_reg.read over AXI4-Lite; no clear on read), each with
        the model's or the scoreboard's figure."""
        m = self.env.predictor.model
        sb = self.env.scoreboard
        n = self.cfg.port_count
        drops = [f"mmu_drop_count[{r - 1}]" for r in range(1, len(REASON_NAMES))]
        r = await self.env.regs.read_switch(
            ["tx_frames", "drop_error", "drop_admission", "pfc_rx_frames", "used_cells",
             "errors"] + drops, n)
        out = {}
        for k, name in enumerate(REASON_NAMES):
            if k:
                out[f"mmu_drop_{name}"] = (r[f"mmu_drop_count[{k - 1}]"], m.drops[k])

        def total(reg):
            return sum(r[f"{reg}[{p}]"] for p in range(n))
        out["tx_frames"] = (total("tx_frames"), sum(sb.flows.frames_out))
        out["drop_error"] = (total("drop_error"), sb.flows.bad_in)
        out["drop_admission"] = (total("drop_admission"), sum(m.drops[1:]))
        out["pfc_rx_frames"] = (total("pfc_rx_frames"), sum(sb.pfc.frames_received))
        out["used_cells"] = (r["used_cells"], 0)
        # the errors register's flags (rtl/regs/pfcmmu.rdl): bit 0 release_underflow,
        # 2 reserve, 3 free_list, 4 response (bad_config, bit 1, is the register check's)
        for bit, e in ((0, "err_release_underflow"), (2, "err_reserve"), (3, "err_free_list"),
                       (4, "err_response")):
            out[e] = ((r["errors"] >> bit) & 1, 0)
        return out

    async def run_phase(self):
        self.raise_objection()
        await self.reset()
        self.t0 = self.now()
        await self.stimulus()
        await self.drain()
        self.env.scoreboard.dut_counters = await self.read_counters()
        self.t1 = self.now()
        # every register the models know, read through the register models and compared
        sb = self.env.scoreboard
        sw_status = switch_status(BUFFER_CELLS, self.env.predictor.model.drops,
                                  sb.flows.frames_in, sb.flows.frames_out,
                                  sb.pfc.frames_received)
        self.reg_reads, sb.reg_diffs = await check_registers(
            self.env.regs, self.env.predictor.pred, self.cfg.mmu, self.cfg.switch_config(),
            sw_status)
        self.logger.info("register model: %d registers read in %d clocks, %d differ",
                         self.reg_reads, self.now() - self.t1,
                         len(self.env.scoreboard.reg_diffs))
        self.drop_objection()

    def summary_text(self) -> str:
        s = self.env.scoreboard.summary()
        return (f"SUMMARY {type(self).__name__} (SEED={REGRESSION_SEED}): "
                f"{self.t1 - self.t0} clocks; frames in {s['frames_in']} (bad {s['bad_in']}), "
                f"out {s['frames_out']}, admitted {s['admitted']}, dropped by reason "
                f"{s['dropped'] or '{}'} (lossless {s['lossless_drops']}); PFC sent by switch "
                f"{s['pfc_sent_by_switch']} (XOFF entries {s['pfc_xoff_entries']}, XON "
                f"{s['pfc_xon_entries']}; model XOFF {s['model_xoff']}, XON {s['model_xon']}), "
                f"PFC received by switch {s['pfc_received_by_switch']}; peak headroom "
                f"{s['peak_hdrm']} of {s['hdrm_limit']} cells; mmu_core responses checked "
                f"{self.env.predictor.pred.responses}; registers read through the register "
                f"model {getattr(self, 'reg_reads', 0)} (differences "
                f"{len(self.env.scoreboard.reg_diffs)}); {CovDb.report()}")

    def extract_phase(self):
        # extract runs over the whole tree before any check_phase (the scoreboard's asserts),
        # so a failing test still prints what happened
        self.logger.info(self.summary_text())
        delta = CovDb.hits - self.cov_before
        out = Path(os.environ.get("COV_DIR", "."))
        name = type(self).__name__
        try:
            CovDb.dump(out / f"coverage_{name}.json", delta)
            # the same hits as cocotb-coverage's XML report (merged per run by tb/conftest.py)
            write_xml(delta, out / f"coverage_{name}.xml")
        except OSError:
            pass
        self.summary = self.env.scoreboard.summary()

    def report_phase(self):
        self.logger.info("summary json %s", json.dumps(self.env.scoreboard.summary()))
