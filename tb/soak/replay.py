"""The soak's checks after the simulation (plain Python; no simulator).

* **Replay.**  soak_top writes every event at the admission core's ports to a trace (request,
  release, response, configuration write, pfc_xoff change, each with its clock number;
  tb/soak/soak_top.v).  :func:`replay` feeds it to the switch benches' predictor
  (tb/common/mmu_bus.py: models.mmu_pipe.PipelinedMmu stepped on every clock, idle clocks
  included), which checks every response (all nine fields, at its clock), every pfc_xoff
  change (value and clock) and every configuration write against the configuration the bench
  loaded.
* **End checks** (:func:`check`) on the counters the bench read after draining the switch
  (``summary``, written by tb/soak/soak_cases.py): no lossless frame dropped (model) or lost
  (frame_check), nothing corrupted, misrouted or reordered; every frame offered accounted for
  (delivered + dropped, by reason); every cell back in the free list and none handed out or
  returned twice (soak_cell_owner); every admission counter zero; the RTL's drop counters and
  per-PG headroom watermarks equal the model's; peak headroom at most eta; the coverage bins
  the soak exists for (XOFF, headroom, incoming PFC, lossy drops, bad frames) all hit.
* **Switch registers** (:func:`switch_expected`): switch_core's own registers, read back over
  the soak's AXI4-Lite master after the drain (``summary["switch_regs"]``, keys of
  tb/common/switch_regs.py), against the soak's own counts: the configuration as
  ``soak_switch_config`` wrote it, the drained globals and the admission drops by reason of
  the model, and per port the frames in (frame_gen's frames + the partner's PFC frames),
  data frames out (frame_check's frames less the PFC frames pfc_rx counted), bad frames
  dropped (marked by the bench), admission drops (the model's refusals by ingress port) and
  PFC frames received (the partner's pfc_tx).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from common import switch_regs
from common.mmu_bus import MmuPredictor
from models.config import MmuConfig
from models.mmu import REASON_NAMES
from soak.soak_config import CELL_W, ETA, LOSSLESS, soak_config, soak_switch_config

TRACE_NAME = "admission_trace.txt"
SUMMARY_NAME = "soak_summary.json"


def trace_clocks(path: Path):
    """(clock, {kind: [fields]}) for every clock of the trace that has an event, in order."""
    cur = None
    ev: dict[str, list[int]] = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            clk = int(parts[1], 16)
            if clk != cur:
                if cur is not None:
                    yield cur, ev
                cur, ev = clk, {}
            ev[parts[0]] = [int(x, 16) for x in parts[2:]]
    if cur is not None:
        yield cur, ev


@dataclass
class Replay:
    pred: MmuPredictor
    clocks: int = 0
    lossless_drops: int = 0
    decisions: Counter = field(default_factory=Counter)
    pg_arrivals: Counter = field(default_factory=Counter)
    port_drops: Counter = field(default_factory=Counter)   # admission refusals by ingress port

    @property
    def model(self):
        return self.pred.model

    @property
    def errors(self) -> list[str]:
        return self.pred.errors


def replay(trace: Path, end_clock: int, cfg=None, max_errors: int = 50) -> Replay:
    """Every clock of ``trace`` up to ``end_clock`` (the admission core's clock number when the
    bench stopped) through the golden model; the result's ``errors`` lists the mismatches."""
    cfg = cfg or soak_config()
    pred = MmuPredictor(cfg, ports=cfg.port_count, cell_w=CELL_W, name="soak mmu_core",
                        max_errors=max_errors)
    r = Replay(pred)
    lossless = {(p, g) for p in range(cfg.port_count) for g in range(8)
                if cfg.ports[p].pgs[g].lossless}

    def decision(clock, arr, d, tag):
        r.decisions[REASON_NAMES[d.reason]] += 1
        r.pg_arrivals[(arr[0], arr[1])] += 1
        if not d.admit:
            r.port_drops[arr[0]] += 1
        if not d.admit and (arr[0], arr[1]) in lossless:
            r.lossless_drops += 1
    pred.on_decision = decision
    for clk, ev in trace_clocks(trace):
        if clk >= end_clock:
            break
        a = ev.get("A")
        w = ev.get("W")
        x = ev.get("X")
        pred.observe(clk, rel=tuple(ev["R"]) if "R" in ev else None,
                     arr=tuple(a[:5]) if a else None, tag=a[5] if a else 0,
                     write=tuple(w) if w else None, resp=ev.get("D"),
                     xoff=x[0] if x else None)
    pred.sync(end_clock)
    pred.check_loaded()
    r.clocks = end_clock
    return r


# the per-port counters the soak reads back (soak_cases) and compares (switch_expected)
SWITCH_PORT_COUNTERS = ["rx_frames", "tx_frames", "drop_error", "drop_admission",
                        "pfc_rx_frames"]


