"""Board self-test core in the regression: what goes on the board is simulated."""

import pytest

import harness

from models.headroom import compute

# the board link: 1 Gb/s byte clock, on-chip partner (no cable), 1518-byte frames
ETA = compute(1, 0, 1518, 256).eta_cells_worst
BASE = {"PORT_COUNT": 4, "DATA_WIDTH": 8, "CELL_BYTES": 256, "BUFFER_CELLS": 672,
        "CLK_HZ": 8000000, "BAUD": 1000000, "PRINT_CYCLES": 6000, "LED_HOLD": 100}


def _image(test_id: str, params: dict, headroom: int, alter: bool = False) -> tuple[dict, dict]:
    """The model's register image for this build (the switch registers of
    models.swconfig.selftest_switch_config, then models.config.selftest_config, through
    syn/board_image.py, as the boards' images are made) into the build's own folder: the
    IMAGE_FILE parameter and the bench's environment.  ``alter``: one entry changed (port 1
    PG 3's headroom, + 1)."""
    import sys
    sys.path.insert(0, str(harness.ROOT / "syn"))
    from board_image import render_board
    from models.regimage import pg_word

    text = render_board(params["PORT_COUNT"], params["CELL_BYTES"], params["BUFFER_CELLS"],
                        headroom, source=f"tb/fpga_core {test_id}")
    env = {"FPGA_CORE_HDRM_CELLS": str(headroom)}
    if alter:
        addr = pg_word(1 * 8 + 3, "headroom") << 2
        old = f"{addr:08x} {headroom:08x}"
        assert old in text, old
        text = text.replace(old, f"{addr:08x} {headroom + 1:08x}")
        env["FPGA_CORE_ALTERED"] = f"{addr:#x},{headroom + 1:#x}"
    path = harness.SIM_BUILD / "gen" / f"fpga_core_{test_id}.hex"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return dict(params, IMAGE_FILE=f'"{path}"'), env


def test_board_images_are_the_models():
    """syn/<board>/mmu_image.hex (the boards' boot ROMs) equal a fresh generation from the
    model, and the ULX3S's (fpga_core's default) has the model's eta as headroom."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, str(harness.ROOT / "syn" / "board_image.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    text = (harness.ROOT / "rtl" / "fpga_core.v").read_text()
    assert 'parameter IMAGE_FILE = "syn/ulx3s/mmu_image.hex"' in text


@pytest.mark.parametrize("ports,cell_bytes,buffer_cells,compact", [
    (4, 256, 672, 0),   # the ULX3S core with a smaller buffer (faster to congest in simulation)
    (2, 128, 384, 1),   # the Colorlight i5 configuration (syn/colorlight_i5, MMU_COMPACT,
                        # PORT_COUNTERS 0, FEATURE_REGS 0,
                        # MMU_WATERMARKS 0, MMU_COUNTERS 0, MMU_CFG_CHECK 0,
                        # MMU_CFG_READBACK 0)
])
def test_fpga_core_selftest(ports, cell_bytes, buffer_cells, compact):
    eta = compute(1, 0, 1518, cell_bytes).eta_cells_worst
    test_id = f"fpga_core-eta-p{ports}"
    params, env = _image(test_id, dict(BASE, PORT_COUNT=ports, CELL_BYTES=cell_bytes,
                                       BUFFER_CELLS=buffer_cells, MMU_COMPACT=compact,
                                       PORT_COUNTERS=0 if compact else 1,
                                       FEATURE_REGS=0 if compact else 1,
                                       MMU_WATERMARKS=0 if compact else 1,
                                       MMU_COUNTERS=0 if compact else 1,
                                       MMU_CFG_CHECK=0 if compact else 1,
                                       MMU_CFG_READBACK=0 if compact else 1), eta)
    harness.run("fpga_core", "fpga_core.fpga_core_cases", test_id=test_id,
                parameters=params, testcase="selftest_lossless", extra_env=env)


def test_fpga_core_undersized_headroom_fails():
    test_id = "fpga_core-small-hdrm"
    params, env = _image(test_id, dict(BASE, BUFFER_CELLS=72), 0)
    harness.run("fpga_core", "fpga_core.fpga_core_cases", test_id=test_id,
                parameters=params, testcase="selftest_undersized_headroom", extra_env=env)


def test_fpga_core_boot_check_catches_altered_image():
    test_id = "fpga_core-altered-image"
    params, env = _image(test_id, dict(BASE), ETA, alter=True)
    harness.run("fpga_core", "fpga_core.fpga_core_cases", test_id=test_id,
                parameters=params, testcase="boot_check_catches_altered_image", extra_env=env)


def test_fpga_core_uart_check_catches_wrong_poll():
    """Negative of the UART line's D= / E= check (and of the poll list check): a build that
    polls wrong, mapped registers (FAULT_INJECT=1)."""
    test_id = "fpga_core-wrong-poll"
    params, env = _image(test_id, dict(BASE, FAULT_INJECT=1), ETA)
    harness.run("fpga_core", "fpga_core.fpga_core_cases", test_id=test_id,
                parameters=params, testcase="uart_check_catches_wrong_poll", extra_env=env)
