"""Watches the switch's internal mmu_core handshakes from cocotb and publishes them.

Every clock with an accepted release (s_rel_valid & s_rel_ready) or arrival (s_req_valid &
s_req_ready) becomes one MmuStep, release first exactly as mmu_core applies them
(docs/interfaces.md "same-clock order"), so the predictor feeds the golden model the order the
hardware saw.  Every m_resp_valid beat becomes a DutResponse.
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import RisingEdge
from pyuvm import ConfigDB, uvm_analysis_port, uvm_monitor

from .dut_response import DutResponse
from .mmu_step import MmuStep


def _find(top, path):
    h = top
    for name in path:
        h = getattr(h, name)
    return h


class MmuObserver(uvm_monitor):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.ap_step = uvm_analysis_port("ap_step", self)
        self.ap_resp = uvm_analysis_port("ap_resp", self)
        self.steps = 0

    def start_of_simulation_phase(self):
        self.mmu = _find(cocotb.top, self.cfg.mmu_path)
        self.clk = cocotb.top.clk

    async def run_phase(self):
        m = self.mmu
        edge = RisingEdge(self.clk)
        cycle = 0
        clk_ns = self.cfg.timing.clk_ns
        from cocotb.utils import get_sim_time
        rst = cocotb.top.rst
        while True:
            await edge
            if rst.value:
                continue
            cycle = int(get_sim_time("ns") // clk_ns)
            rel = arr = None
            if m.s_rel_valid.value and m.s_rel_ready.value:
                rel = (int(m.s_rel_port.value), int(m.s_rel_pg.value), int(m.s_rel_eport.value),
                       int(m.s_rel_queue.value), int(m.s_rel_cells.value))
            tag = 0
            if m.s_req_valid.value and m.s_req_ready.value:
                arr = (int(m.s_req_port.value), int(m.s_req_pg.value), int(m.s_req_eport.value),
                       int(m.s_req_queue.value), int(m.s_req_len.value))
                tag = int(m.s_req_tag.value)
            if m.m_resp_valid.value:
                self.ap_resp.write(DutResponse(
                    cycle, bool(m.m_resp_admit.value), int(m.m_resp_reason.value),
                    int(m.m_resp_cells.value), int(m.m_resp_res.value),
                    int(m.m_resp_shared.value), int(m.m_resp_hdrm.value),
                    int(m.m_resp_tag.value)))
            if rel is not None or arr is not None:
                self.steps += 1
                self.ap_step.write(MmuStep(cycle, rel, arr, tag))
