"""switch_core cocotb tests: forwarding, VLAN PCP mapping, untagged, PFC consumed and pausing,
bad frames, randomized traffic against the golden admission model, congestion with PFC, and
the line-rate benchmark."""

from __future__ import annotations

import random

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from scapy.contrib.mac_control import MACControlClassBasedFlowControl
from scapy.layers.l2 import Dot1Q, Ether

from switch_core.sc_tb import (BUFFER_CELLS, CELL_BYTES, DATA_WIDTH, LOSSLESS, MAX_FRAME,
                               PORT_COUNT, SwitchTB, drain_sink, frame, is_pfc, mac,
                               make_config, split_rx)
from common.pfc_frames import parse_pfc, pfc_frame


async def recv_data(tb, port, n, timeout=20000):
    """n data frames from port's sink (PFC frames skipped)."""
    out = []
    for _ in range(timeout):
        while not tb.sinks[port].empty():
            f = tb.sinks[port].recv_nowait()
            if not is_pfc(bytes(f.tdata)):
                out.append(f)
        if len(out) >= n:
            return out
        await RisingEdge(tb.dut.clk)
    raise AssertionError(f"port {port}: {len(out)} of {n} frames")


@cocotb.test()
async def forwarding(dut):
    """One frame from every port to every port arrives unchanged on the right port only."""
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    sent = {}
    for src in range(PORT_COUNT):
        for dst in range(PORT_COUNT):
            f = frame(src, dst, 1, src * 16 + dst, 60 + 37 * dst + 11 * src)
            sent.setdefault(dst, []).append(f)
            await tb.send(src, f, dst)
    for dst in range(PORT_COUNT):
        rx = await recv_data(tb, dst, PORT_COUNT)
        assert sorted(bytes(r.tdata) for r in rx) == sorted(sent[dst])
    await tb.wait_idle()
    for dst in range(PORT_COUNT):
        assert not split_rx(drain_sink(tb.sinks[dst]))[0]
        assert tb.port_stat("stat_tx_frames", dst) == PORT_COUNT
        assert tb.port_stat("stat_rx_frames", dst) == PORT_COUNT
    await tb.check_drained()


@cocotb.test()
async def pcp_mapping(dut):
    """PCP -> PG by the ingress port's map, PCP -> queue by the egress port's map; untagged
    frames take the ingress port's default priority."""
    p2g = [7, 6, 5, 4, 3, 2, 1, 0]
    p2q = [1, 2, 3, 4, 5, 6, 7, 0]
    cfg = make_config(prio_to_pg=p2g, prio_to_queue=p2q, default_prio=5)
    tb = SwitchTB(dut, cfg)
    await tb.reset()
    n = 0
    for prio in list(range(8)) + [None]:
        f = frame(0, 1, prio, n, 80)
        await tb.send(0, f, 1)
        n += 1
    await recv_data(tb, 1, n)
    await tb.wait_idle()
    seen = [(d[1], d[3]) for d in tb.decisions]
    want = [(p2g[p], p2q[p]) for p in range(8)] + [(p2g[5], p2q[5])]
    assert seen == want, f"(pg, queue) per frame {seen} != {want}"
    await tb.check_drained()


@cocotb.test()
async def bad_frames_dropped(dut):
    """Errored (tuser), runt (< 60 bytes) and oversize (> max) frames are dropped and counted,
    never stored; PFC frames are consumed; good frames in between pass."""
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    good = [frame(2, 3, 0, i, 64 + i) for i in range(4)]
    await tb.send(2, good[0], 3)
    await tb.send(2, frame(2, 3, 0, 100, 300), 3, tuser=1)
    await tb.send(2, good[1], 3)
    await tb.send(2, frame(2, 3, 0, 101, 60)[:59], 3)
    await tb.send(2, good[2], 3)
    await tb.send(2, frame(2, 3, 0, 102, MAX_FRAME + 1), 3)
    await tb.send(2, frame(2, 3, 0, 103, MAX_FRAME), 3)
    xon = bytes(Ether(dst="01:80:c2:00:00:01", src=mac(9)) /
                MACControlClassBasedFlowControl(c1_enabled=1, c1_pause_time=0))
    await tb.send(2, xon, 3)
    await tb.send(2, good[3], 3)
    rx = await recv_data(tb, 3, 5)
    assert [bytes(r.tdata) for r in rx] == good[:3] + [frame(2, 3, 0, 103, MAX_FRAME)] + good[3:]
    await tb.wait_idle()
    assert tb.port_stat("stat_drop_error", 2) == 1
    assert tb.port_stat("stat_drop_runt", 2) == 1
    assert tb.port_stat("stat_drop_oversize", 2) == 1
    assert tb.port_stat("stat_pfc_rx_frames", 2) == 1
    assert tb.port_stat("stat_rx_frames", 2) == 9
    assert tb.requests == 5, "only good frames reach mmu_core"
    assert val_low_wm(tb) < BUFFER_CELLS
    await tb.check_drained()


def val_low_wm(tb):
    return int(tb.dut.stat_free_low_wm.value)
