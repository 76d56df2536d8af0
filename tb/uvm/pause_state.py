"""802.1Qbb receive-side pause state of one link partner (plain Python, fake-clock testable).

IEEE 802.1Qbb / REFERENCES.md: for each priority whose class-enable bit is set, a time > 0
(re)starts that priority's timer at ``time`` quanta, a time of 0 resumes it now (XON); a clear
enable bit leaves the timer untouched.  The partner acts ``response`` clocks after the frame's
last bit arrived; a paused priority only stops frames that have not started (frames are never
cut), which the transmit scheduler guarantees by asking at frame starts only.
"""

from __future__ import annotations

from .link_timing import LinkTiming


class PauseState:
    def __init__(self, timing: LinkTiming) -> None:
        self.timing = timing
        self.until = [0] * 8  # first clock each priority may start a frame again
        self.pending: list[tuple[int, dict[int, int]]] = []  # (effective clock, times)
        self.xoff_frames = 0
        self.xon_frames = 0
        self.paused_clocks = [0] * 8

    def receive(self, now: int, times: dict[int, int]) -> int:
        """A PFC frame whose last bit reached the partner at clock ``now``; returns the clock it
        takes effect."""
        eff = now + self.timing.response_clocks
        self.pending.append((eff, dict(times)))
        self.pending.sort(key=lambda x: x[0])
        return eff

    def _apply(self, now: int) -> None:
        while self.pending and self.pending[0][0] <= now:
            eff, times = self.pending.pop(0)
            for k, q in times.items():
                if q == 0:
                    self.until[k] = eff
                    self.xon_frames += 1
                else:
                    self.until[k] = eff + self.timing.quanta_to_clocks(q)
                    self.xoff_frames += 1

    def paused(self, prio: int, now: int) -> bool:
        self._apply(now)
        return now < self.until[prio]

    def next_change(self, now: int) -> int | None:
        """Earliest clock after ``now`` at which a paused priority may resume or a pending
        frame takes effect (None: nothing scheduled)."""
        self._apply(now)
        cands = [u for u in self.until if u > now]
        if self.pending:
            cands.append(self.pending[0][0])
        return min(cands) if cands else None

    def paused_mask(self, now: int) -> int:
        self._apply(now)
        return sum(1 << k for k in range(8) if now < self.until[k])
