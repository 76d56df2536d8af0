"""Switch configurations of the system tests (functions only).

Four ports, priorities 3 and 4 lossless (RoCE style), the rest lossy; identity priority -> PG
and priority -> queue maps; egress limits equal to their pools (admission is decided at
ingress, as in models/network.py).  Lossless headroom comes from models.headroom for the link
partners' delays (LinkTiming.headroom) unless a test overrides it.  The MMU's buffer_cells is
kept below the switch's BUFFER_CELLS by one largest frame per port: cells of frames still being
written are taken before admission (docs/switch_core.md).
"""

from __future__ import annotations

from models.config import (HEADROOM_DSH, HEADROOM_STATIC, MmuConfig, PgConfig, PortConfig,
                           QueueConfig)

from .env_config import EnvConfig
from .link_timing import LinkTiming

PORTS = 4
CELL_BYTES = 128
BUFFER_CELLS = 2048  # switch_tb_top parameter
LOSSLESS = (3, 4)
LOSSLESS_MTU = 1024  # largest lossless frame of the PFC tests (headroom sizing)
TIMING = LinkTiming(bytes_per_clock=8, clk_ns=8.0, prop_clocks=32, response_clocks=60)


def eta_cells(timing: LinkTiming = TIMING, mtu: int = LOSSLESS_MTU) -> int:
    return timing.headroom(mtu, CELL_BYTES).xoff_cells


def make_config(name: str, seed: int, headroom: int | None = None, lossless_shared: int = 256,
                lossy_shared: int = 400, ll_alpha: int = -1, lossy_alpha=None,
                ll_reserved: int = 2, lossy_reserved: int = 1, xon_offset: int = 8,
                static_pgs=(), timing: LinkTiming = TIMING, max_frame_bytes: int = 9216 + 22,
                port_headroom: int | None = None, **kw) -> EnvConfig:
    """``lossy_alpha``: an int, or None to cycle -7..3 over the lossy PGs (alpha coverage).
    ``static_pgs``: (port, pg) pairs using a static threshold (static_th = shared / 4).
    ``port_headroom``: headroom policy dsh with this port headroom on every port (eta for the
    partners' delays: ``eta_cells()``); ``headroom`` is then each lossless PG's queue-level
    headroom eta_q, taken from the shared segment, not reserved (docs/model.md "Headroom
    policies")."""
    hdrm = eta_cells(timing) if headroom is None else headroom
    dsh = port_headroom is not None
    reserved_hdrm = PORTS * port_headroom if dsh else PORTS * len(LOSSLESS) * hdrm
    ll_pool = lossless_shared + PORTS * len(LOSSLESS) * ll_reserved + reserved_hdrm
    n_lossy = PORTS * (8 - len(LOSSLESS))
    ly_pool = lossy_shared + n_lossy * lossy_reserved
    ports = []
    alphas = list(range(-7, 4))
    n = 0
    for p in range(PORTS):
        pgs, qs = [], []
        for g in range(8):
            if g in LOSSLESS:
                pgs.append(PgConfig(lossless=True, reserved=ll_reserved, alpha_shift=ll_alpha,
                                    headroom=hdrm, xon=0, xon_offset=xon_offset))
                qs.append(QueueConfig(lossless=True, dynamic=False, static_th=ll_pool))
            else:
                a = lossy_alpha if lossy_alpha is not None else alphas[n % len(alphas)]
                n += 1
                st = (p, g) in static_pgs
                pgs.append(PgConfig(lossless=False, reserved=lossy_reserved, alpha_shift=a,
                                    dynamic=not st, static_th=lossy_shared // 4 if st else 0))
                qs.append(QueueConfig(lossless=False, dynamic=False, static_th=ly_pool))
        ports.append(PortConfig(pgs=pgs, queues=qs, default_prio=0,
                                port_headroom=port_headroom if dsh else 0))
    mmu = MmuConfig(ports=ports, cell_bytes=CELL_BYTES, buffer_cells=ll_pool + ly_pool,
                    max_frame_bytes=max_frame_bytes, ingress_lossless_pool=ll_pool,
                    ingress_lossy_pool=ly_pool, egress_lossless_pool=ll_pool,
                    egress_lossy_pool=ly_pool,
                    headroom_policy=HEADROOM_DSH if dsh else HEADROOM_STATIC)
    reserve = PORTS * -(-max_frame_bytes // CELL_BYTES)
    if mmu.buffer_cells + reserve > BUFFER_CELLS:
        raise ValueError(f"{mmu.buffer_cells} MMU cells + {reserve} write reserve exceed "
                         f"BUFFER_CELLS {BUFFER_CELLS}")
    mmu.validate()
    return EnvConfig(mmu=mmu, timing=timing, seed=seed, name=name, **kw)
