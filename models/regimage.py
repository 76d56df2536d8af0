"""MmuConfig <-> register image: the writes that load a configuration into mmu_core.

Built only on the generated register map ``models/pfcmmu_regs.py`` (source
``rtl/regs/pfcmmu.rdl``, ``make regs``; docs/regs.md "Register image"): no address, width or
field position is written here by hand, only the rule that ties a register's name to the
``MmuConfig`` value it holds (:data:`GLOBAL_SOURCES`; a PG's or queue's register has the name
of its ``PgConfig`` / ``QueueConfig`` attribute).

**The image** is an ordered list of ``(byte address, value)``: byte address = word address <<
``ADDR_SHIFT`` (the AXI4-Lite address of ``rtl/regs/pfcmmu_csr.v``), value the whole 32-bit
register.  It covers every configuration register (``sw = rw``) the core has for the
configuration's port count: the globals in address order, then PG entry 0 .. N*8-1 (entry =
port * 8 + pg) with its registers in address order, then the port entries 0 .. N-1 (the
headroom policy dsh's ``port_headroom``), then the queue entries like the PGs'.  The last write
is always the last queue's ``static_th``: switch_core's admission gate opens on it.  Writing
it in this order after ``rst`` gives the core the configuration ``models.mmu_pipe.PipelinedMmu``
starts from.  Global values are what the registers hold, not the SONiC pool sizes: the shared
segments (``MmuConfig.lossless_shared`` ...), the headroom pool, the buffer and largest frame,
``headroom_policy`` as its register holds it (0 static, 1 dsh).

**Rule for values.** Each value must fit its field: unsigned fields 0 .. 2^w - 1, two's
complement fields (``alpha_shift``) -2^(w-1) .. 2^(w-1) - 1, stored as their w-bit pattern;
booleans are 0 / 1.  A value that does not fit raises :class:`~models.config.ConfigError`
naming the register, the field and the ``MmuConfig`` attribute (e.g. a pool too large for the
16-bit cell fields, a negative shared segment).  The image does not validate the configuration
otherwise (``MmuConfig.validate``): benches load configurations the core must flag.  Widths
are the committed map's (``CELL_W`` 16); a core built with a narrower ``CELL_W`` keeps fewer
bits than checked here.

**What the image does not hold**: ``cell_bytes`` and the port count are the build's parameters
(read-only ``cell_bytes`` / ``port_count`` registers), the priority maps (``prio_to_pg``,
``prio_to_queue``, ``default_prio``) are ``switch_core``'s ``cfg_prio_*`` ports, not registers
of this map yet, and ``speed_gbps`` / ``cable_m`` are headroom-sizing inputs only.  The pool
sizes are rebuilt from the shared segments on the way back (:func:`config_from_image`).

**Files** (:func:`write_image`, the format from the file name's extension):

* ``.json``: ``{"format": "pfcmmu-register-image", "version": 1, "port_count", "cell_bytes",
  "addr_shift", "entries", "writes": [{"addr": "0x00080", "value": "0x00002000",
  "reg": "buffer_cells"}, ...]}``; ``reg`` is for the reader (``pg[3].xon``), ignored on input.
* ``.hex`` (for ``$readmemh`` into ``reg [31:0] rom [0:2*ENTRIES+1]``): ``//`` comment lines,
  then one entry a line as two 32-bit hex words, ``AAAAAAAA DDDDDDDD`` (byte address, value),
  so the address of entry k is word 2k and its value word 2k+1; the last line is the end
  marker ``ffffffff 00000000`` (no register has that address; a boot loader stops there).
* ``.h``: a C header with ``PFCMMU_IMAGE_ENTRIES``, ``PFCMMU_IMAGE_PORT_COUNT``,
  ``PFCMMU_IMAGE_CELL_BYTES`` and ``static const struct pfcmmu_image_entry
  pfcmmu_image[]`` of ``{addr, value}`` (``uint32_t`` each), a comment naming each register.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import fields as dc_fields
from pathlib import Path

from . import pfcmmu_regs as regs
from .config import (HEADROOM_DSH, HEADROOM_STATIC, PG_COUNT, QUEUE_COUNT, ConfigError,
                     MmuConfig, PgConfig, PortConfig, QueueConfig)

FORMAT = "pfcmmu-register-image"
VERSION = 1
# the .hex end marker: an address no register has (the map's byte addresses are 18 bits)
HEX_END = 0xFFFFFFFF
FORMATS = (".json", ".hex", ".h")

# global configuration register -> (MmuConfig attribute or derived property it holds)
GLOBAL_SOURCES: dict[str, str] = {
    "buffer_cells": "buffer_cells",
    "max_frame_bytes": "max_frame_bytes",
    "pool_shared_lossless": "lossless_shared",
    "pool_shared_lossy": "lossy_shared",
    "hdrm_pool": "shared_headroom_pool",
    "egress_shared_lossless": "egress_lossless_shared",
    "egress_shared_lossy": "egress_lossy_shared",
    "headroom_policy": "headroom_policy",
}
# the headroom_policy register's values (models.mmu_pipe POLICY_STATIC, POLICY_DSH)
POLICY_CODES = {HEADROOM_STATIC: 0, HEADROOM_DSH: 1}


def _global_value(cfg: MmuConfig, name: str) -> int:
    v = getattr(cfg, GLOBAL_SOURCES[name])
    if name == "headroom_policy":
        if v not in POLICY_CODES:
            raise ConfigError(f"headroom_policy: {v!r} has no register value")
        return POLICY_CODES[v]
    return v


def _config_regs(block: dict[str, regs.Reg]) -> list[regs.Reg]:
    """The block's configuration registers in address order."""
    return sorted((r for r in block.values() if r.writable), key=lambda r: r.offset)


