"""Sequence item: one frame a link partner sends into the switch."""

from __future__ import annotations

from pyuvm import uvm_sequence_item

from .frames import data_frame


class FrameItem(uvm_sequence_item):
    def __init__(self, name: str = "frame", sport: int = 0, dest: int = 1, prio: int = 0,
                 seq: int = 0, wire_len: int = 64, tagged: bool = True, bad: bool = False,
                 data: bytes | None = None) -> None:
        super().__init__(name)
        self.sport = sport
        self.dest = dest
        self.prio = prio
        self.seq = seq
        self.wire_len = wire_len
        self.tagged = tagged
        self.bad = bad  # tuser set on the last beat (bad FCS): the switch must drop it
        self.data = data if data is not None else data_frame(sport, dest, prio, seq, wire_len,
                                                             tagged)
        self.is_control = False

    def __str__(self) -> str:
        return (f"FrameItem(p{self.sport}->p{self.dest} prio {self.prio} seq {self.seq} "
                f"{self.wire_len} B{' bad' if self.bad else ''})")
