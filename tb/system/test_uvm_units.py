"""Plain-pytest unit tests of the system testbench's pure pieces (no simulator): Scapy frame
builders, link timing and headroom sizing, 802.1Qbb pause semantics with a fake clock, the
transmit scheduler, the scoreboard's flow and PFC books fed by the golden model, coverage."""

import re
from collections import Counter

import pytest
from scapy.contrib.mac_control import MACControlClassBasedFlowControl
from scapy.layers.l2 import Dot1Q, Ether

from models.config import example_config
from models.mmu import Mmu
from uvm.cov_db import CovDb, required_bins, size_bin
from uvm.env_config import EnvConfig
from uvm.flow_book import FlowBook
from uvm.frames import data_frame, frame_prio, is_pfc, parse_pfc, pfc_frame, flow_header
from uvm.link_timing import LinkTiming
from uvm.pause_state import PauseState
from uvm.pfc_book import PfcBook
from uvm.tx_scheduler import TxScheduler


def test_data_frame_sizes_and_header():
    for n in (64, 65, 1518, 9216):
        f = data_frame(1, 2, 5, 77, n)
        assert len(f) == n - 4  # no FCS on the stream
        pkt = Ether(f)
        assert pkt[Dot1Q].prio == 5 and pkt.dst == "02:00:00:00:00:02"
        assert flow_header(f) == (1, 2, 5, 77)
        assert frame_prio(f) == 5
    u = data_frame(0, 3, 2, 1, 100, tagged=False)
    assert frame_prio(u, default_prio=6) == 6 and flow_header(u)[3] == 1
    with pytest.raises(ValueError):
        data_frame(0, 1, 0, 0, 63)


def test_pfc_frame_matches_802_1qbb():
    f = pfc_frame("02:00:00:00:01:00", {3: 0xFFFF, 4: 0})
    assert len(f) == 60 and is_pfc(f)
    assert f[:6] == bytes.fromhex("0180c2000001") and f[12:16] == bytes.fromhex("88080101")
    assert f[16:18] == bytes([0, 0x18])  # class-enable vector: bits 3 and 4
    assert f[18 + 6:18 + 8] == b"\xff\xff"  # time[3]
    assert parse_pfc(f) == {3: 0xFFFF, 4: 0}
    assert MACControlClassBasedFlowControl in Ether(f)
    assert not is_pfc(data_frame(0, 1, 3, 0, 64))


def test_link_timing_quanta_and_headroom():
    t = LinkTiming(bytes_per_clock=8, clk_ns=8.0, prop_clocks=40, response_clocks=60)
    assert t.speed_gbps == 8
    assert t.quanta_to_clocks(1) == 8  # 512 bits at 64 bits per clock
    assert t.quanta_to_clocks(0xFFFF) == 0xFFFF * 8
    assert t.quanta_step_fixed() == (1 << 16) // 8
    h = t.headroom(mtu=1024, cell_bytes=64)
    # C * D_prop = 40 clocks * 8 B
    assert h.link_delay_bytes == pytest.approx(320)
    assert h.eta_bytes == 2 * (320 + 1024) + 3840
    with pytest.raises(ValueError):
        LinkTiming(response_clocks=1000).headroom(1024, 64)


def test_pause_state_802_1qbb():
    t = LinkTiming(bytes_per_clock=8, response_clocks=10)
    ps = PauseState(t)
    ps.receive(100, {3: 10})  # 10 quanta = 80 clocks, effective at 110
    assert not ps.paused(3, 109) and ps.paused(3, 110) and ps.paused(3, 189)
    assert not ps.paused(3, 190) and not ps.paused(4, 150)
    ps.receive(150, {3: 10, 4: 5})  # refresh restarts the timer
    assert ps.paused(3, 200) and ps.paused(3, 239) and not ps.paused(3, 240)
    assert ps.paused(4, 180) and not ps.paused(4, 200)
    ps.receive(300, {3: 100})
    ps.receive(320, {3: 0})  # XON resumes now
    assert ps.paused(3, 329) and not ps.paused(3, 330)
    ps.receive(400, {2: 50})
    ps.receive(410, {5: 0})  # enable bit clear for 2: untouched
    assert ps.paused(2, 430) and ps.next_change(430) == 410 + 400


