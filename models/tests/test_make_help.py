"""`make help` lists every target of the Makefile and every option the Makefile reads; wrong
SIM / BOARD end in one line before anything runs.  Runs make (no simulator, no FPGA tool)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make not installed")


def make(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), *args],
                          capture_output=True, text=True, timeout=60)


def test_help_lists_every_target_and_option():
    text = (ROOT / "Makefile").read_text()
    phony = set(re.search(r"^\.PHONY:((?:.*\\\n)*.*)$", text, re.M).group(1)
                .replace("\\\n", " ").split())
    r = make("help")
    assert r.returncode == 0
    listed = {m.group(1) for m in re.finditer(r"^  ([a-z][a-z-]*) ", r.stdout, re.M)}
    assert phony - listed == set(), f"targets missing from make help: {phony - listed}"
    # every variable the Makefile or the harness takes from the command line
    for opt in ("SIM=", "TESTS=", "SEED=", "WAVES=", "JOBS=", "TB_SCALE=", "SYSTEM_TESTS=",
                "BOARD=", "SWEEP_JOBS=", "VENV="):
        assert f"  {opt}" in r.stdout, opt
    boards = sorted(p.parent.name for p in (ROOT / "syn").glob("*/Makefile"))
    assert f"boards: {' '.join(boards)}" in r.stdout


@pytest.mark.parametrize("args,words", [
    (["SIM=foo"], ["SIM=foo", "icarus", "verilator"]),
    (["system", "SIM=foo"], ["SIM=foo"]),
    (["synth", "BOARD=nosuchboard"], ["BOARD=nosuchboard", "ulx3s", "colorlight_i5"]),
])
def test_wrong_option_one_line(args, words):
    r = make(*args)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for w in words:
        assert w in lines[0]
    assert r.stdout == ""


def test_tests_matching_nothing_says_so(tmp_path):
    """TESTS that selects nothing: a line naming the pattern and no empty JUnit file (pytest's
    exit status 5 is kept).  On model-test: collecting tb/ would import the simulators' glue."""
    junit = ROOT / "sim_build" / "junit-model.xml"
    before = junit.read_bytes() if junit.exists() else None
    try:
        r = make("model-test", "TESTS=no_test_is_called_this")
        assert r.returncode != 0
        assert "TESTS='no_test_is_called_this' matches no test" in r.stderr
        assert not junit.exists()
    finally:
        if before is not None:
            junit.write_bytes(before)
