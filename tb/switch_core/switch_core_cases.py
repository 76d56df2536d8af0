"""switch_core cocotb tests: forwarding, VLAN PCP mapping, untagged, PFC consumed and pausing,
bad frames, randomized traffic against the golden admission model, congestion with PFC, and
the line-rate benchmark."""

from __future__ import annotations

import random

import cocotb
import pytest
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from scapy.contrib.mac_control import MACControlClassBasedFlowControl
from scapy.layers.l2 import Dot1Q, Ether

from switch_core.sc_tb import (BUFFER_CELLS, CELL_BYTES, DATA_WIDTH, GROUP_W, LOSSLESS,
                               MAX_FRAME, PORT_COUNT, PREVENT_ENABLE, SwitchTB, defaultdict,
                               drain_sink, frame, ipv4_checksum_ok, is_pfc, mac, make_config,
                               split_rx)
from switch_core.sc_tb import WALK_BOUND
from common.pfc_frames import parse_pfc, pfc_frame
from common import waits
from harness import scaled


async def recv_data(tb, port, n, timeout=20000):
    """n data frames from port's sink (PFC frames skipped)."""
    out = []
    for _ in range(timeout):
        while not tb.sinks[port].empty():
            f = tb.sinks[port].recv_nowait()
            if not is_pfc(bytes(f.tdata)):
                out.append(f)
        if len(out) >= n:
            return out
        await RisingEdge(tb.dut.clk)
    raise AssertionError(f"port {port}: {len(out)} of {n} frames")


@cocotb.test()
async def forwarding(dut):
    """One frame from every port to every port arrives unchanged on the right port only."""
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    sent = {}
    for src in range(PORT_COUNT):
        for dst in range(PORT_COUNT):
            f = frame(src, dst, 1, src * 16 + dst, 60 + 37 * dst + 11 * src)
            sent.setdefault(dst, []).append(f)
            await tb.send(src, f, dst)
    for dst in range(PORT_COUNT):
        rx = await recv_data(tb, dst, PORT_COUNT)
        assert sorted(bytes(r.tdata) for r in rx) == sorted(sent[dst])
    await tb.wait_idle()
    for dst in range(PORT_COUNT):
        assert not split_rx(drain_sink(tb.sinks[dst]))[0]
        assert tb.port_stat("stat_tx_frames", dst) == PORT_COUNT
        assert tb.port_stat("stat_rx_frames", dst) == PORT_COUNT
    await tb.check_drained()


@cocotb.test()
async def pcp_mapping(dut):
    """PCP -> PG by the ingress port's map, PCP -> queue by the egress port's map; untagged
    frames take the ingress port's default priority."""
    p2g = [7, 6, 5, 4, 3, 2, 1, 0]
    p2q = [1, 2, 3, 4, 5, 6, 7, 0]
    cfg = make_config(prio_to_pg=p2g, prio_to_queue=p2q, default_prio=5)
    tb = SwitchTB(dut, cfg)
    await tb.reset()
    n = 0
    for prio in list(range(8)) + [None]:
        f = frame(0, 1, prio, n, 80)
        await tb.send(0, f, 1)
        n += 1
    await recv_data(tb, 1, n)
    await tb.wait_idle()
    seen = [(d[1], d[3]) for d in tb.decisions]
    want = [(p2g[p], p2q[p]) for p in range(8)] + [(p2g[5], p2q[5])]
    assert seen == want, f"(pg, queue) per frame {seen} != {want}"
    await tb.check_drained()