def switch_keys(cfg: MmuConfig) -> list[str]:
    """The switch registers the soak reads back after the drain (tb/common/switch_regs.py
    keys): every configuration register, the drained globals, SWITCH_PORT_COUNTERS."""
    drops = [0] * len(REASON_NAMES)
    return (list(switch_regs.config(soak_switch_config(cfg)))
            + list(switch_regs.drained(0, drops))
            + switch_regs.keys(SWITCH_PORT_COUNTERS, cfg.port_count))


def switch_expected(summary: dict, rep: Replay) -> dict[str, int]:
    """What the soak itself counted, for each register of ``switch_keys`` (module
    docstring)."""
    s = summary
    ports = len(s["gen_frames"])
    cfg = soak_config(ports=ports, cell_bytes=s["params"]["cell_bytes"],
                      buffer_cells=s["buffer_cells"])
    want = switch_regs.config(soak_switch_config(cfg))
    want.update(switch_regs.drained(s["buffer_cells"], list(rep.model.drops)))
    for p in range(ports):
        want[f"rx_frames[{p}]"] = s["gen_frames"][p] + s["partner_pfc_tx"][p]
        # frame_check counts every frame once: ok, an error, or other (the PFC frames)
        want[f"tx_frames[{p}]"] = (s["chk_ok"][p] + s["chk_errors"][p] + s["chk_other"][p]
                                   - s["partner_pfc_rx"][p])
        want[f"drop_error[{p}]"] = s["gen_bad_frames"][p]
        want[f"drop_admission[{p}]"] = rep.port_drops[p]
        want[f"pfc_rx_frames[{p}]"] = s["partner_pfc_tx"][p]
    return want


def _sum(v: list[int]) -> int:
    return sum(v)


def check(summary: dict, rep: Replay) -> list[str]:
    """The end checks (module docstring): a list of failures, empty when the soak passed."""
    s = summary
    fails: list[str] = []
    m = rep.model

    def need(ok: bool, msg: str) -> None:
        if not ok:
            fails.append(msg)

    need(not rep.errors, f"admission differs from the model ({rep.pred.error_count} "
                         f"mismatches): {rep.errors[:5]}")
    need(rep.lossless_drops == 0, f"{rep.lossless_drops} lossless frames dropped (model)")
    need(_sum(s["chk_lost"]) == 0, f"lossless frames lost (frame_check): {s['chk_lost']}")
    need(_sum(s["chk_errors"]) == 0,
         f"frames corrupted, misrouted or reordered (frame_check): {s['chk_errors']}")
    offered = _sum(s["gen_frames"])
    dropped = sum(_sum(s[k]) for k in DROP_KEYS)
    need(offered == _sum(s["chk_ok"]) + dropped,
         f"frames offered {offered} != delivered {_sum(s['chk_ok'])} + dropped {dropped}")
    need(_sum(s["stat_drop_error"]) == _sum(s["gen_bad_frames"]),
         f"bad frames sent {s['gen_bad_frames']}, dropped as errors {s['stat_drop_error']}")
    need(s["stat_free_cells"] == s["buffer_cells"],
         f"free cells {s['stat_free_cells']} of {s['buffer_cells']} after draining")
    need(s["stat_used_cells"] == 0 and s["stat_queued_frames"] == 0,
         f"used cells {s['stat_used_cells']}, queued frames {s['stat_queued_frames']}")
    need(s["cell_double_allocs"] == 0 and s["cell_double_frees"] == 0,
         f"cells handed out twice {s['cell_double_allocs']}, freed twice "
         f"{s['cell_double_frees']}")
    need(s["cells_owned"] == s["spare_cells"],
         f"cells held after draining {s['cells_owned'][:8]} are not the spares "
         f"{s['spare_cells']}")
    need(s["err_flags"] == 0, f"switch error flags {s['err_flags']:#x}")
    need(not s["mmu_held"], f"mmu_core counters not zero (address, value): {s['mmu_held'][:8]}")
    need(m.total_used == 0, f"the model holds {m.total_used} cells")
    need(s["stat_mmu_drop_count"] == list(m.drops),
         f"MMU drop counters {s['stat_mmu_drop_count']} != model {list(m.drops)}")
    hw = s["pg_hdrm_wm"]
    need(hw == list(m.hdrm_wm), f"per-PG headroom watermarks {hw} != model {list(m.hdrm_wm)}")
    need(max(hw) <= ETA, f"peak headroom {max(hw)} cells above eta {ETA}")
    need(s["stat_xoff"] == 0 and not any(m.xoff), "a PG still in XOFF after draining")
    bad = switch_regs.diffs(s.get("switch_regs", {}), switch_expected(s, rep))
    need(not bad, f"switch registers read over AXI4-Lite differ from the soak's counts "
                  f"({len(bad)}; name, read, expected): {bad[:8]}")
    for name, hit in coverage(s, rep).items():
        need(hit > 0, f"coverage: {name} never hit")
    return fails


DROP_KEYS = ("stat_drop_error", "stat_drop_runt", "stat_drop_oversize", "stat_drop_admission",
             "stat_drop_malformed", "stat_drop_bad_dest", "stat_drop_stall")


