"""N:1 incast on the lossless priorities: ports 0, 1, 2 send priorities 3 and 4 to port 3 at
line rate (3:1 over-subscription).  Headroom is the golden model's calculator figure
(models.headroom via LinkTiming.headroom) for the link partners' propagation and response
delays: zero lossless drops while PFC fires, refreshes and resumes."""

from __future__ import annotations

import cocotb

from .base_test import SwitchBaseTest
from .frame_list_seq import FrameListSeq
from .system_config import LOSSLESS, LOSSLESS_MTU, eta_cells, make_config


class IncastTest(SwitchBaseTest):
    senders = (0, 1, 2)
    sink = 3
    frames_per_sender = 24  # per sender and priority

    def headroom(self) -> int:
        return eta_cells()

    def make_config(self, seed):
        return make_config(type(self).__name__, seed, headroom=self.headroom())

    async def stimulus(self):
        self.logger.info("incast %s -> %d, headroom %d cells per lossless PG (eta %d)",
                         self.senders, self.sink, self.headroom(), eta_cells())
        n = self.frames(self.frames_per_sender, low=12)
        tasks = []
        for p in self.senders:
            specs = []
            for k in range(n):
                for prio in LOSSLESS:
                    specs.append({"dest": self.sink, "prio": prio, "wire_len": LOSSLESS_MTU})
            tasks.append(cocotb.start_soon(self.send(p, FrameListSeq("incast", p, specs,
                                                                     self.cfg))))
        for t in tasks:
            await t

    def check_phase(self):
        s = self.env.scoreboard.summary()
        self.logger.info("incast: lossless drops %d, model XOFF %d, PFC frames sent %d",
                         s["lossless_drops"], s["model_xoff"], s["pfc_sent_by_switch"])
        assert s["model_xoff"] > 0 and s["pfc_xoff_entries"] > 0, "PFC never fired"
        assert s["pfc_xon_entries"] > 0, "PFC never resumed"
