"""Scapy frame builders and parsers for the system testbench (no cocotb).

Data frames carry a small test header after the VLAN tag so a frame seen at an egress port
names its flow and sequence number without any lookup:

    Ether(dst=02:00:00:00:00:<dport>, src=02:00:00:00:01:<sport>) / Dot1Q(prio, vlan=1)
    / type 0x88B5 / magic "PM" / sport / dport / prio / seq (4 octets) / pattern

Untagged frames (type 0x88B5 right after the MACs) take the port's default priority.
PFC frames are IEEE 802.1Qbb MAC Control frames (REFERENCES.md), built and parsed with
scapy.contrib.mac_control.MACControlClassBasedFlowControl.  Frames on the AXI stream carry no
FCS (the MAC strips and appends it), so a 64-octet frame on the wire is 60 octets here.
"""

from __future__ import annotations

from scapy.contrib.mac_control import MACControl, MACControlClassBasedFlowControl
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw

ETH_TYPE_TEST = 0x88B5
ETH_TYPE_VLAN = 0x8100
ETH_TYPE_MAC_CONTROL = 0x8808
PFC_DST = "01:80:c2:00:00:01"
PFC_OPCODE = 0x0101
FCS_BYTES = 4
MAGIC = b"PM"
MIN_WIRE = 64  # smallest frame on the wire, FCS included
MAX_WIRE = 9216


def port_mac(port: int, partner: bool = True) -> str:
    """MAC of the link partner on ``port`` (partner) or of the switch port itself."""
    return f"02:00:00:00:{1 if partner else 2:02x}:{port:02x}"


def data_frame(sport: int, dport: int, prio: int, seq: int, wire_len: int,
               tagged: bool = True) -> bytes:
    """A test frame that is ``wire_len`` octets on the wire (FCS included), FCS left off."""
    if not MIN_WIRE <= wire_len <= MAX_WIRE + 22:
        raise ValueError(f"wire length {wire_len} outside {MIN_WIRE}..{MAX_WIRE + 22}")
    eth = Ether(dst=f"02:00:00:00:00:{dport:02x}", src=port_mac(sport))
    if tagged:
        hdr = eth / Dot1Q(prio=prio, vlan=1, type=ETH_TYPE_TEST)
    else:
        hdr = Ether(dst=eth.dst, src=eth.src, type=ETH_TYPE_TEST)
    body = MAGIC + bytes([sport & 0xFF, dport & 0xFF, prio & 0xFF]) + seq.to_bytes(4, "big")
    head = bytes(hdr) + body
    n = wire_len - FCS_BYTES - len(head)
    pat = bytes(((seq * 7 + i) ^ sport) & 0xFF for i in range(n))
    return head + pat


def frame_prio(data: bytes, default_prio: int = 0) -> int:
    """802.1p priority of a frame: the PCP of its VLAN tag, else the port default."""
    if len(data) >= 16 and int.from_bytes(data[12:14], "big") == ETH_TYPE_VLAN:
        return data[14] >> 5
    return default_prio


def is_pfc(data: bytes) -> bool:
    return (len(data) >= 16 and int.from_bytes(data[12:14], "big") == ETH_TYPE_MAC_CONTROL
            and int.from_bytes(data[14:16], "big") == PFC_OPCODE)


def flow_header(data: bytes) -> tuple[int, int, int, int] | None:
    """(sport, dport, prio, seq) of a test frame, None for anything else."""
    off = 18 if int.from_bytes(data[12:14], "big") == ETH_TYPE_VLAN else 14
    if len(data) < off + 11 or data[off - 2:off] != ETH_TYPE_TEST.to_bytes(2, "big"):
        return None
    if data[off:off + 2] != MAGIC:
        return None
    return data[off + 2], data[off + 3], data[off + 4], int.from_bytes(data[off + 5:off + 9], "big")


def pfc_frame(src_mac: str, times: dict[int, int]) -> bytes:
    """802.1Qbb frame enabling priorities ``times`` (prio -> quanta; 0 = XON), padded to 60
    octets (no FCS)."""
    fields = {}
    for k, q in times.items():
        if not 0 <= k < 8 or not 0 <= q <= 0xFFFF:
            raise ValueError(f"bad PFC entry {k}: {q}")
        fields[f"c{k}_enabled"] = 1
        fields[f"c{k}_pause_time"] = q
    pkt = Ether(dst=PFC_DST, src=src_mac, type=ETH_TYPE_MAC_CONTROL) / \
        MACControlClassBasedFlowControl(**fields)
    raw = bytes(pkt)
    return raw + bytes(max(0, 60 - len(raw)))


def parse_pfc(data: bytes) -> dict[int, int]:
    """prio -> quanta for every enabled priority of a PFC frame (Scapy parse)."""
    pkt = Ether(data)
    if MACControlClassBasedFlowControl not in pkt:
        raise ValueError("not an 802.1Qbb frame")
    cb = pkt[MACControlClassBasedFlowControl]
    out = {}
    for k in range(8):
        if getattr(cb, f"c{k}_enabled"):
            out[k] = getattr(cb, f"c{k}_pause_time")
    return out


__all__ = ["data_frame", "frame_prio", "is_pfc", "flow_header", "pfc_frame", "parse_pfc",
           "port_mac", "MACControl", "Raw"]
