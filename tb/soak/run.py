"""Build and run the soak (tb/soak/soak_top.v) and check it: shared by the pytest items
(tb/soak/test_soak.py) and make soak (python tb/soak/soak.py)."""

from __future__ import annotations

import time
from pathlib import Path

import harness
from soak import replay as rp
from soak.soak_config import BUFFER_CELLS, CELL_BYTES, DATA_WIDTH, PORT_COUNT

HERE = Path(__file__).resolve().parent


def sources() -> list[Path]:
    return harness.rtl_sources() + [HERE / "soak_link_mux.v", HERE / "soak_cell_owner.v",
                                    HERE / "soak_top.v"]


def build_args(sim: str) -> list[str]:
    return ["--no-public-flat-rw", str(HERE / "public.vlt")] if sim == "verilator" else []


def run_soak(test_id: str, frames: int, seed: int = 1, bad_rate: int = 16, pfc_ports: int = 3,
             chunk: int = 20000, mmu_fault: int = 0, sim: str | None = None):
    """Simulate, then replay the trace and check.  Returns (summary, Replay, failures, text
    of the summary table)."""
    sim = sim or harness.sim_name()
    params = {"PORT_COUNT": PORT_COUNT, "DATA_WIDTH": DATA_WIDTH, "CELL_BYTES": CELL_BYTES,
              "BUFFER_CELLS": BUFFER_CELLS, "MMU_FAULT_INJECT": mmu_fault}
    # simulated-time limit: generous for the traffic (about 20 clocks a delivered frame) and
    # the drain
    limit_us = (frames * 200 + 5_000_000) * 8 / 1000
    env = {"SOAK_FRAMES": str(frames), "SOAK_SEED": str(seed), "SOAK_BAD_RATE": str(bad_rate),
           "SOAK_PFC_PORTS": str(pfc_ports), "SOAK_CHUNK": str(chunk),
           "TB_TIME_LIMIT_US": str(limit_us)}
    t0 = time.time()
    harness.run("soak_top", "soak.soak_cases", test_id=test_id, sources=sources(),
                parameters=params, extra_env=env, sim=sim,
                build_id=f"soak-fault{mmu_fault}", build_args=build_args(sim))
    t_sim = time.time() - t0
    d = harness.run_dir(test_id, sim)
    s = rp.load(d)
    t1 = time.time()
    rep = rp.replay(d / rp.TRACE_NAME, s["end_clock"])
    t_replay = time.time() - t1
    fails = rp.check(s, rep)
    offered = sum(s["gen_frames"])
    wall = {"build + simulation": f"{t_sim:.0f} s", "of it traffic": f"{s['traffic_wall_s']} s",
            "replay": f"{t_replay:.0f} s", "total": f"{time.time() - t0:.0f} s",
            "frames/s (offered, traffic)": f"{offered / max(s['traffic_wall_s'], 1e-9):.0f}",
            "frames/s (delivered, traffic)":
                f"{sum(s['chk_ok']) / max(s['traffic_wall_s'], 1e-9):.0f}",
            "frames/s (offered, total)": f"{offered / max(time.time() - t0, 1e-9):.0f}",
            "clocks": s["end_clock"], "trace lines": s["trace_lines"]}
    return s, rep, fails, rp.table(s, rep, wall)


__all__ = ["run_soak", "sources", "build_args"]
