"""cocotb tests of pfc_watchdog (SONiC pfcwd semantics, issue 9).

The inputs (pause_in, queue_busy, rx_pfc) are driven directly.  A scoreboard steps the golden
model (models/watchdog.py) once per clock from the inputs the DUT sampled and compares the
registered state, storm and restore counters, pause_out and drop on every clock.  Detection and
restoration latencies are measured in clocks and printed next to the configured times.
"""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from models.watchdog import (ALERT, DISABLED, DROP, FORWARD, IDLE, STORM, Watchdog,
                             WatchdogConfig, compare)


def field(value: int, k: int, width: int) -> int:
    return value >> (k * width) & ((1 << width) - 1)


class TB:
    def __init__(self, dut):
        self.dut = dut
        self.model = Watchdog(WatchdogConfig())
        self.clock = 0
        self.errors: list[str] = []
        cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())

    def configure(self, detect=20, restore=40, action=FORWARD, limit=0, enable=1):
        d = self.dut
        d.cfg_enable.value = enable
        d.cfg_detect_time.value = detect
        d.cfg_restore_time.value = restore
        d.cfg_action.value = action
        d.cfg_storm_limit.value = limit

    async def reset(self):
        d = self.dut
        for s in (d.pause_in, d.queue_busy, d.rx_pfc, d.cfg_reenable):
            s.value = 0
        self.configure()
        d.rst.value = 1
        await ClockCycles(d.clk, 3)
        d.rst.value = 0
        await RisingEdge(d.clk)
        cocotb.start_soon(self._scoreboard())

    async def _scoreboard(self):
        d, m = self.dut, self.model
        while True:
            await FallingEdge(d.clk)
            self.clock += 1
            state = int(d.state.value)
            storms = int(d.stat_storms.value)
            restores = int(d.stat_restores.value)
            try:
                compare(m, [field(state, k, 2) for k in range(8)],
                        [field(storms, k, 32) for k in range(8)],
                        [field(restores, k, 32) for k in range(8)], self.clock)
                pause_in = int(d.pause_in.value)
                m.cfg = WatchdogConfig(enable=bool(int(d.cfg_enable.value)),
                                       detect_time=int(d.cfg_detect_time.value),
                                       restore_time=int(d.cfg_restore_time.value),
                                       action=int(d.cfg_action.value),
                                       storm_limit=int(d.cfg_storm_limit.value))
                assert int(d.pause_out.value) == m.pause_out(pause_in), \
                    f"clock {self.clock}: pause_out"
                assert int(d.drop.value) == m.drop(), f"clock {self.clock}: drop"
            except AssertionError as e:
                self.errors.append(str(e))
                if len(self.errors) < 5:
                    d._log.error(str(e))
            m.step(pause_in, int(d.queue_busy.value), int(d.rx_pfc.value),
                   int(d.cfg_reenable.value))

    async def drive(self, **values):
        """Set inputs right after a rising edge (sampled at the next one)."""
        await RisingEdge(self.dut.clk)
        for name, v in values.items():
            getattr(self.dut, name).value = v

    async def clocks_until(self, sig: str, k: int, want: int, limit: int = 100_000) -> int:
        """Falling edges awaited until bit k of `sig` is `want`.  After a `drive` the first
        falling edge is the first clock of the new inputs, so a latency is the result - 1."""
        for n in range(1, limit + 1):
            await FallingEdge(self.dut.clk)
            if int(getattr(self.dut, sig).value) >> k & 1 == want:
                return n
        raise AssertionError(f"{sig}[{k}] never {want}")

    async def detection_latency(self, k: int) -> int:
        return await self.clocks_until("storm", k, 1) - 1

    async def pulse_pfc(self, k: int):
        await self.drive(rx_pfc=1 << k)
        await self.drive(rx_pfc=0)

    def finish(self):
        assert not self.errors, f"{len(self.errors)} mismatches, first: {self.errors[0]}"


async def setup(dut, **cfg) -> TB:
    tb = TB(dut)
    await tb.reset()
    tb.configure(**cfg)
    await RisingEdge(dut.clk)
    return tb


@cocotb.test()
async def detection_and_forward(dut):
    """A paused, busy queue is a storm after exactly the detection time; forward releases it
    (pause_out cleared) while other priorities keep their pause; restoration after the time."""
    tb = await setup(dut, detect=250, restore=400)
    await tb.drive(pause_in=0b1001_0000, queue_busy=0xFF)
    n = await tb.detection_latency(4)
    dut._log.info("detection latency %d clocks, configured %d", n, 250)
    assert n == 250
    # priority 7 was paused from the same clock: also a storm; nothing else
    assert int(dut.storm.value) == 0b1001_0000
    assert int(dut.pause_out.value) == 0
    assert field(int(dut.stat_storms.value), 4, 32) == 1
    # restoration: no PFC frame for 400 clocks (pause_in still up: the pfc_rx timer)
    n = await tb.clocks_until("storm", 4, 0)
    dut._log.info("storm recovery lasted %d clocks without PFC, configured %d", n, 400)
    assert n == 400
    assert int(dut.pause_out.value) == 0b1001_0000      # normal PFC is back
    assert field(int(dut.stat_restores.value), 4, 32) == 1
    # still paused and busy: the next storm is detected after the detection time again
    assert await tb.clocks_until("storm", 4, 1) == 250
    tb.finish()


