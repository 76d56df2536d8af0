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


_COPIES_V = """
module top (input wire clk, input wire d, output wire q0, output wire q1);
reg a, b;
(* keep *) always @(posedge clk) begin
    a <= d;
    b <= d;
end
assign q0 = a;
assign q1 = b;
endmodule
"""


def _ffs_after(tmp_path, merge: list[str] | None) -> int:
    """Flip-flops left by `synth` on a design with one register kept as two copies (the RTL's
    convention: `(* keep *)` on the always block, which proc puts on its $dff cells), through
    synth_head's commands (the generic `synth` in place of synth_ecp5)."""
    import json
    import subprocess
    from types import SimpleNamespace
    (tmp_path / "copies.v").write_text(_COPIES_V)
    args = SimpleNamespace(top="top", merge_copies=merge or [])
    cmds = ["read_verilog copies.v"] + flow.synth_head(args, "synth", "") + [
        "write_json net.json"]
    subprocess.run([flow.tool("yosys"), "-q", "-p", "; ".join(cmds)], cwd=tmp_path,
                   check=True, capture_output=True)
    net = json.loads((tmp_path / "net.json").read_text())
    cells = net["modules"]["top"]["cells"].values()
    return sum(1 for c in cells if "DFF" in c["type"].upper())


def test_synth_head_commands():
    from types import SimpleNamespace
    plain = SimpleNamespace(top="t", merge_copies=[])
    assert flow.synth_head(plain, "synth_ecp5", "") == ["synth_ecp5 -top t"]
    assert flow.synth_head(plain, "synth_ecp5", "map_ffs") == [
        "synth_ecp5 -top t -run begin:map_ffs"]
    merged = SimpleNamespace(top="t", merge_copies=["*mmu_*", "*sw_ram*"])
    assert flow.synth_head(merged, "synth_ecp5", "map_ffs") == [
        "synth_ecp5 -top t -run begin:coarse", "proc",
        "setattr -unset keep *mmu_*/t:$*dff*", "setattr -unset keep *sw_ram*/t:$*dff*",
        "synth_ecp5 -top t -run coarse:map_ffs"]


def test_synth_head_merge_copies_folds_kept_registers(tmp_path):
    # without --merge-copies the two kept copies stay (the negative: keep is honoured) ...
    assert _ffs_after(tmp_path, None) == 2
    # ... with it opt_merge folds them into one; a pattern naming no module leaves them
    assert _ffs_after(tmp_path, ["*top*"]) == 1
    assert _ffs_after(tmp_path, ["*other*"]) == 2
