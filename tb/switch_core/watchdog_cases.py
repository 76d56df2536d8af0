"""switch_core with WATCHDOG_ENABLE=1: a PFC storm on one priority of one port.

The link partner of port 1 sends XOFF for priority 5 and refreshes it forever (a stuck
receiver).  While port 1's priority-5 queue is empty nothing happens; once a frame waits there,
the watchdog detects the storm after exactly cfg_wd_detect_time clocks (measured from the first
clock the queue holds a frame while paused), the frame flows again (action forward), other
priorities of port 1 and priority 5 of other ports keep flowing throughout, and once the
partner stops sending PFC the watchdog restores normal PFC after cfg_wd_restore_time clocks.
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge

from common.pfc_frames import pfc_frame
from switch_core.sc_tb import SwitchTB, frame, mac, make_config
from switch_core.switch_core_cases import recv_data

DETECT = 2000
RESTORE = 3000
REFRESH = 1000            # partner's XOFF refresh period, clocks (< RESTORE: storm persists)
PORT, PRIO = 1, 5


@cocotb.test()
async def storm_forward_and_restore(dut):
    tb = SwitchTB(dut, make_config())
    dut.cfg_wd_enable.value = 1
    dut.cfg_wd_detect_time.value = DETECT
    dut.cfg_wd_restore_time.value = RESTORE
    dut.cfg_wd_action.value = 0
    dut.cfg_wd_storm_limit.value = 0
    dut.cfg_wd_reenable.value = 0
    await tb.reset()
    core = dut.core
    qi = PORT * 8 + PRIO                      # identity prio -> queue map
    clock = 0
    first_busy = storm_at = None
    storming = True

    def storm() -> int:
        return int(dut.stat_wd_storm.value) >> qi & 1

    async def monitor():
        nonlocal clock, first_busy, storm_at
        while True:
            await FallingEdge(dut.clk)
            clock += 1
            busy = (int(core.wd.busy.value) >> qi) & 1
            paused = (int(dut.stat_pause.value) >> qi) & 1
            if first_busy is None and busy and paused:
                first_busy = clock
            if storm_at is None and storm():
                storm_at = clock

    async def partner():
        xoff = pfc_frame(mac(9), 1 << PRIO, [0xFFFF if k == PRIO else 0 for k in range(8)])
        while storming:
            await tb.send(PORT, xoff, 0)
            await ClockCycles(dut.clk, REFRESH)

    cocotb.start_soon(monitor())
    cocotb.start_soon(partner())
    await ClockCycles(dut.clk, 3 * DETECT)
    assert int(dut.stat_pause.value) >> qi & 1, "partner's XOFF not applied"
    assert storm() == 0, "paused but empty queue must not be a storm"

    # a frame for the stormed priority waits; other traffic keeps flowing
    hold = frame(0, PORT, PRIO, 1, 100)
    await tb.send(0, hold, PORT)
    others = [frame(2, PORT, 2, 2, 80), frame(0, 3, PRIO, 3, 90)]
    await tb.send(2, others[0], PORT)
    await tb.send(0, others[1], 3)
    assert bytes((await recv_data(tb, PORT, 1))[0].tdata) == others[0]
    assert bytes((await recv_data(tb, 3, 1))[0].tdata) == others[1]

    rx = await recv_data(tb, PORT, 1, timeout=4 * DETECT)
    assert bytes(rx[0].tdata) == hold
    latency = storm_at - first_busy
    dut._log.info("switch-level detection latency %d clocks, configured %d", latency, DETECT)
    assert latency == DETECT
    assert int(dut.stat_wd_storms.value) >> (qi * 32) & 0xFFFFFFFF == 1
    # the storm goes on (refreshes every REFRESH < RESTORE clocks): priority 5 still flows
    await ClockCycles(dut.clk, 2 * RESTORE)
    assert storm() == 1
    more = frame(2, PORT, PRIO, 4, 120)
    await tb.send(2, more, PORT)
    assert bytes((await recv_data(tb, PORT, 1))[0].tdata) == more

    # the partner recovers: no more PFC frames (its last XOFF still runs in pfc_rx)
    storming = False
    await ClockCycles(dut.clk, REFRESH + RESTORE + 10)
    assert storm() == 0, "recovery did not end after the restoration time"
    assert int(dut.stat_pause.value) >> qi & 1
    # normal PFC is back: a priority-5 frame is held while paused, and released by XON
    held = frame(0, PORT, PRIO, 5, 100)
    await tb.send(0, held, PORT)
    await ClockCycles(dut.clk, DETECT // 2)
    assert tb.sinks[PORT].empty(), "frame sent although PFC is honoured again"
    await tb.send(PORT, pfc_frame(mac(9), 1 << PRIO, [0] * 8), 0)
    assert bytes((await recv_data(tb, PORT, 1))[0].tdata) == held
    assert int(dut.stat_wd_storms.value) >> (qi * 32) & 0xFFFFFFFF == 1
    assert int(dut.stat_wd_storm.value) == 0 and int(dut.stat_wd_disabled.value) == 0
    await tb.wait_idle()
    await tb.check_drained()