def test_tx_scheduler_never_blocks_other_prios_and_control_first():
    t = LinkTiming(response_clocks=0)
    ps = PauseState(t)
    s = TxScheduler(ps)
    s.push(3, "a3")
    s.push(3, "b3")
    s.push(1, "a1")
    ps.receive(0, {3: 100})
    assert s.pick(1) == "a1" and s.pick(2) is None
    s.push_control("pfc")
    assert s.pick(3) == "pfc"
    assert s.pick(100 * 8 + 1) == "a3" and s.pick(802) == "b3"


def _book(cfg):
    return FlowBook([p.prio_to_pg for p in cfg.ports], [p.prio_to_queue for p in cfg.ports],
                    [p.default_prio for p in cfg.ports])


def test_flow_book_with_model_in_order_unchanged_and_drops():
    cfg = example_config(ports=2, buffer_cells=256, headroom=4, reserved=1)
    mmu = Mmu(cfg)
    fb = _book(cfg)
    frames = [data_frame(0, 1, 0, n, 1500) for n in range(12)]
    for n, f in enumerate(frames):
        fb.on_ingress(0, f, 1, n)
        d = mmu.arrive(0, 0, 1, 0, len(f))
        fb.on_request(n, 0, 0, 1, 0, len(f), d, False)
    assert sum(fb.drops_by_reason) > 0  # the lossy pool is small
    kept = fb.flows[(0, 1, 0)]
    for f in list(kept):
        fb.on_egress(1, f, 100)
    fb.final_check()
    assert not fb.errors and fb.delivered == fb.admitted


def test_flow_book_catches_reorder_corruption_loss_and_extra():
    cfg = example_config(ports=2)
    mmu = Mmu(cfg)
    fb = _book(cfg)
    frames = [data_frame(0, 1, 3, n, 200) for n in range(3)]
    for n, f in enumerate(frames):
        fb.on_ingress(0, f, 1, n)
        fb.on_request(n, 0, 3, 1, 3, len(f), mmu.arrive(0, 3, 1, 3, len(f)), True)
    fb.on_egress(1, frames[1], 10)  # out of order
    bad = bytearray(frames[1])
    bad[-1] ^= 1
    fb.on_egress(1, bytes(bad), 11)  # corrupted
    fb.on_egress(1, data_frame(0, 1, 5, 0, 64), 12)  # never admitted
    fb.final_check()  # frames[2] lost
    text = "\n".join(fb.errors)
    assert "out of order" in text and "corrupted" in text and "unexpected" in text
    assert "never left" in text
    fb2 = _book(cfg)
    fb2.on_ingress(0, frames[0], 1, 0)
    fb2.on_request(0, 0, 3, 2, 3, len(frames[0]), mmu.arrive(0, 3, 1, 3, 196), True)
    assert "does not match" in fb2.errors[0]


def test_pfc_book_accepts_matching_and_flags_wrong_or_missing():
    maps = [list(range(8))] * 2
    pb = PfcBook(maps, window=50)
    pb.model_event(100, 0, 3, True)
    pb.dut_pfc(120, 0, {3: 0xFFFF})
    pb.dut_pfc(400, 0, {3: 0xFFFF})  # refresh while XOFF
    pb.model_event(500, 0, 3, False)
    pb.dut_pfc(530, 0, {3: 0})
    pb.final_check(1000)
    assert not pb.errors
    pb.dut_pfc(700, 0, {3: 0xFFFF})  # XOFF the model never asked for
    pb.model_event(800, 0, 4, True)  # never sent
    pb.final_check(1000)
    assert len(pb.errors) == 2
    # partner pause into the switch: egress start inside the window is an error
    q2c = LinkTiming().quanta_to_clocks
    pb.pfc_into_switch(1000, 1, {2: 10}, q2c)
    pb.egress_start(1005, 1, 2)  # within rx slack: fine
    pb.egress_start(1050, 1, 2)
    pb.egress_start(1050, 1, 5)
    pb.egress_start(1100, 1, 2)  # 10 quanta = 80 clocks: expired
    assert pb.egress_in_pause == 1
    pb.pfc_into_switch(2000, 1, {2: 10}, q2c)
    pb.pfc_into_switch(2060, 1, {2: 10}, q2c)  # refresh: now paused until 2140
    pb.egress_start(2100, 1, 2)
    assert pb.egress_in_pause == 2
    pb.pfc_into_switch(2110, 1, {2: 0}, q2c)  # XON: may resume at once
    pb.egress_start(2112, 1, 2)
    assert pb.egress_in_pause == 2


