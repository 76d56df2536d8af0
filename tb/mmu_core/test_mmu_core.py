"""pytest runner for mmu_core (the line-rate admission core) and its multi-ported RAM, and a
pure-Python check of the reciprocal it computes cells with."""

import math
import re
import subprocess

import pytest

import harness

SRC = ["mmu_mpram", "mmu_cfg_check", "mmu_core_carry", "mmu_core_cfg", "mmu_core_state",
       "mmu_core_pick", "mmu_core_view", "mmu_core_decide", "mmu_core_release",
       "mmu_core_commit", "mmu_core_eval", "mmu_core_status", "mmu_core_dsh", "mmu_core"]

BUILDS = {
    "p4_c256": {"PORT_COUNT": 4, "CELL_BYTES": 256},
    # counters narrower than the default 16 bits, as fpga_core builds them ($clog2 of its buffer)
    "p8_c208": {"PORT_COUNT": 8, "CELL_BYTES": 208, "CELL_W": 12},
}


@pytest.mark.parametrize("build", list(BUILDS))
def test_mmu_core(build):
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id=f"mmu_core-{build}",
                sources=harness.rtl_sources(SRC), parameters=BUILDS[build])


@pytest.mark.parametrize("build", list(BUILDS))
def test_mmu_core_dsh(build):
    """The headroom policy dsh (tb/mmu_core/dsh_cases.py): random traffic, reconfiguration
    under traffic with the policy and the port limits rewritten, the directed port-pause case
    and the burst absorbed without PFC under static and dsh; the build of test_mmu_core."""
    harness.run("mmu_core", "mmu_core.dsh_cases", test_id=f"mmu_core-dsh-{build}",
                build_id=f"mmu_core-{build}", sources=harness.rtl_sources(SRC),
                parameters=BUILDS[build])


def test_mmu_core_dsh_compact():
    """dsh on the COMPACT decision stage (one candidate compared, the port's headroom check
    in the same function): the random run and the directed port-pause case; the build of
    test_mmu_core_compact."""
    harness.run("mmu_core", "mmu_core.dsh_cases", test_id="mmu_core-dsh-compact",
                build_id="mmu_core-compact", sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "COMPACT": 1},
                testcase=["random_pairs_dsh", "dir_dsh_port_pause"])


def test_mmu_core_dsh_fault_is_caught():
    """FAULT_INJECT=3 reads every port's headroom limit one cell larger: the directed dsh case
    admits a frame beyond the port's headroom and the comparison with the model fails."""
    harness.run("mmu_core", "mmu_core.dsh_cases", test_id="mmu_core-dsh-fault",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "FAULT_INJECT": 3},
                testcase="dir_dsh_port_pause", expect_failed=1)


def test_mmu_core_compact():
    """COMPACT=1 (the i5 build's smaller decision stage: DEC1a compares the selected candidate
    only): the random run that asserts every admission kind, XOFF and XON, the back-to-back
    stress and the directed admission cases, the model equal on every clock."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-compact",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "COMPACT": 1},
                testcase=["random_pairs", "stress_back_to_back", "dir_admission_cases",
                          "reconfiguration_under_traffic"])


def test_mmu_core_compact_left_out():
    """COMPACT=1 with WATERMARKS=0, COUNTERS=0, CFG_CHECK=0 and CFG_READBACK=0 (the i5 build's
    admission core: the per-PG / per-queue watermarks, the event counters and the
    configuration checker left out, the configuration not read back): the random run and the
    back-to-back stress, the model equal on every clock, every status word read back at the
    end (the left-out words must read 0: the watermarks, the counters, the configuration
    fields, the configuration flags, though the random run's configuration oversubscribes the
    buffer and the model flags it; the rest the model's values)."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-compact-left-out",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "COMPACT": 1, "WATERMARKS": 0,
                            "COUNTERS": 0, "CFG_CHECK": 0, "CFG_READBACK": 0},
                testcase=["random_pairs", "stress_back_to_back"])


def test_mmu_core_fault_inject_is_caught():
    """FAULT_INJECT=1 turns "shared < T" into "shared <= T": the scoreboard must fail."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-fault",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "FAULT_INJECT": 1},
                testcase="random_pairs", extra_env={"RANDOM_CLOCKS": "4000"},
                expect_failed=1)


@pytest.mark.parametrize("ports", [2, 32])
def test_mmu_core_small_and_large(ports):
    """PORT_COUNT 2 (16 PGs: the tables read in one step) and 32 (256 PGs, block RAM): a random
    run (the one without outcome-coverage asserts: 3,000 clocks over 256 PGs need not reach
    every admission kind) and the bad inputs, every counter read back at the end."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id=f"mmu_core-p{ports}",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": ports, "CELL_BYTES": 256,
                            "CELL_W": 11 if ports == 2 else 16},
                testcase=["random_pairs_shared_headroom", "bad_input_answers"],
                extra_env={"RANDOM_CLOCKS": "6000"})


