"""Ring of switches with a routing loop (models/loop.py): PFC deadlock without the watchdog,
detection after exactly the detection time and drain with it, no deadlock with prevention;
the progress checker and the deadlock check each catching the other case."""

from __future__ import annotations

import pytest

from models.loop import (PORT_HOST, PORT_NEXT, PORT_PREV, DeadlockError, LoopConfig,
                         LoopNetwork, check_progress, high_risk, loop_prevention,
                         run_until_drained)
from models.watchdog import DROP, FORWARD, IDLE, WatchdogConfig

WINDOW = 20_000          # clocks without progress that make a deadlock


def deadlocked(net: LoopNetwork, start: int, end: int) -> bool:
    """The deadlock check (what the RTL test asserts): no data frame moved on a ring link in
    [start, end) and, at the end, every switch holds frames, its ring egress is paused on the
    loop's priority and its ring ingress PG is in XOFF."""
    st = net.state()["switches"]
    return (net.res.progress(start, end) == 0
            and all(s["queued"] > 0 and s["egress_paused"] and s["ingress_xoff"] for s in st))


def conserved(net: LoopNetwork) -> bool:
    r = net.res
    held = sum(sw.queued() + len(sw.pending_adm) for sw in net.sw)
    flying = sum(1 for v in net.arrivals.values() for a in v if a[2] == "data")
    return r.injected == (held + flying + sum(r.expired) + r.drops_lossless + r.drops_lossy
                          + r.wd_discarded)


@pytest.mark.parametrize("switches", [2, 3])
def test_ring_deadlocks_without_watchdog(switches):
    cfg = LoopConfig(switches=switches)
    net = LoopNetwork(cfg)
    res = net.run(cfg.inject_clocks + WINDOW)
    assert res.deadlock_since is not None and res.deadlock_since < cfg.inject_clocks
    assert deadlocked(net, cfg.inject_clocks, net.t)
    # nothing moves, so nothing expires: the TTL does not break the deadlock
    assert sum(res.expired) == 0 and res.drops_lossless == 0
    assert conserved(net)
    assert all(sw.held_cells() > 0 for sw in net.sw)
    # the progress checker fails on this run (it catches a deadlock)
    with pytest.raises(DeadlockError):
        check_progress(res.moves(), cfg.inject_clocks, net.t, WINDOW // 2, res.drained_at)


def test_light_load_circulates_and_expires_without_deadlock():
    """Negative of the deadlock check: a few frames circulate until their TTL expires, the
    ring never deadlocks and drains, so the check that expects no progress fails here."""
    cfg = LoopConfig(inject_limit=4)
    net, res = run_until_drained(cfg, 40_000)
    assert res.deadlock_since is None
    assert res.drained_at is not None
    assert sum(res.expired) == 4 and res.drops_lossless == 0
    # every frame made exactly ttl ring hops: 4 * ttl data frames on ring links
    assert len(res.ring_tx) == 4 * cfg.ttl
    # and left on the host of the switch ttl hops after the injecting one
    assert res.expired[(cfg.inject_switch + cfg.ttl) % cfg.switches] == 4
    assert not deadlocked(net, 0, res.drained_at)
    check_progress(res.moves(), 0, net.t, 1000, res.drained_at)


@pytest.mark.parametrize("action", [FORWARD, DROP])
@pytest.mark.parametrize("detect", [500, 1000])
def test_watchdog_detects_after_detect_time_and_ring_drains(action, detect):
    wd = WatchdogConfig(detect_time=detect, restore_time=3 * detect, action=action)
    cfg = LoopConfig(watchdog=wd)
    net, res = run_until_drained(cfg, 60_000)
    # the ring deadlocked first, then the watchdogs of the ring egress ports detected it
    assert res.deadlock_since is not None
    assert res.storms, "no storm detected"
    for e in res.storms:
        assert e.latency == detect, e
        assert (e.port, e.prio) == (PORT_NEXT, cfg.prio), e
        assert e.cond_start >= res.deadlock_since - 2 * cfg.inject_clocks
    first = min(e.detected for e in res.storms)
    # the ring stalled at most the detection time (plus the frames in flight) before recovery
    assert first - res.deadlock_since <= detect
    # drained: every buffer empty, every frame accounted for
    assert res.drained_at is not None, net.state()
    assert conserved(net)
    assert all(sw.held_cells() == 0 for sw in net.sw)
    if action == DROP:
        assert res.wd_discarded > 0
    else:
        assert res.wd_discarded == 0 and sum(res.expired) > 0
    # progress from the end of the injection until drained, in windows of 2 * detect
    check_progress(res.moves(), cfg.inject_clocks, net.t, 2 * detect, res.drained_at)
    # after the restoration time without PFC, every watchdog is back to IDLE
    net.run(4 * detect)
    assert all(w.states() == [IDLE] * 8 for sw in net.sw for w in sw.wd)
    assert len(res.restores) == len(res.storms)
    # the deadlock check fails on this run
    assert not deadlocked(net, cfg.inject_clocks, net.t)


def test_watchdog_disabled_does_not_recover():
    """cfg_enable = 0: the watchdog is in the path but never acts; the ring stays deadlocked."""
    cfg = LoopConfig(watchdog=WatchdogConfig(enable=False, detect_time=500))
    net = LoopNetwork(cfg)
    net.run(cfg.inject_clocks + WINDOW)
    assert not net.res.storms
    assert deadlocked(net, cfg.inject_clocks, net.t)


@pytest.mark.parametrize("switches", [2, 3])
def test_prevention_never_deadlocks(switches):
    cfg = LoopConfig(switches=switches, prevention=True)
    net, res = run_until_drained(cfg, 60_000)
    assert res.deadlock_since is None
    assert res.drained_at is not None
    assert res.pfc_frames > 0 or res.remapped == res.injected
    # every looping frame was moved to the lossy alternate priority at its first ring hop
    assert res.remapped == res.injected
    assert res.drops_lossless == 0
    assert conserved(net)
    check_progress(res.moves(), 0, net.t, 1000, res.drained_at)
    assert not deadlocked(net, cfg.inject_clocks, net.t)


def test_prevention_rule():
    pc = loop_prevention(LoopConfig(prevention=True))
    assert high_risk(pc, PORT_PREV, PORT_NEXT, 3) and pc.alt_prio[3] == 1  # in and out of group 1
    assert not high_risk(pc, PORT_HOST, PORT_NEXT, 3)                     # host port: no group
    assert not high_risk(pc, PORT_PREV, PORT_HOST, 3)
    assert not high_risk(pc, PORT_PREV, PORT_NEXT, 1)                     # not protected
    assert not high_risk(loop_prevention(LoopConfig(prevention=True, groups=(1, 2, 0))),
                         PORT_PREV, PORT_NEXT, 3)                         # different groups
    assert loop_prevention(LoopConfig()) is None


def test_prevention_without_groups_still_deadlocks():
    """Negative of prevention: with no port group configured nothing is remapped."""
    cfg = LoopConfig(prevention=True, groups=(0, 0, 0))
    net = LoopNetwork(cfg)
    net.run(cfg.inject_clocks + WINDOW)
    assert net.res.remapped == 0
    assert deadlocked(net, cfg.inject_clocks, net.t)


def test_progress_checker():
    check_progress([10, 20, 30], 0, 40, 15)
    with pytest.raises(DeadlockError, match="from clock 30 to 60"):
        check_progress([10, 20, 30], 0, 60, 15)
    check_progress([10, 20, 30], 0, 60, 15, drained_at=35)
    with pytest.raises(DeadlockError, match="from clock 0 to 100"):
        check_progress([], 0, 100, 50)
