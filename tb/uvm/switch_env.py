"""The system environment: one PortAgent per switch port, the mmu_core observer, the
predictor (golden model), the scoreboard, coverage, and the register agent (the pyuvm
register model of the MMU on switch_core's AXI4-Lite port, tb/uvm/reg_agent.py)."""

from __future__ import annotations

import cocotb
from pyuvm import ConfigDB, uvm_env

from .coverage import Coverage
from .mmu_observer import MmuObserver
from .port_agent import PortAgent
from .predictor import Predictor
from .reg_agent import RegAgent
from .scoreboard import Scoreboard


class SwitchEnv(uvm_env):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.agents = []
        for p in range(self.cfg.port_count):
            ConfigDB().set(self, f"agent{p}*", "port", p)
            self.agents.append(PortAgent(f"agent{p}", self))
        self.observer = MmuObserver("observer", self)
        self.predictor = Predictor("predictor", self)
        self.scoreboard = Scoreboard("scoreboard", self)
        self.coverage = Coverage("coverage", self)
        self.regs = RegAgent("regs", self)

    def connect_phase(self):
        sb = self.scoreboard
        sb.predictor = self.predictor
        sb.monitors = [a.monitor for a in self.agents] + [self.observer]
        self.observer.ap_step.connect(self.predictor.step_export)
        self.predictor.pfc_sink = sb.model_pfc
        self.predictor.ap.connect(sb.pred_export)
        self.predictor.ap.connect(self.coverage.analysis_export)
        for a in self.agents:
            a.monitor.ap_in.connect(sb.in_export)
            a.monitor.ap_in.connect(self.coverage.size_export)
            a.monitor.ap_out.connect(sb.out_export)
            a.monitor.ap_pfc_out.connect(sb.pfc_out_export)
            a.monitor.ap_pfc_out.connect(self.coverage.wire_export)
            a.monitor.ap_pfc_in.connect(sb.pfc_in_export)
            a.monitor.ap_pfc_in.connect(self.coverage.rx_export)

    def start_of_simulation_phase(self):
        dut = cocotb.top
        for p in range(self.cfg.port_count):
            if not self.cfg.is_active(p):  # sends nothing, drains at line rate
                hw = getattr(dut, f"port{p}")
                hw.desc_wr.value = 0
                hw.rx_mode.value = 0
                hw.rx_gen.value = 0

    def drivers_idle(self) -> bool:
        return all(a.driver.idle() for a in self.agents if a.active)
