"""pytest entry of the system regression: one pytest item per pyuvm test, each its own
simulator run of ONE shared build of switch_tb_top (switch_core) per simulator (built under a
file lock, so xdist workers that start together build it once), and a last item that asserts
coverage closure over the whole suite.

* Each traffic test writes the coverage it hit to ``sim_build/<sim>/system-cov/<run>/
  coverage_<Test>.json`` (base_test extract_phase) and a ``done_<Test>`` marker, pass or fail;
  ``<run>`` is the pytest session (xdist's PYTEST_XDIST_TESTRUNUID, shared by its workers).
* ``test_coverage_closure`` waits (bounded) for the markers of every traffic test of this
  session, merges their files and asserts that every bin of cov_db.required_bins is hit; it
  is ordered last by tb/conftest.py (which starts the longest items first), so under xdist
  it waits at most for the traffic tests still running.  test_uvm_units has its negative case.
* Each test's SUMMARY line (from its sim.log) and its cocotb-coverage XML go into the item's
  user_properties: tb/conftest.py prints the lines in a "pyuvm system suite" section at the
  end of the session and merges the XML files into sim_build/<sim>/system-coverage.xml.
* SYSTEM_TESTS="IncastTest EgressPauseTest" runs a subset (the others skip; closure only runs
  when every traffic test is selected, or when SYSTEM_TESTS names CoverageClosureTest);
  make test's Icarus leg runs IncastTest only (tb/conftest.py ICARUS_CI_VERILATOR_ONLY);
  TESTS=pattern (pytest -k) works as everywhere; SEED=n replays; SOAK=1 makes the soak-style
  tests ten times longer (nightly).
"""

import os
import re
import time
import uuid
from pathlib import Path

import pytest

import harness

HERE = Path(__file__).resolve().parent
# the pyuvm traffic tests (tb/conftest.py starts the long items of a run first)
TRAFFIC = ["SoakTest", "RandomTest", "WarmupTest", "EgressPauseTest", "MixedLossyTest",
           "IncastTest", "IncastUndersizedTest", "IncastDshTest"]
# the negative case among them (pyuvm.test(expect_fail=True) in system_cases.py): its pytest
# item passes when the scoreboard fails it; the console summary says so
NEGATIVE = {"IncastUndersizedTest": "negative case, passes when the scoreboard reports its "
                                    "lossless drops"}
CLOSURE = "CoverageClosureTest"
ALL = TRAFFIC + [CLOSURE]
_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex[:12]


def _summaries(log: Path, since: float = 0.0) -> list[str]:
    """The SUMMARY lines of ``log``, if it was written at ``since`` or later (a run that
    stopped before its simulator started leaves the previous run's log)."""
    if not log.exists() or log.stat().st_mtime < since:
        return []
    return [ln.split("SUMMARY", 1)[1].strip() for ln in log.read_text().splitlines()
            if "SUMMARY" in ln]


def sources() -> list[Path]:
    """rtl/rtl.f, then the tb-only wrapper and its port models (tb_axis_port.v)."""
    return harness.rtl_sources() + [HERE / "tb_axis_port.v", HERE / "switch_tb_top.v"]


def build_args(sim: str) -> list[str]:
    """Verilator: only the wrapper's signals public (public.vlt), not all of switch_core."""
    return ["--no-public-flat-rw", str(HERE / "public.vlt")] if sim == "verilator" else []


def selected() -> list[str] | None:
    sel = os.environ.get("SYSTEM_TESTS")
    return [t for t in re.split(r"[,\s]+", sel) if t] if sel else None


def cov_dir(sim: str | None = None) -> Path:
    return harness.SIM_BUILD / (sim or harness.sim_name()) / "system-cov" / _RUN


def run_system(name: str, sim: str | None = None, extra_env: dict | None = None,
               test_id: str | None = None, expect_failed: int = 0) -> Path:
    """One pyuvm test in its own simulator run of the shared build; returns its folder."""
    sim = sim or harness.sim_name()
    tid = test_id or f"system-{name}"
    env = {"COV_DIR": str(cov_dir(sim))}
    env.update(extra_env or {})
    cov_dir(sim).mkdir(parents=True, exist_ok=True)
    harness.run("switch_tb_top", "system.system_cases", test_id=tid, build_id="system",
                sources=sources(), testcase=[name], sim=sim, extra_env=env,
                build_args=build_args(sim), expect_failed=expect_failed)
    return harness.run_dir(tid, sim)


@pytest.mark.parametrize("name", TRAFFIC)
def test_system(name, request):
    sel = selected()
    if sel is not None and name not in sel:
        pytest.skip(f"SYSTEM_TESTS={','.join(sel)}")
    sim = harness.sim_name()
    t0 = time.time()
    try:
        run_system(name, sim)
    finally:
        d = cov_dir(sim)
        d.mkdir(parents=True, exist_ok=True)
        (d / f"done_{name}").write_text("")
        # the summary line and the cocotb-coverage file go to the report (JUnit properties,
        # and tb/conftest.py prints them and merges the files at the end of the session)
        props = request.node.user_properties
        props.append(("system_sim", sim))
        if name in NEGATIVE:
            props.append(("system_note", NEGATIVE[name]))
        for s in _summaries(harness.run_dir(f"system-{name}", sim) / "sim.log", t0):
            print("SUMMARY", s)
            props.append(("system_summary", s))
        xml = d / f"coverage_{name}.xml"
        if xml.exists():
            props.append(("system_coverage_xml", str(xml)))


