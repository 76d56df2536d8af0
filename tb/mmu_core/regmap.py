"""Address map of mmu_core's configuration / status port (rtl/mmu_core.v; docs/mmu_core.md).

Plain Python, shared by the testbench and by anyone who drives the core from software.

    address[15:13]  region
    0               globals: status 0x00..0x1F (read), configuration 0x20..0x26 (read / write)
                    flags 0x0F: bit 0 release underflow (sticky), bit 1 a configuration flag;
                    config_flags 0x19: bit k = models.mmu_pipe.CFG_FLAG_NAMES[k]
    1               per PG:    0x2000 | (port*8 + pg) << 4 | field
    2               per queue: 0x4000 | (port*8 + queue) << 4 | field
Per-PG and per-queue fields 0..7 are status (read only), 8..15 configuration.
"""

from __future__ import annotations

from models.config import MmuConfig
from models.mmu_pipe import CFG_FLAG, GLOBAL_FIELDS, PG_FIELDS, QUEUE_FIELDS

STATUS = {
    "ingress_lossless_used": 0x00, "ingress_lossless_wm": 0x01,
    "ingress_lossy_used": 0x02, "ingress_lossy_wm": 0x03,
    "hdrm_used": 0x04, "hdrm_wm": 0x05,
    "egress_lossless_used": 0x06, "egress_lossless_wm": 0x07,
    "egress_lossy_used": 0x08, "egress_lossy_wm": 0x09,
    "total_used": 0x0A, "total_wm": 0x0B,
    "admitted": 0x0C, "release_underflow": 0x0D, "release_bad_index": 0x0E, "flags": 0x0F,
    "arrivals": 0x17, "releases": 0x18, "config_flags": 0x19, "port_count": 0x1E,
    "cell_bytes": 0x1F,
}
# bits of STATUS["flags"]
FLAG_RELEASE_UNDERFLOW = 1 << 0
FLAG_BAD_CONFIG = 1 << 1
# bits of STATUS["config_flags"] (rtl/mmu_cfg_check.v), by name
CONFIG_FLAG = CFG_FLAG
DROP_BASE = 0x10
GLOBAL_CFG = {name: 0x20 + k for k, name in enumerate(GLOBAL_FIELDS)}
PG_BASE = 0x2000
Q_BASE = 0x4000
PG_STATUS = {"res": 0, "shared": 1, "hdrm": 2, "res_wm": 3, "shared_wm": 4, "hdrm_wm": 5,
             "xoff": 6, "class": 7}
PG_CFG = {name: 8 + k for k, name in enumerate(PG_FIELDS)}
Q_STATUS = {"res": 0, "shared": 1, "occupancy": 2, "wm": 3, "class": 4}
Q_CFG = {name: 8 + k for k, name in enumerate(QUEUE_FIELDS)}


def pg_addr(index: int, field: str) -> int:
    return PG_BASE | index << 4 | {**PG_STATUS, **PG_CFG}[field]


def queue_addr(index: int, field: str) -> int:
    return Q_BASE | index << 4 | {**Q_STATUS, **Q_CFG}[field]


def encode(field: str, value: int) -> int:
    """A field's register value (alpha_shift: 4-bit two's complement)."""
    return value & 0xF if field == "alpha_shift" else int(value)


def config_image(cfg: MmuConfig) -> list[tuple[int, int]]:
    """(address, value) writes that load ``cfg`` into the core (the values
    models.mmu_pipe.PipelinedMmu starts from)."""
    from models.mmu_pipe import PipelinedMmu
    m = PipelinedMmu(cfg, validate=False)
    out = [(GLOBAL_CFG[k], v) for k, v in m.glob.items()]
    for i, c in enumerate(m.pg_cfg):
        out += [(pg_addr(i, k), encode(k, v)) for k, v in c.items()]
    for j, c in enumerate(m.q_cfg):
        out += [(queue_addr(j, k), encode(k, v)) for k, v in c.items()]
    return out
