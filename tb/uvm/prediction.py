"""The golden model's answer for one observed mmu_core step."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Prediction:
    cycle: int
    arrival: tuple | None
    decision: object | None  # models.mmu.Decision
    release: tuple | None
    release_ok: bool = True
    pfc: list = field(default_factory=list)  # models.mmu.PfcEvent caused in this clock
    alpha_shift: int | None = None  # of the arrival's PG when DT decided it
    static: bool = False  # the arrival's PG uses a static threshold and reached shared
    tag: int = 0
