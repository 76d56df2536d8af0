"""What a port monitor publishes: one frame seen on one side of one switch port."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ObservedFrame:
    port: int
    direction: str  # "in" (partner -> switch) or "out" (switch -> partner)
    data: bytes
    dest: int  # tdest (ingress only)
    bad: bool  # tuser seen on the frame
    start: int  # clock of the first beat
    end: int  # clock of the last beat
    pfc: dict[int, int] | None = None  # prio -> quanta for an 802.1Qbb frame, else None
