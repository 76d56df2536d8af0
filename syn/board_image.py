"""The boards' register images: the configuration the board self-test (rtl/fpga_core.v)
boots from, made by the model (issue 17: the hardware uses the register map).

Each board's image is first the switch registers that differ from their reset values
(``models.swconfig.selftest_switch_config()``: the PFC source addresses and the quanta step
of the 1 Gb/s byte clock), then ``models.config.selftest_config()`` for its core's parameters (ports,
cell size, cell RAM) with the lossless headroom = the model's worst-case eta for the board
link (1 Gb/s, on-chip partner, no cable, 1518-byte frames: ``models.headroom.compute``),
written by ``models.regimage`` as a ``$readmemh`` file that ``rtl/cfg_rom_boot.v`` writes over
AXI4-Lite after reset.  The files are checked in (``syn/<board>/mmu_image.hex``): ``make
lint`` reads ``rtl/fpga_core.v``, whose default image is the ULX3S's, on a clean clone, and a
board build's configuration shows in its diff; ``make lint`` (and ``models/tests``) fail when
a checked-in image differs from a fresh generation.

After the boot, ``cfg_rom_boot`` polls the registers of the UART line (H=, D=, E=) at byte
addresses written as localparams in ``rtl/fpga_core.v``; ``--check`` also compares those with
the generated register map (``poll_address_differences``), so a map change cannot leave the
board reading the wrong registers.

    python syn/board_image.py            # write every board's image
    python syn/board_image.py --check    # exit 1 (a diff) when one is stale or missing, or
                                         # fpga_core's polled addresses are not the map's
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from models import pfcmmu_regs, pfcmmu_switch_regs  # noqa: E402
from models.config import MmuConfig, selftest_config  # noqa: E402
from models.headroom import compute  # noqa: E402
from models.regimage import render  # noqa: E402
from models.swconfig import global_addr, port_addr, selftest_switch_config  # noqa: E402

# the self-test core's parameters of each board (its syn/<board>/<board>_top.v sets the same)
BOARDS: dict[str, dict[str, int]] = {
    "ulx3s": {"ports": 4, "cell_bytes": 256, "buffer_cells": 1024},
    "colorlight_i5": {"ports": 2, "cell_bytes": 128, "buffer_cells": 384},
}
MAX_FRAME = 1518


def board_config(ports: int, cell_bytes: int, buffer_cells: int,
                 headroom: int | None = None) -> MmuConfig:
    """The self-test configuration; ``headroom`` None: the model's eta for the board link."""
    if headroom is None:
        headroom = compute(1, 0, MAX_FRAME, cell_bytes).eta_cells_worst
    return selftest_config(ports=ports, cell_bytes=cell_bytes, buffer_cells=buffer_cells,
                           max_frame_bytes=MAX_FRAME, headroom=headroom)


def board_switch_writes(ports: int) -> list[tuple[int, int]]:
    """The switch registers the self-test writes before the admission image (those whose
    value is not the reset value)."""
    return selftest_switch_config(ports).image(changed_only=True)


def render_board(ports: int, cell_bytes: int, buffer_cells: int, headroom: int | None = None,
                 source: str = "") -> str:
    """The $readmemh image of a self-test core: switch registers, then the admission image."""
    return render(board_config(ports, cell_bytes, buffer_cells, headroom), ".hex",
                  source=source, before=board_switch_writes(ports))


def image_path(board: str) -> Path:
    return ROOT / "syn" / board / "mmu_image.hex"


def image_text(board: str) -> str:
    p = BOARDS[board]
    return render_board(**p,
                  source=f"syn/board_image.py {board}: selftest_config({', '.join(f'{k}={v}' for k, v in p.items())}), headroom eta")


def poll_addresses_of_map() -> dict[str, int]:
    """fpga_core's polled registers as the generated map places them: localparam name ->
    byte address (a stride for SW_PORT_STRIDE_BYTES)."""
    return {
        "HDRM_WM_ADDR": pfcmmu_regs.GLOBALS["hdrm_wm"].offset << pfcmmu_regs.ADDR_SHIFT,
        "SW_ERRORS_ADDR": global_addr("errors"),
        "SW_DROP_ADMISSION_ADDR": port_addr(0, "drop_admission"),
        "SW_PORT_STRIDE_BYTES": pfcmmu_switch_regs.SW_PORT_STRIDE << pfcmmu_switch_regs.ADDR_SHIFT,
        "FAULT_DROP_ADDR": port_addr(0, "drop_runt"),
        "FAULT_ERRORS_ADDR": global_addr("quanta_step"),
    }


def poll_address_differences(verilog: str | None = None) -> list[str]:
    """Where rtl/fpga_core.v's localparams of the polled registers (``localparam [17:0] NAME
    = 18'hXXXXX;``) differ from the generated map, or are missing; ``verilog``: that file's
    text (default: read it)."""
    if verilog is None:
        verilog = (ROOT / "rtl" / "fpga_core.v").read_text()
    got = {m.group(1): int(m.group(2), 16) for m in re.finditer(
        r"localparam\s+\[17:0\]\s+(\w+)\s*=\s*18'h([0-9a-fA-F_]+)\s*;", verilog)}
    diff = []
    for name, want in poll_addresses_of_map().items():
        if name not in got:
            diff.append(f"rtl/fpga_core.v: no localparam [17:0] {name} = 18'h...;")
        elif got[name] != want:
            diff.append(f"rtl/fpga_core.v: {name} = 18'h{got[name]:05x}, the register map "
                        f"says 18'h{want:05x}")
    return diff


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    args = ap.parse_args(argv)
    status = 0
    for board in BOARDS:
        path = image_path(board)
        text = image_text(board)
        rel = path.relative_to(ROOT)
        if args.check:
            old = path.read_text() if path.exists() else ""
            if old != text:
                status = 1
                print(f"board_image: {rel} is stale or missing (python syn/board_image.py)")
                sys.stdout.writelines(list(difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True), str(rel), "fresh"))[:20])
        else:
            path.write_text(text)
            print(f"board_image: {rel}")
    if args.check:
        for line in poll_address_differences():
            status = 1
            print(f"board_image: {line}")
    return status


if __name__ == "__main__":
    sys.exit(main())
