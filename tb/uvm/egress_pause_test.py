"""Congestion spreading hop by hop: the downstream partner on port 3 sends PFC XOFF for
priority 3 into the switch (refreshed), ports 0 and 1 keep sending priorities 3 and 4 to port 3: the
switch's egress queue stops (no frame of a paused priority starts on port 3 while paused, checked by the
scoreboard), the buffer fills, the switch sends XOFF upstream to ports 0 and 1.  Priority 5
to port 3 keeps flowing meanwhile.  The partner then sends XON and everything drains."""

from __future__ import annotations

import cocotb

from .base_test import SwitchBaseTest
from .frame_list_seq import FrameListSeq
from .sim_clock import clocks
from .system_config import make_config


class EgressPauseTest(SwitchBaseTest):
    def make_config(self, seed):
        return make_config(type(self).__name__, seed)

    async def stimulus(self):
        clk = cocotb.top.clk
        rx3 = self.agent(3).receiver
        rx3.pause([3, 4], 0x100, refresh=0x80 * 8)  # 256 quanta, refreshed every 128 quanta
        await clocks(clk, 200, self.cfg.timing.clk_ns)
        n = self.frames(20, low=12)
        tasks = []
        for p in (0, 1):
            specs = []
            for k in range(n):
                specs.append({"dest": 3, "prio": 3 + (k + p) % 2, "wire_len": 1024})
                if k % 4 == 0:
                    specs.append({"dest": 3, "prio": 5, "wire_len": 512})
            tasks.append(cocotb.start_soon(self.send(p, FrameListSeq("spread", p, specs,
                                                                     self.cfg))))
        for t in tasks:
            await t
        m = self.env.predictor.model
        for _ in range(200):
            await clocks(clk, 100, self.cfg.timing.clk_ns)
            self.env.predictor.sync_now()
            if any(m.xoff[p * 8 + g] for p in (0, 1) for g in (3, 4)):
                break
        # hold long enough for the switch to refresh its own XOFF upstream
        await clocks(clk, self.cfg.timing.quanta_to_clocks(self.cfg.refresh_quanta) + 1500,
                     self.cfg.timing.clk_ns)
        self.env.predictor.sync_now()
        self.upstream_xoff = sum(m.xoff_count[p * 8 + g] for p in (0, 1) for g in (3, 4))
        self.out5_during = self.env.scoreboard.flows.frames_out[3]
        rx3.resume([3, 4])

    def check_phase(self):
        assert self.upstream_xoff > 0, "the switch never paused upstream (no spreading)"
        assert self.out5_during > 0, "port 3 sent nothing while priority 3 was paused"
        assert self.env.scoreboard.pfc.egress_starts > 0
