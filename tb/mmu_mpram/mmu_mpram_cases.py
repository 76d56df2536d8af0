"""mmu_mpram: every read port returns, OUT_REG + 2 clocks after its address, the entry as
written at the edges up to and including the address's edge (write port 1 winning a tie),
zero for an entry not written since reset; with WR_EARLY the enable and address come a clock
before the data, and the write is made at the data's edge.

Reads of an entry written at the very edge the read takes place (a clock after the address)
are part of the traffic on purpose: they must return the entry before that write (the core's
status and configuration-flag reads rely on it), for the distributed-RAM and the block RAM
banks (BRAM_DEPTH).  Any read returning X fails."""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

DEPTH = int(os.environ["PARAM_DEPTH"])
WIDTH = int(os.environ["PARAM_WIDTH"])
ADDR_W = int(os.environ["PARAM_ADDR_W"])
WP = int(os.environ["PARAM_WRITE_PORTS"])
RP = int(os.environ["PARAM_READ_PORTS"])
OUT_REG = int(os.environ["PARAM_OUT_REG"])
WR_EARLY = int(os.environ["PARAM_WR_EARLY"])
LATENCY = 2 + OUT_REG          # address edge n -> data after edge n + 1 + OUT_REG
# test only (the bench's negative): the model lets write port 0 win a tie, the wrong rule
MODEL_FAULT = os.environ.get("MPRAM_MODEL_FAULT") == "1"


def pack(values, width):
    out = 0
    for i, v in enumerate(values):
        out |= v << (i * width)
    return out


def unpack(value, width, n):
    return [(value >> (i * width)) & ((1 << width) - 1) for i in range(n)]


@cocotb.test()
async def random_traffic(dut):
    """Random writes on every write port and reads on every read port, collisions and
    same-entry writes of both ports included, a reset in the middle: each read against the
    entries' model."""
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    rng = random.Random(cocotb.RANDOM_SEED)
    dut.rst.value = 1
    dut.wr_en.value = 0
    dut.wr_addr.value = 0
    dut.wr_data.value = 0
    dut.rd_addr.value = 0
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0

    mem = {}                       # entry -> word (absent: not written since reset)
    early = [None] * WP            # WR_EARLY: (enable, address) presented at the last edge
    due = {}                       # edge index -> [(port, expected, address)]
    steps = 4000
    reset_at = steps // 2
    hot = [rng.randrange(DEPTH) for _ in range(3)]   # a few entries hit over and over
    checked = collided = 0
    edge = 0
    quiet_until = -1
    for step in range(steps + LATENCY + 2):
        live = step < steps
        in_reset = reset_at <= step < reset_at + 3
        # inputs for the next rising edge
        wr = []
        for p in range(WP):
            en = live and not in_reset and rng.random() < 0.6
            a = rng.choice(hot + [rng.randrange(DEPTH)])
            wr.append((en, a, rng.getrandbits(WIDTH)))
        rd = [rng.choice(hot + [rng.randrange(DEPTH), 0, DEPTH - 1]) for _ in range(RP)]
        dut.rst.value = int(in_reset)
        dut.wr_en.value = pack([int(e) for e, _, _ in wr], 1)
        dut.wr_addr.value = pack([a for _, a, _ in wr], ADDR_W)
        dut.rd_addr.value = pack(rd, ADDR_W)
        # the data of this edge: WR_EARLY takes the data of the write announced an edge ago
        if WR_EARLY:
            data = [rng.getrandbits(WIDTH) for _ in range(WP)]
            dut.wr_data.value = pack(data, WIDTH)
            writes = [(early[p][0], early[p][1], data[p]) if early[p] else (False, 0, 0)
                      for p in range(WP)]
            early = [(e, a) for e, a, _ in wr]
        else:
            dut.wr_data.value = pack([d for _, _, d in wr], WIDTH)
            writes = wr
        await FallingEdge(dut.clk)   # the rising edge `edge` has happened
        if in_reset:
            mem.clear()
            early = [None] * WP
            due.clear()               # reads in flight at a reset are not checked
            quiet_until = edge + LATENCY + 1
        else:
            order = range(WP - 1, -1, -1) if MODEL_FAULT else range(WP)
            for p in order:           # port 1 after port 0: it wins a tie
                en, a, d = writes[p]
                if en:
                    mem[a] = d
        if live and not in_reset and edge > quiet_until:
            due.setdefault(edge + LATENCY - 1, []).extend(
                (r, mem.get(rd[r], 0), rd[r]) for r in range(RP))
        for r, want, a in due.pop(edge, []):
            raw = dut.rd_data.value
            if not raw.is_resolvable:
                assert False, f"edge {edge}: read port {r} entry {a} is X ({raw})"
            got = unpack(int(raw), WIDTH, RP)[r]
            assert got == want, f"edge {edge}: read port {r} entry {a} got {got:#x} want {want:#x}"
            checked += 1
        edge += 1
    assert checked > steps, checked
    dut._log.info("reads checked: %d", checked)
