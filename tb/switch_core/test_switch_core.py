"""pytest runner of the switch_core cocotb tests (tb/switch_core/switch_core_cases.py)."""

import pytest

import harness
from switch_core import wrapper

PORTS = 4
MINE = ["sw_ram", "sw_fifo", "sw_free_list", "sw_ingress", "sw_egress", "switch_core"]


def _sources():
    """rtl/rtl.f, plus switch_core's files while they are not listed there yet."""
    srcs = harness.rtl_sources()
    listed = {s.stem for s in srcs}
    return srcs + [harness.ROOT / "rtl" / f"{m}.v" for m in MINE if m not in listed]


def _run(test_id, testcase, data_width=64, cell_bytes=128, buffer_cells=512, extra_env=None,
         module="switch_core.switch_core_cases", watchdog=0, prevent=0, fault=0, mmu_fault=0,
         free_list_fault=0, port_counters=1):
    top = wrapper.generate(PORTS, harness.SIM_BUILD / "gen" / f"switch_core_tb_{PORTS}.v")
    params = {"PORT_COUNT": PORTS, "DATA_WIDTH": data_width, "CELL_BYTES": cell_bytes,
              "BUFFER_CELLS": buffer_cells}
    if watchdog:
        params["WATCHDOG_ENABLE"] = 1
    if prevent:
        params["PREVENT_ENABLE"] = 1
    if fault:
        params["PREVENT_FAULT_INJECT"] = 1
    if mmu_fault:
        params["MMU_FAULT_INJECT"] = 1
    if free_list_fault:
        params["FREE_LIST_FAULT_INJECT"] = 1
    if not port_counters:
        params["PORT_COUNTERS"] = 0
    # items with the same parameters share one build (a Verilator build of the 4-port switch
    # is about a minute): the default DATA_WIDTH 64 one serves five items, the 8-bit one three
    build_id = "switch_core-" + "-".join(f"{k.lower()}{v}" for k, v in sorted(params.items()))
    harness.run("switch_core_tb", module,
                test_id=f"switch_core-dw{data_width}-{test_id}", build_id=build_id,
                sources=_sources() + [top], parameters=params,
                testcase=testcase, extra_env=extra_env)


DIRECTED = ["forwarding", "pcp_mapping", "bad_frames_dropped", "predictor_catches_wrong_model",
            "predictor_catches_wrong_write", "prevention_off_ignores_config",
            "no_request_before_load", "check_drained_catches_a_lost_free"]


@pytest.mark.parametrize("data_width", [64, 8])
def test_directed(data_width):
    _run("directed", DIRECTED, data_width=data_width,
         cell_bytes=128 if data_width == 64 else 64)


def test_port_counters_left_out():
    """PORT_COUNTERS 0 (the Colorlight i5's build): after traffic every per-port counter but
    drop_admission reads 0 over AXI4-Lite while the switch counted frames inside, and
    drop_admission still reads the switch's count (SwitchTB.check_switch_regs)."""
    _run("counters-left-out", ["forwarding", "bad_frames_dropped"], port_counters=0)


def test_pfc():
    _run("pfc", ["pfc_pauses_egress", "congestion_pfc"])


def test_mmu_fault():
    """MMU_FAULT_INJECT build (mmu_core's shared-below-T check off by one): the admission
    predictor must catch it (predictor_catches_mmu_fault)."""
    _run("mmu-fault", "predictor_catches_mmu_fault", mmu_fault=1)


@pytest.mark.parametrize("data_width", [64, 8])
def test_watchdog_storm(data_width):
    """PFC storm on one priority: pfc_watchdog in the datapath (tb/switch_core/watchdog_cases)."""
    _run("watchdog", None, data_width=data_width, cell_bytes=128 if data_width == 64 else 64,
         module="switch_core.watchdog_cases", watchdog=1)


@pytest.mark.parametrize("data_width", [64, 8])
def test_prevention(data_width):
    """Deadlock prevention remap per port group (tb/switch_core/prevention_cases)."""
    _run("prevention", None, data_width=data_width, cell_bytes=128 if data_width == 64 else 64,
         module="switch_core.prevention_cases", prevent=1)


def test_prevention_fault():
    """PREVENT_FAULT_INJECT build: the scoreboard and the Scapy check catch a wrong checksum."""
    _run("prevention-fault", None, module="switch_core.prevention_cases", prevent=1, fault=1)


EDGES = ["mac_control_one_decision", "link_pause_per_port", "malformed_data_frames", "stall_cut"]


@pytest.mark.parametrize("data_width", [64, 8])
def test_edges(data_width):
    """Bad input (issue 18): MAC Control classes, PAUSE per port, malformed data frames and
    the stall cut, counters against models.rx_class (tb/switch_core/edge_cases)."""
    _run("edges", EDGES, data_width=data_width, cell_bytes=128 if data_width == 64 else 64,
         module="switch_core.edge_cases")


@pytest.mark.parametrize("buffer_cells,fault", [(672, 0), (384, 0), (672, 1)])
def test_free_list_wrap(buffer_cells, fault):
    """The board buffers' cell counts (not powers of two): traffic that hands out every cell
    more than twice, so the free list's ring wraps, against the models and the cell shadow
    map; the build whose ring wraps at 1024 (FREE_LIST_FAULT_INJECT) must be caught by the
    shadow map (tb/switch_core/edge_cases)."""
    sim = harness.sim_name()
    if buffer_cells == 672 and harness.tb_scale(sim) < 1:
        # 2 x 672 cells of traffic is 5.5 min on Icarus (0.9 s on Verilator): the 384-cell
        # build covers the odd wrap here, make nightly (TB_SCALE=1) runs these too
        pytest.skip("672-cell wrap: Verilator, and Icarus at TB_SCALE=1 (make nightly)")
    _run(f"wrap{buffer_cells}" + ("-fault" if fault else ""),
         "cell_map_catches_wrong_wrap" if fault else "free_list_wrap", cell_bytes=64,
         buffer_cells=buffer_cells, module="switch_core.edge_cases", free_list_fault=fault)


def test_random():
    _run("random", "random_traffic")


@pytest.mark.parametrize("data_width", [64, 8])
def test_benchmark(data_width, capsys):
    _run("bench", "line_rate_benchmark", data_width=data_width,
         cell_bytes=128 if data_width == 64 else 64)
    log = (harness.run_dir(f"switch_core-dw{data_width}-bench") / "sim.log").read_text()
    with capsys.disabled():
        for line in log.splitlines():
            if "BENCHMARK" in line:
                print(line.split("cocotb.switch_core_tb")[-1].strip())
