"""switch_core's own registers (map pfcmmu_switch, models/pfcmmu_switch_regs.py) read back
and compared with what a bench expects (issue 17): the one helper of tb/switch_core, tb/loop,
tb/soak and the pyuvm bench's expectations (tb/uvm/reg_agent.py).

A register is named by a key: a global as in the map ("free_cells", an array element
"mmu_drop_count[2]"), a per-port register as "name[p]" ("tx_frames[3]", an element of a
per-port array "wd_storms[k][p]").  An expectation is a
dict key -> value; ``check`` reads exactly its keys and returns the differences as (key,
read, expected).  Plain Python, no cocotb: the reads go through any object with MmuAxil's
``read_many`` (tb/common/mmu_axil.py), and tb/soak/replay.py compares after the simulation
with ``diffs``.
"""

from __future__ import annotations

from models import pfcmmu_switch_regs as swr
from models.swconfig import SwitchConfig, global_addr, port_addr


def reg_addr(key: str) -> int:
    """Byte address of the register ``key`` (module docstring)."""
    if key in swr.SW_GLOBALS:
        return global_addr(key)
    name, br, idx = key.rpartition("[")
    if br and name in swr.SW_PORT and idx.endswith("]"):
        return port_addr(int(idx[:-1]), name)
    raise KeyError(f"no switch register {key!r} (a global, or a port register as name[p])")


def keys(names: list[str], ports: int) -> list[str]:
    """Each global of ``names`` as is, each per-port name as "name[p]" for p < ``ports``."""
    out = []
    for n in names:
        if n in swr.SW_GLOBALS:
            out.append(n)
        elif n in swr.SW_PORT:
            out += [f"{n}[{p}]" for p in range(ports)]
        else:
            raise KeyError(f"no switch register {n!r}")
    return out


def config(scfg: SwitchConfig) -> dict[str, int]:
    """Every configuration register as ``scfg`` writes it (its ``registers()``, the values of
    ``image()``): what a read-back must return."""
    g, ports = scfg.registers()
    want = dict(g)
    for p, regs in enumerate(ports):
        want.update({f"{n}[{p}]": v for n, v in regs.items()})
    return want


def drained(buffer_cells: int, drops) -> dict[str, int]:
    """The globals of a drained switch: every cell free (``buffer_cells``, the spares
    included), none used, no frame queued, no error flag; ``mmu_drop_count[r - 1]`` =
    ``drops[r]`` (reason r of models.mmu.REASON_NAMES; reason 0 admits)."""
    want = dict(free_cells=buffer_cells, used_cells=0, queued_frames=0, errors=0)
    want.update({f"mmu_drop_count[{r - 1}]": drops[r] for r in range(1, len(drops))})
    return want


async def read(axil, regs: list[str], base: int = 0) -> dict[str, int]:
    """The registers ``regs`` (keys) over ``axil`` (an MmuAxil), all reads queued at once;
    ``base`` is added to every byte address (tb/loop: the switch in address bits 19:18)."""
    return dict(zip(regs, await axil.read_many([base + reg_addr(k) for k in regs])))


def diffs(got: dict[str, int], want: dict[str, int]) -> list[tuple[str, int | None, int]]:
    """(key, read, expected) of every key of ``want`` that ``got`` does not hold as
    expected (read None: not read at all)."""
    return [(k, got.get(k), v) for k, v in want.items() if got.get(k) != v]


async def check(axil, want: dict[str, int], base: int = 0) -> list[tuple[str, int | None, int]]:
    """Read every register of ``want`` and return the differences (``diffs``)."""
    return diffs(await read(axil, list(want), base), want)


async def check_live(axil, want: dict[str, int], live, base: int = 0
                     ) -> list[tuple[str, int | None, int | tuple[int, int]]]:
    """``check`` for a switch whose counters may still move while they are read (a link
    partner that keeps sending PFC frames): ``live()`` returns the counters' values as the
    switch shows them inside (key -> value), taken once before the reads and once after; a
    counter's read must lie between the two (it is some clock's value within the reads), every
    key of ``want`` must be exact.  Differences as (key, read, expected or (low, high))."""
    before = live()
    got = await read(axil, list(want) + list(before), base)
    after = live()
    bad = diffs(got, want)
    bad += [(k, got[k], (lo, after[k])) for k, lo in before.items()
            if not lo <= got[k] <= after[k]]
    return bad


__all__ = ["reg_addr", "keys", "config", "drained", "read", "diffs", "check", "check_live"]
