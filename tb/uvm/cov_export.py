"""The system suite's functional coverage (cov_db's bins) as a cocotb-coverage report.

cov_db keeps the hits (a Counter per test, JSON files the closure check merges); this module
puts them into cocotb-coverage's database, one CoverPoint per bin group (``adm``, ``cross``,
``wire``, ``rx``, ``alpha``, ``threshold``, ``size``, ``drop``) under ``pfcmmu``, whose bins
are exactly cov_db.required_bins(), and writes its XML export.  Each system test writes
``coverage_<Test>.xml`` beside its JSON (base_test extract_phase); the pytest session merges
them with cocotb-coverage's ``merge_coverage`` into one report per run (tb/conftest.py).

The database is built from a test's own hits (the Counter delta of the test) and emptied after
the export, so a file holds one test even when several run in one process.  Hits outside the
required grid (the bins cov_db says may happen but need not) are in the JSON only.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from cocotb_coverage.coverage import CoverPoint, coverage_db, merge_coverage

from .cov_db import required_bins

ROOT = "pfcmmu"


def groups() -> dict[str, list[str]]:
    """Bin group (the name's first field) -> its required bins, in cov_db's order."""
    out: dict[str, list[str]] = {}
    for b in required_bins():
        out.setdefault(b.split(":", 1)[0], []).append(b)
    return out


def _clear() -> None:
    for name in [n for n in coverage_db if n == ROOT or n.startswith(ROOT + ".")]:
        del coverage_db[name]


def write_xml(hits: Counter, path: Path) -> None:
    """cocotb-coverage's XML export of ``hits`` (bin name -> count) over the required grid."""
    _clear()
    samplers = {}
    for group, bins in groups().items():
        def sample(name):
            pass
        samplers[group] = CoverPoint(f"{ROOT}.{group}", xf=lambda name: name, bins=bins)(sample)
    try:
        for name, n in sorted(hits.items()):
            s = samplers.get(name.split(":", 1)[0])
            if s is not None:
                for _ in range(n):
                    s(name)
        coverage_db.export_to_xml(str(path))
    finally:
        _clear()


def merge_xml(paths: list[Path], out: Path) -> None:
    """cocotb-coverage's merge of several XML exports (hits added bin by bin)."""
    merge_coverage(lambda _msg: None, str(out), *[str(p) for p in paths])


def read_totals(path: Path) -> tuple[int, int, float]:
    """(bins covered, bins, percent) of an XML export or merge, from its top element."""
    from xml.etree import ElementTree as et

    top = et.parse(path).getroot()
    return int(top.get("coverage")), int(top.get("size")), float(top.get("cover_percentage"))


def read_hits(path: Path) -> Counter:
    """Bin name -> hits of an XML export or merge."""
    from xml.etree import ElementTree as et

    return Counter({e.get("bin"): int(e.get("hits")) for e in et.parse(path).getroot().iter()
                    if e.get("bin") is not None and int(e.get("hits"))})
