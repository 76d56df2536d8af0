"""The shared admission predictor (tb/common/mmu_bus.py) without a simulator: a trace of
what a correct mmu_core shows (made by a second PipelinedMmu, responses RESP_LAT and pfc_xoff
changes XOFF_LAT clocks after its steps, the configuration written first through the port)
passes, handed over only on the clocks that have something; each kind of fault put into the
trace is reported."""

from __future__ import annotations

import random

import pytest

from common.mmu_bus import (RESP_LAT, XOFF_LAT, MmuPredictor, apply_write,
                            mmu_ports, pad_config)
from mmu_core import regmap
from models.config import MmuConfig, PgConfig, PortConfig, QueueConfig
from models.mmu_pipe import PipelinedMmu


def small_config(ports: int = 2) -> MmuConfig:
    pgs = [PgConfig(lossless=g == 3, reserved=1, alpha_shift=-1 if g == 3 else 0,
                    headroom=6 if g == 3 else 0, xon_offset=2) for g in range(8)]
    qs = [QueueConfig(lossless=g == 3, reserved=0, alpha_shift=1) for g in range(8)]
    return MmuConfig(ports=[PortConfig(pgs=[PgConfig(**vars(p)) for p in pgs],
                                       queues=[QueueConfig(**vars(q)) for q in qs])
                            for _ in range(ports)],
                     cell_bytes=128, buffer_cells=80, max_frame_bytes=1518,
                     ingress_lossless_pool=50, ingress_lossy_pool=30,
                     egress_lossless_pool=50, egress_lossy_pool=30)


def dut_trace(cfg: MmuConfig, clocks: int = 3000, seed: int = 1) -> list[dict]:
    """{clock, rel, arr, tag, write, resp, xoff} of every clock with something on it, as a
    correct mmu_core would show them: the configuration written first (one field per clock),
    then random traffic."""
    ports = mmu_ports(cfg.port_count)
    dut = PipelinedMmu(pad_config(cfg, ports), validate=False)
    image = regmap.config_image(pad_config(cfg, ports))
    rng = random.Random(seed)
    out: dict[int, dict] = {}
    held: list[tuple] = []
    vec = 0

    def at(k: int) -> dict:
        return out.setdefault(k, {"clock": k})
    for k in range(clocks):
        ev = {}
        if k < len(image):
            ev["write"] = image[k]
        elif rng.random() < 0.6:
            if held and rng.random() < 0.45:
                port, pg, eport, q, cells = held.pop(rng.randrange(len(held)))
                ev["rel"] = (port, pg, eport, q, cells)
            if rng.random() < 0.5:
                port, pg = rng.randrange(cfg.port_count), rng.choice((1, 3))
                ev["arr"] = (port, pg, rng.randrange(cfg.port_count), pg,
                             rng.randint(60, 700))
                ev["tag"] = k & 0xFF
        d = dut.clock(ev.get("rel"), ev.get("arr"))
        if "write" in ev:
            apply_write(dut, *ev["write"])
        if d is not None:
            at(k + RESP_LAT)["resp"] = (int(d.admit), d.reason, d.cells, d.res, d.shared,
                                        d.hdrm, d.eres, d.eshared, ev["tag"])
            if d.admit:
                a = ev["arr"]
                held.append((a[0], a[1], a[2], a[3], d.cells))
        new = sum(1 << i for i, x in enumerate(dut.xoff) if x)
        if new != vec:
            vec = new
            at(k + XOFF_LAT)["xoff"] = new
        if ev:
            at(k).update(ev)
    return [out[k] for k in sorted(out) if k < clocks]


def run(cfg: MmuConfig, trace: list[dict]) -> MmuPredictor:
    pred = MmuPredictor(cfg)
    for e in trace:
        pred.observe(e["clock"], e.get("rel"), e.get("arr"), e.get("tag", 0), e.get("write"),
                     e.get("resp"), e.get("xoff"))
    pred.sync(trace[-1]["clock"] + 1)
    pred.check_loaded()
    return pred


@pytest.mark.parametrize("ports", [2, 3])
def test_correct_trace_passes(ports):
    cfg = small_config(ports)
    trace = dut_trace(cfg)
    pred = run(cfg, trace)
    assert not pred.errors, pred.errors[:3]
    m = pred.model
    # not vacuous: admissions, drops, XOFF, every write, idle clocks between observations
    assert m.admitted > 50 and sum(m.drops) > 5 and sum(m.xoff_count) > 0, pred.summary()
    assert pred.xoff_changes > 0 and pred.writes == len(pred.image)
    assert len(trace) < trace[-1]["clock"]


def _first(trace, key):
    return next(i for i, e in enumerate(trace) if key in e and e["clock"] > 700)


@pytest.mark.parametrize("fault", ["resp_field", "resp_missing", "resp_late", "resp_extra",
                                   "xoff_value", "xoff_missing", "xoff_extra", "write_value",
                                   "write_missing"])
def test_each_fault_is_reported(fault):
    cfg = small_config(2)
    trace = dut_trace(cfg)
    if fault == "resp_field":
        e = trace[_first(trace, "resp")]
        e["resp"] = e["resp"][:4] + (e["resp"][4] + 1,) + e["resp"][5:]
    elif fault == "resp_missing":
        del trace[_first(trace, "resp")]["resp"]
    elif fault == "resp_late":
        clocks = {x["clock"] for x in trace}
        e = next(x for x in trace if "resp" in x and x["clock"] > 700
                 and x["clock"] + 1 not in clocks)
        trace.insert(trace.index(e) + 1, {"clock": e["clock"] + 1, "resp": e.pop("resp")})
    elif fault == "resp_extra":
        clocks = {x["clock"] for x in trace}
        e = next(x for x in trace if "arr" in x and x["clock"] > 700
                 and x["clock"] + 1 not in clocks)
        trace.insert(trace.index(e) + 1, {"clock": e["clock"] + 1,
                                          "resp": (0, 1, 0, 0, 0, 0, 0, 0, 0)})
    elif fault == "xoff_value":
        e = trace[_first(trace, "xoff")]
        e["xoff"] ^= 1 << 10
    elif fault == "xoff_missing":
        del trace[_first(trace, "xoff")]["xoff"]
    elif fault == "xoff_extra":
        e = trace[_first(trace, "resp")]
        if "xoff" in e:
            pytest.skip("clock taken")
        e["xoff"] = 1 << 7
    elif fault == "write_value":
        trace[5]["write"] = (trace[5]["write"][0], trace[5]["write"][1] + 1)
    elif fault == "write_missing":
        del trace[5]["write"]
    pred = run(cfg, trace)
    assert pred.errors, f"{fault} not reported"
