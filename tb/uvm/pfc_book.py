"""PFC bookkeeping of the scoreboard (plain Python): the switch's PFC frames against the golden
model's XOFF / XON events, and the switch's egress against the pauses the partners sent it.

Switch -> partner.  The model's events are (clock, port, pg, xoff).  A PFC frame the switch
sends at clock t (last beat) for priority k (pg = prio_to_pg[k]) with time > 0 says XOFF, with
time 0 says XON; the model must have been in that state at some clock of [t - window, t]
(pfc_tx merges changes and may wait behind a data frame: ``window`` covers the longest frame
plus the pipeline; a port whose partner drains it below line rate has its own, longer window,
``port_windows``).  Every model transition that lasted at least ``window`` clocks must appear
on the wire within ``window``; a shorter blip may be merged away (pfc_tx rule).

Partner -> switch.  A PFC frame that entered the switch at clock t pauses priority k of that
port's egress from t + ``rx_slack`` until the timer runs out or an XON arrives: no frame of
that priority may start on that egress inside the window (frames already started finish).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field


@dataclass
class PfcBook:
    prio_to_pg: list[list[int]]
    window: int  # clocks from a model transition to its PFC frame's last beat
    rx_slack: int = 16  # clocks from a PFC frame's last beat into the switch to its effect
    errors: list[str] = field(default_factory=list)
    max_errors: int = 50
    # per port, a longer window where the egress runs below line rate (EnvConfig.note_drain;
    # shared by reference, so patterns set during the run count)
    port_windows: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.model: dict[tuple[int, int], list[tuple[int, bool]]] = defaultdict(list)
        self.wire: dict[tuple[int, int], list[tuple[int, bool]]] = defaultdict(list)
        self.frames_sent = [0] * len(self.prio_to_pg)  # by the switch, per port
        self.xoff_sent = 0
        self.xon_sent = 0
        # the switch's PFC frames by the set of priorities they pause (time > 0)
        self.xoff_sets: dict[frozenset, int] = defaultdict(int)
        self.frames_received = [0] * len(self.prio_to_pg)  # by the switch
        self.pause_in: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
        self.egress_starts = 0
        self.egress_in_pause = 0

    def window_of(self, port: int) -> int:
        return max(self.window, self.port_windows.get(port, 0))

    def error(self, msg: str) -> None:
        if len(self.errors) < self.max_errors:
            self.errors.append(msg)

    # ---------------------------------------------------------------- model side
    def model_event(self, cycle: int, port: int, pg: int, xoff: bool) -> None:
        self.model[(port, pg)].append((cycle, xoff))

    def model_state(self, port: int, pg: int, cycle: int) -> bool:
        st = False
        for c, x in self.model.get((port, pg), ()):
            if c > cycle:
                break
            st = x
        return st

    def _state_in(self, port: int, pg: int, lo: int, hi: int, want: bool) -> bool:
        if self.model_state(port, pg, lo) == want:
            return True
        return any(lo <= c <= hi and x == want for c, x in self.model.get((port, pg), ()))

    # ---------------------------------------------------------------- switch -> partner
    def dut_pfc(self, cycle: int, port: int, times: dict[int, int]) -> None:
        self.frames_sent[port] += 1
        self.xoff_sets[frozenset(k for k, q in times.items() if q > 0)] += 1
        for k, q in times.items():
            pg = self.prio_to_pg[port][k]
            want = q > 0
            if want:
                self.xoff_sent += 1
            else:
                self.xon_sent += 1
            self.wire[(port, pg)].append((cycle, want))
            win = self.window_of(port)
            if not self._state_in(port, pg, cycle - win, cycle, want):
                self.error(f"@{cycle}: port {port} sent {'XOFF' if want else 'XON'} for prio "
                           f"{k} (pg {pg}) but the model was not in that state in the last "
                           f"{win} clocks")

    # ---------------------------------------------------------------- partner -> switch
    def pfc_into_switch(self, cycle: int, port: int, times: dict[int, int],
                        quanta_to_clocks) -> None:
        self.frames_received[port] += 1
        for k, q in times.items():
            ev = self.pause_in[(port, k)]
            live = bool(ev) and ev[-1][1] > cycle
            if q == 0:
                if live:  # XON: the switch may resume as soon as it has the frame
                    ev[-1] = (ev[-1][0], cycle)
            elif live:  # refresh: the pause continues, its timer restarts
                ev[-1] = (ev[-1][0], cycle + quanta_to_clocks(q))
            else:
                ev.append((cycle + self.rx_slack, cycle + quanta_to_clocks(q)))

    def egress_start(self, cycle: int, port: int, prio: int) -> None:
        self.egress_starts += 1
        for lo, hi in self.pause_in.get((port, prio), ()):
            if lo < cycle < hi:
                self.egress_in_pause += 1
                self.error(f"@{cycle}: port {port} started a prio {prio} frame while the "
                           f"partner's pause was in force ({lo}..{hi})")
                return

    # ---------------------------------------------------------------- end
    def final_check(self, end_cycle: int) -> None:
        for (port, pg), evs in self.model.items():
            wire = self.wire.get((port, pg), [])
            win = self.window_of(port)
            for n, (c, x) in enumerate(evs):
                nxt = evs[n + 1][0] if n + 1 < len(evs) else None
                if nxt is not None and nxt - c < win:
                    continue  # a blip pfc_tx may merge
                hi = min(c + win, end_cycle)
                if end_cycle - c < win:
                    continue  # too close to the end to demand it
                if not any(c <= wc <= hi and wx == x for wc, wx in wire):
                    self.error(f"port {port} pg {pg}: model {'XOFF' if x else 'XON'} at {c} "
                               f"not sent within {win} clocks")
