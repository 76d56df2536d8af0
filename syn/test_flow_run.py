"""syn/flow.py's run(): a long phase prints its start, a heartbeat and its elapsed time; a
failing tool ends the flow with its log's tail and one line naming it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import flow  # noqa: E402


def test_run_prints_phase_heartbeat_and_elapsed(tmp_path, capsys):
    log = tmp_path / "yosys.log"
    dt = flow.run([sys.executable, "-c", "import time; time.sleep(0.35); print('hi')"], log,
                  heartbeat=0.1)
    out = capsys.readouterr().out.splitlines()
    phase = f"{tmp_path.name}/yosys"
    assert out[0].startswith(f"flow: {phase}: python") and "started" in out[0]
    assert any("running" in ln for ln in out[1:-1])
    assert out[-1].startswith(f"flow: {phase}:") and "done in" in out[-1]
    assert dt >= 0.3 and log.read_text().strip() == "hi"


def test_run_failure_names_the_tool(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        flow.run([sys.executable, "-c", "import sys; print('boom'); sys.exit(3)"],
                 tmp_path / "nextpnr.log")
    assert "failed after" in str(e.value) and "nextpnr.log" in str(e.value)
    assert "boom" in capsys.readouterr().err


def _premap(groups: dict[int, int], extra_types=()) -> dict:
    """A pre-map_ffs netlist: for each reset net bit, that many $_SDFFE_PP0P_ cells."""
    cells = {}
    for bit, n in groups.items():
        for i in range(n):
            cells[f"r{bit}_{i}"] = {"type": "$_SDFFE_PP0P_",
                                    "connections": {"R": [bit], "D": [1000], "Q": [2000]}}
    for i, t in enumerate(extra_types):
        cells[f"x{i}"] = {"type": t, "connections": {"D": [1000], "Q": [2001]}}
    return {"modules": {"DP16KD": {"attributes": {"blackbox": 1}, "cells": {}},
                        "top": {"attributes": {}, "cells": cells}}}


def test_small_srst_cells_picks_groups_below_the_limit():
    top, cells, n = flow.small_srst_cells(_premap({5: 1, 6: 3, 7: 8, 8: 40},
                                                  extra_types=("$_DFFE_PP_",)), 8)
    assert top == "top" and n == 2
    assert sorted(cells) == ["r5_0", "r6_0", "r6_1", "r6_2"]
    # the limit is strict: a group of exactly lsr_min keeps its reset
    _, cells, n = flow.small_srst_cells(_premap({7: 8}), 8)
    assert cells == [] and n == 0


def test_small_srst_cells_rejects_an_unflattened_netlist():
    net = _premap({5: 1})
    net["modules"]["sub"] = {"attributes": {}, "cells": {}}
    with pytest.raises(SystemExit, match="one flattened module"):
        flow.small_srst_cells(net, 8)
