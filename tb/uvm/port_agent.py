"""Port agent: one per switch port.  Active: sequencer + driver (transmit side of the link
partner) + receiver (drain pattern, PFC back into the switch) + monitor.  Passive: monitor
only (the port is then driven by something else, e.g. another testbench)."""

from __future__ import annotations

from pyuvm import ConfigDB, uvm_agent, uvm_sequencer

from .port_driver import PortDriver
from .port_monitor import PortMonitor
from .port_receiver import PortReceiver


class PortAgent(uvm_agent):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.port = ConfigDB().get(self, "", "port")
        self.active = self.cfg.is_active(self.port)
        self.monitor = PortMonitor("monitor", self)
        if self.active:
            self.seqr = uvm_sequencer("seqr", self)
            self.driver = PortDriver("driver", self)
            self.receiver = PortReceiver("receiver", self)

    def connect_phase(self):
        if self.active:
            self.driver.seq_item_port.connect(self.seqr.seq_item_export)
            self.monitor.ap_pfc_out.connect(self.driver.pfc_rx_export)
            self.monitor.driver = self.driver
            self.receiver.driver = self.driver