GLOBAL_REGS = _config_regs(regs.GLOBALS)
PG_REGS = _config_regs(regs.PG)
QUEUE_REGS = _config_regs(regs.QUEUE)
PORT_REGS = _config_regs(regs.PORT)
_PG_ATTRS = {f.name for f in dc_fields(PgConfig)}
_Q_ATTRS = {f.name for f in dc_fields(QueueConfig)}
_PORT_ATTRS = {f.name for f in dc_fields(PortConfig)}


def _check_map() -> None:
    """Every configuration register of the map has a source in MmuConfig (a register added to
    the RDL without one here fails at import, not in a bench)."""
    missing = [r.name for r in GLOBAL_REGS if r.name not in GLOBAL_SOURCES]
    missing += [f"pg.{r.name}" for r in PG_REGS if r.name not in _PG_ATTRS]
    missing += [f"queue.{r.name}" for r in QUEUE_REGS if r.name not in _Q_ATTRS]
    missing += [f"port.{r.name}" for r in PORT_REGS if r.name not in _PORT_ATTRS]
    missing += sorted(set(GLOBAL_SOURCES) - {r.name for r in GLOBAL_REGS})
    if missing:
        raise ImportError("models.regimage: registers without an MmuConfig value, or sources "
                          f"without a register: {missing}")


_check_map()


# ---------------------------------------------------------------------- addresses
def global_word(name: str) -> int:
    return regs.GLOBALS[name].offset


def pg_word(index: int, name: str) -> int:
    if not 0 <= index < regs.PG_ENTRIES:
        raise IndexError(f"PG index {index} outside 0 .. {regs.PG_ENTRIES - 1}")
    return regs.PG_BASE + index * regs.PG_STRIDE + regs.PG[name].offset


def queue_word(index: int, name: str) -> int:
    if not 0 <= index < regs.QUEUE_ENTRIES:
        raise IndexError(f"queue index {index} outside 0 .. {regs.QUEUE_ENTRIES - 1}")
    return regs.QUEUE_BASE + index * regs.QUEUE_STRIDE + regs.QUEUE[name].offset


def port_word(index: int, name: str) -> int:
    if not 0 <= index < regs.PORT_ENTRIES:
        raise IndexError(f"port index {index} outside 0 .. {regs.PORT_ENTRIES - 1}")
    return regs.PORT_BASE + index * regs.PORT_STRIDE + regs.PORT[name].offset


def decode_word(word: int) -> tuple[str, int, str] | None:
    """("global", 0, name), ("pg", index, name), ("queue", index, name) or ("port", index,
    name) of a word address the map names (any register, status or configuration); None for
    any other address."""
    for kind, block, base, stride, entries in (
            ("pg", regs.PG, regs.PG_BASE, regs.PG_STRIDE, regs.PG_ENTRIES),
            ("queue", regs.QUEUE, regs.QUEUE_BASE, regs.QUEUE_STRIDE, regs.QUEUE_ENTRIES),
            ("port", regs.PORT, regs.PORT_BASE, regs.PORT_STRIDE, regs.PORT_ENTRIES)):
        index, offset = divmod(word - base, stride)
        if 0 <= index < entries:
            name = next((n for n, r in block.items() if r.offset == offset), None)
            return (kind, index, name) if name else None
    name = next((n for n, r in regs.GLOBALS.items() if r.offset == word), None)
    return ("global", 0, name) if name else None


