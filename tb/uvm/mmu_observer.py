"""Watches the switch's internal mmu_core handshakes and publishes them.

Every clock with an accepted release (s_rel_valid & s_rel_ready) or arrival (s_req_valid &
s_req_ready) becomes one MmuStep, release first exactly as mmu_core applies them
(docs/interfaces.md "same-clock order"), so the predictor feeds the golden model the order the
hardware saw.  Every m_resp_valid beat becomes a DutResponse.

switch_tb_top samples the handshakes at each rising edge into one record (mmu_obs, with a
sequence number); Python wakes only on clocks that have one.
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ValueChange
from cocotb.utils import get_sim_time
from pyuvm import ConfigDB, uvm_analysis_port, uvm_monitor

from .dut_response import DutResponse
from .mmu_step import MmuStep


class MmuObserver(uvm_monitor):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.ap_step = uvm_analysis_port("ap_step", self)
        self.ap_resp = uvm_analysis_port("ap_resp", self)
        self.steps = 0
        self.errors: list[str] = []

    def start_of_simulation_phase(self):
        self.rec = cocotb.top.mmu_obs

    async def run_phase(self):
        rec = self.rec
        clk_ns = self.cfg.timing.clk_ns
        mask = 0xFFFFFFFF
        last = 0
        while True:
            await ValueChange(rec)
            v = int(rec.value)
            f = [(v >> (32 * i)) & mask for i in range(22)]
            seq = f[21]
            if seq == 0:  # reset
                last = 0
                continue
            if seq != last + 1 and len(self.errors) < 10:
                self.errors.append(f"mmu observer: record {seq} after {last} (clocks missed)")
            last = seq
            cycle = int(get_sim_time("ns") // clk_ns)
            rel = tuple(f[1:6]) if f[0] else None
            arr = tuple(f[7:12]) if f[6] else None
            tag = f[12] if f[6] else 0
            if f[13]:
                self.ap_resp.write(DutResponse(cycle, bool(f[14]), f[15], f[16], f[17], f[18],
                                               f[19], f[20]))
            if rel is not None or arr is not None:
                self.steps += 1
                self.ap_step.write(MmuStep(cycle, rel, arr, tag))
