"""switch_core testbench: configuration, per-port cocotbext-axi streams, the admission
predictor (tb/common/mmu_bus.py: MmuMonitor on the switch's mmu_core, MmuPredictor stepping
models.mmu_pipe.PipelinedMmu on every clock, its responses, pfc_xoff and configuration writes
checked), scoreboard."""

from __future__ import annotations

import os
import random
from collections import defaultdict

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from scapy.layers.inet import IP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw
from scapy.utils import checksum

from common import switch_regs, waits
from common.mmu_axil import MmuAxil
from common.mmu_bus import MmuMonitor, MmuPredictor, drained_status_addrs
from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig
from models.mmu import REASON_COUNT
from models.prevention import PreventionConfig, Remap, prevention_remap
from models.swconfig import SwitchConfig
from switch_core.cell_shadow import CellShadow

PORT_COUNT = int(os.environ.get("PARAM_PORT_COUNT", "4"))
DATA_WIDTH = int(os.environ.get("PARAM_DATA_WIDTH", "64"))
CELL_BYTES = int(os.environ.get("PARAM_CELL_BYTES", "256"))
BUFFER_CELLS = int(os.environ.get("PARAM_BUFFER_CELLS", "256"))
CELL_W = 16
PREVENT_ENABLE = int(os.environ.get("PARAM_PREVENT_ENABLE", "0"))
# 0: the per-port counters but drop_admission are left out (the i5's build): they read 0
PORT_COUNTERS = int(os.environ.get("PARAM_PORT_COUNTERS", "1"))
GROUP_W = int(os.environ.get("PARAM_GROUP_W", "2"))
MAX_FRAME = 1518
# clocks the walker may take after the ports went idle: 3 clocks a cell, every cell of the
# buffer at most (its WALK_DEPTH queued frames cannot hold more)
WALK_BOUND = 3 * BUFFER_CELLS + 64
# cfg_stall_clocks of the benches: far above any gap of the cocotbext-axi sources inside a
# frame (none), so a cut in a test that does not stall a frame is a fault
STALL_CLOCKS = 2000
LOSSLESS = (3, 4)
PFC_DA = "01:80:c2:00:00:01"


def mac(port: int) -> str:
    return f"02:00:00:00:00:{port:02x}"


