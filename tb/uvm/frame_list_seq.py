"""Directed sequence: a list of frame specs sent by one port's link partner, in order.

Spec: dict(dest, prio, wire_len, tagged=True, bad=False).  Sequence numbers count per flow
(source port, destination, priority) across every sequence of the run (env_cfg.flow_seq)."""

from __future__ import annotations

from pyuvm import uvm_sequence

from .frame_item import FrameItem


class FrameListSeq(uvm_sequence):
    def __init__(self, name: str = "frame_list", sport: int = 0, specs=(), env_cfg=None) -> None:
        super().__init__(name)
        self.sport = sport
        self.specs = list(specs)
        self.env_cfg = env_cfg

    async def body(self):
        book = self.env_cfg.__dict__.setdefault("flow_seq", {})
        for s in self.specs:
            prio = s["prio"]
            tagged = s.get("tagged", True)
            if not tagged:
                prio = self.env_cfg.mmu.ports[self.sport].default_prio
            key = (self.sport, s["dest"], prio)
            n = book.get(key, 0)
            book[key] = n + 1
            item = FrameItem("frame", sport=self.sport, dest=s["dest"], prio=prio, seq=n,
                             wire_len=s["wire_len"], tagged=tagged, bad=s.get("bad", False))
            await self.start_item(item)
            await self.finish_item(item)
