"""Active half of a link partner's transmit side: sends the sequencer's frames into the switch.

Link-partner semantics (models/network.py does the same in byte times):

* the partner starts a frame only at a frame boundary and only for a priority that is not
  paused (TxScheduler over PauseState); MAC Control frames go first and are never paused;
* a frame started at clock t occupies the link for ceil(len / bytes_per_clock) clocks and its
  first beat reaches the switch at t + prop_clocks (cocotbext-axi AxiStreamSource does the
  beats);
* a PFC frame the switch sent reaches the partner prop_clocks after its last beat and acts
  response_clocks later, per 802.1Qbb (PauseState).
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, Event, First, Timer
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSource
from pyuvm import ConfigDB, uvm_driver, uvm_subscriber

from .pause_state import PauseState
from .tx_scheduler import TxScheduler


class PortDriver(uvm_driver):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.port = ConfigDB().get(self, "", "port")
        self.pause = PauseState(self.cfg.timing)
        self.sched = TxScheduler(self.pause)
        self.wake = Event()
        self.in_flight = 0  # frames started but not yet handed to the stream
        self.sent = 0
        self.pfc_rx_export = uvm_subscriber.uvm_AnalysisImp("pfc_rx_export", self,
                                                            self.pfc_from_switch)

    def start_of_simulation_phase(self):
        dut = cocotb.top
        self.clk = dut.clk
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, f"s{self.port}_axis"),
                                      dut.clk, dut.rst)
        self.source.log.setLevel("WARNING")

    def now(self) -> int:
        return int(get_sim_time("ns") // self.cfg.timing.clk_ns)

    # ------------------------------------------------------------------ inputs
    def pfc_from_switch(self, obs) -> None:
        """A PFC frame the switch sent on this port (from the monitor): it reaches us
        prop_clocks after its last beat."""
        self.pause.receive(obs.end + self.cfg.timing.prop_clocks, obs.pfc)
        self.wake.set()

    def send_control(self, item) -> None:
        item.is_control = True
        self.sched.push_control(item)
        self.wake.set()

    def idle(self) -> bool:
        return self.sched.backlog() == 0 and self.in_flight == 0 and self.source.idle()

    # ------------------------------------------------------------------ processes
    async def run_phase(self):
        cocotb.start_soon(self._tx_loop())
        while True:
            item = await self.seq_item_port.get_next_item()
            self.sched.push(item.prio if item.tagged else self.cfg.mmu.ports[self.port]
                            .default_prio, item)
            self.wake.set()
            self.seq_item_port.item_done()

    async def _tx_loop(self):
        t = self.cfg.timing
        while True:
            now = self.now()
            item = self.sched.pick(now)
            if item is None:
                self.wake.clear()
                nxt = self.pause.next_change(now)
                if nxt is None:
                    await self.wake.wait()
                else:
                    await First(self.wake.wait(), ClockCycles(self.clk, max(1, nxt - now)))
                continue
            self.in_flight += 1
            cocotb.start_soon(self._deliver(item, t.prop_clocks))
            self.sent += 1
            await ClockCycles(self.clk, t.frame_clocks(len(item.data)))

    async def _deliver(self, item, delay: int):
        await Timer(delay * self.cfg.timing.clk_ns, unit="ns")
        frame = AxiStreamFrame(item.data, tdest=item.dest,
                               tuser=[0] * (len(item.data) - 1) + [1 if item.bad else 0])
        self.source.send_nowait(frame)
        self.in_flight -= 1
