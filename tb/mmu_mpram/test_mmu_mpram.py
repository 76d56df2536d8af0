"""pytest runner for mmu_mpram (the admission core's multi-ported state RAM): distributed-RAM
and block RAM banks (BRAM_DEPTH), one and two write ports, WR_EARLY, OUT_REG 0 / 1, the
two-step table read of deep memories."""

import pytest

import harness

# (DEPTH, ADDR_W, WIDTH, WRITE_PORTS, READ_PORTS, OUT_REG, BRAM_DEPTH, WR_EARLY)
CONFIGS = [
    (32, 5, 13, 2, 3, 1, 128, 1),     # distributed RAM, as the state RAMs at 4 ports
    (32, 5, 13, 2, 3, 1, 16, 1),      # the same as block RAM banks
    (24, 5, 9, 1, 2, 0, 16, 0),       # block RAM, one write port, no output register
    (24, 5, 9, 1, 2, 1, 16, 1),       # block RAM, one write port (the watermark RAMs)
    (256, 8, 20, 2, 2, 1, 128, 1),    # block RAM at 32 ports' depth: the two-step tables
]


@pytest.mark.parametrize("cfg", CONFIGS, ids=[
    f"d{c[0]}-w{c[3]}r{c[4]}-o{c[5]}-{'bram' if c[0] >= c[6] else 'lram'}-e{c[7]}"
    for c in CONFIGS])
def test_mmu_mpram(cfg):
    depth, aw, width, wp, rp, out_reg, bram, early = cfg
    harness.run("mmu_mpram", "mmu_mpram.mmu_mpram_cases",
                test_id=f"mmu_mpram-d{depth}-w{wp}r{rp}-o{out_reg}-b{bram}-e{early}",
                sources=harness.rtl_sources(["mmu_mpram"]),
                parameters={"DEPTH": depth, "ADDR_W": aw, "WIDTH": width, "WRITE_PORTS": wp,
                            "READ_PORTS": rp, "OUT_REG": out_reg, "BRAM_DEPTH": bram,
                            "WR_EARLY": early})



def test_mmu_mpram_checker_catches_wrong_model():
    """The bench's negative: its model lets write port 0 win a tie (the RTL's rule is port 1),
    so the reads of entries both ports wrote at one edge disagree and the test must fail."""
    harness.run("mmu_mpram", "mmu_mpram.mmu_mpram_cases", test_id="mmu_mpram-model-fault",
                sources=harness.rtl_sources(["mmu_mpram"]),
                parameters={"DEPTH": 32, "ADDR_W": 5, "WIDTH": 13, "WRITE_PORTS": 2,
                            "READ_PORTS": 3, "OUT_REG": 1, "BRAM_DEPTH": 16, "WR_EARLY": 1},
                extra_env={"MPRAM_MODEL_FAULT": "1"}, expect_failed=1)
