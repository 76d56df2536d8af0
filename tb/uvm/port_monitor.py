"""Passive half of a port agent: every frame into and out of one switch port.

Analysis ports: ``ap_in`` data frames into the switch (bad ones included), ``ap_out`` data
frames out, ``ap_pfc_out`` PFC frames the switch sent (parsed with Scapy
MACControlClassBasedFlowControl), ``ap_pfc_in`` PFC frames into the switch.
"""

from __future__ import annotations

import cocotb
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiStreamBus, AxiStreamMonitor
from pyuvm import ConfigDB, uvm_analysis_port, uvm_monitor

from .frames import is_pfc, parse_pfc
from .observed_frame import ObservedFrame


class PortMonitor(uvm_monitor):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.port = ConfigDB().get(self, "", "port")
        self.ap_in = uvm_analysis_port("ap_in", self)
        self.ap_out = uvm_analysis_port("ap_out", self)
        self.ap_pfc_in = uvm_analysis_port("ap_pfc_in", self)
        self.ap_pfc_out = uvm_analysis_port("ap_pfc_out", self)
        self.count = {"in": 0, "out": 0, "pfc_in": 0, "pfc_out": 0}

    def start_of_simulation_phase(self):
        dut = cocotb.top
        self.mon_in = AxiStreamMonitor(AxiStreamBus.from_prefix(dut, f"s{self.port}_axis"),
                                       dut.clk, dut.rst)
        self.mon_out = AxiStreamMonitor(AxiStreamBus.from_prefix(dut, f"m{self.port}_axis"),
                                        dut.clk, dut.rst)
        self.mon_in.log.setLevel("WARNING")
        self.mon_out.log.setLevel("WARNING")

    def _cycle(self, steps) -> int:
        from cocotb.utils import get_time_from_sim_steps
        return int(get_time_from_sim_steps(steps, "ns") // self.cfg.timing.clk_ns)

    async def run_phase(self):
        cocotb.start_soon(self._watch(self.mon_in, "in"))
        await self._watch(self.mon_out, "out")

    async def _watch(self, mon, direction: str):
        while True:
            fr = await mon.recv()
            data = bytes(fr.tdata)
            # recv() compacts a field that is constant over the frame to one int
            tu, td = fr.tuser, fr.tdest
            bad = bool(any(tu) if isinstance(tu, list) else tu)
            dest = (td[0] if td else 0) if isinstance(td, list) else int(td or 0)
            start = self._cycle(fr.sim_time_start)
            end = self._cycle(fr.sim_time_end) if fr.sim_time_end is not None else \
                int(get_sim_time("ns") // self.cfg.timing.clk_ns)
            pfc = None
            if is_pfc(data) and not bad:
                try:
                    pfc = parse_pfc(data)
                except ValueError:
                    pfc = None
            obs = ObservedFrame(self.port, direction, data, dest, bad, start, end, pfc)
            if pfc is not None:
                self.count["pfc_" + direction] += 1
                (self.ap_pfc_in if direction == "in" else self.ap_pfc_out).write(obs)
            else:
                self.count[direction] += 1
                (self.ap_in if direction == "in" else self.ap_out).write(obs)
