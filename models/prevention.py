"""PFC deadlock prevention by priority remap per port group (issue 9; seed 004 section 2.1.3):
the executable specification of switch_core's PREVENT_ENABLE logic.  Plain Python.

Ports are put in groups (e.g. a leaf's uplinks).  A frame that enters port i and is switched
to port e with group(i) == group(e) != 0 belongs to a high-risk flow (it can close a PFC loop);
if its priority k is protected it is classified with the alternate priority alt_prio[k]: its
ingress PG and egress queue are those of alt_prio[k] through the ports' prio -> PG / queue maps,
its 802.1Q PCP is rewritten to alt_prio[k] (DEI and VID kept), and if it is IPv4 (EtherType
0x0800 after the tag) its DSCP is rewritten to alt_dscp[k] (ECN kept) with the header checksum
updated incrementally (RFC 1624 eqn. 3).  An untagged frame (priority = the ingress port's
default priority) is remapped in PG and queue only; its bytes are not changed.  Frames in the
switch carry no FCS (the MAC appends it), so there is none to recompute.  See docs/watchdog.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TPID_8021Q = 0x8100
ETHERTYPE_IPV4 = 0x0800
OFF_TCI = 14          # PCP = byte 14 bits 7:5
OFF_INNER_TYPE = 16   # EtherType after the tag
OFF_TOS = 19          # IPv4 TOS of a tagged frame: DSCP bits 7:2, ECN bits 1:0
OFF_CSUM = 28         # IPv4 header checksum of a tagged frame (14 + 4 + 10)


@dataclass
class PreventionConfig:
    """switch_core's cfg_port_group / cfg_prev_* (one set for all ports)."""
    port_group: list[int]                  # group per port, 0: in no group
    enable: int = 0                        # bit k: priority k is protected
    alt_prio: list[int] = field(default_factory=lambda: list(range(8)))
    alt_dscp: list[int] = field(default_factory=lambda: [0] * 8)
    group_w: int = 2                       # bits of a group id (GROUP_W)

    def validate(self) -> None:
        if not 1 <= self.group_w <= 8:
            raise ValueError(f"group_w {self.group_w}: 1 .. 8")
        for p, g in enumerate(self.port_group):
            if not 0 <= g < 1 << self.group_w:
                raise ValueError(f"port {p}: group {g} does not fit in {self.group_w} bits")
        if not 0 <= self.enable <= 0xFF:
            raise ValueError("enable: 8-bit mask")
        if len(self.alt_prio) != 8 or any(not 0 <= a < 8 for a in self.alt_prio):
            raise ValueError("alt_prio: 8 priorities 0 .. 7")
        if len(self.alt_dscp) != 8 or any(not 0 <= d < 64 for d in self.alt_dscp):
            raise ValueError("alt_dscp: 8 DSCP values 0 .. 63")

    def rtl_cfg(self) -> dict[str, int]:
        """The switch_core input values, packed as in rtl/switch_core.v."""
        self.validate()
        return {
            "cfg_port_group": sum(g << (p * self.group_w) for p, g in enumerate(self.port_group)),
            "cfg_prev_enable": self.enable,
            "cfg_prev_alt_prio": sum(a << (3 * k) for k, a in enumerate(self.alt_prio)),
            "cfg_prev_alt_dscp": sum(d << (6 * k) for k, d in enumerate(self.alt_dscp)),
        }

    @staticmethod
    def off(port_count: int, group_w: int = 2) -> PreventionConfig:
        """No port in a group: nothing is ever remapped."""
        return PreventionConfig(port_group=[0] * port_count, group_w=group_w)


@dataclass(frozen=True)
class Remap:
    prio: int          # priority the switch classifies the frame with (PG, queue)
    data: bytes        # the frame as it is stored and sent
    remapped: bool     # classified with the alternate priority (counted for the group)
    tagged: bool


def ones_add(a: int, b: int) -> int:
    """16-bit one's complement addition (end-around carry)."""
    s = a + b
    return (s & 0xFFFF) + (s >> 16)


def csum_update(hc: int, old: int, new: int, fault: bool = False) -> int:
    """RFC 1624 eqn. 3: the header checksum after one 16-bit word changes from `old` to
    `new`: HC' = ~(~HC + ~m + m').  `fault` drops the end-around carry (what the RTL's
    PREVENT_FAULT_INJECT build does), for negative tests."""
    if fault:
        return ~((~hc & 0xFFFF) + (~old & 0xFFFF) + new) & 0xFFFF
    return ~ones_add(ones_add(~hc & 0xFFFF, ~old & 0xFFFF), new) & 0xFFFF


def same_group(cfg: PreventionConfig, iport: int, eport: int) -> bool:
    """Both ports in the same group (not 0); an egress port outside the switch never is."""
    n = len(cfg.port_group)
    if not (0 <= iport < n and 0 <= eport < n):
        return False
    return cfg.port_group[iport] != 0 and cfg.port_group[iport] == cfg.port_group[eport]


def prevention_remap(cfg: PreventionConfig | None, iport: int, eport: int, frame: bytes,
                     default_prio: int = 0, fault: bool = False) -> Remap:
    """What switch_core does to a frame entering `iport` for `eport` (tdest).  With
    `cfg` None (PREVENT_ENABLE = 0) nothing is remapped.  Malformed input gets the same
    byte-level treatment as the RTL: a wrong IPv4 checksum stays wrong by the same amount
    (the update is incremental), a frame too short for a field is not touched there (such
    frames are runts the switch drops anyway)."""
    data = bytearray(frame)
    tagged = len(data) >= 14 and int.from_bytes(data[12:14], "big") == TPID_8021Q
    prio = data[OFF_TCI] >> 5 if tagged and len(data) > OFF_TCI else default_prio
    if cfg is None or not (cfg.enable >> prio & 1) or not same_group(cfg, iport, eport):
        return Remap(prio, bytes(data), False, tagged)
    alt = cfg.alt_prio[prio]
    if tagged:
        if len(data) > OFF_TCI:
            data[OFF_TCI] = alt << 5 | data[OFF_TCI] & 0x1F
        ipv4 = len(data) >= OFF_INNER_TYPE + 2 and \
            int.from_bytes(data[OFF_INNER_TYPE:OFF_INNER_TYPE + 2], "big") == ETHERTYPE_IPV4
        if ipv4 and len(data) > OFF_TOS:
            old_tos = data[OFF_TOS]
            new_tos = cfg.alt_dscp[prio] << 2 | old_tos & 0x3
            data[OFF_TOS] = new_tos
            if len(data) >= OFF_CSUM + 2:
                # the TOS is the low byte of the word at 18..19; the version / IHL byte is
                # the same before and after, so it cancels: m = TOS, m' = new TOS
                hc = int.from_bytes(data[OFF_CSUM:OFF_CSUM + 2], "big")
                data[OFF_CSUM:OFF_CSUM + 2] = csum_update(hc, old_tos, new_tos,
                                                          fault).to_bytes(2, "big")
    return Remap(alt, bytes(data), True, tagged)


def ipv4_header_checksum(header: bytes) -> int:
    """The checksum field value a header (checksum bytes zeroed) needs (RFC 791)."""
    s = 0
    for i in range(0, len(header) - 1, 2):
        s = ones_add(s, int.from_bytes(header[i:i + 2], "big"))
    return ~s & 0xFFFF


__all__ = ["PreventionConfig", "Remap", "prevention_remap", "csum_update", "ones_add",
           "same_group", "ipv4_header_checksum"]
