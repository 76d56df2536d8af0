"""pytest runner for pfc_tx: parametrized builds (DATA_WIDTH, FCS_ENABLE, LINK_PAUSE_ENABLE),
plus the scoreboard's negative checks without a simulator."""

import pytest

import harness
from common.pfc_frames import FrameMismatch, check_pfc, pfc_frame

BUILDS = [
    {"DATA_WIDTH": 8, "FCS_ENABLE": 1, "LINK_PAUSE_ENABLE": 0},
    {"DATA_WIDTH": 64, "FCS_ENABLE": 0, "LINK_PAUSE_ENABLE": 1},
    {"DATA_WIDTH": 64, "FCS_ENABLE": 1, "LINK_PAUSE_ENABLE": 0},
]


@pytest.mark.parametrize("params", BUILDS,
                         ids=lambda p: f"dw{p['DATA_WIDTH']}-fcs{p['FCS_ENABLE']}"
                                       f"-link{p['LINK_PAUSE_ENABLE']}")
def test_pfc_tx(params):
    tid = f"pfc_tx-dw{params['DATA_WIDTH']}-fcs{params['FCS_ENABLE']}-link{params['LINK_PAUSE_ENABLE']}"
    harness.run("pfc_tx", "pfc_tx.pfc_tx_cases", test_id=tid,
                sources=harness.rtl_sources(["pfc_tx"]), parameters=params)


def test_checker_rejects_scapy_frame_with_wrong_state():
    """The scoreboard (common.pfc_frames.check_pfc) fails on a frame that differs."""
    q = [100 + k for k in range(8)]
    good = pfc_frame("02:00:00:00:00:01", 0x05, [100, 0, 102, 0, 0, 0, 0, 0], with_crc=True)
    check_pfc(good, True, "02:00:00:00:00:01", 0x05, 0x05, q)
    with pytest.raises(FrameMismatch, match="time"):
        check_pfc(good, True, "02:00:00:00:00:01", 0x01, 0x05, q)
    with pytest.raises(FrameMismatch, match="FCS"):
        check_pfc(good[:-1] + bytes([good[-1] ^ 1]), True, "02:00:00:00:00:01", 0x05, 0x05, q)
