"""pytest runner for pfc_rx: parametrized builds for DATA_WIDTH 8 and 64, with the tap used as
it comes (IN_REG 0) and registered inside in two copies (IN_REG 1, the switch's and the board
partners' build), and the switch's build with 802.3x PAUSE honoured (LINK_PAUSE_ENABLE)."""

import pytest

import harness


@pytest.mark.parametrize("data_width,in_reg,link,mask", [
    (8, 0, 0, 0xFF), (64, 0, 0, 0xFF), (8, 1, 0, 0xFF), (64, 1, 0, 0xFF), (64, 1, 1, 0xFF),
    (8, 1, 0, 0x09)])
def test_pfc_rx(data_width, in_reg, link, mask):
    """link: LINK_PAUSE_ENABLE (802.3x PAUSE honoured), the switch's build; mask: PRIO_MASK,
    0x09 the board partners' build (timers for priorities 0 and 3 only)."""
    harness.run("pfc_rx", "pfc_rx.pfc_rx_cases",
                test_id=f"pfc_rx-dw{data_width}-r{in_reg}" + ("-pause" if link else "")
                + (f"-m{mask:02x}" if mask != 0xFF else ""),
                sources=harness.rtl_sources(["pfc_rx"]),
                parameters={"DATA_WIDTH": data_width, "IN_REG": in_reg,
                            "LINK_PAUSE_ENABLE": link, "PRIO_MASK": mask},
                # the directed cases pause priorities of their own; random traffic on all
                # eight, the reference masked, checks the masked build clock by clock
                testcase=None if mask == 0xFF else ["random_frames"])
