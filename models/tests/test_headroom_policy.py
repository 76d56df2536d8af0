"""Headroom policies (issue 21; docs/model.md "Headroom policies"): static (per PG, with or
without SONiC's shared headroom pool) and dsh (Dynamic and Shared Headroom).  Directed cases
for each rule, property tests of the accounting, network runs inside each policy's guarantee
(no lossless frame lost) and outside it (the over-subscribed pool loses, and the test expects
it)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models import headroom_compare as hc
from models.config import PG_COUNT, ConfigError, MmuConfig, example_config
from models.headroom import compute
from models.mmu import (REASON_HEADROOM_FULL, SEG_HEADROOM, SEG_NONE, SEG_RESERVED, SEG_SHARED,
                        Mmu, PortPauseEvent)
from models.mmu_pipe import PipelinedMmu
from models.regimage import image, reg_label
from models.network import Flow, NetConfig, Network, paused_byte_times, switch_config
from models.sonic import explain, to_sonic

from .helpers import small_cfg

CELL = 256
LL = (0, 3, 1, 3)  # port 0 PG 3 (lossless) -> port 1 queue 3


def dsh_cfg(port_headroom: int = 6, eta: int = 4, **kw) -> MmuConfig:
    """small_cfg (PG 3 lossless: reserved 4, static T 10, xon_offset 0) with dsh: queue-level
    headroom ``eta`` (Xoff at T - eta = 6), ``port_headroom`` cells per port."""
    pg = {"headroom": eta} | kw.pop("pg", {})
    cfg = small_cfg(pg=pg, **kw)
    cfg.headroom_policy = "dsh"
    for p in cfg.ports:
        p.port_headroom = port_headroom
    return cfg


def fill(m: Mmu, n: int, where=LL, cells: int = 1):
    return [m.arrive(*where, cells * CELL) for _ in range(n)]


# ----------------------------------------------------------------- configuration
def test_default_policy_is_static_and_old_json_loads():
    cfg = example_config()
    d = cfg.to_dict()
    # a static configuration serialises exactly as before the policy fields existed
    assert "headroom_policy" not in d and "port_headroom" not in d["ports"][0]
    old = MmuConfig.from_json(json.dumps(d))
    assert old == cfg and old.headroom_policy == "static" and old.ports[0].port_headroom == 0


def test_dsh_json_round_trip():
    cfg = dsh_cfg()
    d = json.loads(cfg.to_json())
    assert d["headroom_policy"] == "dsh" and d["ports"][1]["port_headroom"] == 6
    assert MmuConfig.from_json(cfg.to_json()) == cfg


def test_dsh_shared_segment_reserves_port_headroom_not_pg_headroom():
    static = small_cfg(pg={"headroom": 4})
    dsh = dsh_cfg(port_headroom=6, eta=4)
    assert static.lossless_shared == 200 - 2 * 4 - 2 * 4
    assert dsh.lossless_shared == 200 - 2 * 4 - 2 * 6
    assert small_cfg(shared_headroom_pool=8).lossless_shared == 200 - 8 - 8


def _bad(cfg: MmuConfig, field: str):
    with pytest.raises(ConfigError) as e:
        cfg.validate()
    assert str(e.value).startswith(field), str(e.value)


def test_validation_of_the_policy_fields():
    cfg = small_cfg()
    cfg.headroom_policy = "shared"
    _bad(cfg, "headroom_policy")
    cfg = dsh_cfg()
    cfg.shared_headroom_pool = 8
    _bad(cfg, "shared_headroom_pool")
    cfg = dsh_cfg()
    cfg.ports[1].port_headroom = -1
    _bad(cfg, "ports[1].port_headroom")
    cfg = small_cfg()
    cfg.ports[0].port_headroom = 6  # static has no port headroom
    _bad(cfg, "ports[0].port_headroom")
    cfg = dsh_cfg(port_headroom=100)
    _bad(cfg, "ingress_lossless_pool")  # 2 x 100 + reserved exceed the pool
    cfg = dsh_cfg(eta=4, pg={"xon": 6})  # queue-level Xoff point is T - eta = 6
    _bad(cfg, "ports[0].pgs[3].xon")
    assert dsh_cfg(eta=4, pg={"xon": 5}).validate() == []


def test_dsh_warnings():
    cfg = dsh_cfg(port_headroom=0)
    assert any("port_headroom" in w for w in cfg.validate())
    cfg = dsh_cfg(eta=10)  # T - eta = 0: paused at the first shared cell
    assert any("paused at its first shared cell" in w for w in cfg.validate())
    # with dsh a PG's headroom 0 is no warning: the port headroom absorbs the in-flight
    assert dsh_cfg(eta=0).validate() == []


def test_dsh_is_in_the_core_and_its_image_not_in_sonic():
    cfg = dsh_cfg()
    PipelinedMmu(cfg)  # mmu_core models dsh (rtl/mmu_core_dsh.v)
    # switch_core loads the register image, which carries the policy and the port limits
    written = dict(image(cfg))
    assert any(v == 1 for a, v in written.items() if reg_label(a) == "headroom_policy")
    with pytest.raises(ConfigError, match="headroom_policy"):
        to_sonic(cfg)  # SONiC's buffer tables have no DSH
    PipelinedMmu(small_cfg())  # static: as before


def _dsh_event(rng: random.Random, held: list):
    if held and rng.random() < 0.4:
        return "release", held.pop(rng.randrange(len(held)))
    port = rng.randrange(2)
    pg = rng.choice([0, 3, 3, 3, 5])
    return "arrive", (port, pg, rng.randrange(2), pg, rng.randint(1, 4 * CELL))


@pytest.mark.parametrize("seed", range(8))
def test_pipelined_dsh_spaced_events_equal_the_event_model(seed):
    """dsh, one event at a time spaced beyond every lag: PipelinedMmu (the RTL's timing)
    decides as Mmu, keeps the same counters, the same port headroom and port pause, and holds
    the same PFC vector (static thresholds: the scan's re-evaluations change nothing)."""
    rng = random.Random(seed)
    cfg = dsh_cfg(port_headroom=rng.choice([3, 6, 12]), eta=rng.choice([0, 2, 4]),
                  pg={"xon_offset": rng.choice([0, 2])})
    ref = Mmu(cfg)
    m = PipelinedMmu(cfg)
    held: list = []
    pauses = 0
    for _ in range(300):
        kind, ev = _dsh_event(rng, held)
        if kind == "arrive":
            a = ref.arrive(*ev)
            b = m.clock(arrival=ev)
            assert (a.admit, a.reason, a.cells, a.res, a.shared, a.hdrm, a.segment) == \
                (b.admit, b.reason, b.cells, b.res, b.shared, b.hdrm, b.segment)
            if a.admit:
                held.append(ev[:4] + (a.cells,))
        else:
            assert ref.release(*ev)
            m.clock(release=ev)
        m.idle(m.t_lag)
        for name in ("res", "shared", "hdrm", "pool_used", "hdrm_wm", "xoff", "port_req",
                     "port_xoff", "port_xoff_count", "port_xon_count"):
            assert getattr(m, name) == getattr(ref, name), name
        assert m.port_hdrm == ref.port_hdrm_used and m.port_hdrm_wm == ref.port_hdrm_wm
        assert [m.pfc_vector(p) for p in range(2)] == [ref.pfc_vector(p) for p in range(2)]
        pauses = max(pauses, sum(ref.port_xoff_count))
    assert pauses > 0


@pytest.mark.parametrize("seed", range(6))
def test_pipelined_dsh_back_to_back_keeps_the_port_limit(seed):
    """dsh, an arrival and a release nearly every clock to the lossless PGs of two ports: the
    port's headroom never exceeds port_headroom (the view charges every arrival in flight to
    the port in full), it always equals the sum of its PGs' headroom, and drains to zero."""
    rng = random.Random(500 + seed)
    cfg = dsh_cfg(port_headroom=rng.choice([4, 8]), eta=2)
    m = PipelinedMmu(cfg)
    held: list = []
    hdrm_seen = 0
    for _ in range(1500):
        rel = held.pop(0) if held and rng.random() < 0.45 else None
        arr = (rng.randrange(2), 3, rng.randrange(2), 3, rng.randint(1, 3 * CELL))
        d = m.clock(release=rel, arrival=arr)
        if d.admit:
            held.append(arr[:4] + (d.cells,))
        for p in range(2):
            assert m.port_hdrm[p] <= cfg.ports[p].port_headroom
            assert m.port_hdrm[p] == sum(m.hdrm[p * PG_COUNT:(p + 1) * PG_COUNT])
        hdrm_seen = max(hdrm_seen, max(m.port_hdrm))
    for ev in held:
        m.clock(release=ev)
    m.idle(20)
    assert hdrm_seen > 0 and m.port_hdrm == [0, 0] and not any(m.port_xoff)
    assert not any(m.port_req) and m.total_used == 0


def test_pipelined_dsh_pfc_word_is_the_lossless_mask_while_paused():
    """pfc_word: the queue-level bits, and every PG lossless in the configuration of the last
    committed pair while the port is paused; a lossless bit written under traffic follows
    with the pairs (the pair of the next clock carries it)."""
    cfg = dsh_cfg(port_headroom=20, eta=4)
    m = PipelinedMmu(cfg)
    for _ in range(16):  # reserved 4, T 10: past it, into the port headroom
        m.clock(arrival=(0, 3, 1, 3, CELL))
        m.idle(12)
    assert m.port_xoff[0] and m.port_hdrm[0] > 0
    assert m.pfc_word() & 0xFF == 1 << 3  # PG 3 is the port's only lossless PG
    m.write_pg(0, 5, lossless=True)
    m.clock()
    assert m.pfc_word() & 0xFF == 1 << 3  # the write rides with the next pair
    m.idle(m.view_lag)
    assert m.pfc_word() & 0xFF == (1 << 3) | (1 << 5)


def test_sonic_explain_describes_dsh():
    text = explain(dsh_cfg())
    assert "port headroom 12 (headroom_policy dsh" in text
    assert "queue-level Xoff at T - headroom 4 = 6" in text
    assert "port headroom 6 cells" in text and "SHORT" in text


# ----------------------------------------------------------------- static (directed)
def test_static_policy_never_uses_the_port_level():
    m = Mmu(small_cfg())
    fill(m, 21)
    assert m.xoff[3] and not m.port_xoff[0] and not m.port_events
    assert m.pfc_vector(0) == m.xoff_vector(0) == 1 << 3


def test_shared_pool_per_pg_cap_then_pool_cap_then_release():
    """Static with a shared headroom pool of 8 for PGs of 6: the first PG takes 6, the second
    the 2 left; releasing the first PG's headroom gives the second room again."""
    m = Mmu(small_cfg(shared_headroom_pool=8))
    fill(m, 20)
    fill(m, 20, where=(1, 3, 0, 3))
    assert (m.hdrm[3], m.hdrm[8 + 3], m.hdrm_pool_used) == (6, 2, 8)
    assert m.drops[REASON_HEADROOM_FULL] == 4  # the second PG's last 4: the pool is full
    m.release(*LL, 3)  # headroom first
    assert m.hdrm[3] == 3 and m.hdrm_pool_used == 5
    assert m.arrive(1, 3, 0, 3, 3 * CELL).segment == SEG_HEADROOM
    assert not m.arrive(1, 3, 0, 3, CELL).admit  # under its own cap (5 + 1 <= 6), pool full
    assert m.hdrm[8 + 3] == 5 and m.hdrm_pool_used == 8


# ----------------------------------------------------------------- dsh (directed)
def test_dsh_xoff_points_and_port_headroom():
    """reserved 4, T 10, eta 4, port headroom 6: queue-level XOFF when shared reaches
    T - eta = 6, the in-flight stays in shared up to T; the port-level pause at shared = T;
    then 6 cells of port headroom; then headroom_full."""
    m = Mmu(dsh_cfg())
    segs = []
    for k in range(4 + 10 + 6 + 1):
        d = m.arrive(*LL, CELL)
        segs.append(d.segment)
        shared = m.shared[3]
        assert m.xoff[3] == (shared >= 6 or m.hdrm[3] > 0), k
        assert m.port_xoff[0] == (shared >= 10), k
    assert segs == [SEG_RESERVED] * 4 + [SEG_SHARED] * 10 + [SEG_HEADROOM] * 6 + [SEG_NONE]
    assert m.drops[REASON_HEADROOM_FULL] == 1
    assert m.port_state(0) == {"hdrm": 6, "limit": 6, "hdrm_wm": 6, "xoff": 1, "requests": 1}
    assert [(e.seq, e.xoff) for e in m.events] == [(9, True)]  # the 6th shared cell
    assert m.port_events == [PortPauseEvent(13, 0, True)]  # the 10th
    assert m.pfc_vector(0) == 1 << 3 and m.pfc_vector(1) == 0
    assert m.hdrm_pool_used == 6 and m.total_used == 20


def test_dsh_release_port_xon_first_then_queue_xon():
    """Release one cell at a time: headroom drains first; the port resumes once its headroom
    is empty and shared is at its Xon point min(max(0, T - 0), T - 1) = 9; the queue resumes
    at min(max(0, 6 - 0), 6 - 1) = 5 shared cells."""
    m = Mmu(dsh_cfg())
    fill(m, 20)
    seen = []
    for k in range(1, 21):
        m.release(*LL, 1)
        seen.append((k, m.hdrm[3], m.shared[3], int(m.port_xoff[0]), int(m.xoff[3])))
    port_xon = next(s for s in seen if not s[3])
    queue_xon = next(s for s in seen if not s[4])
    assert port_xon == (7, 0, 9, 0, 1)
    assert queue_xon == (11, 0, 5, 0, 0)
    assert m.port_hdrm_used == [0, 0] and m.total_used == 0
    assert [e.xoff for e in m.port_events] == [True, False]
    assert [e.xoff for e in m.events] == [True, False]


def test_dsh_port_headroom_is_shared_by_the_ports_lossless_pgs():
    cfg = dsh_cfg()
    for p in cfg.ports:  # PG 4 lossless too, same profile
        p.pgs[4] = type(p.pgs[3])(**vars(p.pgs[3]))
    m = Mmu(cfg)
    pg4 = (0, 4, 1, 3)
    fill(m, 14)
    fill(m, 14, where=pg4)  # both at T: port paused once
    assert m.port_req_count[0] == 2 and len(m.port_events) == 1
    fill(m, 4)
    fill(m, 4, where=pg4)
    assert (m.hdrm[3], m.hdrm[4], m.port_hdrm_used[0]) == (4, 2, 6)
    assert m.drops[REASON_HEADROOM_FULL] == 2
    # port 1 has its own port headroom
    fill(m, 20, where=(1, 3, 0, 3))
    assert m.port_hdrm_used[1] == 6
    assert m.pfc_vector(0) == (1 << 3) | (1 << 4)
    # the port resumes only when both PGs withdraw their request
    m.release(*LL, 4 + 1)  # PG 3: headroom empty, shared 9
    assert not m.port_req[3] and m.port_xoff[0]
    m.release(*pg4, 2 + 1)
    assert not m.port_xoff[0] and m.pfc_vector(0) == (1 << 3) | (1 << 4)  # still queue-paused


def test_dsh_falling_threshold_sends_in_flight_to_port_headroom():
    """Dynamic T: another port fills the pool, T falls under the PG's shared occupancy; its
    next frame finds shared >= T, goes to the port headroom and pauses the port."""
    cfg = dsh_cfg(ports=3, eta=2, port_headroom=8,
                  pg={"dynamic": True, "alpha_shift": 0, "static_th": 0, "reserved": 0})
    m = Mmu(cfg)
    s = cfg.lossless_shared  # 200 - 3 * 8 = 176, T = 176 - w, X = T - 2
    fill(m, 86)
    assert not m.xoff[3]
    fill(m, 1)  # 87 >= X = 176 - 87 - 2: paused at queue level, shared < T = 89
    assert m.xoff[3] and not m.port_xoff[0] and m.shared[3] == 87 < m.pg_threshold(3) == 89
    m.pg_dynamic[8 + 3], m.pg_static[8 + 3] = False, s  # port 1 takes what it can
    while m.arrive(1, 3, 0, 3, CELL).segment == SEG_SHARED:
        pass
    assert m.shared[3] >= m.pg_threshold(3) and not m.port_xoff[0]  # not re-evaluated yet
    d = m.arrive(*LL, 2 * CELL)
    assert d.segment == SEG_HEADROOM and m.port_xoff[0] and m.port_hdrm_used[0] == 2


def test_dsh_empty_pg_resumes_both_levels():
    """static_th 0: T = 0 and T - eta < 0; a frame beyond reserved goes to the port headroom
    and pauses both levels; when it has left, the empty PG resumes both."""
    m = Mmu(dsh_cfg(eta=0, pg={"static_th": 0, "reserved": 1}), validate=False)
    d = m.arrive(*LL, 3 * CELL)
    assert (d.res, d.shared, d.hdrm) == (1, 0, 2) and m.xoff[3] and m.port_xoff[0]
    m.release(*LL, 3)
    assert not m.xoff[3] and not m.port_xoff[0] and m.pfc_vector(0) == 0


def test_dsh_lossy_pgs_never_pause_or_use_headroom():
    m = Mmu(dsh_cfg())
    for _ in range(200):
        m.arrive(0, 0, 1, 0, CELL)
    assert m.hdrm[0] == 0 and not m.port_xoff[0] and not m.events and m.drops[4] > 0


# ----------------------------------------------------------------- properties
def check(m: Mmu) -> None:
    n = m.ports * PG_COUNT
    assert min(m.res + m.shared + m.hdrm + m.port_hdrm_used) >= 0
    assert m.total_used == sum(m.res) + sum(m.shared) + sum(m.hdrm)
    assert m.total_used == sum(m.q_res) + sum(m.q_shared)
    assert m.hdrm_pool_used == sum(m.hdrm)
    assert m.pool_used[0] <= m.pool_shared_size[0]
    for i in range(n):
        if not m.pg_lossless[i]:
            assert m.hdrm[i] == 0 and not m.xoff[i] and not m.port_req[i]
    for p in range(m.ports):
        pgs = range(p * PG_COUNT, (p + 1) * PG_COUNT)
        if m.dsh:
            assert m.port_hdrm_used[p] == sum(m.hdrm[i] for i in pgs)
            assert m.port_hdrm_used[p] <= m.port_hdrm_limit[p]
            assert m.port_xoff[p] == any(m.port_req[i] for i in pgs)
            # cells in the port headroom only while the port is paused
            assert m.port_hdrm_used[p] == 0 or m.port_xoff[p]
            for i in pgs:  # the port-level request never outlasts the queue level
                assert not m.port_req[i] or m.xoff[i]
        else:
            assert m.port_hdrm_used[p] == 0 and not m.port_xoff[p]
            for i in pgs:
                assert m.hdrm[i] <= m.pg_hdrm_limit[i]
            if m.hdrm_pool_size:
                assert m.hdrm_pool_used <= m.hdrm_pool_size


def test_checker_can_fail():
    m = Mmu(dsh_cfg())
    fill(m, 20)
    check(m)
    m.port_hdrm_used[0] -= 1  # a broken model
    with pytest.raises(AssertionError):
        check(m)


policy_st = st.sampled_from(["static", "shared_pool", "dsh"])
ops_st = st.lists(st.tuples(st.sampled_from(["arrive", "arrive", "release"]),
                            st.integers(0, 2), st.sampled_from([0, 3, 3, 4]),
                            st.integers(1, 4 * CELL + 7), st.integers(0, 10_000)),
                  min_size=1, max_size=150)


def build(policy: str, eta: int, dynamic: bool, xon_offset: int) -> Mmu:
    pg = {"headroom": eta, "dynamic": dynamic, "alpha_shift": -1, "static_th": 30,
          "xon_offset": xon_offset, "reserved": 2}
    cfg = small_cfg(ports=3, lossless_pool=150, buffer_cells=300, pg=pg,
                    shared_headroom_pool=10 if policy == "shared_pool" else 0)
    for p in cfg.ports:
        p.pgs[4] = type(p.pgs[3])(**vars(p.pgs[3]))
        p.queues[4] = type(p.queues[3])(**vars(p.queues[3]))
    if policy == "dsh":
        cfg.headroom_policy = "dsh"
        for p in cfg.ports:
            p.port_headroom = 9
    return Mmu(cfg, validate=False)


@given(policy_st, st.integers(0, 12), st.booleans(), st.integers(0, 8), ops_st)
def test_random_sequences_conserve_cells_and_return_to_zero(policy, eta, dynamic, off, ops):
    m = build(policy, eta, dynamic, off)
    held: list[tuple] = []
    for kind, port, pg, length, pick in ops:
        if kind == "arrive" or not held:
            eport = (port + 1) % 3
            d = m.arrive(port, pg, eport, pg, length)
            assert d.admit == (d.segment != SEG_NONE)
            if d.admit:
                assert d.res + d.shared + d.hdrm == d.cells
                held.append((port, pg, eport, pg, d.cells))
        else:
            assert m.release(*held.pop(pick % len(held)))
        check(m)
    while held:
        assert m.release(*held.pop())
        check(m)
    assert m.total_used == 0 and m.pool_used == [0, 0] and m.hdrm_pool_used == 0
    assert not any(m.xoff) and not any(m.port_xoff), "left paused with nothing held"
    for port in range(3):  # XOFF / XON alternate at both levels
        ev = [e.xoff for e in m.port_events if e.port == port]
        assert ev == [True, False] * (len(ev) // 2)


# ----------------------------------------------------------------- network: the guarantees
H = compute(100, 300, 1500, cell_bytes=CELL)
ETA = H.eta_cells_worst


def net_cfg(policy: str, senders: int, headroom: int = ETA, pool: int | None = None,
            queue_headroom: int = ETA) -> MmuConfig:
    """models.network.switch_config with priorities 3 and 4 lossless and one of the policies:
    static (``headroom`` per PG), shared_pool (``pool``, default: every lossless PG's eta, the
    guarantee), dsh (``headroom`` per port, ``queue_headroom`` per PG)."""
    prios = (3, 4)
    if policy == "shared_pool":
        pool = (senders + 1) * len(prios) * headroom if pool is None else pool
        return switch_config(senders, headroom, lossless_prios=prios, shared_headroom_pool=pool)
    cfg = switch_config(senders, headroom if policy == "static" else queue_headroom,
                        lossless_prios=prios, lossless_shared=1000 + 2 * ETA)
    if policy == "dsh":
        cfg.headroom_policy = "dsh"
        # the same pool: the per-PG headroom it held becomes one port headroom per port
        per_port = len(prios) * queue_headroom
        for p in cfg.ports:
            p.port_headroom = headroom
        cfg.ingress_lossless_pool += len(cfg.ports) * (headroom - per_port)
        cfg.buffer_cells = cfg.ingress_lossless_pool + cfg.ingress_lossy_pool
        cfg.egress_lossless_pool = cfg.ingress_lossless_pool
    cfg.validate()
    return cfg


def run_net(cfg: MmuConfig, flows, drain=Fraction(1), us: float = 20, **kw):
    net = NetConfig(senders=len(flows), duration=int(us * 12500), drain=drain, flows=flows, **kw)
    nw = Network(net, cfg)
    return nw, nw.run()


def conserved(nw: Network, r) -> None:
    """Every frame sent is admitted, dropped or still on the link; every admitted cell is
    queued, on the egress wire, or released."""
    m = nw.mmu
    queued = sum(item[3] for q in nw.queues for item in q)
    on_wire = sum(1 for ev in nw.heap if ev[3] == "egress_done")
    assert m.total_used >= queued and m.total_used - queued <= on_wire * 37
    arriving = sum(1 for ev in nw.heap if ev[3] == "arrive")
    assert r.frames_sent == m.admitted + sum(m.drops) + arriving


@pytest.mark.parametrize("policy", ["static", "shared_pool", "dsh"])
@pytest.mark.parametrize("frame,drain", [(64, Fraction(0)), (1500, Fraction(0)),
                                         (64, Fraction(1))])
def test_network_no_lossless_drop_inside_the_guarantee(policy, frame, drain):
    """Every sender sends both lossless priorities; the egress drains or is stuck (everything
    in flight lands in headroom): eta per PG (static), a pool of every PG's eta (shared
    pool), eta per port (dsh) lose nothing."""
    flows = [[Flow(3, frame), Flow(4, frame)] for _ in range(4)]
    nw, r = run_net(net_cfg(policy, 4), flows, drain)
    assert r.lossless_drops == 0 and r.pfc_xoff > 0
    conserved(nw, r)
    if policy == "dsh":
        assert r.max_port_hdrm <= ETA


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_network_random_inside_the_guarantee(seed):
    """Random policy, senders, frame sizes (per flow), drain, dsh queue-level headroom
    (0 .. eta: losslessness does not depend on it) and start times: no lossless drop."""
    rng = random.Random(seed)
    print(f"seed {seed}")
    policy = rng.choice(["static", "shared_pool", "dsh"])
    senders = rng.randint(2, 5)
    flows = [[Flow(p, rng.choice([64, 65, 300, 1500]), start=rng.randrange(0, 20000))
              for p in rng.sample([0, 3, 4], rng.randint(1, 3))] for _ in range(senders)]
    drain = rng.choice([Fraction(0), Fraction(1, 3), Fraction(1)])
    cfg = net_cfg(policy, senders, queue_headroom=rng.randint(0, ETA))
    nw, r = run_net(cfg, flows, drain, us=rng.choice([10, 20]))
    assert r.lossless_drops == 0, (policy, senders, drain)
    conserved(nw, r)


def test_dsh_port_pause_holds_the_queue_paused_priorities():
    """A port-level XON must not resume a priority still paused at queue level: every frame
    the switch sends carries the whole lossless vector (models/network.py)."""
    flows = [[Flow(3, 64), Flow(4, 64)] for _ in range(4)]
    nw, r = run_net(net_cfg("dsh", 4, queue_headroom=ETA // 4), flows, Fraction(1, 2), us=30)
    assert r.port_pause > 0 and r.lossless_drops == 0
    for k in range(4):
        assert nw.sent_vec[k] == nw.mmu.pfc_vector(k)
    assert paused_byte_times(r) > 0


def test_oversubscribed_shared_pool_loses_lossless_frames():
    """Negative: the shared headroom pool sized for 2 PGs, 8 PGs (4 senders x 2 lossless
    priorities) in headroom at once, 64-byte frames, egress stuck: lossless frames are dropped
    (headroom_full); the same run with the pool of the guarantee loses nothing."""
    flows = [[Flow(3, 64), Flow(4, 64)] for _ in range(4)]
    _, bad = run_net(net_cfg("shared_pool", 4, pool=2 * ETA), flows, Fraction(0))
    assert bad.lossless_drops > 0
    assert bad.drop_reasons == {"headroom_full": bad.lossless_drops}
    _, good = run_net(net_cfg("shared_pool", 4), flows, Fraction(0))
    assert good.lossless_drops == 0


def test_undersized_port_headroom_loses_lossless_frames():
    """Negative for dsh: a quarter of eta per port, 64-byte frames, egress stuck."""
    flows = [[Flow(3, 64), Flow(4, 64)] for _ in range(4)]
    _, r = run_net(net_cfg("dsh", 4, headroom=ETA // 4), flows, Fraction(0))
    assert r.lossless_drops > 0 and r.drop_reasons == {"headroom_full": r.lossless_drops}


def test_paused_byte_times():
    from models.network import Result
    r = Result(pfc_log=[(10, 0, 3, True), (30, 0, 3, False), (40, 1, 3, True)], end=100)
    assert paused_byte_times(r) == 20 + 60


# ----------------------------------------------------------------- the experiment, small
def test_headroom_comparison_small(tmp_path):
    """The comparison on a small switch (CI budget): each policy loses nothing inside its
    guarantee, the over-subscribed pool loses, and so does the 2:1 pool under staggered
    two-priority congestion; dsh absorbs a larger burst than static."""
    s = hc.Setup(switch_ports=8, senders=4, buffer_mib=4, incast_bytes=64 * 1024, run_us=120,
                 worst_us=20, stagger_us=25)
    rows, md = hc.run(s, tmp_path, with_sweep=False)
    by = {r["policy"]: r for r in rows}
    for p in hc.POLICIES:
        assert by[p]["incast_lossless_drops"] == 0 and by[p]["worst_lossless_drops"] == 0
    assert by["shared_pool_oversubscribed"]["worst_lossless_drops"] > 0
    # staggered two-priority congestion: outside the 2:1 pool's guarantee, inside the others'
    assert by["shared_pool"]["staggered_lossless_drops"] > 0
    assert by["static"]["staggered_lossless_drops"] == by["dsh"]["staggered_lossless_drops"] == 0
    assert by["dsh"]["staggered_port_pauses"] > 0
    assert by["dsh"]["burst_bytes_total"] > by["static"]["burst_bytes_total"]
    assert "| dsh |" in md
    for f in ("headroom_policies.csv", "headroom_policies.md", "headroom_burst.png",
              "headroom_incast.png"):
        assert (tmp_path / f).stat().st_size > 0


def test_headroom_scenario_refuses_too_few_switch_ports(capsys, tmp_path):
    from models import scenario
    assert scenario.main(["headroom", "--ports", "8", "--switch-ports", "4",
                          "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "switch_ports" in err[0]
