"""Address map of mmu_core's configuration / status port (rtl/mmu_core.v; docs/mmu_core.md),
as word addresses, taken from the generated map models/pfcmmu_regs.py (source:
rtl/regs/pfcmmu.rdl, `make regs`; docs/regs.md).

Plain Python, shared by the testbench and by anyone who drives the core from software; the
address functions and the configuration image are models/regimage.py's.

    address[15:13]  region
    0               globals: status 0x00..0x1F (read), configuration 0x20..0x26 (read / write)
    1               per PG:    0x2000 | (port*8 + pg) << 4 | field
    2               per queue: 0x4000 | (port*8 + queue) << 4 | field
    3               per port:  0x6000 | port << 4 | field (headroom policy dsh)
Per-PG, per-queue and per-port fields 0..7 are status (read only), 8..15 configuration.
"""

from __future__ import annotations

from models import pfcmmu_regs as regs
from models import regimage
from models.config import MmuConfig


def _status(block: dict[str, regs.Reg]) -> dict[str, int]:
    return {name: r.offset for name, r in block.items() if not r.writable}


def _config(block: dict[str, regs.Reg]) -> dict[str, int]:
    return {name: r.offset for name, r in block.items() if r.writable}


# every read-only global (counters, occupancies, watermarks, flags, drops, constants)
STATUS = _status(regs.GLOBALS)
# bits of STATUS["flags"]
FLAG_RELEASE_UNDERFLOW = regs.GLOBALS["flags"].field("release_underflow").mask
FLAG_BAD_CONFIG = regs.GLOBALS["flags"].field("bad_config").mask
# bits of STATUS["config_flags"] (rtl/mmu_cfg_check.v), by name (models.mmu_pipe.CFG_FLAG)
CONFIG_FLAG = {f.name: f.mask for f in regs.GLOBALS["config_flags"].fields}
# drops of reason r (models.mmu.REASON_NAMES) at DROP_BASE + r
DROP_BASE = STATUS["drop_none"]
GLOBAL_CFG = _config(regs.GLOBALS)
PG_BASE = regs.PG_BASE
Q_BASE = regs.QUEUE_BASE
PG_STATUS = _status(regs.PG)
PG_CFG = _config(regs.PG)
Q_STATUS = _status(regs.QUEUE)
Q_CFG = _config(regs.QUEUE)
PORT_STATUS = _status(regs.PORT)
PORT_CFG = _config(regs.PORT)


# addresses, decode and the configuration image are models.regimage's (one copy: the
# testbench and the boot image use the same code)
pg_addr = regimage.pg_word
queue_addr = regimage.queue_word
port_addr = regimage.port_word
decode = regimage.decode_word


def encode(field: str, value: int) -> int:
    """A PG's or queue's field as its register value (alpha_shift: 4-bit two's complement);
    ConfigError when it does not fit (models.regimage.encode_field)."""
    return regimage.encode_field(regs.PG.get(field) or regs.QUEUE[field], value, field)


def config_image(cfg: MmuConfig) -> list[tuple[int, int]]:
    """(word address, value) writes that load ``cfg`` into the core (the values
    models.mmu_pipe.PipelinedMmu starts from): models.regimage.image with word addresses."""
    return regimage.word_image(cfg)