@cocotb.test()
async def bad_frames_dropped(dut):
    """Errored (tuser), runt (< 60 bytes) and oversize (> max) frames are dropped and counted,
    never stored; PFC frames are consumed; good frames in between pass."""
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    good = [frame(2, 3, 0, i, 64 + i) for i in range(4)]
    await tb.send(2, good[0], 3)
    await tb.send(2, frame(2, 3, 0, 100, 300), 3, tuser=1)
    await tb.send(2, good[1], 3)
    await tb.send(2, frame(2, 3, 0, 101, 60)[:59], 3)
    await tb.send(2, good[2], 3)
    await tb.send(2, frame(2, 3, 0, 102, MAX_FRAME + 1), 3)
    await tb.send(2, frame(2, 3, 0, 103, MAX_FRAME), 3)
    xon = bytes(Ether(dst="01:80:c2:00:00:01", src=mac(9)) /
                MACControlClassBasedFlowControl(c1_enabled=1, c1_pause_time=0))
    await tb.send(2, xon, 3)
    await tb.send(2, good[3], 3)
    rx = await recv_data(tb, 3, 5)
    assert [bytes(r.tdata) for r in rx] == good[:3] + [frame(2, 3, 0, 103, MAX_FRAME)] + good[3:]
    await tb.wait_idle()
    assert tb.port_stat("stat_drop_error", 2) == 1
    assert tb.port_stat("stat_drop_runt", 2) == 1
    assert tb.port_stat("stat_drop_oversize", 2) == 1
    assert tb.port_stat("stat_pfc_rx_frames", 2) == 1
    assert tb.port_stat("stat_rx_frames", 2) == 9
    assert tb.requests == 5, "only good frames reach mmu_core"
    assert val_low_wm(tb) < BUFFER_CELLS
    await tb.check_drained()


def val_low_wm(tb):
    return int(tb.dut.stat_free_low_wm.value)


def flow_of(data: bytes) -> tuple[int, int, int | None]:
    """(ingress port, egress port, PCP or None if untagged) of one of our frames, from its
    headers as they leave the switch.  Frames of one key share one queue, so their order
    holds (untagged frames of one port pair are classified alike)."""
    pkt = Ether(data)
    prio = pkt[Dot1Q].prio if Dot1Q in pkt else None
    return data[11], data[5], prio


def random_frame(r: random.Random, p: int, dst: int, i: int) -> bytes:
    """The default random frame: tagged (90 %) Ether / Dot1Q / IP, 60 .. MAX_FRAME bytes."""
    prio = None if r.random() < 0.1 else r.randrange(8)
    x = r.random()
    length = (r.randint(60, 128) if x < 0.75 else r.randint(129, 400) if x < 0.97
              else r.randint(401, MAX_FRAME))
    return frame(p, dst, prio, i, length)


