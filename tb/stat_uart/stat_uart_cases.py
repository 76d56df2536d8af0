"""stat_uart / uart_tx: the printed line decodes (8N1) to the labelled hex counters."""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, Timer

from common import waits

CPB = int(os.environ.get("PARAM_CLKS_PER_BIT", "8"))
COUNT = int(os.environ.get("PARAM_COUNT", "3"))


async def uart_rx(dut, nchars, period_ns=10):
    """Independent 8N1 receiver sampling mid-bit."""
    out = []
    for _ in range(nchars):
        if int(dut.txd.value) == 1:
            # a character follows the previous one at once; the first within a line's time
            await waits.trigger(FallingEdge(dut.txd), 12 * nchars * CPB * period_ns,
                                f"the start bit of character {len(out)}")
        await Timer(CPB * period_ns // 2, unit="ns")
        assert int(dut.txd.value) == 0, "start bit"
        byte = 0
        for b in range(8):
            await Timer(CPB * period_ns, unit="ns")
            byte |= int(dut.txd.value) << b
        await Timer(CPB * period_ns, unit="ns")
        assert int(dut.txd.value) == 1, "stop bit"
        out.append(byte)
    return bytes(out)


def expected_line(values, labels="abc"):
    return ("".join(f"{labels[i]}={v:08X} " for i, v in enumerate(values))[:-1] + "\r\n").encode()


@cocotb.test()
async def prints_counters(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.trigger.value = 0
    dut.values.value = 0
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    rng = random.Random(cocotb.RANDOM_SEED)
    for _ in range(2):
        vals = [rng.getrandbits(32) for _ in range(COUNT)]
        packed = sum(v << (32 * i) for i, v in enumerate(vals))
        dut.values.value = packed
        await RisingEdge(dut.clk)
        dut.trigger.value = 1
        await RisingEdge(dut.clk)
        dut.trigger.value = 0
        exp = expected_line(vals)
        got = await uart_rx(dut, len(exp))
        dut._log.info("UART line: %r", got)
        assert got == exp, f"{got!r} != {exp!r}"
        await RisingEdge(dut.clk)
        await waits.until(dut.clk, lambda: not int(dut.busy.value), 4 * CPB,
                          "busy to fall after the stop bit")


def check_decoder_catches_error():
    """The expected-line builder is not vacuous: a different value gives a different line."""
    assert expected_line([1, 2, 3]) != expected_line([1, 2, 4])
