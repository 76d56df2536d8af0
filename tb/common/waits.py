"""Bounded waits for the benches: each fails with a message naming what it waited for,
instead of waiting for ever on a handshake that never completes (tb/common/time_limit.py is
the last line of defence behind these)."""

from __future__ import annotations

from cocotb.triggers import RisingEdge, SimTimeoutError, with_timeout


async def until(clk, cond, clocks: int, what: str) -> int:
    """Rising edges of ``clk`` until ``cond()`` holds; at most ``clocks`` of them.  Returns the
    number waited."""
    n = 0
    while not cond():
        if n >= clocks:
            raise AssertionError(f"waited {clocks} clocks for {what}")
        await RisingEdge(clk)
        n += 1
    return n


async def trigger(trig, time_ns: float, what: str):
    """``trig`` (an edge, an event), failing after ``time_ns`` of simulated time."""
    try:
        return await with_timeout(trig, time_ns, "ns")
    except SimTimeoutError:
        raise AssertionError(f"waited {time_ns:g} ns for {what}") from None
