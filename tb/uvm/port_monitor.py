"""Passive half of a port agent: every frame into and out of one switch port.

Analysis ports: ``ap_in`` data frames into the switch (bad ones included), ``ap_out`` data
frames out, ``ap_pfc_out`` PFC frames the switch sent (parsed with Scapy
MACControlClassBasedFlowControl), ``ap_pfc_in`` PFC frames into the switch.

The beats are watched in HDL (tb/system/tb_axis_port.v): Python wakes once per frame, when
the port's record of a finished frame changes.  Out of the switch: the frame's words are read
from the port's monitor ring, packed by tkeep (byte for byte what the switch sent).  Into the
switch: the frame is the head of the driver's ring (the ring sends exactly its bytes), with
the clocks of its first and last beat as the switch took them.  Every record carries a
sequence number, so a frame the Python side missed is an error, not a silent gap.
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ValueChange
from pyuvm import ConfigDB, uvm_analysis_port, uvm_monitor

from .frames import is_pfc, parse_pfc
from .observed_frame import ObservedFrame

M48 = (1 << 48) - 1
MON_WORDS = 1 << 12  # tb_axis_port MON_AW


def beats_to_bytes(words: list[int], keeps: list[int], beat_bytes: int) -> bytes:
    """A frame's bytes from its beats (tdata little-endian, byte b valid when tkeep bit b is
    set), as cocotbext-axi's AxiStreamMonitor packs them."""
    out = bytearray()
    full = (1 << beat_bytes) - 1
    for w, k in zip(words, keeps):
        b = w.to_bytes(beat_bytes, "little")
        if k == full:
            out += b
        elif k & (k + 1) == 0:  # a run of ones from bit 0
            out += b[:k.bit_length()]
        else:
            out += bytes(b[i] for i in range(beat_bytes) if k >> i & 1)
    return bytes(out)


class PortMonitor(uvm_monitor):
    def build_phase(self):
        self.cfg = ConfigDB().get(self, "", "env_cfg")
        self.port = ConfigDB().get(self, "", "port")
        self.ap_in = uvm_analysis_port("ap_in", self)
        self.ap_out = uvm_analysis_port("ap_out", self)
        self.ap_pfc_in = uvm_analysis_port("ap_pfc_in", self)
        self.ap_pfc_out = uvm_analysis_port("ap_pfc_out", self)
        self.count = {"in": 0, "out": 0, "pfc_in": 0, "pfc_out": 0}
        self.driver = None  # set by an active agent: the frames its ring sends
        self.errors: list[str] = []

    def start_of_simulation_phase(self):
        self.hw = getattr(cocotb.top, f"port{self.port}")
        self.beat_bytes = self.cfg.data_width // 8

    def _cycle(self, t_ns: int) -> int:
        return int(t_ns // self.cfg.timing.clk_ns)

    async def run_phase(self):
        cocotb.start_soon(self._watch_in())
        await self._watch_out()

    def _publish(self, direction: str, data: bytes, dest: int, bad: bool, start: int,
                 end: int) -> None:
        pfc = None
        if is_pfc(data) and not bad:
            try:
                pfc = parse_pfc(data)
            except ValueError:
                pfc = None
        obs = ObservedFrame(self.port, direction, data, dest, bad, start, end, pfc)
        if pfc is not None:
            self.count["pfc_" + direction] += 1
            (self.ap_pfc_in if direction == "in" else self.ap_pfc_out).write(obs)
        else:
            self.count[direction] += 1
            (self.ap_in if direction == "in" else self.ap_out).write(obs)

    def _missed(self, what: str, seq: int, last: int) -> None:
        msg = f"port {self.port} {what}: record {seq} after {last} (frames missed)"
        if len(self.errors) < 10:
            self.errors.append(msg)

    async def _watch_in(self):
        rec = self.hw.in_rec
        last = 0
        while True:
            await ValueChange(rec)
            v = int(rec.value)
            seq = v >> 96
            if seq == 0:  # reset
                last = 0
                continue
            if seq != last + 1:
                self._missed("ingress", seq, last)
            last = seq
            drv = self.driver
            if drv is None or not drv.in_ring:
                self._missed("ingress frame with nothing sent", seq, last)
                continue
            item = drv.in_ring.popleft()
            self._publish("in", item.data, item.dest, item.bad,
                          self._cycle((v >> 48) & M48), self._cycle(v & M48))
            drv.fill()

    async def _watch_out(self):
        rec = self.hw.out_rec
        words, keeps = self.hw.mon_data, self.hw.mon_keep
        bb = self.beat_bytes
        full = (1 << bb) - 1
        last = 0
        while True:
            await ValueChange(rec)
            v = int(rec.value)
            seq = v >> 240
            if seq == 0:
                last = 0
                continue
            if seq != last + 1:
                self._missed("egress", seq, last)
            last = seq
            start = self._cycle((v >> 192) & M48)
            end = self._cycle((v >> 144) & M48)
            first = (v >> 128) & 0xFFFF
            beats = (v >> 112) & 0xFFFF
            bad = bool(v >> 111 & 1)
            irregular = bool(v >> 110 & 1)
            idx = [(first + i) % MON_WORDS for i in range(beats)]
            raw = [int(words[i].value) for i in idx]
            if irregular:
                keep = [int(keeps[i].value) for i in idx]
            else:  # full on every beat but the last: only the last one is needed
                keep = [full] * (beats - 1) + [int(keeps[idx[-1]].value)]
            data = beats_to_bytes(raw, keep, bb)
            self._publish("out", data, 0, bad, start, end)
