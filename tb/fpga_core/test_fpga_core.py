"""Board self-test core in the regression: what goes on the board is simulated."""

import pytest

import harness

from models.headroom import compute

# the board link: 1 Gb/s byte clock, on-chip partner (no cable), 1518-byte frames
ETA = compute(1, 0, 1518, 256).eta_cells_worst
BASE = {"PORT_COUNT": 4, "DATA_WIDTH": 8, "CELL_BYTES": 256, "BUFFER_CELLS": 672,
        "CLK_HZ": 8000000, "BAUD": 1000000, "PRINT_CYCLES": 6000, "LED_HOLD": 100}


def test_fpga_core_headroom_default_is_eta():
    """fpga_core's default HDRM_CELLS is the model's worst-case eta for the board link."""
    text = (harness.ROOT / "rtl" / "fpga_core.v").read_text()
    assert f"parameter HDRM_CELLS = {ETA}," in text, ETA


@pytest.mark.parametrize("ports,cell_bytes,buffer_cells,compact", [
    (4, 256, 672, 0),   # the ULX3S core with a smaller buffer (faster to congest in simulation)
    (2, 128, 384, 1),   # the Colorlight i5 configuration (syn/colorlight_i5, MMU_COMPACT)
])
def test_fpga_core_selftest(ports, cell_bytes, buffer_cells, compact):
    eta = compute(1, 0, 1518, cell_bytes).eta_cells_worst
    harness.run("fpga_core", "fpga_core.fpga_core_cases", test_id=f"fpga_core-eta-p{ports}",
                parameters=dict(BASE, PORT_COUNT=ports, CELL_BYTES=cell_bytes,
                                BUFFER_CELLS=buffer_cells, HDRM_CELLS=eta, MMU_COMPACT=compact),
                testcase="selftest_lossless")


def test_fpga_core_undersized_headroom_fails():
    harness.run("fpga_core", "fpga_core.fpga_core_cases", test_id="fpga_core-small-hdrm",
                parameters=dict(BASE, HDRM_CELLS=0, BUFFER_CELLS=72),
                testcase="selftest_undersized_headroom")
