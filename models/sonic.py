"""Import / export of a SONiC-style buffer description (CONFIG_DB JSON tables).

Tables read and written (byte values as decimal strings, as SONiC stores them):

* ``BUFFER_POOL``    name -> ``type`` (ingress / egress), ``mode``, ``size``, ``xoff``
  (ingress lossless pool only: size of the shared headroom pool, 0 = private headroom);
* ``BUFFER_PROFILE`` name -> ``pool``, ``size`` (reserved), ``dynamic_th`` (alpha = 2^n) or
  ``static_th``, and for lossless PG profiles ``xoff`` (headroom limit), ``xon``, ``xon_offset``;
* ``BUFFER_PG``      ``"<port>|<pg or a-b>"`` -> ``profile``;
* ``BUFFER_QUEUE``   ``"<port>|<queue or a-b>"`` -> ``profile``;
* optional ``CABLE_LENGTH`` (``{"AZURE": {"<port>": "300m"}}``) and ``PORT`` (``speed`` in Mb/s).

Rules of the mapping (documented in docs/model.md):

* bytes -> cells by ceiling (``ceil(bytes / cell_bytes)``); cells -> bytes by multiplication,
  so ``from_sonic(to_sonic(cfg))`` gives ``cfg`` back exactly;
* a pool is lossless when its name contains ``lossless``, else lossy; this MMU has exactly one
  pool of each kind per direction;
* a PG profile is lossless (PFC) exactly when it has an ``xoff`` field, and must then point at
  the ingress lossless pool; a lossy PG profile must point at the ingress lossy pool;
* a queue's pool (lossless or lossy egress) is its profile's pool;
* PGs and queues not listed are lossy with everything zero (SONiC: no buffer configured);
* ``prio_to_pg`` / ``prio_to_queue`` stay identity (SONiC keeps them in other tables).

``image`` writes the configuration's register image (models/regimage.py) as .json, .hex or .h.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from . import regimage
from .cliutil import Parser, int_range, run_guarded
from .config import (PG_COUNT, QUEUE_COUNT, ConfigError, MmuConfig, PgConfig, PortConfig,
                     QueueConfig, _shift as shift_alpha)

POOL_NAMES = {("ingress", True): "ingress_lossless_pool", ("ingress", False): "ingress_lossy_pool",
              ("egress", True): "egress_lossless_pool", ("egress", False): "egress_lossy_pool"}
_CFG_POOL = {("ingress", True): "ingress_lossless_pool", ("ingress", False): "ingress_lossy_pool",
             ("egress", True): "egress_lossless_pool", ("egress", False): "egress_lossy_pool"}


def _cells(value: Any, cell_bytes: int, where: str) -> int:
    try:
        n = int(str(value).strip())
    except ValueError:
        raise ConfigError(f"{where}: {value!r} is not a byte count") from None
    if n < 0:
        raise ConfigError(f"{where}: must not be negative")
    return -(-n // cell_bytes)


def _ref(value: str) -> str:
    """'[BUFFER_PROFILE|name]' or 'name' -> 'name'."""
    m = re.fullmatch(r"\[?(?:[A-Z_]+\|)?([^\]]+)\]?", value.strip())
    return m.group(1) if m else value


def _range(text: str, limit: int, where: str) -> list[int]:
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        try:
            lo, hi = int(a), int(b or a)
        except ValueError:
            raise ConfigError(f"{where}: bad index range {text!r}") from None
        if not 0 <= lo <= hi < limit:
            raise ConfigError(f"{where}: index range {text!r} outside 0..{limit - 1}")
        out.extend(range(lo, hi + 1))
    return out


def _natural(name: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def _split_key(key: str, table: str) -> tuple[list[str], str]:
    ports, sep, idx = key.partition("|")
    if not sep:
        raise ConfigError(f"{table}[{key!r}]: key must be '<port>|<index range>'")
    return ports.split(","), idx


def from_sonic(data: dict | str, cell_bytes: int, ports: list[str] | None = None,
               buffer_cells: int | None = None, max_frame_bytes: int | None = None
               ) -> MmuConfig:
    """Build an :class:`MmuConfig` from SONiC buffer tables (dict or JSON text).

    ``ports``: port names in MMU port order; default: every port named in BUFFER_PG /
    BUFFER_QUEUE, in natural order (Ethernet0, Ethernet4, ...).  ``buffer_cells``: default the
    larger of the summed ingress pools and each egress pool.  The result is validated."""
    if isinstance(data, str):
        data = json.loads(data)
    if cell_bytes <= 0:
        raise ConfigError("cell_bytes: must be positive")
    pools_in = data.get("BUFFER_POOL", {})
    profiles_in = data.get("BUFFER_PROFILE", {})
    pg_in = data.get("BUFFER_PG", {})
    q_in = data.get("BUFFER_QUEUE", {})

    pool_kind: dict[str, tuple[str, bool]] = {}
    sizes = {v: 0 for v in _CFG_POOL.values()}
    hdrm_pool = 0
    for name, p in pools_in.items():
        ptype = p.get("type", "ingress" if "ingress" in name else "egress")
        if ptype not in ("ingress", "egress"):
            raise ConfigError(f"BUFFER_POOL|{name}.type: {ptype!r} is not ingress/egress")
        kind = (ptype, "lossless" in name)
        if kind in pool_kind.values():
            raise ConfigError(f"BUFFER_POOL|{name}: a second {ptype} "
                              f"{'lossless' if kind[1] else 'lossy'} pool is not supported")
        pool_kind[name] = kind
        sizes[_CFG_POOL[kind]] = _cells(p.get("size", 0), cell_bytes, f"BUFFER_POOL|{name}.size")
        if "xoff" in p:
            x = _cells(p["xoff"], cell_bytes, f"BUFFER_POOL|{name}.xoff")
            if x and kind != ("ingress", True):
                raise ConfigError(f"BUFFER_POOL|{name}.xoff: only the ingress lossless pool has "
                                  "a shared headroom pool")
            hdrm_pool = x or hdrm_pool

    def profile(name: str, table: str, key: str) -> dict:
        pname = _ref(name)
        if pname not in profiles_in:
            raise ConfigError(f"{table}[{key!r}].profile: no BUFFER_PROFILE {pname!r}")
        return profiles_in[pname] | {"_name": pname}

    def pool_of(prof: dict) -> tuple[str, bool]:
        pname = _ref(prof.get("pool", ""))
        if pname not in pool_kind:
            raise ConfigError(f"BUFFER_PROFILE|{prof['_name']}.pool: no BUFFER_POOL {pname!r}")
        return pool_kind[pname]

    def thresholds(prof: dict) -> dict[str, int]:
        where = f"BUFFER_PROFILE|{prof['_name']}"
        if "dynamic_th" in prof:
            try:
                shift = int(prof["dynamic_th"])
            except ValueError:
                raise ConfigError(f"{where}.dynamic_th: {prof['dynamic_th']!r}") from None
            return {"dynamic": True, "alpha_shift": shift, "static_th": 0}
        if "static_th" in prof:
            return {"dynamic": False, "alpha_shift": 0,
                    "static_th": _cells(prof["static_th"], cell_bytes, f"{where}.static_th")}
        raise ConfigError(f"{where}: needs dynamic_th or static_th")

    names: set[str] = set()
    for table in (pg_in, q_in):
        for key in table:
            names.update(_split_key(key, "BUFFER_PG")[0])
    port_names = list(ports) if ports is not None else sorted(names, key=_natural)
    if not port_names:
        raise ConfigError("ports: no port named in BUFFER_PG / BUFFER_QUEUE")
    index = {n: k for k, n in enumerate(port_names)}

    cable = data.get("CABLE_LENGTH", {})
    cable = next(iter(cable.values()), {}) if cable else {}
    port_tbl = data.get("PORT", {})
    port_cfgs = []
    for n in port_names:
        pc = PortConfig()
        if n in cable:
            pc.cable_m = int(str(cable[n]).rstrip("m"))
        if n in port_tbl and "speed" in port_tbl[n]:
            pc.speed_gbps = int(port_tbl[n]["speed"]) // 1000
        port_cfgs.append(pc)

    for key, v in pg_in.items():
        pnames, idx = _split_key(key, "BUFFER_PG")
        prof = profile(v.get("profile", ""), "BUFFER_PG", key)
        where = f"BUFFER_PROFILE|{prof['_name']}"
        lossless = "xoff" in prof
        ptype, plossless = pool_of(prof)
        if ptype != "ingress" or plossless != lossless:
            raise ConfigError(f"{where}.pool: a {'lossless' if lossless else 'lossy'} PG profile "
                              f"must use the ingress {'lossless' if lossless else 'lossy'} pool")
        pg = PgConfig(lossless=lossless,
                      reserved=_cells(prof.get("size", 0), cell_bytes, f"{where}.size"),
                      **thresholds(prof))
        if lossless:
            pg.headroom = _cells(prof["xoff"], cell_bytes, f"{where}.xoff")
            pg.xon = _cells(prof.get("xon", 0), cell_bytes, f"{where}.xon")
            pg.xon_offset = _cells(prof.get("xon_offset", 0), cell_bytes, f"{where}.xon_offset")
        for pn in pnames:
            if pn not in index:
                continue  # a port outside the requested set
            for g in _range(idx, PG_COUNT, f"BUFFER_PG[{key!r}]"):
                port_cfgs[index[pn]].pgs[g] = PgConfig(**vars(pg))

    for key, v in q_in.items():
        pnames, idx = _split_key(key, "BUFFER_QUEUE")
        prof = profile(v.get("profile", ""), "BUFFER_QUEUE", key)
        where = f"BUFFER_PROFILE|{prof['_name']}"
        ptype, plossless = pool_of(prof)
        if ptype != "egress":
            raise ConfigError(f"{where}.pool: a queue profile must use an egress pool")
        qc = QueueConfig(lossless=plossless,
                         reserved=_cells(prof.get("size", 0), cell_bytes, f"{where}.size"),
                         **thresholds(prof))
        for pn in pnames:
            if pn not in index:
                continue
            for q in _range(idx, QUEUE_COUNT, f"BUFFER_QUEUE[{key!r}]"):
                port_cfgs[index[pn]].queues[q] = QueueConfig(**vars(qc))

    if buffer_cells is None:
        buffer_cells = max(sizes["ingress_lossless_pool"] + sizes["ingress_lossy_pool"],
                           sizes["egress_lossless_pool"], sizes["egress_lossy_pool"], 1)
    cfg = MmuConfig(ports=port_cfgs, cell_bytes=cell_bytes, buffer_cells=buffer_cells,
                    shared_headroom_pool=hdrm_pool, **sizes)
    if max_frame_bytes is not None:
        cfg.max_frame_bytes = max_frame_bytes
    cfg.validate()
    return cfg


def _ranges(idxs: list[int]) -> list[str]:
    out = []
    start = prev = idxs[0]
    for i in idxs[1:] + [None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    return out


def to_sonic(cfg: MmuConfig, port_names: list[str] | None = None) -> dict[str, Any]:
    """Export ``cfg`` as SONiC buffer tables (bytes = cells * cell_bytes).

    Port names default to ``Ethernet0, Ethernet4, ...``; identical PG / queue settings share one
    profile; consecutive indices with one profile become a range key (``Ethernet0|3-4``)."""
    if cfg.headroom_policy != "static":
        raise ConfigError(f"headroom_policy: {cfg.headroom_policy} has no SONiC buffer-table "
                          "form (SONiC has per-PG headroom and the shared headroom pool)")
    cb = cfg.cell_bytes
    names = port_names or [f"Ethernet{4 * p}" for p in range(cfg.port_count)]
    if len(names) != cfg.port_count:
        raise ConfigError(f"port_names: {len(names)} names for {cfg.port_count} ports")

    def b(cells: int) -> str:
        return str(cells * cb)

    pools = {}
    for (ptype, lossless), name in POOL_NAMES.items():
        size = getattr(cfg, _CFG_POOL[(ptype, lossless)])
        entry = {"type": ptype, "mode": "dynamic", "size": b(size)}
        if (ptype, lossless) == ("ingress", True):
            entry["xoff"] = b(cfg.shared_headroom_pool)
        pools[name] = entry

    profiles: dict[str, dict[str, str]] = {}
    keyed: dict[tuple, str] = {}

    def th(o) -> dict[str, str]:
        return ({"dynamic_th": str(o.alpha_shift)} if o.dynamic else {"static_th": b(o.static_th)})

    def pg_profile(pg: PgConfig) -> str:
        k = ("pg",) + tuple(sorted(vars(pg).items()))
        if k not in keyed:
            base = "pg_lossless_profile" if pg.lossless else "ingress_lossy_profile"
            pool = POOL_NAMES[("ingress", pg.lossless)]
            prof = {"pool": pool, "size": b(pg.reserved)} | th(pg)
            if pg.lossless:
                prof |= {"xoff": b(pg.headroom), "xon": b(pg.xon), "xon_offset": b(pg.xon_offset)}
            keyed[k] = _unique(base, profiles)
            profiles[keyed[k]] = prof
        return keyed[k]

    def q_profile(q: QueueConfig) -> str:
        k = ("q",) + tuple(sorted(vars(q).items()))
        if k not in keyed:
            base = "egress_lossless_profile" if q.lossless else "egress_lossy_profile"
            keyed[k] = _unique(base, profiles)
            profiles[keyed[k]] = {"pool": POOL_NAMES[("egress", q.lossless)],
                                  "size": b(q.reserved)} | th(q)
        return keyed[k]

    buffer_pg: dict[str, dict[str, str]] = {}
    buffer_q: dict[str, dict[str, str]] = {}
    for p, port in enumerate(cfg.ports):
        for items, fn, table in ((port.pgs, pg_profile, buffer_pg),
                                 (port.queues, q_profile, buffer_q)):
            by_prof: dict[str, list[int]] = {}
            for k, item in enumerate(items):
                by_prof.setdefault(fn(item), []).append(k)
            for prof, idxs in by_prof.items():
                for r in _ranges(idxs):
                    table[f"{names[p]}|{r}"] = {"profile": prof}
    return {
        "BUFFER_POOL": pools,
        "BUFFER_PROFILE": profiles,
        "BUFFER_PG": buffer_pg,
        "BUFFER_QUEUE": buffer_q,
        "CABLE_LENGTH": {"AZURE": {names[p]: f"{port.cable_m}m"
                                   for p, port in enumerate(cfg.ports)}},
        "PORT": {names[p]: {"speed": str(port.speed_gbps * 1000)}
                 for p, port in enumerate(cfg.ports)},
    }


def _unique(base: str, existing: dict) -> str:
    if base not in existing:
        return base
    k = 1
    while f"{base}_{k}" in existing:
        k += 1
    return f"{base}_{k}"


# ---------------------------------------------------------------------- explain
def _th_text(o: PgConfig | QueueConfig) -> str:
    if not o.dynamic:
        return f"static_th {o.static_th} cells"
    return f"DT alpha 2^{o.alpha_shift}"


def _pg_key(pg: PgConfig) -> tuple:
    return tuple(sorted(vars(pg).items()))


def explain(cfg: MmuConfig, port_names: list[str] | None = None) -> str:
    """What a configuration means in this MMU, in words and cells: the pools and the shared
    segment DT divides, and for each distinct port: its lossless PGs' Xoff / Xon points, the
    occupancy DT settles at when N PGs are congested, its headroom against eta
    (models.headroom at the port's speed and cable, MTU = max_frame_bytes) and its queues.
    Identical ports are described once."""
    from .headroom import compute  # headroom imports nothing from here

    warnings = cfg.validate()
    dsh = cfg.headroom_policy == "dsh"
    cb = cfg.cell_bytes
    names = port_names or [f"Ethernet{4 * p}" for p in range(cfg.port_count)]
    out = [f"buffer {cfg.buffer_cells} cells of {cb} B ({cfg.buffer_cells * cb:,} B), "
           f"{cfg.port_count} ports, largest frame {cfg.max_frame_bytes} B "
           f"({cfg.bytes_to_cells(cfg.max_frame_bytes)} cells)"]
    ll_pgs = [pg for _, _, pg in cfg.all_pgs() if pg.lossless]
    ll_res = sum(pg.reserved for pg in ll_pgs)
    if dsh:
        hd = (f"port headroom {sum(port.port_headroom for port in cfg.ports)} (headroom_policy "
              "dsh: one per port; a PG's in-flight cells come from the shared segment)")
    elif cfg.shared_headroom_pool:
        hd = f"shared headroom pool {cfg.shared_headroom_pool}"
    else:
        hd = f"headroom {sum(pg.headroom for pg in ll_pgs)} (private, per PG)"
    out.append(f"ingress lossless pool {cfg.ingress_lossless_pool} cells: reserved {ll_res} "
               f"({len(ll_pgs)} lossless PGs), {hd} -> shared {cfg.lossless_shared} cells "
               "(what DT divides)")
    ly_res = sum(pg.reserved for _, _, pg in cfg.all_pgs() if not pg.lossless)
    out.append(f"ingress lossy pool {cfg.ingress_lossy_pool} cells: reserved {ly_res} -> shared "
               f"{cfg.lossy_shared} cells")
    out.append(f"egress pools: lossless {cfg.egress_lossless_pool} cells (shared "
               f"{cfg.egress_lossless_shared}), lossy {cfg.egress_lossy_pool} cells (shared "
               f"{cfg.egress_lossy_shared})")
    n_ll = max(1, len(ll_pgs))
    previous: dict[tuple, str] = {}
    same: list[tuple[int, str]] = []  # a run of ports identical to an earlier one

    def flush() -> None:
        if same:
            first, ref = same[0]
            last = same[-1][0]
            ps = f"port {first}" if first == last else f"ports {first}..{last}"
            what = (f"{names[first]}" if first == last else f"{names[first]} .. {names[last]}")
            out.append(f"{ps} ({what}): same as {ref}")
            same.clear()

    for p, port in enumerate(cfg.ports):
        key = (tuple(_pg_key(g) for g in port.pgs),
               tuple(tuple(sorted(vars(q).items())) for q in port.queues),
               tuple(port.prio_to_pg), tuple(port.prio_to_queue), port.speed_gbps, port.cable_m,
               port.port_headroom)
        head = f"port {p} ({names[p]}, {port.speed_gbps} Gb/s, cable {port.cable_m} m)"
        if key in previous and (not same or same[-1] == (p - 1, previous[key])):
            same.append((p, previous[key]))
            continue
        flush()
        if key in previous:
            same.append((p, previous[key]))
            continue
        previous[key] = f"port {p}"
        out.append(f"{head}:")
        h = compute(port.speed_gbps, port.cable_m, min(cfg.max_frame_bytes, 65535), cb)
        groups: dict[tuple, list[int]] = {}
        for g, pg in enumerate(port.pgs):
            groups.setdefault(_pg_key(pg), []).append(g)
        for idxs in groups.values():
            pg = port.pgs[idxs[0]]
            which = "PG " + ",".join(_ranges(idxs))
            if not pg.lossless:
                out.append(f"  {which} lossy: reserved {pg.reserved}, {_th_text(pg)} of the "
                           f"lossy shared {cfg.lossy_shared}; over it a frame is dropped")
                continue
            shared = cfg.lossless_shared
            if pg.dynamic:
                t0 = shift_alpha(shared, pg.alpha_shift)
                a = Fraction(2) ** pg.alpha_shift
                settle = ", ".join(f"N={n}: {float(a * shared / (1 + n * a)):.0f}"
                                   for n in sorted({1, 2, n_ll}))
                xoff = (f"Xoff when its shared cells reach T = alpha x (free shared): {t0} on an "
                        f"empty pool; with N congested lossless PGs each settles near "
                        f"alpha / (1 + N alpha) x {shared} cells ({settle})")
            else:
                t0 = pg.static_th
                xoff = f"Xoff when its shared cells reach static_th {t0}"
            if dsh:  # docs/model.md "Headroom policies": queue level at T - headroom
                x0 = t0 - pg.headroom
                out.append(f"  {which} lossless (dsh): reserved {pg.reserved}; {xoff} (the "
                           f"port-level pause request); queue-level Xoff at T - headroom "
                           f"{pg.headroom} = {x0} on an empty pool, Xon at max(xon {pg.xon}, "
                           f"X - xon_offset {pg.xon_offset}) = {max(pg.xon, x0 - pg.xon_offset)}")
                continue
            xon = max(pg.xon, t0 - pg.xon_offset)
            if pg.headroom >= h.eta_cells_worst:
                verdict = "enough"
            elif pg.headroom >= h.eta_cells_ceil:
                verdict = "enough for large frames, not for a stream of 64-byte frames"
            else:
                verdict = f"SHORT by {h.eta_cells_ceil - pg.headroom} cells even for large frames"
            hd_text = (f"headroom {pg.headroom} cells" if not cfg.shared_headroom_pool else
                       f"headroom up to {pg.headroom} cells from the shared headroom pool")
            out.append(f"  {which} lossless: reserved {pg.reserved}; {xoff}; Xon at "
                       f"max(xon {pg.xon}, T - xon_offset {pg.xon_offset}) = {xon} on an empty "
                       f"pool; {hd_text} against eta {h.eta_cells_ceil} (large frames) / "
                       f"{h.eta_cells_worst} (64-byte frames) cells at {port.speed_gbps} Gb/s, "
                       f"{port.cable_m} m, MTU {cfg.max_frame_bytes} B: {verdict}")
        if dsh and any(pg.lossless for pg in port.pgs):
            ph = port.port_headroom
            verdict = ("enough" if ph >= h.eta_cells_worst else
                       "enough for large frames, not for a stream of 64-byte frames"
                       if ph >= h.eta_cells_ceil else
                       f"SHORT by {h.eta_cells_ceil - ph} cells even for large frames")
            out.append(f"  port headroom {ph} cells (all its lossless PGs, after a port-level "
                       f"pause) against eta {h.eta_cells_ceil} (large frames) / "
                       f"{h.eta_cells_worst} (64-byte frames) cells at {port.speed_gbps} Gb/s, "
                       f"{port.cable_m} m, MTU {cfg.max_frame_bytes} B: {verdict}")
        qgroups: dict[tuple, list[int]] = {}
        for q, qc in enumerate(port.queues):
            qgroups.setdefault(tuple(sorted(vars(qc).items())), []).append(q)
        parts = []
        for idxs in qgroups.values():
            qc = port.queues[idxs[0]]
            parts.append(f"{','.join(_ranges(idxs))} {'lossless' if qc.lossless else 'lossy'} "
                         f"reserved {qc.reserved} {_th_text(qc)}")
        out.append("  queues " + "; ".join(parts))
        if port.prio_to_pg != list(range(8)) or port.prio_to_queue != list(range(8)):
            out.append(f"  priority -> PG {port.prio_to_pg}, priority -> queue "
                       f"{port.prio_to_queue}")
    flush()
    out.extend(f"warning: {w}" for w in warnings)
    return "\n".join(out)


# ---------------------------------------------------------------------- command line
def _load_sonic(path: str) -> dict:
    text = sys.stdin.read() if path == "-" else Path(path).read_text()
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON object of SONiC tables")
    return data


def _load_any(a: argparse.Namespace) -> tuple[MmuConfig, list[str] | None]:
    """SONiC tables (a BUFFER_POOL / BUFFER_PG ... object) or an MmuConfig JSON (``ports``)."""
    data = _load_sonic(a.file)
    if "ports" in data and "BUFFER_POOL" not in data:
        try:
            return MmuConfig.from_dict(data), None
        except (TypeError, KeyError) as e:
            raise ConfigError(f"{a.file}: not an MmuConfig JSON ({e})") from None
    if not any(k.startswith("BUFFER_") for k in data):
        raise ConfigError(f"{a.file}: neither SONiC buffer tables (BUFFER_POOL, BUFFER_PG, ...) "
                          "nor an MmuConfig JSON (ports, pools)")
    ports = a.ports.split(",") if a.ports else None
    cfg = from_sonic(data, a.cell_bytes, ports=ports, buffer_cells=a.buffer_cells,
                     max_frame_bytes=a.max_frame_bytes)
    return cfg, ports


def _write(text: str, out: Path | None) -> None:
    if out is None:
        print(text)
    else:
        out.write_text(text + "\n")


def _image_path(text: str) -> Path:
    """--out of image: a path whose extension names an image format (a usage error if not)."""
    if Path(text).suffix.lower() not in regimage.FORMATS:
        raise argparse.ArgumentTypeError(f"{text!r}: the extension names the format, one of "
                                         f"{', '.join(regimage.FORMATS)}")
    return Path(text)


def _sonic_options(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("file", help="JSON file ('-': standard input)")
    sp.add_argument("--cell-bytes", type=int_range(1, 65536), default=256,
                    help="cell size for bytes -> cells (default 256)")
    sp.add_argument("--ports", default=None,
                    help="port names in MMU order, comma separated (default: every port named, "
                         "natural order)")
    sp.add_argument("--buffer-cells", type=int_range(1), default=None,
                    help="total cells (default: the larger of the summed ingress pools and "
                         "each egress pool)")
    sp.add_argument("--max-frame-bytes", type=int_range(64, 65535), default=None)


def add_arguments(ap: argparse.ArgumentParser) -> None:
    sub = ap.add_subparsers(dest="command", required=True, metavar="{import,export,explain,image}")
    sp = sub.add_parser("import", help="SONiC buffer tables -> MmuConfig JSON",
                        description="SONiC BUFFER_POOL / PROFILE / PG / QUEUE JSON -> MmuConfig "
                                    "JSON (the model's and the testbench's configuration)")
    _sonic_options(sp)
    sp.add_argument("--out", type=Path, default=None, help="write here instead of stdout")
    sp = sub.add_parser("export", help="MmuConfig JSON -> SONiC buffer tables",
                        description="MmuConfig JSON -> SONiC buffer tables (bytes = cells x "
                                    "cell_bytes)")
    sp.add_argument("file", help="MmuConfig JSON ('-': standard input)")
    sp.add_argument("--port-names", default=None,
                    help="comma separated (default Ethernet0, Ethernet4, ...)")
    sp.add_argument("--out", type=Path, default=None, help="write here instead of stdout")
    sp = sub.add_parser("explain", help="what a configuration means: pools, Xoff / Xon points, "
                                        "DT steady state, headroom against eta",
                        description="Explain SONiC buffer tables or an MmuConfig JSON in cells: "
                                    "the shared segment DT divides, each lossless PG's Xoff / "
                                    "Xon points and headroom against eta.")
    _sonic_options(sp)
    sp = sub.add_parser("image", help="register image for the RTL: the AXI4-Lite writes that "
                                      "load the configuration (.json, .hex, .h)",
                        description="SONiC buffer tables or an MmuConfig JSON -> the register "
                                    "image of mmu_core (models/regimage.py, docs/regs.md): every "
                                    "configuration register as (byte address, value), written "
                                    "as JSON, a $readmemh hex file or a C header by the "
                                    "extension of --out.  The configuration is validated "
                                    "first; a value wider than its register field is refused "
                                    "with the register's name, and nothing is written.")
    _sonic_options(sp)
    sp.add_argument("--out", type=_image_path, required=True,
                    help="image file: .json, .hex ($readmemh: address and value a line) or .h "
                         "(C array of {addr, value})")


def _image(a: argparse.Namespace, cfg: MmuConfig, ports: list[str] | None) -> int:
    """Write the register image of ``cfg`` to ``a.out`` (validated first: a boot image of a
    configuration that cannot work is refused); print what was written."""
    fmt = regimage.image_format(a.out)
    for w in cfg.validate():
        print(f"warning: {w}", file=sys.stderr)
    n = regimage.write_image(cfg, a.out, source=Path(a.file).name)
    which = f" ({', '.join(ports)})" if ports and len(ports) <= 8 else ""
    print(f"{a.out}: {n} register writes ({fmt[1:]}) for {cfg.port_count} ports{which}, "
          f"cell {cfg.cell_bytes} B; the globals:")
    for addr, value in regimage.image(cfg)[:len(regimage.GLOBAL_REGS)]:
        print(f"  {addr:#07x} {regimage.reg_label(addr):<24} {value}")
    return 0


def run(a: argparse.Namespace) -> int:
    if a.command == "export":
        data = json.loads(sys.stdin.read() if a.file == "-" else Path(a.file).read_text())
        try:
            cfg = MmuConfig.from_dict(data)
        except (TypeError, KeyError, AttributeError) as e:
            raise ConfigError(f"{a.file}: not an MmuConfig JSON ({e})") from None
        cfg.validate()
        names = a.port_names.split(",") if a.port_names else None
        _write(json.dumps(to_sonic(cfg, names), indent=2), a.out)
        return 0
    cfg, ports = _load_any(a)
    if a.command == "import":
        for w in cfg.validate():
            print(f"warning: {w}", file=sys.stderr)
        _write(cfg.to_json(), a.out)
        return 0
    if a.command == "image":
        return _image(a, cfg, ports)
    print(explain(cfg, ports))
    return 0


DESCRIPTION = ("SONiC buffer tables: import to / export from the model's MmuConfig, explain "
               "a configuration in cells, write its register image for the RTL (image).")


def main(argv: list[str] | None = None, prog: str = "python -m models.sonic") -> int:
    ap = Parser(prog=prog, description=DESCRIPTION)
    add_arguments(ap)
    a = ap.parse_args(argv)
    return run_guarded(f"{prog} {a.command}", lambda: run(a))


if __name__ == "__main__":
    raise SystemExit(main())
