"""PFC watchdog (SONiC pfcwd semantics, issue 9): the executable specification of
rtl/pfc_watchdog.v, one clock per `step`, integer clocks throughout.  Plain Python.

A storm on priority k is `detect_time` consecutive clocks in which k is paused by received PFC
while its egress queue holds frames.  Recovery (STORM) ignores received PFC for forward / drop
(alert only flags) and ends after `restore_time` consecutive clocks without a PFC frame for k.
The `storm_limit`-th storm since reset or re-enable goes to DISABLED (PFC on k ignored) until
`reenable`.  `egress_fate` is what switch_core's egress does with a dequeued frame (action
drop discards it whole, forward sends it).  See docs/watchdog.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

IDLE, STORM, DISABLED = 0, 1, 2
FORWARD, DROP, ALERT = 0, 1, 2
STATE_NAMES = {IDLE: "idle", STORM: "storm", DISABLED: "disabled"}


@dataclass
class WatchdogConfig:
    enable: bool = True
    detect_time: int = 100       # clocks (0 acts as 1)
    restore_time: int = 200      # clocks (0 acts as 1)
    action: int = FORWARD        # 0 forward, 1 drop, 2 alert (3 acts as forward)
    storm_limit: int = 0         # storms before PFC is disabled; 0: never


@dataclass
class PrioState:
    state: int = IDLE
    timer: int = 0
    recent: int = 0              # storms since reset / re-enable (saturates at 255)
    storms: int = 0              # total, 32-bit
    restores: int = 0            # recoveries ended, 32-bit


@dataclass
class Watchdog:
    """The 8 priorities of one port.  `outputs` gives what the RTL shows during a clock (from
    the registered state); `step` is the clock edge."""
    cfg: WatchdogConfig = field(default_factory=WatchdogConfig)
    prio: list[PrioState] = field(default_factory=lambda: [PrioState() for _ in range(8)])

    def _ignore(self, k: int) -> bool:
        st = self.prio[k].state
        return st == DISABLED or (st == STORM and self.cfg.action != ALERT)

    def pause_out(self, pause_in: int) -> int:
        return sum(1 << k for k in range(8) if pause_in >> k & 1 and not self._ignore(k))

    def drop(self) -> int:
        return sum(1 << k for k in range(8)
                   if self.prio[k].state == STORM and self.cfg.action == DROP)

    def forward(self) -> int:
        """Priorities in storm recovery whose frames are sent with PFC ignored (forward)."""
        return sum(1 << k for k in range(8) if self.prio[k].state == STORM
                   and self.cfg.action not in (DROP, ALERT))

    def queue_drop(self, prio_to_queue: list[int]) -> int:
        """Egress queues (bit q) whose frames switch_core discards at dequeue: a queue is
        discarded while any priority mapped to it is in STORM with action drop."""
        return _queues(self.drop(), prio_to_queue)

    def queue_forward(self, prio_to_queue: list[int]) -> int:
        """Queues whose dequeued frames count as forwarded in recovery (stat_wd_fwd_frames):
        a priority mapped to them in STORM with action forward, and none with drop."""
        return _queues(self.forward(), prio_to_queue) & ~self.queue_drop(prio_to_queue)

    def states(self) -> list[int]:
        return [p.state for p in self.prio]

    def step(self, pause_in: int, queue_busy: int, rx_pfc: int = 0, reenable: int = 0) -> None:
        c = self.cfg
        for k, p in enumerate(self.prio):
            old = p.state
            tick = p.timer + 1
            if not c.enable:
                p.state, p.timer = IDLE, 0
            elif old == IDLE:
                if pause_in >> k & 1 and queue_busy >> k & 1:
                    if tick >= c.detect_time:
                        p.timer = 0
                        p.storms = (p.storms + 1) & 0xFFFFFFFF
                        p.recent = min(p.recent + 1, 255)
                        p.state = DISABLED if c.storm_limit and p.recent >= c.storm_limit \
                            else STORM
                    else:
                        p.timer = tick
                else:
                    p.timer = 0
            elif old == STORM:
                if rx_pfc >> k & 1:
                    p.timer = 0
                elif tick >= c.restore_time:
                    p.timer = 0
                    p.restores = (p.restores + 1) & 0xFFFFFFFF
                    p.state = IDLE
                else:
                    p.timer = tick
            else:  # DISABLED
                p.timer = 0
            if reenable >> k & 1:
                p.recent = 0
                if old == DISABLED:
                    p.state, p.timer = IDLE, 0


def _queues(prios: int, prio_to_queue: list[int]) -> int:
    return sum(1 << prio_to_queue[k] for k in range(8) if prios >> k & 1)


def egress_fate(wd: Watchdog, prio_to_queue: list[int], queue: int) -> str:
    """What switch_core's egress does with the frame it dequeues now from `queue` (decided at
    the dequeue, for the whole frame): "discard" (cells back to the free list, the same
    admission release as a sent frame, counted in stat_wd_drop_frames), "forward" (sent while
    PFC is ignored, counted in stat_wd_fwd_frames) or "send"."""
    if wd.queue_drop(prio_to_queue) >> queue & 1:
        return "discard"
    if wd.queue_forward(prio_to_queue) >> queue & 1:
        return "forward"
    return "send"


def compare(expected: Watchdog, state: list[int], storms: list[int], restores: list[int],
            clock: int) -> None:
    """Raise AssertionError naming the clock and priority where the RTL's registered state and
    counters differ from the model's."""
    for k, p in enumerate(expected.prio):
        got = (state[k], storms[k], restores[k])
        want = (p.state, p.storms, p.restores)
        if got != want:
            raise AssertionError(f"clock {clock} prio {k}: rtl (state, storms, restores) {got} "
                                 f"!= model {want}")
