"""switch_core's own configuration (the register map pfcmmu_switch of rtl/regs/pfcmmu.rdl) and
its register image: the one description every bench and the board image use (issue 17).

The admission core's configuration is an ``MmuConfig`` and its image ``models.regimage``; the
switch-level part (priority maps, PFC source addresses and quanta, the stall limit, the PFC
watchdog, deadlock prevention) is a ``SwitchConfig``, written to the switch registers before
the admission image (whose last write opens switch_core's admission gate):

    scfg = SwitchConfig.from_mmu(cfg, quanta_step=...)
    writes = scfg.image() + regimage.image(cfg)      # (byte address, value), in order

Plain Python, no cocotb.  Addresses and field widths come from the generated map
models/pfcmmu_switch_regs.py; a value its field cannot hold raises ``ValueError`` naming the
register.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from models import pfcmmu_switch_regs as swr
from models.config import MmuConfig
from models.prevention import PreventionConfig

# the source MAC address of switch port p's PFC frames unless told: locally administered
# 02-00-00-00-01-00 + p
SRC_MAC_BASE = 0x020000000100
# the watchdog's actions (rtl/pfc_watchdog.v, models.watchdog; docs/watchdog.md)
WD_ACTIONS = {"forward": 0, "drop": 1, "alert": 2}


@dataclass
class WatchdogPort:
    """One port's PFC watchdog (cfg_wd_*: docs/watchdog.md)."""
    enable: bool = False
    detect_time: int = 0       # clocks
    restore_time: int = 0      # clocks
    action: int = 0            # 0 forward, 1 drop, 2 alert (3 as forward)
    storm_limit: int = 0
    reenable: int = 0          # bit per priority


@dataclass
class SwitchConfig:
    """Every configuration register of the map pfcmmu_switch for ``port_count`` ports."""
    port_count: int
    prio_to_pg: list[list[int]] = field(default_factory=list)       # per port, 8 entries
    prio_to_queue: list[list[int]] = field(default_factory=list)
    default_prio: list[int] = field(default_factory=list)
    src_mac: list[int] = field(default_factory=list)
    pause_quanta: list[int] = field(default_factory=lambda: [0xFFFF] * 8)
    refresh_quanta: int = 0x7FFF
    quanta_step: int = 1 << 16
    link_pause: int = 0                    # bit p: port p honours 802.3x PAUSE
    stall_clocks: int = 0
    watchdog: list[WatchdogPort] = field(default_factory=list)
    prevention: PreventionConfig | None = None

    def __post_init__(self) -> None:
        n = self.port_count
        if not 1 <= n <= swr.SW_PORT_ENTRIES:
            raise ValueError(f"port_count {n}: 1 .. {swr.SW_PORT_ENTRIES}")
        ident = list(range(8))
        self.prio_to_pg = self.prio_to_pg or [list(ident) for _ in range(n)]
        self.prio_to_queue = self.prio_to_queue or [list(ident) for _ in range(n)]
        self.default_prio = self.default_prio or [0] * n
        self.src_mac = self.src_mac or [SRC_MAC_BASE + p for p in range(n)]
        self.watchdog = self.watchdog or [WatchdogPort() for _ in range(n)]
        for name in ("prio_to_pg", "prio_to_queue", "default_prio", "src_mac", "watchdog"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name}: {len(getattr(self, name))} entries for {n} ports")
        if len(self.pause_quanta) != 8:
            raise ValueError("pause_quanta: 8 priorities")

    @classmethod
    def from_mmu(cls, cfg: MmuConfig, **kw) -> SwitchConfig:
        """The switch configuration of ``cfg``'s ports: their priority maps and default
        priorities (``MmuConfig`` carries them, the admission image does not), the rest from
        ``kw`` or the defaults."""
        return cls(port_count=cfg.port_count,
                   prio_to_pg=[list(p.prio_to_pg) for p in cfg.ports],
                   prio_to_queue=[list(p.prio_to_queue) for p in cfg.ports],
                   default_prio=[p.default_prio for p in cfg.ports], **kw)

    # ---------------------------------------------------------------- registers

    def registers(self) -> tuple[dict[str, int], list[dict[str, int]]]:
        """Register values: the globals by name (an array's element "name[k]") and each
        port's by name."""
        prev = self.prevention or PreventionConfig.off(self.port_count)
        prev.validate()
        g: dict[str, int] = {
            "stall_clocks": self.stall_clocks,
            "refresh_quanta": self.refresh_quanta,
            "quanta_step": self.quanta_step,
            "prev_enable": prev.enable,
            "prev_alt_prio": _pack3(prev.alt_prio),
        }
        for k in range(8):
            g[f"pause_quanta[{k}]"] = self.pause_quanta[k]
            g[f"prev_alt_dscp[{k}]"] = prev.alt_dscp[k]
        ports = []
        for p in range(self.port_count):
            wd = self.watchdog[p]
            ports.append({
                "prio_to_pg": _pack3(self.prio_to_pg[p]),
                "prio_to_queue": _pack3(self.prio_to_queue[p]),
                "default_prio": self.default_prio[p],
                "src_mac_lo": self.src_mac[p] & 0xFFFFFFFF,
                "src_mac_hi": self.src_mac[p] >> 32,
                "link_pause_enable": (self.link_pause >> p) & 1,
                "port_group": prev.port_group[p] if p < len(prev.port_group) else 0,
                "wd_enable": int(wd.enable),
                "wd_detect_time": wd.detect_time,
                "wd_restore_time": wd.restore_time,
                "wd_action": wd.action,
                "wd_storm_limit": wd.storm_limit,
                "wd_reenable": wd.reenable,
            })
        return g, ports

    def image(self, changed_only: bool = False) -> list[tuple[int, int]]:
        """(byte address, value) of every configuration register: the globals in map order,
        then port by port.  ``changed_only``: only the registers whose value is not their
        reset value (a boot ROM writes after rst, when every register holds its reset
        value)."""
        g, ports = self.registers()
        out = [(global_addr(name), encode(swr.SW_GLOBALS[name], v, name), swr.SW_GLOBALS[name])
               for name, v in sorted(g.items(), key=lambda kv: swr.SW_GLOBALS[kv[0]].offset)]
        for p, regs in enumerate(ports):
            for name, v in sorted(regs.items(), key=lambda kv: swr.SW_PORT[kv[0]].offset):
                out.append((port_addr(p, name), encode(swr.SW_PORT[name], v,
                                                       f"sw_port[{p}].{name}"),
                            swr.SW_PORT[name]))
        return [(a, v) for a, v, reg in out if not changed_only or v != reset_value(reg)]


