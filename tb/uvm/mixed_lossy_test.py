"""Lossy and lossless mixed on one egress: ports 0 and 1 send priorities 0 and 1 (lossy, in
turn) and priority 3 (lossless) to port 2 at line rate (port 2 drains at half rate), port 0
also sends priority 5 to port 3.  Lossy frames are dropped, lossless ones kept (PFC), and no
other priority is ever paused: the partners never receive a pause for priorities 0, 1 or 5,
and port 3 keeps receiving."""

from __future__ import annotations

import cocotb

from .base_test import SwitchBaseTest
from .frame_list_seq import FrameListSeq
from .system_config import make_config


class MixedLossyTest(SwitchBaseTest):
    def make_config(self, seed):
        return make_config(type(self).__name__, seed, lossy_shared=120, lossy_alpha=-1)

    async def stimulus(self):
        self.agent(2).receiver.set_drain((1, 2))  # half rate: priority 3 alone over-subscribes
        n = self.frames(24, low=18)
        tasks = []
        for p in (0, 1):
            specs = []
            for k in range(n):
                # the lossy stream on priorities 0 and 1 in turn: both lossy PGs are driven
                # over their threshold, so every run drops on each (coverage closure's
                # adm:prio0:drop and adm:prio1:drop do not hang on the random tests' seeds)
                specs.append({"dest": 2, "prio": k % 2, "wire_len": 1024})
                specs.append({"dest": 2, "prio": 3, "wire_len": 1024})
                if p == 0 and k % 2 == 0:
                    specs.append({"dest": 3, "prio": 5, "wire_len": 256})
            tasks.append(cocotb.start_soon(self.send(p, FrameListSeq("mixed", p, specs,
                                                                     self.cfg))))
        for t in tasks:
            await t

    def check_phase(self):
        s = self.env.scoreboard.summary()
        assert s["dropped"].get("ingress_lossy", 0) > 0, "no lossy frame was dropped"
        assert s["model_xoff"] > 0, "lossless priority never paused"
        for p in (0, 1):
            ps = self.agent(p).driver.pause
            assert ps.until[0] == 0 and ps.until[1] == 0 and ps.until[5] == 0, \
                f"partner {p} was paused on a lossy priority"
        assert self.env.scoreboard.flows.frames_out[3] > 0
