"""The board self-test core (rtl/fpga_core.v), simulated as it goes on the board: generators,
switch, PFC-honouring partners and checkers all on chip.  Checks: the register writes its boot
ROM (cfg_rom_boot, the image the harness generated from the model for this build) makes at
mmu_core's port are models.config.selftest_config()'s register image, in order, and nothing
else (boot_check_catches_altered_image shows the check failing on an image with one entry
altered); after the boot, the registers its sequencer polls for the UART line are the
generated map's (hdrm_wm, the switch's errors word, each port's drop_admission, in that
order, round-robin); after a run of incast traffic, lossless frames were never lost,
corrupted or reordered while PFC fired and lossy frames were dropped; the UART line (cocotbext-uart's UartSink,
common.uart) decodes to
the same counters, and its D= and E= agree with the switch's own state over the last poll
rounds (D= = the sum of the per-port admission drop counters behind the drop_admission
registers; E= = the checkers' errors + 1 when the switch's error flags or the boot
sequencer's err are set; poll_ui_differences).  uart_check_catches_wrong_poll is the
negative: a build (FAULT_INJECT=1) that polls wrong, mapped registers for D= and E=.  With
headroom far below eta the same checkers must report lost frames."""

import collections
import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, Timer
from cocotb.utils import get_sim_time

from common import waits
from common.uart import UartReceiver
from common.mmu_axil import switch_image
from harness import scaled
from models import pfcmmu_regs, pfcmmu_switch_regs as swr
from models.config import selftest_config
from models.regimage import reg_label
from models.swconfig import global_addr, port_addr, selftest_switch_config

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
    m = dut.switch_inst.csr_inst.mmu_csr_inst
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


# ---------------------------------------------------------------- the poll list
def poll_list_of_map(ports: int) -> list[tuple[str, int]]:
    """The registers fpga_core must poll, in its order, from the generated map: (name, byte
    address)."""
    return ([("hdrm_wm", pfcmmu_regs.GLOBALS["hdrm_wm"].offset << pfcmmu_regs.ADDR_SHIFT),
             ("errors", global_addr("errors"))]
            + [(f"port {p} drop_admission", port_addr(p, "drop_admission"))
               for p in range(ports)])


def sw_label(byte_addr: int) -> str:
    """A switch register's name (or the admission core's, models.regimage.reg_label)."""
    word = byte_addr >> swr.ADDR_SHIFT
    for name, reg in swr.SW_GLOBALS.items():
        if reg.offset == word:
            return name
    if word >= swr.SW_PORT_BASE:
        port, field = divmod(word - swr.SW_PORT_BASE, swr.SW_PORT_STRIDE)
        for name, reg in swr.SW_PORT.items():
            if reg.offset == field:
                return f"port {port} {name}"
    return reg_label(byte_addr)


async def poll_reads(dut, rounds: int = 2) -> tuple[list[int], int]:
    """The byte addresses of the boot sequencer's first ``rounds`` rounds of polled reads
    (AR handshakes at switch_core's port, from the boot ROM's done), and the clocks from the
    first read of entry 0 to the next (a round)."""
    n = rounds * (2 + P["PORT_COUNT"])
    # (started with the test: X before the reset on Icarus)
    done = dut.boot_inst.done
    await waits.until(dut.clk, lambda: done.value.is_resolvable and int(done.value), 20 * 4096,
                      "boot done")
    addrs, times, clock = [], [], 0
    while len(addrs) < n:
        await RisingEdge(dut.clk)
        clock += 1
        assert clock < 100 * n, f"only {len(addrs)} polled reads in {clock} clocks"
        if int(dut.axil_arvalid.value) and int(dut.axil_arready.value):
            addrs.append(int(dut.axil_araddr.value))
            times.append(clock)
    return addrs, times[2 + P["PORT_COUNT"]] - times[0]


def poll_differences(addrs: list[int]) -> list[str]:
    """Where the polled reads (poll_reads) differ from the map's poll list, round after
    round."""
    want = poll_list_of_map(P["PORT_COUNT"])
    return [f"read {k}: {sw_label(a)} ({a:#x}), the map's entry {k % len(want)} is "
            f"{want[k % len(want)][0]} ({want[k % len(want)][1]:#x})"
            for k, a in enumerate(addrs) if a != want[k % len(want)][1]]