def reg_label(byte_addr: int) -> str:
    """``buffer_cells``, ``pg[3].xon``, ``queue[9].static_th``, ``port[1].port_headroom`` or
    ``0x....`` (unnamed)."""
    aligned = byte_addr % (1 << regs.ADDR_SHIFT) == 0
    d = decode_word(byte_addr >> regs.ADDR_SHIFT) if aligned else None
    if d is None:
        return f"{byte_addr:#07x}"
    kind, index, name = d
    return name if kind == "global" else f"{kind}[{index}].{name}"


# ---------------------------------------------------------------------- fields
def encode_field(reg: regs.Reg, value: int, where: str = "") -> int:
    """The register value of a one-field configuration register holding ``value``; raises
    ConfigError (naming the register, the field and ``where``) if it does not fit."""
    if len(reg.fields) != 1:
        raise ConfigError(f"register {reg.name}: {len(reg.fields)} fields, the image writes "
                          "one-field registers only")
    f = reg.fields[0]
    v = int(value)
    lo, hi = ((-(1 << (f.width - 1)), (1 << (f.width - 1)) - 1) if f.twos_complement
              else (0, (1 << f.width) - 1))
    if not lo <= v <= hi:
        kind = "two's complement" if f.twos_complement else "unsigned"
        raise ConfigError(f"{where + ': ' if where else ''}{v} does not fit register "
                          f"{reg.name} field {f.name} ({f.width} bits {kind}, {lo} .. {hi})")
    return (v & ((1 << f.width) - 1)) << f.lsb


def decode_field(reg: regs.Reg, value: int, where: str = "") -> int:
    """The field value of a register value (sign-extended for two's complement); raises
    ConfigError when bits outside the field are set."""
    f = reg.fields[0]
    if value & ~f.mask or not 0 <= value < 1 << 32:
        raise ConfigError(f"{where + ': ' if where else ''}{value:#x} has bits outside register "
                          f"{reg.name} field {f.name} (bits {f.lsb + f.width - 1}:{f.lsb})")
    v = (value & f.mask) >> f.lsb
    if f.twos_complement and v >> (f.width - 1):
        v -= 1 << f.width
    return v


# ---------------------------------------------------------------------- MmuConfig -> image
def word_image(cfg: MmuConfig) -> list[tuple[int, int]]:
    """(word address, value) of every configuration register, in image order.

    Values are checked in the order that names the cause of a misfit: each PG's and queue's
    fields, then the globals set directly, then the shared segments derived from the pools (a
    reserved size too wide is reported as itself, not as the negative shared segment it also
    makes)."""
    entries = []
    for p, g, pg in cfg.all_pgs():
        i = p * PG_COUNT + g
        entries += [(pg_word(i, r.name),
                     encode_field(r, getattr(pg, r.name), f"ports[{p}].pgs[{g}].{r.name}"))
                    for r in PG_REGS]
    # the ports before the queues: the last queue's static_th stays the image's last write
    for p, port in enumerate(cfg.ports):
        entries += [(port_word(p, r.name),
                     encode_field(r, getattr(port, r.name), f"ports[{p}].{r.name}"))
                    for r in PORT_REGS]
    for p, q, qc in cfg.all_queues():
        j = p * QUEUE_COUNT + q
        entries += [(queue_word(j, r.name),
                     encode_field(r, getattr(qc, r.name), f"ports[{p}].queues[{q}].{r.name}"))
                    for r in QUEUE_REGS]
    direct = {f.name for f in dc_fields(MmuConfig)}
    order = sorted(GLOBAL_REGS, key=lambda r: GLOBAL_SOURCES[r.name] not in direct)
    glob = {r.name: encode_field(r, _global_value(cfg, r.name), GLOBAL_SOURCES[r.name])
            for r in order}
    return [(global_word(r.name), glob[r.name]) for r in GLOBAL_REGS] + entries


