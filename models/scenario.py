"""Named network scenarios on models.network: CSV time series, PNG plot, one summary line.

    python -m models.scenario incast --ports 4 [--headroom-fraction 0.25] [--out DIR]
    python -m models.scenario burst  --ports 4 [--burst-bytes 65536]
    python -m models.scenario mixed  --ports 4
    python -m models.scenario storm  --ports 4

* incast: N senders -> one egress port at line rate, one lossless priority (3), 64-byte frames
  by default (the worst case for cell occupancy), egress drained at the link rate.  Headroom per
  PG = ``fraction`` x eta in worst-case cells (models.headroom).
* burst: burst absorption vs alpha: every sender sends one ``--burst-bytes`` burst of lossy
  traffic at once, for each alpha = 2^-7 .. 2^3; drops per alpha.
* mixed: each sender sends lossless (priority 3) and lossy (priority 0) frames alternately; lossy
  frames are dropped, lossless ones paused.
* storm: incast whose egress stops for good at ``--stuck-us`` (a stuck receiver pausing the
  switch): every lossless PG fills, XOFF is refreshed for ever, nothing is lost, nothing moves.

Output: ``DIR/<scenario>.csv`` (samples), ``DIR/<scenario>_pfc.csv`` (every XOFF / XON),
``DIR/<scenario>.png``; DIR defaults to sim_build/model/ in the repository (gitignored).
"""

from __future__ import annotations

import argparse
import csv
from fractions import Fraction
from pathlib import Path

from .headroom import compute
from .network import Flow, NetConfig, Result, simulate, switch_config

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "sim_build" / "model"
LOSSLESS_PRIO = 3
LOSSY_PRIO = 0


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
    cfg = switch_config(n, hd, cell_bytes=a.cell_bytes, alpha_shift=a.alpha_shift)
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
    cfg = switch_config(n, hd, cell_bytes=a.cell_bytes, alpha_shift=a.alpha_shift,
                        lossy_shared=500)
    r = simulate(net, cfg)
    return [r], f"headroom {hd} cells (eta {eta}), frame {a.frame} B"


def run_storm(a) -> tuple[list[Result], str]:
    hd, eta = _headroom(a)
    n = a.ports
    dur = _us(a, a.us if a.us_given else 400.0)
    net = NetConfig(senders=n, speed_gbps=a.speed, cable_m=a.cable, mtu=a.mtu,
                    egress_stop=_us(a, a.stuck_us), duration=dur,
                    flows=[[Flow(LOSSLESS_PRIO, a.frame)] for _ in range(n)])
    cfg = switch_config(n, hd, cell_bytes=a.cell_bytes, alpha_shift=a.alpha_shift)
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


def write_outputs(name: str, results: list[Result], out: Path) -> tuple[Path, Path]:
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
    _plot(name, results, png)
    return csv_path, png


def _plot(name: str, results: list[Result], png: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    if name == "burst":
        for r in results:
            s = r.samples
            t = [row["t_ns"] / 1000 for row in s]
            ax1.plot(t, [row["pool_lossy_shared"] for row in s],
                     label=f"alpha 2^{s[0]['alpha_shift']}")
            ax2.plot(t, [row["lossy_drops"] for row in s])
        ax1.set_ylabel("lossy pool shared (cells)")
        ax2.set_ylabel("lossy drops (frames)")
        ax1.legend(fontsize=7, ncol=4)
    else:
        s = results[0].samples
        t = [row["t_ns"] / 1000 for row in s]
        tags = sorted({k[:-4] for k in s[0] if k.endswith("_res")})
        for tag in tags[:4]:
            ax1.plot(t, [row[f"{tag}_shared"] for row in s], label=f"{tag} shared")
            ax1.plot(t, [row[f"{tag}_hdrm"] for row in s], "--", label=f"{tag} headroom")
        if tags:
            ax1.plot(t, [row[f"{tags[0]}_T"] for row in s], "k:", label=f"{tags[0]} T")
        ax1.set_ylabel("cells")
        ax1.legend(fontsize=7, ncol=3)
        ax2.plot(t, [row["pfc_xoff"] for row in s], label="PFC XOFF frames")
        ax2.plot(t, [row["pfc_xon"] for row in s], label="PFC XON frames")
        ax2.plot(t, [row["lossless_drops"] for row in s], label="lossless drops")
        ax2.plot(t, [row["lossy_drops"] for row in s], label="lossy drops")
        ax2.set_ylabel("count")
        ax2.legend(fontsize=7)
    ax2.set_xlabel("time (us)")
    fig.suptitle(f"pfcmmu model: {name}")
    fig.tight_layout()
    fig.savefig(png, dpi=90)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.scenario",
                                 description="run a named network scenario (models.network)")
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--ports", type=int, default=4, help="number of senders (N of N:1)")
    ap.add_argument("--headroom-fraction", type=float, default=1.0,
                    help="headroom per lossless PG as a fraction of eta (worst-case cells)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--speed", type=float, default=100, help="Gb/s")
    ap.add_argument("--cable", type=float, default=300, help="m")
    ap.add_argument("--mtu", type=int, default=1500)
    ap.add_argument("--frame", type=int, default=64, help="data frame size, bytes")
    ap.add_argument("--cell-bytes", type=int, default=256)
    ap.add_argument("--alpha-shift", type=int, default=-1)
    ap.add_argument("--drain", type=float, default=1.0,
                    help="egress rate as a fraction of the link rate (0: paused)")
    ap.add_argument("--us", type=float, default=None, help="simulated time, microseconds")
    ap.add_argument("--burst-bytes", type=int, default=65536)
    ap.add_argument("--lossy-shared", type=int, default=1000, help="burst: lossy shared cells")
    ap.add_argument("--stuck-us", type=float, default=20.0, help="storm: egress stops here")
    a = ap.parse_args(argv)
    a.us_given = a.us is not None
    if a.us is None:
        a.us = 32.0
    a.drain = Fraction(a.drain).limit_denominator(1000)
    results, detail = SCENARIOS[a.scenario](a)
    csv_path, png = write_outputs(a.scenario, results, a.out)
    ll = sum(r.lossless_drops for r in results)
    ly = sum(r.lossy_drops for r in results)
    print(f"scenario {a.scenario}: ports {a.ports}, lossless drops {ll}, lossy drops {ly}, "
          f"PFC XOFF {sum(r.pfc_xoff for r in results)} (refresh "
          f"{sum(r.pfc_refresh for r in results)}) XON {sum(r.pfc_xon for r in results)}, "
          f"delivered {sum(r.delivered_bytes for r in results)} B; {detail}; "
          f"csv {csv_path}, png {png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
