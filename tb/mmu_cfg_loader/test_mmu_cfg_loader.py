"""pytest runner of the mmu_cfg_loader cocotb tests (tb/mmu_cfg_loader/mmu_cfg_loader_cases.py):
the loader alone, at 3 switch ports (mmu_core's 4: padded entries) and at 2."""

import pytest

import harness


@pytest.mark.parametrize("ports,mmu_ports", [(3, 4), (2, 2)])
def test_mmu_cfg_loader(ports, mmu_ports):
    harness.run("mmu_cfg_loader", "mmu_cfg_loader.mmu_cfg_loader_cases",
                test_id=f"mmu_cfg_loader-p{ports}",
                sources=harness.rtl_sources(["mmu_cfg_loader"]),
                parameters={"PORT_COUNT": ports, "MMU_PORTS": mmu_ports, "CELL_W": 16,
                            "LEN_W": 14})
