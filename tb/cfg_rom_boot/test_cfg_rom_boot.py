"""The board's boot sequencer alone (rtl/cfg_rom_boot.v): a small register image written in
order, then the poll list read round-robin into poll_data, against a cocotbext-axi
AXI4-Lite slave with pfcmmu_csr's read latency (tb/cfg_rom_boot/cfg_rom_boot_cases.py)."""

import pytest

import harness

from cfg_rom_boot.cfg_rom_boot_cases import ADDR_W, IMAGE, POLL_ADDRS


def _image_file(test_id: str) -> str:
    """IMAGE in models/regimage.py's $readmemh format: entry k's address and value, then
    the end marker."""
    lines = [f"// tb/cfg_rom_boot {test_id}"]
    for addr, value in IMAGE:
        lines += [f"{addr:08x}", f"{value:08x}"]
    lines += ["ffffffff", "00000000"]
    path = harness.SIM_BUILD / "gen" / f"{test_id}.hex"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return f'"{path}"'


@pytest.mark.parametrize("poll_count", [1, 3])
def test_cfg_rom_boot(poll_count):
    test_id = f"cfg_rom_boot-p{poll_count}"
    addrs = POLL_ADDRS[:poll_count]
    packed = sum(a << (ADDR_W * i) for i, a in enumerate(addrs))
    harness.run("cfg_rom_boot", "cfg_rom_boot.cfg_rom_boot_cases", test_id=test_id,
                sources=harness.rtl_sources(["cfg_rom_boot"]),
                parameters={"IMAGE_FILE": _image_file(test_id), "ENTRIES": len(IMAGE),
                            "ADDR_W": ADDR_W, "POLL_ENABLE": 1, "POLL_COUNT": poll_count,
                            # a sized literal: Icarus and Verilator read it at any width
                            "POLL_ADDRS": f"{ADDR_W * poll_count}'h{packed:x}"},
                extra_env={"CFG_ROM_BOOT_POLL": ",".join(f"{a:#x}" for a in addrs)})
