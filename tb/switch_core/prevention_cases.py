"""switch_core with PREVENT_ENABLE=1: PFC deadlock prevention by priority remap per port group
(issue 9, seed 004 2.1.3; docs/watchdog.md "Prevention").

Every expectation comes from models/prevention.py (`SwitchTB.expect`): the frame as it must
leave (PCP, DSCP, IPv4 checksum rewritten, or unchanged) and the priority whose PG and queue
mmu_core must be asked for.  Independently of the model, every IPv4 frame that leaves must
have a valid header checksum (Scapy's RFC 1071 sum), keep its ECN bits, and a rewritten frame
must carry the configured alternate PCP / DSCP.  The PREVENT_FAULT_INJECT build (checksum
update without its end-around carry) must make both the model compare and the Scapy check
fail (expect_fail tests).
"""

from __future__ import annotations

import os
import random

import cocotb
from scapy.layers.inet import IP, IPOption_NOP, UDP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw

from harness import scaled
from models.prevention import PreventionConfig
from switch_core.sc_tb import (DATA_WIDTH, GROUP_W, MAX_FRAME, PORT_COUNT, SwitchTB, drain_sink,
                               ipv4_checksum_ok, mac, make_config, split_rx)
from switch_core.switch_core_cases import random_run, recv_data

FAULT = int(os.environ.get("PARAM_PREVENT_FAULT_INJECT", "0"))
P2G = [7, 6, 5, 4, 3, 2, 1, 0]            # non-identity maps: the alternate priority must go
P2Q = [1, 2, 3, 4, 5, 6, 7, 0]            # through them
DEFAULT_PRIO = 3


def ip_frame(src: int, dst: int, prio: int | None, seq: int, length: int, tos: int = 0,
             ident: int = 1, options=None, ethertype: int | None = None) -> bytes:
    """Ether [/ Dot1Q] / IPv4 / UDP / payload of `length` bytes carrying (src, seq); or, with
    `ethertype`, a non-IP payload behind that EtherType."""
    eth = Ether(dst=mac(dst), src=mac(src))
    if ethertype is not None:
        pkt = (eth / Dot1Q(prio=prio, vlan=5, type=ethertype) if prio is not None
               else Ether(dst=mac(dst), src=mac(src), type=ethertype))
    else:
        ip = IP(tos=tos, id=ident, src=f"10.0.0.{src + 1}", dst=f"10.0.1.{dst + 1}")
        if options:
            ip.options = options
        body = eth / Dot1Q(prio=prio, vlan=5) / ip if prio is not None else eth / ip
        pkt = body / UDP(sport=1000 + src, dport=2000 + dst)
    body = seq.to_bytes(4, "big") + bytes([src, dst])
    short = len(pkt / Raw(body))
    assert length >= short, length
    # pad inside the IP payload, so the IP total length covers it (Scapy fills the lengths)
    return bytes(pkt / Raw(body + bytes((seq + i) & 0xFF for i in range(length - short))))


def prevention_config(groups: list[int]) -> PreventionConfig:
    return PreventionConfig(port_group=groups, enable=(1 << 3) | (1 << 4),
                            alt_prio=[0, 1, 2, 6, 5, 5, 6, 7], alt_dscp=[0, 0, 0, 46, 10, 0, 0, 0],
                            group_w=GROUP_W)


def check_rewrite(tb, sent: bytes, iport: int, eport: int, out: bytes) -> None:
    """Model-independent checks of one frame that left: valid IPv4 checksum, ECN kept,
    alternate PCP / DSCP when its ports share a group and its priority is protected, and no
    byte changed outside the PCP, TOS and checksum fields."""
    cfg = tb.prevention
    assert ipv4_checksum_ok(out) is not False, f"bad IPv4 header checksum {out[:40].hex()}"
    a, b = Ether(sent), Ether(out)
    same = cfg.port_group[iport] != 0 and cfg.port_group[iport] == cfg.port_group[eport]
    if Dot1Q in a:
        k = a[Dot1Q].prio
        hit = same and cfg.enable >> k & 1
        assert b[Dot1Q].prio == (cfg.alt_prio[k] if hit else k), "PCP"
        assert (b[Dot1Q].dei, b[Dot1Q].vlan) == (a[Dot1Q].dei, a[Dot1Q].vlan), "DEI / VID"
        if IP in a:
            assert b[IP].tos & 3 == a[IP].tos & 3, "ECN changed"
            assert b[IP].tos >> 2 == (cfg.alt_dscp[k] if hit else a[IP].tos >> 2), "DSCP"
        changed = {i for i in range(len(sent)) if sent[i] != out[i]}
        assert changed <= {14, 19, 28, 29}, f"bytes {sorted(changed)} changed"
    else:
        assert out == sent, "an untagged frame's bytes changed"


