"""The switch benches' AXI4-Lite access to switch_core's registers (issue 17):
cocotbext-axi's AxiLiteMaster on the ``s_axil_*`` port (sw_mmu_csr / pfcmmu_csr, map
rtl/regs/pfcmmu.rdl), the configuration written as the model's register images (the switch
registers from a models.swconfig.SwitchConfig first, then the admission core's from the
MmuConfig, models/regimage.py) and the status read back (the switch registers by name:
tb/common/switch_regs.py).

The image covers mmu_core's port count (a power of two): a switch with fewer ports gets the
entries of the missing ports written 0 (``pad_config``), so the image ends with the core's last
configuration register, whose write opens switch_core's admission gate
(docs/switch_core.md "Configuration over AXI4-Lite").
"""

from __future__ import annotations

from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp

from common.mmu_bus import mmu_ports, pad_config
from models.config import MmuConfig
from models.regimage import image
from models.swconfig import SwitchConfig


def switch_image(cfg: MmuConfig, ports: int | None = None) -> list[tuple[int, int]]:
    """(byte address, value) writes of ``cfg`` padded to mmu_core's ``ports`` (default: the
    power of two switch_core gives it for ``cfg``'s port count)."""
    return image(pad_config(cfg, ports or mmu_ports(cfg.port_count)))


class MmuAxil:
    """AxiLiteMaster on one switch_core's (or a wrapper's) AXI4-Lite port."""

    def __init__(self, dut, clk, rst, prefix: str = "s_axil"):
        self.clk = clk
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, prefix), clk, rst)

    async def write_image(self, writes: list[tuple[int, int]]) -> None:
        """Every write in order, queued at once (the CSR block takes one at a time); each must
        answer OKAY."""
        events = [self.axil.init_write(a, v.to_bytes(4, "little")) for a, v in writes]
        for ev in events:
            await ev.wait()
        bad = [(hex(a), ev.data.resp) for (a, _), ev in zip(writes, events)
               if ev.data.resp != AxiResp.OKAY]
        assert not bad, f"configuration writes answered with an error: {bad[:5]}"

    async def load(self, cfg: MmuConfig, ports: int | None = None,
                   alter: dict[int, int] | None = None) -> int:
        """Write ``cfg``'s image (``alter``: byte address -> value replaced, negative tests);
        returns the number of writes."""
        writes = switch_image(cfg, ports)
        if alter:
            writes = [(a, alter.get(a, v)) for a, v in writes]
        await self.write_image(writes)
        return len(writes)

    async def load_switch(self, scfg: SwitchConfig, alter: dict[int, int] | None = None) -> int:
        """Write the switch registers' image of ``scfg`` (before the admission image: its
        last write opens the admission gate); returns the number of writes."""
        writes = scfg.image()
        if alter:
            writes = [(a, alter.get(a, v)) for a, v in writes]
        await self.write_image(writes)
        return len(writes)

    async def read_many(self, addrs: list[int]) -> list[int]:
        """32-bit registers by byte address, all reads queued at once, each must answer
        OKAY."""
        events = [self.axil.init_read(a, 4) for a in addrs]
        out = []
        for a, ev in zip(addrs, events):
            await ev.wait()
            assert ev.data.resp == AxiResp.OKAY, f"read of {a:#07x} answered {ev.data.resp}"
            out.append(int.from_bytes(ev.data.data, "little"))
        return out

    def init_access(self, write: bool, byte_addr: int, value: int = 0):
        """Queue one read or write without waiting (AxiLiteMaster's init_read / init_write):
        returns its event, whose ``data`` is the AxiLiteReadResp / AxiLiteWriteResp (response
        not checked: the pyuvm register driver, tb/uvm/reg_agent.py, hands it to the model).
        Reads are issued in the order queued, writes too (two channels)."""
        if write:
            return self.axil.init_write(byte_addr, value.to_bytes(4, "little"))
        return self.axil.init_read(byte_addr, 4)

    async def read(self, byte_addr: int) -> int:
        r = await self.axil.read(byte_addr, 4)
        assert r.resp == AxiResp.OKAY, f"read of {byte_addr:#07x} answered {r.resp}"
        return int.from_bytes(r.data, "little")

    async def read_words(self, words: list[int], base: int = 0) -> list[int]:
        """mmu_core status / configuration registers by word address (tb/mmu_core/regmap.py),
        at byte address ``base`` + word << 2, all reads queued at once (pfcmmu_csr takes one
        every other clock and answers in order); each must answer OKAY."""
        events = [self.axil.init_read(base + (w << 2), 4) for w in words]
        out = []
        for w, ev in zip(words, events):
            await ev.wait()
            assert ev.data.resp == AxiResp.OKAY, f"read of word {w:#06x} answered {ev.data.resp}"
            out.append(int.from_bytes(ev.data.data, "little"))
        return out


__all__ = ["MmuAxil", "switch_image"]