def test_pfc_book_port_window_of_a_slow_egress():
    """A partner draining at half rate doubles the wait behind the largest frame: that port
    gets the longer window, the others keep theirs (and still catch a late frame)."""
    maps = [list(range(8))] * 2
    windows: dict[int, int] = {}
    pb = PfcBook(maps, window=50, port_windows=windows)
    windows[1] = 100  # set after construction, as set_drain does during a run
    for port in (0, 1):
        pb.model_event(100, port, 3, True)
        pb.dut_pfc(180, port, {3: 0xFFFF})  # 80 clocks: late for port 0 only
    pb.final_check(1000)
    assert len(pb.errors) == 1 and "port 0 pg 3" in pb.errors[0]
    assert pb.window_of(0) == 50 and pb.window_of(1) == 100


def test_env_config_drain_stretches_the_pfc_window():
    cfg = EnvConfig(mmu=example_config(ports=4))
    base = cfg.pfc_window
    cfg.note_drain(2, "full")
    cfg.note_drain(2, "stop")
    assert cfg.drain_windows == {} and cfg.pfc_window_max == base
    cfg.note_drain(2, (1, 2))
    cfg.note_drain(2, (3, 4))  # the port keeps its longest window
    assert cfg.drain_windows[2] == 2 * (base - 64) + 64 == cfg.pfc_window_max


def test_coverage_bins_and_closure():
    assert size_bin(64) == "size:64-64" and size_bin(9216) == "size:4096-9238"
    req = required_bins()
    assert "adm:prio3:headroom" in req and "adm:prio0:headroom" not in req
    assert len(req) == len(set(req))
    h = Counter({b: 1 for b in req[:-1]})
    assert CovDb.missing(h) == [req[-1]]
    assert "100.0" in CovDb.report(Counter({b: 1 for b in req}))


def test_closure_over_coverage_files(tmp_path):
    """The suite's closure check (test_system.check_closure) merges every test's coverage
    file; it passes when the files together hit every bin, and fails, naming the bin, when
    one bin is hit by no test."""
    import json

    from system.test_system import check_closure

    req = required_bins()
    half = len(req) // 2
    a, b = tmp_path / "coverage_A.json", tmp_path / "coverage_B.json"
    a.write_text(json.dumps({n: 1 for n in req[:half]}))
    b.write_text(json.dumps({n: 2 for n in req[half:]}))
    assert "100.0" in check_closure({"A": a, "B": b})
    b.write_text(json.dumps({n: 2 for n in req[half:-1]}))  # the last bin hit by no test
    with pytest.raises(AssertionError, match=re.escape(req[-1])):
        check_closure({"A": a, "B": b})


def test_cocotb_coverage_export_and_merge(tmp_path):
    """The cocotb-coverage XML of a test holds cov_db's required grid with that test's hits
    (bins outside the grid left out); merging two tests' files adds the hits bin by bin, and
    the totals agree with CovDb's report: closed when every bin is hit, one short otherwise."""
    from uvm.cov_export import groups, merge_xml, read_hits, read_totals, write_xml

    req = required_bins()
    assert sorted(b for g in groups().values() for b in g) == sorted(req)
    half = len(req) // 2
    a = Counter({b: 2 for b in req[:half]})
    a["cross:prio3:headroom:xoff"] = 4  # may happen, not required: not in the grid
    b = Counter({b: 1 for b in req[half - 3:-1]})  # overlaps a; the last bin hit by neither
    fa, fb, merged = tmp_path / "a.xml", tmp_path / "b.xml", tmp_path / "run.xml"
    write_xml(a, fa)
    write_xml(b, fb)
    assert read_hits(fa) == Counter({k: v for k, v in a.items() if k in req})
    assert read_totals(fa) == (half, len(req), round(100 * half / len(req), 2))
    merge_xml([fa, fb], merged)
    both = a + b
    assert read_hits(merged) == Counter({k: v for k, v in both.items() if k in req})
    got, size, _ = read_totals(merged)
    assert (got, size) == (len(req) - 1, len(req)) and CovDb.missing(both) == [req[-1]]
    assert f"coverage {got}/{size} bins" in CovDb.report(both)
    write_xml(both + Counter({req[-1]: 1}), fa)
    assert read_totals(fa) == (len(req), len(req), 100.0)


def test_negative_system_tests_named_as_in_system_cases():
    """The console summary marks the expect_fail tests of system_cases.py; the two lists agree."""
    from pathlib import Path

    from system.test_system import NEGATIVE, TRAFFIC

    text = (Path(__file__).resolve().parent / "system_cases.py").read_text()
    assert set(re.findall(r"expect_fail=True\)\((\w+)\)", text)) == set(NEGATIVE)
    assert set(NEGATIVE) <= set(TRAFFIC)


