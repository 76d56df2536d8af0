"""The board self-test core (rtl/fpga_core.v), simulated as it goes on the board: generators,
switch, PFC-honouring partners and checkers all on chip.  Checks: its MMU configuration equals
models.config.selftest_config(); after a run of incast traffic, lossless frames were never lost,
corrupted or reordered while PFC fired and lossy frames were dropped; the UART line (cocotbext-uart's UartSink,
common.uart) decodes to the same counters.  With headroom far below eta the same checkers must report lost frames."""

import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

from common.uart import UartReceiver
from harness import scaled
from models.config import selftest_config

P = {k[6:]: int(v) for k, v in os.environ.items() if k.startswith("PARAM_")}
# self-test length: 25,000 clocks, half on Icarus (TB_SCALE, tb/harness.py): the incast
# congests and fires PFC within the first few thousand
CYCLES = int(os.environ.get("FPGA_CORE_CYCLES") or scaled(25000, low=12500))
PERIOD = 8


def cfg_of_params():
    return selftest_config(ports=P["PORT_COUNT"], cell_bytes=P["CELL_BYTES"],
                           buffer_cells=P["BUFFER_CELLS"], max_frame_bytes=1518,
                           headroom=P["HDRM_CELLS"])


async def start(dut):
    cocotb.start_soon(Clock(dut.clk, PERIOD, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 5)
    dut.rst.value = 0


def _words(sig, n):
    v = int(sig.value)
    return [(v >> (32 * i)) & 0xFFFFFFFF for i in range(n)]


def stats(dut):
    return {k: int(getattr(dut, f"stat_{k}").value) for k in
            ("frames_ok", "lost", "dropped", "pfc_frames", "peak_headroom", "errors")}


@cocotb.test()
async def selftest_lossless(dut):
    """Incast with headroom = the model's eta: zero lossless loss, PFC fired, lossy dropped."""
    await start(dut)
    cfg = cfg_of_params()
    # fpga_core's CELL_W is $clog2(BUFFER_CELLS + 1)
    exp = cfg.rtl_cfg(P["BUFFER_CELLS"].bit_length())
    sw = dut.switch_inst
    for name in ("cfg_buffer_cells", "cfg_pool_shared", "cfg_egress_pool_shared",
                 "cfg_pg_lossless", "cfg_pg_reserved", "cfg_pg_dynamic", "cfg_pg_alpha_shift",
                 "cfg_pg_headroom", "cfg_pg_xon", "cfg_pg_xon_offset", "cfg_q_lossless",
                 "cfg_q_reserved", "cfg_q_dynamic", "cfg_q_alpha_shift", "cfg_q_static_th",
                 "cfg_hdrm_pool", "cfg_max_frame_bytes"):
        got = int(getattr(sw, name).value)
        assert got == exp[name], f"{name}: RTL {got:#x} != selftest_config {exp[name]:#x}"
    cpb = P["CLK_HZ"] // P["BAUD"]
    uart = UartReceiver(dut.uart_txd, cpb * PERIOD)
    # the line starts within two print intervals
    line_task = cocotb.start_soon(uart.read_line(2 * P["PRINT_CYCLES"] * PERIOD + 12 * cpb * PERIOD))
    # the counters the UART line will print are sampled at its trigger
    await RisingEdge(dut.print_trigger)
    await RisingEdge(dut.clk)
    at_trigger = stats(dut)
    line = await line_task
    dut._log.info("UART: %s", line.strip())
    fields = dict(f.split("=") for f in line.split())
    assert int(fields["F"], 16) == at_trigger["frames_ok"]
    assert int(fields["L"], 16) == at_trigger["lost"]
    assert int(fields["P"], 16) == at_trigger["pfc_frames"]
    await ClockCycles(dut.clk, CYCLES)
    s = stats(dut)
    sw = dut.switch_inst
    dut._log.info("self-test after %d cycles: %s (headroom limit %d cells per PG); switch "
                  "admission drops per port %s, MMU drops by reason %s", CYCLES, s,
                  P["HDRM_CELLS"], _words(sw.stat_drop_admission, P["PORT_COUNT"]),
                  _words(sw.stat_mmu_drop_count, 7))
    # traffic flows: 100 frames checked in 25,000 clocks (80 in 12,500 here at the time)
    assert s["frames_ok"] > CYCLES // 250, s
    assert s["pfc_frames"] > 0, "the incast never triggered PFC"
    reasons = _words(sw.stat_mmu_drop_count, 7)
    assert s["dropped"] > 0, "no frame was dropped: the test does not congest"
    # fpga_core sums the per-port counters through a registered adder tree, so its total lags
    # mmu_core's counters by a few clocks: compare once the MMU counters have been still for
    # QUIET clocks (longer than the tree's latency), exactly
    quiet, still, last = 12, 0, sum(reasons)
    for _ in range(20000):
        await RisingEdge(dut.clk)
        now = sum(_words(sw.stat_mmu_drop_count, 7))
        still = still + 1 if now == last else 0
        last = now
        if still >= quiet:
            break
    assert still >= quiet, "the MMU drop counters never stood still for the comparison"
    s = stats(dut)
    reasons = _words(sw.stat_mmu_drop_count, 7)
    assert s["dropped"] == sum(reasons), (s, reasons)
    assert reasons[5] == 0, f"lossless frames dropped for lack of headroom: {reasons}"
    assert s["errors"] == 0, s
    assert s["lost"] == 0, f"lossless frames lost: {s}"
    assert 0 < s["peak_headroom"] <= P["HDRM_CELLS"] * (P["PORT_COUNT"] - 1), s
    assert int(dut.led.value) & 0x80 == 0, "error LED lit"


@cocotb.test()
async def selftest_undersized_headroom(dut):
    """With no headroom the same traffic loses lossless frames (those in flight after XOFF), and the checkers and
    the error LED say so (the self-test can fail)."""
    await start(dut)
    await ClockCycles(dut.clk, CYCLES)
    # a checker sees a lost frame when a later one of its flow arrives: if the MMU's drops
    # are still that recent, run on (up to CYCLES more, in steps) until one has
    extra = 0
    while stats(dut)["lost"] == 0 and extra < CYCLES:
        await ClockCycles(dut.clk, 1000)
        extra += 1000
    s = stats(dut)
    dut._log.info("undersized headroom after %d + %d clocks: %s, MMU drops by reason %s",
                  CYCLES, extra, s, _words(dut.switch_inst.stat_mmu_drop_count, 7))
    assert s["lost"] > 0, f"no loss reported with undersized headroom: {s}"
    assert int(dut.led.value) & 0x80, "error LED not lit"
