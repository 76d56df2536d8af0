"""Link timing of one simulated link: bytes per clock, clock period, propagation, response.

The AXI stream moves ``bytes_per_clock`` octets per clock, so the link speed is
``bytes_per_clock * 8 / clk_ns`` Gb/s.  A pause quantum is 512 bit times (IEEE 802.3 Annex
31B), i.e. ``512 / (8 * bytes_per_clock)`` clocks.  Propagation is given in clocks and turned
into the cable length the headroom calculator (models/headroom.py) expects, so headroom is
sized for exactly the delays the link partners apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from models import headroom as hr

QUANTUM_BITS = 512
WIRE_OVERHEAD = 20  # preamble + SFD + inter-frame gap, octets


@dataclass(frozen=True)
class LinkTiming:
    bytes_per_clock: int = 8
    clk_ns: float = 8.0
    prop_clocks: int = 64  # one-way propagation, each direction
    response_clocks: int = 60  # partner reaction to a PFC frame it received (<= 3840 B)
    ifg_clocks: int = 0  # idle clocks between frames (the AXI stream has no preamble)

    @property
    def speed_gbps(self) -> Fraction:
        return Fraction(self.bytes_per_clock * 8) / Fraction(self.clk_ns)

    @property
    def quanta_per_clock(self) -> Fraction:
        return Fraction(self.bytes_per_clock * 8, QUANTUM_BITS)

    def quanta_step_fixed(self) -> int:
        """cfg_quanta_step of pfc_tx / pfc_rx: quanta per clock, 16 fraction bits."""
        return int(self.quanta_per_clock * (1 << 16))

    def quanta_to_clocks(self, quanta: int) -> int:
        """Clocks a pause of ``quanta`` lasts, rounded up (never shorter than the standard)."""
        c = Fraction(quanta * QUANTUM_BITS, self.bytes_per_clock * 8)
        return -(-c.numerator // c.denominator)

    def frame_clocks(self, nbytes: int) -> int:
        return -(-nbytes // self.bytes_per_clock) + self.ifg_clocks

    @property
    def cable_m(self) -> Fraction:
        """Cable length whose propagation (models.headroom.PROP_NS_PER_M) is prop_clocks."""
        return Fraction(self.prop_clocks) * Fraction(self.clk_ns) / hr.PROP_NS_PER_M

    def headroom(self, mtu: int, cell_bytes: int) -> hr.Headroom:
        """models.headroom for this link.  The response allowance of the formula (3840 B) must
        cover the partner's response plus the switch's PFC pipeline; checked here."""
        resp_bytes = self.response_clocks * self.bytes_per_clock
        if resp_bytes > hr.RESPONSE_BYTES:
            raise ValueError(f"response {self.response_clocks} clocks = {resp_bytes} B exceeds "
                             f"the formula's {hr.RESPONSE_BYTES} B allowance")
        return hr.compute(float(self.speed_gbps), float(self.cable_m), mtu, cell_bytes)
