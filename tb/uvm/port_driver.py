"""Active half of a link partner's transmit side: sends the sequencer's frames into the switch.

Link-partner semantics (models/network.py does the same in byte times):

* the partner starts a frame only at a frame boundary and only for a priority that is not
  paused (TxScheduler over PauseState); MAC Control frames go first and are never paused;
* a frame started at clock t occupies the link for ceil(len / bytes_per_clock) clocks and its
  first beat is offered to the switch from t + prop_clocks on: the frame's beats go into the
  port's source ring (tb/system/tb_axis_port.v), which sends them back to back as the switch
  takes them, as a MAC with a FIFO would;
* a PFC frame the switch sent reaches the partner prop_clocks after its last beat and acts
  response_clocks later, per 802.1Qbb (PauseState).

Python writes each frame once (its words and a descriptor) and never works per clock.
"""

from __future__ import annotations

from collections import deque

import cocotb
from cocotb.triggers import Event, First, RisingEdge
from cocotb.utils import get_sim_time
from pyuvm import ConfigDB, uvm_driver, uvm_subscriber

from .pause_state import PauseState
from .sim_clock import clocks, timer_to_edge
from .tx_scheduler import TxScheduler

SRC_WORDS = 1 << 14  # tb_axis_port SRC_AW
DESC_ENTRIES = 1 << 8  # tb_axis_port DESC_AW


class PortDriver(uvm_driver):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.port = ConfigDB().get(self, "", "port")
        self.pause = PauseState(self.cfg.timing)
        self.sched = TxScheduler(self.pause)
        self.wake = Event()
        self.in_flight = 0  # frames started but not yet at the switch's input
        self.sent = 0
        self.waiting: deque = deque()  # at the input, the source ring full
        self.in_ring: deque = deque()  # in the ring, in order (the monitor takes them)
        self.pfc_rx_export = uvm_subscriber.uvm_AnalysisImp("pfc_rx_export", self,
                                                            self.pfc_from_switch)

    def start_of_simulation_phase(self):
        dut = cocotb.top
        self.clk = dut.clk
        self.hw = getattr(dut, f"port{self.port}")
        self.beat_bytes = self.cfg.data_width // 8
        self.wp = 0  # next ring word
        self.n_desc = 0  # descriptors written
        self.hw.desc_wr.value = 0

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
        return (self.sched.backlog() == 0 and self.in_flight == 0 and not self.waiting
                and not self.in_ring)

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
                else:  # the next pause change, or a wake-up (a frame, a PFC frame) first
                    sleep = timer_to_edge(max(1, nxt - now), t.clk_ns)
                    if sleep is None or await First(self.wake.wait(), sleep) is sleep:
                        await RisingEdge(self.clk)
                continue
            self.in_flight += 1
            cocotb.start_soon(self._deliver(item, t.prop_clocks))
            self.sent += 1
            await clocks(self.clk, t.frame_clocks(len(item.data)), t.clk_ns)

    async def _deliver(self, item, delay: int):
        await clocks(self.clk, delay, self.cfg.timing.clk_ns)
        self.in_flight -= 1
        self.waiting.append(item)
        self.fill()

    # ------------------------------------------------------------------ source ring
    def fill(self) -> None:
        """Frames waiting at the input into the ring while it has room (called again by the
        monitor each time the switch has taken a frame)."""
        if not self.waiting:
            return
        bb = self.beat_bytes
        rd = int(self.hw.src_rd.value)
        taken = int(self.hw.desc_rd.value)
        wrote = False
        while self.waiting:
            data = self.waiting[0].data
            beats = -(-len(data) // bb)
            used = (self.wp - rd) % SRC_WORDS
            if used + beats >= SRC_WORDS or (self.n_desc - taken) % 65536 >= DESC_ENTRIES - 1:
                break
            item = self.waiting.popleft()
            mem = self.hw.src_data
            for i in range(beats):
                mem[(self.wp + i) % SRC_WORDS].value = int.from_bytes(
                    data[i * bb:(i + 1) * bb], "little")
            self.wp = (self.wp + beats) % SRC_WORDS
            last = len(data) - (beats - 1) * bb
            keep = (1 << last) - 1
            kw = bb
            self.hw.desc[self.n_desc % DESC_ENTRIES].value = (
                beats | keep << 16 | (1 if item.bad else 0) << (16 + kw) | item.dest << (17 + kw))
            self.n_desc += 1
            self.in_ring.append(item)
            wrote = True
        if wrote:
            self.hw.desc_wr.value = self.n_desc % 65536
