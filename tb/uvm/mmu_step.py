"""One clock of the switch's mmu_core handshakes, as observed: the release and the arrival
accepted in that clock (either may be None), in Mmu.step argument form."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class MmuStep:
    cycle: int
    release: tuple | None  # (port, pg, eport, queue, cells)
    arrival: tuple | None  # (port, pg, eport, queue, length)
    tag: int = 0
