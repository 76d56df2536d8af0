"""pytest runner for mmu_core: two full builds (CELL_BYTES 256 / 208, PORT_COUNT 4 / 8), a
PORT_COUNT 32 build with a short run, the FAULT_INJECT negative test, and pure-Python checks
of the reciprocal used for cells and of the stat address map."""

import math

import pytest

import harness
from mmu_core import stat_map

SRC = ["mmu_core"]

BUILDS = {
    "p4_c256": {"PORT_COUNT": 4, "CELL_BYTES": 256},
    "p8_c208": {"PORT_COUNT": 8, "CELL_BYTES": 208},
    # the multi-cycle core of the FPGA builds (PIPELINE 1): same cases, cycle-exact timing
    "p4_c256_pipe": {"PORT_COUNT": 4, "CELL_BYTES": 256, "PIPELINE": 1},
}


@pytest.mark.parametrize("build", list(BUILDS))
def test_mmu_core(build):
    """Every directed, random and throughput test against the golden model."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id=f"mmu_core-{build}",
                sources=harness.rtl_sources(SRC), parameters=BUILDS[build])


def test_mmu_core_p32():
    """PORT_COUNT 32 (256 PGs): elaborates and passes a directed and a short random test."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-p32",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 32, "CELL_BYTES": 256},
                testcase=["dir_admission_cases", "run_random_private"],
                extra_env={"RANDOM_EVENTS": "5000"})


def test_fault_inject_is_caught():
    """FAULT_INJECT=1 turns "shared < T" into "shared <= T": the scoreboard must fail."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-fault",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "FAULT_INJECT": 1},
                testcase="run_random_private", extra_env={"RANDOM_EVENTS": "4000"},
                expect_failed=1)


def test_fault_inject_is_caught_pipeline():
    """The same fault in the multi-cycle core (PIPELINE 1) must fail the scoreboard too."""
    harness.run("mmu_core", "mmu_core.mmu_core_cases", test_id="mmu_core-fault-pipe",
                sources=harness.rtl_sources(SRC),
                parameters={"PORT_COUNT": 4, "CELL_BYTES": 256, "FAULT_INJECT": 1,
                            "PIPELINE": 1},
                testcase="run_random_private", extra_env={"RANDOM_EVENTS": "4000"},
                expect_failed=1)


def cells_by_reciprocal(length: int, cell_bytes: int, len_w: int) -> int:
    """The RTL's formula (rtl/mmu_core.v, stage 1), in Python integers."""
    shift = len_w + (cell_bytes - 1).bit_length()  # LEN_W + $clog2(CELL_BYTES)
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
        shift = len_w + (c - 1).bit_length()
        mul = -(-(1 << shift) // c)
        assert mul < 1 << (len_w + 2)
        bad = [n for n in lengths if (((n - 1) * mul) >> shift) + 1 != -(-n // c)]
        assert not bad, f"CELL_BYTES {c}: wrong for lengths {bad[:5]}"
    assert cells_by_reciprocal(9238, 208, 14) == math.ceil(9238 / 208)


def test_stat_map_addresses_unique():
    addrs = list(stat_map.GLOBAL.values()) + [stat_map.drop_addr(r) for r in range(7)]
    for p in range(64):
        for k in range(8):
            addrs += [stat_map.pg_addr(p, k, f) for f in stat_map.PG_FIELD]
            addrs += [stat_map.queue_addr(p, k, f) for f in stat_map.Q_FIELD]
    assert len(addrs) == len(set(addrs)) and max(addrs) < 1 << 16
