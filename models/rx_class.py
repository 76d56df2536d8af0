"""The ingress classification of a received frame: the executable specification of
``rtl/sw_ingress.v``'s one decision per frame (docs/switch_core.md, "Bad input").

A frame is described as the switch sees it on its AXI-Stream input (no FCS): its bytes, the
beats' tkeep, whether tuser was set on any beat, its tdest, and whether it stalled (tvalid
low after its first beat) for longer than the configured time before its tlast.  ``classify``
returns one class; the first rule that matches wins, in this order:

======================  ================================================================
class                   rule
======================  ================================================================
``STALL``               cut: stalled for ``stall_clocks`` clocks (0: never) inside the frame
``ERROR``               tuser on any beat (bad FCS, MAC error)
``MALFORMED``           a beat before tlast not full, or a last beat with an empty or
                        non-contiguous tkeep (IEEE 802.3 delivers whole octets, in order)
``OVERSIZE``            longer than ``max_frame_bytes``
``RUNT``                shorter than 60 bytes (64 with the FCS: 802.3 minFrameSize)
``PFC``                 EtherType 0x8808 to 01-80-C2-00-00-01, opcode 0x0101 (802.1Qbb)
``PAUSE``               EtherType 0x8808 to 01-80-C2-00-00-01, opcode 0x0001 (802.3 31B)
``CTRL_UNKNOWN``        EtherType 0x8808 to 01-80-C2-00-00-01, any other opcode
``CTRL_MALFORMED``      EtherType 0x8808 to another address, or 01-80-C2-00-00-01 with
                        another EtherType (802.1Q 8.6.3: that address is never forwarded)
``BAD_DEST``            tdest >= the number of ports
``GOOD``                the rest: offered to the admission core
======================  ================================================================

Every class but ``GOOD`` is dropped (MAC Control consumed) and counted in its own counter.
A PFC frame loads the pause timers; a PAUSE frame pauses every priority when PAUSE is
enabled on the port, and is only counted otherwise (``acts``).  The reserved first octet of
the PFC class-enable vector is ignored on receipt, as 802.1Qbb transmits it as zero and gives
no receive rule.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

PFC_DA = bytes.fromhex("0180c2000001")
MAC_CONTROL = 0x8808
OP_PFC = 0x0101
OP_PAUSE = 0x0001
MIN_FRAME = 60


class RxClass(Enum):
    GOOD = "good"
    ERROR = "error"
    MALFORMED = "malformed"
    OVERSIZE = "oversize"
    RUNT = "runt"
    PFC = "pfc"
    PAUSE = "pause"
    CTRL_UNKNOWN = "ctrl_unknown"
    CTRL_MALFORMED = "ctrl_malformed"
    BAD_DEST = "bad_dest"
    STALL = "stall"


# the switch's per-port counter of each class (rtl/switch_core.v stat_*; GOOD frames are
# counted by the admission core's decisions instead)
COUNTER = {
    RxClass.ERROR: "stat_drop_error",
    RxClass.MALFORMED: "stat_drop_malformed",
    RxClass.OVERSIZE: "stat_drop_oversize",
    RxClass.RUNT: "stat_drop_runt",
    RxClass.PFC: "stat_pfc_rx_frames",
    RxClass.PAUSE: "stat_pause_rx_frames",
    RxClass.CTRL_UNKNOWN: "stat_ctrl_unknown",
    RxClass.CTRL_MALFORMED: "stat_ctrl_malformed",
    RxClass.BAD_DEST: "stat_drop_bad_dest",
    RxClass.STALL: "stat_drop_stall",
}


@dataclass(frozen=True)
class RxFrame:
    """A frame as received: ``keeps`` is the tkeep of each beat (None: full beats, the last
    one partial as the length gives); ``stall`` the longest run of clocks without a beat
    between its first beat and its tlast."""

    data: bytes
    dest: int = 0
    error: bool = False
    keeps: tuple[int, ...] | None = None
    stall: int = 0


@dataclass(frozen=True)
class RxConfig:
    port_count: int
    max_frame_bytes: int
    keep_width: int
    link_pause_enable: bool = False
    stall_clocks: int = 0


def keeps_ok(keeps: tuple[int, ...], keep_width: int) -> bool:
    """Every beat before the last full, the last contiguous from lane 0 and not empty."""
    full = (1 << keep_width) - 1
    if any(k != full for k in keeps[:-1]):
        return False
    last = keeps[-1]
    return last != 0 and last & (last + 1) == 0


def classify(f: RxFrame, cfg: RxConfig) -> RxClass:
    if cfg.stall_clocks and f.stall >= cfg.stall_clocks:
        return RxClass.STALL
    if f.error:
        return RxClass.ERROR
    if f.keeps is not None and not keeps_ok(f.keeps, cfg.keep_width):
        return RxClass.MALFORMED
    d = f.data
    if len(d) > cfg.max_frame_bytes:
        return RxClass.OVERSIZE
    if len(d) < MIN_FRAME:
        return RxClass.RUNT
    da_ok = d[0:6] == PFC_DA
    ctrl_type = int.from_bytes(d[12:14], "big") == MAC_CONTROL
    if da_ok or ctrl_type:
        if not (da_ok and ctrl_type):
            return RxClass.CTRL_MALFORMED
        op = int.from_bytes(d[14:16], "big")
        if op == OP_PFC:
            return RxClass.PFC
        if op == OP_PAUSE:
            return RxClass.PAUSE
        return RxClass.CTRL_UNKNOWN
    if f.dest >= cfg.port_count:
        return RxClass.BAD_DEST
    return RxClass.GOOD


def acts(cls: RxClass, cfg: RxConfig) -> bool:
    """The frame moves the port's pause timers (802.1Qbb PFC, or 802.3x PAUSE if enabled)."""
    return cls is RxClass.PFC or (cls is RxClass.PAUSE and cfg.link_pause_enable)


def count(frames, cfg: RxConfig) -> Counter:
    """Frames per class of a sequence of RxFrame (the switch's per-port counters)."""
    return Counter(classify(f, cfg) for f in frames)
