"""Waiting whole clocks without waking Python on every edge.

cocotb's ClockCycles(clk, n) resumes its coroutine at each of the n edges; ``clocks`` sleeps
with one Timer to the middle of the clock before the n-th rising edge and then awaits that
edge, so it ends on the same edge as ClockCycles(clk, n) (deterministically after the edge,
never racing it) for two callbacks instead of n.
"""

from __future__ import annotations

from cocotb.triggers import RisingEdge, Timer
from cocotb.utils import get_sim_time


def timer_to_edge(n: int, period_ns: float):
    """(Timer or None): the sleep that ends half a clock before the n-th next rising edge
    (rising edges at multiples of ``period_ns``)."""
    now = get_sim_time("ns")
    target = (now // period_ns + n) * period_ns
    wait = target - now - period_ns / 2
    return Timer(wait, unit="ns") if wait > 0 else None


async def clocks(clk, n: int, period_ns: float) -> None:
    """Until the n-th rising edge of ``clk`` from now (as ClockCycles(clk, n))."""
    if n <= 0:
        return
    t = timer_to_edge(n, period_ns)
    if t is not None:
        await t
    await RisingEdge(clk)
