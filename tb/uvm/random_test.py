"""Random mixed traffic: every port sends to random ports on random priorities and sizes
(jumbos rare, a few untagged and a few bad frames), one egress drains at half rate; Dynamic
Threshold alpha_shift cycles through -7..3 over the lossy PGs and one PG is static."""

from __future__ import annotations

from .base_test import SwitchBaseTest
from .frame_list_seq import FrameListSeq
from .random_traffic_seq import random_specs
from .system_config import make_config


class RandomTest(SwitchBaseTest):
    frames_per_port = 40

    def make_config(self, seed):
        return make_config(type(self).__name__, seed, lossy_shared=200,
                           static_pgs=((2, 1), (3, 6)))

    async def stimulus(self):
        import cocotb
        rng = self.cfg.rng
        self.agent(2).receiver.set_drain((1, 2))
        n = self.frames(self.frames_per_port, low=16)
        tasks = []
        for p in range(self.cfg.port_count):
            specs = random_specs(rng, p, self.cfg.port_count, n)
            for s in specs:
                s["bad"] = rng.randrange(40) == 0
            tasks.append(cocotb.start_soon(self.send(p, FrameListSeq("rnd", p, specs,
                                                                     self.cfg))))
        for t in tasks:
            await t
