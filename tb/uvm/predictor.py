"""Predictor: feeds the observed mmu_core steps into the golden model (models.mmu.Mmu.step,
release before arrival) and publishes the model's answer and its PFC events."""

from __future__ import annotations

from pyuvm import ConfigDB, uvm_analysis_port, uvm_component, uvm_subscriber

from models.mmu import PG_COUNT, Mmu

from .prediction import Prediction


class Predictor(uvm_component):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.model = Mmu(self.cfg.mmu)
        self.step_export = uvm_subscriber.uvm_AnalysisImp("step_export", self, self.write_step)
        self.ap = uvm_analysis_port("ap", self)

    def write_step(self, step) -> None:
        m = self.model
        ev0 = len(m.events)
        ok = True
        if step.release is not None:
            ok = m.release(*step.release)
        ev_rel = len(m.events)
        d = None
        alpha = None
        static = False
        if step.arrival is not None:
            port, pg, eport, queue, length = step.arrival
            i = port * PG_COUNT + pg
            if 0 <= port < m.ports and 0 <= pg < PG_COUNT:
                # did the threshold decide it?  (reserved could not take the whole frame)
                cells = -(-length // m.cell_bytes) if length > 0 else 0
                if cells > m.pg_reserved[i] - m.res[i]:
                    if m.pg_dynamic[i]:
                        alpha = m.pg_alpha[i]
                    else:
                        static = True
            d = m.arrive(*step.arrival)
        p = Prediction(step.cycle, step.arrival, d, step.release, ok, list(m.events[ev0:]),
                       alpha, static, step.tag)
        p.release_events = list(m.events[ev0:ev_rel])
        self.ap.write(p)
