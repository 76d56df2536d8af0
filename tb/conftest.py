"""pytest glue: simulator selection, versions in the header, tb/ importable, the longest items
first, and the pyuvm system suite's per-test summaries and merged coverage report at the end."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import harness  # noqa: E402


def pytest_report_header(config):
    harness.setup_env()
    v = harness.simulator_versions()
    return [f"pfcmmu SIM={harness.sim_name()}",
            f"icarus: {v['icarus']}", f"verilator: {v['verilator']}"]


# Rough Icarus wall times (s) of the longest items (cocotb's time, two workers, 2026-11-26: the
# system tests from the run of 7c442e1 in docs/ci_time.md, the others from the clean-clone
# .ci/run of b68ac02, p8_c208 and the loop's watchdog from single runs of 2026-11-27 after
# read_many and the loop's half times, IncastTest and switch_core's directed[64] / edges[8]
# from the Icarus leg of 2026-12-07 (shared cores); a key that names no item is caught by
# tb/common/test_item_lists.py):
# the scheduler starts the longest first, so
# no long item starts last and leaves one worker running alone (with xdist --maxschedchunk 1,
# see the Makefile).  Only the order depends on them; an item not listed keeps its collection
# order after these.
LONG_ITEMS = {
    "test_system[MixedLossyTest]": 765, "test_mmu_core.py::test_mmu_core[p8_c208]": 385,
    "test_system[RandomTest]": 541, "test_system[EgressPauseTest]": 514,
    "test_system[WarmupTest]": 500, "test_system[SoakTest]": 458,
    "test_system[IncastUndersizedTest]": 347,
    "test_loop.py::test_loop_recovers_with_watchdog": 310,
    "test_fpga_core.py::test_fpga_core_selftest[4-256-672-0]": 281,
    "test_system[IncastTest]": 714,
    "test_switch_core.py::test_directed[64]": 230, "test_switch_core.py::test_edges[8]": 149,
    "test_mmu_core.py::test_mmu_core[p4_c256]": 253,
    "test_mmu_core.py::test_mmu_core_small_and_large[32]": 243,
    "test_loop.py::test_loop_no_deadlock_with_prevention": 188,
    "test_switch_core.py::test_watchdog_storm[64]": 173,
    "test_switch_core.py::test_watchdog_storm[8]": 170,
    "test_switch_core.py::test_directed[8]": 161,
}


# make test's Icarus leg (ICARUS_CI=1, set by the Makefile) leaves these items to Verilator,
# which runs them in the same make test (at full length); make SIM=icarus, make system
# SIM=icarus and make nightly run them on Icarus.  Each is a variant of something the Icarus
# leg still runs.  Measured on Icarus (docs/ci_time.md): the six system tests 3,125 s, the
# others 1,285 s, where .ci/run had reached 57 min; the eight added on 2026-12-07 2,389 s
# (shared cores), where it had reached 64 min in CI.
_SYS = "the pyuvm suite runs on Icarus in make SIM=icarus and make nightly; "
ICARUS_CI_VERILATOR_ONLY = {
    "test_system[RandomTest]": _SYS + "random traffic",
    "test_system[SoakTest]": _SYS + "RandomTest's length at TB_SCALE 0.1",
    "test_system[WarmupTest]": _SYS + "Dynamic Threshold warm-up",
    "test_system[EgressPauseTest]": _SYS + "PFC received: tb/switch_core test_pfc",
    "test_system[MixedLossyTest]": _SYS + "lossy beside lossless: test_pfc congestion_pfc",
    "test_system[IncastUndersizedTest]": _SYS + "the scoreboard's negative case",
    "test_system_reg_write_caught": _SYS + "the register model's negative (IncastTest)",
    "test_system_switch_reg_write_caught": _SYS + "the switch register model's negative "
                                           "(IncastTest)",
    "test_system[IncastDshTest]": _SYS + "IncastTest under headroom policy dsh: Icarus "
                                  "runs dsh's fault build in tb/mmu_core",
    "test_mmu_core_small_and_large[32]": "32 ports: Icarus runs the core at 2",
    "test_mmu_core.py::test_mmu_core[p8_c208]": "8 ports, 12-bit counters: Icarus runs the "
                                                "core at 2 ports",
    "test_fpga_core_selftest[2-128-384-1]": "the Colorlight i5 board: Icarus runs fpga_core "
                                            "in its boot check; COMPACT runs in tb/mmu_core",
    "test_fpga_core_undersized_headroom_fails": "the board self-test's negative case",
    "test_fpga_core_uart_check_catches_wrong_poll": "the UART line check's negative (its own "
                                                     "fpga_core build and a run to a line "
                                                     "with drops)",
    "test_mmu_csr_sonic[arista_7050qx32]": "Icarus loads one SONiC image (mellanox_sn2700_shp, "
                                           "the .hex reader); the same code path",
    "test_mmu_csr_sonic[broadcom_td2_static]": "Icarus loads one SONiC image "
                                               "(mellanox_sn2700_shp); the same code path",
    "test_mmu_csr_sonic_address_fault_is_caught": "the SONiC image's negative: Icarus runs "
                                                  "test_mmu_csr_address_fault_is_caught",
    "test_loop_deadlocks_without_watchdog": "the loop (two switch_cores) runs on Verilator "
                                           "only in make test",
    "test_loop_recovers_with_watchdog": "the loop runs on Verilator only in make test (275 s "
                                        "on Icarus); the watchdog too (make SIM=icarus "
                                        "runs tb/switch_core test_watchdog_storm)",
    "test_mmu_core_compact_left_out": "the i5 build's admission core without the PG / queue "
                                      "watermarks and event counters: Icarus runs the "
                                      "default one",
    "test_mmu_core_dsh_compact": "dsh on the i5 build's decision stage: Icarus runs dsh's "
                                 "fault build on the default one",
    "test_mmu_core_dsh[p8_c208]": "dsh at 8 ports, 12-bit counters: Icarus runs dsh's "
                                  "fault build",
    "test_switch_core.py::test_benchmark[64]": "a benchmark counts clocks: Verilator's figure "
                                               "is the same",
    "test_switch_core.py::test_benchmark[8]": "a benchmark counts clocks: Verilator's figure "
                                              "is the same",
    "test_switch_core.py::test_port_counters_left_out": "the i5 build's left-out counters: "
                                                        "Icarus runs the default build "
                                                        "in test_edges[8]",
    # (2026-12-07: the Icarus leg had reached 37 min of item time on 2 workers, .ci/run 64 min
    # in CI; these were its longest items after IncastTest, docs/ci_time.md)
    "test_fpga_core_selftest[4-256-672-0]": "the ULX3S board self-test (717 s on Icarus): "
                                            "Icarus builds and runs fpga_core in "
                                            "test_fpga_core_boot_check_catches_altered_image",
    "test_switch_core.py::test_watchdog_storm[64]": "the PFC watchdog's storm (502 s on "
                                                    "Icarus); the watchdog's RTL is the same "
                                                    "at both widths",
    "test_mmu_core.py::test_mmu_core[p4_c256]": "the core's case list at 4 ports (553 s on "
                                                "Icarus): Icarus runs the core at 2 ports "
                                                "(test_mmu_core_small_and_large[2]) and its "
                                                "fault builds' cases",
    "test_mmu_core_dsh[p4_c256]": "dsh's cases (126 s on Icarus): Icarus runs dsh's fault "
                                  "build (test_mmu_core_dsh_fault_is_caught)",
    "test_switch_core.py::test_pfc": "PFC through the switch (143 s on Icarus): Icarus runs "
                                     "tb/pfc_rx, tb/pfc_tx and the switch's link pause in "
                                     "test_edges[8]",
    "test_switch_core.py::test_random": "random traffic through the switch (135 s on Icarus): "
                                        "Icarus runs the switch in test_edges[8] and the "
                                        "free-list wrap",
    "test_switch_core.py::test_prevention[64]": "the prevention remap (114 s on Icarus): "
                                                "Icarus runs test_prevention_fault on the "
                                                "same build's RTL",
    "test_switch_core.py::test_edges[64]": "the edge cases at DATA_WIDTH 64 (99 s on Icarus): "
                                           "Icarus runs them at DATA_WIDTH 8",
    # (the same day, after a clean-clone .ci/run of 92b493c took 50 min: Icarus 14, Verilator 24)
    "test_system[IncastTest]": _SYS + "IncastTest, 483 s on Icarus at TB_SCALE 0.1",
    "test_switch_core.py::test_directed[64]": "the switch's directed cases (233 s on Icarus): "
                                              "Icarus runs the switch in test_edges[8], "
                                              "test_free_list_wrap[384-0] and its negatives",
}

# make test's Verilator leg (VERILATOR_CI=1, set by the Makefile) leaves these fault builds
# (negative tests: a FAULT_INJECT build the checkers must catch) to the Icarus leg of the same
# make test: the checkers are the same Python on both simulators, and a Verilator build is
# about half a minute of C++ each (docs/ci_time.md); make SIM=verilator and make nightly run
# them on Verilator.
VERILATOR_CI_ICARUS_ONLY = {
    "test_mmu_core_fault_inject_is_caught": "the admission scoreboard's negative",
    "test_mmu_core_inflight_narrow_is_caught": "the in-flight charge width's negative",
    "test_mmu_core_cfg_check_fault_is_caught": "the configuration checker's negative",
    "test_mmu_core_reset_fault_is_caught": "the one-clock reset's negative",
    "test_mmu_core_dsh_fault_is_caught": "the dsh port limit's negative",
    "test_switch_core.py::test_mmu_fault": "the switch-level admission predictor's negative",
    "test_switch_core.py::test_prevention_fault": "the prevention scoreboard's negative",
    "test_fpga_core_boot_check_catches_altered_image": "the board boot check's negative (its "
                                                        "own fpga_core build, 1,700 clocks)",
    "test_switch_core.py::test_free_list_wrap[384-0]": "the free list's wrap at 384 cells (a "
                                                       "75 s build on Verilator)",
}

# make test leaves these to make SIM=verilator, make SIM=icarus and make nightly on both
# legs: a variant whose build (one to two and a half minutes of C++ on Verilator, several
# minutes of simulation on Icarus) tests RTL that another item of make test runs (2026-12-07:
# the clean-clone .ci/run of 92b493c took 50 min; Verilator item seconds in the reasons).
MAKE_TEST_LEAVES_OUT = {
    "test_switch_core.py::test_directed[8]": "the directed cases at DATA_WIDTH 8 (55 s): the "
                                             "8-bit datapath runs in test_edges[8]",
    "test_switch_core.py::test_prevention[8]": "the prevention remap at DATA_WIDTH 8 (91 s): "
                                              "Verilator runs it at 64",
    "test_switch_core.py::test_watchdog_storm[8]": "the watchdog storm at DATA_WIDTH 8 (82 s): "
                                                   "Verilator runs it at 64",
    "test_mmu_core_compact": "the COMPACT decision stage with every counter (45 s): the i5's "
                             "build (COMPACT without them) runs in "
                             "test_mmu_core_compact_left_out",
    "test_loop_no_deadlock_with_prevention": "the loop with prevention (146 s): the prevention "
                                             "remap runs in tb/switch_core test_prevention[64]",
    "test_switch_core.py::test_free_list_wrap[672-0]": "the free list's wrap at 672 cells (78 "
                                                       "s): Icarus runs it at 384, Verilator "
                                                       "the 672-cell fault build",
}


def unmatched(keys, nodeids) -> list[str]:
    """The keys (node-id endings of LONG_ITEMS / ICARUS_CI_VERILATOR_ONLY /
    VERILATOR_CI_ICARUS_ONLY / MAKE_TEST_LEAVES_OUT) that end no node id: a renamed test or parameter would otherwise quietly drop out of the lists."""
    return [k for k in keys if not any(n.endswith(k) for n in nodeids)]


def list_problems(lists, nodeids) -> list[str]:
    """What is wrong with the skip lists (ICARUS_CI_VERILATOR_ONLY, VERILATOR_CI_ICARUS_ONLY,
    MAKE_TEST_LEAVES_OUT) against the collected node ids: a key that names no item, a key that
    names more than one (it would skip more than its reason says), an item named in two lists
    (left by both legs through the first two, or counted twice)."""
    problems = [f"names no item: {k}" for t in lists for k in unmatched(t, nodeids)]
    for t in lists:
        for k in t:
            n = sum(i.endswith(k) for i in nodeids)
            if n > 1:
                problems.append(f"names {n} items: {k}")
    seen: dict[str, int] = {}
    for li, t in enumerate(lists):
        for i in {i for k in t for i in nodeids if i.endswith(k)}:
            if i in seen:
                problems.append(f"in lists {seen[i]} and {li}: {i}")
            seen[i] = li
    return problems


def pytest_collection_modifyitems(session, config, items):
    """Longest items first (LONG_ITEMS), everything else in collection order, the system
    suite's coverage closure check last (it waits for the system tests); in make test's Icarus
    leg ICARUS_CI_VERILATOR_ONLY, in its Verilator leg VERILATOR_CI_ICARUS_ONLY skip with their
    reason."""
    import os

    import pytest

    # (flag, simulator of the leg, the items it leaves, the simulator that runs them)
    for flag, sim, table, other in (("ICARUS_CI", "icarus", ICARUS_CI_VERILATOR_ONLY, "Verilator"),
                                    ("VERILATOR_CI", "verilator", VERILATOR_CI_ICARUS_ONLY,
                                     "Icarus")):
        if os.environ.get(flag) != "1" or harness.sim_name() != sim:
            continue
        for it in items:
            for k, why in table.items():
                if it.nodeid.endswith(k):
                    it.add_marker(pytest.mark.skip(reason=f"make test: on {other} only ({why})"))
            for k, why in MAKE_TEST_LEAVES_OUT.items():
                if it.nodeid.endswith(k):
                    it.add_marker(pytest.mark.skip(reason=f"make test leaves it out ({why})"))

    def key(it):
        if it.originalname == "test_coverage_closure":
            return (2, 0)
        for k, t in LONG_ITEMS.items():
            if it.nodeid.endswith(k):
                return (0, -t)
        return (1, 0)

    items.sort(key=key)  # stable: everything else keeps its collection order


# The pyuvm system suite's summaries on the console (tb/system/test_system.py puts each test's
# SUMMARY line, its cocotb-coverage file and the closure report into the test report's
# user_properties, which pytest-xdist carries from the workers to this process).
_system_reports: list = []


def pytest_runtest_logreport(report):
    if report.when == "call" and any(k.startswith("system_") for k, _ in report.user_properties):
        _system_reports.append(report)


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")


def _system_coverage() -> str | None:
    """Merge this session's cocotb-coverage files (one per system test) into
    sim_build/<sim>/system-coverage.xml; returns a line that says where and how much."""
    files = [v for r in _system_reports for k, v in r.user_properties
             if k == "system_coverage_xml" and Path(v).exists()]
    if not files:
        return None
    from uvm.cov_export import merge_xml, read_totals

    sim = next(v for r in _system_reports for k, v in r.user_properties if k == "system_sim")
    out = harness.SIM_BUILD / sim / "system-coverage.xml"
    merge_xml([Path(f) for f in files], out)
    got, size, pct = read_totals(out)
    rel = out.relative_to(harness.ROOT)
    return (f"functional coverage of this run: {got}/{size} bins ({pct:.1f} %) over "
            f"{len(files)} test(s); cocotb-coverage XML: {rel} (per test: "
            f"{Path(files[0]).parent.relative_to(harness.ROOT)}/coverage_<Test>.xml)")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _is_worker(config) or not _system_reports:
        return
    tr = terminalreporter
    tr.section("pyuvm system suite")
    closure = []
    for r in sorted(_system_reports, key=lambda r: r.nodeid):
        props = dict(r.user_properties)
        note = f" [{props['system_note']}]" if "system_note" in props else ""
        for k, v in r.user_properties:
            if k == "system_summary":
                # the bins a single test misses are no news (closure is the suite's): the
                # sim.log keeps them
                tr.write_line(f"{r.outcome.upper()}{note} {v.split('; missing: ')[0]}")
            elif k == "system_closure":
                closure.append(v)
        if r.failed and not any(k == "system_summary" for k, _ in r.user_properties):
            tr.write_line(f"FAILED {r.nodeid}: no SUMMARY line (see its sim.log)")
    for c in closure:
        tr.write_line(f"closure over the suite: {c}")
    try:
        line = _system_coverage()
    except Exception as e:  # the report must not hide the test results
        line = f"functional coverage: merging the cocotb-coverage files failed: {e}"
    if line:
        tr.write_line(line)
    logs = sorted({Path(harness.SIM_BUILD, v) for r in _system_reports
                   for k, v in r.user_properties if k == "system_sim"})
    for d in logs:
        tr.write_line(f"logs: {d.relative_to(harness.ROOT)}/system-<Test>{harness.build_tag()}/sim.log")