def coverage(s: dict, rep: Replay) -> dict[str, int]:
    """The bins the soak must hit, with their counts."""
    m = rep.model
    n = len(s["gen_frames"]) * 8
    lossless_pgs = [i for i in range(n) if i % 8 in LOSSLESS]
    # the incast's lossless PGs: lossless priorities of the ports that send to port 0
    incast = [i for i in lossless_pgs if i // 8 != 0 and i % 8 == 3]
    out = {}
    for i in incast:
        out[f"XOFF port {i // 8} PG {i % 8}"] = m.xoff_count[i]
        out[f"headroom port {i // 8} PG {i % 8}"] = m.hdrm_wm[i]
    out["XON after XOFF (all PGs)"] = sum(m.xon_count)
    out["lossy drops (ingress)"] = m.drops[REASON_NAMES.index("ingress_lossy")]
    out["lossy drops (egress)"] = m.drops[REASON_NAMES.index("egress")]
    out["PFC frames switch -> partners"] = _sum(s["partner_pfc_rx"])
    out["PFC frames partners -> switch"] = _sum(s["stat_pfc_rx_frames"])
    out["PFC frames partner 0 -> switch (incast egress paused)"] = s["stat_pfc_rx_frames"][0]
    out["bad frames dropped"] = _sum(s["stat_drop_error"])
    return out


def table(s: dict, rep: Replay, wall: dict | None = None) -> str:
    """The soak's summary: frames, drops by reason, PFC each way, headroom, coverage."""
    m = rep.model
    lines = []
    ports = len(s["gen_frames"])

    def row(name, vals, total=True):
        cells = " ".join(f"{v:>10}" for v in vals)
        lines.append(f"  {name:<34}{cells}" + (f" {sum(vals):>11}" if total else ""))
    lines.append("soak summary (" + ", ".join(f"{k} {v}" for k, v in s["params"].items()) + ")")
    lines.append(f"  {'per port':<34}" + " ".join(f"{'port ' + str(p):>10}" for p in range(ports))
                 + f" {'total':>11}")
    row("frames offered (frame_gen)", s["gen_frames"])
    row("frames received by the switch", s["stat_rx_frames"])
    row("frames sent by the switch", s["stat_tx_frames"])
    row("test frames delivered (frame_check)", s["chk_ok"])
    row("lossless frames lost (frame_check)", s["chk_lost"])
    row("lossy gaps seen (frame_check)", s["chk_gaps"])
    row("dropped: admission", s["stat_drop_admission"])
    row("dropped: error flag (bad frames)", s["stat_drop_error"])
    row("bad frames sent", s["gen_bad_frames"])
    row("PFC frames switch -> partner", s["partner_pfc_rx"])
    row("PFC frames partner -> switch", s["stat_pfc_rx_frames"])
    lines.append("  admission drops by reason (RTL = model): " + ", ".join(
        f"{REASON_NAMES[r]} {n}" for r, n in enumerate(m.drops) if r and n) +
        f"; lossless drops {rep.lossless_drops}")
    hw = s["pg_hdrm_wm"]
    lines.append(f"  peak headroom {max(hw)} cells of eta {ETA} (per lossless PG: " + ", ".join(
        f"p{i // 8}/{i % 8} {hw[i]}" for i in range(len(hw)) if i % 8 in LOSSLESS) +
        f"); headroom pool peak {s['hdrm_pool_wm']}")
    lines.append(f"  model: {rep.pred.summary()}")
    lines.append(f"  XOFF / XON per lossless PG: " + ", ".join(
        f"p{i // 8}/{i % 8} {m.xoff_count[i]}/{m.xon_count[i]}" for i in range(len(hw))
        if i % 8 in LOSSLESS))
    sw_bad = switch_regs.diffs(s.get("switch_regs", {}), switch_expected(s, rep))
    lines.append(f"  switch registers read back over AXI4-Lite: {len(s.get('switch_regs', {}))}, "
                 f"{len(sw_bad)} differ from the soak's counts")
    lines.append(f"  cells: {s['cell_allocs']} allocations, free {s['stat_free_cells']} of "
                 f"{s['buffer_cells']} at the end, lowest free {s['stat_free_low_wm']}")
    cov = coverage(s, rep)
    hit = sum(1 for v in cov.values() if v)
    lines.append(f"  coverage {hit}/{len(cov)} bins: " + ", ".join(
        f"{k} {v}" for k, v in cov.items()))
    if wall:
        lines.append("  time: " + ", ".join(f"{k} {v}" for k, v in wall.items()))
    return "\n".join(lines)


def load(run_dir: Path) -> dict:
    return json.loads((run_dir / SUMMARY_NAME).read_text())


def main(argv: list[str]) -> int:
    """python tb/soak/replay.py <run folder>: replay and check a finished soak run."""
    d = Path(argv[0])
    s = load(d)
    rep = replay(d / TRACE_NAME, s["end_clock"])
    print(table(s, rep))
    fails = check(s, rep)
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
