#!/usr/bin/env bash
# EDALIZE_LAUNCHER for the YoWASP tools in .venv: edalize runs `yosys ...`, `nextpnr-ecp5 ...`,
# `ecppack ...`; this runs yowasp-<tool> with the same arguments (other commands unchanged).
# YoWASP tools see a private /tmp, so keep FuseSoC's build root inside the repository.
set -euo pipefail
venv="$(cd "$(dirname "$0")/.." && pwd)/.venv/bin"
cmd=$1
shift
case "$cmd" in
    yosys|nextpnr-ecp5|nextpnr-ice40|ecppack|icepack)
        if [ -x "$venv/yowasp-$cmd" ]; then exec "$venv/yowasp-$cmd" "$@"; fi
        exec "yowasp-$cmd" "$@" ;;
    *) exec "$cmd" "$@" ;;
esac
