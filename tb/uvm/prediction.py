"""The golden model's answer for one clock of the switch's mmu_core that had a release or an
arrival, published once the model has committed that clock's pair."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Prediction:
    cycle: int
    arrival: tuple | None
    decision: object | None  # models.mmu_pipe.PipeDecision
    release: tuple | None
    release_ok: bool = True
    pfc: list = field(default_factory=list)  # models.mmu.PfcEvent of this pair's commit
    release_events: list = field(default_factory=list)  # of them, the release's PG's
    alpha_shift: int | None = None  # of the arrival's PG when DT decided it
    static: bool = False  # the arrival's PG uses a static threshold and reached shared
    tag: int = 0
