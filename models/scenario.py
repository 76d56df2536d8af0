"""Named network scenarios on models.network: CSV time series, PNG plot, one summary line.

    python -m models.scenario incast --ports 4 [--headroom-fraction 0.25] [--out DIR]
    python -m models.scenario burst  --ports 4 [--burst-bytes 65536]
    python -m models.scenario mixed  --ports 4
    python -m models.scenario storm  --ports 4
    python -m models.scenario dt     --ports 8     (also: pfcmmu scenario ...)
    python -m models.scenario headroom [--ports 8] [--switch-ports 32] [--buffer-mib 16]

* incast: N senders -> one egress port at line rate, one lossless priority (3), 64-byte frames
  by default (the worst case for cell occupancy), egress drained at the link rate.  Headroom per
  PG = ``fraction`` x eta in worst-case cells (models.headroom).
* burst: burst absorption vs alpha: every sender sends one ``--burst-bytes`` burst of lossy
  traffic at once, for each alpha = 2^-7 .. 2^3; drops per alpha.
* mixed: each sender sends lossless (priority 3) and lossy (priority 0) frames alternately; lossy
  frames are dropped, lossless ones paused.
* storm: incast whose egress stops for good at ``--stuck-us`` (a stuck receiver pausing the
  switch): every lossless PG fills, XOFF is refreshed for ever, nothing is lost, nothing moves.
* dt: no network: models.mmu alone, N = 1, 2, 4 .. --ports congested PGs with backlog for every
  alpha_shift -7..3, measured shared occupancy per PG against alpha / (1 + N alpha)
  (``DIR/dt.csv``, ``DIR/dt.png``).
* headroom: the headroom policies (static, SONiC shared pool, DSH) on one switch buffer:
  burst absorbed without PFC, incast with background, the worst case, an over-subscribed
  shared pool, and a buffer sweep (models/headroom_compare.py; docs/headroom_policies.md).

Output: ``DIR/<scenario>.csv`` (samples), ``DIR/<scenario>_pfc.csv`` (every XOFF / XON),
``DIR/<scenario>.png``; DIR defaults to sim_build/model/ in the repository (gitignored), or
./pfcmmu-scenario/ when the package is installed outside a checkout.

"""

from __future__ import annotations

import argparse
import csv
from fractions import Fraction
from pathlib import Path

from .cliutil import (Parser, float_range, int_range, nonneg_float, positive_float,
                      run_guarded)
from .config import (ALPHA_SHIFT_MAX, ALPHA_SHIFT_MIN, PG_COUNT, QUEUE_COUNT, ConfigError,
                     MmuConfig, PgConfig, PortConfig, QueueConfig)
from .mmu import Mmu
from .headroom import compute
from .network import Flow, NetConfig, Result, simulate, switch_config

_REPO = Path(__file__).resolve().parents[1]
# in a checkout: the repository's sim_build/model/ (gitignored); installed from a wheel (no
# repository around the package): ./pfcmmu-scenario/ in the current directory
DEFAULT_OUT = (_REPO / "sim_build" / "model" if (_REPO / "rtl" / "rtl.f").is_file()
               else Path("pfcmmu-scenario"))
LOSSLESS_PRIO = 3
LOSSY_PRIO = 0
XON_OFFSET = 12  # network.switch_config's default, the Xon point is T - XON_OFFSET


def _headroom(a) -> tuple[int, int]:
    h = compute(a.speed, a.cable, a.mtu, a.cell_bytes)
    return max(1, int(h.eta_cells_worst * a.headroom_fraction)), h.eta_cells_worst


def _us(a, us: float) -> int:
    return int(us * 1000 * a.speed / 8)  # byte times


def run_incast(a) -> tuple[list[Result], str]:
    hd, eta = _headroom(a)
    n = a.ports
    net = NetConfig(senders=n, speed_gbps=a.speed, cable_m=a.cable, mtu=a.mtu,
                    drain=Fraction(a.drain), duration=_us(a, a.us),
                    flows=[[Flow(LOSSLESS_PRIO, a.frame)] for _ in range(n)])
    cfg = switch_config(n, hd, cell_bytes=a.cell_bytes, alpha_shift=a.alpha_shift,
                        xon_offset=XON_OFFSET)
    r = simulate(net, cfg)
    return [r], (f"headroom {hd} cells ({a.headroom_fraction:g} x eta {eta} worst-case cells), "
                 f"frame {a.frame} B, max headroom used {max(r.max_hdrm)} cells")


