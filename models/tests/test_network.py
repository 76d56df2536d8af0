"""Lossless checks on the network model: eta headroom loses nothing, a quarter of it does."""

from __future__ import annotations

from fractions import Fraction

import pytest

from models import scenario
from models.headroom import compute
from models.network import (PFC_FRAME, WIRE_OVERHEAD, Flow, NetConfig, simulate,
                            switch_config)

H = compute(100, 300, 1500, cell_bytes=256)
DURATION = 300_000  # byte times at 100 Gb/s = 24 us


def incast(frame: int, headroom: int, drain=Fraction(1), senders: int = 4, **kw):
    net = NetConfig(senders=senders, duration=DURATION, drain=drain,
                    flows=[[Flow(3, frame)] for _ in range(senders)], **kw)
    return simulate(net, switch_config(senders, headroom))


def analytic_bound_cells(frame: int, net: NetConfig, cell_bytes: int = 256) -> int:
    """Cells that can land after XOFF when nothing drains (see models/network.py)."""
    wire = (2 * net.delay + net.mtu + WIRE_OVERHEAD + PFC_FRAME + WIRE_OVERHEAD
            + net.response_bytes + 2 * (frame + WIRE_OVERHEAD))
    frames = -(-wire // (frame + WIRE_OVERHEAD))
    return frames * -(-frame // cell_bytes)


@pytest.mark.parametrize("frame", [64, 257, 1500])
@pytest.mark.parametrize("drain", [Fraction(1), Fraction(0)])
def test_eta_headroom_no_lossless_drops(frame, drain):
    r = incast(frame, H.eta_cells_worst, drain)
    assert r.lossless_drops == 0
    assert r.pfc_xoff >= 4
    assert max(r.max_hdrm) <= H.eta_cells_worst
    if drain == 0:
        assert max(r.max_hdrm) <= analytic_bound_cells(frame, NetConfig())


@pytest.mark.parametrize("frame,drain", [(64, Fraction(1)), (64, Fraction(0)),
                                         (257, Fraction(1)), (1500, Fraction(0))])
def test_quarter_eta_headroom_drops(frame, drain):
    r = incast(frame, H.eta_cells_worst // 4, drain)
    assert r.lossless_drops > 0
    assert r.drop_reasons.get("headroom_full", 0) == r.lossless_drops


def test_bytes_ceil_eta_is_not_enough_for_small_frames():
    # eta / cell_bytes ignores that a 64-byte frame holds a whole 256-byte cell
    assert incast(64, H.eta_cells_ceil).lossless_drops > 0
    assert incast(64, H.eta_cells_worst).lossless_drops == 0


def test_more_senders_same_per_pg_headroom():
    assert incast(64, H.eta_cells_worst, senders=8).lossless_drops == 0


def test_without_reverse_wait_less_headroom_is_used():
    worst = incast(1500, H.eta_cells_worst, Fraction(0))
    easy = incast(1500, H.eta_cells_worst, Fraction(0), reverse_busy=False)
    assert max(easy.max_hdrm) < max(worst.max_hdrm)


def test_xon_resumes_and_egress_stays_busy():
    r = incast(1500, H.eta_cells_worst)
    assert r.pfc_xon >= 1
    # the egress never starves: close to line rate (frame / (frame + 20)) for the whole run
    assert r.delivered_bytes >= 0.9 * DURATION * 1500 / 1520


def test_pause_timer_expiry_without_refresh_loses_frames():
    # egress stuck: with a short pause and no refresh the senders resume and overrun headroom
    short = dict(pause_quanta=200, refresh_quanta=0x7FFF)
    assert incast(1500, H.eta_cells_worst, Fraction(0), **short).lossless_drops > 0
    refreshed = dict(pause_quanta=200, refresh_quanta=100)
    r = incast(1500, H.eta_cells_worst, Fraction(0), **refreshed)
    assert r.lossless_drops == 0 and r.pfc_refresh > 0


def test_sender_finishes_the_frame_in_flight():
    # one 9000-byte frame per sender; XOFF cannot cut a frame, so all bytes sent arrive whole
    net = NetConfig(senders=2, duration=DURATION, drain=Fraction(0),
                    flows=[[Flow(3, 9000)] for _ in range(2)])
    r = simulate(net, switch_config(2, H.eta_cells_worst))
    assert r.frames_sent == r.frames_admitted + r.lossless_drops
    assert r.lossless_drops == 0


def test_lossy_traffic_is_dropped_not_paused():
    net = NetConfig(senders=4, duration=DURATION,
                    flows=[[Flow(3, 1500), Flow(0, 1500)] for _ in range(4)])
    r = simulate(net, switch_config(4, H.eta_cells_worst, lossy_shared=200))
    assert r.lossless_drops == 0 and r.lossy_drops > 0
    assert all(pg == 3 for _, _, pg, _ in r.pfc_log)


@pytest.mark.parametrize("args,drops", [([], False), (["--headroom-fraction", "0.25"], True)])
def test_scenario_incast_cli(tmp_path, capsys, args, drops):
    assert scenario.main(["incast", "--ports", "4", "--us", "16", "--out", str(tmp_path)]
                         + args) == 0
    out = capsys.readouterr().out
    n = int(out.split("lossless drops ")[1].split(",")[0])
    assert (n > 0) == drops
    assert (tmp_path / "incast.csv").stat().st_size > 0
    assert (tmp_path / "incast.png").stat().st_size > 0
    header = (tmp_path / "incast.csv").read_text().splitlines()[0]
    for col in ("p0pg3_res", "p0pg3_shared", "p0pg3_hdrm", "p0pg3_T", "p0pg3_xoff",
                "pfc_xoff", "pfc_xon", "lossless_drops"):
        assert col in header


@pytest.mark.parametrize("name", ["burst", "mixed", "storm"])
def test_other_scenarios_run(tmp_path, capsys, name):
    extra = ["--us", "60"] if name == "storm" else ["--us", "8"]
    assert scenario.main([name, "--ports", "2", "--out", str(tmp_path)] + extra) == 0
    out = capsys.readouterr().out
    assert "lossless drops 0" in out
    if name == "mixed":
        assert "lossy drops 0" not in out
    if name == "storm":
        assert "2/2 senders paused" in out
    assert (tmp_path / f"{name}.png").exists()


@pytest.mark.parametrize("starts", [(0, 0), (0, 5000), (0, 5000, 9000)])
def test_a_sender_with_several_flows_sends_at_line_rate(starts):
    """One transmitter per sender, whatever its number of flows and their start times (until
    2026-11-27 each flow drove its own, so two flows sent at twice the line rate)."""
    duration = 152_000  # 100 frames of 1500 B + 20 on the wire
    prios = (3, 0, 4)
    net = NetConfig(senders=1, duration=duration,
                    flows=[[Flow(prios[n], 1500, start=s) for n, s in enumerate(starts)]])
    r = simulate(net, switch_config(1, H.eta_cells_worst, lossless_prios=(3, 4)))
    assert r.frames_sent == 101  # the 101st has started at the end, as with one flow
