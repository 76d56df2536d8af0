"""One m_resp_* beat of the switch's mmu_core."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class DutResponse:
    cycle: int
    admit: bool
    reason: int
    cells: int
    res: int
    shared: int
    hdrm: int
    tag: int