def _pack3(values: list[int]) -> int:
    return sum(v << (3 * k) for k, v in enumerate(values))


def global_addr(name: str) -> int:
    """Byte address of global register ``name`` ("pause_quanta[3]" for an element)."""
    return swr.SW_GLOBALS[name].offset << swr.ADDR_SHIFT


def port_addr(port: int, name: str) -> int:
    """Byte address of port ``port``'s register ``name``."""
    if not 0 <= port < swr.SW_PORT_ENTRIES:
        raise ValueError(f"port {port}: 0 .. {swr.SW_PORT_ENTRIES - 1}")
    return (swr.SW_PORT_BASE + port * swr.SW_PORT_STRIDE
            + swr.SW_PORT[name].offset) << swr.ADDR_SHIFT


def encode(reg: swr.Reg, value: int, where: str) -> int:
    """``value`` in the register's one field (an error if it does not fit)."""
    if len(reg.fields) != 1:
        raise ValueError(f"{where}: {len(reg.fields)} fields, one expected")
    f = reg.fields[0]
    if not 0 <= value < 1 << f.width:
        raise ValueError(f"{where}: {value} does not fit register {reg.name} field {f.name} "
                         f"({f.width} bits unsigned)")
    return value << f.lsb


def reset_value(reg: swr.Reg) -> int:
    """The register's value after rst (its fields' reset values in place)."""
    return sum((f.reset or 0) << f.lsb for f in reg.fields)


def selftest_switch_config(ports: int) -> SwitchConfig:
    """The board self-test's switch configuration (rtl/fpga_core.v, syn/board_image.py):
    priority k to PG k and queue k, port p's PFC source address 02-00-00-00-10-p, the 1 Gb/s
    byte clock's quanta step (8 bits a clock: 1/64 quantum, 1024 in 8.16), the rest as after
    rst."""
    return SwitchConfig(port_count=ports, src_mac=[0x020000001000 + p for p in range(ports)],
                        quanta_step=1024)


def config_names() -> tuple[list[str], list[str]]:
    """The writable registers of the map (globals, per port): what ``registers`` sets."""
    return ([n for n, r in swr.SW_GLOBALS.items() if r.writable],
            [n for n, r in swr.SW_PORT.items() if r.writable])


__all__ = ["SwitchConfig", "WatchdogPort", "reset_value", "selftest_switch_config", "WD_ACTIONS", "SRC_MAC_BASE", "global_addr",
           "port_addr", "encode", "config_names"]
