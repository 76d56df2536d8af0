"""MMU configuration: the one object shared by the golden model, the testbench and the RTL.

Everything is in cells (integers) except where a name says bytes. The RTL receives the same
values as the register image of ``models/regimage.py`` (written over ``switch_core``'s
AXI4-Lite port by the benches and by the board's boot ROM), so the model, the testbench and the
hardware can never disagree on a threshold.

Pools (SONiC ``BUFFER_POOL`` semantics, sizes in cells, each the *whole* pool):

* ingress lossless pool  = reserved of its PGs + headroom (private per PG, or the shared headroom
  pool, or with ``headroom_policy`` "dsh" one ``port_headroom`` per port) + the shared segment
  that Dynamic Threshold hands out;
* ingress lossy pool     = reserved of its PGs + shared segment;
* egress lossless / lossy pools = reserved of their queues + shared segment.

The shared segment sizes are derived (``*_shared`` properties); a configuration whose reserved
and headroom exceed a pool is rejected by :meth:`MmuConfig.validate`.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, field
from typing import Any

PG_COUNT = 8
QUEUE_COUNT = 8
PRIO_COUNT = 8
ALPHA_SHIFT_MIN = -7
ALPHA_SHIFT_MAX = 3

# headroom policies (docs/model.md "Headroom policies"): "static" is per-PG headroom, capped in
# sum by shared_headroom_pool when that is non-zero (SONiC's shared headroom pool); "dsh" is
# Dynamic and Shared Headroom (Shan et al., ICDCS 2023): queue-level XOFF at T - headroom with
# the in-flight cells taken from the shared segment, and a port-level pause into one
# port_headroom per port.  mmu_core has both; the register image carries the policy.
HEADROOM_STATIC = "static"
HEADROOM_DSH = "dsh"
HEADROOM_POLICIES = (HEADROOM_STATIC, HEADROOM_DSH)

# pool indices, as the RTL numbers them
POOL_LOSSLESS = 0
POOL_LOSSY = 1


class ConfigError(ValueError):
    """A configuration that cannot work; the message names the offending field."""


@dataclass
class PgConfig:
    """Ingress priority group (SONiC BUFFER_PG -> BUFFER_PROFILE)."""

    lossless: bool = False  # PFC enabled on this PG
    reserved: int = 0  # guaranteed (private) cells, profile "size"
    dynamic: bool = True  # dynamic threshold (dynamic_th) or static (static_th)
    alpha_shift: int = 0  # alpha = 2**alpha_shift, -7..3
    static_th: int = 0  # cells of shared the PG may hold in static mode
    headroom: int = 0  # headroom limit, profile "xoff" (lossless only)
    xon: int = 0  # absolute resume point in cells of shared occupancy
    xon_offset: int = 0  # resume once shared occupancy is this far below T


@dataclass
class QueueConfig:
    """Egress queue (SONiC BUFFER_QUEUE -> BUFFER_PROFILE)."""

    lossless: bool = False  # which egress pool it draws from
    reserved: int = 0
    dynamic: bool = True
    alpha_shift: int = 0
    static_th: int = 0


def _default_map() -> list[int]:
    return list(range(PRIO_COUNT))


@dataclass
class PortConfig:
    pgs: list[PgConfig] = field(default_factory=lambda: [PgConfig() for _ in range(PG_COUNT)])
    queues: list[QueueConfig] = field(
        default_factory=lambda: [QueueConfig() for _ in range(QUEUE_COUNT)]
    )
    prio_to_pg: list[int] = field(default_factory=_default_map)  # 802.1p priority -> PG
    prio_to_queue: list[int] = field(default_factory=_default_map)  # 802.1p priority -> queue
    default_prio: int = 0  # priority of untagged frames
    speed_gbps: int = 100  # link speed (headroom sizing, PFC quanta)
    cable_m: int = 300  # cable length (headroom sizing)
    # headroom_policy "dsh" only: cells reserved for the port as a whole, filled after a
    # port-level pause (one eta of the port's link); 0 with the static policy
    port_headroom: int = 0


@dataclass
class MmuConfig:
    ports: list[PortConfig] = field(default_factory=lambda: [PortConfig() for _ in range(4)])
    cell_bytes: int = 256
    buffer_cells: int = 8192
    max_frame_bytes: int = 9216 + 22  # jumbo payload + Ethernet/VLAN header + FCS
    ingress_lossless_pool: int = 6144
    ingress_lossy_pool: int = 2048
    shared_headroom_pool: int = 0  # 0: each lossless PG has private headroom
    egress_lossless_pool: int = 6144
    egress_lossy_pool: int = 2048
    headroom_policy: str = HEADROOM_STATIC  # HEADROOM_POLICIES; "static" keeps every old rule

    # ---------------------------------------------------------------- derived values
    @property
    def port_count(self) -> int:
        return len(self.ports)

    def pg(self, port: int, pg: int) -> PgConfig:
        return self.ports[port].pgs[pg]

    def queue(self, port: int, queue: int) -> QueueConfig:
        return self.ports[port].queues[queue]

    def all_pgs(self):
        for p, port in enumerate(self.ports):
            for g, pg in enumerate(port.pgs):
                yield p, g, pg

    def all_queues(self):
        for p, port in enumerate(self.ports):
            for q, qc in enumerate(port.queues):
                yield p, q, qc

    @property
    def lossless_shared(self) -> int:
        """Shared segment of the ingress lossless pool (what DT divides)."""
        res = sum(pg.reserved for _, _, pg in self.all_pgs() if pg.lossless)
        if self.headroom_policy == HEADROOM_DSH:
            # a PG's headroom is taken from the shared segment; only the ports' is reserved
            hdrm = sum(port.port_headroom for port in self.ports)
        elif self.shared_headroom_pool > 0:
            hdrm = self.shared_headroom_pool
        else:
            hdrm = sum(pg.headroom for _, _, pg in self.all_pgs() if pg.lossless)
        return self.ingress_lossless_pool - res - hdrm

    @property
    def lossy_shared(self) -> int:
        res = sum(pg.reserved for _, _, pg in self.all_pgs() if not pg.lossless)
        return self.ingress_lossy_pool - res

    @property
    def egress_lossless_shared(self) -> int:
        res = sum(q.reserved for _, _, q in self.all_queues() if q.lossless)
        return self.egress_lossless_pool - res

    @property
    def egress_lossy_shared(self) -> int:
        res = sum(q.reserved for _, _, q in self.all_queues() if not q.lossless)
        return self.egress_lossy_pool - res

    def ingress_shared(self, pool: int) -> int:
        return self.lossless_shared if pool == POOL_LOSSLESS else self.lossy_shared

    def egress_shared(self, pool: int) -> int:
        return self.egress_lossless_shared if pool == POOL_LOSSLESS else self.egress_lossy_shared

    def bytes_to_cells(self, nbytes: int) -> int:
        return -(-nbytes // self.cell_bytes)

    # ---------------------------------------------------------------- validation
    def validate(self) -> list[str]:
        """Raise ConfigError for a configuration that cannot work; return warnings."""
        warnings: list[str] = []

        def err(name: str, why: str) -> None:
            raise ConfigError(f"{name}: {why}")

        if self.cell_bytes <= 0:
            err("cell_bytes", "must be positive")
        if self.buffer_cells <= 0:
            err("buffer_cells", "must be positive")
        if self.max_frame_bytes < 64:
            err("max_frame_bytes", "must be at least 64")
        if not self.ports:
            err("ports", "at least one port is needed")
        for name in ("ingress_lossless_pool", "ingress_lossy_pool", "shared_headroom_pool",
                     "egress_lossless_pool", "egress_lossy_pool"):
            if getattr(self, name) < 0:
                err(name, "must not be negative")
        if self.headroom_policy not in HEADROOM_POLICIES:
            err("headroom_policy", f"{self.headroom_policy!r} is not one of "
                f"{', '.join(HEADROOM_POLICIES)}")
        dsh = self.headroom_policy == HEADROOM_DSH
        if dsh and self.shared_headroom_pool:
            err("shared_headroom_pool", "must be 0 with headroom_policy dsh (its headroom is "
                "the shared segment plus one port_headroom per port)")
        if self.ingress_lossless_pool + self.ingress_lossy_pool > self.buffer_cells:
            err("ingress_lossless_pool",
                f"ingress pools ({self.ingress_lossless_pool} + {self.ingress_lossy_pool} cells) "
                f"exceed buffer_cells {self.buffer_cells}")
        for name in ("egress_lossless_pool", "egress_lossy_pool"):
            if getattr(self, name) > self.buffer_cells:
                err(name, f"larger than buffer_cells {self.buffer_cells}")

        for p, port in enumerate(self.ports):
            for mname in ("prio_to_pg", "prio_to_queue"):
                m = getattr(port, mname)
                if len(m) != PRIO_COUNT:
                    err(f"ports[{p}].{mname}", f"needs {PRIO_COUNT} entries, has {len(m)}")
                for prio, v in enumerate(m):
                    if not 0 <= v < PG_COUNT:
                        err(f"ports[{p}].{mname}[{prio}]", f"{v} is not in 0..{PG_COUNT - 1}")
            if not 0 <= port.default_prio < PRIO_COUNT:
                err(f"ports[{p}].default_prio", "must be 0..7")
            if len(port.pgs) != PG_COUNT:
                err(f"ports[{p}].pgs", f"needs {PG_COUNT} priority groups")
            if len(port.queues) != QUEUE_COUNT:
                err(f"ports[{p}].queues", f"needs {QUEUE_COUNT} queues")
            if port.speed_gbps <= 0:
                err(f"ports[{p}].speed_gbps", "must be positive")
            if port.cable_m < 0:
                err(f"ports[{p}].cable_m", "must not be negative")
            if port.port_headroom < 0:
                err(f"ports[{p}].port_headroom", "must not be negative")
            if port.port_headroom and not dsh:
                err(f"ports[{p}].port_headroom", "only headroom_policy dsh has a port headroom "
                    f"(the policy is {self.headroom_policy})")
            if dsh and port.port_headroom == 0 and any(pg.lossless for pg in port.pgs):
                warnings.append(f"ports[{p}].port_headroom: lossless PGs and no port headroom: "
                                "frames in flight after a port-level pause are dropped")

        for p, g, pg in self.all_pgs():
            for name in ("reserved", "static_th", "headroom", "xon", "xon_offset"):
                if getattr(pg, name) < 0:
                    err(f"ports[{p}].pgs[{g}].{name}", "must not be negative")
        # pools before thresholds: an overfull pool would otherwise surface as a bogus xoff point
        for pool, name in ((self.lossless_shared, "ingress_lossless_pool"),
                           (self.lossy_shared, "ingress_lossy_pool"),
                           (self.egress_lossless_shared, "egress_lossless_pool"),
                           (self.egress_lossy_shared, "egress_lossy_pool")):
            if pool < 0:
                err(name, f"reserved + headroom exceed the pool by {-pool} cells")
        if self.max_frame_bytes > self.buffer_cells * self.cell_bytes:
            warnings.append(f"max_frame_bytes: {self.max_frame_bytes} bytes is more than the "
                            f"buffer ({self.buffer_cells} cells); such frames are never admitted")
        # a PG or queue whose threshold can be above zero (dynamic, or static_th > 0) with an
        # empty shared segment can never be admitted beyond its reserved cells
        ingress_shared = (self.lossless_shared, self.lossy_shared)
        egress_shared = (self.egress_lossless_shared, self.egress_lossy_shared)

        for p, g, pg in self.all_pgs():
            f = f"ports[{p}].pgs[{g}]"
            for name in ("reserved", "static_th", "headroom", "xon", "xon_offset"):
                if getattr(pg, name) < 0:
                    err(f"{f}.{name}", "must not be negative")
            if not ALPHA_SHIFT_MIN <= pg.alpha_shift <= ALPHA_SHIFT_MAX:
                err(f"{f}.alpha_shift",
                    f"{pg.alpha_shift} outside {ALPHA_SHIFT_MIN}..{ALPHA_SHIFT_MAX}")
            if not pg.lossless and pg.headroom:
                err(f"{f}.headroom", "a lossy PG has no headroom (it is dropped, never paused)")
            if pg.lossless:
                pool_shared = self.lossless_shared
                xoff_point = (_shift(pool_shared, pg.alpha_shift) if pg.dynamic
                              else pg.static_th)
                if dsh:  # queue-level XOFF at T - headroom (the PG's in-flight insurance)
                    if pg.headroom and xoff_point - pg.headroom <= 0:
                        warnings.append(f"{f}.headroom: {pg.headroom} cells is not below the "
                                        f"empty-pool xoff point {xoff_point}: the PG is paused "
                                        "at its first shared cell")
                    xoff_point -= pg.headroom
                if pg.xon >= max(xoff_point, 1):
                    err(f"{f}.xon", f"xon {pg.xon} is not below the xoff point {xoff_point}")
                if self.shared_headroom_pool == 0 and pg.headroom == 0 and not dsh:
                    warnings.append(f"{f}.headroom: lossless PG without headroom drops in flight")
            pool = POOL_LOSSLESS if pg.lossless else POOL_LOSSY
            if ingress_shared[pool] == 0 and (pg.dynamic or pg.static_th):
                warnings.append(f"{f}: its shared segment is empty; nothing beyond its reserved "
                                "cells can be admitted")

        for p, q, qc in self.all_queues():
            f = f"ports[{p}].queues[{q}]"
            for name in ("reserved", "static_th"):
                if getattr(qc, name) < 0:
                    err(f"{f}.{name}", "must not be negative")
            if not ALPHA_SHIFT_MIN <= qc.alpha_shift <= ALPHA_SHIFT_MAX:
                err(f"{f}.alpha_shift",
                    f"{qc.alpha_shift} outside {ALPHA_SHIFT_MIN}..{ALPHA_SHIFT_MAX}")
            pool = POOL_LOSSLESS if qc.lossless else POOL_LOSSY
            if egress_shared[pool] == 0 and (qc.dynamic or qc.static_th):
                warnings.append(f"{f}: its egress shared segment is empty; nothing beyond its "
                                "reserved cells can be admitted")
            if qc.lossless:
                limit = (_shift(self.egress_lossless_shared, qc.alpha_shift) if qc.dynamic
                         else qc.static_th)
                if limit < self.egress_lossless_shared:
                    warnings.append(f"{f}: egress limit {limit} cells can bind below the pool "
                                    f"({self.egress_lossless_shared}); lossless frames could "
                                    "be dropped at egress")
        return warnings

    # ---------------------------------------------------------------- (de)serialisation
    def to_dict(self) -> dict[str, Any]:
        """Every field; the headroom-policy fields (issue 21) only when they differ from their
        defaults, so a static configuration serialises exactly as before them and older
        readers (which pass every key to the dataclasses) still load it."""
        d = asdict(self)
        if d["headroom_policy"] == HEADROOM_STATIC:
            del d["headroom_policy"]
        for pd in d["ports"]:
            if pd["port_headroom"] == 0:
                del pd["port_headroom"]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MmuConfig:
        d = copy.deepcopy(d)
        ports = []
        for pd in d.pop("ports"):
            pgs = [PgConfig(**x) for x in pd.pop("pgs")]
            queues = [QueueConfig(**x) for x in pd.pop("queues")]
            ports.append(PortConfig(pgs=pgs, queues=queues, **pd))
        return cls(ports=ports, **d)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    @classmethod
    def from_json(cls, text: str) -> MmuConfig:
        return cls.from_dict(json.loads(text))


def _shift(value: int, alpha_shift: int) -> int:
    """alpha * value with alpha = 2**alpha_shift, by shifts (truncating right shift)."""
    return value << alpha_shift if alpha_shift >= 0 else value >> -alpha_shift


def example_config(ports: int = 4, cell_bytes: int = 256, buffer_cells: int = 8192,
                   lossless_prios: tuple[int, ...] = (3, 4), alpha_shift: int = -1,
                   headroom: int = 64, reserved: int = 8) -> MmuConfig:
    """A working default: priorities 3 and 4 lossless (RoCE style), the rest lossy.

    Priority p maps to PG p and queue p.  Lossless PGs: ``reserved`` private cells, DT with
    ``alpha_shift``, ``headroom`` cells of private headroom, xon_offset of a few cells.
    Lossless egress queues get a static limit equal to the pool (SONiC: never binds).
    """
    lossless_pool = buffer_cells * 3 // 4
    lossy_pool = buffer_cells - lossless_pool
    port_cfgs = []
    for _ in range(ports):
        pgs = []
        queues = []
        for prio in range(PG_COUNT):
            if prio in lossless_prios:
                pgs.append(PgConfig(lossless=True, reserved=reserved, alpha_shift=alpha_shift,
                                    headroom=headroom, xon=0, xon_offset=4))
                queues.append(QueueConfig(lossless=True, dynamic=False,
                                          static_th=lossless_pool))
            else:
                pgs.append(PgConfig(lossless=False, reserved=2, alpha_shift=alpha_shift))
                queues.append(QueueConfig(lossless=False, reserved=2, alpha_shift=alpha_shift))
        port_cfgs.append(PortConfig(pgs=pgs, queues=queues))
    cfg = MmuConfig(ports=port_cfgs, cell_bytes=cell_bytes, buffer_cells=buffer_cells,
                    ingress_lossless_pool=lossless_pool, ingress_lossy_pool=lossy_pool,
                    egress_lossless_pool=lossless_pool, egress_lossy_pool=lossy_pool)
    cfg.validate()
    return cfg


def selftest_config(ports: int = 4, cell_bytes: int = 256, buffer_cells: int = 1024,
                    max_frame_bytes: int = 1518, headroom: int = 32, reserved: int = 4,
                    lossless_prio: int = 3) -> MmuConfig:
    """The board self-test's configuration (rtl/fpga_core.v boots from its register image:
    syn/board_image.py; tb/fpga_core checks the writes against this).

    ``buffer_cells`` is the switch's whole cell RAM; the MMU gets what is left after the
    switch_core reserve for frames being written (``ports * (ceil(max_frame / cell) + 1)``).
    Priority p -> PG p -> queue p; ``lossless_prio`` is lossless (DT alpha 1/2, ``reserved``
    private cells, ``headroom`` cells, xon 0, xon_offset 2), the rest lossy (DT alpha 1, no
    reservation).  Lossless egress queues get a static limit equal to their pool (never binds).
    """
    frame_cells = -(-max_frame_bytes // cell_bytes) + 1
    mmu_cells = buffer_cells - ports * frame_cells
    lossless_pool = mmu_cells * 3 // 4
    lossy_pool = mmu_cells - lossless_pool
    port_cfgs = []
    for _ in range(ports):
        pgs, queues = [], []
        for prio in range(PG_COUNT):
            if prio == lossless_prio:
                pgs.append(PgConfig(lossless=True, reserved=reserved, alpha_shift=-1,
                                    headroom=headroom, xon=0, xon_offset=2))
                queues.append(QueueConfig(lossless=True, dynamic=False, static_th=lossless_pool))
            else:
                pgs.append(PgConfig(lossless=False, alpha_shift=0))
                queues.append(QueueConfig(lossless=False, alpha_shift=0))
        port_cfgs.append(PortConfig(pgs=pgs, queues=queues, speed_gbps=1, cable_m=0))
    cfg = MmuConfig(ports=port_cfgs, cell_bytes=cell_bytes, buffer_cells=mmu_cells,
                    max_frame_bytes=max_frame_bytes, ingress_lossless_pool=lossless_pool,
                    ingress_lossy_pool=lossy_pool, egress_lossless_pool=lossless_pool,
                    egress_lossy_pool=lossy_pool)
    cfg.validate()
    return cfg
