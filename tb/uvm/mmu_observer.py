"""The switch's mmu_core admission interface as a pyuvm monitor: the shared bus model
(tb/common/mmu_bus.py, MmuMonitor) on switch_tb_top's ``mmu_obs`` record, one MmuStep per clock
that has something on the interface (the release and the arrival it took, a configuration
write, the response, pfc_xoff when it changed) to the analysis port ``ap_step``.

switch_tb_top registers each such clock into the record (with the clock number since reset and
a sequence number), so Python wakes only on clocks that have one, and the predictor steps the
golden model over the idle clocks in between.
"""

from __future__ import annotations

import cocotb
from pyuvm import ConfigDB, uvm_analysis_port, uvm_monitor

from common.mmu_bus import MmuMonitor


class MmuObserver(uvm_monitor):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.ap_step = uvm_analysis_port("ap_step", self)
        self.monitor = None

    @property
    def steps(self) -> int:
        return self.monitor.stats.received_transactions if self.monitor else 0

    @property
    def errors(self) -> list[str]:
        """Records missed (a gap in their sequence numbers)."""
        return self.monitor.errors if self.monitor else []

    async def run_phase(self):
        top = cocotb.top
        self.monitor = MmuMonitor(top, top.clk, callback=self.ap_step.write, record="mmu_obs",
                                  clk_ns=self.cfg.timing.clk_ns)
