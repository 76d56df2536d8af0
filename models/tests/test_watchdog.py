"""PFC watchdog model (models/watchdog.py): detection / restoration timing, storm limit,
alert, and the comparison function catching a wrong model."""

from __future__ import annotations

import pytest

from models.watchdog import (ALERT, DISABLED, DROP, FORWARD, IDLE, STORM, Watchdog,
                             WatchdogConfig, compare, egress_fate)


def run_until(wd: Watchdog, k: int, state: int, limit: int = 10_000, **inputs) -> int:
    """Clocks of `step(**inputs)` until priority k is in `state`."""
    for n in range(1, limit + 1):
        wd.step(**inputs)
        if wd.prio[k].state == state:
            return n
    raise AssertionError("state not reached")


@pytest.mark.parametrize("detect", [1, 2, 37, 1000])
def test_detection_after_exactly_detect_time(detect):
    wd = Watchdog(WatchdogConfig(detect_time=detect, restore_time=50))
    assert run_until(wd, 3, STORM, pause_in=1 << 3, queue_busy=0xFF) == detect
    assert wd.prio[3].storms == 1
    assert wd.states() == [IDLE, IDLE, IDLE, STORM, IDLE, IDLE, IDLE, IDLE]
    assert wd.pause_out(0xFF) == 0xF7          # forward: PFC on 3 ignored
    assert wd.drop() == 0


def test_zero_times_act_as_one():
    wd = Watchdog(WatchdogConfig(detect_time=0, restore_time=0))
    assert run_until(wd, 0, STORM, pause_in=1, queue_busy=1) == 1
    assert run_until(wd, 0, IDLE, pause_in=1, queue_busy=1) == 1


def test_paused_but_empty_is_no_storm():
    wd = Watchdog(WatchdogConfig(detect_time=10))
    for _ in range(100):
        wd.step(pause_in=0xFF, queue_busy=0)
    assert wd.states() == [IDLE] * 8 and wd.prio[0].storms == 0


def test_xon_before_detect_time_restarts_count():
    wd = Watchdog(WatchdogConfig(detect_time=10))
    for _ in range(9):
        wd.step(pause_in=1, queue_busy=1)
    wd.step(pause_in=0, queue_busy=1)
    for _ in range(9):
        wd.step(pause_in=1, queue_busy=1)
    assert wd.prio[0].state == IDLE
    wd.step(pause_in=1, queue_busy=1)
    assert wd.prio[0].state == STORM


def test_restoration_and_pfc_extends_it():
    wd = Watchdog(WatchdogConfig(detect_time=5, restore_time=20))
    run_until(wd, 1, STORM, pause_in=2, queue_busy=2)
    for _ in range(15):
        wd.step(pause_in=2, queue_busy=2)
    wd.step(pause_in=2, queue_busy=2, rx_pfc=2)       # a refresh restarts the restoration
    assert run_until(wd, 1, IDLE, pause_in=2, queue_busy=2) == 20
    assert wd.prio[1].restores == 1
    # still paused and busy: a second storm is detected after the detection time
    assert run_until(wd, 1, STORM, pause_in=2, queue_busy=2) == 5
    assert wd.prio[1].storms == 2


def test_storm_limit_disables_until_reenable():
    wd = Watchdog(WatchdogConfig(detect_time=3, restore_time=4, storm_limit=2))
    run_until(wd, 0, STORM, pause_in=1, queue_busy=1)
    run_until(wd, 0, IDLE, pause_in=1, queue_busy=1)
    assert run_until(wd, 0, DISABLED, pause_in=1, queue_busy=1) == 3
    for _ in range(100):
        wd.step(pause_in=1, queue_busy=1, rx_pfc=1)
    assert wd.prio[0].state == DISABLED and wd.pause_out(1) == 0
    wd.step(pause_in=1, queue_busy=1, reenable=1)
    assert wd.prio[0].state == IDLE and wd.prio[0].recent == 0 and wd.pause_out(1) == 1
    assert run_until(wd, 0, STORM, pause_in=1, queue_busy=1) == 3   # count restarted


def test_alert_only_flags_and_drop_flags_drop():
    wd = Watchdog(WatchdogConfig(detect_time=4, action=ALERT))
    run_until(wd, 2, STORM, pause_in=4, queue_busy=4)
    assert wd.pause_out(4) == 4 and wd.drop() == 0
    wd = Watchdog(WatchdogConfig(detect_time=4, action=DROP))
    run_until(wd, 2, STORM, pause_in=4, queue_busy=4)
    assert wd.pause_out(4) == 0 and wd.drop() == 4


def test_disable_returns_to_idle_and_keeps_totals():
    wd = Watchdog(WatchdogConfig(detect_time=2))
    run_until(wd, 0, STORM, pause_in=1, queue_busy=1)
    wd.cfg.enable = False
    wd.step(pause_in=1, queue_busy=1)
    assert wd.prio[0].state == IDLE and wd.prio[0].storms == 1


class OffByOne(Watchdog):
    """A deliberately wrong model: detects one clock late."""

    def step(self, pause_in, queue_busy, rx_pfc=0, reenable=0):
        self.cfg.detect_time += 1
        try:
            super().step(pause_in, queue_busy, rx_pfc, reenable)
        finally:
            self.cfg.detect_time -= 1


def test_compare_catches_off_by_one_detection():
    good = Watchdog(WatchdogConfig(detect_time=7))
    bad = OffByOne(WatchdogConfig(detect_time=7))
    with pytest.raises(AssertionError, match="prio 0"):
        for clock in range(20):
            good.step(1, 1)
            bad.step(1, 1)
            compare(bad, good.states(), [p.storms for p in good.prio],
                    [p.restores for p in good.prio], clock)


def test_egress_fate_follows_state_action_and_queue_map():
    p2q = [0, 1, 2, 3, 4, 5, 5, 7]                  # priorities 5 and 6 share queue 5
    for action, fate in ((DROP, "discard"), (FORWARD, "forward"), (ALERT, "send"), (3, "forward")):
        wd = Watchdog(WatchdogConfig(detect_time=3, action=action))
        run_until(wd, 6, STORM, pause_in=1 << 6, queue_busy=1 << 6)
        assert egress_fate(wd, p2q, 5) == fate      # through priority 6's map
        assert all(egress_fate(wd, p2q, q) == "send" for q in range(8) if q != 5)
        assert wd.queue_drop(p2q) == (1 << 5 if action == DROP else 0)
        run_until(wd, 6, IDLE, pause_in=0, queue_busy=0, limit=300)
        assert egress_fate(wd, p2q, 5) == "send"    # restored: frames are sent again


def test_drop_wins_over_forward_on_a_shared_queue():
    wd = Watchdog(WatchdogConfig(detect_time=2, action=DROP))
    run_until(wd, 1, STORM, pause_in=2, queue_busy=2)
    assert wd.queue_drop([0, 0, 2, 3, 4, 5, 6, 7]) == 1 and wd.queue_forward([0] * 8) == 0
