"""pytest runner for the generated AXI4-Lite CSR block pfcmmu_csr (rtl/regs/pfcmmu_csr.v, from
rtl/regs/pfcmmu.rdl by `make regs`) in front of mmu_core: tb/mmu_csr/mmu_csr_top.v."""

import harness
from models.mmu_pipe import RTL_STAT_LATENCY

SRC = ["mmu_mpram", "mmu_cfg_check", "mmu_core_carry", "mmu_core_cfg", "mmu_core_view",
       "mmu_core_decide", "mmu_core_commit", "mmu_core_eval", "mmu_core_status", "mmu_core",
       "pfcmmu_csr"]
TOP = harness.TB / "mmu_csr" / "mmu_csr_top.v"
PARAMS = {"PORT_COUNT": 2, "CELL_BYTES": 256, "CELL_W": 16, "STAT_LATENCY": RTL_STAT_LATENCY}


def test_mmu_csr():
    """Configuration over AXI4-Lite read back, counters against the model, the error
    responses, reads and writes at once."""
    harness.run("mmu_csr_top", "mmu_csr.mmu_csr_cases", test_id="mmu_csr",
                sources=harness.rtl_sources(SRC) + [TOP], parameters=PARAMS)


def test_mmu_csr_address_fault_is_caught():
    """FAULT_INJECT=1: the block shifts the write address by 3 instead of 2, so each
    configuration write lands on another register: the read-back must fail."""
    harness.run("mmu_csr_top", "mmu_csr.mmu_csr_cases", test_id="mmu_csr-fault",
                sources=harness.rtl_sources(SRC) + [TOP],
                parameters={**PARAMS, "FAULT_INJECT": 1}, testcase="config_readback",
                expect_failed=1)


def test_mmu_csr_short_latency_is_caught():
    """STAT_LATENCY one clock short of the core's: a read returns what the core answered the
    address before, and the read-back must fail."""
    harness.run("mmu_csr_top", "mmu_csr.mmu_csr_cases", test_id="mmu_csr-latency",
                sources=harness.rtl_sources(SRC) + [TOP],
                parameters={**PARAMS, "STAT_LATENCY": RTL_STAT_LATENCY - 1},
                testcase="config_readback", expect_failed=1)