def reserve_cells(max_frame: int = MAX_FRAME) -> int:
    """Cells kept outside mmu_core: per port one frame being written plus a spare cell."""
    return PORT_COUNT * (-(-max_frame // CELL_BYTES) + 1)


def make_config(prio_to_pg=None, prio_to_queue=None, default_prio=0, headroom=None,
                max_frame: int = MAX_FRAME) -> MmuConfig:
    """Priorities 3 and 4 lossless, the rest lossy, sized to the buffer minus the reserve."""
    cells = BUFFER_CELLS - reserve_cells(max_frame)
    lossless_pool = cells * 3 // 4
    lossy_pool = cells - lossless_pool
    hdrm = headroom if headroom is not None else 24
    ports = []
    for _ in range(PORT_COUNT):
        pgs, qs = [], []
        for g in range(8):
            if g in LOSSLESS:
                pgs.append(PgConfig(lossless=True, reserved=1, alpha_shift=-1, headroom=hdrm,
                                    xon_offset=2))
                qs.append(QueueConfig(lossless=True, dynamic=False, static_th=lossless_pool))
            else:
                pgs.append(PgConfig(lossless=False, reserved=1, alpha_shift=0))
                qs.append(QueueConfig(lossless=False, reserved=0, alpha_shift=1))
        ports.append(PortConfig(pgs=pgs, queues=qs,
                                prio_to_pg=list(prio_to_pg or range(8)),
                                prio_to_queue=list(prio_to_queue or range(8)),
                                default_prio=default_prio))
    cfg = MmuConfig(ports=ports, cell_bytes=CELL_BYTES, buffer_cells=cells,
                    max_frame_bytes=max_frame, ingress_lossless_pool=lossless_pool,
                    ingress_lossy_pool=lossy_pool, egress_lossless_pool=lossless_pool,
                    egress_lossy_pool=lossy_pool)
    cfg.validate()
    return cfg


def frame(src: int, dst: int, prio: int | None, seq: int, length: int) -> bytes:
    """An Ether / Dot1Q / IP / Raw frame of ``length`` bytes (no FCS) carrying (src, seq)."""
    eth = Ether(dst=mac(dst), src=mac(src))
    pkt = eth / Dot1Q(prio=prio, vlan=1) / IP() if prio is not None else eth / IP()
    body = seq.to_bytes(4, "big") + bytes([src, dst, prio if prio is not None else 0xFF])
    raw = bytes(pkt / Raw(body))
    pad = length - len(raw)
    assert pad >= 0, length
    return raw + bytes((seq + i) & 0xFF for i in range(pad))


def ipv4_checksum_ok(data: bytes) -> bool | None:
    """Scapy's RFC 1071 sum over the IPv4 header of a frame (tagged or not) is 0: the
    checksum is valid.  None: not IPv4.  Only the IPv4 header right after the Ethernet / 802.1Q
    header counts (an IPv6 frame whose random payload reads as next header 4, IPv4 in IPv6,
    would otherwise be checked as IPv4)."""
    pkt = Ether(data)
    layer = pkt.payload
    if isinstance(layer, Dot1Q):
        layer = layer.payload
    if not isinstance(layer, IP):
        return None
    raw = bytes(layer)
    return checksum(raw[:layer.ihl * 4]) == 0


def is_pfc(data: bytes) -> bool:
    return len(data) >= 14 and data[0:6] == bytes.fromhex("0180c2000001") and \
        data[12:14] == b"\x88\x08"


def val(handle) -> int:
    return int(handle.value)


def cell_of(handle) -> int | None:
    """A cell number, or None when the value has X / Z bits (a cell read from an unwritten
    RAM word: the shadow map records it as a fault instead of the test dying on it)."""
    v = handle.value
    return int(v) if v.is_resolvable else None



class SwitchTB:
    def __init__(self, dut, cfg: MmuConfig, pfc_quanta: int = 0xFFFF, refresh: int = 0x7FFF,
                 quanta_step: int = 1 << 16, prevention: PreventionConfig | None = None,
                 link_pause: int = 0, stall_clocks: int = STALL_CLOCKS,
                 model_cfg: MmuConfig | None = None):
        """``model_cfg``: the predictor expects this configuration instead of ``cfg`` (negative
        tests: the configuration check must catch it)."""
        self.dut = dut
        # deadlock prevention configuration driven into the DUT; the scoreboard expects its
        # remap only when the build has the logic (PREVENT_ENABLE)
        self.prevention = prevention
        self.log = dut._log
        self.cfg = cfg
        self.core = dut.core
        self.mmu = dut.core.mmu_inst
        self.pred = MmuPredictor(model_cfg or cfg, ports=PORT_COUNT)
        self.pred.on_decision = self._decision
        # sampled by _per_clock (one wake per clock for the monitor and the cell shadow map)
        self.monitor = MmuMonitor(self.mmu, dut.clk, callback=self.pred.write, run=False)
        self.sources = []
        self.sinks = []
        for p in range(PORT_COUNT):
            src = AxiStreamSource(AxiStreamBus.from_prefix(dut, f"s{p}_axis"), dut.clk, dut.rst)
            snk = AxiStreamSink(AxiStreamBus.from_prefix(dut, f"m{p}_axis"), dut.clk, dut.rst)
            self.sources.append(src)
            self.sinks.append(snk)
        self.pfc_quanta = pfc_quanta
        self.refresh = refresh
        self.quanta_step = quanta_step
        # predictor bookkeeping
        self.decisions = []  # (port, pg, eport, queue, len, admit, reason)
        # cfg_link_pause_enable (bit per port) and cfg_stall_clocks
        self.link_pause = link_pause
        self.stall_clocks = stall_clocks
        # shadow map of the buffer's cells, fed from the free list's handshakes
        self.cells = CellShadow(BUFFER_CELLS)
        # the admission core's registers over AXI4-Lite (configuration image, status)
        self.regs = MmuAxil(dut, dut.clk, dut.rst)
        # image entries replaced when the configuration is written (byte address -> value;
        # negative tests)
        self.alter: dict[int, int] = {}
        # the switch registers' configuration (models.swconfig: the one description of the
        # switch-level configuration), written before the admission image
        self.scfg = SwitchConfig.from_mmu(
            cfg, pause_quanta=[pfc_quanta] * 8, refresh_quanta=refresh, quanta_step=quanta_step,
            link_pause=link_pause, stall_clocks=stall_clocks,
            prevention=prevention or PreventionConfig.off(PORT_COUNT, GROUP_W))

    def apply_config(self) -> None:
        """The stream inputs idle; the switch's own configuration is ``self.scfg`` (written
        over AXI4-Lite by :meth:`load_config`, tests may change it before :meth:`reset`)."""
        d = self.dut
        for p in range(PORT_COUNT):
            getattr(d, f"s{p}_axis_tuser").value = 0
            getattr(d, f"s{p}_axis_tdest").value = 0

    @property
    def model(self):
        """The predictor's golden model (models.mmu_pipe.PipelinedMmu)."""
        return self.pred.model

    @property
    def mismatch(self) -> list[str]:
        return self.pred.errors

    @property
    def requests(self) -> int:
        return self.pred.requests

    @property
    def releases(self) -> int:
        return self.pred.releases

    def _decision(self, clock, arr, d, tag) -> None:
        self.decisions.append(tuple(arr) + (d.admit, d.reason))

    async def reset(self, wait_load: bool = True) -> None:
        """Clock, switch-level vectors, reset, then the admission core's register image from
        the model over AXI4-Lite; the predictor follows from the first clock out of reset.
        ``wait_load``: return once the image is written (until its last write the switch
        sends no request to mmu_core); else the load goes on in the background
        (``self.load_task``)."""
        cocotb.start_soon(Clock(self.dut.clk, 8, unit="ns").start())
        self.apply_config()
        self.dut.rst.value = 1
        await ClockCycles(self.dut.clk, 4)
        cocotb.start_soon(self._per_clock())
        self.dut.rst.value = 0
        await RisingEdge(self.dut.clk)
        self.load_task = cocotb.start_soon(self.load_config())
        if wait_load:
            await self.load_task

    async def load_config(self) -> None:
        """The switch registers' image (models.swconfig), then the configuration's register
        image (models.regimage, padded to mmu_core's ports) written over AXI4-Lite; the
        admission gate must open with its last write."""
        n = await self.regs.load_switch(self.scfg, self.alter)
        n += await self.regs.load(self.cfg, PORT_COUNT, self.alter)
        await waits.until(self.dut.clk, lambda: val(self.core.mmu_cfg_done), 10,
                          "the admission gate after the image's last write")
        assert val(self.dut.err_reserve) == 0, "buffer_cells exceeds the buffer reserve"
        self.log.info("configuration: %d register writes over AXI4-Lite, loaded at clock %d",
                      n, val(self.dut.tb_clock))

    async def _per_clock(self) -> None:
        """Every falling edge out of reset: what mmu_core samples at the next edge and what it
        shows, for the predictor (common.mmu_bus.MmuMonitor); the free list's handshakes for the
        cell shadow map.  Python reads one vector per clock and the rest only on clocks that
        have something (the model steps the idle clocks in between in a batch)."""
        fl = self.core.buffer_inst.free_list_inst
        mon = self.monitor
        # the wrapper's tb_events: {pfc_xoff changed, configuration write, free-list push,
        # pop, mmu_core response, release, request} (tb/switch_core/wrapper.py)
        events = self.dut.tb_events
        clock = self.dut.tb_clock
        while True:
            await FallingEdge(self.dut.clk)
            ev = val(events)
            if not ev:
                continue
            if ev & 0b0001000:
                self.cells.allocate(cell_of(fl.pop_cell))
            if ev & 0b0010000:
                self.cells.free(cell_of(fl.push_cell))
            if ev & 0b1100111:
                mon.observe(val(clock), ev=ev)

    def sync(self) -> None:
        """The predictor up to the clock the DUT is at (call at or after a falling edge)."""
        self.pred.sync(val(self.dut.tb_clock))

    def expect(self, iport: int, eport: int, data: bytes) -> Remap:
        """The frame as the switch must store and send it, and the priority it is classified
        with (models.prevention: identity unless the build and the configuration remap it)."""
        return prevention_remap(self.prevention if PREVENT_ENABLE else None, iport, eport,
                                data, self.cfg.ports[iport].default_prio)

    def prev_stat(self, name: str, group: int) -> int:
        return (val(getattr(self.dut, name)) >> (32 * group)) & 0xFFFFFFFF

    async def send(self, port: int, data: bytes, dest: int, tuser: int = 0) -> None:
        await self.sources[port].send(AxiStreamFrame(data, tdest=dest, tuser=tuser))

    async def mmu_stats(self, addrs: list[int]) -> list[int]:
        """mmu_core status registers (word addresses, tb/mmu_core/regmap.py) over AXI4-Lite."""
        return await self.regs.read_words(addrs)

    async def mmu_stat(self, addr: int) -> int:
        return (await self.mmu_stats([addr]))[0]

    def port_stat(self, name: str, port: int) -> int:
        return (val(getattr(self.dut, name)) >> (32 * port)) & 0xFFFFFFFF

    async def wait_idle(self, timeout: int = 200000) -> None:
        """All sources sent, nothing queued or in flight in the core, and so for 8 samples
        in a row (128 clocks): a frame whose last beat has left its source is not counted as
        queued until mmu_core has answered for it, so one idle sample can fall in that gap (a
        seed of the watchdog storm saw its last frame still on its way when the sinks were
        read)."""
        stable = 0
        buf = self.core.buffer_inst
        for _ in range(timeout // 16):
            await ClockCycles(self.dut.clk, 16)
            busy = (any(not s.idle() for s in self.sources)
                    or val(self.dut.stat_queued_frames)
                    or val(buf.decide_inst.pend_valid)
                    or any((val(buf.read_inst.e_state_reg) >> (2 * p)) & 3 for p in range(PORT_COUNT))
                    or any(val(getattr(self.dut, f"m{p}_axis_tvalid")) for p in range(PORT_COUNT)))
            stable = 0 if busy else stable + 1
            if stable >= 8:
                return
        d, c = self.dut, self.core.buffer_inst
        state = dict(sources=[s.idle() for s in self.sources],
                     queued=val(d.stat_queued_frames), pend=val(c.decide_inst.pend_valid),
                     e_state=hex(val(c.read_inst.e_state_reg)), q_cnt=hex(val(c.queues_inst.q_cnt)),
                     tvalid=[val(getattr(d, f"m{p}_axis_tvalid")) for p in range(PORT_COUNT)],
                     tready=[val(getattr(d, f"m{p}_axis_tready")) for p in range(PORT_COUNT)],
                     pause=hex(val(d.stat_pause)), xoff=hex(val(d.stat_xoff)),
                     free=val(d.stat_free_cells))
        raise AssertionError(f"switch did not drain: {state}")

    async def check_drained(self) -> None:
        """Every cell free, every mmu_core counter zero, no error flag, the predictor agreeing
        on every response, pfc_xoff change and configuration write."""
        await ClockCycles(self.dut.clk, 16)
        # the walker returns dropped frames' cells after the ports went idle (one cell every
        # three clocks, up to WALK_DEPTH frames queued): wait for it within that bound, so a
        # leaked cell still fails here
        for _ in range(WALK_BOUND // 16):
            if val(self.dut.stat_free_cells) == BUFFER_CELLS:
                break
            await ClockCycles(self.dut.clk, 16)
        assert val(self.dut.stat_free_cells) == BUFFER_CELLS, \
            f"free cells {val(self.dut.stat_free_cells)} != {BUFFER_CELLS}"
        assert val(self.dut.stat_used_cells) == 0
        for name in ("err_release_underflow", "err_bad_config", "err_free_list",
                     "err_response"):
            assert val(getattr(self.dut, name)) == 0, name
        addrs = drained_status_addrs(PORT_COUNT * 8)
        got = await self.mmu_stats(addrs)
        held = [(hex(a), v) for a, v in zip(addrs, got) if v]
        assert not held, f"mmu_core counters not zero (address, value): {held[:8]}"
        await FallingEdge(self.dut.clk)
        self.sync()
        self.pred.check_loaded()
        assert not self.mismatch, f"admission differs from the model: {self.mismatch[:5]}"
        assert self.model.total_used == 0, f"model holds {self.model.total_used} cells"
        self.cells.check_drained(self.spare_cells())
        drops = val(self.dut.stat_mmu_drop_count)
        for r in range(REASON_COUNT):
            assert (drops >> (32 * r)) & 0xFFFFFFFF == self.model.drops[r], f"drop reason {r}"
        await self.check_switch_regs()
        self.log.info("predictor: %s", self.pred.summary())

    async def check_switch_regs(self) -> None:
        """The switch registers read back over AXI4-Lite (common.switch_regs): the
        configuration as written, every per-port counter as the switch shows it inside (what
        the tests' scoreboards checked), the globals of a drained switch, the admission drops
        against the model."""
        counters = ["rx_frames", "rx_bytes", "tx_frames", "tx_bytes", "drop_error",
                    "drop_runt", "drop_oversize", "drop_admission", "pfc_rx_frames",
                    "pause_rx_frames", "ctrl_unknown", "ctrl_malformed", "drop_malformed",
                    "drop_bad_dest", "drop_stall", "wd_drop_frames", "wd_fwd_frames"]
        want = switch_regs.config(self.scfg)
        want.update(switch_regs.drained(BUFFER_CELLS, self.model.drops))

        if not PORT_COUNTERS:
            # left out (PORT_COUNTERS 0): they read 0 over AXI4-Lite although the switch
            # counted inside (the counters exist in simulation; synthesis drops them)
            inside = {f"{n}[{p}]": self.port_stat(f"stat_{n}", p)
                      for n in counters if n != "drop_admission" for p in range(PORT_COUNT)}
            assert sum(v for k, v in inside.items() if k.startswith("rx_frames")), \
                "no frame received: the left-out counters' check would prove nothing"
            want.update({k: 0 for k in inside})
            counters = ["drop_admission"]

        def live() -> dict[str, int]:
            return {f"{n}[{p}]": self.port_stat(f"stat_{n}", p)
                    for n in counters for p in range(PORT_COUNT)}
        # (a storm test's partner may still send PFC frames while the registers are read)
        bad = await switch_regs.check_live(self.regs, want, live)
        assert not bad, f"switch registers (name, read, expected): {bad[:8]}"

    def spare_cells(self) -> set[int]:
        """The cells the write stage holds as its ports' spares (taken from the free list,
        not yet written)."""
        ca_w = max(1, (BUFFER_CELLS - 1).bit_length())
        valid = val(self.core.buffer_inst.write_inst.spare_valid)
        cells = val(self.core.buffer_inst.write_inst.spare_cell)
        return {(cells >> (p * ca_w)) & ((1 << ca_w) - 1) for p in range(PORT_COUNT)
                if (valid >> p) & 1}

    def pause_gen(self, rng: random.Random, busy: float):
        while True:
            yield rng.random() < busy


def split_rx(frames) -> tuple[list, list]:
    """(data frames, PFC frames) of a list of received AxiStreamFrames."""
    data, pfc = [], []
    for f in frames:
        (pfc if is_pfc(bytes(f.tdata)) else data).append(f)
    return data, pfc


def drain_sink(sink) -> list:
    out = []
    while not sink.empty():
        out.append(sink.recv_nowait())
    return out


__all__ = ["SwitchTB", "make_config", "frame", "split_rx", "drain_sink", "is_pfc", "mac",
           "PORT_COUNT", "DATA_WIDTH", "CELL_BYTES", "BUFFER_CELLS", "MAX_FRAME", "LOSSLESS",
           "reserve_cells", "defaultdict", "Ether", "Dot1Q", "ipv4_checksum_ok", "PREVENT_ENABLE",
           "GROUP_W", "CellShadow", "STALL_CLOCKS"]
