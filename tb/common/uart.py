"""8N1 reception for the benches: cocotbext-uart's ``UartSink`` decodes the characters; this
wrapper adds the framing checks the sink does not make (start bit low and stop bit high at
their middles, sampled where the sink samples the data bits) and bounded waits
(common.waits) that name the character waited for."""

from __future__ import annotations

import logging

import cocotb
from cocotb.triggers import FallingEdge, First, RisingEdge, Timer
from cocotbext.uart import UartSink

from common import waits


class UartReceiver:
    """The characters of one ``txd`` line at ``bit_ns`` per bit (an integer number of ns, so
    the sink's ``int(1e9 / baud)`` bit time is exact)."""

    def __init__(self, txd, bit_ns: int):
        baud = 1e9 / bit_ns
        assert int(1e9 / baud) == bit_ns and int(1e9 / baud / 2) * 2 == bit_ns, \
            f"a bit time of {bit_ns} ns is not exact in UartSink (whole, even ns)"
        self.txd = txd
        self.bit_ns = bit_ns
        self.sink = UartSink(txd, baud=baud, bits=8, stop_bits=1)
        # one line per character at INFO would bury the bench's own log
        self.sink.log.setLevel(logging.WARNING)
        self.framing_errors: list[str] = []
        self.characters = 0      # framed (start and stop bit sampled)
        self.received = 0        # taken from the sink
        self._framing_task = cocotb.start_soon(self._framing())

    @classmethod
    async def when_idle(cls, txd, bit_ns: int) -> "UartReceiver":
        """A receiver started once ``txd`` has been high for a whole character (start, 8 data
        bits, stop: 10 bit times) and a bit more, so that it never starts inside a character
        (a receiver started there takes a data bit for a start bit: framing errors)."""
        quiet = 11 * bit_ns
        while True:
            if int(txd.value) == 1:
                edge = FallingEdge(txd)
                if await First(edge, Timer(quiet, "ns")) is not edge:
                    return cls(txd, bit_ns)
            else:
                await RisingEdge(txd)

    async def _framing(self):
        """Start and stop bit of every character, at the sink's sampling points."""
        half = Timer(self.bit_ns // 2, "ns")
        to_stop = Timer(9 * self.bit_ns, "ns")
        while True:
            await FallingEdge(self.txd)
            await half
            if int(self.txd.value) != 0:
                self.framing_errors.append(f"character {self.characters}: start bit not low")
            await to_stop
            if int(self.txd.value) != 1:
                self.framing_errors.append(f"character {self.characters}: stop bit not high")
            self.characters += 1

    async def _check_framing(self):
        # the sink delivers a character at the middle of its stop bit, the time _framing
        # samples it: let that sample happen first
        if self.characters < self.received:
            await Timer(1, "ns")
        assert not self.framing_errors, f"UART framing: {self.framing_errors}"

    async def read_byte(self, within_ns: float, what: str) -> int:
        """The next character, failing when none has been received ``within_ns``."""
        if self.sink.empty():
            await waits.trigger(self.sink.wait(), within_ns, what)
        byte = self.sink.read_nowait(1)[0]
        self.received += 1
        await self._check_framing()
        return byte

    async def read(self, n: int, first_ns: float) -> bytes:
        """``n`` characters back to back, the first within ``first_ns``."""
        out = bytearray()
        for i in range(n):
            # a character follows the previous one within 12 bit times
            out.append(await self.read_byte(first_ns if not out else 12 * self.bit_ns,
                                            f"UART character {i}"))
        return bytes(out)

    async def read_line(self, first_ns: float, max_len: int = 256) -> str:
        """One line, up to and including ``\\n``, its first character within ``first_ns``."""
        out = bytearray()
        while not out.endswith(b"\n"):
            assert len(out) < max_len, \
                f"no end of line after {len(out)} UART characters: {out[:64]!r}"
            out.append(await self.read_byte(first_ns if not out else 12 * self.bit_ns,
                                            f"UART character {len(out)}"))
        return out.decode()
