"""Data-path bookkeeping of the scoreboard (plain Python, testable with the model alone).

Ingress frames wait per ingress port until the switch's mmu_core request for them is seen
(requests come in frame order per port); the golden model's decision then says whether the
frame must leave (appended to its flow: ingress port, egress port, priority) or was dropped
(counted by reason).  An egress frame must be the head of its flow, byte for byte: every
admitted frame leaves once, unchanged and in order per flow.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass, field

from models.mmu import REASON_NAMES

from .frames import frame_prio, flow_header


@dataclass
class Pending:
    port: int
    data: bytes
    prio: int
    dest: int
    cycle: int
    bad: bool = False


@dataclass
class FlowBook:
    prio_to_pg: list[list[int]]
    prio_to_queue: list[list[int]]
    default_prio: list[int]
    len_adjust: int = 0  # mmu request length - AXI-stream frame length
    errors: list[str] = field(default_factory=list)
    max_errors: int = 50

    def __post_init__(self) -> None:
        n = len(self.prio_to_pg)
        self.ingress: list[deque[Pending]] = [deque() for _ in range(n)]
        self.flows: dict[tuple[int, int, int], deque[bytes]] = defaultdict(deque)
        self.frames_in = [0] * n
        self.frames_out = [0] * n
        self.bad_in = 0
        self.bad_dropped = 0
        self.admitted = 0
        self.drops_by_reason = [0] * len(REASON_NAMES)
        self.lossless_drops = 0
        self.delivered = 0

    def error(self, msg: str) -> None:
        if len(self.errors) < self.max_errors:
            self.errors.append(msg)

    # ---------------------------------------------------------------- ingress
    def on_ingress(self, port: int, data: bytes, dest: int, cycle: int, bad: bool = False) -> None:
        self.frames_in[port] += 1
        if bad:
            self.bad_in += 1
        self.ingress[port].append(Pending(port, data, frame_prio(data, self.default_prio[port]),
                                          dest, cycle, bad))

    def on_request(self, cycle: int, port: int, pg: int, eport: int, queue: int, length: int,
                   decision, lossless: bool) -> None:
        """The mmu_core request (as observed) and the model's decision for it."""
        q = self.ingress[port] if 0 <= port < len(self.ingress) else None
        while q and q[0].bad:  # bad frames (tuser) never reach the MMU
            q.popleft()
            self.bad_dropped += 1
        if not q:
            self.error(f"@{cycle}: mmu request on port {port} with no frame waiting")
            return
        fr = q.popleft()
        # a bad frame may still reach the MMU (then the request must say so by its length)
        exp_len = len(fr.data) + self.len_adjust
        if (pg, eport, queue, length) != (self.prio_to_pg[port][fr.prio], fr.dest,
                                          self.prio_to_queue[port][fr.prio], exp_len):
            self.error(f"@{cycle}: port {port} request (pg {pg}, eport {eport}, queue {queue}, "
                       f"len {length}) does not match the frame (prio {fr.prio}, dest "
                       f"{fr.dest}, len {len(fr.data)})")
        if decision.admit:
            self.admitted += 1
            self.flows[(port, eport, fr.prio)].append(fr.data)
        else:
            self.drops_by_reason[decision.reason] += 1
            if lossless:
                self.lossless_drops += 1

    def on_bad_dropped(self, port: int) -> None:
        """A bad frame (tuser) that the switch dropped before the MMU: pop it if it is next."""
        q = self.ingress[port]
        if q and q[0].bad:
            q.popleft()

    # ---------------------------------------------------------------- egress
    def on_egress(self, port: int, data: bytes, cycle: int) -> None:
        self.frames_out[port] += 1
        hdr = flow_header(data)
        if hdr is None:
            self.error(f"@{cycle}: port {port} sent a frame that is no test frame: "
                       f"{data[:32].hex()}")
            return
        sport = hdr[0]
        if not 0 <= sport < len(self.default_prio):
            self.error(f"@{cycle}: port {port}: frame with bad source port {sport}")
            return
        key = (sport, port, frame_prio(data, self.default_prio[sport]))
        q = self.flows.get(key)
        if not q:
            self.error(f"@{cycle}: port {port}: unexpected frame of flow {key} seq {hdr[3]} "
                       "(dropped by the model, duplicated or misrouted)")
            return
        exp = q.popleft()
        if exp != data:
            eh = flow_header(exp)
            self.error(f"@{cycle}: port {port} flow {key}: got seq {hdr[3]} len {len(data)}, "
                       f"expected seq {eh[3] if eh else '?'} len {len(exp)}"
                       + (" (same seq: corrupted)" if eh and eh[3] == hdr[3] else
                          " (out of order or lost)"))
        self.delivered += 1

    # ---------------------------------------------------------------- end
    def outstanding(self) -> int:
        return sum(len(q) for q in self.flows.values())

    def unmatched_ingress(self) -> int:
        return sum(1 for q in self.ingress for f in q if not f.bad)

    def final_check(self) -> None:
        for key, q in self.flows.items():
            if q:
                h = flow_header(q[0])
                self.error(f"flow {key}: {len(q)} admitted frame(s) never left "
                           f"(first seq {h[3] if h else '?'})")
        for p, q in enumerate(self.ingress):
            good = [f for f in q if not f.bad]
            if good:
                self.error(f"port {p}: {len(good)} frame(s) entered but never reached the MMU")
