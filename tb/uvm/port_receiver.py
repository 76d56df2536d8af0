"""Receive side of a link partner: drains the switch's egress at a configurable rate (tready
pattern) and can itself send PFC back into the switch (congestion trees, storms).

Drain patterns: "full" (tready always 1), "stop" (always 0), or (n, m): ready n clocks out of
every m, from the clock the pattern is set (tb/system/tb_axis_port.v makes tready from them).
pause(prios, quanta, refresh) sends XOFF and refreshes it every ``refresh`` clocks
until resume(prios) sends XON (802.1Qbb: time 0 resumes now).
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import RisingEdge
from pyuvm import ConfigDB, uvm_component

from .frame_item import FrameItem
from .frames import pfc_frame, port_mac
from .sim_clock import clocks


class PortReceiver(uvm_component):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.port = ConfigDB().get(self, "", "port")
        self.driver = None  # set by the agent: PFC frames leave through the transmit side
        self.pattern = "full"
        self._gen = 0
        self._refresh_tasks: dict[int, object] = {}
        self.pfc_sent = 0

    def start_of_simulation_phase(self):
        self.hw = getattr(cocotb.top, f"port{self.port}")
        self.clk = cocotb.top.clk
        self.set_drain("full")

    def set_drain(self, pattern) -> None:
        self.pattern = pattern
        self.cfg.note_drain(self.port, pattern)  # the scoreboard's PFC window for this port
        hw = self.hw
        if pattern == "full":
            hw.rx_mode.value = 0
        elif pattern == "stop":
            hw.rx_mode.value = 1
        else:
            n, m = pattern
            if not 0 < n <= m < 65536:
                raise ValueError(f"drain pattern {pattern}: need 0 < n <= m < 65536")
            hw.rx_n.value = n
            hw.rx_m.value = m
            hw.rx_mode.value = 2
        self._gen = (self._gen + 1) % 65536
        hw.rx_gen.value = self._gen

    # ------------------------------------------------------------------ PFC into the switch
    def send_pfc(self, times: dict[int, int]) -> None:
        data = pfc_frame(port_mac(self.port), times)
        item = FrameItem("pfc", sport=self.port, dest=self.port, prio=0, data=data)
        self.pfc_sent += 1
        self.driver.send_control(item)

    def pause(self, prios, quanta: int, refresh: int | None = None) -> None:
        self.send_pfc({k: quanta for k in prios})
        if refresh:
            for k in prios:
                self._stop_refresh(k)
                self._refresh_tasks[k] = cocotb.start_soon(self._refresh(k, quanta, refresh))

    async def _refresh(self, k: int, quanta: int, every: int):
        while True:
            await clocks(self.clk, every, self.cfg.timing.clk_ns)
            self.send_pfc({k: quanta})

    def _stop_refresh(self, k: int) -> None:
        t = self._refresh_tasks.pop(k, None)
        if t is not None:
            t.cancel()

    def resume(self, prios) -> None:
        for k in prios:
            self._stop_refresh(k)
        self.send_pfc({k: 0 for k in prios})

    async def run_phase(self):
        await RisingEdge(self.clk)
