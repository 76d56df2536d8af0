"""Functional coverage store (plain Python): named bins, hit counts, closure.

The grid is fixed by the test plan (tb/TESTPLAN.md) for the system configuration: priorities
3 and 4 lossless, the rest lossy.  Bins that cannot happen are left out on purpose and the
reason written here:

* lossy priorities have no headroom segment and no PFC transitions;
* an arrival can only cause XOFF and a release only XON (an arrival never lowers occupancy,
  a release never raises it), so the cross is segment x "caused XOFF" for arrivals and
  "caused XON" for releases;
* an arrival into headroom that itself causes XOFF needs T to fall below the PG's shared
  occupancy through other PGs' arrivals: hit when it happens, not required.

Hits are kept per process in a class-level dict (the whole regression of one simulator runs
in one process) and also written as JSON so the pytest side can merge and assert closure.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

LOSSLESS_PRIOS = (3, 4)
SEGMENTS = ("reserved", "shared", "headroom", "drop")
ALPHA_SHIFTS = tuple(range(-7, 4))
SIZE_BINS = ((64, 64), (65, 127), (128, 255), (256, 511), (512, 1023), (1024, 1518),
             (1519, 2047), (2048, 4095), (4096, 9238))


def size_bin(wire_len: int) -> str:
    for lo, hi in SIZE_BINS:
        if lo <= wire_len <= hi:
            return f"size:{lo}-{hi}"
    return "size:other"


def required_bins() -> list[str]:
    bins = []
    for p in range(8):
        for s in SEGMENTS:
            if s == "headroom" and p not in LOSSLESS_PRIOS:
                continue
            bins.append(f"adm:prio{p}:{s}")
    for p in LOSSLESS_PRIOS:
        bins += [f"cross:prio{p}:reserved:none", f"cross:prio{p}:shared:none",
                 f"cross:prio{p}:shared:xoff", f"cross:prio{p}:headroom:none",
                 f"cross:prio{p}:drop:none", f"cross:prio{p}:release:xon",
                 f"wire:prio{p}:xoff", f"wire:prio{p}:xon", f"wire:prio{p}:refresh",
                 f"rx:prio{p}:xoff", f"rx:prio{p}:xon"]
    bins += [f"alpha:{a}" for a in ALPHA_SHIFTS]
    bins += ["threshold:static"]
    bins += [f"size:{lo}-{hi}" for lo, hi in SIZE_BINS]
    bins += ["drop:ingress_lossy", "drop:headroom_full"]
    return bins


class CovDb:
    hits: Counter = Counter()  # shared by every test of the process

    @classmethod
    def hit(cls, name: str, n: int = 1) -> None:
        cls.hits[name] += n

    @classmethod
    def reset(cls) -> None:
        cls.hits = Counter()

    @classmethod
    def missing(cls, hits: Counter | None = None) -> list[str]:
        h = cls.hits if hits is None else hits
        return [b for b in required_bins() if not h.get(b)]

    @classmethod
    def report(cls, hits: Counter | None = None) -> str:
        h = cls.hits if hits is None else hits
        req = required_bins()
        got = sum(1 for b in req if h.get(b))
        miss = [b for b in req if not h.get(b)]
        s = f"coverage {got}/{len(req)} bins ({100.0 * got / len(req):.1f} %)"
        if miss:
            s += "; missing: " + ", ".join(miss)
        return s

    @classmethod
    def dump(cls, path: Path, delta: Counter) -> None:
        path.write_text(json.dumps(dict(delta), indent=1, sort_keys=True))

    @staticmethod
    def load_merged(paths) -> Counter:
        c = Counter()
        for p in paths:
            c.update(json.loads(Path(p).read_text()))
        return c
