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
"""

from __future__ import annotations

import json
import re
from typing import Any

from .config import (PG_COUNT, QUEUE_COUNT, ConfigError, MmuConfig, PgConfig, PortConfig,
                     QueueConfig)

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
