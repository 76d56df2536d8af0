"""tb/common/switch_regs.py without a simulator: ``check_live`` takes a counter read while a
partner still sends if it lies between the switch's values before and after the reads, and
reports one outside that range or a wrong exact register (its negatives)."""

from __future__ import annotations

import asyncio

from common import switch_regs


class FakeAxil:
    """An MmuAxil whose reads return the values of ``regs`` (key -> value) by address."""

    def __init__(self, regs: dict[str, int]):
        self.by_addr = {switch_regs.reg_addr(k): v for k, v in regs.items()}

    async def read_many(self, addrs: list[int]) -> list[int]:
        return [self.by_addr[a] for a in addrs]


def _check(read: dict[str, int], want: dict[str, int], before: dict, after: dict):
    samples = iter([before, after])
    return asyncio.run(switch_regs.check_live(FakeAxil(read), want, lambda: next(samples)))


def test_live_counter_between_samples_passes():
    assert _check({"used_cells": 0, "rx_frames[1]": 15}, {"used_cells": 0},
                  {"rx_frames[1]": 14}, {"rx_frames[1]": 16}) == []


def test_live_counter_outside_samples_fails():
    bad = _check({"used_cells": 0, "rx_frames[1]": 13}, {"used_cells": 0},
                 {"rx_frames[1]": 14}, {"rx_frames[1]": 16})
    assert bad == [("rx_frames[1]", 13, (14, 16))]
    bad = _check({"used_cells": 0, "rx_frames[1]": 17}, {"used_cells": 0},
                 {"rx_frames[1]": 14}, {"rx_frames[1]": 16})
    assert bad == [("rx_frames[1]", 17, (14, 16))]


def test_exact_register_differs_fails():
    bad = _check({"used_cells": 3, "rx_frames[1]": 14}, {"used_cells": 0},
                 {"rx_frames[1]": 14}, {"rx_frames[1]": 14})
    assert bad == [("used_cells", 3, 0)]
