"""cocotb tests of mmu_core's headroom policy dsh (rtl/mmu_core_dsh.v; docs/mmu_core.md "DSH")
against models.mmu_pipe, clock by clock: every response, every pfc_xoff change on its clock,
every counter and the ports' status at the end (PipeTB).

Random traffic with dsh configurations (and with the policy, the port limits and the classes
rewritten under traffic), directed cases (queue-level XOFF at T - headroom before the port
pause; headroom admitted by the port's limit beyond the PG's headroom field; a port pause
raised by one PG and kept while another requests; the lossless mask written while paused),
and the largest burst absorbed without PFC under static and dsh on one buffer, against the
model (the RTL point of `python -m models.scenario headroom`)."""

from __future__ import annotations

import random

import cocotb

from mmu_core import regmap
from mmu_core.mmu_core_cases import (C, LOSSY_DT, PORT_COUNT, Q_LL, Q_LOSSY, RANDOM_CLOCKS,
                                     T_LAG, Traffic, cfg_value, event, make_cfg, new_tb,
                                     random_write, stress_config, write_fields)
from mmu_core.pipe_tb import CFG_CHECK, PipeTB, flag_names
from models.config import MmuConfig, PgConfig, QueueConfig
from models.mmu import REASON_HEADROOM_FULL, SEG_HEADROOM, SEG_RESERVED, SEG_SHARED
from models.mmu_pipe import PipelinedMmu


def dsh_stress_config(port_headroom: int = 40) -> MmuConfig:
    """stress_config (PGs 3 and 4 lossless with DT, eta_q 24) under dsh: one port headroom per
    port, no shared headroom pool; the buffer sized to the pools."""
    cfg = stress_config(oversubscribe=False)
    cfg.headroom_policy = "dsh"
    for p in cfg.ports:
        p.port_headroom = port_headroom
        for g in (3, 4):
            p.pgs[g].headroom = 8
    return cfg


def dsh_random_write(rng: random.Random):
    """random_write, or (one write in four) the policy or a port's headroom limit."""
    if rng.random() < 0.75:
        return random_write(rng)
    if rng.random() < 0.3:
        v = rng.randrange(2)
        return ((regmap.GLOBAL_CFG["headroom_policy"], v),
                lambda m: m.write_global(headroom_policy=v))
    p = rng.randrange(PORT_COUNT)
    v = rng.randint(0, 60)
    return ((regmap.port_addr(p, "port_headroom"), v),
            lambda m: m.write_port(p, port_headroom=v))


async def dsh_random_run(dut, clocks: int, reconfig: bool = False) -> PipeTB:
    seed = cocotb.RANDOM_SEED
    cfg = dsh_stress_config()
    tb = PipeTB(dut, cfg)
    await tb.start()
    tr = Traffic(tb, seed)
    rng = random.Random(seed + 1)
    for _ in range(clocks):
        rel, arr = tr.next_pair()
        write = model_write = None
        if reconfig and rng.random() < 0.01:
            write, model_write = dsh_random_write(rng)
        d = await tb.cycle(rel=rel, arr=arr, write=write, model_write=model_write)
        tr.record(arr, d)
    await tr.drain()
    await tb.finish()
    m = tb.model
    dut._log.info("dsh random run (seed %d): %d clocks; queue XOFF %d, XON %d; port pauses %s, "
                  "resumes %s; port headroom peaks %s", seed, clocks, sum(m.xoff_count),
                  sum(m.xon_count), m.port_xoff_count, m.port_xon_count, m.port_hdrm_wm)
    return tb


@cocotb.test()
async def random_pairs_dsh(dut):
    """An arrival and a release nearly every clock, same-PG heavy, under dsh: headroom by the
    port's limit, port pauses on and off, every pfc_xoff change on its clock."""
    tb = await dsh_random_run(dut, RANDOM_CLOCKS)
    m = tb.model
    seen = {k for k, n in tb.cov.items() if n}
    for outcome in [("admit", SEG_RESERVED), ("admit", SEG_SHARED), ("admit", SEG_HEADROOM),
                    ("headroom_full", 0)]:
        assert outcome in seen, f"dsh traffic never produced {outcome}: {seen}"
    assert sum(m.port_xoff_count) > 0 and sum(m.port_xon_count) > 0, "no port pause"
    assert sum(m.xoff_count) > 0 and sum(m.xon_count) > 0
    assert m.total_used == 0 and not any(m.port_xoff)


