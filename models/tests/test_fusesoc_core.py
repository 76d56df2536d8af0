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
