"""Loop tests: SWITCH_COUNT switch_core instances in a ring with a routing loop on the lossless
priority (tb/loop/loop_top.v; issue 9; docs/watchdog.md "Loop test").

Host 0 injects the looping flow (802.1Q PCP 3, IPv4 TTL 32) back to back for INJECT clocks,
honouring the PFC its switch sends, then stops.  models.loop (LoopNetwork) runs the same
configuration and its prediction is printed next to the RTL's figures and compared where the
two must agree (deadlock or not, detection latency, which queues storm, drained or not).

* deadlocks_without_watchdog (WATCHDOG_ENABLE=0): after the injection no data frame moves on
  any ring link for WINDOW clocks while every switch holds frames, every ring egress is paused
  and every ring ingress PG is in XOFF; the progress checker fails on this run.
* recovers_with_watchdog_forward / _drop (WATCHDOG_ENABLE=1): the ring deadlocks, the
  watchdogs of the ring egress ports detect the storm exactly DETECT clocks after the condition
  started (measured per queue), the ring drains (forward: frames move with PFC ignored, some
  are dropped by full neighbours, the rest expire by TTL; drop: the stormed queue is
  discarded), every buffer and every mmu_core counter returns to 0 and normal PFC is restored;
  the watchdog state and storm counters equal models.watchdog's every clock; the deadlock check
  fails on this run.
* no_deadlock_with_prevention (PREVENT_ENABLE=1): the ring ports form one port group; looping
  frames move to the lossy alternate priority (PCP and DSCP rewritten), the ring never
  deadlocks and drains.
"""

from __future__ import annotations

import os
from dataclasses import replace

import cocotb
from cocotb.triggers import ClockCycles

from common import waits
from harness import scaled
from loop.loop_tb import (GROUP_W, PORT_NEXT, PORTS, PREVENT_ENABLE, SWITCHES, WATCHDOG_ENABLE,
                          LoopTB, expected_expired, field_of, loop_config, val)
from models.loop import ALT_DSCP, DeadlockError, LoopNetwork, run_until_drained
from models.mmu import REASON_HEADROOM_FULL
from models.watchdog import DROP, FORWARD, IDLE, WatchdogConfig

INJECT = 2000              # clocks host 0 offers frames
# clocks without progress that show the deadlock (a quarter on Icarus: TB_SCALE, tb/harness.py;
# still five detection times and many pause-refresh periods)
WINDOW = scaled(20_000, low=5_000)
# watchdog detection and restoration times, clocks: half on Icarus (TB_SCALE below 1), as
# the switch-level storm (tb/switch_core/watchdog_cases.py); the model runs the same values
_HALF = float(os.environ.get("TB_SCALE", "1")) < 1
DETECT = 500 if _HALF else 1000
RESTORE = 1500 if _HALF else 3000
DRAIN_LIMIT = 30_000       # clocks after the injection to drain and restore


class NoDeadlock(AssertionError):
    """The deadlock check found progress."""


def assert_deadlocked(tb: LoopTB, start: int, end: int) -> None:
    """The deadlock check: no data frame moved on a ring link in [start, end) and every
    switch holds frames with its ring egress paused and its ring ingress PG in XOFF."""
    moved = [t for t in tb.moves if start <= t < end]
    st = tb.ring_state()
    if moved or not (all(st["queued"]) and all(st["egress_paused"])
                     and all(st["ingress_xoff"])):
        raise NoDeadlock(f"not deadlocked: {len(moved)} moves in [{start}, {end}), {st}")


def accounted(tb: LoopTB) -> dict:
    """Where every injected frame is: queued, expired out of a host, dropped by mmu_core,
    discarded by the watchdog."""
    d = tb.dut
    discarded = sum(field_of(val(d.stat_wd_drop_frames), i, 32) for i in range(SWITCHES * PORTS))
    return {"injected": tb.hosts.injected, "queued": sum(tb.queued()),
            "expired": len(tb.hosts.expired), "mmu_drops": tb.drops_total(),
            "wd_discarded": discarded}