# ---------------------------------------------------------------- D= and E= against the switch
def live_figures(dut) -> tuple[int, int, int]:
    """What D= and E= stand for, from the switch's own state this clock (through the
    hierarchy, not the bus): the sum of the per-port admission drop counters (the sources of
    the drop_admission registers), the MMU's drops by reason summed, and the errors as
    fpga_core counts them (the checkers' corrupt / misrouted / reordered frames, + 1 when one
    of the switch's error flags (the sources of its errors register) or the boot sequencer's
    err is set)."""
    sw = dut.switch_inst
    drops = sum(_words(sw.stat_drop_admission, P["PORT_COUNT"]))
    reasons = sum(_words(sw.stat_mmu_drop_count, 7))
    flags = any(int(getattr(sw, f"err_{f}").value) for f in
                ("release_underflow", "bad_config", "reserve", "free_list", "response"))
    errors = sum(_words(dut.err_v, P["PORT_COUNT"])) + int(flags or int(dut.boot_inst.err.value))
    return drops, reasons, errors


class LiveWindow:
    """live_figures of the last ``clocks`` clocks, sampled each clock while running."""

    def __init__(self, dut, clocks: int):
        self.dut = dut
        self.hist: collections.deque = collections.deque(maxlen=clocks)
        self._task = None

    def start(self):
        self._task = cocotb.start_soon(self._run())

    def stop(self):
        self._task.cancel()

    async def _run(self):
        while True:
            await RisingEdge(self.dut.clk)
            self.hist.append(live_figures(self.dut))

    def span(self, k: int) -> tuple[int, int]:
        vals = [h[k] for h in self.hist]
        return min(vals), max(vals)


def poll_ui_differences(fields: dict[str, str], at_trigger: dict, window: LiveWindow) -> list[str]:
    """The UART line's H=, D= and E= against the registers fpga_core printed (sampled at the
    line's trigger) and D= / E= against the switch's state over the window before the
    trigger: a polled figure is a mix of counter values read during the last poll rounds, so
    with counters that only grow it lies between the window's least and greatest value (one
    value when the window is still)."""
    diff = []
    for label, key in (("H", "peak_headroom"), ("D", "dropped"), ("E", "errors")):
        if int(fields[label], 16) != at_trigger[key]:
            diff.append(f"{label}={fields[label]}, fpga_core's stat_{key} {at_trigger[key]:#x}")
    for label, k, what in (("D", 0, "the switch's admission drops"),
                           ("E", 2, "the checkers' errors + the error flags")):
        lo, hi = window.span(k)
        got = int(fields[label], 16)
        if not lo <= got <= hi:
            diff.append(f"{label}={got} ({fields[label]}), {what} were {lo} .. {hi} in the "
                        f"{len(window.hist)} clocks before the line")
    return diff


async def line_with_window(dut, uart: UartReceiver, window_clocks: int):
    """The next UART line, the registers it prints (sampled at its trigger) and the live
    window of the ``window_clocks`` clocks before the trigger."""
    # print_cnt: clocks to the next trigger, minus 2 (negative: the trigger is next)
    cnt = dut.print_cnt
    width = len(cnt)
    left = int(cnt.value)
    left = -1 if left >> (width - 1) else left
    if left > window_clocks + 4:
        await ClockCycles(dut.clk, left - window_clocks - 4)
    window = LiveWindow(dut, window_clocks)
    window.start()
    await RisingEdge(dut.print_trigger)
    await RisingEdge(dut.clk)
    window.stop()
    at_trigger = stats(dut)
    # the line sampled at this trigger is the next one the sink receives (the last one ended
    # before the trigger: a line is shorter than PRINT_CYCLES)
    uart.sink.clear()
    cpb = P["CLK_HZ"] // P["BAUD"]
    line = await uart.read_line(12 * cpb * PERIOD)
    dut._log.info("UART: %s", line.strip())
    return dict(f.split("=") for f in line.split()), at_trigger, window