def test_mmu_core_inflight_charge():
    """CELL_W 7 (127 cells): five arrivals of 36 cells in flight at once (dir_inflight_charge);
    the charge of the four before the fifth, 144 cells, does not fit CELL_W bits."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-inflight",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "CELL_W": 7},
                testcase="dir_inflight_charge")


def test_mmu_core_inflight_narrow_is_caught():
    """The same with INFLIGHT_W 7 (= CELL_W, what switch_core may set because its frames are in
    its buffer): the charge wraps to 16 cells, the core admits the fifth frame beyond the
    buffer and the comparison with the model fails (formal/mmu_core.sby found the wrap)."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-inflight-narrow",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "CELL_W": 7, "INFLIGHT_W": 7},
                testcase="dir_inflight_charge", expect_failed=1)


def test_mmu_core_cfg_check_fault_is_caught():
    """CFG_FAULT_INJECT=1 checks Xon against the Xoff point with > instead of >=: the
    comparison of the flags with the model's must fail dir_config_flags."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-cfg-fault",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "CFG_FAULT_INJECT": 1},
                testcase="dir_config_flags", expect_failed=1)


def test_mmu_core_reset_fault_is_caught():
    """RST_FAULT_INJECT=1 leaves EVAL1's event selects out of the reset (the defect of a one-clock
    reset that 264e5c6 fixed): reset_under_traffic must fail."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-rst-fault",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "RST_FAULT_INJECT": 1},
                testcase="reset_under_traffic", expect_failed=1)


def cells_by_reciprocal(length: int, cell_bytes: int, len_w: int) -> int:
    """The RTL's formula (rtl/mmu_core_carry.v, stages E0 - E2), in Python integers."""
    shift = len_w + max(1, (cell_bytes - 1).bit_length())  # LEN_W + CB_W, CB_W >= 1
    mul = -(-(1 << shift) // cell_bytes)  # ceil(2^S / C)
    assert mul < 1 << (len_w + 2), "RECIP_MUL must fit RM_W = LEN_W + 2 bits"
    return (((length - 1) * mul) >> shift) + 1


@pytest.mark.parametrize("len_w", [14, 16])
def test_reciprocal_exhaustive(len_w):
    """ceil(len / C) == reciprocal formula for every length 1 .. 2^LEN_W - 1 and every cell
    size 1..640 plus some odd large ones (includes 208 and 256)."""
    sizes = list(range(1, 641)) + [1000, 1023, 1024, 1500, 2047, 4095, 9216]
    lengths = range(1, 1 << len_w)
    for c in sizes:
        shift = len_w + max(1, (c - 1).bit_length())
        mul = -(-(1 << shift) // c)
        assert mul < 1 << (len_w + 2)
        bad = [n for n in lengths if (((n - 1) * mul) >> shift) + 1 != -(-n // c)]
        assert not bad, f"CELL_BYTES {c}: wrong for lengths {bad[:5]}"
    assert cells_by_reciprocal(9238, 208, 14) == math.ceil(9238 / 208)


def test_one_clock_reset_clears_admitted_amounts(tmp_path):
    """A one-clock rst with one admitted arrival at every stage of the pipeline (1 to 14 clocks
    after its request) leaves the total and every pool at 0 (formal/repro/mmu_core_rst1.v on
    Icarus).  Before the fix (commit stage's g_*9 not reset) a reset 9 clocks after the request
    left total 4, pool 4 and egress pool 4: formal/mmu_core.sby found it."""
    rtl = harness.ROOT / "rtl"
    vvp = tmp_path / "rst1.vvp"
    srcs = [str(p) for p in sorted(rtl.glob("mmu_core*.v"))]
    srcs += [str(rtl / "mmu_mpram.v"), str(rtl / "mmu_cfg_check.v")]
    subprocess.run(["iverilog", "-g2012", "-I", str(rtl), "-s", "rst1", "-o", str(vvp),
                    str(harness.ROOT / "formal" / "repro" / "mmu_core_rst1.v"), *srcs],
                   check=True)
    for gap in range(1, 15):
        out = subprocess.run(["vvp", "-n", str(vvp), f"+gap={gap}", "+rstlen=1"], check=True,
                             capture_output=True, text=True).stdout
        line = [ln for ln in out.splitlines() if ln.startswith("gap ")][-1]
        counts = [int(v) for v in re.findall(r"(?:total|pool\d|hpool|epool\d) (\d+)", line)]
        assert len(counts) == 6 and not any(counts), line