def check_expired(tb: LoopTB, pcp: int, dscp: int) -> None:
    """Frames that left the ring: each once, out of the host ttl hops downstream of the
    injecting switch, byte for byte as predicted (loop_router's TTL hops and switch_core's
    prevention rewrite by models.prevention), and independently checked with Scapy: TTL 0,
    IPv4 checksum valid, the expected PCP and DSCP."""
    cfg = tb.cfg
    seqs = [e.seq for e in tb.hosts.expired]
    assert len(seqs) == len(set(seqs)), "a frame left the ring twice"
    for e in tb.hosts.expired:
        assert e.ttl == 0 and e.csum_ok, e
        assert (e.pcp, e.dscp, len(e.data)) == (pcp, dscp, cfg.frame_bytes), e
        host, data = expected_expired(cfg, e.src, e.seq)
        assert e.host == host, e
        assert e.data == data, f"frame {e.seq}: {e.data.hex()} != {data.hex()}"


async def inject_and_settle(tb: LoopTB) -> int:
    await tb.reset()
    n = await tb.inject(tb.cfg.inject_switch, INJECT)
    tb.log.info("host %d injected %d frames in %d clocks", tb.cfg.inject_switch, n, INJECT)
    return tb.clock


@cocotb.test(skip=WATCHDOG_ENABLE != 0 or PREVENT_ENABLE != 0)
async def deadlocks_without_watchdog(dut):
    cfg = loop_config(inject_clocks=INJECT)
    net = LoopNetwork(cfg)
    mres = net.run(INJECT + WINDOW)
    tb = LoopTB(dut, cfg)
    start = await inject_and_settle(tb)
    await tb.watch(WINDOW)
    st = tb.ring_state()
    mst = net.state()["switches"]
    tb.log.info("RTL  : injected %d, queued %s, egress paused %s, ingress XOFF %s, deadlocked "
                "from clock %s, moves in %d clocks after the injection: %d", tb.hosts.injected,
                st["queued"], st["egress_paused"], st["ingress_xoff"], tb.deadlock_since,
                WINDOW, len(tb.moves))
    tb.log.info("model: injected %d, queued %s, deadlocked from clock %s, moves after the "
                "injection: %d", mres.injected, [s["queued"] for s in mst],
                mres.deadlock_since, mres.progress(INJECT, net.t))
    # the deadlock: nothing moves for WINDOW clocks, every ring queue paused and full
    assert_deadlocked(tb, start, tb.clock)
    assert tb.deadlock_since is not None and tb.deadlock_since < start
    # as the model predicts
    assert mres.deadlock_since is not None and mres.progress(INJECT, net.t) == 0
    # lossless: every injected frame is still in a buffer (nothing moved, nothing expired)
    acc = accounted(tb)
    assert acc["queued"] == acc["injected"] and acc["mmu_drops"] == 0, acc
    assert not tb.hosts.expired
    # the progress checker fails on this run
    try:
        tb.check_progress(start, tb.clock, WINDOW // 2)
    except DeadlockError as e:
        tb.log.info("progress checker, as expected: %s", e)
    else:
        raise AssertionError("the progress checker passed a deadlocked ring")
    tb.check_predictor()


async def recovers(dut, action: int) -> None:
    wd = WatchdogConfig(detect_time=DETECT, restore_time=RESTORE, action=action)
    cfg = loop_config(inject_clocks=INJECT, watchdog=wd)
    net, mres = run_until_drained(cfg, INJECT + DRAIN_LIMIT)
    tb = LoopTB(dut, cfg, wd)
    start = await inject_and_settle(tb)
    d = dut

    def restored() -> bool:
        return (tb.drained_at is not None and val(d.stat_wd_storm) == 0
                and len(tb.restore_events) == len(tb.storm_events) > 0)

    while tb.clock < start + DRAIN_LIMIT and not restored():
        await tb.watch(512)
    assert tb.drained_at is not None, f"ring did not drain: {tb.ring_state()}"
    assert restored(), f"watchdogs not restored: storm {val(d.stat_wd_storm):#x}"
    acc = accounted(tb)
    lat = sorted({ev[4] - ev[3] for ev in tb.storm_events})
    stormed = sorted({(ev[0], ev[1], ev[2]) for ev in tb.storm_events})
    mstormed = sorted({(e.switch, e.port, e.prio) for e in mres.storms})
    tb.log.info("RTL  : storms (switch, port, prio, condition start, detected) %s",
                tb.storm_events)
    tb.log.info("RTL  : deadlocked from clock %s; detection latency %s clocks (configured %d); "
                "drained %d clocks after the injection; %s", tb.deadlock_since, lat, DETECT,
                tb.drained_at - start, acc)
    tb.log.info("model: deadlocked from clock %s; storms %s; detection latency %s clocks; "
                "drained %d clocks after the injection; injected %d, expired %d, lossless "
                "drops %d, discarded %d", mres.deadlock_since,
                [(e.switch, e.port, e.prio, e.cond_start, e.detected) for e in mres.storms],
                sorted({e.latency for e in mres.storms}), mres.drained_at - INJECT,
                mres.injected, sum(mres.expired), mres.drops_lossless, mres.wd_discarded)
    # detection: exactly the detection time after the condition's first clock, RTL and model
    assert tb.storm_events and lat == [DETECT], tb.storm_events
    # the ring was deadlocked (every ring egress paused with frames) before the first storm,
    # and that storm's condition held since the deadlock at least
    assert tb.deadlock_since is not None
    first = min(tb.storm_events, key=lambda ev: ev[4])
    assert first[3] <= tb.deadlock_since < first[4], (tb.deadlock_since, first)
    assert mres.storms and {e.latency for e in mres.storms} == {DETECT}
    # only the loop's priority on ring egress ports storms, in both
    assert all((p, k) == (PORT_NEXT, cfg.prio) for _, p, k in stormed), stormed
    assert all((p, k) == (PORT_NEXT, cfg.prio) for _, p, k in mstormed), mstormed
    # status counters: stat_wd_storms equals the per-clock model (also checked every clock)
    storms = val(d.stat_wd_storms)
    for s in range(SWITCHES):
        for p in range(PORTS):
            for k in range(8):
                got = field_of(storms, (s * PORTS + p) * 8 + k, 32)
                assert got == tb.wd_models[s][p].prio[k].storms, (s, p, k, got)
                assert tb.wd_models[s][p].prio[k].state == IDLE
    assert sum(field_of(storms, i, 32) for i in range(SWITCHES * PORTS * 8)) \
        == len(tb.storm_events)
    # the ring drained: every frame accounted for, every buffer and counter back to 0
    assert acc["injected"] == acc["expired"] + acc["mmu_drops"] + acc["wd_discarded"], acc
    fwd = sum(field_of(val(d.stat_wd_fwd_frames), i, 32) for i in range(SWITCHES * PORTS))
    if action == DROP:
        assert acc["wd_discarded"] > 0 and fwd == 0, (acc, fwd)
    else:
        assert acc["wd_discarded"] == 0 and fwd > 0, (acc, fwd)
    check_expired(tb, cfg.prio, 0)
    await tb.check_drained()
    # progress from the end of the injection until drained: no stall of 2 * DETECT clocks
    tb.check_progress(start, tb.clock, 2 * DETECT)
    # the deadlock check fails on this run
    try:
        assert_deadlocked(tb, start, tb.clock)
    except NoDeadlock as e:
        tb.log.info("deadlock check, as expected: %s", e)
    else:
        raise AssertionError("the deadlock check passed a ring that recovered")


@cocotb.test(skip=WATCHDOG_ENABLE == 0)
async def recovers_with_watchdog_forward(dut):
    await recovers(dut, FORWARD)


@cocotb.test(skip=WATCHDOG_ENABLE == 0)
async def recovers_with_watchdog_drop(dut):
    await recovers(dut, DROP)


@cocotb.test(skip=WATCHDOG_ENABLE == 0)
async def checkers_catch_wrong_models(dut):
    """Negative: the admission predictor expecting a configuration whose headroom is 2 cells
    instead of 10 (the loader's writes differ), and the watchdog scoreboard with a model whose
    detection time is one clock longer, must both report mismatches on the same loop run (the
    RTL is right, the models are wrong)."""
    wd = WatchdogConfig(detect_time=DETECT, restore_time=RESTORE)
    cfg = loop_config(inject_clocks=INJECT, watchdog=wd)
    tb = LoopTB(dut, cfg, wd, model_cfg=replace(cfg, headroom=2),
                model_wd=replace(wd, detect_time=DETECT + 1))
    await inject_and_settle(tb)
    # the first storm detection (the loop deadlocks during the injection; the watchdog fires
    # DETECT clocks later, which may fall after the injection's end), and a few clocks more
    await waits.until(dut.clk, lambda: tb.storm_events, 4 * DETECT, "a storm detection")
    await ClockCycles(dut.clk, 4)
    tb.log.info("admission mismatches %d (first %s), watchdog mismatches %d (first %s)",
                len(tb.mismatch), tb.mismatch[:1], len(tb.wd_mismatch), tb.wd_mismatch[:1])
    assert tb.mismatch, "a predictor expecting 2 cells of headroom was not caught"
    assert tb.wd_mismatch, "a watchdog model with detect_time + 1 was not caught"
    # the RTL's own flags still give the configured detection time
    assert {ev[4] - ev[3] for ev in tb.storm_events} == {DETECT}
    try:
        tb.check_predictor()
    except AssertionError as e:
        tb.log.info("check_predictor, as expected: %s", str(e)[:200])
    else:
        raise AssertionError("check_predictor passed wrong models")


def prev_frames(tb: LoopTB) -> list[int]:
    """stat_prev_frames of group 1 (the ring ports) per switch."""
    groups = 1 << GROUP_W
    v = val(tb.dut.stat_prev_frames)
    return [field_of(v, s * groups + 1, 32) for s in range(SWITCHES)]


@cocotb.test(skip=PREVENT_ENABLE == 0)
async def no_deadlock_with_prevention(dut):
    cfg = loop_config(inject_clocks=INJECT, prevention=True)
    net, mres = run_until_drained(cfg, INJECT + DRAIN_LIMIT)
    tb = LoopTB(dut, cfg)
    start = await inject_and_settle(tb)
    while tb.clock < start + DRAIN_LIMIT and tb.drained_at is None:
        await tb.watch(512)
    acc = accounted(tb)
    remapped = prev_frames(tb)
    drops = [tb.mmu_drops(s) for s in range(SWITCHES)]
    tb.log.info("RTL  : deadlock stretches %s; drained %s clocks after the injection; %s; "
                "remapped per switch %s; mmu drops by reason per switch %s", tb.dead_stretches,
                None if tb.drained_at is None else tb.drained_at - start, acc, remapped, drops)
    tb.log.info("model: deadlock stretches %s; drained %d clocks after the injection; "
                "injected %d, remapped %d, expired %d, lossy drops %d, lossless drops %d",
                mres.dead_stretches, mres.drained_at - INJECT, mres.injected, mres.remapped,
                sum(mres.expired), mres.drops_lossy, mres.drops_lossless)
    # never deadlocked, in both; frames kept moving and the ring drained
    assert not tb.dead_stretches and not mres.dead_stretches
    assert tb.drained_at is not None, f"ring did not drain: {tb.ring_state()}"
    tb.check_progress(start, tb.clock, 2 * DETECT)
    # every looping frame moved to the alternate priority once, at its first ring hop (the
    # switch after the injecting one), in both
    assert sum(remapped) == acc["injected"] and mres.remapped == mres.injected, remapped
    assert remapped[(cfg.inject_switch + 1) % SWITCHES] == acc["injected"], remapped
    # lossy, so dropped when full, never paused: no lossless drop
    assert all(d[REASON_HEADROOM_FULL] == 0 for d in drops) and mres.drops_lossless == 0
    assert acc["injected"] == acc["expired"] + acc["mmu_drops"], acc
    # PCP and DSCP rewritten, the checksum valid after the DSCP rewrite and every TTL hop
    check_expired(tb, cfg.alt_prio, ALT_DSCP)
    await tb.check_drained()


@cocotb.test(skip=PREVENT_ENABLE == 0)
async def prevention_without_groups_deadlocks(dut):
    """Negative: the same build with prevention on but no port group configured remaps
    nothing, and the loop deadlocks (as the model predicts)."""
    cfg = loop_config(inject_clocks=INJECT, prevention=True, groups=(0, 0, 0))
    net = LoopNetwork(cfg)
    mres = net.run(INJECT + WINDOW // 4)
    tb = LoopTB(dut, cfg)
    start = await inject_and_settle(tb)
    await tb.watch(WINDOW // 4)
    tb.log.info("RTL  : deadlocked from clock %s, %s; model: deadlocked from clock %s",
                tb.deadlock_since, tb.ring_state(), mres.deadlock_since)
    assert sum(prev_frames(tb)) == 0 and mres.remapped == 0
    assert_deadlocked(tb, start, tb.clock)
    assert mres.deadlock_since is not None and mres.progress(INJECT, net.t) == 0
    tb.check_predictor()
