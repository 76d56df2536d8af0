"""pytest runner for the generated AXI4-Lite CSR block pfcmmu_csr (rtl/regs/pfcmmu_csr.v, from
rtl/regs/pfcmmu.rdl by `make regs`) in front of mmu_core: tb/mmu_csr/mmu_csr_top.v."""

import pytest

import harness
from models import regimage
from models.mmu_pipe import RTL_STAT_LATENCY
from models.sonic import from_sonic

SRC = ["mmu_mpram", "mmu_cfg_check", "mmu_core_carry", "mmu_core_cfg", "mmu_core_state",
       "mmu_core_pick", "mmu_core_view", "mmu_core_decide", "mmu_core_release",
       "mmu_core_commit", "mmu_core_eval", "mmu_core_status", "mmu_core_dsh", "mmu_core",
       "pfcmmu_csr"]
TOP = harness.TB / "mmu_csr" / "mmu_csr_top.v"
PARAMS = {"PORT_COUNT": 2, "CELL_BYTES": 256, "CELL_W": 16, "STAT_LATENCY": RTL_STAT_LATENCY}
EXAMPLES = harness.ROOT / "models" / "examples"
# the three SONiC examples (models/examples/README.md), each loaded from another image format
SONIC = {"arista_7050qx32": ".json", "mellanox_sn2700_shp": ".hex", "broadcom_td2_static": ".h"}


def test_mmu_csr():
    """Configuration over AXI4-Lite read back, counters against the model, the error
    responses, reads and writes at once."""
    harness.run("mmu_csr_top", "mmu_csr.mmu_csr_cases", test_id="mmu_csr",
                sources=harness.rtl_sources(SRC) + [TOP], parameters=PARAMS)


def _sonic_image_file(name: str, test_id: str):
    """The image file of SONiC example ``name`` for ``test_id``'s run folder (format:
    SONIC[name]), imported with the core's ports (Ethernet0, Ethernet4) and cell size."""
    ports = [f"Ethernet{4 * p}" for p in range(PARAMS["PORT_COUNT"])]
    cfg = from_sonic((EXAMPLES / f"{name}.json").read_text(), PARAMS["CELL_BYTES"], ports=ports)
    path = harness.run_dir(test_id) / f"image{SONIC[name]}"
    path.parent.mkdir(parents=True, exist_ok=True)
    regimage.write_image(cfg, path, source=f"models/examples/{name}.json")
    assert regimage.config_from_image(regimage.read_image(path), like=cfg) == cfg
    return path


@pytest.mark.parametrize("name", SONIC)
def test_mmu_csr_sonic(name):
    """A SONiC example turned into a register image file, loaded over AXI4-Lite and run with
    congestion and random traffic against the model (mmu_csr_cases.sonic_image); the build is
    test_mmu_csr's."""
    test_id = f"mmu_csr-sonic-{name}"
    path = _sonic_image_file(name, test_id)
    harness.run("mmu_csr_top", "mmu_csr.mmu_csr_cases", test_id=test_id, build_id="mmu_csr",
                sources=harness.rtl_sources(SRC) + [TOP], parameters=PARAMS,
                testcase="sonic_image", extra_env={"SONIC_IMAGE": str(path)})


def test_mmu_csr_sonic_address_fault_is_caught():
    """The SONiC image through the FAULT_INJECT=1 block (write addresses shifted by 3): the
    image lands on other registers and sonic_image must fail (the build is the fault test's)."""
    test_id = "mmu_csr-sonic-fault"
    path = _sonic_image_file("mellanox_sn2700_shp", test_id)
    harness.run("mmu_csr_top", "mmu_csr.mmu_csr_cases", test_id=test_id,
                build_id="mmu_csr-fault", sources=harness.rtl_sources(SRC) + [TOP],
                parameters={**PARAMS, "FAULT_INJECT": 1}, testcase="sonic_image",
                extra_env={"SONIC_IMAGE": str(path)}, expect_failed=1)


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
