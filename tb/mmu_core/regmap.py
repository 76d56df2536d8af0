"""Address map of mmu_core's configuration / status port (rtl/mmu_core.v; docs/mmu_core.md),
as word addresses, taken from the generated map models/pfcmmu_regs.py (source:
rtl/regs/pfcmmu.rdl, `make regs`; docs/regs.md).

Plain Python, shared by the testbench and by anyone who drives the core from software.

    address[15:13]  region
    0               globals: status 0x00..0x1F (read), configuration 0x20..0x26 (read / write)
    1               per PG:    0x2000 | (port*8 + pg) << 4 | field
    2               per queue: 0x4000 | (port*8 + queue) << 4 | field
Per-PG and per-queue fields 0..7 are status (read only), 8..15 configuration.
"""

from __future__ import annotations

from models import pfcmmu_regs as regs
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
# fields written as two's complement (alpha_shift), with their width
_TWOS = {name: r.fields[0].width for block in (regs.PG, regs.QUEUE) for name, r in block.items()
         if r.fields[0].twos_complement}


def pg_addr(index: int, field: str) -> int:
    if not 0 <= index < regs.PG_ENTRIES:
        raise IndexError(f"PG index {index} outside 0 .. {regs.PG_ENTRIES - 1}")
    return PG_BASE + index * regs.PG_STRIDE + regs.PG[field].offset


def queue_addr(index: int, field: str) -> int:
    if not 0 <= index < regs.QUEUE_ENTRIES:
        raise IndexError(f"queue index {index} outside 0 .. {regs.QUEUE_ENTRIES - 1}")
    return Q_BASE + index * regs.QUEUE_STRIDE + regs.QUEUE[field].offset


def decode(addr: int) -> tuple[str, int, str] | None:
    """("global", 0, name), ("pg", index, name) or ("queue", index, name) of a word address
    the map names; None for any other address."""
    for kind, block, base, stride, entries in (
            ("pg", regs.PG, regs.PG_BASE, regs.PG_STRIDE, regs.PG_ENTRIES),
            ("queue", regs.QUEUE, regs.QUEUE_BASE, regs.QUEUE_STRIDE, regs.QUEUE_ENTRIES)):
        index, offset = divmod(addr - base, stride)
        if 0 <= index < entries:
            name = next((n for n, r in block.items() if r.offset == offset), None)
            return (kind, index, name) if name else None
    name = next((n for n, r in regs.GLOBALS.items() if r.offset == addr), None)
    return ("global", 0, name) if name else None


def encode(field: str, value: int) -> int:
    """A field's register value (alpha_shift: 4-bit two's complement)."""
    return value & ((1 << _TWOS[field]) - 1) if field in _TWOS else int(value)


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
