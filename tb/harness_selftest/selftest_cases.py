"""cocotb tests for the harness self-test: one correct, one expected failure, one known-bad,
one stalled handshake.

The known-bad case (``known_bad``) is only run in a sub-run by test_harness.py, which checks
that the harness reports it as a failure and exits non-zero; so is ``stalled_handshake``,
which must end at its time limit (tb/common/time_limit.py) instead of hanging."""

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge


async def _start(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 2)
    dut.rst.value = 0
    await RisingEdge(dut.clk)


# Limits of their own: cocotb's Makefile flow (make makefile-flow) runs these without the
# harness's time limits (tb/common/time_limit.py).  stalled_handshake has none on purpose: it
# shows the harness's limit at work.
@cocotb.test(timeout_time=10, timeout_unit="us")
async def counts_up(dut):
    """The counter advances by one per clock."""
    await _start(dut)
    a = int(dut.count.value)
    await ClockCycles(dut.clk, 5)
    assert int(dut.count.value) == (a + 5) % 256


@cocotb.test(expect_fail=True, timeout_time=10, timeout_unit="us")
async def wrong_expectation_is_caught(dut):
    """A deliberately wrong check: cocotb must report it as failing (expect_fail)."""
    await _start(dut)
    a = int(dut.count.value)
    await ClockCycles(dut.clk, 5)
    assert int(dut.count.value) == a + 6


@cocotb.test(skip=True, timeout_time=10, timeout_unit="us")
async def known_bad(dut):
    """Fails for real; run only on purpose (testcase filter) by the self-test."""
    await _start(dut)
    assert int(dut.count.value) == 12345, "known-bad case failed as designed"


@cocotb.test(skip=True)
async def stalled_handshake(dut):
    """Fault: waits, with no bound of its own, for a handshake that never comes (the 8-bit
    counter never reads 256); only the harness's time limit can end it."""
    await _start(dut)
    while int(dut.count.value) != 256:
        await RisingEdge(dut.clk)
