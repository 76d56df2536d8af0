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


def test_loop_frame_checker_catches_a_bad_hop():
    """Negative of the expired-frame check: parse_ring_frame recomputes the IPv4 checksum with
    Scapy; a hop that decrements the TTL without updating the checksum (or corrupts it) is
    caught, a correct RFC 1624 update is not."""
    from loop.loop_tb import parse_ring_frame, ring_frame

    good = ring_frame(0, 7, 3, 5, 64)
    assert parse_ring_frame(good)[:5] == (0, 7, 3, 5, True)
    bad = bytearray(good)
    bad[26] -= 1                                   # TTL 5 -> 4, checksum untouched
    assert parse_ring_frame(bytes(bad))[3:5] == (4, False)
    # the incremental update (RFC 1624 eq. 3), as loop_router does it, gives a valid header
    hc = int.from_bytes(good[28:30], "big")
    m, m2 = (good[26] << 8) | good[27], ((good[26] - 1) << 8) | good[27]
    x = (~hc & 0xFFFF) + (~m & 0xFFFF) + m2
    x = (x & 0xFFFF) + (x >> 16)
    x = (x & 0xFFFF) + (x >> 16)
    bad[28:30] = (~x & 0xFFFF).to_bytes(2, "big")
    assert parse_ring_frame(bytes(bad))[3:5] == (4, True)


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