def image(cfg: MmuConfig) -> list[tuple[int, int]]:
    """(byte address, value) of every configuration register of ``cfg``, in image order (the
    module docstring); ConfigError for a value that does not fit its field."""
    return [(w << regs.ADDR_SHIFT, v) for w, v in word_image(cfg)]


def image_entries(port_count: int) -> int:
    """Entries of the image of a configuration with ``port_count`` ports."""
    return len(GLOBAL_REGS) + port_count * (PG_COUNT * len(PG_REGS) + len(PORT_REGS)
                                            + QUEUE_COUNT * len(QUEUE_REGS))


# ---------------------------------------------------------------------- image -> MmuConfig
_NOT_IN_IMAGE = ("prio_to_pg", "prio_to_queue", "default_prio", "speed_gbps", "cable_m")


def config_from_image(writes: Iterable[tuple[int, int]], cell_bytes: int = 256,
                      like: MmuConfig | None = None) -> MmuConfig:
    """The MmuConfig an image loads (inverse of :func:`image`).

    The image must hold every configuration register of 1 .. 64 whole ports exactly once and
    nothing else (ConfigError naming the address otherwise).  Pool sizes are rebuilt from the
    shared segments (pool = shared + the reserved cells of its PGs / queues, + the headroom
    pool or the lossless PGs' headroom for the ingress lossless pool).  What the image does
    not hold comes from ``like`` (its ``cell_bytes`` and each port's priority maps, speed and
    cable; it must have the image's port count) or the defaults (``cell_bytes`` argument)."""
    seen: dict[int, int] = {}
    for addr, value in writes:
        addr, value = int(addr), int(value)
        if addr in seen:
            raise ConfigError(f"image: {reg_label(addr)} (address {addr:#07x}) written twice")
        seen[addr] = value
    glob: dict[str, int] = {}
    pgs: dict[int, dict[str, int]] = {}
    qs: dict[int, dict[str, int]] = {}
    pts: dict[int, dict[str, int]] = {}
    for addr, value in seen.items():
        d = (decode_word(addr >> regs.ADDR_SHIFT) if addr % (1 << regs.ADDR_SHIFT) == 0
             else None)
        if d is None:
            raise ConfigError(f"image: address {addr:#07x} is not a register of the map")
        kind, index, name = d
        block = {"global": regs.GLOBALS, "pg": regs.PG, "queue": regs.QUEUE,
                 "port": regs.PORT}[kind]
        if not block[name].writable:
            raise ConfigError(f"image: {reg_label(addr)} (address {addr:#07x}) is read only, "
                              "not a configuration register")
        v = decode_field(block[name], value, reg_label(addr))
        if kind == "global":
            glob[name] = v
        else:
            {"pg": pgs, "queue": qs, "port": pts}[kind].setdefault(index, {})[name] = v

    n_pg = max(pgs, default=-1) + 1
    n_q = max(qs, default=-1) + 1
    n_port = max(pts, default=-1) + 1
    ports = max(-(-max(n_pg, n_q, 1) // PG_COUNT), n_port)
    missing = [r.name for r in GLOBAL_REGS if r.name not in glob]
    missing += [f"pg[{i}].{r.name}" for i in range(ports * PG_COUNT) for r in PG_REGS
                if r.name not in pgs.get(i, {})]
    missing += [f"queue[{j}].{r.name}" for j in range(ports * QUEUE_COUNT) for r in QUEUE_REGS
                if r.name not in qs.get(j, {})]
    missing += [f"port[{p}].{r.name}" for p in range(ports) for r in PORT_REGS
                if r.name not in pts.get(p, {})]
    if missing:
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise ConfigError(f"image: {len(missing)} configuration registers of {ports} ports "
                          f"missing: {', '.join(missing[:5])}{more}")
    if like is not None and like.port_count != ports:
        raise ConfigError(f"image: {ports} ports, the configuration it is compared with has "
                          f"{like.port_count}")

    port_cfgs = []
    for p in range(ports):
        pc = PortConfig(
            pgs=[PgConfig(**{k: _typed(k, v) for k, v in pgs[p * PG_COUNT + g].items()})
                 for g in range(PG_COUNT)],
            queues=[QueueConfig(**{k: _typed(k, v)
                                   for k, v in qs[p * QUEUE_COUNT + q].items()})
                    for q in range(QUEUE_COUNT)],
            **pts[p])
        if like is not None:
            for k in _NOT_IN_IMAGE:
                v = getattr(like.ports[p], k)
                setattr(pc, k, list(v) if isinstance(v, list) else v)
        port_cfgs.append(pc)
    policy = {code: name for name, code in POLICY_CODES.items()}[glob["headroom_policy"]]
    cfg = MmuConfig(ports=port_cfgs, cell_bytes=like.cell_bytes if like else cell_bytes,
                    buffer_cells=glob["buffer_cells"], max_frame_bytes=glob["max_frame_bytes"],
                    shared_headroom_pool=glob["hdrm_pool"], headroom_policy=policy)
    all_pgs = [pg for _, _, pg in cfg.all_pgs()]
    all_qs = [q for _, _, q in cfg.all_queues()]
    # what MmuConfig.lossless_shared takes out of the lossless pool for headroom
    hdrm = (sum(port.port_headroom for port in cfg.ports) if policy == HEADROOM_DSH
            else glob["hdrm_pool"] if glob["hdrm_pool"] > 0
            else sum(pg.headroom for pg in all_pgs if pg.lossless))
    cfg.ingress_lossless_pool = (glob["pool_shared_lossless"] + hdrm
                                 + sum(pg.reserved for pg in all_pgs if pg.lossless))
    cfg.ingress_lossy_pool = (glob["pool_shared_lossy"]
                              + sum(pg.reserved for pg in all_pgs if not pg.lossless))
    cfg.egress_lossless_pool = (glob["egress_shared_lossless"]
                                + sum(q.reserved for q in all_qs if q.lossless))
    cfg.egress_lossy_pool = (glob["egress_shared_lossy"]
                             + sum(q.reserved for q in all_qs if not q.lossless))
    return cfg


_BOOL = {"lossless", "dynamic"}


def _typed(name: str, v: int) -> int | bool:
    """A register's field value as the dataclass holds it (the 1-bit classes as bool)."""
    return bool(v) if name in _BOOL else v


# ---------------------------------------------------------------------- writers / readers
def to_json(writes: list[tuple[int, int]], port_count: int, cell_bytes: int,
            source: str | None = None) -> str:
    doc = {"format": FORMAT, "version": VERSION, **({"source": source} if source else {}),
           "port_count": port_count, "cell_bytes": cell_bytes, "addr_shift": regs.ADDR_SHIFT,
           "entries": len(writes),
           "writes": [{"addr": f"{a:#07x}", "value": f"{v:#010x}", "reg": reg_label(a)}
                      for a, v in writes]}
    return json.dumps(doc, indent=1)


def from_json(text: str) -> list[tuple[int, int]]:
    doc = json.loads(text)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ConfigError(f"not a {FORMAT} JSON (no \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise ConfigError(f"{FORMAT} version {doc.get('version')!r}, this reader knows {VERSION}")
    writes = [(int(w["addr"], 16), int(w["value"], 16)) for w in doc["writes"]]
    if doc.get("entries") != len(writes):
        raise ConfigError(f"image JSON: entries says {doc.get('entries')}, "
                          f"{len(writes)} writes present")
    return writes


def _header_lines(writes: list[tuple[int, int]], port_count: int, cell_bytes: int,
                  source: str | None) -> list[str]:
    return [f"pfcmmu register image ({FORMAT} v{VERSION}, models/regimage.py; docs/regs.md)"] + (
        [f"from {source}"] if source else []) + [
            f"{port_count} ports, cell_bytes {cell_bytes}, {len(writes)} writes "
            f"(byte address = word address << {regs.ADDR_SHIFT})"]


def to_hex(writes: list[tuple[int, int]], port_count: int, cell_bytes: int,
           source: str | None = None) -> str:
    lines = [f"// {t}" for t in _header_lines(writes, port_count, cell_bytes, source)]
    lines.append(f"// one entry a line: byte address, value (32-bit words 2k, 2k+1); "
                 f"ends with {HEX_END:08x} 00000000")
    lines += [f"{a:08x} {v:08x}" for a, v in writes]
    lines.append(f"{HEX_END:08x} 00000000")
    return "\n".join(lines) + "\n"


def from_hex(text: str) -> list[tuple[int, int]]:
    """Entries of a .hex image up to its end marker (``//`` comments allowed)."""
    words: list[int] = []
    for ln, line in enumerate(text.splitlines(), 1):
        for tok in line.split("//", 1)[0].split():
            try:
                words.append(int(tok, 16))
            except ValueError:
                raise ConfigError(f"image hex line {ln}: {tok!r} is not a hex word") from None
    out = []
    for k in range(0, len(words) - 1, 2):
        if words[k] == HEX_END:
            if k + 2 != len(words):
                raise ConfigError("image hex: words after the end marker")
            return out
        out.append((words[k], words[k + 1]))
    raise ConfigError("image hex: no end marker (ffffffff 00000000): truncated?")


def to_c_header(writes: list[tuple[int, int]], port_count: int, cell_bytes: int,
                source: str | None = None, name: str = "pfcmmu_image") -> str:
    guard = f"{name.upper()}_H"
    macro = name.upper()
    lines = ["/*"] + [f" * {t}" for t in _header_lines(writes, port_count, cell_bytes, source)]
    lines += [" * Write each {addr, value} in order over AXI4-Lite (rtl/regs/pfcmmu_csr.v).",
              " */", f"#ifndef {guard}", f"#define {guard}", "", "#include <stdint.h>", "",
              f"#define {macro}_ENTRIES {len(writes)}u",
              f"#define {macro}_PORT_COUNT {port_count}u",
              f"#define {macro}_CELL_BYTES {cell_bytes}u", "",
              "#ifndef PFCMMU_IMAGE_ENTRY_DEFINED", "#define PFCMMU_IMAGE_ENTRY_DEFINED",
              "struct pfcmmu_image_entry {", "    uint32_t addr;   /* byte address */",
              "    uint32_t value;", "};", "#endif", "",
              f"static const struct pfcmmu_image_entry {name}[{macro}_ENTRIES] = {{"]
    lines += [f"    {{0x{a:05x}u, 0x{v:08x}u}}, /* {reg_label(a)} */" for a, v in writes]
    lines += ["};", "", f"#endif /* {guard} */"]
    return "\n".join(lines) + "\n"


_C_ENTRY = re.compile(r"\{\s*0x([0-9a-fA-F]+)u\s*,\s*0x([0-9a-fA-F]+)u\s*\}")


def from_c_header(text: str) -> list[tuple[int, int]]:
    body = text.split("] = {", 1)
    if len(body) != 2:
        raise ConfigError("image header: no array initialiser")
    writes = [(int(a, 16), int(v, 16)) for a, v in _C_ENTRY.findall(body[1])]
    m = re.search(r"#define \w+_ENTRIES (\d+)u", text)
    if not m or int(m.group(1)) != len(writes):
        raise ConfigError(f"image header: _ENTRIES {m.group(1) if m else '(none)'}, "
                          f"{len(writes)} entries present")
    return writes


_WRITERS: dict[str, Callable[..., str]] = {".json": to_json, ".hex": to_hex, ".h": to_c_header}
_READERS: dict[str, Callable[[str], list[tuple[int, int]]]] = {
    ".json": from_json, ".hex": from_hex, ".h": from_c_header}


def image_format(path: str | Path) -> str:
    ext = Path(path).suffix.lower()
    if ext not in _WRITERS:
        raise ConfigError(f"{path}: unknown image format {ext or '(no extension)'!r}; "
                          f"use {', '.join(FORMATS)}")
    return ext


def render(cfg: MmuConfig, fmt: str, source: str | None = None,
           before: list[tuple[int, int]] | None = None) -> str:
    """The image of ``cfg`` as the text of a ``.json``, ``.hex`` or ``.h`` file; ``before``:
    writes put in front of it (the switch registers' image, models.swconfig: a board boots
    from both, the admission image last since its last write opens the admission gate)."""
    writes = list(before or []) + image(cfg)
    return _WRITERS[fmt](writes, cfg.port_count, cfg.cell_bytes, source)


def write_image(cfg: MmuConfig, path: str | Path, source: str | None = None) -> int:
    """Write the image of ``cfg`` to ``path`` (format from its extension); returns the number
    of writes.  Nothing is written when the image cannot be made (ConfigError); a missing
    parent folder is made (the README's example writes into sim_build/img/)."""
    fmt = image_format(path)
    text = render(cfg, fmt, source)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text)
    return image_entries(cfg.port_count)


def read_image(path: str | Path) -> list[tuple[int, int]]:
    """The writes of an image file (format from its extension)."""
    return _READERS[image_format(path)](Path(path).read_text())
