"""models.swconfig: the switch registers' image covers every configuration register of the
map once, in order, and refuses values its fields cannot hold."""

import pytest

from models import pfcmmu_switch_regs as swr
from models.config import example_config
from models.swconfig import SwitchConfig, WatchdogPort, config_names, global_addr, port_addr


def test_image_covers_every_config_register():
    cfg = example_config(3)
    scfg = SwitchConfig.from_mmu(cfg, stall_clocks=100)
    writes = scfg.image()
    glob, port = config_names()
    want = [global_addr(n) for n in glob] + [port_addr(p, n) for p in range(3) for n in port]
    assert sorted(a for a, _ in writes) == sorted(want)
    assert len({a for a, _ in writes}) == len(writes)
    assert dict(writes)[global_addr("stall_clocks")] == 100
    assert dict(writes)[port_addr(1, "src_mac_lo")] == 0x00000101
    # identity maps: priority k to PG k (the reset value of the map)
    assert dict(writes)[port_addr(2, "prio_to_pg")] == swr.SW_PORT["prio_to_pg"].fields[0].reset


def test_value_too_wide_is_refused():
    scfg = SwitchConfig(port_count=2, watchdog=[WatchdogPort(action=4), WatchdogPort()])
    with pytest.raises(ValueError, match="wd_action"):
        scfg.image()
