"""Headroom (eta) calculator for one lossless ingress priority group.

Three forms, all in bytes first, then converted to cells:

* seed 000:  ``eta = 2 * (C * D_prop + L_MTU) + 3840 B``
  (waiting behind an MTU frame, PAUSE propagation, 3840 B processing, the MTU frame the peer has
  already begun, propagation of the last bit);
* seed 001 (vendor form): ``MTU_R + MTU_S + 3840 + 2 * link_delay_bytes`` with ``MTU_R`` = 9216,
  the largest frame the switch may be sending when it wants to emit the PAUSE;
* SONiC Mellanox (REFERENCES.md): ``xoff = MTU + (MTU + cable + mac_phy + peer_response) *
  cell_occupancy``, rounded up to 1 KiB, where ``peer_response = quanta(speed) * 64 B`` (IEEE 802.3
  Annex 31B.3.7 reaction allowance) and ``cable = 2 * length * speed / 198,000,000 m/s``.

Cells.  A frame of L bytes holds ``ceil(L / cell_bytes)`` cells, so bytes in flight made of small
frames need more cells than ``bytes / cell_bytes``.  Two cell figures are offered:

* ``cells_ceil``  = ceil(bytes / cell_bytes): right when in-flight frames are large;
* ``cells_worst`` = ceil(bytes * worst_case_factor / cell_bytes), where the factor is the largest
  ``ceil(L / cell) * cell / L`` over frame lengths 64 <= L <= 9216: ``cell_bytes / 64`` when a
  cell is at least two minimum frames (every 64-byte frame holds one whole cell), else
  ``2 * cell_bytes / (1 + cell_bytes)`` (a frame one byte longer than a cell holds two cells).
  This is SONiC Mellanox's ``worst_case_factor`` except at exactly 128-byte cells.  It is an
  upper bound: no mix of frames of at least 64 bytes holds more cells.

Everything is exact rational arithmetic (fractions.Fraction) rounded up once at the end, so the
figures are integers and reproducible.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict, dataclass
from fractions import Fraction

from .cliutil import Parser, int_range, nonneg_float, positive_float, run_guarded

RESPONSE_BYTES = 3840  # seed 000 / 001: PFC processing allowance (60 quanta of 512 bit times)
MTU_R = 9216  # seed 001: largest frame the switch may be transmitting when it must send PAUSE
PROP_NS_PER_M = 5  # propagation in fibre, ~0.65 c (seed 000: 300 m -> ~1.5 us)
MIN_FRAME = 64
QUANTUM_BITS = 512  # IEEE 802.3 Annex 31B: one pause quantum
# SONiC Mellanox: IEEE 802.3 31B.3.7 pause quanta a peer may take to react, per speed in Gb/s
PEER_RESPONSE_QUANTA = {1: 2, 10: 67, 25: 80, 40: 118, 50: 147, 100: 394, 200: 453, 400: 905}
MELLANOX_LIGHT_M_PER_S = 198_000_000


def _ceil(x: Fraction | int) -> int:
    return -(-Fraction(x).numerator // Fraction(x).denominator)


def link_delay_bytes(speed_gbps: float, cable_m: float, prop_ns_per_m: float = PROP_NS_PER_M
                     ) -> Fraction:
    """C * D_prop in bytes: speed [Gb/s] * length [m] * ns/m / 8 (Gb/s * ns = bits)."""
    return Fraction(speed_gbps) * Fraction(cable_m) * Fraction(prop_ns_per_m) / 8


def worst_case_factor(cell_bytes: int, min_frame: int = MIN_FRAME, max_frame: int = MTU_R
                      ) -> Fraction:
    """Largest ``ceil(L / cell) * cell / L`` over frame lengths L in [min_frame, max_frame]:
    the most buffer bytes a byte of frame can cost.  The maximum sits at L = min_frame or at
    the first L = k * cell + 1 >= min_frame (the ratio falls between those points).  For
    cells > 128 bytes this is ``cell / 64`` and for cells of 64..127 ``2 cell / (cell + 1)``, the
    SONiC Mellanox factor; at exactly 128 it is 2 where SONiC's formula gives 256/129, which a
    64-byte frame exceeds."""
    cands = [Fraction(-(-min_frame // cell_bytes) * cell_bytes, min_frame)]
    k = max(1, -(-(min_frame - 1) // cell_bytes))
    if k * cell_bytes + 1 <= max_frame:
        cands.append(Fraction((k + 1) * cell_bytes, k * cell_bytes + 1))
    return max(cands)


def mellanox_factor(cell_bytes: int, min_frame: int = MIN_FRAME) -> Fraction:
    """SONiC buffer_headroom_mellanox.lua ``worst_case_factor``, kept as written there."""
    if cell_bytes > 2 * min_frame:
        return Fraction(cell_bytes, min_frame)
    return Fraction(2 * cell_bytes, 1 + cell_bytes)


def bytes_to_cells(nbytes: int | Fraction, cell_bytes: int) -> int:
    return _ceil(Fraction(nbytes) / cell_bytes)


def worst_cells(nbytes: int | Fraction, cell_bytes: int) -> int:
    return _ceil(Fraction(nbytes) * worst_case_factor(cell_bytes) / cell_bytes)


def eta_seed000(speed_gbps: float, cable_m: float, mtu: int,
                prop_ns_per_m: float = PROP_NS_PER_M) -> int:
    """``2 * (C * D_prop + L_MTU) + 3840`` bytes, rounded up."""
    return _ceil(2 * (link_delay_bytes(speed_gbps, cable_m, prop_ns_per_m) + mtu)
                 + RESPONSE_BYTES)


def eta_seed001(speed_gbps: float, cable_m: float, mtu: int, mtu_r: int = MTU_R,
                prop_ns_per_m: float = PROP_NS_PER_M) -> int:
    """``MTU_R + MTU_S + 3840 + 2 * link_delay_bytes``, rounded up."""
    return _ceil(mtu_r + mtu + RESPONSE_BYTES
                 + 2 * link_delay_bytes(speed_gbps, cable_m, prop_ns_per_m))


def xoff_mellanox(speed_gbps: float, cable_m: float, mtu: int, cell_bytes: int,
                  mac_phy_delay: int = 0, small_packet_percentage: int = 100) -> int:
    """SONiC Mellanox xoff in bytes (rounded up to 1 KiB).  ``mac_phy_delay`` is an ASIC
    property (SONiC ASIC_TABLE) not known here; 0 unless given."""
    speed = int(speed_gbps)
    if speed not in PEER_RESPONSE_QUANTA:
        raise ValueError(f"speed {speed_gbps} Gb/s: no peer response quanta known "
                         f"(have {sorted(PEER_RESPONSE_QUANTA)})")
    peer = PEER_RESPONSE_QUANTA[speed] * QUANTUM_BITS // 8
    cable = 2 * Fraction(cable_m) * Fraction(speed_gbps) * 10**9 / MELLANOX_LIGHT_M_PER_S / 8
    occ = (100 - small_packet_percentage
           + small_packet_percentage * mellanox_factor(cell_bytes)) / Fraction(100)
    xoff = mtu + (mtu + cable + mac_phy_delay + peer) * occ
    return _ceil(xoff / 1024) * 1024


@dataclass
class Headroom:
    speed_gbps: float
    cable_m: float
    mtu: int
    cell_bytes: int
    factor: float  # worst-case cell-occupancy factor
    link_delay_bytes: float  # C * D_prop
    eta_bytes: int  # seed 000
    eta_cells_ceil: int
    eta_cells_worst: int
    seed001_bytes: int
    seed001_cells_ceil: int
    seed001_cells_worst: int
    mellanox_xoff_bytes: int | None  # None when the speed has no quanta entry
    mellanox_xoff_cells: int | None
    xoff_cells: int  # suggested profile "xoff" (headroom limit): eta_cells_worst
    xon_cells: int  # suggested profile "xon": one MTU frame's cells
    xon_offset_cells: int  # suggested xon_offset: two MTU frames' cells


def compute(speed_gbps: float, cable_m: float, mtu: int, cell_bytes: int = 256,
            prop_ns_per_m: float = PROP_NS_PER_M, mtu_r: int = MTU_R) -> Headroom:
    eta = eta_seed000(speed_gbps, cable_m, mtu, prop_ns_per_m)
    s1 = eta_seed001(speed_gbps, cable_m, mtu, mtu_r, prop_ns_per_m)
    try:
        mlx = xoff_mellanox(speed_gbps, cable_m, mtu, cell_bytes)
    except ValueError:
        mlx = None
    mtu_cells = bytes_to_cells(mtu, cell_bytes)
    return Headroom(
        speed_gbps=speed_gbps, cable_m=cable_m, mtu=mtu, cell_bytes=cell_bytes,
        factor=float(worst_case_factor(cell_bytes)),
        link_delay_bytes=float(link_delay_bytes(speed_gbps, cable_m, prop_ns_per_m)),
        eta_bytes=eta, eta_cells_ceil=bytes_to_cells(eta, cell_bytes),
        eta_cells_worst=worst_cells(eta, cell_bytes),
        seed001_bytes=s1, seed001_cells_ceil=bytes_to_cells(s1, cell_bytes),
        seed001_cells_worst=worst_cells(s1, cell_bytes),
        mellanox_xoff_bytes=mlx,
        mellanox_xoff_cells=None if mlx is None else bytes_to_cells(mlx, cell_bytes),
        xoff_cells=worst_cells(eta, cell_bytes), xon_cells=mtu_cells,
        xon_offset_cells=2 * mtu_cells)


def format_report(h: Headroom) -> str:
    lines = [
        f"link {h.speed_gbps:g} Gb/s, cable {h.cable_m:g} m, MTU {h.mtu} B, cell {h.cell_bytes} B,"
        f" C*D_prop {h.link_delay_bytes:g} B, worst-case cell factor {h.factor:.4g}",
        f"eta (seed 000) = 2*(C*D_prop + MTU) + 3840 = {h.eta_bytes} B = "
        f"{h.eta_cells_ceil} cells (bytes/cell ceil), {h.eta_cells_worst} cells (worst case)",
        f"seed 001 form  = 9216 + MTU + 3840 + 2*C*D_prop = {h.seed001_bytes} B = "
        f"{h.seed001_cells_ceil} cells (ceil), {h.seed001_cells_worst} cells (worst case)",
    ]
    if h.mellanox_xoff_bytes is not None:
        lines.append(f"SONiC Mellanox xoff = {h.mellanox_xoff_bytes} B = "
                     f"{h.mellanox_xoff_cells} cells")
    lines.append(f"port profile: xoff (headroom) {h.xoff_cells} cells, xon {h.xon_cells} cells, "
                 f"xon_offset {h.xon_offset_cells} cells")
    return "\n".join(lines)


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--speed", type=positive_float, required=True, help="link speed, Gb/s (> 0)")
    ap.add_argument("--cable", type=nonneg_float, required=True, help="cable length, m (>= 0)")
    ap.add_argument("--mtu", type=int_range(MIN_FRAME, 65535), default=1500,
                    help="lossless frame size, bytes (64..65535; default 1500)")
    ap.add_argument("--cell-bytes", type=int_range(1, 65536), default=256,
                    help="buffer cell size, bytes (default 256)")
    ap.add_argument("--prop-ns-per-m", type=positive_float, default=PROP_NS_PER_M,
                    help=f"propagation delay, ns per metre (default {PROP_NS_PER_M})")
    ap.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(a: argparse.Namespace) -> int:
    h = compute(a.speed, a.cable, a.mtu, a.cell_bytes, a.prop_ns_per_m)
    if a.json:
        import json
        print(json.dumps(asdict(h), indent=2))
    else:
        print(format_report(h))
    return 0


DESCRIPTION = __doc__.split("\n")[0]


def main(argv: list[str] | None = None, prog: str = "python -m models.headroom") -> int:
    ap = Parser(prog=prog, description=DESCRIPTION)
    add_arguments(ap)
    a = ap.parse_args(argv)
    return run_guarded(prog, lambda: run(a))


if __name__ == "__main__":
    raise SystemExit(main())
