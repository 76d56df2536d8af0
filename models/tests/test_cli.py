"""The installed `pfcmmu` command and `python -m models.*`: each works, and each wrong usage
ends in exactly one line on stderr, nothing on stdout and a non-zero exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from models import cli
from models import regimage
from models.sonic import from_sonic

BIN = Path(sys.executable).parent
PFCMMU = BIN / "pfcmmu"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "arista_7050qx32.json"
TD2 = EXAMPLE.parent / "broadcom_td2_static.json"
SN2700 = EXAMPLE.parent / "mellanox_sn2700_shp.json"


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, input=stdin, timeout=120)


def pf(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return run([str(PFCMMU), *args], stdin)


def pym(module: str, *args: str) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", f"models.{module}", *args])


def one_line_error(r: subprocess.CompletedProcess, status: int, *words: str) -> None:
    assert r.returncode == status, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert "error:" in lines[0] and "Traceback" not in r.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_installed_command():
    """`make setup` installs the package (editable): the console script exists and reports the
    package's version."""
    assert PFCMMU.exists(), "pfcmmu is not installed in this venv: run make setup"
    r = pf("--version")
    assert r.returncode == 0 and r.stdout.startswith("pfcmmu 0.")
    r = pf("--help")
    assert r.returncode == 0
    for tool in ("headroom", "scenario", "sonic", "bench"):
        assert tool in r.stdout


def test_headroom_agrees_with_module():
    a = pf("headroom", "--speed", "100", "--cable", "300", "--mtu", "1500")
    b = pym("headroom", "--speed", "100", "--cable", "300", "--mtu", "1500")
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout and "44340 B" in a.stdout


