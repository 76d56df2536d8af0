"""Benchmark: admission events per second of the golden model (one core, fixed seed).

Mixed traffic on :func:`models.config.example_config`: random arrivals on every port and
priority, each admitted frame released again after a random number of later events, so the
buffer sits near its thresholds and every branch (reserved, shared, headroom, drops, PFC) runs.
The event list is built before the clock starts; only Mmu.arrive / Mmu.release are timed.
Prints; asserts nothing (STYLE.md: a benchmark measures, a test asserts).
"""

from __future__ import annotations

import argparse
import random
import time

from .cliutil import Parser, int_range, run_guarded
from .config import example_config
from .mmu import Mmu


def make_events(count: int, seed: int, ports: int = 4, max_len: int = 9216,
                backlog: int = 1500) -> list[tuple]:
    """A list of ('a', port, pg, eport, q, length) and ('r', slot) entries; a release refers to
    the arrival that used ``slot`` (released only if it was admitted)."""
    rng = random.Random(seed)
    events: list[tuple] = []
    pending: list[int] = []
    slot = 0
    while len(events) < count:
        if pending and (len(pending) > backlog or rng.random() < 0.45):
            events.append(("r", pending.pop(rng.randrange(len(pending)))))
        else:
            prio = rng.randrange(8)
            port, eport = rng.randrange(ports), rng.randrange(ports)
            if rng.random() < 0.3:  # a hot lossless flow, so PFC XOFF/XON happens
                port, prio, eport = 0, 3, 1
            length = rng.choice((64, 128, 256, 512, 1500, 4096, max_len))
            events.append(("a", port, prio, eport, prio, length, slot))
            pending.append(slot)
            slot += 1
    return events


def run(events: list[tuple], mmu: Mmu) -> float:
    held: dict[int, tuple] = {}
    arrive = mmu.arrive
    release = mmu.release
    t0 = time.perf_counter()
    for ev in events:
        if ev[0] == "a":
            _, port, pg, eport, q, length, slot = ev
            d = arrive(port, pg, eport, q, length)
            if d.admit:
                held[slot] = (port, pg, eport, q, d.cells)
        else:
            h = held.pop(ev[1], None)
            if h is not None:
                release(*h)
    return time.perf_counter() - t0


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--events", type=int_range(1), default=300_000,
                    help="admission events per run (default 300,000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int_range(1), default=3, help="best of N runs (default 3)")


def run_bench(a: argparse.Namespace) -> int:
    events = make_events(a.events, a.seed)
    best = None
    for _ in range(a.repeat):
        mmu = Mmu(example_config())
        dt = run(events, mmu)
        best = dt if best is None else min(best, dt)
    rate = len(events) / max(best, 1e-9)
    print(f"models.bench: {len(events)} events (seed {a.seed}) in {best:.3f} s: "
          f"{rate:,.0f} admission events/s (target >= 200,000); admitted {mmu.admitted}, "
          f"drops {sum(mmu.drops)}, PFC events {len(mmu.events)}")
    return 0


DESCRIPTION = __doc__.split("\n")[0]


def main(argv: list[str] | None = None, prog: str = "python -m models.bench") -> int:
    ap = Parser(prog=prog, description=DESCRIPTION)
    add_arguments(ap)
    a = ap.parse_args(argv)
    return run_guarded(prog, lambda: run_bench(a))


if __name__ == "__main__":
    raise SystemExit(main())