def run_mixed(a) -> tuple[list[Result], str]:
    hd, eta = _headroom(a)
    n = a.ports
    net = NetConfig(senders=n, speed_gbps=a.speed, cable_m=a.cable, mtu=a.mtu,
                    drain=Fraction(a.drain), duration=_us(a, a.us),
                    flows=[[Flow(LOSSLESS_PRIO, a.frame), Flow(LOSSY_PRIO, a.frame)]
                           for _ in range(n)])
    cfg = switch_config(n, hd, cell_bytes=a.cell_bytes, alpha_shift=a.alpha_shift, xon_offset=XON_OFFSET,
                        lossy_shared=500)
    r = simulate(net, cfg)
    return [r], f"headroom {hd} cells (eta {eta}), frame {a.frame} B"


def run_storm(a) -> tuple[list[Result], str]:
    hd, eta = _headroom(a)
    n = a.ports
    dur = _us(a, a.us)
    net = NetConfig(senders=n, speed_gbps=a.speed, cable_m=a.cable, mtu=a.mtu,
                    egress_stop=_us(a, a.stuck_us), duration=dur,
                    flows=[[Flow(LOSSLESS_PRIO, a.frame)] for _ in range(n)])
    cfg = switch_config(n, hd, cell_bytes=a.cell_bytes, alpha_shift=a.alpha_shift,
                        xon_offset=XON_OFFSET)
    r = simulate(net, cfg)
    paused = [p for p in r.paused_since if p is not None]
    longest = (dur - min(paused)) * 8 / a.speed / 1000 if paused else 0.0
    return [r], (f"egress stuck at {a.stuck_us:g} us; {len(paused)}/{n} senders paused at the "
                 f"end, longest continuous pause {longest:.1f} us (a PFC watchdog would call "
                 f"this a storm once it exceeds detection_time)")


def run_burst(a) -> tuple[list[Result], str]:
    n = a.ports
    hd, _ = _headroom(a)
    results = []
    parts = []
    for shift in range(-7, 4):
        net = NetConfig(senders=n, speed_gbps=a.speed, cable_m=a.cable, mtu=a.mtu,
                        drain=Fraction(a.drain), duration=_us(a, a.us),
                        flows=[[Flow(LOSSY_PRIO, a.frame, total_bytes=a.burst_bytes)]
                               for _ in range(n)])
        cfg = switch_config(n, hd, cell_bytes=a.cell_bytes, alpha_shift=shift,
                            lossy_shared=a.lossy_shared)
        r = simulate(net, cfg)
        for row in r.samples:
            row["alpha_shift"] = shift
        results.append(r)
        parts.append(f"{shift}:{r.lossy_drops}")
    return results, (f"burst {a.burst_bytes} B x {n} senders, lossy shared {a.lossy_shared} "
                     f"cells; lossy drops per alpha_shift " + " ".join(parts))


SCENARIOS = {"incast": run_incast, "burst": run_burst, "mixed": run_mixed, "storm": run_storm}
# not a network run: models.mmu.Mmu alone, DT steady state against theory (see dt_steady_state)
MMU_ONLY = {"dt"}
# several network runs per policy, their own table and plots (models.headroom_compare)
COMPARISONS = {"headroom"}


