"""``pfcmmu``: the golden model's tools behind one command (installed by ``pip install .``).

    pfcmmu headroom --speed 100 --cable 300 [--mtu 1500] [--cell-bytes 256] [--json]
    pfcmmu scenario {incast,burst,mixed,storm,dt,headroom} [--ports N] [--out DIR] ...
    pfcmmu sonic {import,export,explain,image} FILE [--cell-bytes N] ...
    pfcmmu bench [--events N] [--seed S] [--repeat R]

Each subcommand is also ``python -m models.<module>`` with the same options (headroom,
scenario, sonic, bench).  Wrong usage: one line on stderr, exit 2; a request the model refuses
(bad configuration, unreadable file): one line, exit 1.
"""

from __future__ import annotations

import argparse
from importlib.metadata import PackageNotFoundError, version

from . import bench, headroom, scenario, sonic
from .cliutil import Parser, run_guarded

PROG = "pfcmmu"


def _version() -> str:
    try:
        return version("pfcmmu")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def build_parser() -> Parser:
    ap = Parser(prog=PROG, description="pfcmmu golden-model tools: headroom (eta) calculator, "
                "network scenarios with plots, SONiC buffer tables, model benchmark.",
                epilog="'pfcmmu <command> --help' for each command's options.  The RTL, its "
                       "testbench and the FPGA flow are driven by the repository's Makefile "
                       "(make help), not by this command.")
    ap.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = ap.add_subparsers(dest="tool", required=True, metavar="{headroom,scenario,sonic,bench}")
    for name, mod, run, text in (
            ("headroom", headroom, headroom.run,
             "eta (headroom) for one lossless PG, in bytes and cells"),
            ("scenario", scenario, scenario.run,
             "network scenario (incast, burst, mixed, storm), DT steady state (dt) or the "
             "headroom policies compared (headroom): CSV + PNG"),
            ("sonic", sonic, sonic.run,
             "SONiC buffer tables: import, export, explain, image (register image for the RTL)"),
            ("bench", bench, bench.run_bench, "admission events per second of the model")):
        sp = sub.add_parser(name, help=text, description=mod.DESCRIPTION)
        mod.add_arguments(sp)
        sp.set_defaults(run=run)
    return ap


def main(argv: list[str] | None = None) -> int:
    a: argparse.Namespace = build_parser().parse_args(argv)
    prog = f"{PROG} {a.tool}" + (f" {a.command}" if a.tool == "sonic" else "")
    return run_guarded(prog, lambda: a.run(a))


if __name__ == "__main__":
    raise SystemExit(main())
