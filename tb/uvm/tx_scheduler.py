"""Transmit scheduler of one link partner (plain Python, fake-clock testable).

Per-priority FIFOs (a paused priority never blocks another, IEEE 802.1Qbb), round robin over
the priorities that may start a frame now, MAC Control (PFC) frames first: they are never
paused (802.3 Annex 31B).  ``pick`` is only asked when the link is idle, i.e. at a frame
boundary, so a pause never cuts a frame.
"""

from __future__ import annotations

from collections import deque

from .pause_state import PauseState


class TxScheduler:
    def __init__(self, pause: PauseState) -> None:
        self.pause = pause
        self.fifos: list[deque] = [deque() for _ in range(8)]
        self.control: deque = deque()
        self.rr = 0

    def push(self, prio: int, item) -> None:
        self.fifos[prio].append(item)

    def push_control(self, item) -> None:
        self.control.append(item)

    def backlog(self) -> int:
        return sum(len(f) for f in self.fifos) + len(self.control)

    def pick(self, now: int):
        """The item to start at clock ``now`` (None: nothing may start)."""
        if self.control:
            return self.control.popleft()
        for n in range(8):
            k = (self.rr + n) % 8
            if self.fifos[k] and not self.pause.paused(k, now):
                self.rr = (k + 1) % 8
                return self.fifos[k].popleft()
        return None