async def _directed(dut, check_model: bool = True, check_scapy: bool = True) -> None:
    """Same-group / other-group / no-group / hairpin, tagged IPv4 (with and without options),
    tagged non-IPv4, untagged, unprotected priority, then 40 frames with random TOS and id
    (the checksum update's end-around carry); per frame: bytes, PG and queue against the
    model and the Scapy checks; per group: stat_prev_frames / stat_prev_untagged."""
    groups = [1, 1, 2, 0] + [0] * (PORT_COUNT - 4)
    cfg = make_config(prio_to_pg=P2G, prio_to_queue=P2Q, default_prio=DEFAULT_PRIO)
    tb = SwitchTB(dut, cfg, prevention=prevention_config(groups))
    await tb.reset()
    rng = random.Random(cocotb.RANDOM_SEED)
    dut._log.info("prevention directed: seed %d, fault %d, DATA_WIDTH %d", cocotb.RANDOM_SEED,
                  FAULT, DATA_WIDTH)
    cases = [  # (iport, eport, frame)
        (0, 1, ip_frame(0, 1, 3, 1, 100, tos=(26 << 2) | 1, ident=0x1234)),        # remap
        (1, 0, ip_frame(1, 0, 4, 2, 90, tos=0xFF, options=[IPOption_NOP()] * 8)),  # options
        (0, 2, ip_frame(0, 2, 3, 3, 80, tos=0x68)),                 # other group: untouched
        (3, 3, ip_frame(3, 3, 3, 4, 80, tos=0x68)),                 # no group: untouched
        (1, 0, ip_frame(1, 0, 3, 5, 70, ethertype=0x88B5)),         # tagged non-IPv4: PCP
        (0, 1, ip_frame(0, 1, None, 6, 120, tos=0x68)),             # untagged: PG / queue
        (0, 1, ip_frame(0, 1, 5, 7, 100, tos=0x68)),                # unprotected: untouched
        (2, 2, ip_frame(2, 2, 4, 8, MAX_FRAME, tos=0x03)),          # hairpin in group 2
    ]
    for i in range(40):
        s = rng.choice([0, 1])
        cases.append((s, 1 - s, ip_frame(s, 1 - s, rng.choice([3, 4]), 100 + i,
                                         rng.randint(60, 300), tos=rng.randrange(256),
                                         ident=rng.randrange(1 << 16))))
    n0 = len(tb.decisions)
    want = {p: [] for p in range(PORT_COUNT)}
    expected = []
    for (ip, ep, f) in cases:
        exp = tb.expect(ip, ep, f)
        expected.append(exp)
        want[ep].append((ip, f, exp))
        await tb.send(ip, f, ep)
    got = {}
    for p in range(PORT_COUNT):
        if want[p]:
            got[p] = [bytes(r.tdata) for r in await recv_data(tb, p, len(want[p]),
                                                             timeout=200000)]
    await tb.wait_idle()
    # mmu_core requests (in send order per ingress port): PG and queue of the model's priority
    dec = {p: [d for d in tb.decisions[n0:] if d[0] == p] for p in range(PORT_COUNT)}
    per_port = {p: [(ep, e) for (ip, ep, f), e in zip(cases, expected) if ip == p]
                for p in range(PORT_COUNT)}
    for p in range(PORT_COUNT):
        assert len(dec[p]) == len(per_port[p])
        for d, (ep, e) in zip(dec[p], per_port[p]):
            assert d[5], f"frame from port {p} refused by mmu_core"
            assert (d[1], d[3]) == (P2G[e.prio], P2Q[e.prio]), \
                f"port {p} -> {ep}: (PG, queue) {(d[1], d[3])}, model priority {e.prio}"
    remapped = sum(e.remapped for e in expected)
    dut._log.info("prevention directed: %d frames, %d remapped (%d untagged)", len(cases),
                  remapped, sum(e.remapped and not e.tagged for e in expected))
    assert remapped > len(cases) // 2
    for p in range(PORT_COUNT):
        if not want[p]:
            continue
        # order holds per (ingress port, priority class); compare per ingress port and PCP
        for src in range(PORT_COUNT):
            exp_frames = [e.data for (ip, f, e) in want[p] if ip == src]
            sent = [f for (ip, f, e) in want[p] if ip == src]
            out = [g for g in got[p] if g[11] == src]
            assert len(out) == len(exp_frames), f"port {src} -> {p}: {len(out)} frames out"
            key = lambda b: (Ether(b)[Dot1Q].prio if Dot1Q in Ether(b) else None)  # noqa: E731
            for k in {key(b) for b in exp_frames}:
                e_k = [b for b in exp_frames if key(b) == k]
                o_k = [b for b in out if key(b) == k]
                s_k = [f for f, b in zip(sent, exp_frames) if key(b) == k]
                for s_f, e_f, o_f in zip(s_k, e_k, o_k):
                    if check_scapy:
                        check_rewrite(tb, s_f, src, p, o_f)
                    if check_model:
                        assert o_f == e_f, f"port {src} -> {p}: frame differs from the model"
                assert len(o_k) == len(e_k), f"port {src} -> {p} PCP {k}: frames differ"
    for g in range(1 << GROUP_W):
        n = sum(e.remapped for (ip, ep, f), e in zip(cases, expected)
                if tb.prevention.port_group[ip] == g)
        u = sum(e.remapped and not e.tagged for (ip, ep, f), e in zip(cases, expected)
                if tb.prevention.port_group[ip] == g)
        assert tb.prev_stat("stat_prev_frames", g) == n, f"stat_prev_frames[{g}]"
        assert tb.prev_stat("stat_prev_untagged", g) == u, f"stat_prev_untagged[{g}]"
    for p in range(PORT_COUNT):
        assert not split_rx(drain_sink(tb.sinks[p]))[0], "an extra frame came out"
    await tb.check_drained()


