"""One clock at the switch's mmu_core ports, as observed (one mmu_obs record): the release and
the arrival it took (either may be None), a configuration write, the response it gave and its
pfc_xoff vector when that changed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class MmuStep:
    cycle: int            # simulation cycle (time / clock period) of the edge
    release: tuple | None  # (port, pg, eport, queue, cells)
    arrival: tuple | None  # (port, pg, eport, queue, length)
    tag: int = 0
    clock: int = 0        # clocks since reset (common.mmu_bus's clock)
    write: tuple | None = None  # (address, data)
    resp: tuple | None = None   # the nine fields of common.mmu_bus.RESP_FIELDS
    xoff: int | None = None     # pfc_xoff, on a clock it changed