def title(name: str, a: argparse.Namespace) -> str:
    """The run's parameters, for the plot's title (so a PNG on its own says what it shows)."""
    hd, eta = _headroom(a)
    head = (f"pfcmmu model: {name}, {a.ports} senders -> 1 egress, {a.speed:g} Gb/s, "
            f"cable {a.cable:g} m, {a.frame} B frames, cell {a.cell_bytes} B")
    if name == "burst":
        return (f"{head}\nlossy burst {a.burst_bytes} B per sender, lossy shared "
                f"{a.lossy_shared} cells, alpha 2^-7 .. 2^3, drain {float(a.drain):g}, "
                f"{a.us:g} us")
    more = f"egress stops at {a.stuck_us:g} us" if name == "storm" else \
        f"drain {float(a.drain):g} x line rate"
    return (f"{head}\nalpha 2^{a.alpha_shift}, headroom {hd} cells ({a.headroom_fraction:g} x "
            f"eta {eta} worst-case cells), xon_offset {XON_OFFSET} cells, {more}, {a.us:g} us")


def write_outputs(name: str, results: list[Result], out: Path,
                  a: argparse.Namespace | None = None) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    rows = [row for r in results for row in r.samples]
    keys: list[str] = []
    for row in rows:
        keys.extend(k for k in row if k not in keys)
    csv_path = out / f"{name}.csv"
    with csv_path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    with (out / f"{name}_pfc.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "byte_time", "port", "pg", "event"])
        for k, r in enumerate(results):
            for t, port, pg, xoff in r.pfc_log:
                w.writerow([k, t, port, pg, "XOFF" if xoff else "XON"])
    png = out / f"{name}.png"
    _plot(name, results, png, a)
    return csv_path, png


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def port_groups(samples: list[dict], ports: int, pg: int) -> list[tuple[list[int], int]]:
    """Senders whose PG ``pg`` follows the same time series (reserved, shared, headroom,
    threshold) to within a few cells, grouped, first port first, each with the largest
    difference to its first port: symmetric senders draw one line, not N on top of each other
    (they differ by a frame or two, as each sender's frames arrive a little apart)."""
    series = {}
    for k in range(ports):
        tag = f"p{k}pg{pg}"
        if f"{tag}_shared" in samples[0]:
            series[k] = [[row[f"{tag}_{c}"] for row in samples]
                         for c in ("res", "shared", "hdrm", "T")]
    peak = max((max(v) for ss in series.values() for v in ss), default=0)
    tol = max(2, peak // 50)
    groups: list[tuple[list[int], int]] = []
    for k, ss in series.items():
        for members, _ in groups:
            ref = series[members[0]]
            diff = max(abs(x - y) for a_, b_ in zip(ss, ref) for x, y in zip(a_, b_))
            if diff <= tol:
                members.append(k)
                break
        else:
            groups.append(([k], 0))
    out = []
    for members, _ in groups:
        ref = series[members[0]]
        diff = max((abs(x - y) for k in members for a_, b_ in zip(series[k], ref)
                    for x, y in zip(a_, b_)), default=0)
        out.append((members, diff))
    return out


def _ports_label(group: list[int], diff: int) -> str:
    if len(group) == 1:
        return f"port {group[0]}"
    if group == list(range(group[0], group[-1] + 1)):
        names = f"ports {group[0]}..{group[-1]}"
    else:
        names = "ports " + ",".join(map(str, group))
    return f"{names} (identical)" if diff == 0 else f"{names} (within {diff} cell{'s' if diff > 1 else ''})"


def _plot(name: str, results: list[Result], png: Path, a: argparse.Namespace | None) -> None:
    plt = _pyplot()
    sup = title(name, a) if a is not None else f"pfcmmu model: {name}"
    if name == "burst":
        fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(12, 7), sharex=True)
        cmap = plt.get_cmap("viridis")
        for n, r in enumerate(results):
            s = r.samples
            t = [row["t_ns"] / 1000 for row in s]
            c = cmap(n / max(1, len(results) - 1))
            ax1.plot(t, [row["pool_lossy_shared"] for row in s], color=c,
                     label=f"alpha 2^{s[0]['alpha_shift']}")
            ax2.plot(t, [row["lossy_drops"] for row in s], color=c,
                     label=f"2^{s[0]['alpha_shift']}: {r.lossy_drops}")
        if a is not None:
            ax1.axhline(a.lossy_shared, color="k", ls=":", lw=1, label="lossy shared size")
        ax1.set_ylabel("lossy pool, shared cells used")
        ax2.set_ylabel("lossy drops (frames, cumulative)")
        ax1.legend(fontsize=7, **OUTSIDE)
        ax2.legend(fontsize=7, **OUTSIDE, title="drops per alpha", title_fontsize=7)
        ax2.set_xlabel("time (us)")
        for ax in (ax1, ax2):
            ax.grid(alpha=0.3)
    else:
        _plot_lossless(plt, results[0], a)
        fig = plt.gcf()
    fig.suptitle(sup, fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=90)
    plt.close(fig)


OUTSIDE = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "borderaxespad": 0.0}