def test_scenario_and_dt(tmp_path):
    r = pf("scenario", "incast", "--ports", "2", "--us", "8", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "incast.png").stat().st_size > 0
    r = pf("scenario", "dt", "--ports", "4", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "N = 1, 2, 4" in r.stdout
    assert (tmp_path / "dt.png").stat().st_size > 0


def test_sonic_import_explain_export(tmp_path):
    out = tmp_path / "cfg.json"
    r = pf("sonic", "import", str(EXAMPLE), "--cell-bytes", "208", "--out", str(out))
    assert r.returncode == 0, r.stderr
    cfg = json.loads(out.read_text())
    assert len(cfg["ports"]) == 32 and cfg["cell_bytes"] == 208
    r = pf("sonic", "explain", str(EXAMPLE), "--cell-bytes", "208")
    assert r.returncode == 0, r.stderr
    assert "PG 3-4 lossless" in r.stdout and "ports 1..31" in r.stdout
    assert "Xoff" in r.stdout and "eta" in r.stdout
    r = pf("sonic", "explain", str(out))  # an MmuConfig JSON is explained too
    assert r.returncode == 0 and "PG 3-4 lossless" in r.stdout
    r = pf("sonic", "export", str(out))
    assert r.returncode == 0 and "BUFFER_PROFILE" in json.loads(r.stdout)


@pytest.mark.parametrize("fmt", regimage.FORMATS)
def test_sonic_image(fmt, tmp_path):
    """`sonic image` from SONiC tables, two ports, each format: the file holds the image of
    the imported configuration (models/tests/test_regimage.py checks the formats)."""
    out = tmp_path / f"img{fmt}"
    r = pym("sonic", "image", str(TD2), "--ports", "Ethernet0,Ethernet4", "--cell-bytes", "256",
            "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert f"{out}: 218 register writes" in r.stdout and "pool_shared_lossless" in r.stdout
    cfg = from_sonic(TD2.read_text(), 256, ports=["Ethernet0", "Ethernet4"])
    assert regimage.read_image(out) == regimage.image(cfg)
    # the same through pfcmmu and from an MmuConfig JSON
    cfg_json = tmp_path / "cfg.json"
    cfg_json.write_text(cfg.to_json())
    out2 = tmp_path / f"img2{fmt}"
    r = pf("sonic", "image", str(cfg_json), "--out", str(out2))
    assert r.returncode == 0, r.stderr
    assert regimage.read_image(out2) == regimage.image(cfg)


def test_sonic_image_makes_the_folder(tmp_path):
    """README's example writes into sim_build/img/, which a fresh clone does not have: the
    folder is made."""
    out = tmp_path / "sim_build" / "img" / "sn2700.hex"
    r = pym("sonic", "image", str(SN2700), "--ports", "Ethernet0,Ethernet4", "--cell-bytes",
            "256", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert f"{out}: 218 register writes" in r.stdout and out.exists()


def test_sonic_image_refused_writes_nothing(tmp_path):
    """Spectrum's 96-byte cells: more cells than the 16-bit fields hold; one line naming the
    register, exit 1, no file (and no folder made for it)."""
    out = tmp_path / "new" / "img.hex"
    one_line_error(pym("sonic", "image", str(SN2700), "--cell-bytes", "96", "--out", str(out)),
                   1, "buffer_cells", "does not fit")
    assert not out.exists() and not out.parent.exists()


def test_bench_runs():
    r = pf("bench", "--events", "2000", "--repeat", "1")
    assert r.returncode == 0 and "admission events/s" in r.stdout


# Every wrong usage: (argv after `pfcmmu`, exit status, words the one line must hold)
WRONG = [
    ([], 2, ["required"]),
    (["frobnicate"], 2, ["invalid choice", "frobnicate"]),
    (["headroom"], 2, ["--speed", "--cable"]),
    (["headroom", "--speed", "-1", "--cable", "300"], 2, ["--speed", "-1"]),
    (["headroom", "--speed", "0", "--cable", "300"], 2, ["--speed"]),
    (["headroom", "--speed", "nan", "--cable", "300"], 2, ["--speed"]),
    (["headroom", "--speed", "fast", "--cable", "300"], 2, ["--speed", "fast"]),
    (["headroom", "--speed", "100", "--cable", "-3"], 2, ["--cable"]),
    (["headroom", "--speed", "100", "--cable", "3", "--mtu", "10"], 2, ["--mtu"]),
    (["headroom", "--speed", "100", "--cable", "3", "--cell-bytes", "0"], 2, ["--cell-bytes"]),
    (["headroom", "--speed", "100", "--cable", "3", "--bogus"], 2, ["--bogus"]),
    (["scenario"], 2, ["scenario"]),
    (["scenario", "nosuch"], 2, ["invalid choice"]),
    (["scenario", "incast", "--ports", "0"], 2, ["--ports", "0"]),
    (["scenario", "incast", "--ports", "-2"], 2, ["--ports"]),
    (["scenario", "incast", "--alpha-shift", "9"], 2, ["--alpha-shift"]),
    (["scenario", "incast", "--drain", "2"], 2, ["--drain"]),
    (["scenario", "incast", "--frame", "20"], 2, ["--frame"]),
    (["scenario", "incast", "--headroom-fraction", "0"], 2, ["--headroom-fraction"]),
    (["scenario", "incast", "--us", "-5"], 2, ["--us"]),
    (["sonic"], 2, ["required"]),
    (["sonic", "frob"], 2, ["invalid choice"]),
    (["sonic", "import"], 2, ["file"]),
    (["sonic", "import", "/nonexistent/x.json"], 1, ["/nonexistent/x.json"]),
    (["sonic", "explain", str(EXAMPLE), "--cell-bytes", "-8"], 2, ["--cell-bytes"]),
    (["sonic", "image", str(EXAMPLE)], 2, ["--out"]),
    (["sonic", "image", str(EXAMPLE), "--out", "image.bin"], 2, ["--out", ".json, .hex, .h"]),
    (["sonic", "image", str(EXAMPLE), "--cell-bytes", "96", "--out", "/nonexistent/i.hex"], 1,
     ["ports[0].queues[3].static_th", "does not fit"]),
    (["bench", "--events", "0"], 2, ["--events"]),
]


@pytest.mark.parametrize("argv,status,words", WRONG, ids=[" ".join(w[0]) or "(none)"
                                                         for w in WRONG])
def test_wrong_usage_one_line(argv, status, words):
    one_line_error(pf(*argv), status, *words)


def test_wrong_usage_in_process(capsys):
    """The same check without a subprocess, through models.cli.main (SystemExit from argparse)."""
    with pytest.raises(SystemExit) as e:
        cli.main(["scenario", "incast", "--ports", "0"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--ports" in err


def test_bad_json_and_bad_config(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    one_line_error(pf("sonic", "import", str(bad)), 1, "JSON")
    one_line_error(pf("sonic", "explain", "-", stdin="[1, 2]"), 1, "JSON object")
    one_line_error(pf("sonic", "explain", "-", stdin='{"x": 1}'), 1, "neither")
    # a lossless profile on the lossy pool: the model's ConfigError, one line
    d = json.loads(EXAMPLE.read_text())
    d["BUFFER_PROFILE"]["pg_lossless_40000_300m_profile"]["pool"] = "ingress_lossy_pool"
    bad.write_text(json.dumps(d))
    one_line_error(pf("sonic", "import", str(bad), "--cell-bytes", "208"), 1, "pool")


@pytest.mark.parametrize("module,argv,words", [
    ("sonic", [], ["required"]),  # used to print nothing and exit 0
    ("headroom", ["--speed", "-1", "--cable", "300"], ["--speed"]),
    ("scenario", ["incast", "--ports", "0"], ["--ports"]),  # used to end in a traceback
    ("bench", ["--repeat", "0"], ["--repeat"]),
])
def test_python_m_wrong_usage(module, argv, words):
    one_line_error(pym(module, *argv), 2, f"python -m models.{module}", *words)
