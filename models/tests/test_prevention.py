"""Deadlock prevention model (models/prevention.py): the port-group rule, the byte rewrite
(PCP, DSCP with ECN kept, IPv4 checksum by RFC 1624) checked against Scapy building the same
header from scratch, untagged and non-IPv4 frames, malformed input, and the fault variant the
RTL's PREVENT_FAULT_INJECT build mirrors (it must disagree with Scapy)."""

from __future__ import annotations

import random

import pytest
from scapy.layers.inet import IP, IPOption_NOP, UDP
from scapy.layers.l2 import ARP, Dot1Q, Ether
from scapy.packet import Raw
from scapy.utils import checksum

from models.prevention import (PreventionConfig, csum_update, ipv4_header_checksum,
                               prevention_remap, same_group)

ALT = [0, 1, 2, 6, 5, 5, 6, 7]           # 3 -> 6, 4 -> 5
DSCP = [0, 0, 0, 46, 10, 0, 0, 0]
CFG = PreventionConfig(port_group=[1, 1, 2, 0], enable=(1 << 3) | (1 << 4), alt_prio=ALT,
                       alt_dscp=DSCP)


def tagged_ip(prio: int, tos: int, ident: int = 1, vlan: int = 0x123, dei: int = 0,
              options=None, payload: bytes = b"x" * 30) -> bytes:
    ip = IP(tos=tos, id=ident, src="10.0.0.1", dst="10.0.0.2")
    if options:
        ip.options = options
    return bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") /
                 Dot1Q(prio=prio, dei=dei, vlan=vlan) / ip / UDP() / Raw(payload))


def header_ok(frame: bytes, off: int = 18) -> bool:
    ihl = (frame[off] & 0xF) * 4
    return checksum(frame[off:off + ihl]) == 0          # Scapy's RFC 1071 sum


def test_same_group_tagged_ipv4_rewritten_like_scapy_builds_it():
    f = tagged_ip(3, (26 << 2) | 1, ident=0x4321, dei=1)
    r = prevention_remap(CFG, 0, 1, f)
    assert r.remapped and r.tagged and r.prio == ALT[3]
    pkt = Ether(r.data)
    assert pkt[Dot1Q].prio == ALT[3] and pkt[Dot1Q].dei == 1 and pkt[Dot1Q].vlan == 0x123
    assert pkt[IP].tos >> 2 == DSCP[3] and pkt[IP].tos & 3 == 1          # ECN kept
    assert header_ok(r.data)
    # Scapy building the rewritten frame from scratch gives the same bytes
    assert r.data == tagged_ip(ALT[3], (DSCP[3] << 2) | 1, ident=0x4321, dei=1)
    assert len(r.data) == len(f) and r.data[30:] == f[30:]


@pytest.mark.parametrize("iport,eport", [(0, 2), (2, 1), (3, 3), (0, 4), (0, 255), (4, 0)])
def test_other_group_no_group_or_outside_port_untouched(iport, eport):
    f = tagged_ip(3, 0x68)
    r = prevention_remap(CFG, iport, eport, f)
    assert not r.remapped and r.prio == 3 and r.data == f


def test_hairpin_in_a_group_and_second_group():
    cfg = PreventionConfig(port_group=[1, 1, 2, 2], enable=1 << 3, alt_prio=ALT, alt_dscp=DSCP)
    assert prevention_remap(cfg, 2, 3, tagged_ip(3, 0)).remapped
    assert prevention_remap(cfg, 2, 2, tagged_ip(3, 0)).remapped
    assert not prevention_remap(cfg, 1, 2, tagged_ip(3, 0)).remapped


def test_unprotected_priority_untouched():
    f = tagged_ip(5, 0x68)
    r = prevention_remap(CFG, 0, 1, f)
    assert not r.remapped and r.prio == 5 and r.data == f


def test_tagged_non_ipv4_only_pcp():
    f = bytes(Ether(src="02:00:00:00:00:01", dst="ff:ff:ff:ff:ff:ff") / Dot1Q(prio=4, vlan=7)
              / ARP(psrc="10.0.0.1", pdst="10.0.0.2"))
    f += bytes(60 - len(f))
    r = prevention_remap(CFG, 1, 0, f)
    assert r.remapped and r.prio == ALT[4]
    diff = [i for i in range(len(f)) if f[i] != r.data[i]]
    assert diff == [14] and r.data[14] >> 5 == ALT[4] and r.data[14] & 0x1F == f[14] & 0x1F