def test_egress_bytes_packed_by_tkeep():
    """PortMonitor packs the egress ring's beats as cocotbext-axi did: byte lane i of a beat
    when tkeep bit i is set, whatever the pattern (a hole in tkeep drops that byte)."""
    import random

    from uvm.port_monitor import beats_to_bytes

    def reference(words, keeps, bb):
        return bytes(w >> (8 * i) & 0xFF for w, k in zip(words, keeps) for i in range(bb)
                     if k >> i & 1)

    rng = random.Random(7)
    for bb in (1, 8):
        full = (1 << bb) - 1
        for _ in range(300):
            n = rng.randint(1, 12)
            words = [rng.getrandbits(8 * bb) for _ in range(n)]
            keeps = [full] * (n - 1) + [(1 << rng.randint(1, bb)) - 1]
            if rng.random() < 0.5:  # irregular: any pattern on any beat
                keeps = [rng.getrandbits(bb) for _ in range(n)]
            assert beats_to_bytes(words, keeps, bb) == reference(words, keeps, bb)
    f = data_frame(1, 2, 3, 4, 100)
    words = [int.from_bytes(f[i:i + 8], "little") for i in range(0, len(f), 8)]
    keeps = [0xFF] * (len(words) - 1) + [(1 << (len(f) % 8 or 8)) - 1]
    assert beats_to_bytes(words, keeps, 8) == f
    keeps[1] = 0xFE  # one byte missing in the middle: the frame is not the one sent
    assert beats_to_bytes(words, keeps, 8) != f


def _reg_model():
    from uvm.pfcmmu_reg_model import pfcmmu_mmu_core

    regs = pfcmmu_mmu_core("mmu_regs")
    regs.build()
    regs.lock_model()
    return regs


def test_reg_model_is_the_python_map():
    """The generated pyuvm register model (peakrdl-pyuvm) puts every register at the byte
    address of models/pfcmmu_regs.py (word << ADDR_SHIFT) with its access, and the map finds
    it by that address: the model the system bench reads through is the one map."""
    from models import pfcmmu_regs as pm

    regs = _reg_model()
    rmap = regs.get_default_map()

    def check(reg, word, r):
        addr = word << pm.ADDR_SHIFT
        assert reg.get_address() == addr, (reg.get_full_name(), hex(reg.get_address()))
        assert rmap.get_reg_by_offset(addr) is reg
        assert reg.get_rights() == ("RW" if r.writable else "RO"), reg.get_full_name()
        fields = {f.get_name(): f for f in reg.get_fields()}
        assert sorted(fields) == sorted(f.name for f in r.fields)
        for f in r.fields:
            assert (fields[f.name].get_lsb_pos(), fields[f.name].get_n_bits()) == \
                (f.lsb, f.width), (reg.get_full_name(), f.name)

    for name, r in pm.GLOBALS.items():
        check(getattr(regs, name), r.offset, r)
    for blocks, base, stride, table, n in ((regs.pg, pm.PG_BASE, pm.PG_STRIDE, pm.PG,
                                            pm.PG_ENTRIES),
                                           (regs.queue, pm.QUEUE_BASE, pm.QUEUE_STRIDE,
                                            pm.QUEUE, pm.QUEUE_ENTRIES)):
        assert len(blocks) == n
        for i in (0, 1, n - 1):
            for name, r in table.items():
                check(getattr(blocks[i], name), base + i * stride + r.offset, r)


def _switch_reg_model():
    from uvm.pfcmmu_switch_reg_model import pfcmmu_switch

    regs = pfcmmu_switch("switch_regs")
    regs.build()
    regs.lock_model()
    return regs


