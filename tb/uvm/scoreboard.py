"""Scoreboard: the switch against the golden model.

Inputs (analysis imps): ingress / egress data frames and PFC frames from every port monitor,
the predictor's answers and its model's PFC events.  Checks, all reported in check_phase:

* mmu_core inside the switch answers every request on its clock as the model does (all nine
  response fields), its pfc_xoff changes on the model's clocks, and the configuration loaded
  is the one the test set (the predictor's checks, tb/common/mmu_bus.py); each request
  matches its frame (port, PG, egress port, queue, length);
* every admitted frame leaves once, unchanged, in order per flow; every drop was predicted;
  bad frames (tuser) never leave;
* every PFC frame the switch sends matches the model's XOFF / XON state; every lasting model
  transition is sent (PfcBook);
* no egress frame of a priority starts while the partner's PFC pause is in force;
* the DUT's drop counters at the end equal the model's; the model returns to empty.
"""

from __future__ import annotations

from pyuvm import ConfigDB, uvm_component, uvm_subscriber

from models.mmu import PG_COUNT, REASON_NAMES

from .flow_book import FlowBook
from .frames import frame_prio
from .pfc_book import PfcBook


class Scoreboard(uvm_component):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        c = self.cfg.mmu
        maps_pg = [p.prio_to_pg for p in c.ports]
        self.flows = FlowBook(maps_pg, [p.prio_to_queue for p in c.ports],
                              [p.default_prio for p in c.ports], self.cfg.len_adjust)
        self.pfc = PfcBook(maps_pg, self.cfg.pfc_window, port_windows=self.cfg.drain_windows)
        self.errors: list[str] = []
        self.end_cycle = 0
        self.predictor = None  # set by the env (for the final model state)
        self.monitors = []  # set by the env: their own errors (records missed) count too
        self.dut_counters = None  # filled by the test before check_phase
        # registers read through the register model that differ from the model (base_test)
        self.reg_diffs: list[str] = []
        self.expect_lossless_drops = False
        # exception for every failure other than lossless drops: the expected-failure test
        # sets RuntimeError so only the lossless check can make it "fail as expected"
        self.other_error_exc = AssertionError
        mk = uvm_subscriber.uvm_AnalysisImp
        self.in_export = mk("in_export", self, self.write_in)
        self.out_export = mk("out_export", self, self.write_out)
        self.pfc_out_export = mk("pfc_out_export", self, self.write_pfc_out)
        self.pfc_in_export = mk("pfc_in_export", self, self.write_pfc_in)
        self.pred_export = mk("pred_export", self, self.write_pred)

    def err(self, msg: str) -> None:
        if len(self.errors) < 50:
            self.errors.append(msg)

    # ------------------------------------------------------------------ frames
    def write_in(self, obs) -> None:
        self.flows.on_ingress(obs.port, obs.data, obs.dest, obs.end, obs.bad)

    def write_out(self, obs) -> None:
        if obs.bad:
            self.err(f"@{obs.end}: port {obs.port} sent a frame with tuser set")
        prio = frame_prio(obs.data, 0)
        hdr_port = obs.data[20] if len(obs.data) > 20 else 0
        if 0 <= hdr_port < self.cfg.port_count:
            prio = frame_prio(obs.data, self.cfg.mmu.ports[hdr_port].default_prio)
        self.pfc.egress_start(obs.start, obs.port, prio)
        self.flows.on_egress(obs.port, obs.data, obs.end)
        self.end_cycle = max(self.end_cycle, obs.end)

    def write_pfc_out(self, obs) -> None:
        # the model's events up to now first (its idle clocks are stepped lazily)
        self.predictor.sync_now()
        self.pfc.dut_pfc(obs.end, obs.port, obs.pfc)

    def write_pfc_in(self, obs) -> None:
        self.pfc.pfc_into_switch(obs.end, obs.port, obs.pfc, self.cfg.timing.quanta_to_clocks)

    # ------------------------------------------------------------------ model vs mmu_core
    def model_pfc(self, cycle: int, e) -> None:
        """A PFC event of the model, at the cycle it reaches pfc_xoff (from the predictor)."""
        self.end_cycle = max(self.end_cycle, cycle)
        self.pfc.model_event(cycle, e.port, e.pg, e.xoff)

    def write_pred(self, p) -> None:
        m = self.predictor.model
        self.end_cycle = max(self.end_cycle, p.cycle)
        if p.arrival is not None:
            port, pg, eport, queue, length = p.arrival
            lossless = 0 <= port < m.ports and 0 <= pg < PG_COUNT and \
                bool(m.pg_cfg[port * PG_COUNT + pg]["lossless"])
            self.flows.on_request(p.cycle, port, pg, eport, queue, length, p.decision, lossless)

    # ------------------------------------------------------------------ summary / checks
    def summary(self) -> dict:
        m = self.predictor.model
        f = self.flows
        return {
            "frames_in": sum(f.frames_in), "frames_out": sum(f.frames_out),
            "bad_in": f.bad_in, "admitted": f.admitted,
            "dropped": {REASON_NAMES[r]: n for r, n in enumerate(f.drops_by_reason) if n},
            "lossless_drops": f.lossless_drops,
            "pfc_sent_by_switch": sum(self.pfc.frames_sent),
            "pfc_xoff_entries": self.pfc.xoff_sent, "pfc_xon_entries": self.pfc.xon_sent,
            "pfc_received_by_switch": sum(self.pfc.frames_received),
            "model_xoff": sum(m.xoff_count), "model_xon": sum(m.xon_count),
            "peak_hdrm": max(m.hdrm_wm),
            "hdrm_limit": max(c["headroom"] for c in m.pg_cfg),
            "egress_in_pause": self.pfc.egress_in_pause,
        }

    def check_phase(self):
        pr = self.predictor
        pr.sync_now()
        m = pr.model
        pr.pred.check_loaded()
        self.flows.final_check()
        self.pfc.final_check(self.end_cycle)
        if pr.pred.outstanding():
            self.err(f"{pr.pred.outstanding()} mmu_core request(s) never answered")
        if m.release_underflow:
            self.err(f"{m.release_underflow} release(s) of more cells than the model held")
        if m.total_used != 0:
            self.err(f"model still holds {m.total_used} cells at the end (frames stuck)")
        if any(m.xoff):
            self.err("model still in XOFF at the end")
        for d in self.reg_diffs:
            self.err(d)
        if self.dut_counters is not None:
            for name, (dut_v, model_v) in self.dut_counters.items():
                if dut_v != model_v:
                    self.err(f"DUT counter {name} = {dut_v}, model {model_v}")
        errs = self.errors + pr.pred.errors + self.flows.errors + self.pfc.errors + \
            [e for m in self.monitors for e in m.errors]
        for e in errs[:40]:
            self.logger.error(e)
        if errs:
            raise self.other_error_exc(f"{len(errs)} scoreboard error(s); first: {errs[0]}")
        if not self.expect_lossless_drops:
            assert self.flows.lossless_drops == 0, \
                f"{self.flows.lossless_drops} lossless frame(s) dropped (expected none)"
