"""pytest runner for pfc_rx: parametrized builds for DATA_WIDTH 8 and 64."""

import pytest

import harness


@pytest.mark.parametrize("data_width", [8, 64])
def test_pfc_rx(data_width):
    harness.run("pfc_rx", "pfc_rx.pfc_rx_cases", test_id=f"pfc_rx-dw{data_width}",
                sources=harness.rtl_sources(["pfc_rx"]), parameters={"DATA_WIDTH": data_width})
