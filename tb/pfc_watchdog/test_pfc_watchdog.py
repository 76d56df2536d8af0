"""pytest runner of the pfc_watchdog cocotb tests (tb/pfc_watchdog/pfc_watchdog_cases.py)."""

import harness


def test_pfc_watchdog():
    harness.run("pfc_watchdog", "pfc_watchdog.pfc_watchdog_cases", test_id="pfc_watchdog",
                sources=harness.rtl_sources(["pfc_watchdog"]))