def test_switch_reg_model_is_the_python_map():
    """The generated switch register model (pfcmmu_switch) holds absolute AXI4-Lite
    addresses (its map at base 0): every global and every register of ports 0, 1 and 63 is
    at the byte address of models/pfcmmu_switch_regs.py (common.switch_regs.reg_addr) with
    its access, and ``reg_at`` finds the registers of both models by address (negative: an
    address neither map names, a path neither model has)."""
    from common import switch_regs
    from models import pfcmmu_switch_regs as swr
    from uvm.reg_agent import find_reg, reg_at

    sw = _switch_reg_model()
    mmu = _reg_model()
    blocks = (mmu, sw)

    def check(reg, key, r):
        addr = switch_regs.reg_addr(key)
        assert reg.get_address() == addr, (key, hex(reg.get_address()), hex(addr))
        assert reg_at(blocks, addr) is reg
        assert reg.get_rights() == ("RW" if r.writable else "RO"), key
        fields = {f.get_name(): f for f in reg.get_fields()}
        assert sorted(fields) == sorted(f.name for f in r.fields), key

    for key, r in swr.SW_GLOBALS.items():
        name, _, idx = key.partition("[")
        reg = getattr(sw, name)[int(idx[:-1])] if idx else getattr(sw, name)
        check(reg, key, r)
    assert len(sw.sw_port) == swr.SW_PORT_ENTRIES
    for p in (0, 1, swr.SW_PORT_ENTRIES - 1):
        for name, r in swr.SW_PORT.items():
            base, _, idx = name.partition("[")  # wd_storms[k]: an element of the port's array
            reg = getattr(sw.sw_port[p], base)
            check(reg[int(idx[:-1])] if idx else reg, f"{name}[{p}]", r)
    # the MMU's registers through the same lookup; a hole of the switch map names nothing
    assert reg_at(blocks, 0x80FC) is find_reg(mmu, "pg[3].xon_offset")
    assert reg_at(blocks, 0x20014) is None
    assert find_reg(blocks, "sw_port[1].wd_storm_limit").get_address() == 0x24130
    assert find_reg(blocks, "quanta_step").get_address() == 0x20008
    with pytest.raises(ValueError):
        find_reg(blocks, "sw_port[1].no_such")


def test_switch_regs_keys_and_diffs():
    """common.switch_regs: keys to addresses, the drained globals, the configuration as
    SwitchConfig writes it, and ``diffs`` naming a wrong or missing value (negative)."""
    from common import switch_regs as sr
    from models.swconfig import SwitchConfig

    assert sr.reg_addr("stall_clocks") == 0x20000
    assert sr.reg_addr("mmu_drop_count[2]") == 0x200A8
    assert sr.reg_addr("tx_frames[1]") == 0x24148
    with pytest.raises(KeyError):
        sr.reg_addr("no_such[1]")
    assert sr.keys(["used_cells", "tx_frames"], 2) == ["used_cells", "tx_frames[0]",
                                                      "tx_frames[1]"]
    scfg = SwitchConfig(port_count=2, quanta_step=1024)
    want = sr.config(scfg)
    assert {sr.reg_addr(k): v for k, v in want.items()} == dict(scfg.image())
    d = sr.drained(2048, [5, 1, 0, 2, 0, 0, 3])
    assert d["free_cells"] == 2048 and d["mmu_drop_count[0]"] == 1 and \
        d["mmu_drop_count[5]"] == 3 and len(d) == 10
    got = dict(d, used_cells=1)
    del got["errors"]
    assert sr.diffs(got, d) == [("used_cells", 1, 0), ("errors", None, 0)]
    assert sr.diffs(dict(d), d) == []


def test_reg_adapter_and_item():
    """AxilRegAdapter: a register read / write becomes an AxilRegItem at the byte address;
    the answered item gives the data, OKAY -> UVM_IS_OK, SLVERR -> UVM_NOT_OK (negative)."""
    from cocotbext.axi import AxiResp
    from pyuvm import uvm_access_e, uvm_reg_bus_op, uvm_status_e

    from uvm.reg_agent import AxilRegAdapter, find_reg

    ad = AxilRegAdapter()
    op = uvm_reg_bus_op()
    op.kind, op.addr, op.data = uvm_access_e.UVM_WRITE, 0x80FC, 0x1_0000_0009
    it = ad.reg2bus(op)
    assert (it.write, it.addr, it.data) == (True, 0x80FC, 9)
    op = uvm_reg_bus_op()
    op.kind, op.addr = uvm_access_e.UVM_READ, 0x30
    it = ad.reg2bus(op)
    assert (it.write, it.addr) == (False, 0x30)
    it.data, it.resp = 1234, AxiResp.OKAY
    ad.bus2reg(it, op)
    assert op.data == 1234 and op.status == uvm_status_e.UVM_IS_OK
    it.resp = AxiResp.SLVERR
    ad.bus2reg(it, op)
    assert op.status == uvm_status_e.UVM_NOT_OK
    regs = _reg_model()
    assert find_reg(regs, "pg[3].xon_offset").get_address() == 0x80FC
    with pytest.raises(ValueError):
        find_reg(regs, "pg[3].no_such")
