"""Headroom calculator and SONiC import/export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models import headroom
from models.config import ConfigError, MmuConfig, example_config
from models.sonic import from_sonic, to_sonic

from .helpers import small_cfg

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "arista_7050qx32.json"


# ----------------------------------------------------------------- headroom
def test_eta_100g_300m_1500():
    # 2 * (100e9/8 B/s * 1.5e-6 s + 1500) + 3840 = 2 * (18750 + 1500) + 3840
    assert headroom.link_delay_bytes(100, 300) == 18750
    assert headroom.eta_seed000(100, 300, 1500) == 44340
    assert headroom.eta_seed001(100, 300, 1500) == 9216 + 1500 + 3840 + 2 * 18750


def test_eta_cells_ceil_and_worst_case():
    h = headroom.compute(100, 300, 1500, cell_bytes=256)
    assert h.eta_cells_ceil == -(-44340 // 256) == 174
    assert h.factor == 4  # a 64-byte frame holds a whole 256-byte cell
    assert h.eta_cells_worst == -(-44340 * 4 // 256) == 693
    assert h.xoff_cells == 693 and h.xon_cells == 6


@pytest.mark.parametrize("cell,factor", [(256, 4), (208, 3.25), (144, 2.25), (128, 2),
                                         (96, 192 / 97), (64, 128 / 65)])
def test_worst_case_factor(cell, factor):
    f = headroom.worst_case_factor(cell)
    assert float(f) == pytest.approx(factor)
    # it bounds the cell inflation of every frame size from 64 bytes to 9216
    for length in list(range(64, 9217, 7)) + [cell + 1, 2 * cell + 1]:
        assert -(-length // cell) * cell <= f * length


def test_mellanox_factor_differs_only_at_128():
    for cell in range(64, 1025):  # (below 64 B SONiC counts frames shorter than 64 B)
        same = headroom.worst_case_factor(cell) == headroom.mellanox_factor(cell)
        assert same == (cell != 128), cell


def test_mellanox_form():
    # xoff = MTU + (MTU + 2*300*100e9/198e6/8 + 0 + 394*64) * 4, rounded up to 1 KiB
    cable = 2 * 300 * 100e9 / 198e6 / 8
    raw = 1500 + (1500 + cable + 394 * 64) * 4
    assert headroom.xoff_mellanox(100, 300, 1500, 256) == -(-int(raw + 1) // 1024) * 1024
    with pytest.raises(ValueError):
        headroom.xoff_mellanox(3, 1, 1500, 256)


def test_headroom_cli_prints_eta(capsys):
    assert headroom.main(["--speed", "100", "--cable", "300", "--mtu", "1500"]) == 0
    out = capsys.readouterr().out
    assert "= 44340 B" in out and "174 cells" in out and "693 cells" in out
    assert "xoff (headroom) 693 cells" in out and "xon 6 cells" in out
    headroom.main(["--speed", "100", "--cable", "300", "--mtu", "1500", "--cell-bytes", "208",
                   "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["eta_bytes"] == 44340 and d["eta_cells_ceil"] == 214


# ----------------------------------------------------------------- SONiC
def test_arista_example_loads():
    cfg = from_sonic(EXAMPLE.read_text(), cell_bytes=208)
    assert cfg.port_count == 32 and cfg.cell_bytes == 208
    pg = cfg.pg(0, 3)
    # bytes -> cells by ceiling: 41808/208 = 201, 40560/208 = 195, 18432/208 = 88.6, 2496/208 = 12
    assert (pg.lossless, pg.reserved, pg.headroom, pg.xon, pg.xon_offset) == (True, 201, 195, 89,
                                                                              12)
    assert pg.dynamic and pg.alpha_shift == -3
    lossy = cfg.pg(31, 0)
    assert (lossy.lossless, lossy.reserved, lossy.alpha_shift) == (False, 0, 3)
    assert cfg.queue(0, 3).lossless and not cfg.queue(0, 3).dynamic
    assert cfg.queue(0, 0).reserved == 8  # 1518 bytes -> 8 cells
    assert cfg.ingress_lossless_pool == 37500 and cfg.shared_headroom_pool == 0
    assert cfg.ports[0].cable_m == 300 and cfg.ports[0].speed_gbps == 40
    assert cfg.validate() == []


def test_round_trip_cfg_sonic_cfg():
    for cfg in (example_config(), small_cfg(shared_headroom_pool=8),
                from_sonic(EXAMPLE.read_text(), 208)):
        s = to_sonic(cfg)
        json.dumps(s)  # JSON-serialisable
        back = from_sonic(json.dumps(s), cfg.cell_bytes, buffer_cells=cfg.buffer_cells,
                          max_frame_bytes=cfg.max_frame_bytes)
        assert back == cfg


def test_round_trip_sonic_is_idempotent_after_one_conversion():
    cfg = from_sonic(EXAMPLE.read_text(), 208)
    s1 = to_sonic(cfg)
    assert to_sonic(from_sonic(s1, 208)) == s1
    # byte values are multiples of the cell after the first conversion
    assert s1["BUFFER_PROFILE"]["pg_lossless_profile"]["xon"] == str(89 * 208)


@given(st.integers(0, 5), st.integers(0, 20), st.integers(-7, 3), st.integers(0, 3),
       st.booleans(), st.integers(1, 30))
def test_round_trip_random(reserved, headroom_cells, shift, offset, dynamic, static_th):
    pg = {"reserved": reserved, "headroom": headroom_cells, "dynamic": dynamic,
          "alpha_shift": shift if dynamic else 0, "static_th": 0 if dynamic else static_th,
          "xon": 0, "xon_offset": offset}
    cfg = small_cfg(lossless_pool=300, buffer_cells=500, pg=pg,
                    lossy_pg={"alpha_shift": shift})
    cfg.validate()
    assert from_sonic(to_sonic(cfg), 256, buffer_cells=500) == cfg


def test_sonic_errors_name_the_field():
    d = json.loads(EXAMPLE.read_text())
    prof = "pg_lossless_40000_300m_profile"
    d["BUFFER_PROFILE"][prof]["pool"] = "[BUFFER_POOL|ingress_lossy_pool]"
    with pytest.raises(ConfigError, match="pg_lossless_40000_300m_profile.pool"):
        from_sonic(d, 208)
    d = json.loads(EXAMPLE.read_text())
    d["BUFFER_PG"]["Ethernet0|3-4"] = {"profile": "[BUFFER_PROFILE|nope]"}
    with pytest.raises(ConfigError, match="no BUFFER_PROFILE 'nope'"):
        from_sonic(d, 208)
    d = json.loads(EXAMPLE.read_text())
    d["BUFFER_PG"]["Ethernet0|7-9"] = {"profile": "ingress_lossy_profile"}
    with pytest.raises(ConfigError, match="outside 0..7"):
        from_sonic(d, 208)
    d = json.loads(EXAMPLE.read_text())
    d["BUFFER_PROFILE"]["pg_lossless_40000_300m_profile"]["xoff"] = "4000000"  # > the pool
    d["BUFFER_PROFILE"]["pg_lossless_40000_300m_profile"]["xon"] = "0"  # (xon is checked first)
    with pytest.raises(ConfigError, match="ingress_lossless_pool"):
        from_sonic(d, 208)


def test_sonic_port_subset_and_shared_headroom_pool():
    d = json.loads(EXAMPLE.read_text())
    d["BUFFER_POOL"]["ingress_lossless_pool"]["xoff"] = str(1000 * 208)
    cfg = from_sonic(d, 208, ports=["Ethernet0", "Ethernet4"])
    assert cfg.port_count == 2 and cfg.shared_headroom_pool == 1000
    assert isinstance(cfg, MmuConfig)
