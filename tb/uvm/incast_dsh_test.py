"""IncastTest under headroom policy dsh (issue 21): ports 0, 1, 2 send priorities 3 and 4 to
port 3 at line rate (3:1), the switch configured with one port headroom per port (eta for the
partners' delays, models.headroom via LinkTiming.headroom) and a small queue-level headroom
eta_q per lossless PG (taken from the shared segment, not reserved), the lossless pool the
same as IncastTest's: what static reserves per PG is shared segment here.

The in-flight data after a queue-level XOFF (at X = T - eta_q) overruns eta_q, a PG reaches T
and requests its port's pause: the switch sends PFC frames that pause every lossless priority
of the port (mmu_core's pfc_xoff: the queue-level bits ORed with the port's lossless PGs), the
link partners honour them with their real reaction delays, and what is still in flight lands
in the shared segment or the port's headroom.  Checked, beyond every check of the suite (each
admission decision and pfc_xoff change against models.mmu_pipe on its clock, every PFC frame
against the model's vector, 0 lossless frames lost, the registers read back, the ports'
status among them): port-level pauses happened and ended, the switch's PFC frames paused
every lossless priority at once, the partners received them, and the port headroom stayed
within its limit."""

from __future__ import annotations

from .incast_test import IncastTest
from .system_config import LOSSLESS, PORTS, eta_cells, make_config


class IncastDshTest(IncastTest):
    # the lossless pool of IncastTest: 256 shared + 8 PGs x (2 reserved + eta); under dsh
    # 4 x eta of it is the ports' headroom and the rest (256 + 4 x eta) the shared segment
    def port_headroom(self) -> int:
        return eta_cells()

    def headroom(self) -> int:
        # eta_q: a quarter of eta, below what one of the port's two PGs receives after its
        # queue-level XOFF, so the PGs reach T and the port pauses
        return eta_cells() // 4

    def make_config(self, seed):
        eta = eta_cells()
        return make_config(type(self).__name__, seed, headroom=self.headroom(),
                           port_headroom=self.port_headroom(),
                           lossless_shared=256 + PORTS * len(LOSSLESS) * eta
                           - PORTS * self.port_headroom())

    def frames(self, n: int, low: int) -> int:
        # never shorter than IncastTest's full length: with TB_SCALE's 12 frames per sender and
        # priority the 660-cell shared segment holds the whole incast and nothing pauses
        return super().frames(n, max(low, self.frames_per_sender))

    def dsh_figures(self) -> dict:
        m = self.env.predictor.model
        sb = self.env.scoreboard
        all_ll = frozenset(LOSSLESS)
        return {
            "port_pauses": sum(m.port_xoff_count), "port_resumes": sum(m.port_xon_count),
            "port_hdrm_peak": max(m.port_hdrm_wm), "port_headroom": self.port_headroom(),
            "eta_q": self.headroom(),
            # PFC frames of the switch that pause every lossless priority of the port at once
            "pfc_all_lossless": sum(n for s, n in sb.pfc.xoff_sets.items() if all_ll <= s),
            "partner_xoff_entries": sum(a.driver.pause.xoff_frames
                                        for a in self.env.agents if a.active),
        }

    def summary_text(self) -> str:
        f = self.dsh_figures()
        return (super().summary_text() + f"; dsh: port pauses {f['port_pauses']} (resumed "
                f"{f['port_resumes']}), PFC frames pausing every lossless priority "
                f"{f['pfc_all_lossless']}, XOFF entries the partners honoured "
                f"{f['partner_xoff_entries']}, peak port headroom {f['port_hdrm_peak']} of "
                f"{f['port_headroom']} cells (eta_q {f['eta_q']})")

    def check_phase(self):
        super().check_phase()
        f = self.dsh_figures()
        m = self.env.predictor.model
        self.logger.info("dsh incast: %s", f)
        assert f["port_pauses"] > 0, "no port-level pause: the scenario does not test dsh"
        assert f["port_resumes"] == f["port_pauses"] and not any(m.port_xoff), \
            "a port-level pause never ended"
        assert f["pfc_all_lossless"] > 0, \
            "no PFC frame of the switch paused every lossless priority"
        assert f["partner_xoff_entries"] > 0, "the partners received no XOFF"
        # (whether data in flight after a port pause reaches the port's headroom depends on
        # where the frames fall against the partners' pause timers: with seed 1795794678 it
        # peaked at 8 of 101 cells before the switch registers were written ahead of the
        # image, at 0 after (the traffic starts later); tb/mmu_core's dsh cases fill it on
        # purpose; the model's counter and watermark are compared with the RTL's in the
        # register read-back)
        assert f["port_hdrm_peak"] <= f["port_headroom"], \
            f"the port headroom peaked at {f['port_hdrm_peak']} of {f['port_headroom']} cells"
