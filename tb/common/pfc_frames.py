"""IEEE 802.1Qbb PFC and 802.3x PAUSE frames: build, parse and check (no cocotb import).

Shared by tb/pfc_tx and tb/pfc_rx; others may import it.  Frames are built and parsed with
Scapy (``scapy.contrib.mac_control``); the FCS is computed with ``zlib.crc32``, independently
of the RTL.

* :func:`pfc_frame` / :func:`pause_frame` build the 60-octet frame (optionally + FCS).
* :func:`parse_pfc` parses and checks the fixed fields, padding and FCS; :func:`check_pfc`
  compares against an expected state and raises :class:`FrameMismatch` on any difference.
* :func:`fcs` / :func:`with_fcs` append the CRC-32 as 802.3 sends it (least significant octet
  first).
* :func:`write_pcap` / :func:`tshark_decode` write frames with FCS and decode them with tshark.
"""

from __future__ import annotations

import shutil
import subprocess
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from scapy.contrib.mac_control import MACControlClassBasedFlowControl, MACControlPause
from scapy.layers.l2 import Ether

PFC_DA = "01:80:c2:00:00:01"
ETH_TYPE_MAC_CONTROL = 0x8808
OPCODE_PAUSE = 0x0001
OPCODE_PFC = 0x0101
MIN_LEN = 60                      # octets without FCS
QUANTUM_BITS = 512


class FrameMismatch(AssertionError):
    """A frame differs from what the scoreboard expected."""


def fcs(data: bytes) -> bytes:
    """The 802.3 FCS of ``data`` as it goes on the wire (CRC-32, LSB octet first)."""
    return (zlib.crc32(data) & 0xFFFFFFFF).to_bytes(4, "little")


def with_fcs(data: bytes) -> bytes:
    return bytes(data) + fcs(data)


def pfc_frame(src: str, enabled: int, times: list[int], with_crc: bool = False,
              dst: str = PFC_DA) -> bytes:
    """A PFC frame: ``enabled`` bit k = priority k, ``times[k]`` quanta (Scapy pads to 60)."""
    kw = {}
    for k in range(8):
        kw[f"c{k}_enabled"] = (enabled >> k) & 1
        kw[f"c{k}_pause_time"] = times[k]
    raw = bytes(Ether(dst=dst, src=src) / MACControlClassBasedFlowControl(**kw))
    assert len(raw) == MIN_LEN
    return with_fcs(raw) if with_crc else raw


def pause_frame(src: str, quanta: int, with_crc: bool = False) -> bytes:
    """An 802.3x link-level PAUSE frame."""
    raw = bytes(Ether(dst=PFC_DA, src=src) / MACControlPause(pause_time=quanta))
    return with_fcs(raw) if with_crc else raw


@dataclass
class PfcState:
    """What one received frame says: enable vector, times, and the opcode it came with."""
    opcode: int
    src: str
    enabled: int = 0
    times: list[int] = field(default_factory=lambda: [0] * 8)
    link_time: int = 0

    def xoff(self) -> int:
        return sum(1 << k for k in range(8) if (self.enabled >> k) & 1 and self.times[k])

    def xon(self) -> int:
        return sum(1 << k for k in range(8) if (self.enabled >> k) & 1 and not self.times[k])


