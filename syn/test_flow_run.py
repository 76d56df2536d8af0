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
