"""pytest runner of tb/sw_regs: switch_core's own registers (the generated pfcmmu_sw_regs behind
sw_mmu_csr) over AXI4-Lite, and the negative build whose register writes are wrong."""

import harness
from models import pfcmmu_switch_regs as swr
from sw_regs import top_gen

SRC = ["pfcmmu_csr", "pfcmmu_sw_regs", "sw_mmu_csr"]
PORTS = 3   # not a power of two: the address space has a fourth port the build answers 0


def _top():
    widths = {}
    for block in (swr.SW_GLOBALS, swr.SW_PORT):
        for r in block.values():
            for f in r.fields:
                base = r.name.split("[")[0]
                name = (f"stat_{base}" if len(r.fields) == 1 and f.name == "value"
                        else f"stat_{base}_{f.name}")
                widths[name] = f.width
    return top_gen.generate(harness.SIM_BUILD / "gen" / "sw_regs_top.v", widths)


def test_sw_regs():
    """Reset values, every configuration register written and read back, every status
    register read, the routing and the error responses."""
    harness.run("sw_regs_top", "sw_regs.sw_regs_cases", test_id="sw_regs",
                sources=harness.rtl_sources(SRC) + [_top()], parameters={"PORT_COUNT": PORTS})


def test_sw_regs_left_out():
    """Every leave-out parameter of the block 0 (switch_core FEATURE_REGS 0, the i5's build):
    the registers of the features left out answer OKAY and read 0, before and after a write;
    every other register as in test_sw_regs."""
    harness.run("sw_regs_top", "sw_regs.sw_regs_cases", test_id="sw_regs-left-out",
                sources=harness.rtl_sources(SRC) + [_top()],
                parameters={"PORT_COUNT": PORTS, "LEAVE_OUT": 1})


def test_sw_regs_wrong_write_is_caught():
    """FAULT_INJECT=1: bit 0 of every switch-register write flipped; the read-back fails."""
    harness.run("sw_regs_top", "sw_regs.sw_regs_cases", test_id="sw_regs-fault",
                sources=harness.rtl_sources(SRC) + [_top()],
                parameters={"PORT_COUNT": PORTS, "FAULT_INJECT": 1}, expect_failed=1)
