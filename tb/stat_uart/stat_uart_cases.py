"""stat_uart / uart_tx: the printed line decodes (8N1, cocotbext-uart's UartSink through
common.uart, which also checks each start and stop bit) to the labelled hex counters."""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

from common import waits
from common.uart import UartReceiver

CPB = int(os.environ.get("PARAM_CLKS_PER_BIT", "8"))
COUNT = int(os.environ.get("PARAM_COUNT", "3"))


def expected_line(values, labels="abc"):
    return ("".join(f"{labels[i]}={v:08X} " for i, v in enumerate(values))[:-1] + "\r\n").encode()


PERIOD = 10


async def print_lines(dut, receiver_cpb):
    """Two lines of random counters, each received at ``receiver_cpb`` clocks per bit and
    compared with the expected text."""
    cocotb.start_soon(Clock(dut.clk, PERIOD, unit="ns").start())
    dut.rst.value = 1
    dut.trigger.value = 0
    dut.values.value = 0
    await ClockCycles(dut.clk, 3)
    uart = UartReceiver(dut.txd, receiver_cpb * PERIOD)
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
        got = await uart.read(len(exp), 12 * len(exp) * CPB * PERIOD)
        dut._log.info("UART line: %r", got)
        assert got == exp, f"{got!r} != {exp!r}"
        await RisingEdge(dut.clk)
        await waits.until(dut.clk, lambda: not int(dut.busy.value), 4 * CPB,
                          "busy to fall after the stop bit")


@cocotb.test()
async def prints_counters(dut):
    await print_lines(dut, CPB)


@cocotb.test(expect_fail=True)
async def wrong_baud_is_caught(dut):
    """Negative: a receiver one clock per bit slower than the transmitter fails the check."""
    await print_lines(dut, CPB + 1)


def check_decoder_catches_error():
    """The expected-line builder is not vacuous: a different value gives a different line."""
    assert expected_line([1, 2, 3]) != expected_line([1, 2, 4])
