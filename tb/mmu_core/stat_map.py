"""Address map of mmu_core's registered stat port (stat_addr -> stat_data, one clock later).

Plain Python (no cocotb), shared by the testbench and anyone reading the core from software;
docs/mmu_core.md has the same table.

    stat_addr[15:12]  region
    0                 globals: GLOBAL[name]
    1                 per PG:    0x1000 + (port*8 + pg) * 8 + PG_FIELD[name]
    2                 per queue: 0x2000 + (port*8 + queue) * 4 + Q_FIELD[name]
"""

from __future__ import annotations

GLOBAL = {
    "ingress_lossless_used": 0x00,
    "ingress_lossless_wm": 0x01,
    "ingress_lossy_used": 0x02,
    "ingress_lossy_wm": 0x03,
    "hdrm_used": 0x04,
    "hdrm_wm": 0x05,
    "egress_lossless_used": 0x06,
    "egress_lossless_wm": 0x07,
    "egress_lossy_used": 0x08,
    "egress_lossy_wm": 0x09,
    "total_used": 0x0A,
    "total_wm": 0x0B,
    "admitted": 0x0C,
    "release_underflow": 0x0D,
    "release_bad_index": 0x0E,
    "flags": 0x0F,  # bit0 err_release_underflow, bit1 err_bad_config (both sticky),
                    # bit2 alpha_shift outside -7..3, bit3 max_frame_bytes wider than LEN_W,
                    # bit4 lossy PG with headroom (bits 2..4: current configuration)
    # 0x10 + reason: drops by reason (models.mmu.REASON_*), see drop_addr()
    "arrivals": 0x17,
    "releases": 0x18,
    "port_count": 0x1E,
    "cell_bytes": 0x1F,
}
DROP_BASE = 0x10
FLAG_UNDERFLOW = 1 << 0
FLAG_BAD_CONFIG = 1 << 1
FLAG_BAD_ALPHA = 1 << 2
FLAG_BAD_MAX_FRAME = 1 << 3
FLAG_LOSSY_HEADROOM = 1 << 4

PG_BASE = 0x1000
PG_FIELD = {"res": 0, "shared": 1, "hdrm": 2, "res_wm": 3, "shared_wm": 4, "hdrm_wm": 5,
            "xoff": 6, "threshold": 7}  # threshold: T, signed 32-bit
Q_BASE = 0x2000
Q_FIELD = {"res": 0, "shared": 1, "occupancy": 2, "wm": 3}


def global_addr(name: str) -> int:
    return GLOBAL[name]


def drop_addr(reason: int) -> int:
    return DROP_BASE + reason


def pg_addr(port: int, pg: int, field: str) -> int:
    return PG_BASE + ((port * 8 + pg) << 3) + PG_FIELD[field]


def queue_addr(port: int, queue: int, field: str) -> int:
    return Q_BASE + ((port * 8 + queue) << 2) + Q_FIELD[field]


def expected_globals(mmu) -> dict[str, int]:
    """What the global registers should read for a models.mmu.Mmu state."""
    return {
        "ingress_lossless_used": mmu.pool_used[0], "ingress_lossless_wm": mmu.pool_wm[0],
        "ingress_lossy_used": mmu.pool_used[1], "ingress_lossy_wm": mmu.pool_wm[1],
        "hdrm_used": mmu.hdrm_pool_used, "hdrm_wm": mmu.hdrm_pool_wm,
        "egress_lossless_used": mmu.egress_used[0], "egress_lossless_wm": mmu.egress_wm[0],
        "egress_lossy_used": mmu.egress_used[1], "egress_lossy_wm": mmu.egress_wm[1],
        "total_used": mmu.total_used, "total_wm": mmu.total_wm,
        "admitted": mmu.admitted, "release_underflow": mmu.release_underflow,
        "release_bad_index": mmu.release_bad_index,
    }


def expected_pg(mmu, port: int, pg: int) -> dict[str, int]:
    st = mmu.pg_state(port, pg)
    t = mmu.pg_threshold(port * 8 + pg)
    return {"res": st["res"], "shared": st["shared"], "hdrm": st["hdrm"],
            "res_wm": st["res_wm"], "shared_wm": st["shared_wm"], "hdrm_wm": st["hdrm_wm"],
            "xoff": st["xoff"], "threshold": t & 0xFFFFFFFF}


def expected_queue(mmu, port: int, queue: int) -> dict[str, int]:
    st = mmu.queue_state(port, queue)
    return {"res": st["res"], "shared": st["shared"], "occupancy": st["occupancy"],
            "wm": st["wm"]}