@cocotb.test()
async def pfc_during_restoration_extends_it(dut):
    tb = await setup(dut, detect=10, restore=100)
    await tb.drive(pause_in=1 << 2, queue_busy=1 << 2)
    assert await tb.detection_latency(2) == 10
    await ClockCycles(dut.clk, 60)
    await tb.pulse_pfc(2)            # rx_pfc sampled at one edge: restoration restarts there
    # the clock after the pulse is the first of the clocks without a frame
    n = await tb.clocks_until("storm", 2, 0) - 1
    dut._log.info("restoration ended after %d clocks without PFC after the refresh "
                  "(configured 100)", n)
    assert n == 100
    assert field(int(dut.stat_restores.value), 2, 32) == 1
    tb.finish()


@cocotb.test()
async def storm_limit_disables_then_reenable(dut):
    tb = await setup(dut, detect=5, restore=8, limit=2)
    await tb.drive(pause_in=1, queue_busy=1)
    assert await tb.detection_latency(0) == 5
    await tb.clocks_until("storm", 0, 0)
    await tb.clocks_until("disabled", 0, 1)
    assert int(dut.pause_out.value) & 1 == 0
    for _ in range(5):               # refreshed PFC keeps coming: PFC stays ignored
        await tb.pulse_pfc(0)
        await ClockCycles(dut.clk, 20)
    assert int(dut.disabled.value) == 1 and field(int(dut.stat_storms.value), 0, 32) == 2
    await tb.drive(cfg_reenable=1)
    await tb.drive(cfg_reenable=0)
    await FallingEdge(dut.clk)
    assert int(dut.disabled.value) == 0 and int(dut.pause_out.value) & 1 == 1
    # the count since re-enable restarted: the next storm is a storm again
    await tb.clocks_until("storm", 0, 1)
    tb.finish()


@cocotb.test()
async def alert_only_flags(dut):
    tb = await setup(dut, detect=12, restore=30, action=ALERT)
    await tb.drive(pause_in=1 << 5, queue_busy=1 << 5)
    assert await tb.detection_latency(5) == 12
    assert int(dut.pause_out.value) == 1 << 5 and int(dut.drop.value) == 0
    tb.finish()


@cocotb.test()
async def drop_action_flags_drop(dut):
    tb = await setup(dut, detect=12, restore=30, action=DROP)
    await tb.drive(pause_in=1 << 6, queue_busy=1 << 6)
    assert await tb.detection_latency(6) == 12
    assert int(dut.pause_out.value) == 0 and int(dut.drop.value) == 1 << 6
    tb.finish()


@cocotb.test()
async def paused_empty_and_early_xon_are_no_storm(dut):
    tb = await setup(dut, detect=30, restore=30)
    await tb.drive(pause_in=0xFF, queue_busy=0)          # paused, nothing queued
    await ClockCycles(dut.clk, 200)
    for _ in range(5):                                    # XON before the detection time
        await tb.drive(pause_in=0x01, queue_busy=0x01)
        await ClockCycles(dut.clk, 28)
        await tb.drive(pause_in=0x00)
        await ClockCycles(dut.clk, 3)
    assert int(dut.stat_storms.value) == 0 and int(dut.state.value) == 0
    tb.finish()


@cocotb.test()
async def random_inputs_cycle_by_cycle(dut):
    """Random pause / busy / PFC pulses / re-enable / action changes; the scoreboard compares
    every clock."""
    import random
    seed = random.randrange(1 << 30)
    dut._log.info("seed %d", seed)
    rng = random.Random(seed)
    tb = await setup(dut, detect=9, restore=15, limit=3)
    pause = busy = 0
    for _ in range(3000):
        if rng.random() < 0.05:
            pause ^= 1 << rng.randrange(8)
        if rng.random() < 0.05:
            busy ^= 1 << rng.randrange(8)
        pfc = rng.getrandbits(8) if rng.random() < 0.03 else 0
        re = rng.getrandbits(8) if rng.random() < 0.005 else 0
        await tb.drive(pause_in=pause, queue_busy=busy, rx_pfc=pfc, cfg_reenable=re)
        if rng.random() < 0.002:
            tb.configure(detect=9, restore=15, limit=3, action=rng.randrange(4),
                         enable=int(rng.random() < 0.9))
    await ClockCycles(dut.clk, 2)
    states = [field(int(dut.state.value), k, 2) for k in range(8)]
    dut._log.info("storms %s, final states %s",
                  [p.storms for p in tb.model.prio], states)
    assert sum(p.storms for p in tb.model.prio) > 0
    tb.finish()


class LateModel(Watchdog):
    """Deliberately wrong golden model: detects one clock late."""

    def step(self, pause_in, queue_busy, rx_pfc=0, reenable=0):
        self.cfg.detect_time += 1
        super().step(pause_in, queue_busy, rx_pfc, reenable)


@cocotb.test(expect_fail=True)
async def checker_catches_wrong_detection_time(dut):
    """Negative: with an off-by-one model the per-clock comparison must fail."""
    tb = TB(dut)
    tb.model = LateModel(WatchdogConfig())
    await tb.reset()
    tb.configure(detect=20)
    await tb.drive(pause_in=1, queue_busy=1)
    await ClockCycles(dut.clk, 40)
    tb.finish()
