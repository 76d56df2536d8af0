"""The incast with headroom well below eta (an eighth): frames in flight after XOFF overflow
headroom and lossless frames are dropped.  The scoreboard's losslessness check must fail:
wrapped with expect_fail=True, this proves the checker can fail.  Every other check raises
RuntimeError here, so only the lossless check can make the test fail as expected."""

from __future__ import annotations

from .incast_test import IncastTest
from .system_config import eta_cells


class IncastUndersizedTest(IncastTest):
    def headroom(self) -> int:
        return max(1, eta_cells() // 8)

    def end_of_elaboration_phase(self):
        self.env.scoreboard.other_error_exc = RuntimeError

    def check_phase(self):
        s = self.env.scoreboard.summary()
        self.logger.info("undersized headroom %d cells: lossless drops %d (by reason %s)",
                         self.headroom(), s["lossless_drops"], s["dropped"])
        if s["model_xoff"] == 0:
            raise RuntimeError("PFC never fired: the scenario does not test headroom")
