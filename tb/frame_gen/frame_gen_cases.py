"""frame_gen and frame_check (board self-test traffic): the generator's frames parse with
Scapy as specified; the checker passes good frames and counts corrupt, misrouted, reordered and
lost ones (each fault injected on purpose)."""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from scapy.layers.l2 import Dot1Q, Ether

DW = int(os.environ.get("PARAM_DATA_WIDTH", "8"))


def test_frame(src, dest, prio, seq, length):
    """The frame frame_gen sends (no FCS), built independently with Scapy."""
    hdr = Ether(dst=f"02:00:00:00:00:{dest:02x}", src=f"02:00:00:00:00:{src:02x}",
                type=0x8100) / Dot1Q(prio=prio, vlan=1, type=0x88B5)
    body = seq.to_bytes(4, "big") + bytes(((seq + i) & 0xFF) ^ src for i in range(22, length))
    return bytes(hdr) + body


async def reset(dut):
    cocotb.start_soon(Clock(dut.clk, 8, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    await RisingEdge(dut.clk)


@cocotb.test()
async def generator_frames(dut):
    """frame_gen: frames match the Scapy-built reference; a paused priority starts nothing."""
    dut.enable.value = 0
    dut.pause.value = 0
    dut.cfg_dest.value = 2
    dut.cfg_prio.value = 3
    dut.cfg_len.value = 64
    dut.cfg_gap.value = 0
    await reset(dut)
    sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk, dut.rst)
    rng = random.Random(cocotb.RANDOM_SEED)
    seqs = [0] * 8
    for n in range(12):
        prio, length, dest = rng.randrange(8), rng.choice([64, 65, 100, 127, 300]), rng.randrange(4)
        dut.cfg_prio.value = prio
        dut.cfg_len.value = length
        dut.cfg_dest.value = dest
        dut.enable.value = 1
        await RisingEdge(dut.clk)
        dut.enable.value = 0
        rx = await sink.recv()
        exp = test_frame(1, dest, prio, seqs[prio], length)
        seqs[prio] += 1
        assert bytes(rx.tdata) == exp, f"frame {n}: {bytes(rx.tdata).hex()} != {exp.hex()}"
        assert rx.tdest == dest
        pkt = Ether(bytes(rx.tdata))
        assert pkt[Dot1Q].prio == prio and pkt[Dot1Q].type == 0x88B5
    # pause priority 5: no frame starts while paused
    dut.pause.value = 1 << 5
    dut.cfg_prio.value = 5
    dut.enable.value = 1
    await ClockCycles(dut.clk, 50)
    assert sink.empty(), "paused priority sent a frame"
    assert int(dut.stat_paused_cycles.value) > 0
    dut.pause.value = 0
    rx = await sink.recv()
    dut.enable.value = 0
    assert Ether(bytes(rx.tdata))[Dot1Q].prio == 5


@cocotb.test()
async def checker_counts_faults(dut):
    """frame_check: good frames counted ok; each injected fault lands in its own counter."""
    dut.cfg_lossless.value = 1 << 3
    dut.s_axis_tready.value = 1  # a tap: the checker never back-pressures
    await reset(dut)
    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)

    async def send(data):
        await src.send(AxiStreamFrame(data))
        await src.wait()
        # frame_check is pipelined: its counters follow the last beat by six clocks
        await ClockCycles(dut.clk, 8)

    await send(test_frame(1, 0, 3, 0, 64))            # ok
    await send(test_frame(1, 0, 3, 1, 200))           # ok
    await send(test_frame(2, 0, 0, 0, 64))            # ok (another flow)
    assert int(dut.stat_frames_ok.value) == 3 and not int(dut.error.value)
    bad = bytearray(test_frame(1, 0, 3, 2, 100))
    bad[60] ^= 0x10
    await send(bytes(bad))                            # corrupt payload
    assert int(dut.stat_corrupt.value) == 1
    bad = bytearray(test_frame(1, 0, 3, 2, 64))
    bad[22] ^= 0x01
    await send(bytes(bad))                            # first payload octet (after the header)
    assert int(dut.stat_corrupt.value) == 2
    await send(test_frame(1, 1, 3, 2, 64))            # wrong destination port
    assert int(dut.stat_misrouted.value) == 1
    await send(test_frame(1, 0, 3, 4, 64))            # seq 2, 3 lost on lossless prio 3
    assert int(dut.stat_lost.value) == 2
    await send(test_frame(1, 0, 3, 1, 64))            # goes backwards: reorder
    assert int(dut.stat_reorder.value) == 1
    await send(test_frame(2, 0, 0, 5, 64))            # lossy gap: expected, not an error
    assert int(dut.stat_gaps.value) == 4
    pfc = bytes(Ether(dst="01:80:c2:00:00:01", type=0x8808)) + bytes(46)
    await send(pfc)                                   # not a test frame
    assert int(dut.stat_other.value) == 1
    assert int(dut.stat_frames_ok.value) == 5
    assert int(dut.error.value) == 1
