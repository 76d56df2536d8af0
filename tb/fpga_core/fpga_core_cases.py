"""The board self-test core (rtl/fpga_core.v), simulated as it goes on the board: generators,
switch, PFC-honouring partners and checkers all on chip.  Checks: the register writes its boot
ROM (cfg_rom_boot, the image the harness generated from the model for this build) makes at
mmu_core's port are models.config.selftest_config()'s register image, in order, and nothing
else (boot_check_catches_altered_image shows the check failing on an image with one entry
altered); after a run of incast traffic, lossless frames were never lost,
corrupted or reordered while PFC fired and lossy frames were dropped; the UART line (cocotbext-uart's UartSink,
common.uart) decodes to
the same counters.  With headroom far below eta the same checkers must report lost frames."""

import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, Timer
from cocotb.utils import get_sim_time

from common import waits
from common.uart import UartReceiver
from common.mmu_axil import switch_image
from harness import scaled
from models.config import selftest_config
from models.regimage import reg_label
from models.swconfig import selftest_switch_config

P = {k[6:]: int(v) for k, v in os.environ.items()
     if k.startswith("PARAM_") and k != "PARAM_IMAGE_FILE"}
# self-test length: 25,000 clocks, half on Icarus (TB_SCALE, tb/harness.py): the incast
# congests and fires PFC within the first few thousand
CYCLES = int(os.environ.get("FPGA_CORE_CYCLES") or scaled(25000, low=12500))
PERIOD = 8


# the lossless headroom of this build's image (a bench setting, no longer an RTL parameter)
HDRM_CELLS = int(os.environ["FPGA_CORE_HDRM_CELLS"])


def cfg_of_params():
    return selftest_config(ports=P["PORT_COUNT"], cell_bytes=P["CELL_BYTES"],
                           buffer_cells=P["BUFFER_CELLS"], max_frame_bytes=1518,
                           headroom=HDRM_CELLS)


async def boot_writes(dut) -> tuple[list[tuple[int, int]], int]:
    """The configuration writes of the CSR block (byte address, data) until the boot ROM's
    done, and the clocks from reset to done (the partners start sending then)."""
    # the CSR block's writes, before sw_mmu_csr routes them (switch registers or mmu_core)
    m = dut.switch_inst.mmu_csr_inst
    out = []
    # (started with the test: rst may not be driven yet, Z on Icarus)
    await waits.until(dut.clk, lambda: dut.rst.value.is_resolvable and int(dut.rst.value), 100,
                      "reset high")
    await waits.until(dut.clk, lambda: not int(dut.rst.value), 100, "reset low")
    for clock in range(20 * 4096):
        await FallingEdge(dut.clk)
        if int(m.csr_wr_valid.value):
            out.append((int(m.m_cfg_wr_addr.value) << 2, int(m.m_cfg_wr_data.value)))
        if int(dut.boot_inst.done.value):
            return out, clock
    raise AssertionError("the boot ROM never raised done")


def boot_differences(got: list[tuple[int, int]], cfg) -> list[str]:
    """What differs between the writes seen and the model's image of ``cfg`` (in order)."""
    want = selftest_switch_config(P["PORT_COUNT"]).image(changed_only=True) + switch_image(cfg)
    diff = [f"write {k}: {reg_label(g[0])} = {g[1]:#x}, model {reg_label(w[0])} = {w[1]:#x}"
            for k, (g, w) in enumerate(zip(got, want)) if g != w]
    if len(got) != len(want):
        diff.append(f"{len(got)} writes, the model's image has {len(want)}")
    return diff


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
    boot = cocotb.start_soon(boot_writes(dut))
    await start(dut)
    cfg = cfg_of_params()
    writes, boot_clocks = await boot
    diff = boot_differences(writes, cfg)
    assert not diff, f"the booted configuration differs from selftest_config: {diff[:5]}"
    assert not int(dut.boot_inst.err.value), "the boot ROM saw an error response"
    dut._log.info("boot: %d register writes from the ROM, equal to the model's image, done "
                  "at %d ns", len(writes), int(get_sim_time("ns")))
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
    # CYCLES of traffic as before the boot ROM: the partners start at its done
    await ClockCycles(dut.clk, CYCLES + boot_clocks)
    s = stats(dut)
    sw = dut.switch_inst
    dut._log.info("self-test after %d cycles: %s (headroom limit %d cells per PG); switch "
                  "admission drops per port %s, MMU drops by reason %s", CYCLES, s,
                  HDRM_CELLS, _words(sw.stat_drop_admission, P["PORT_COUNT"]),
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
    assert 0 < s["peak_headroom"] <= HDRM_CELLS * (P["PORT_COUNT"] - 1), s
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


@cocotb.test()
async def boot_check_catches_altered_image(dut):
    """Negative of the boot check: this build's image has one entry altered by the harness
    (FPGA_CORE_ALTERED: byte address, value); the compare with the model must name exactly
    that register."""
    addr, value = (int(x, 0) for x in os.environ["FPGA_CORE_ALTERED"].split(","))
    boot = cocotb.start_soon(boot_writes(dut))
    await start(dut)
    diff = boot_differences((await boot)[0], cfg_of_params())
    dut._log.info("boot check on the altered image: %s", diff)
    assert len(diff) == 1 and reg_label(addr) in diff[0] and f"{value:#x}" in diff[0], diff