@cocotb.test(skip=FAULT != 0)
async def remap_directed(dut):
    """Prevention rules frame by frame (see _directed)."""
    await _directed(dut)


def _random_frame(r: random.Random, p: int, dst: int, i: int) -> bytes:
    """Tagged / untagged IPv4 (random TOS, id, options) and tagged non-IPv4 frames."""
    x = r.random()
    length = r.randint(60, 160) if x < 0.8 else r.randint(161, MAX_FRAME)
    prio = None if r.random() < 0.15 else r.choice([3, 3, 4, 4, 0, 5, 7])
    if prio is not None and r.random() < 0.1:
        return ip_frame(p, dst, prio, i, length, ethertype=r.choice([0x88B5, 0x0806, 0x86DD]))
    opts = [IPOption_NOP()] * r.choice([0, 0, 0, 4])
    return ip_frame(p, dst, prio, i, max(length, 80), tos=r.randrange(256),
                    ident=r.randrange(1 << 16), options=opts)


@cocotb.test(skip=FAULT != 0)
async def remap_random(dut):
    """Random traffic (random groups per run, random back-pressure) through the shared
    scoreboard (switch_core_cases.random_run): every frame as the prevention model expects,
    in order per flow, PG / queue of the model's priority, IPv4 checksums valid (Scapy),
    group counters equal to the model's count, buffer drained."""
    seed = cocotb.RANDOM_SEED
    r = random.Random(seed)
    groups = [r.randrange(1 << GROUP_W) for _ in range(PORT_COUNT)]
    if len({g for g in groups if g}) == 0 or all(groups.count(g) < 2 for g in groups if g):
        groups[0] = groups[1] = r.randrange(1, 1 << GROUP_W)   # at least one shared group
    total = int(os.environ.get("SC_PREV_FRAMES")
                or scaled(1200 if DATA_WIDTH == 64 else 300, low=150))
    dut._log.info("remap_random: seed %d, groups %s, %d frames", seed, groups, total)
    cfg = make_config(prio_to_pg=P2G, prio_to_queue=P2Q, default_prio=DEFAULT_PRIO)
    tb = SwitchTB(dut, cfg, prevention=prevention_config(groups))
    await tb.reset()
    res = await random_run(dut, tb, seed, total, make_frame=_random_frame)
    assert sum(res["groups"]["frames"].values()) > 0, "nothing was remapped"


@cocotb.test(expect_fail=True, skip=FAULT == 0)
async def scoreboard_catches_wrong_checksum(dut):
    """Negative (PREVENT_FAULT_INJECT build: no end-around carry in the checksum update): the
    model compare of the bytes must fail."""
    await _directed(dut, check_model=True, check_scapy=False)


@cocotb.test(expect_fail=True, skip=FAULT == 0)
async def scapy_catches_wrong_checksum(dut):
    """Negative, same build: the model-independent Scapy checksum check alone must fail."""
    await _directed(dut, check_model=False, check_scapy=True)
