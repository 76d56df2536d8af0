"""Configuration of one system-test run, shared through ConfigDB ("*", "env_cfg")."""

from __future__ import annotations

import random
from fractions import Fraction
from dataclasses import dataclass, field

from models.swconfig import SwitchConfig
from models.config import MmuConfig

from .link_timing import LinkTiming


@dataclass
class EnvConfig:
    mmu: MmuConfig
    timing: LinkTiming = field(default_factory=LinkTiming)
    data_width: int = 64
    seed: int = 1
    active: list[bool] | None = None  # per port; None: all active
    pause_quanta: int = 0x0400  # XOFF time the switch advertises (every priority)
    refresh_quanta: int = 0x0200  # switch refresh interval while XOFF lasts
    len_adjust: int = 0  # mmu request length minus the AXI-stream frame length
    drain_timeout_clocks: int = 200_000
    name: str = "run"
    # per port, the PFC window of a partner that drains the egress below line rate (note_drain)
    drain_windows: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def port_count(self) -> int:
        return self.mmu.port_count

    def is_active(self, port: int) -> bool:
        return True if self.active is None else self.active[port]

    @property
    def pfc_window(self) -> int:
        """Clocks from an XOFF / XON decision to the last beat of its PFC frame: the egress
        may be sending the largest frame, then the PFC frame itself, plus pipeline slack."""
        return self.pfc_window_at(Fraction(1))

    def pfc_window_at(self, stretch: Fraction) -> int:
        """pfc_window on an egress whose frames take ``stretch`` times their line-rate clocks
        (a partner that takes a beat n clocks of every m: stretch m / n)."""
        t = self.timing
        wire = t.frame_clocks(self.mmu.max_frame_bytes) + t.frame_clocks(64)
        return -(-wire * stretch.numerator // stretch.denominator) + 64

    def note_drain(self, port: int, pattern) -> None:
        """A receiver drains ``port`` by ``pattern`` (PortReceiver.set_drain): an (n, m)
        pattern stretches that egress's frames by m / n, so a PFC frame may wait that much
        longer behind the largest one; the port keeps the longest window it ever needed.
        "stop" needs none: nothing leaves, and the tests that stop an egress start it again
        before they look at its PFC frames."""
        if isinstance(pattern, tuple):
            n, m = pattern
            w = self.pfc_window_at(Fraction(m, n))
            self.drain_windows[port] = max(self.drain_windows.get(port, 0), w)

    @property
    def pfc_window_max(self) -> int:
        return max([self.pfc_window, *self.drain_windows.values()])

    def switch_config(self) -> SwitchConfig:
        """The switch registers' configuration (models.swconfig; written over AXI4-Lite before
        the admission core's image: base_test.reset)."""
        return SwitchConfig.from_mmu(
            self.mmu, src_mac=[0x020000000200 + p for p in range(len(self.mmu.ports))],
            pause_quanta=[self.pause_quanta] * 8, refresh_quanta=self.refresh_quanta,
            quanta_step=self.timing.quanta_step_fixed())
