"""pytest runner of the loop tests (tb/loop/loop_cases.py): three switch_core instances in a
ring with a routing loop on a lossless priority (issue 9, docs/watchdog.md "Loop test")."""

import harness

HERE = harness.TB / "loop"


def _sources():
    return harness.rtl_sources() + [HERE / "loop_link.v", HERE / "loop_router.v",
                                    HERE / "loop_top.v"]


def _run(test_id, testcase, watchdog=0, prevent=0, switches=3):
    params = {"SWITCH_COUNT": switches, "CELL_BYTES": 96, "BUFFER_CELLS": 64, "LINK_DELAY": 4,
              "WATCHDOG_ENABLE": watchdog, "PREVENT_ENABLE": prevent}
    harness.run("loop_top", "loop.loop_cases", test_id=f"loop-{test_id}", sources=_sources(),
                parameters=params, testcase=testcase)


def test_loop_deadlocks_without_watchdog():
    _run("deadlock", "deadlocks_without_watchdog")


def test_loop_recovers_with_watchdog():
    _run("watchdog", ["recovers_with_watchdog_forward", "recovers_with_watchdog_drop",
                      "checkers_catch_wrong_models"], watchdog=1)


def test_loop_no_deadlock_with_prevention():
    _run("prevention", ["no_deadlock_with_prevention", "prevention_without_groups_deadlocks"],
         prevent=1)


def test_loop_frame_checker_catches_a_bad_hop():
    """Negative of the expired-frame check: parse_ring_frame recomputes the IPv4 checksum with
    Scapy; a hop that decrements the TTL without updating the checksum is caught, the
    RFC 1624 update (router_hop, as loop_router does it) is not; expected_expired predicts a
    different frame than a wrongly updated one."""
    from loop.loop_tb import expected_expired, loop_config, parse_ring_frame, ring_frame, router_hop

    good = ring_frame(0, 7, 3, 5, 64)
    assert parse_ring_frame(good)[:5] == (0, 7, 3, 5, True)
    bad = bytearray(good)
    bad[26] -= 1                                   # TTL 5 -> 4, checksum untouched
    assert parse_ring_frame(bytes(bad))[3:5] == (4, False)
    hop = router_hop(good)
    assert parse_ring_frame(hop)[3:5] == (4, True) and hop != bytes(bad)
    cfg = loop_config()
    host, data = expected_expired(cfg, 0, 7)
    assert host == cfg.ttl % 3 and parse_ring_frame(data)[2:5] == (cfg.prio, 0, True)


def test_loop_top_ties_every_switch_core_input():
    """loop_top.v connects every input port of switch_core by name (a port added to
    switch_core and left unconnected would float in the loop build)."""
    import re

    core = (harness.ROOT / "rtl" / "switch_core.v").read_text()
    head = core[core.index("module switch_core"):core.index("\n);", core.index(") ("))]
    inputs = re.findall(r"^\s*input\s+wire\s+(?:\[[^\]]+\])?\s*(\w+)", head, re.M)
    top = (HERE / "loop_top.v").read_text()
    inst = top[top.index("switch_core #("):]
    missing = [p for p in inputs if not re.search(rf"\.{p}\s*\(", inst)]
    assert inputs and not missing, f"switch_core inputs not connected in loop_top.v: {missing}"
