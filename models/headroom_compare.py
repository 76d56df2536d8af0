"""Headroom policies compared on one switch buffer (issue 21): static per-PG headroom, SONiC's
shared headroom pool, and DSH (Dynamic and Shared Headroom).

    python -m models.scenario headroom [--ports 8] [--switch-ports 32] [--out DIR]

The switch is the same for every policy: ``switch_ports`` ports at ``speed`` Gb/s with
``cable`` m of cable, ``buffer_mib`` MiB of ``cell_bytes`` cells, three quarters of it the
lossless pool, priorities 3 and 4 lossless on every port (RoCE style), DT with ``alpha_shift``.
What differs is where the headroom lives (docs/model.md "Headroom policies"):

* ``static``: eta (worst-case cells, models.headroom) reserved per lossless PG;
* ``shared_pool``: the static policy with SONiC's shared headroom pool, the sum of the per-PG
  eta divided by ``oversubscription`` (each PG still capped at eta);
* ``dsh``: one eta reserved per port; each lossless PG's queue-level Xoff is ``T - eta``.

The shared segment DT divides is what is left, so it differs; the network around the switch
(models.network: real PFC delays, worst-case reverse-link wait, refresh) is the same.  The runs:

1. burst absorption: ``senders`` senders each start a burst of 1500-byte lossless frames at
   once towards one egress port draining at line rate; the largest burst (bytes per sender)
   after which no PFC frame has been sent, found by bisection on whole frames;
2. incast with background: sender 0 keeps a long lossless flow (priority 4) to the egress
   from the start; at 10 us the others send an incast burst (priority 3) to the same egress:
   PFC frames, paused time, lossless drops, the time the incast takes to complete;
3. worst case: every sender sends 64-byte lossless frames and the egress is stuck (paused by
   its own partner): everything in flight lands in headroom; lossless drops must be 0 for each
   policy inside its guarantee;
4. the shared pool over-subscribed too far (``--bad-oversubscription``, the pool smaller than
   what the PGs that fill their headroom at once need): the same worst case loses lossless
   frames;
5. staggered worst case: every other port of the switch sends 64-byte frames of priority 3
   from 0 and of priority 4 from 10 us, the egress stuck: each port's two PGs fill their
   headroom one after the other, so the PGs in headroom need up to two eta per port.  Static
   and dsh stay inside their guarantees; the shared pool (one eta per port at 2:1) does not,
   and loses; dsh pays with its port-level pause, which holds priority 4 before it starts.

Output: ``DIR/headroom_policies.csv`` (one row per policy and run), ``DIR/headroom_policies.md``
(the tables), ``DIR/headroom_burst.png``, ``DIR/headroom_incast.png`` and
``DIR/headroom_sweep.png`` (the buffer sweep, unless ``--no-sweep``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from .config import (HEADROOM_DSH, PG_COUNT, MmuConfig, PgConfig, PortConfig, QueueConfig)
from .headroom import compute
from .network import Flow, NetConfig, Network, Result, paused_byte_times

POLICIES = ("static", "shared_pool", "dsh")
LOSSLESS_PRIOS = (3, 4)
INCAST_PRIO = 3
BACKGROUND_PRIO = 4
BURST_FRAME = 1500
BACKGROUND_SENDERS = 1  # run 2: senders 0 .. BACKGROUND_SENDERS - 1 keep a long flow


@dataclass(frozen=True)
class Setup:
    switch_ports: int = 32
    senders: int = 8  # ports that send in the network runs (the egress is port `senders`)
    speed: float = 100
    cable: float = 300
    mtu: int = 1500
    cell_bytes: int = 256
    buffer_mib: float = 16
    alpha_shift: int = -1
    reserved: int = 8
    xon_offset: int = 12
    oversubscription: int = 2  # shared_pool: sum of per-PG eta / pool size
    bad_oversubscription: int = 32  # run 4: the pool this far below the sum of eta
    incast_bytes: int = 512 * 1024  # run 2: per incast sender
    run_us: float = 700  # run 2: simulated time
    worst_us: float = 40  # runs 3, 4: simulated time (the pool fills, then the in-flight lands)
    stagger_start_us: float = 10  # run 5: priority 4 starts (after priority 3 has paused)
    stagger_us: float = 50  # run 5: simulated time

    @property
    def eta(self) -> int:
        """eta of one link in worst-case cells (64-byte frames; models.headroom)."""
        return compute(self.speed, self.cable, self.mtu, self.cell_bytes).eta_cells_worst

    @property
    def buffer_cells(self) -> int:
        return int(self.buffer_mib * 2**20) // self.cell_bytes

    def byte_times(self, us: float) -> int:
        return int(us * 1000 * self.speed / 8)

    def to_us(self, byte_times: int) -> float:
        return byte_times * 8 / self.speed / 1000


def policy_config(policy: str, s: Setup, oversubscription: int | None = None,
                  port_headroom: int | None = None, queue_headroom: int | None = None
                  ) -> MmuConfig:
    """The switch of ``s`` with ``policy`` (POLICIES).  Optional overrides: the shared pool's
    over-subscription, DSH's port headroom and its per-PG queue-level headroom."""
    if policy not in POLICIES:
        raise ValueError(f"policy {policy!r} is not one of {', '.join(POLICIES)}")
    eta = s.eta
    buffer_cells = s.buffer_cells
    ll_pool = buffer_cells * 3 // 4
    ly_pool = buffer_cells - ll_pool
    pg_headroom = eta if queue_headroom is None or policy != "dsh" else queue_headroom
    ports = []
    for _ in range(s.switch_ports):
        pgs, qs = [], []
        for g in range(PG_COUNT):
            if g in LOSSLESS_PRIOS:
                pgs.append(PgConfig(lossless=True, reserved=s.reserved, alpha_shift=s.alpha_shift,
                                    headroom=pg_headroom, xon=0, xon_offset=s.xon_offset))
                qs.append(QueueConfig(lossless=True, dynamic=False, static_th=ll_pool))
            else:
                pgs.append(PgConfig(lossless=False, alpha_shift=0))
                qs.append(QueueConfig(lossless=False, dynamic=False, static_th=ly_pool))
        ports.append(PortConfig(pgs=pgs, queues=qs, speed_gbps=int(s.speed),
                                cable_m=int(s.cable)))
    cfg = MmuConfig(ports=ports, cell_bytes=s.cell_bytes, buffer_cells=buffer_cells,
                    max_frame_bytes=9216 + 22, ingress_lossless_pool=ll_pool,
                    ingress_lossy_pool=ly_pool, egress_lossless_pool=ll_pool,
                    egress_lossy_pool=ly_pool)
    n_ll = s.switch_ports * len(LOSSLESS_PRIOS)
    if policy == "shared_pool":
        ratio = s.oversubscription if oversubscription is None else oversubscription
        cfg.shared_headroom_pool = max(1, n_ll * eta // ratio)
    elif policy == HEADROOM_DSH:
        cfg.headroom_policy = HEADROOM_DSH
        for p in cfg.ports:
            p.port_headroom = eta if port_headroom is None else port_headroom
    cfg.validate()
    return cfg


def _network(s: Setup, cfg: MmuConfig, flows: list[list[Flow]], us: float,
             drain: Fraction = Fraction(1)) -> Network:
    net = NetConfig(senders=len(flows), speed_gbps=s.speed, cable_m=s.cable, mtu=s.mtu,
                    drain=drain, duration=s.byte_times(us), flows=flows)
    return Network(net, cfg)


# ---------------------------------------------------------------------- 1: burst absorption
def burst_run(s: Setup, cfg: MmuConfig, frames: int) -> Result:
    """Every sender sends ``frames`` 1500-byte lossless frames at once; run until drained."""
    flows = [[Flow(INCAST_PRIO, BURST_FRAME, total_bytes=frames * BURST_FRAME)]
             for _ in range(s.senders)]
    # the egress drains senders * frames frames at line rate, plus the links' delays
    us = s.to_us(s.senders * frames * (BURST_FRAME + 20) + 4 * NetConfig().delay) + 5
    return _network(s, cfg, flows, us).run()


def largest_burst(s: Setup, cfg: MmuConfig) -> tuple[int, Result, Result]:
    """Largest whole number of frames per sender with no PFC frame at all, by bisection (no
    PFC is monotone in the burst: a larger burst passes every state of a smaller one).
    Returns it with the runs at that burst and one frame more."""
    lo, hi = 0, 1
    while burst_run(s, cfg, hi).pfc_xoff == 0:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if burst_run(s, cfg, mid).pfc_xoff == 0:
            lo = mid
        else:
            hi = mid
    return lo, burst_run(s, cfg, lo), burst_run(s, cfg, hi)


def dt_burst_cells(s: Setup, cfg: MmuConfig) -> int:
    """One PG alone on an empty switch: the shared cells at which it is first paused,
    T = alpha (S - w) (minus the queue-level headroom with dsh), i.e. the largest w with
    w < Xoff (the analytic burst of one queue, without draining)."""
    from .mmu import Mmu
    m = Mmu(cfg)
    i = INCAST_PRIO
    w = 0
    while True:
        m.pool_used[0] = w
        t = m.pg_threshold(i)
        x = t - m.pg_hdrm_limit[i] if m.dsh else t
        if w + 1 >= max(x, 1):
            return w + 1
        w += 1


# ---------------------------------------------------------------------- 2: incast + background
def incast_flows(s: Setup) -> list[list[Flow]]:
    start = s.byte_times(10)
    flows = []
    for k in range(s.senders):
        if k < BACKGROUND_SENDERS:
            flows.append([Flow(BACKGROUND_PRIO, BURST_FRAME)])
        else:
            flows.append([Flow(INCAST_PRIO, BURST_FRAME, total_bytes=s.incast_bytes,
                               start=start)])
    return flows


def incast_run(s: Setup, cfg: MmuConfig) -> tuple[Result, float | None]:
    """Returns the run and the incast's completion time in us after it started (None when
    it did not complete within the run)."""
    nw = _network(s, cfg, incast_flows(s), s.run_us)
    done_at: list[int] = []
    per_sender = -(-s.incast_bytes // BURST_FRAME) * BURST_FRAME  # whole frames
    total = (s.senders - BACKGROUND_SENDERS) * per_sender
    delivered = {"n": 0}
    orig = nw._egress_done

    def egress_done(item: tuple) -> None:
        orig(item)
        if item[0] >= BACKGROUND_SENDERS:
            delivered["n"] += item[4]
            if delivered["n"] == total:  # counts up in whole frames: equal once
                done_at.append(nw.now)
    nw._egress_done = egress_done  # type: ignore[method-assign]
    r = nw.run()
    fct = s.to_us(done_at[0] - s.byte_times(10)) if done_at else None
    return r, fct


# ---------------------------------------------------------------------- 3 / 4: worst case
def worst_run(s: Setup, cfg: MmuConfig) -> Result:
    flows = [[Flow(INCAST_PRIO, 64)] for _ in range(s.senders)]
    return _network(s, cfg, flows, s.worst_us, drain=Fraction(0)).run()


def staggered_run(s: Setup, cfg: MmuConfig) -> tuple[Result, Network]:
    start = s.byte_times(s.stagger_start_us)
    flows = [[Flow(INCAST_PRIO, 64), Flow(BACKGROUND_PRIO, 64, start=start)]
             for _ in range(s.switch_ports - 1)]
    nw = _network(s, cfg, flows, s.stagger_us, drain=Fraction(0))
    return nw.run(), nw


# ---------------------------------------------------------------------- the comparison
def compare(s: Setup) -> tuple[list[dict], dict]:
    rows = []
    series = {}
    configs = {p: policy_config(p, s) for p in POLICIES}
    bad = policy_config("shared_pool", s, oversubscription=s.bad_oversubscription)
    for policy, cfg in list(configs.items()) + [("shared_pool_oversubscribed", bad)]:
        row = {"policy": policy, "shared_segment_cells": cfg.lossless_shared,
               "headroom_reserved_cells": (cfg.ingress_lossless_pool - cfg.lossless_shared
                                           - sum(pg.reserved for _, _, pg in cfg.all_pgs()
                                                 if pg.lossless))}
        if policy != "shared_pool_oversubscribed":
            frames, ok, over = largest_burst(s, cfg)
            assert ok.pfc_xoff == 0 and over.pfc_xoff > 0
            row |= {"burst_frames_per_sender": frames,
                    "burst_bytes_total": frames * BURST_FRAME * s.senders,
                    "burst_peak_shared_cells": max(r["pool_lossless_shared"]
                                                   for r in ok.samples),
                    "one_queue_xoff_cells": dt_burst_cells(s, cfg)}
            r, fct = incast_run(s, cfg)
            row |= {"incast_pfc_frames": r.pfc_xoff + r.pfc_xon,
                    "incast_pfc_refresh": r.pfc_refresh,
                    "incast_port_pauses": r.port_pause,
                    "incast_paused_us": round(s.to_us(paused_byte_times(r)), 2),
                    "incast_lossless_drops": r.lossless_drops,
                    "incast_fct_us": None if fct is None else round(fct, 2),
                    "incast_max_hdrm_cells": max(max(r.max_hdrm), r.max_port_hdrm)}
            series[policy] = r
        w = worst_run(s, cfg)
        row |= {"worst_lossless_drops": w.lossless_drops,
                "worst_max_hdrm_cells": max(max(w.max_hdrm), w.max_port_hdrm),
                "worst_hdrm_pool_cells": cfg.shared_headroom_pool or None}
        if policy != "shared_pool_oversubscribed":
            st, nw = staggered_run(s, cfg)
            m = nw.mmu
            row |= {"staggered_lossless_drops": st.lossless_drops,
                    "staggered_hdrm_peak_cells": m.hdrm_pool_wm,
                    "staggered_port_pauses": st.port_pause,
                    "staggered_prio4_cells_held": sum(
                        m.res[i] + m.shared[i] + m.hdrm[i]
                        for i in range(BACKGROUND_PRIO, m.ports * PG_COUNT, PG_COUNT))}
        rows.append(row)
    return rows, series


COLUMNS = [
    ("policy", "policy"),
    ("shared_segment_cells", "shared segment (cells)"),
    ("headroom_reserved_cells", "headroom reserved (cells)"),
    ("one_queue_xoff_cells", "one queue's Xoff on an empty switch (cells)"),
    ("burst_bytes_total", "burst absorbed without PFC, all senders (bytes)"),
    ("burst_peak_shared_cells", "peak shared use in that burst (cells)"),
    ("incast_pfc_frames", "incast: PFC frames (XOFF + refresh + XON)"),
    ("incast_port_pauses", "incast: port-level pauses"),
    ("incast_paused_us", "incast: paused time, sum over (port, PG) (us)"),
    ("incast_fct_us", "incast: completion (us)"),
    ("incast_lossless_drops", "incast: lossless drops"),
    ("worst_lossless_drops", "worst case: lossless drops"),
    ("worst_max_hdrm_cells", "worst case: peak headroom of a PG / port (cells)"),
    ("staggered_lossless_drops", "staggered: lossless drops"),
    ("staggered_hdrm_peak_cells", "staggered: headroom held at peak, all PGs (cells)"),
    ("staggered_port_pauses", "staggered: port-level pauses"),
    ("staggered_prio4_cells_held", "staggered: priority-4 cells held at the end"),
]


def table(rows: list[dict], columns: list[tuple[str, str]] | None = None) -> str:
    columns = COLUMNS if columns is None else columns
    head = "| " + " | ".join(c[1] for c in columns) + " |"
    sep = "|" + "---|" * len(columns)
    lines = [head, sep]
    for r in rows:
        lines.append("| " + " | ".join("-" if r.get(k) is None else f"{r[k]:,}"
                                       if isinstance(r.get(k), int) else str(r[k])
                                       for k, _ in columns) + " |")
    return "\n".join(lines)


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot(rows: list[dict], series: dict, s: Setup, out: Path) -> tuple[Path, Path]:
    plt = _pyplot()
    main = [r for r in rows if r["policy"] in POLICIES]
    names = [r["policy"] for r in main]
    colors = ["tab:blue", "tab:orange", "tab:green"]
    fig, axes = plt.subplots(1, 4, figsize=(16, 4.3))
    for ax, key, label in (
            (axes[0], "burst_bytes_total", "burst absorbed without PFC (KiB, all senders)"),
            (axes[1], "incast_pfc_frames", "incast: PFC frames"),
            (axes[2], "incast_paused_us", "incast: paused time (us, sum over PGs)")):
        vals = [r[key] / 1024 if key == "burst_bytes_total" else r[key] for r in main]
        ax.bar(names, vals, color=colors)
        ax.set_xticks(range(len(names)), names, rotation=20, fontsize=8)
        for x, v in enumerate(vals):
            ax.text(x, v, f"{v:,.0f}", ha="center", va="bottom", fontsize=8)
        ax.set_title(label, fontsize=9)
        ax.grid(alpha=0.3, axis="y")
    ax = axes[3]
    labels = names + [f"pool / {s.bad_oversubscription}"]
    worst = [r["worst_lossless_drops"] for r in main] + [rows[-1]["worst_lossless_drops"]]
    stag = [r["staggered_lossless_drops"] for r in main]
    xs = range(len(labels))
    ax.bar([x - 0.2 for x in xs], worst, width=0.4, color="tab:gray",
           label="worst case (1 priority, 8 senders)")
    ax.bar([x + 0.2 for x in xs[:-1]], stag, width=0.4, color="tab:red",
           label=f"staggered (2 priorities, {s.switch_ports - 1} senders)")
    for x, v in zip(xs, worst):
        ax.text(x - 0.2, v, f"{v:,}", ha="center", va="bottom", fontsize=7)
    for x, v in zip(xs, stag):
        ax.text(x + 0.2, v, f"{v:,}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(list(xs), labels, rotation=20, fontsize=8)
    ax.set_title("lossless drops (egress stuck, 64-byte frames)", fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(alpha=0.3, axis="y")
    fig.suptitle(_title(s), fontsize=9)
    fig.tight_layout()
    bars = out / "headroom_burst.png"
    fig.savefig(bars, dpi=90)
    plt.close(fig)

    fig, axes = plt.subplots(3, 1, figsize=(12, 9), sharex=True)
    for c, policy in zip(colors, POLICIES):
        r = series[policy]
        t = [row["t_ns"] / 1000 for row in r.samples]
        axes[0].plot(t, [row["pool_lossless_shared"] for row in r.samples], color=c,
                     label=policy)
        axes[1].plot(t, [row["pfc_xoff"] + row["pfc_xon"] for row in r.samples], color=c,
                     label=policy)
        tp, paused, n = [0.0], [0], 0
        for tt, _, _, xoff in r.pfc_log:  # the XOFF state on the wire, per (port, PG)
            n += 1 if xoff else -1
            tp.append(s.to_us(tt))
            paused.append(n)
        tp.append(s.to_us(r.end))
        paused.append(n)
        axes[2].step(tp, paused, color=c, where="post", label=policy)
    axes[0].set_ylabel("lossless shared cells used")
    axes[1].set_ylabel("PFC frames (cumulative)")
    axes[2].set_ylabel("(port, PG) in XOFF")
    axes[2].set_xlabel("time (us); the incast starts at 10 us")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.axvline(10, color="k", lw=0.8, ls=":")
    fig.suptitle(_title(s) + f"\nincast: {s.senders - BACKGROUND_SENDERS} senders x "
                 f"{s.incast_bytes // 1024} KiB (priority 3) from 10 us, {BACKGROUND_SENDERS} "
                 "long background flow (priority 4) from 0, egress at line rate", fontsize=9)
    fig.tight_layout()
    ts = out / "headroom_incast.png"
    fig.savefig(ts, dpi=90)
    plt.close(fig)
    return bars, ts


def plot_sweep(rows: list[dict], s: Setup, out: Path) -> Path:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    mib = [r["buffer_mib"] for r in rows]
    for policy, c in (("static", "tab:blue"), ("dsh", "tab:green")):
        ax.plot(mib, [r[f"{policy}_burst_bytes"] / 2**20 for r in rows], "o-", color=c,
                label=f"{policy}: burst absorbed without PFC")
    ax.set_xlabel("switch buffer (MiB); everything else as above")
    ax.set_ylabel("burst absorbed without PFC (MiB, all senders)")
    ax2 = ax.twinx()
    ax2.plot(mib, [r["ratio"] for r in rows], "s--", color="tab:red", label="dsh / static")
    for x, r in zip(mib, rows):
        ax2.annotate(f"{r['ratio']:g}x", (x, r["ratio"]), textcoords="offset points",
                     xytext=(6, 4), fontsize=8, color="tab:red")
    ax2.set_ylabel("dsh / static", color="tab:red")
    ax.grid(alpha=0.3)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="center right")
    fig.suptitle(f"pfcmmu model: burst absorbed without PFC, static vs dsh, as the buffer "
                 f"grows\n{s.switch_ports} ports x {s.speed:g} Gb/s, {s.cable:g} m, "
                 f"{s.cell_bytes} B cells, 3/4 lossless pool, priorities 3 and 4 lossless, "
                 f"alpha 2^{s.alpha_shift}, eta {s.eta} cells; {s.senders} senders -> 1 "
                 "egress\nthe gain is the shared segment static headroom gives back: largest "
                 "where eta per PG takes most of the lossless pool", fontsize=8)
    fig.tight_layout()
    png = out / "headroom_sweep.png"
    fig.savefig(png, dpi=90)
    plt.close(fig)
    return png


def _title(s: Setup) -> str:
    return (f"pfcmmu model: headroom policies on one switch: {s.switch_ports} ports x "
            f"{s.speed:g} Gb/s, {s.cable:g} m, {s.buffer_mib:g} MiB of {s.cell_bytes} B cells, "
            f"priorities 3 and 4 lossless, alpha 2^{s.alpha_shift}, eta {s.eta} cells; "
            f"{s.senders} senders -> 1 egress")


# ---------------------------------------------------------------------- the buffer sweep
SWEEP_MIB = (15.125, 15.5, 16, 20, 24, 32)


def sweep(s: Setup, mibs: tuple[float, ...] = SWEEP_MIB) -> list[dict]:
    """Burst absorbed without PFC, static against dsh, as the buffer grows with everything
    else fixed: the gain is the ratio of the shared segments (less DSH's queue-level headroom),
    so it is largest where static headroom takes most of the lossless pool."""
    rows = []
    for mib in mibs:
        t = replace(s, buffer_mib=mib)
        row: dict = {"buffer_mib": mib}
        for policy in ("static", "dsh"):
            cfg = policy_config(policy, t)
            frames, _, _ = largest_burst(t, cfg)
            row[f"{policy}_shared_cells"] = cfg.lossless_shared
            row[f"{policy}_one_queue_xoff_cells"] = dt_burst_cells(t, cfg)
            row[f"{policy}_burst_bytes"] = frames * BURST_FRAME * t.senders
        row["ratio"] = round(row["dsh_burst_bytes"] / row["static_burst_bytes"], 1)
        rows.append(row)
    return rows


SWEEP_COLUMNS = [("buffer_mib", "buffer (MiB)"),
                 ("static_shared_cells", "static: shared segment (cells)"),
                 ("dsh_shared_cells", "dsh: shared segment (cells)"),
                 ("static_one_queue_xoff_cells", "static: one queue's Xoff (cells)"),
                 ("dsh_one_queue_xoff_cells", "dsh: one queue's Xoff (cells)"),
                 ("static_burst_bytes", "static: burst without PFC (bytes)"),
                 ("dsh_burst_bytes", "dsh: burst without PFC (bytes)"),
                 ("ratio", "dsh / static")]


def run(s: Setup, out: Path, with_sweep: bool = True) -> tuple[list[dict], str]:
    rows, series = compare(s)
    out.mkdir(parents=True, exist_ok=True)
    keys: list[str] = []
    for r in rows:
        keys.extend(k for k in r if k not in keys)
    with (out / "headroom_policies.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    md = table(rows)
    if with_sweep:
        srows = sweep(s)
        md += "\n\n" + table(srows, SWEEP_COLUMNS)
        plot_sweep(srows, s, out)
    (out / "headroom_policies.md").write_text(md + "\n")
    plot(rows, series, s, out)
    return rows, md


def with_args(s: Setup, **kw) -> Setup:
    return replace(s, **{k: v for k, v in kw.items() if v is not None})
