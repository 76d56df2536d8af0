"""pytest runner for mmu_pipe (the line-rate admission core) and its multi-ported RAM."""

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