@cocotb.test()
async def selftest_lossless(dut):
    """Incast with headroom = the model's eta: zero lossless loss, PFC fired, lossy dropped."""
    boot = cocotb.start_soon(boot_writes(dut))
    polls = cocotb.start_soon(poll_reads(dut))
    await start(dut)
    cfg = cfg_of_params()
    writes, boot_clocks = await boot
    diff = boot_differences(writes, cfg)
    assert not diff, f"the booted configuration differs from selftest_config: {diff[:5]}"
    assert not int(dut.boot_inst.err.value), "the boot ROM saw an error response"
    dut._log.info("boot: %d register writes from the ROM, equal to the model's image, done "
                  "at %d ns", len(writes), int(get_sim_time("ns")))
    addrs, round_clocks = await polls
    diff = poll_differences(addrs)
    assert not diff, f"the boot sequencer polls other registers than the map's: {diff}"
    # a polled figure is at most about a round plus the read's and the sums' latency old
    window_clocks = 2 * round_clocks + 16
    dut._log.info("poll: %d registers (%s) round-robin, a round every %d clocks; the UART "
                  "check's window %d clocks", len(addrs) // 2,
                  ", ".join(n for n, _ in poll_list_of_map(P["PORT_COUNT"])), round_clocks,
                  window_clocks)
    cpb = P["CLK_HZ"] // P["BAUD"]
    uart = await UartReceiver.when_idle(dut.uart_txd, cpb * PERIOD)
    # the first line (its counters sampled at its trigger)
    fields, at_trigger, window = await line_with_window(dut, uart, window_clocks)
    assert int(fields["F"], 16) == at_trigger["frames_ok"]
    assert int(fields["L"], 16) == at_trigger["lost"]
    assert int(fields["P"], 16) == at_trigger["pfc_frames"]
    diff = poll_ui_differences(fields, at_trigger, window)
    assert not diff, f"UART line: {diff}"
    # CYCLES of traffic as before the boot ROM (the partners start at its done); meanwhile
    # the lines that follow, until one has drops in it: D= and E= against the switch again
    end_ns = get_sim_time("ns") + (CYCLES + boot_clocks) * PERIOD
    for _ in range(8):
        fields, at_trigger, window = await line_with_window(dut, uart, window_clocks)
        diff = poll_ui_differences(fields, at_trigger, window)
        assert not diff, f"UART line: {diff}"
        if int(fields["D"], 16) > 0:
            break
    assert int(fields["D"], 16) > 0, f"no drop on eight UART lines: {fields}"
    left = (end_ns - get_sim_time("ns")) // PERIOD
    if left > 0:
        await ClockCycles(dut.clk, int(left))
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
    # fpga_core polls the per-port counters and sums them through a registered adder tree,
    # so its total lags mmu_core's counters by up to a poll round and a few clocks: compare
    # once the MMU counters have been still for longer than that, exactly
    quiet, still, last = window_clocks, 0, sum(reasons)
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
    assert s["dropped"] == sum(_words(sw.stat_drop_admission, P["PORT_COUNT"])), s
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


@cocotb.test()
async def uart_check_catches_wrong_poll(dut):
    """Negative of the poll list and UART checks: this build (FAULT_INJECT=1) polls each
    port's drop_runt for D= (0 in this traffic) and quanta_step for the errors word (not 0
    after the boot): the poll check must name those registers, and the line check a wrong D=
    (below the switch's drops) and a wrong E= (1 with no error anywhere)."""
    assert P.get("FAULT_INJECT") == 1, "build with FAULT_INJECT=1"
    polls = cocotb.start_soon(poll_reads(dut))
    await start(dut)
    addrs, round_clocks = await polls
    diff = poll_differences(addrs)
    dut._log.info("poll check on the fault build: %s", diff)
    assert len(diff) == 2 * (1 + P["PORT_COUNT"]), diff
    assert all("drop_runt" in d or "quanta_step" in d for d in diff), diff
    await ClockCycles(dut.clk, CYCLES)
    cpb = P["CLK_HZ"] // P["BAUD"]
    uart = await UartReceiver.when_idle(dut.uart_txd, cpb * PERIOD)
    fields, at_trigger, window = await line_with_window(dut, uart, 2 * round_clocks + 16)
    diff = poll_ui_differences(fields, at_trigger, window)
    dut._log.info("UART check on the fault build: %s", diff)
    assert window.span(0)[0] > 0, "no drop before the line: the negative shows nothing"
    assert not int(dut.boot_inst.err.value), "the fault build's reads should be OKAY"
    assert len(diff) == 2 and diff[0].startswith("D=") and diff[1].startswith("E="), diff
