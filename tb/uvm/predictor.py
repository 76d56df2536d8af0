"""Predictor: the switch's mmu_core against its golden model.  Each observed MmuStep goes to
the shared admission predictor (tb/common/mmu_bus.py: MmuPredictor, models.mmu_pipe.PipelinedMmu
stepped on every clock, idle clocks in a batch; every response, pfc_xoff change and
configuration write checked on its clock).  For the scoreboard and coverage it publishes one
Prediction per clock with a release or an arrival, once that pair is committed in the model
(view_lag - 1 clocks later), with the PFC events its commit caused; every PFC event of the
model goes to the scoreboard's PFC book at the cycle it reaches pfc_xoff.  Under headroom
policy dsh what reaches pfc_xoff (and the wire) is the queue-level state ORed with the port's
lossless PGs while its port-level pause is on: the PFC book then gets a change of that vector,
bit by bit, as the events (the Predictions keep the queue-level events)."""

from __future__ import annotations

from cocotb.utils import get_sim_time
from pyuvm import ConfigDB, uvm_analysis_port, uvm_component, uvm_subscriber

from common.mmu_bus import MmuPredictor
from models.config import HEADROOM_DSH
from models.mmu import (PG_COUNT, REASON_HEADROOM_FULL, REASON_INGRESS_LOSSY, SEG_RESERVED,
                        PfcEvent)

from .prediction import Prediction


class Predictor(uvm_component):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.pred = MmuPredictor(self.cfg.mmu, name="switch mmu_core")
        self.pred.on_decision = self._decision
        self.pred.on_pfc = self._pfc
        # dsh: the PFC book follows the vector (queue level | port-level pause), not the
        # queue-level events alone
        self.dsh = self.cfg.mmu.headroom_policy == HEADROOM_DSH
        if self.dsh:
            self.pred.on_vector = self._vector
        self.step_export = uvm_subscriber.uvm_AnalysisImp("step_export", self, self.write_step)
        self.ap = uvm_analysis_port("ap", self)
        self.pfc_sink = None  # set by the env: scoreboard.model_pfc(cycle, event)
        self.offset = None  # simulation cycle minus predictor clock (fixed after reset)
        self.pending: dict[int, Prediction] = {}  # by clock, until committed
        self._step_now = None

    @property
    def model(self):
        return self.pred.model

    def _decision(self, clock, arr, d, tag) -> None:
        p = self._pending(clock)
        p.arrival, p.decision, p.tag = arr, d, tag
        port, pg = arr[0], arr[1]
        # did a threshold decide it (the shared segment was asked: admitted beyond reserved,
        # or refused by the shared / headroom checks)?
        if 0 <= port < self.pred.ports and 0 <= pg < PG_COUNT and (
                (d.admit and d.segment != SEG_RESERVED)
                or d.reason in (REASON_INGRESS_LOSSY, REASON_HEADROOM_FULL)):
            c = self.model.pg_cfg[port * PG_COUNT + pg]
            if c["dynamic"]:
                a = c["alpha_shift"]
                p.alpha_shift = a - 16 if a >= 8 else a
            else:
                p.static = True

    def _pending(self, clock: int) -> Prediction:
        p = self.pending.get(clock)
        if p is None:
            p = self.pending[clock] = Prediction(clock + self.offset, None, None, None)
        return p

    def _vector(self, cycle_clock: int, vec: int, old: int) -> None:
        """dsh: a change of the model's pfc_xoff vector, one event per bit that changed."""
        if self.pfc_sink is None:
            return
        ch = vec ^ old
        for i in range(ch.bit_length()):
            if ch >> i & 1:
                self.pfc_sink(cycle_clock + self.offset,
                              PfcEvent(cycle_clock, i // PG_COUNT, i % PG_COUNT,
                                       bool(vec >> i & 1)))

    def _pfc(self, cycle_clock: int, e) -> None:
        if self.pfc_sink is not None and not self.dsh:
            self.pfc_sink(cycle_clock + self.offset, e)
        p = self.pending.get(e.seq)  # the pair (its clock) whose commit evaluated it
        if p is not None:
            p.pfc.append(e)
            if p.release is not None and (e.port, e.pg) == tuple(p.release[:2]):
                p.release_events.append(e)

    def _flush(self) -> None:
        """Publish the predictions of the pairs the model has committed."""
        done = self.pred.clock - (self.model.view_lag - 1)
        for k in sorted(c for c in self.pending if c < done):
            self.ap.write(self.pending.pop(k))

    def write_step(self, step) -> None:
        if self.offset is None:
            self.offset = step.cycle - step.clock
        if step.release is not None:
            self._pending(step.clock).release = step.release
        self.pred.write(step)
        self._flush()

    def sync_now(self) -> None:
        """The model up to the current clock (only clocks whose records are in: those before
        the current simulation cycle), and what that committed published."""
        if self.offset is None:
            return
        clk_ns = self.cfg.timing.clk_ns
        now = int((get_sim_time("ns") + clk_ns / 4) // clk_ns)  # the last edge at or before
        self.pred.sync(now - self.offset)
        self._flush()