def test_untagged_remaps_priority_only():
    f = bytes(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(tos=0x68) / UDP()
              / Raw(b"y" * 30))
    r = prevention_remap(CFG, 0, 1, f, default_prio=4)
    assert r.remapped and not r.tagged and r.prio == ALT[4] and r.data == f
    r = prevention_remap(CFG, 0, 1, f, default_prio=5)                 # not protected
    assert not r.remapped and r.prio == 5


def test_no_config_means_no_prevention():
    f = tagged_ip(3, 0)
    r = prevention_remap(None, 0, 1, f)
    assert not r.remapped and r.data == f
    r = prevention_remap(PreventionConfig.off(4), 0, 0, f)
    assert not r.remapped and r.data == f


def test_ipv4_options_and_random_headers_match_scapy():
    rng = random.Random(9)
    carries = 0
    for _ in range(600):
        tos = rng.randrange(256)
        ident = rng.randrange(1 << 16)
        prio = rng.choice([3, 4])
        opts = [IPOption_NOP()] * rng.choice([0, 4, 8])
        f = tagged_ip(prio, tos, ident=ident, options=opts, payload=bytes(rng.randrange(40)))
        r = prevention_remap(CFG, 1, 0, f)
        want = tagged_ip(ALT[prio], (DSCP[prio] << 2) | (tos & 3), ident=ident, options=opts,
                         payload=bytes(len(f) - len(tagged_ip(prio, 0, options=opts,
                                                              payload=b""))))
        assert r.data == want, (tos, ident, prio)
        assert header_ok(r.data)
        hc = int.from_bytes(f[28:30], "big")
        carries += (~hc & 0xFFFF) + (~tos & 0xFFFF) + ((DSCP[prio] << 2) | (tos & 3)) > 0xFFFF
    assert carries > 30                     # the end-around carry path was exercised


def test_wrong_checksum_stays_wrong_by_the_same_amount():
    f = bytearray(tagged_ip(3, 0x00))
    f[29] ^= 0x5A                            # corrupt the checksum
    r = prevention_remap(CFG, 0, 1, bytes(f))
    hdr_in, hdr_out = bytes(f[18:38]), r.data[18:38]
    assert checksum(hdr_in) == checksum(hdr_out) != 0


def test_fault_variant_disagrees_with_scapy():
    """The model of the RTL's PREVENT_FAULT_INJECT build (no end-around carry) must give
    invalid checksums on some frames, so the switch-level check has something to catch."""
    bad = 0
    for ident in range(200):
        f = tagged_ip(3, 0x44, ident=ident * 331 % 65536)
        r = prevention_remap(CFG, 0, 1, f, fault=True)
        bad += not header_ok(r.data)
    assert bad > 20


def test_csum_update_is_rfc1624_eqn3():
    # RFC 1624 section 4 example: HC = 0xDD2F, m = 0x5555 -> m' = 0x3285 gives HC' = 0x0000
    assert csum_update(0xDD2F, 0x5555, 0x3285) == 0x0000
    hdr = bytearray(tagged_ip(3, 0x10)[18:38])
    hdr[10:12] = b"\0\0"
    assert ipv4_header_checksum(bytes(hdr)) == int.from_bytes(tagged_ip(3, 0x10)[28:30], "big")


def test_short_frames_untouched_past_their_end():
    f = tagged_ip(3, 0x10)[:20]              # a runt: the switch drops it anyway
    r = prevention_remap(CFG, 0, 1, f)
    assert len(r.data) == 20 and r.data[14] >> 5 == ALT[3] and r.data[19] >> 2 == DSCP[3]


def test_same_group_and_config_checks():
    assert same_group(CFG, 0, 1) and not same_group(CFG, 3, 3) and not same_group(CFG, 0, 9)
    cfg = CFG.rtl_cfg()
    assert cfg["cfg_port_group"] == 1 | 1 << 2 | 2 << 4
    assert cfg["cfg_prev_alt_prio"] >> 9 & 7 == 6 and cfg["cfg_prev_alt_dscp"] >> 18 == 46 | 10 << 6
    for bad in (dict(port_group=[4, 0]), dict(port_group=[0], alt_prio=[8] * 8),
                dict(port_group=[0], alt_dscp=[64] * 8), dict(port_group=[0], enable=256)):
        with pytest.raises(ValueError):
            PreventionConfig(**bad).validate()
