"""The soak's switch configuration and traffic constants (plain Python, no cocotb): shared by
the cocotb test (tb/soak/soak_cases.py), the replay (tb/soak/replay.py) and make soak."""

from __future__ import annotations

from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig
from models.headroom import compute
from models.swconfig import SwitchConfig

PORT_COUNT = 4
DATA_WIDTH = 64
CELL_BYTES = 128
BUFFER_CELLS = 2048
CELL_W = 16
MAX_FRAME = 1518
# soak_top's traffic: priorities 3 and 4 lossless, 0 and 1 lossy (1 carries the bad frames)
LOSSLESS = (3, 4)
LOSSLESS_MASK = sum(1 << k for k in LOSSLESS)
# the link: 64 bits per clock, partners on chip (no cable), 1518-byte frames
ETA = compute(DATA_WIDTH / 8, 0, MAX_FRAME, CELL_BYTES).eta_cells_worst
PERIOD_NS = 8


def reserve_cells(ports: int = PORT_COUNT, cell_bytes: int = CELL_BYTES,
                  max_frame: int = MAX_FRAME) -> int:
    """Cells kept outside the admission core: per port one frame being written and a spare
    (switch_core's reserve, docs/switch_core.md)."""
    return ports * (-(-max_frame // cell_bytes) + 1)


def soak_config(ports: int = PORT_COUNT, cell_bytes: int = CELL_BYTES,
                buffer_cells: int = BUFFER_CELLS, headroom: int = ETA) -> MmuConfig:
    """Lossless PGs 3 and 4 with the model's eta as headroom, the rest lossy; three quarters of
    the admission core's cells to the lossless pools."""
    cells = buffer_cells - reserve_cells(ports, cell_bytes)
    lossless_pool = cells * 3 // 4
    lossy_pool = cells - lossless_pool
    out = []
    for _ in range(ports):
        pgs, qs = [], []
        for g in range(8):
            if g in LOSSLESS:
                pgs.append(PgConfig(lossless=True, reserved=1, alpha_shift=-1, headroom=headroom,
                                    xon_offset=2))
                qs.append(QueueConfig(lossless=True, dynamic=False, static_th=lossless_pool))
            else:
                pgs.append(PgConfig(lossless=False, reserved=1, alpha_shift=0))
                qs.append(QueueConfig(lossless=False, reserved=0, alpha_shift=1))
        out.append(PortConfig(pgs=pgs, queues=qs))
    cfg = MmuConfig(ports=out, cell_bytes=cell_bytes, buffer_cells=cells,
                    max_frame_bytes=MAX_FRAME, ingress_lossless_pool=lossless_pool,
                    ingress_lossy_pool=lossy_pool, egress_lossless_pool=lossless_pool,
                    egress_lossy_pool=lossy_pool)
    cfg.validate()
    return cfg


def soak_switch_config(cfg: MmuConfig) -> SwitchConfig:
    """The switch registers of the soak (written over AXI4-Lite before the admission image):
    ``cfg``'s priority maps, port p's PFC source address 02-00-00-00-10-p and the quanta step
    of 64 bits a clock (soak_top's QUANTA_STEP: 512 bit times a quantum, 8192 in 8.16)."""
    return SwitchConfig.from_mmu(cfg, src_mac=[0x020000001000 + p for p in range(cfg.port_count)],
                                 quanta_step=8192)