async def random_run(dut, tb, seed: int, total: int, make_frame=random_frame,
                     min_admitted: int | None = None) -> dict:
    """Random traffic on every port with random sink back-pressure, then the scoreboard: every
    admitted frame comes out once, as the model expects it (models.prevention: unchanged, or
    remapped and rewritten), in order per flow_of key; every mmu_core request carries the
    PG / queue of the model's priority; every IPv4 frame out has a valid header checksum
    (Scapy); every drop is one the golden model makes; the buffer drains to all-free.
    ``min_admitted`` (default total // 4): fewer admitted frames fail the run as vacuous.
    Returns the counts (and the remapped frames per group)."""
    rng = random.Random(seed)
    for p in range(PORT_COUNT):
        busy = rng.choice([0.0, 0.2, 0.5, 0.7])
        tb.sinks[p].set_pause_generator(tb.pause_gen(random.Random(seed + p), busy))
    good = {p: [] for p in range(PORT_COUNT)}
    local_drops = 0

    async def sender(p: int, n: int):
        nonlocal local_drops
        r = random.Random(seed * 31 + p)
        for i in range(n):
            dst = r.randrange(PORT_COUNT)
            f = make_frame(r, p, dst, i)
            y = r.random()
            if y < 0.01:
                await tb.send(p, f, dst, tuser=1)
                local_drops += 1
            elif y < 0.02:
                await tb.send(p, f[:r.randint(20, 59)], dst)
                local_drops += 1
            else:
                good[p].append(f)
                await tb.send(p, f, dst)
            if r.random() < 0.05:
                await tb.sources[p].wait()
                await ClockCycles(dut.clk, r.randint(1, 40))

    tasks = [cocotb.start_soon(sender(p, total // PORT_COUNT)) for p in range(PORT_COUNT)]
    for t in tasks:
        await t
    await tb.wait_idle(timeout=2_000_000)
    # pair every mmu_core request with the frame it came from (per port, in order)
    it = {p: iter(good[p]) for p in range(PORT_COUNT)}
    expect = {}
    admitted = dropped = 0
    groups = {"frames": defaultdict(int), "untagged": defaultdict(int)}
    for (port, pg, eport, queue, length, admit, reason) in tb.decisions:
        f = next(it[port])
        assert len(f) == length and f[5] == eport, "request does not match the frame sent"
        exp = tb.expect(port, eport, f)
        assert pg == tb.cfg.ports[port].prio_to_pg[exp.prio], \
            f"frame {port} -> {eport}: PG {pg}, model priority {exp.prio}"
        if eport < PORT_COUNT:
            assert queue == tb.cfg.ports[eport].prio_to_queue[exp.prio], \
                f"frame {port} -> {eport}: queue {queue}, model priority {exp.prio}"
        if exp.remapped:
            g = tb.prevention.port_group[port]
            groups["frames"][g] += 1
            groups["untagged"][g] += not exp.tagged
        if admit:
            expect.setdefault(flow_of(exp.data), []).append(exp.data)
            admitted += 1
        else:
            dropped += 1
    for p in range(PORT_COUNT):
        assert next(it[p], None) is None, f"port {p}: a good frame never reached mmu_core"
    got = {}
    pfc_seen = 0
    for p in range(PORT_COUNT):
        data, pfc = split_rx(drain_sink(tb.sinks[p]))
        pfc_seen += len(pfc)
        for f in data:
            b = bytes(f.tdata)
            assert b[5] == p, "frame left on the wrong port"
            assert ipv4_checksum_ok(b) is not False, f"bad IPv4 header checksum: {b[:40].hex()}"
            got.setdefault(flow_of(b), []).append(b)
    for k in set(expect) | set(got):
        e, g = expect.get(k, []), got.get(k, [])
        assert g == e, f"flow {k}: {len(g)} frames out, {len(e)} admitted (or order/content)"
    dut._log.info("random: %d frames sent, %d admitted and received, %d dropped by "
                  "mmu_core, %d dropped as bad, %d PFC frames out, remapped per group %s",
                  total, admitted, dropped, local_drops, pfc_seen, dict(groups["frames"]))
    for name in ("frames", "untagged"):
        for g in range(1 << GROUP_W):
            assert tb.prev_stat(f"stat_prev_{name}", g) == groups[name][g], \
                f"stat_prev_{name}[{g}]"
    # not a vacuous run (every drop was checked against the golden model above; a seed that
    # back-pressures two sinks at 70 % legitimately drops about half: COCOTB_RANDOM_SEED
    # 1795447101 admitted 2331 of 5000, which the earlier "> total // 2" rejected)
    floor = total // 4 if min_admitted is None else min_admitted
    assert admitted > floor, f"only {admitted} of {total} frames admitted (floor {floor})"
    await tb.check_drained()
    return dict(admitted=admitted, dropped=dropped, groups=groups)


@cocotb.test()
async def random_traffic(dut):
    """Random traffic on every port with random back-pressure against the golden models
    (random_run)."""
    import os
    seed = cocotb.RANDOM_SEED
    total = int(os.environ.get("SC_FRAMES") or scaled(5000))
    dut._log.info("random_traffic: seed %d, %d frames", seed, total)
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    await random_run(dut, tb, seed, total)


@cocotb.test()
async def pfc_pauses_egress(dut):
    """A PFC frame arriving on port 1 is consumed and pauses only that priority of port 1's
    egress; XON resumes it."""
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    xoff = pfc_frame(mac(9), 1 << 5, [0, 0, 0, 0, 0, 0xFFFF, 0, 0])
    await tb.send(1, xoff, 0)
    await tb.sources[1].wait()
    await ClockCycles(dut.clk, 20)
    assert (int(dut.stat_pause.value) >> 8) & 0xFF == 1 << 5
    hold = frame(0, 1, 5, 1, 100)
    passes = [frame(0, 1, 2, 2, 100), frame(2, 1, 6, 3, 90)]
    await tb.send(0, hold, 1)
    await tb.send(0, passes[0], 1)
    await tb.send(2, passes[1], 1)
    rx = await recv_data(tb, 1, 2)
    assert sorted(bytes(r.tdata) for r in rx) == sorted(passes)
    await ClockCycles(dut.clk, 500)
    assert split_rx(drain_sink(tb.sinks[1]))[0] == [], "paused priority 5 was sent"
    assert tb.port_stat("stat_pfc_rx_frames", 1) == 1
    await tb.send(1, pfc_frame(mac(9), 1 << 5, [0] * 8), 0)
    rx = await recv_data(tb, 1, 1)
    assert bytes(rx[0].tdata) == hold
    await tb.wait_idle()
    for p in range(PORT_COUNT):
        assert not split_rx(drain_sink(tb.sinks[p]))[0], "a PFC frame was forwarded"
    await tb.check_drained()


@cocotb.test()
async def congestion_pfc(dut):
    """Ports 0 and 1 send lossless (PCP 3) and lossy (PCP 1) traffic to port 2, which drains
    slowly: port 2's buffer share fills, mmu_core sets XOFF for PG 3 of ports 0 and 1, their
    transmit streams carry PFC frames for priority 3 (parsed with Scapy), the senders honour
    them; lossy frames are dropped, lossless ones are not."""
    seed = cocotb.RANDOM_SEED
    rng = random.Random(seed)
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    tb.sinks[2].set_pause_generator(tb.pause_gen(rng, 0.75))
    paused = {0: 0, 1: 0}
    pfc_rx = {0: [], 1: [], 3: []}
    done = False

    async def watch(p):
        while not done:
            for f in drain_sink(tb.sinks[p]):
                b = bytes(f.tdata)
                if is_pfc(b):
                    st = parse_pfc(b, has_fcs=False)
                    pfc_rx[p].append(st)
                    paused[p] = (paused[p] | st.xoff()) & ~st.xon()
            await RisingEdge(dut.clk)

    async def sender(p, n):
        r = random.Random(seed + p)
        for i in range(n):
            prio = 3 if r.random() < 0.5 else 1
            if prio == 3:
                await waits.until(dut.clk, lambda: not paused[p] >> 3 & 1, 200_000,
                                  f"XON for priority 3 on port {p}")
            await tb.send(p, frame(p, 2, prio, i, r.randint(60, 300)), 2)
            await tb.sources[p].wait()

    watchers = [cocotb.start_soon(watch(p)) for p in (0, 1, 3)]
    # enough frames to fill port 2's share and cross XOFF at any TB_SCALE
    senders = [cocotb.start_soon(sender(p, scaled(300, low=100))) for p in (0, 1)]
    for s in senders:
        await s
    tb.sinks[2].clear_pause_generator()
    tb.sinks[2].pause = False
    await tb.wait_idle(timeout=20000)
    done = True
    for w in watchers:
        await w
    lossless_drops = [d for d in tb.decisions if d[1] in LOSSLESS and not d[5]]
    lossy_drops = [d for d in tb.decisions if d[1] not in LOSSLESS and not d[5]]
    dut._log.info("congestion: PFC frames port0 %d port1 %d, lossy drops %d",
                  len(pfc_rx[0]), len(pfc_rx[1]), len(lossy_drops))
    assert not lossless_drops, f"lossless frames dropped: {lossless_drops[:3]}"
    assert lossy_drops, "no lossy frame was dropped (no congestion?)"
    for p in (0, 1):
        assert any(st.xoff() == 1 << 3 for st in pfc_rx[p]), f"port {p} got no XOFF for prio 3"
        assert all((st.xoff() | st.xon()) & ~(1 << 3) == 0 for st in pfc_rx[p])
    assert not pfc_rx[3], "port 3 sent nothing and must not be paused"
    await tb.check_drained()


@cocotb.test()
async def line_rate_benchmark(dut):
    """Every port receives and sends back-to-back 64-byte frames (port p -> p+1): prints the
    frames per clock per port achieved (ideal: DATA_WIDTH / 512)."""
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    n = 300 if DATA_WIDTH == 64 else 60
    for p in range(PORT_COUNT):
        for i in range(n):
            tb.sources[p].send_nowait(
                __import__("cocotbext.axi", fromlist=["AxiStreamFrame"]).AxiStreamFrame(
                    frame(p, (p + 1) % PORT_COUNT, 0, i, 64), tdest=(p + 1) % PORT_COUNT))
    first = {}
    last = {}
    count = {p: 0 for p in range(PORT_COUNT)}
    stall = {p: 0 for p in range(PORT_COUNT)}
    gap = {p: 0 for p in range(PORT_COUNT)}
    cyc = 0
    while min(count.values()) < n and cyc < 200 * n * 64 // DATA_WIDTH:
        await RisingEdge(dut.clk)
        cyc += 1
        for p in range(PORT_COUNT):
            sv = int(getattr(dut, f"s{p}_axis_tvalid").value)
            sr = int(getattr(dut, f"s{p}_axis_tready").value)
            if count[p] < n - 10 and first.get(p):
                stall[p] += sv and not sr
                gap[p] += not sv
            if int(getattr(dut, f"m{p}_axis_tvalid").value) and \
                    int(getattr(dut, f"m{p}_axis_tready").value) and \
                    int(getattr(dut, f"m{p}_axis_tlast").value):
                count[p] += 1
                first.setdefault(p, cyc)
                last[p] = cyc
    ideal = DATA_WIDTH / 8 / 64  # one 64-byte frame per 64*8/DATA_WIDTH beats
    for p in range(PORT_COUNT):
        rate = (count[p] - 1) / max(1, last[p] - first[p])
        dut._log.info("BENCHMARK DATA_WIDTH=%d port %d: %.4f frames/clock (ideal %.4f, %.1f%%)",
                      DATA_WIDTH, p, rate, ideal, 100 * rate / ideal)
        dut._log.info("BENCHMARK port %d: ingress back-pressure %d clocks, source idle %d "
                      "clocks (testbench source gaps)", p, stall[p], gap[p])
        rx_rate = tb.port_stat("stat_rx_frames", p)
        assert rx_rate >= count[p]
    await tb.wait_idle()
    drops = [d for d in tb.decisions if not d[5]]
    dut._log.info("BENCHMARK drops: %d", len(drops))
    for p in range(PORT_COUNT):
        drain_sink(tb.sinks[p])
    await tb.check_drained()


@cocotb.test()
async def prevention_off_ignores_config(dut):
    """A build without PREVENT_ENABLE ignores a prevention configuration: same-group frames of
    a protected priority leave unchanged, with their own PG / queue, and stat_prev_* read 0."""
    from models.prevention import PreventionConfig
    assert not PREVENT_ENABLE
    cfg = make_config(prio_to_pg=[7, 6, 5, 4, 3, 2, 1, 0])
    prev = PreventionConfig(port_group=[1] * PORT_COUNT, enable=0xFF, alt_prio=[6] * 8,
                            alt_dscp=[46] * 8, group_w=GROUP_W)
    tb = SwitchTB(dut, cfg, prevention=prev)
    await tb.reset()
    sent = [frame(0, 1, k, k, 80) for k in range(8)] + [frame(0, 1, None, 9, 90)]
    for f in sent:
        await tb.send(0, f, 1)
    rx = await recv_data(tb, 1, len(sent))
    assert sorted(bytes(r.tdata) for r in rx) == sorted(sent)
    await tb.wait_idle()
    assert [d[1] for d in tb.decisions] == [cfg.ports[0].prio_to_pg[k] for k in range(8)] + \
        [cfg.ports[0].prio_to_pg[cfg.ports[0].default_prio]]
    for g in range(1 << GROUP_W):
        assert tb.prev_stat("stat_prev_frames", g) == 0
        assert tb.prev_stat("stat_prev_untagged", g) == 0
    await tb.check_drained()


@cocotb.test(expect_fail=True)
async def predictor_catches_wrong_model(dut):
    """Negative check: a predictor that expects another configuration than the one written
    over AXI4-Lite (a much smaller lossy pool) must make check_drained fail: the writes differ
    from the image the predictor expects."""
    wrong = make_config()
    wrong.ingress_lossy_pool = 24  # only the lossy PGs' reserved cells: no shared segment
    tb = SwitchTB(dut, make_config(), model_cfg=wrong)
    await tb.reset()
    for i in range(40):
        await tb.send(0, frame(0, 1, 1, i, 400), 1)
    await tb.wait_idle()
    drain_sink(tb.sinks[1])
    await tb.check_drained()


@cocotb.test()
async def check_drained_catches_a_lost_free(dut):
    """Negative check of check_drained's bounded wait for the walker: one cell's free lost on
    its way to the free list (the read stage's registered free cleared for one clock, so the
    free list misses that push) must fail check_drained at the free cell count, after waiting
    the whole bound (WALK_BOUND clocks), not pass by waiting for a free that never comes."""
    tb = SwitchTB(dut, make_config())
    await tb.reset()
    free = tb.core.buffer_inst.read_inst.rd_free_reg
    for i in range(4):
        await tb.send(0, frame(0, 1, 1, i, 300), 1)
    for _ in range(20000):
        await FallingEdge(dut.clk)
        if int(free.value):
            free.value = 0          # deposited: the free list samples 0 at the next edge
            break
    else:
        raise AssertionError("no cell freed by the read stage")
    await recv_data(tb, 1, 4)
    await tb.wait_idle()
    start = int(dut.tb_clock.value)
    with pytest.raises(AssertionError, match=f"free cells {BUFFER_CELLS - 1} != {BUFFER_CELLS}"):
        await tb.check_drained()
    assert int(dut.tb_clock.value) - start >= WALK_BOUND, "check_drained gave up early"


@cocotb.test()
async def no_request_before_load(dut):
    """Frames offered while the register image is being written over AXI4-Lite (from the
    clock max_frame_bytes is in, the image's second write, so they are not oversize): no
    admission request reaches mmu_core before the image's last write opens the gate (the last
    word waits in its slot), then every frame is forwarded and the predictor agrees from the
    first request on."""
    tb = SwitchTB(dut, make_config())
    await tb.reset(wait_load=False)
    first = []
    tb.pred.on_decision = lambda clock, arr, d, tag: (first.append(clock),
                                                      tb._decision(clock, arr, d, tag))
    await waits.until(dut.clk, lambda: int(tb.core.cfg_max_frame_bytes.value), 200,
                      "max_frame_bytes written")
    sent = {}
    for src in range(PORT_COUNT):
        dst = (src + 1) % PORT_COUNT
        for i in range(3):
            f = frame(src, dst, 1, i, 64 + 100 * i)
            sent.setdefault(dst, []).append(f)
            await tb.send(src, f, dst)
    await waits.until(dut.clk, lambda: int(tb.core.mmu_cfg_done.value), 20000,
                      "the admission gate (the image's last write)")
    done_clock = int(dut.tb_clock.value)
    await tb.load_task
    for dst in range(PORT_COUNT):
        rx = await recv_data(tb, dst, 3)
        assert sorted(bytes(r.tdata) for r in rx) == sorted(sent[dst])
    await tb.wait_idle()
    dut._log.info("configuration loaded by clock %d (%d writes), first request at clock %d",
                  done_clock, tb.pred.writes, first[0])
    assert first and first[0] >= done_clock, (first[:1], done_clock)
    await tb.check_drained()


@cocotb.test(expect_fail=True)
async def predictor_catches_wrong_write(dut):
    """Negative check: one entry of the register image altered on its way over AXI4-Lite
    (port 1 PG 3's headroom, a lossless PG's, 24 -> 23 cells) must make check_drained fail:
    the predictor compares every write at mmu_core's port with the model's image."""
    from models.regimage import pg_word
    tb = SwitchTB(dut, make_config())
    tb.alter = {pg_word(1 * 8 + 3, "headroom") << 2: 23}
    await tb.reset()
    for i in range(10):
        await tb.send(1, frame(1, 2, 3, i, 400), 2)
    await tb.wait_idle()
    drain_sink(tb.sinks[2])
    await tb.check_drained()


@cocotb.test()
async def predictor_catches_mmu_fault(dut):
    """Negative check on the MMU_FAULT_INJECT build (mmu_core's "shared below T" becomes "at
    or below"): one-cell lossy frames into a paused egress raise the PG's shared count cell by
    cell up to its static threshold, so the faulty decision comes, and the predictor must
    report it."""
    assert int(dut.core.MMU_FAULT_INJECT.value) == 1, "run on the MMU_FAULT_INJECT build"
    cfg = make_config()
    # port 0 PG 1 with a static threshold: its shared count reaches T exactly
    pg = cfg.ports[0].pgs[1]
    pg.dynamic, pg.static_th = False, 20
    tb = SwitchTB(dut, cfg)
    await tb.reset()
    tb.sinks[1].pause = True
    for i in range(120):
        await tb.send(0, frame(0, 1, 1, i, 64), 1)
    await tb.sources[0].wait()
    await ClockCycles(dut.clk, 200)
    tb.sync()
    dut._log.info("predictor: %s; first errors %s", tb.pred.summary(), tb.mismatch[:2])
    assert tb.mismatch, "the predictor did not catch mmu_core's FAULT_INJECT build"
    assert any("response" in e for e in tb.mismatch), tb.mismatch[:3]