@cocotb.test()
async def reconfiguration_under_traffic_dsh(dut):
    """dsh traffic with 1 % of clocks rewriting a PG, queue or global field, the policy itself
    (static <-> dsh) or a port's headroom limit: the model follows on the same clocks."""
    tb = await dsh_random_run(dut, RANDOM_CLOCKS // 2, reconfig=True)
    assert tb.model.total_used == 0


# ---------------------------------------------------------------------------- directed
# port 0: PG 3 and PG 4 lossless, static T 10, queue-level headroom (eta_q) 4, so the
# queue-level Xoff point is X = T - 4 = 6; the port's headroom 12 cells, the PG's field 4
ETA_Q = 4
PORT_HDRM = 12
LL_DSH = dict(lossless=True, reserved=4, dynamic=False, static_th=10, headroom=ETA_Q, xon=0,
              xon_offset=0)
PG3 = (0, 3, 1, 3, C)         # one cell to port 0 PG 3, egress port 1 queue 3
PG4 = (0, 4, 1, 4, C)


def dsh_directed_cfg() -> MmuConfig:
    def per_port(p, pgs, qs):
        pgs[4] = PgConfig(**LL_DSH)
        qs[4] = QueueConfig(**Q_LL)
    cfg = make_cfg(pg3=LL_DSH, lossy=LOSSY_DT, q3=Q_LL, qlossy=Q_LOSSY, ll_shared=100,
                   lossy_shared=30, e_ll_shared=100, e_lossy_shared=100, per_port=per_port)
    cfg.headroom_policy = "dsh"
    cfg.ingress_lossless_pool += PORT_COUNT * PORT_HDRM
    cfg.buffer_cells += PORT_COUNT * PORT_HDRM
    for p in cfg.ports:
        p.port_headroom = PORT_HDRM
    return cfg


def dsh_config_flag_cases(m) -> list:
    """(what, writes, the flags they raise) on dsh_directed_cfg(): the ingress_pools rule under
    dsh counts every port's port_headroom (docs/mmu_core.md "Configuration flags"), not the
    PGs' headroom (eta_q) nor the headroom pool; a write back to static counts the PGs'; the
    xon rule under dsh is at the queue-level Xoff point X = T - headroom."""
    g = m.glob
    n_port = m.ports
    res = sum(c["reserved"] for c in m.pg_cfg)
    ports = sum(c["port_headroom"] for c in m.port_cfg)
    pgs = sum(c["headroom"] for c in m.pg_cfg if c["lossless"])
    slack = g["buffer_cells"] - (g["pool_shared_lossless"] + g["pool_shared_lossy"] + res + ports)
    assert slack >= 0, slack
    last = n_port - 1
    return [
        ("the first port's headroom one above the buffer",
         [("port", 0, "port_headroom", PORT_HDRM + slack + 1)], ["ingress_pools"]),
        ("the last port's headroom at the buffer",
         [("port", last, "port_headroom", PORT_HDRM + slack)], []),
        ("the last port's headroom one above the buffer",
         [("port", last, "port_headroom", PORT_HDRM + slack + 1)], ["ingress_pools"]),
        ("a lossless PG's headroom (eta_q) beyond the buffer, not counted",
         [("pg", 3, "headroom", pgs + slack)], []),
        ("the headroom pool, not used under dsh",
         [("global", 0, "hdrm_pool", ports + slack + 1)], []),
        ("static again: its PGs' headroom counted",
         [("pg", 3, "headroom", ETA_Q + ports - pgs + slack + 1),
          ("global", 0, "headroom_policy", 0)], ["ingress_pools"]),
        ("static: the ports' headroom not counted",
         [("global", 0, "headroom_policy", 0),
          ("port", 0, "port_headroom", PORT_HDRM + slack + 1)], []),
        # the xon rule at the queue-level Xoff point X = T - headroom (static T 10: X 6)
        ("xon at X", [("pg", 3, "xon", 10 - ETA_Q)], ["xon"]),
        ("xon below X", [("pg", 3, "xon", 10 - ETA_Q - 1)], []),
        ("xon at X, static again: below T",
         [("pg", 3, "xon", 10 - ETA_Q), ("global", 0, "headroom_policy", 0)], []),
        ("X at 0: xon 1", [("pg", 8 + 4, "headroom", 10), ("pg", 8 + 4, "xon", 1)], ["xon"]),
        ("X below 0: xon 0", [("pg", 8 + 4, "headroom", 11)], []),
        ("xon at X of a dynamic PG, last port",
         [("pg", last * 8 + 3, "dynamic", 1), ("pg", last * 8 + 3, "alpha_shift", -1),
          ("pg", last * 8 + 3, "xon", (g["pool_shared_lossless"] >> 1) - ETA_Q)], ["xon"]),
        ("xon below X of a dynamic PG, last port",
         [("pg", last * 8 + 3, "dynamic", 1), ("pg", last * 8 + 3, "alpha_shift", -1),
          ("pg", last * 8 + 3, "xon", (g["pool_shared_lossless"] >> 1) - ETA_Q - 1)], []),
    ]


# (not on a build with CFG_CHECK 0: no checker, the flags read 0)
@cocotb.test(skip=not CFG_CHECK)
async def dir_config_flags_dsh(dut):
    """The configuration checker under dsh: each write of dsh_config_flag_cases on the core
    and the model, the flags compared with config_flags() after cfg_flags_latency, then the
    fields written back and the word 0 again."""
    tb = await new_tb(dut, dsh_directed_cfg())
    assert await tb.check_config_flags() == 0
    for what, writes, want in dsh_config_flag_cases(tb.model):
        old = [(k, i, f, cfg_value(tb.model, k, i, f)) for k, i, f, _ in writes]
        await write_fields(tb, writes)
        got = flag_names(await tb.check_config_flags())
        assert got == want, (what, got, want)
        await write_fields(tb, reversed(old))
        assert await tb.check_config_flags() == 0, what
        dut._log.info("dsh config flags, %s: %s, cleared", what, want)
    await tb.finish()


@cocotb.test()
async def dir_dsh_port_pause(dut):
    """Queue-level XOFF at X = T - eta_q before the port pause; the port pause at T; headroom
    admitted by the port's limit (12 cells in a PG whose headroom field is 4), the next frame
    dropped; the pause kept while PG 4 requests after PG 3 withdrew; the lossless mask written
    while paused; every change on pfc_xoff on the model's clock."""
    cfg = dsh_directed_cfg()
    assert cfg.validate() == [], cfg.validate()
    tb = await new_tb(dut, cfg)
    m = tb.model
    for _ in range(4):
        assert (await event(tb, arr=PG3)).segment == SEG_RESERVED
    for s in range(1, 11):
        d = await event(tb, arr=PG3)
        assert d.segment == SEG_SHARED
        # queue level from shared 6 = X on, the port only from shared 10 = T on
        assert m.xoff[3] == (s >= 10 - ETA_Q), (s, m.xoff[3])
        assert m.port_xoff[0] == (s >= 10), (s, m.port_xoff[0])
    assert m.pfc_vector(0) == (1 << 3) | (1 << 4), "the port pause holds every lossless PG"
    for h in range(1, PORT_HDRM + 1):
        d = await event(tb, arr=PG3)
        assert d.admit and d.segment == SEG_HEADROOM, (h, d)
    assert m.hdrm[3] == PORT_HDRM > ETA_Q and m.port_hdrm[0] == PORT_HDRM
    d = await event(tb, arr=PG3)
    assert not d.admit and d.reason == REASON_HEADROOM_FULL, "beyond the port's headroom"
    # PG 4 fills its reserved and shared to T: it requests the pause too
    for _ in range(4 + 10):
        assert (await event(tb, arr=PG4)).admit
    assert m.port_req[4] and m.port_req[3]
    # a PG made lossless while the port is paused joins pfc_xoff with the pairs after its write
    await tb.cycle(write=(regmap.pg_addr(5, "lossless"), 1),
                   model_write=lambda mm: mm.write_pg(0, 5, lossless=True))
    await tb.idle(T_LAG + 6)
    assert m.pfc_vector(0) & (1 << 5)
    await tb.cycle(write=(regmap.pg_addr(5, "lossless"), 0),
                   model_write=lambda mm: mm.write_pg(0, 5, lossless=False))
    await tb.idle(T_LAG + 6)
    assert not m.pfc_vector(0) & (1 << 5)
    # PG 3 drains: its request goes, the port stays paused for PG 4
    await event(tb, rel=(0, 3, 1, 3, PORT_HDRM))
    await event(tb, rel=(0, 3, 1, 3, 14))
    assert not m.port_req[3] and not m.xoff[3]
    assert m.port_xoff[0] and m.pfc_vector(0) == (1 << 3) | (1 << 4), "kept for PG 4"
    # PG 4 falls to 6, below T's XON point 9: the port resumes; at X - 1 = 5 and below (here:
    # empty) the queue level too
    await event(tb, rel=(0, 4, 1, 4, 4))
    assert not m.port_xoff[0] and m.xoff[4], "port resumed, PG 4 still paused at queue level"
    await event(tb, rel=(0, 4, 1, 4, 10))
    assert not m.xoff[4] and m.pfc_vector(0) == 0
    assert m.port_xoff_count[0] == 1 and m.port_xon_count[0] == 1
    await tb.finish()


# ---------------------------------------------------------------------------- burst
def burst_cfgs() -> dict[str, MmuConfig]:
    """One buffer, two policies: static (each lossless PG its own headroom 24, DT alpha 1) and
    dsh (each port one headroom of 24, eta_q 8); the lossless pool the same size, so dsh's
    shared segment is larger by what static reserves beyond one eta per port."""
    out = {}
    for policy in ("static", "dsh"):
        def per_port(p, pgs, qs, policy=policy):
            for g in (3, 4, 5):
                pgs[g] = PgConfig(lossless=True, reserved=2, dynamic=True, alpha_shift=1,
                                  headroom=24 if policy == "static" else 8, xon=0,
                                  xon_offset=4)
                qs[g] = QueueConfig(**Q_LL)
        cfg = make_cfg(pg3=dict(lossless=True, reserved=2, dynamic=True, alpha_shift=1,
                                headroom=24, xon=0, xon_offset=4),
                       lossy=LOSSY_DT, q3=Q_LL, qlossy=Q_LOSSY, ll_shared=60, lossy_shared=30,
                       e_ll_shared=2000, e_lossy_shared=100, per_port=per_port)
        if policy == "dsh":
            # the same buffer and lossless pool as static's
            cfg.headroom_policy = "dsh"
            cfg.ingress_lossless_pool = out["static"].ingress_lossless_pool
            cfg.buffer_cells = out["static"].buffer_cells
            for p in cfg.ports:
                p.port_headroom = 24
        out[policy] = cfg
    return out


def model_burst_limit(cfg: MmuConfig, cells: int = 1) -> int:
    """The largest burst of one-cell frames (one a clock) into port 0 PG 3 that the model
    absorbs without pausing anything: frames until the first change of pfc_word."""
    m = PipelinedMmu(cfg, validate=False)
    n = 0
    while True:
        m.clock(arrival=(0, 3, 1, 3, cells * C))
        m.idle(T_LAG)
        if m.pfc_word():
            return n
        n += 1


@cocotb.test()
async def burst_absorbed_without_pfc(dut):
    """The experiment's point on the RTL (models.scenario headroom: bursts absorbed without a
    PFC frame): one buffer under static and under dsh, a burst into port 0 PG 3, frames until
    pfc_xoff first changes; the RTL's count equals the model's for each policy, and dsh absorbs
    more (its shared segment holds what static reserves as per-PG headroom)."""
    got = {}
    first = True
    for policy, cfg in burst_cfgs().items():
        want = model_burst_limit(cfg)
        tb = await new_tb(dut, cfg, first=first)
        first = False
        n = 0
        while True:
            await event(tb, arr=(0, 3, 1, 3, C))
            await tb.idle(6)
            if int(dut.pfc_xoff.value):
                break
            n += 1
        got[policy] = n
        dut._log.info("%s: %d one-cell frames absorbed without PFC (model %d); lossless shared "
                      "segment %d", policy, n, want, cfg.lossless_shared)
        assert n == want, (policy, n, want)
        await event(tb, rel=(0, 3, 1, 3, n + 1))
        await tb.finish()
    assert got["dsh"] > got["static"], got
