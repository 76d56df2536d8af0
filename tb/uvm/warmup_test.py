"""Directed warm-up: every admission case once per priority, before any random traffic.

Port 0 sends to port 1 whose partner has stopped draining (tready 0), one priority at a time
(every priority at full length, three of them when TB_SCALE < 1, see priorities()):
the first frame fits the PG's reserved cells, the next go to shared until Dynamic Threshold
stops them; a lossy PG then drops, a lossless PG sends XOFF and the frames in flight land in
headroom.  The drain is then restored: releases bring XON and the paused frames go through."""

from __future__ import annotations

import os

import cocotb

from .base_test import SwitchBaseTest
from .frame_list_seq import FrameListSeq
from .sim_clock import clocks
from .system_config import make_config


class WarmupTest(SwitchBaseTest):
    def make_config(self, seed):
        return make_config("warmup", seed, lossy_alpha=-3, static_pgs=((0, 1),))

    def priorities(self) -> list[int]:
        """Every priority at full length; with TB_SCALE < 1 (Icarus in CI, tb/harness.py) one
        lossy with Dynamic Threshold (0), the static-threshold PG (port 0, priority 1) and one
        lossless (3): every admission case once, at a third of the clocks."""
        if float(os.environ.get("TB_SCALE", "1") or 1) < 1:
            return [0, 1, 3]
        return list(range(8))

    async def stimulus(self):
        clk = cocotb.top.clk
        rx1 = self.agent(1).receiver
        for prio in self.priorities():
            rx1.set_drain("stop")
            specs = [{"dest": 1, "prio": prio, "wire_len": 128}]  # one cell: reserved
            specs += [{"dest": 1, "prio": prio, "wire_len": 512}] * 24
            await self.send(0, FrameListSeq("warm", 0, specs, self.cfg))
            await clocks(clk, 25 * 64 + 2 * self.cfg.timing.prop_clocks + 600,
                         self.cfg.timing.clk_ns)
            rx1.set_drain("full")
            await clocks(clk, 1500, self.cfg.timing.clk_ns)