# the negative of the register model's read-back: IncastTest with one configuration register
# written wrong through the register model after the image (base_test, SYSTEM_REG_ALTER)
REG_ALTER_TEST = "IncastTest"
REG_ALTER = "pg[3].xon_offset"  # port 0's lossless PG 3; the test's value with bit 0 flipped


def _run_reg_alter(alter: str, suffix: str, tmp_path) -> str:
    """REG_ALTER_TEST with register ``alter`` written wrong (SYSTEM_REG_ALTER): the run must
    fail; its log."""
    sel = selected()
    if sel is not None and REG_ALTER_TEST not in sel:
        pytest.skip(f"SYSTEM_TESTS={','.join(sel)} without {REG_ALTER_TEST}")
    sim = harness.sim_name()
    tid = f"system-{REG_ALTER_TEST}-{suffix}"
    # own coverage folder: this run's coverage must not stand for IncastTest's
    run_system(REG_ALTER_TEST, sim, extra_env={"SYSTEM_REG_ALTER": alter,
                                               "COV_DIR": str(tmp_path)},
               test_id=tid, expect_failed=1)
    return (harness.run_dir(tid, sim) / "sim.log").read_text()


def test_system_reg_write_caught(tmp_path):
    """A wrong register write is caught: the run must fail, and its log must show both
    checks naming the register, the predictor (a configuration write the image does not
    have) and the end-of-test read-back through the register model."""
    log = _run_reg_alter(REG_ALTER, "reg-alter", tmp_path)
    assert f"register mmu_regs.{REG_ALTER} (" in log and "read through the register model" \
        in log, f"the register read-back did not name {REG_ALTER}"
    assert "the image has" in log and "configuration write" in log, \
        "the predictor did not report the configuration write"


# the negative of the switch registers' read-back: IncastTest with one switch configuration
# register written wrong through the switch register model after the switch image.  Port 1's
# watchdog storm limit (watchdog off: the wrong value changes nothing the scoreboard sees, so
# only the register read-back can catch it)
SW_REG_ALTER = "sw_port[1].wd_storm_limit"


def test_system_switch_reg_write_caught(tmp_path):
    """A wrong switch register write is caught by the register read-back alone: the run must
    fail, its log must name the register (read through the switch register model against
    the SwitchConfig's value) and count exactly one difference."""
    log = _run_reg_alter(SW_REG_ALTER, "switch-reg-alter", tmp_path)
    assert f"register switch_regs.{SW_REG_ALTER} (0x24130) = 0x1 read through the register " \
        "model, the model has 0x0" in log, f"the register read-back did not name {SW_REG_ALTER}"
    assert "(differences 1)" in log, "the wrong write should be the run's only register difference"


def closure_report(cov_files: dict[str, Path]) -> tuple[str, list[str]]:
    """Merge the coverage files (test name -> JSON) and return (report, missing bins)."""
    from uvm.cov_db import CovDb

    hits = CovDb.load_merged(cov_files.values())
    return CovDb.report(hits), CovDb.missing(hits)


def check_closure(cov_files: dict[str, Path]) -> str:
    report, missing = closure_report(cov_files)
    assert not missing, f"coverage not closed over {sorted(cov_files)}: missing {missing}"
    return report


# the wait for the other items: every traffic test's own time limit (system_cases) together
CLOSURE_WAIT_S = 4 * 3600


def test_coverage_closure(request):
    sel = selected()
    if sel is not None and CLOSURE not in sel:
        pytest.skip(f"SYSTEM_TESTS={','.join(sel)} without {CLOSURE}")
    session_names = {it.callspec.params.get("name") for it in request.session.items
                     if it.originalname == "test_system" and hasattr(it, "callspec")}
    want = [t for t in TRAFFIC if t in session_names and (sel is None or t in sel)]
    if sel is None and set(want) != set(TRAFFIC):
        pytest.skip(f"closure needs the whole suite; this session runs {want}")
    if harness.tb_scale() < 1:
        pytest.skip(f"TB_SCALE={harness.tb_scale()}: the suite's traffic is cut short, closure "
                    "is asserted at full length (Verilator in CI, TB_SCALE=1 / make nightly)")
    d = cov_dir()
    deadline = time.monotonic() + CLOSURE_WAIT_S
    while True:
        missing = [t for t in want if not (d / f"done_{t}").exists()]
        if not missing:
            break
        if time.monotonic() > deadline:
            pytest.fail(f"closure waited {CLOSURE_WAIT_S} s for the traffic tests {missing} "
                        f"of this session (no done marker in {d})")
        time.sleep(2)
    files = {t: d / f"coverage_{t}.json" for t in want}
    absent = [t for t, f in files.items() if not f.exists()]
    assert not absent, f"no coverage file from {absent} in {d} (the test did not get to " \
                       "its extract phase)"
    report = check_closure(files)
    request.node.user_properties.append(("system_closure", report))
    print(report)
