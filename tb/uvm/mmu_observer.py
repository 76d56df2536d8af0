"""Watches the switch's mmu_core ports and publishes one MmuStep per clock that has something
on them: the release and the arrival it took (it takes both every clock, no ready), a
configuration write, the response (RESP_LAT clocks after its request), pfc_xoff when it
changed.

switch_tb_top registers each such clock into one record (mmu_obs, with the clock number since
reset and a sequence number); Python wakes only on clocks that have one, and the predictor
steps the golden model over the idle clocks in between (tb/common/mmu_bus.py).
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ValueChange
from cocotb.utils import get_sim_time
from pyuvm import ConfigDB, uvm_analysis_port, uvm_monitor

from .mmu_step import MmuStep

OBS_FIELDS = 30  # switch_tb_top's OBS_W


class MmuObserver(uvm_monitor):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.ap_step = uvm_analysis_port("ap_step", self)
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
            f = [(v >> (32 * i)) & mask for i in range(OBS_FIELDS)]
            seq = f[29]
            if seq == 0:  # reset
                last = 0
                continue
            if seq != last + 1 and len(self.errors) < 10:
                self.errors.append(f"mmu observer: record {seq} after {last} (clocks missed)")
            last = seq
            cycle = int((get_sim_time("ns") + clk_ns / 4) // clk_ns)  # this edge's index
            self.steps += 1
            self.ap_step.write(MmuStep(
                cycle=cycle,
                release=tuple(f[1:6]) if f[0] else None,
                arrival=tuple(f[7:12]) if f[6] else None,
                tag=f[12] if f[6] else 0,
                clock=f[28],
                write=(f[24], f[25]) if f[23] else None,
                resp=tuple(f[14:23]) if f[13] else None,
                xoff=f[27] if f[26] else None))
