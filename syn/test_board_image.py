"""Tests of syn/board_image.py's check of the registers fpga_core polls for its UART line
(H=, D=, E=): the byte addresses written in rtl/fpga_core.v against the generated register
map, and the check's negative (a moved register is named); no tool runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import board_image  # noqa: E402


def test_fpga_core_poll_addresses_are_the_maps():
    assert board_image.poll_address_differences() == []


@pytest.mark.parametrize("name", sorted(board_image.poll_addresses_of_map()))
def test_poll_address_check_catches_a_moved_register(name):
    """The register map moved one register by a word (or fpga_core's localparam was edited):
    the check names that localparam and only it."""
    text = (board_image.ROOT / "rtl" / "fpga_core.v").read_text()
    want = board_image.poll_addresses_of_map()[name]
    old = f"localparam [17:0] {name} = 18'h{want:05x};"
    assert old in text, old
    diff = board_image.poll_address_differences(
        text.replace(old, f"localparam [17:0] {name} = 18'h{want + 4:05x};"))
    assert len(diff) == 1 and name in diff[0], diff
    diff = board_image.poll_address_differences(text.replace(old, ""))
    assert len(diff) == 1 and f"no localparam [17:0] {name}" in diff[0], diff
