"""scripts/coverage_info.py (make coverage's merge of Verilator coverage.dat files and its lcov
.info) gives what verilator_coverage 5.048 gives.

The files in vlcov/: a.dat is a Verilator 5.48 --coverage-line run of tb/stat_uart (paths
rewritten to /src/pfcmmu), b.dat the same points with other counts in reverse order plus a
point only it has (a line range, never hit).  merged.dat and merged.info were written by
verilator_coverage 5.048 (built from the v5.048 tag) with ``--write merged.dat --write-info
merged.info a.dat b.dat``; it wrote the same .info for ``b.dat a.dat`` (it reads the files in
name order, and the order points are first read numbers a line's branch points).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "vlcov"
SCRIPT = ROOT / "scripts" / "coverage_info.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=60)


def test_merge_and_info_as_verilator_coverage(tmp_path):
    r = run(str(DATA / "a.dat"), str(DATA / "b.dat"), "--write", str(tmp_path / "m.dat"),
            "--write-info", str(tmp_path / "m.info"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "m.dat").read_bytes() == (DATA / "merged.dat").read_bytes()
    assert (tmp_path / "m.info").read_text() == (DATA / "merged.info").read_text()
    r = run(str(DATA / "b.dat"), str(DATA / "a.dat"), "--write-info", str(tmp_path / "ba.info"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "ba.info").read_text() == (DATA / "merged.info").read_text()


def test_info_rules_on_a_small_case(tmp_path):
    """The line count is the largest of its points (not the sum, not Debian 5.006's minimum),
    an S range puts a point on each of its lines, a line with two points gets BRDA entries
    (BRH counts those hit --annotate-min times), and --filter keeps one folder."""
    def pt(f, line, col, typ, s=""):
        k = {"f": f, "l": str(line), "n": str(col), "t": typ, "page": f"v_{typ}/m"}
        if s:
            k["S"] = s
        k["h"] = "top"
        return "".join(f"\x01{a}\x02{b}" for a, b in k.items())
    dat = tmp_path / "c.dat"
    dat.write_text("# SystemC::Coverage-3\n"
                   f"C '{pt('/x/rtl/m.v', 10, 1, 'branch', '10-12')}' 7\n"
                   f"C '{pt('/x/rtl/m.v', 10, 2, 'branch')}' 2\n"
                   f"C '{pt('/x/rtl/m.v', 20, 1, 'line')}' 3\n"
                   f"C '{pt('/x/rtl/m.v', 20, 2, 'branch')}' 0\n"
                   f"C '{pt('/x/rtl/m.v', 30, 1, 'line')}' 0\n"
                   f"C '{pt('/x/tb/t.v', 5, 1, 'line')}' 1\n")
    info = tmp_path / "c.info"
    r = run(str(dat), "--filter", str(tmp_path / "nothing"), "--write-info", str(info))
    assert r.returncode == 1 and "no coverage points" in r.stderr
    r = run(str(dat), "--write-info", str(info))
    assert r.returncode == 0, r.stderr
    assert "SF:/x/rtl/m.v\nDA:10,7\nBRDA:10,0,0,7\nBRDA:10,0,1,2\nDA:11,7\nDA:12,7\n" \
           "DA:20,3\nBRDA:20,0,0,3\nBRDA:20,0,1,0\nDA:30,0\nBRF:4\nBRH:0\nend_of_record\n" \
           "SF:/x/tb/t.v\n" in info.read_text()
    r = run(str(dat), "--filter", "/x/rtl", "--write-info", str(info), "--summary",
            "--annotate-min", "2")
    text = info.read_text()
    assert "/x/tb/t.v" not in text and "BRF:4\nBRH:3\n" in text
    # the summary counts as genhtml: lines 10, 11, 12, 20 of 5 hit; 3 of 4 branch points
    total = [ln for ln in r.stdout.splitlines() if ln.startswith("total")][0].split()
    assert total[1:4] == ["4", "/", "5"] and total[6:9] == ["3", "/", "4"]


def test_bad_file_one_line():
    r = run("/no/such/coverage.dat", "--write-info", "/dev/null")
    assert r.returncode == 2 and r.stderr == "coverage_info: no such file: /no/such/coverage.dat\n"