def _plot_lossless(plt, r: Result, a: argparse.Namespace | None) -> None:
    """Four panels on one time axis: shared occupancy against the Xoff point (DT threshold T)
    and the Xon point; headroom against its limit and eta; PFC frames as events per port;
    drops on their own axis."""
    fig, (ax_s, ax_h, ax_e, ax_d) = plt.subplots(
        4, 1, figsize=(13, 10), sharex=True, gridspec_kw={"height_ratios": [3, 2, 1.4, 1.2]})
    s = r.samples
    t = [row["t_ns"] / 1000 for row in s]
    ports = a.ports if a is not None else len(r.max_hdrm)
    pg = LOSSLESS_PRIO
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    groups = port_groups(s, ports, pg)
    for n, (group, diff) in enumerate(groups[:8]):
        tag = f"p{group[0]}pg{pg}"
        c = colors[n % len(colors)]
        lab = _ports_label(group, diff)
        one = len(groups) == 1  # then the group is named once, in the legend's title
        pre = "" if one else f"{lab}: "
        shared = [row[f"{tag}_shared"] for row in s]
        thr = [row[f"{tag}_T"] for row in s]
        ax_s.plot(t, shared, color=c, lw=1.6, label=f"{pre}shared")
        ax_s.plot(t, thr, color=c, ls="--", lw=1, label=f"{pre}Xoff point: T = alpha x free")
        ax_s.plot(t, [min(max(0, x - XON_OFFSET), x - 1) for x in thr], color=c, ls=":", lw=1,
                  label=f"{pre}Xon point: T - xon_offset")
        ax_h.plot(t, [row[f"{tag}_hdrm"] for row in s], color=c, lw=1.6, label=f"{pre}headroom used")
    if len(groups) > 8:
        ax_s.text(0.01, 0.02, f"{len(groups) - 8} more port groups not drawn",
                  transform=ax_s.transAxes, fontsize=7)
    ax_s.set_ylabel(f"PG {pg} shared (cells)")
    legend_title = _ports_label(*groups[0]) if len(groups) == 1 else None
    ax_s.legend(fontsize=7, **OUTSIDE, title=legend_title, title_fontsize=7)
    if a is not None:
        hd, eta = _headroom(a)
        ax_h.axhline(hd, color="tab:red", ls="--", lw=1.2, label=f"headroom limit {hd} cells")
        if eta != hd:
            ax_h.axhline(eta, color="k", ls=":", lw=1.2, label=f"eta {eta} cells (worst case)")
        else:
            ax_h.lines[-1].set_label(f"headroom limit = eta = {hd} cells (worst case)")
        top = max([hd, eta] + r.max_hdrm)
        ax_h.set_ylim(0, top * 1.15 + 1)
    ax_h.set_ylabel(f"PG {pg} headroom (cells)")
    ax_h.legend(fontsize=7, **OUTSIDE, title=legend_title, title_fontsize=7)

    # PFC frames as events: one row per sender, XOFF up, XON down
    us = (lambda bt: bt * 8 / a.speed / 1000) if a is not None else (lambda bt: bt)
    xoff_n = xon_n = 0
    for port in range(ports):
        on = [us(tt) for tt, pp, _, x in r.pfc_log if pp == port and x]
        off = [us(tt) for tt, pp, _, x in r.pfc_log if pp == port and not x]
        xoff_n += len(on)
        xon_n += len(off)
        ax_e.scatter(on, [port + 0.15] * len(on), marker="^", s=22, color="tab:red",
                     label="XOFF" if port == 0 else None)
        ax_e.scatter(off, [port - 0.15] * len(off), marker="v", s=22, color="tab:green",
                     label="XON" if port == 0 else None)
        ref = [us(tt) for tt, pp, _ in r.refresh_log if pp == port]
        ax_e.scatter(ref, [port + 0.15] * len(ref), marker="^", s=22, facecolors="none",
                     edgecolors="tab:red", label="XOFF refresh" if port == 0 else None)
    ax_e.set_ylim(-0.7, ports - 0.3)
    ax_e.set_yticks(range(ports) if ports <= 16 else range(0, ports, max(1, ports // 8)))
    ax_e.set_ylabel("PFC frames\n(sender port)")
    ax_e.legend(fontsize=7, **OUTSIDE, title=f"{xoff_n} XOFF, {r.pfc_refresh} refresh, "
                f"{xon_n} XON frames", title_fontsize=7)
    if a is not None and a.scenario == "storm":
        for ax in (ax_s, ax_h, ax_e, ax_d):
            ax.axvline(a.stuck_us, color="k", lw=0.8, ls="-.")
        ax_s.text(a.stuck_us, ax_s.get_ylim()[1] * 0.95, " egress stops", fontsize=7, va="top")

    ax_d.plot(t, [row["lossless_drops"] for row in s], color="tab:red", label="lossless drops")
    ax_d.plot(t, [row["lossy_drops"] for row in s], color="tab:gray", ls="--",
              label="lossy drops")
    ax_d.set_ylabel("drops (frames,\ncumulative)")
    ax_d.set_ylim(bottom=-0.5, top=max(1, r.lossless_drops, r.lossy_drops) * 1.15 + 0.5)
    ax_d.legend(fontsize=7, **OUTSIDE)
    ax_d.set_xlabel("time (us)")
    for ax in (ax_s, ax_h, ax_e, ax_d):
        ax.grid(alpha=0.3)


# ---------------------------------------------------------------------- DT steady state
def dt_steady_state(senders: list[int], shifts: list[int], pool: int = 8192,
                    cell_bytes: int = 256) -> list[dict]:
    """Measured shared occupancy per PG when ``n`` PGs (one lossy PG on each of n ports) all
    have backlog, against Dynamic Threshold theory: each congested PG settles where its
    occupancy meets T = alpha * (B - n S), i.e. ``S / B = alpha / (1 + n alpha)``.

    models.mmu.Mmu directly, no network: one-cell frames offered round robin to the n PGs,
    never released, until a whole round is dropped.  Returns one row per (n, alpha_shift)."""
    rows = []
    for n in senders:
        for shift in shifts:
            ports = n + 1
            port_cfgs = [PortConfig(pgs=[PgConfig(lossless=False, alpha_shift=shift)
                                         for _ in range(PG_COUNT)],
                                    queues=[QueueConfig(lossless=False, dynamic=False,
                                                        static_th=pool)
                                            for _ in range(QUEUE_COUNT)])
                         for _ in range(ports)]
            cfg = MmuConfig(ports=port_cfgs, cell_bytes=cell_bytes, buffer_cells=pool,
                            ingress_lossless_pool=0, ingress_lossy_pool=pool,
                            egress_lossless_pool=0, egress_lossy_pool=pool)
            m = Mmu(cfg)
            while True:
                admitted = 0
                for k in range(n):
                    admitted += m.arrive(k, 0, n, 0, cell_bytes).admit
                if not admitted:
                    break
            occ = [m.shared[k * PG_COUNT] for k in range(n)]
            alpha = Fraction(2) ** shift
            rows.append({"pgs": n, "alpha_shift": shift, "pool_cells": pool,
                         "measured_cells_per_pg": sum(occ) / n,
                         "measured_fraction": sum(occ) / n / pool,
                         "theory_fraction": float(alpha / (1 + n * alpha)),
                         "min_cells": min(occ), "max_cells": max(occ)})
    return rows


def write_dt(out: Path, senders: list[int], pool: int = 8192) -> tuple[Path, Path, str]:
    rows = dt_steady_state(senders, list(range(ALPHA_SHIFT_MIN, ALPHA_SHIFT_MAX + 1)), pool)
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "dt.csv"
    with csv_path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 6))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fine = [x / 10 for x in range(10 * ALPHA_SHIFT_MIN, 10 * ALPHA_SHIFT_MAX + 1)]
    worst = 0.0
    for c, n in zip(colors, senders):
        mine = [r for r in rows if r["pgs"] == n]
        ax.plot([2 ** x for x in fine], [2 ** x / (1 + n * 2 ** x) for x in fine], color=c,
                lw=1, label=f"N = {n}: alpha / (1 + N alpha)")
        ax.plot([2 ** r["alpha_shift"] for r in mine], [r["measured_fraction"] for r in mine],
                "o", color=c, ms=6, mfc="none", label=f"N = {n}: measured (models.mmu)")
        worst = max([worst] + [abs(r["measured_fraction"] - r["theory_fraction"])
                               for r in mine])
    ax.set_xscale("log", base=2)
    ax.set_xlabel("alpha (dynamic_th = log2 alpha, -7 .. 3)")
    ax.set_ylabel("shared occupancy per congested PG / shared pool size")
    ax.set_title(f"pfcmmu model: Dynamic Threshold steady state, N congested PGs, shared pool "
                 f"{pool} cells\n(one-cell frames, no release; largest gap to theory "
                 f"{worst * pool:.1f} cells = {worst:.2%} of the pool)", fontsize=9)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    png = out / "dt.png"
    fig.savefig(png, dpi=90)
    plt.close(fig)
    return csv_path, png, (f"DT steady state for N = {', '.join(map(str, senders))} congested "
                           f"PGs, alpha 2^{ALPHA_SHIFT_MIN}..2^{ALPHA_SHIFT_MAX}, largest gap "
                           f"to alpha / (1 + N alpha) {worst * pool:.1f} cells")


MAX_PORTS = 64  # senders; the model is event driven, but 64 x 8 PGs is plenty for a plot


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("scenario", choices=sorted(SCENARIOS) + sorted(MMU_ONLY)
                    + sorted(COMPARISONS),
                    help="which scenario to run (dt: Dynamic Threshold steady state, "
                         "models.mmu only, N = 1, 2, 4, ... up to --ports; headroom: the "
                         "headroom policies compared)")
    ap.add_argument("--ports", type=int_range(1, MAX_PORTS), default=None,
                    help=f"number of senders, N of N:1 (1..{MAX_PORTS}; default 4, "
                         "headroom 8)")
    ap.add_argument("--headroom-fraction", type=positive_float, default=1.0,
                    help="headroom per lossless PG as a fraction of eta (worst-case cells)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT,
                    help="output folder (default: sim_build/model/ in a checkout, else "
                         "./pfcmmu-scenario/)")
    ap.add_argument("--speed", type=positive_float, default=100, help="Gb/s (default 100)")
    ap.add_argument("--cable", type=nonneg_float, default=300, help="m (default 300)")
    ap.add_argument("--mtu", type=int_range(64, 9216), default=1500,
                    help="largest frame on the reverse link, bytes (64..9216; default 1500)")
    ap.add_argument("--frame", type=int_range(64, 9216), default=64,
                    help="data frame size, bytes (64..9216; default 64)")
    ap.add_argument("--cell-bytes", type=int_range(1, 65536), default=256)
    ap.add_argument("--alpha-shift", type=int_range(ALPHA_SHIFT_MIN, ALPHA_SHIFT_MAX), default=-1,
                    help=f"DT alpha = 2^n, n in {ALPHA_SHIFT_MIN}..{ALPHA_SHIFT_MAX} (default -1)")
    ap.add_argument("--drain", type=float_range(0, 1), default=1.0,
                    help="egress rate as a fraction of the link rate, 0..1 (0: paused)")
    ap.add_argument("--us", type=positive_float, default=None,
                    help="simulated time, microseconds (default 32; storm 400)")
    ap.add_argument("--burst-bytes", type=int_range(1), default=65536)
    ap.add_argument("--lossy-shared", type=int_range(1), default=1000,
                    help="burst: lossy shared cells")
    ap.add_argument("--stuck-us", type=nonneg_float, default=20.0,
                    help="storm: egress stops here")
    ap.add_argument("--switch-ports", type=int_range(2, 256), default=32,
                    help="headroom: ports of the switch whose buffer is shared (default 32; "
                         "at least --ports + 1)")
    ap.add_argument("--buffer-mib", type=positive_float, default=16,
                    help="headroom: switch buffer, MiB (default 16)")
    ap.add_argument("--oversubscription", type=int_range(1), default=2,
                    help="headroom: shared headroom pool = sum of per-PG eta / this (default 2)")
    ap.add_argument("--bad-oversubscription", type=int_range(1), default=32,
                    help="headroom: the over-subscribed pool that must lose (default 32)")
    ap.add_argument("--incast-kib", type=int_range(1), default=512,
                    help="headroom: incast bytes per sender, KiB (default 512)")
    ap.add_argument("--no-sweep", action="store_true",
                    help="headroom: leave out the buffer sweep (15.125 .. 32 MiB)")


def run(a: argparse.Namespace) -> int:
    if a.ports is None:
        a.ports = 8 if a.scenario in COMPARISONS else 4
    if a.scenario == "headroom":
        return run_headroom(a)
    a.us_given = a.us is not None
    if a.us is None:
        a.us = 400.0 if a.scenario == "storm" else 32.0
    a.drain = Fraction(a.drain).limit_denominator(1000)
    if a.scenario == "dt":
        ns = [1 << k for k in range(a.ports.bit_length()) if 1 << k <= a.ports]
        csv_path, png, detail = write_dt(a.out, ns)
        print(f"scenario dt: {detail}; csv {csv_path}, png {png}")
        return 0
    results, detail = SCENARIOS[a.scenario](a)
    csv_path, png = write_outputs(a.scenario, results, a.out, a)
    ll = sum(r.lossless_drops for r in results)
    ly = sum(r.lossy_drops for r in results)
    print(f"scenario {a.scenario}: ports {a.ports}, lossless drops {ll}, lossy drops {ly}, "
          f"PFC XOFF {sum(r.pfc_xoff for r in results)} (refresh "
          f"{sum(r.pfc_refresh for r in results)}) XON {sum(r.pfc_xon for r in results)}, "
          f"delivered {sum(r.delivered_bytes for r in results)} B; {detail}; "
          f"csv {csv_path}, png {png}")
    return 0


def run_headroom(a: argparse.Namespace) -> int:
    from . import headroom_compare as hc
    if a.switch_ports < a.ports + 1:
        raise ConfigError(f"switch_ports: {a.switch_ports} ports cannot hold {a.ports} "
                          "senders and the egress")
    s = hc.Setup(switch_ports=a.switch_ports, senders=a.ports, speed=a.speed, cable=a.cable,
                 mtu=a.mtu, cell_bytes=a.cell_bytes, buffer_mib=a.buffer_mib,
                 alpha_shift=a.alpha_shift, oversubscription=a.oversubscription,
                 bad_oversubscription=a.bad_oversubscription,
                 incast_bytes=a.incast_kib * 1024, run_us=a.us or hc.Setup.run_us)
    rows, md = hc.run(s, a.out, with_sweep=not a.no_sweep)
    print(md)
    print(f"scenario headroom: csv {a.out / 'headroom_policies.csv'}, table "
          f"{a.out / 'headroom_policies.md'}, png {a.out / 'headroom_burst.png'} "
          f"{a.out / 'headroom_incast.png'}"
          + ("" if a.no_sweep else f" {a.out / 'headroom_sweep.png'}"))
    return 0


DESCRIPTION = "run a named network scenario (models.network): CSV + PNG + one summary line"


def main(argv: list[str] | None = None, prog: str = "python -m models.scenario") -> int:
    ap = Parser(prog=prog, description=DESCRIPTION)
    add_arguments(ap)
    a = ap.parse_args(argv)
    return run_guarded(prog, lambda: run(a))


if __name__ == "__main__":
    raise SystemExit(main())
