"""pytest runner for mmu_pipe (the line-rate admission core) and its multi-ported RAM."""

import re
import subprocess

import pytest

import harness

SRC = ["mmu_mpram", "mmu_cfg_check", "mmu_pipe_carry", "mmu_pipe_cfg", "mmu_pipe_view",
       "mmu_pipe_decide", "mmu_pipe_commit", "mmu_pipe_eval", "mmu_pipe_status", "mmu_pipe"]

BUILDS = {
    "p4_c256": {"PORT_COUNT": 4, "CELL_BYTES": 256},
    "p8_c208": {"PORT_COUNT": 8, "CELL_BYTES": 208},
}


@pytest.mark.parametrize("build", list(BUILDS))
def test_mmu_pipe(build):
    harness.run("mmu_pipe", "mmu_pipe.mmu_pipe_cases", test_id=f"mmu_pipe-{build}",
                sources=harness.rtl_sources(SRC), parameters=BUILDS[build])


def test_mmu_pipe_fault_inject_is_caught():
    """FAULT_INJECT=1 turns "shared < T" into "shared <= T": the scoreboard must fail."""
    harness.run("mmu_pipe", "mmu_pipe.mmu_pipe_cases", test_id="mmu_pipe-fault",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "FAULT_INJECT": 1},
                testcase="random_pairs", extra_env={"RANDOM_CLOCKS": "4000"},
                expect_failed=1)


@pytest.mark.parametrize("ports", [2, 32])
def test_mmu_pipe_small_and_large(ports):
    """PORT_COUNT 2 (16 PGs: the tables read in one step) and 32 (256 PGs, block RAM): a random
    run (the one without outcome-coverage asserts: 3,000 clocks over 256 PGs need not reach
    every admission kind) and the bad inputs, every counter read back at the end."""
    harness.run("mmu_pipe", "mmu_pipe.mmu_pipe_cases", test_id=f"mmu_pipe-p{ports}",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": ports, "CELL_BYTES": 256},
                testcase=["random_pairs_shared_headroom", "bad_input_answers"],
                extra_env={"RANDOM_CLOCKS": "6000"})


def test_mmu_pipe_cfg_check_fault_is_caught():
    """CFG_FAULT_INJECT=1 checks Xon against the Xoff point with > instead of >=: the
    comparison of the flags with the model's must fail dir_config_flags."""
    harness.run("mmu_pipe", "mmu_pipe.mmu_pipe_cases", test_id="mmu_pipe-cfg-fault",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "CFG_FAULT_INJECT": 1},
                testcase="dir_config_flags", expect_failed=1)


def test_one_clock_reset_clears_admitted_amounts(tmp_path):
    """A one-clock rst with one admitted arrival at every stage of the pipeline (1 to 14 clocks
    after its request) leaves the total and every pool at 0 (formal/repro/mmu_pipe_rst1.v on
    Icarus).  Before the fix (commit stage's g_*9 not reset) a reset 9 clocks after the request
    left total 4, pool 4 and egress pool 4: formal/mmu_pipe.sby found it."""
    rtl = harness.ROOT / "rtl"
    vvp = tmp_path / "rst1.vvp"
    srcs = [str(p) for p in sorted(rtl.glob("mmu_pipe*.v"))]
    srcs += [str(rtl / "mmu_mpram.v"), str(rtl / "mmu_cfg_check.v")]
    subprocess.run(["iverilog", "-g2012", "-I", str(rtl), "-s", "rst1", "-o", str(vvp),
                    str(harness.ROOT / "formal" / "repro" / "mmu_pipe_rst1.v"), *srcs],
                   check=True)
    for gap in range(1, 15):
        out = subprocess.run(["vvp", "-n", str(vvp), f"+gap={gap}", "+rstlen=1"], check=True,
                             capture_output=True, text=True).stdout
        line = [ln for ln in out.splitlines() if ln.startswith("gap ")][-1]
        counts = [int(v) for v in re.findall(r"(?:total|pool\d|hpool|epool\d) (\d+)", line)]
        assert len(counts) == 6 and not any(counts), line
