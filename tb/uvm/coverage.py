"""Coverage collector (uvm_subscriber of the predictor, plus the PFC frames on the wire and
the frame sizes into the switch).  Bins and closure rules: cov_db.py and tb/TESTPLAN.md."""

from __future__ import annotations

from collections import Counter

from pyuvm import uvm_subscriber

from models.mmu import (REASON_HEADROOM_FULL, REASON_INGRESS_LOSSY, SEG_HEADROOM,
                        SEG_RESERVED, SEG_SHARED)

from .cov_db import CovDb, size_bin
from .frames import FCS_BYTES

_SEG = {SEG_RESERVED: "reserved", SEG_SHARED: "shared", SEG_HEADROOM: "headroom"}


class Coverage(uvm_subscriber):
    def build_phase(self):
        self.local = Counter()
        self.wire_export = uvm_subscriber.uvm_AnalysisImp("wire_export", self, self.write_wire)
        self.rx_export = uvm_subscriber.uvm_AnalysisImp("rx_export", self, self.write_rx)
        self.size_export = uvm_subscriber.uvm_AnalysisImp("size_export", self, self.write_size)
        self.last_xoff: dict[tuple[int, int], bool] = {}

    def _hit(self, name: str) -> None:
        self.local[name] += 1
        CovDb.hit(name)

    def write(self, p) -> None:  # predictions
        for e in getattr(p, "release_events", ()):
            if not e.xoff:
                self._hit(f"cross:prio{e.pg}:release:xon")
        d = p.decision
        if d is None:
            return
        pg = p.arrival[1]
        seg = _SEG.get(d.segment, "drop") if d.admit else "drop"
        self._hit(f"adm:prio{pg}:{seg}")
        caused = [e for e in p.pfc if e.pg == pg and e.port == p.arrival[0]]
        trans = "xoff" if any(e.xoff for e in caused) else "none"
        self._hit(f"cross:prio{pg}:{seg}:{trans}")
        if not d.admit:
            if d.reason == REASON_INGRESS_LOSSY:
                self._hit("drop:ingress_lossy")
            elif d.reason == REASON_HEADROOM_FULL:
                self._hit("drop:headroom_full")
        if p.alpha_shift is not None:
            self._hit(f"alpha:{p.alpha_shift}")
        if p.static:
            self._hit("threshold:static")

    def write_wire(self, obs) -> None:  # PFC frames the switch sent
        for k, q in obs.pfc.items():
            key = (obs.port, k)
            if q > 0:
                self._hit(f"wire:prio{k}:{'refresh' if self.last_xoff.get(key) else 'xoff'}")
            else:
                self._hit(f"wire:prio{k}:xon")
            self.last_xoff[key] = q > 0

    def write_rx(self, obs) -> None:  # PFC frames into the switch
        for k, q in obs.pfc.items():
            self._hit(f"rx:prio{k}:{'xoff' if q else 'xon'}")

    def write_size(self, obs) -> None:
        self._hit(size_bin(len(obs.data) + FCS_BYTES))

    def report_phase(self):
        self.logger.info("coverage (this test): %d bins hit; %s", len(self.local),
                         CovDb.report())
