"""Small configurations for rule tests: everything explicit, in cells."""

from __future__ import annotations

from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig


def small_cfg(ports: int = 2, cell_bytes: int = 256, lossless_pool: int = 200,
              lossy_pool: int = 100, buffer_cells: int = 400, egress_lossless_pool: int = 200,
              egress_lossy_pool: int = 100, shared_headroom_pool: int = 0,
              pg: dict | None = None, lossy_pg: dict | None = None,
              queue: dict | None = None) -> MmuConfig:
    """PG 3 of every port lossless with ``pg`` settings, the other PGs lossy with ``lossy_pg``.
    Queue 3 lossless (static limit = pool, never binds) unless ``queue`` says otherwise; other
    queues lossy, dynamic alpha 8 (``alpha_shift`` 3), no reserve."""
    pg_kw = dict(lossless=True, reserved=4, dynamic=False, static_th=10, headroom=6, xon=0,
                 xon_offset=0)
    pg_kw.update(pg or {})
    lossy_kw = dict(lossless=False, reserved=0, dynamic=True, alpha_shift=3)
    lossy_kw.update(lossy_pg or {})
    q_kw = dict(lossless=True, dynamic=False, static_th=egress_lossless_pool)
    q_kw.update(queue or {})
    port_cfgs = []
    for _ in range(ports):
        pgs = [PgConfig(**(pg_kw if g == 3 else lossy_kw)) for g in range(8)]
        qs = [QueueConfig(**q_kw) if q == 3 else QueueConfig(lossless=False, alpha_shift=3)
              for q in range(8)]
        port_cfgs.append(PortConfig(pgs=pgs, queues=qs))
    return MmuConfig(ports=port_cfgs, cell_bytes=cell_bytes, buffer_cells=buffer_cells,
                     ingress_lossless_pool=lossless_pool, ingress_lossy_pool=lossy_pool,
                     shared_headroom_pool=shared_headroom_pool,
                     egress_lossless_pool=egress_lossless_pool,
                     egress_lossy_pool=egress_lossy_pool)
