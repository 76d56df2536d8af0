"""Long soak: RandomTest with more frames (SOAK=1 multiplies by ten, for a nightly run) and a
bursty drain pattern on two egress ports."""

from __future__ import annotations

from .random_test import RandomTest


class SoakTest(RandomTest):
    frames_per_port = 60

    async def stimulus(self):
        self.agent(1).receiver.set_drain((3, 4))
        await super().stimulus()