def parse_pfc(raw: bytes, has_fcs: bool) -> PfcState:
    """Parse a frame the DUT sent; check DA, EtherType, opcode, padding, length and FCS."""
    raw = bytes(raw)
    want = MIN_LEN + (4 if has_fcs else 0)
    if len(raw) != want:
        raise FrameMismatch(f"length {len(raw)} != {want}: {raw.hex()}")
    body = raw
    if has_fcs:
        body = raw[:-4]
        if raw[-4:] != fcs(body):
            raise FrameMismatch(f"bad FCS {raw[-4:].hex()} != {fcs(body).hex()}")
    pkt = Ether(body)
    if pkt.dst != PFC_DA:
        raise FrameMismatch(f"DA {pkt.dst}")
    if pkt.type != ETH_TYPE_MAC_CONTROL:
        raise FrameMismatch(f"EtherType {pkt.type:#06x}")
    opcode = int.from_bytes(body[14:16], "big")
    if opcode == OPCODE_PFC:
        if MACControlClassBasedFlowControl not in pkt:
            raise FrameMismatch("Scapy did not parse class-based flow control")
        c = pkt[MACControlClassBasedFlowControl]
        if c._reserved != 0:
            raise FrameMismatch(f"class-enable vector first octet {c._reserved:#x}")
        st = PfcState(opcode, pkt.src,
                      sum(getattr(c, f"c{k}_enabled") << k for k in range(8)),
                      [getattr(c, f"c{k}_pause_time") for k in range(8)])
        pad = body[34:]
    elif opcode == OPCODE_PAUSE:
        if MACControlPause not in pkt:
            raise FrameMismatch("Scapy did not parse PAUSE")
        st = PfcState(opcode, pkt.src, link_time=pkt[MACControlPause].pause_time)
        pad = body[18:]
    else:
        raise FrameMismatch(f"opcode {opcode:#06x}")
    if any(pad):
        raise FrameMismatch(f"non-zero padding {pad.hex()}")
    return st


def check_pfc(raw: bytes, has_fcs: bool, src: str, xoff: int, enabled: int,
              quanta: list[int]) -> PfcState:
    """Check one PFC frame field by field: ``enabled`` priorities carry their current state
    (``xoff`` bit set: ``quanta[k]``, else 0), disabled priorities carry time 0."""
    st = parse_pfc(raw, has_fcs)
    if st.opcode != OPCODE_PFC:
        raise FrameMismatch(f"expected PFC, got opcode {st.opcode:#06x}")
    if st.src != src.lower():
        raise FrameMismatch(f"SA {st.src} != {src}")
    if st.enabled != enabled:
        raise FrameMismatch(f"enable vector {st.enabled:#04x} != {enabled:#04x}")
    for k in range(8):
        want = quanta[k] if (enabled >> k) & 1 and (xoff >> k) & 1 else 0
        if st.times[k] != want:
            raise FrameMismatch(f"time[{k}] {st.times[k]} != {want}")
    return st


# pcap LinkType: Ethernet (1) with the FCS-present flag (0x04000000) and the FCS length in
# 16-bit words in bits 31:28 (2 = 4 octets), so Wireshark/tshark knows every record ends in an
# FCS and checks it with -o eth.check_fcs:TRUE (4.x dropped the eth.assume_fcs preference).
LINKTYPE_ETHERNET_WITH_FCS = 1 | 0x04000000 | (2 << 28)


def write_pcap(path: Path, frames: list[bytes]) -> None:
    """Frames that already include their FCS, written with Scapy's PcapWriter."""
    from scapy.utils import PcapWriter

    path.parent.mkdir(parents=True, exist_ok=True)
    with PcapWriter(str(path), linktype=LINKTYPE_ETHERNET_WITH_FCS, sync=True) as w:
        for f in frames:
            w.write(bytes(f))


TSHARK_FIELDS = (["macc.opcode", "macc.cbfc.enbv"]
                 + [f"macc.cbfc.pause_time.c{k}" for k in range(8)] + ["eth.fcs.status"])


def tshark_decode(path: Path) -> list[dict[str, str]] | None:
    """Decode a pcap with tshark (FCS checked); None when tshark is not installed."""
    exe = shutil.which("tshark")
    if exe is None:
        return None
    cmd = [exe, "-r", str(path), "-o", "eth.check_fcs:TRUE", "-T", "fields", "-E",
           "separator=,"]
    for f in TSHARK_FIELDS:
        cmd += ["-e", f]
    r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    rows = []
    for line in r.stdout.splitlines():
        rows.append(dict(zip(TSHARK_FIELDS, line.split(","))))
    return rows


def tshark_int(s: str) -> int:
    """tshark prints numbers as decimal or 0x hex depending on the field."""
    return int(s, 0)
