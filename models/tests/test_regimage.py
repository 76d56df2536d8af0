"""models/regimage.py: MmuConfig -> register image -> MmuConfig, the three file formats, the
width rule, and the three SONiC examples (models/examples/README.md).  Each check has a
negative: a value too wide, a corrupted, truncated or padded image, a template value the
MMU cannot hold."""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from models import pfcmmu_regs as regs
from models import regimage as ri
from models.config import (ConfigError, MmuConfig, PgConfig, PortConfig, QueueConfig,
                           example_config, selftest_config)
from models.sonic import from_sonic

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# the three SONiC examples and the cell size each is loaded with here (256: the benches' core)
SONIC = {"arista_7050qx32": 208, "mellanox_sn2700_shp": 256, "broadcom_td2_static": 256}
# the two ports tb/mmu_csr loads (its core has PORT_COUNT 2)
BENCH_PORTS = ["Ethernet0", "Ethernet4"]


def sonic(name: str, cell_bytes: int | None = None, ports: list[str] | None = None) -> MmuConfig:
    data = (EXAMPLES / f"{name}.json").read_text()
    return from_sonic(data, cell_bytes or SONIC[name], ports=ports)


def random_config(seed: int) -> MmuConfig:
    """Any value the registers hold (the image does not validate): 1..4 ports, every field
    random within its width, pools consistent so the shared segments are not negative."""
    rng = random.Random(seed)
    ports = []
    for _ in range(rng.randint(1, 4)):
        pgs = [PgConfig(lossless=rng.random() < 0.4, reserved=rng.randrange(64),
                        dynamic=rng.random() < 0.7, alpha_shift=rng.randint(-8, 7),
                        static_th=rng.randrange(1 << 16), headroom=rng.randrange(300),
                        xon=rng.randrange(1 << 16), xon_offset=rng.randrange(1 << 16))
               for _ in range(8)]
        qs = [QueueConfig(lossless=rng.random() < 0.4, reserved=rng.randrange(64),
                          dynamic=rng.random() < 0.5, alpha_shift=rng.randint(-8, 7),
                          static_th=rng.randrange(1 << 16)) for _ in range(8)]
        ports.append(PortConfig(pgs=pgs, queues=qs))
    cfg = MmuConfig(ports=ports, buffer_cells=rng.randrange(1, 1 << 16),
                    max_frame_bytes=rng.randrange(64, 1 << 32),
                    shared_headroom_pool=rng.choice([0, rng.randrange(1 << 16)]))
    # pools = what their PGs / queues take + a random shared segment
    cfg.ingress_lossless_pool = cfg.ingress_lossy_pool = 0
    cfg.egress_lossless_pool = cfg.egress_lossy_pool = 0
    for name, derived in (("ingress_lossless_pool", "lossless_shared"),
                          ("ingress_lossy_pool", "lossy_shared"),
                          ("egress_lossless_pool", "egress_lossless_shared"),
                          ("egress_lossy_pool", "egress_lossy_shared")):
        setattr(cfg, name, -getattr(cfg, derived) + rng.randrange(1 << 16))
    return cfg


CONFIGS = {
    "example": example_config,
    "example_1port": lambda: example_config(ports=1),
    "selftest": selftest_config,
    "shared_headroom_static": lambda: _shared_headroom_static(),
    "dsh": lambda: _dsh(),
    **{f"random{s}": (lambda s=s: random_config(s)) for s in range(6)},
    **{f"sonic_{n}": (lambda n=n: sonic(n)) for n in SONIC},
    **{f"sonic_{n}_2ports": (lambda n=n: sonic(n, 256, BENCH_PORTS)) for n in SONIC},
}


def _shared_headroom_static() -> MmuConfig:
    cfg = example_config(ports=2)
    cfg.shared_headroom_pool = 100
    for _, _, q in cfg.all_queues():
        q.dynamic, q.static_th = False, 65535
    cfg.ports[1].pgs[3].alpha_shift = -7
    cfg.ports[1].pgs[4].alpha_shift = 3
    cfg.ports[0].prio_to_pg = [0, 0, 1, 3, 4, 1, 1, 1]
    cfg.ports[0].speed_gbps, cfg.ports[0].cable_m = 25, 7
    cfg.cell_bytes = 208
    return cfg


def _dsh() -> MmuConfig:
    """The headroom policy dsh: the register headroom_policy 1, one port_headroom per port."""
    cfg = example_config(ports=2)
    cfg.headroom_policy = "dsh"
    cfg.shared_headroom_pool = 0
    cfg.ports[0].port_headroom, cfg.ports[1].port_headroom = 174, 90
    return cfg


# ---------------------------------------------------------------------------- round trip
@pytest.mark.parametrize("name", CONFIGS)
def test_round_trip(name):
    """MmuConfig -> image -> MmuConfig gives the configuration back, equal as a dataclass
    (what the image does not hold taken from ``like``), and the image of the result is the
    same image."""
    cfg = CONFIGS[name]()
    img = ri.image(cfg)
    assert len(img) == ri.image_entries(cfg.port_count)
    back = ri.config_from_image(img, like=cfg)
    assert back == cfg
    assert ri.image(back) == img
    # without ``like``: the registers' part alone, the rest the defaults
    bare = ri.config_from_image(img, cell_bytes=cfg.cell_bytes)
    want = copy.deepcopy(cfg)
    for p in want.ports:
        d = PortConfig()
        p.prio_to_pg, p.prio_to_queue, p.default_prio = d.prio_to_pg, d.prio_to_queue, 0
        p.speed_gbps, p.cable_m = d.speed_gbps, d.cable_m
    assert bare == want


@pytest.mark.parametrize("name", ["example", "dsh"])
def test_image_order_and_addresses(name):
    """Globals, then PG entries 0..N*8-1, then the ports, then the queue entries, each block
    in address order; the last write the last queue's static_th (switch_core's admission gate
    opens on it); every address a configuration register of the generated map, each once; byte
    address = word address << ADDR_SHIFT."""
    cfg = CONFIGS[name]()
    img = ri.image(cfg)
    addrs = [a for a, _ in img]
    assert len(set(addrs)) == len(addrs)
    words = [a >> regs.ADDR_SHIFT for a in addrs]
    assert all(a == w << regs.ADDR_SHIFT for a, w in zip(addrs, words))
    kinds = [ri.decode_word(w) for w in words]
    assert all(k is not None for k in kinds)
    order = ["global", "pg", "port", "queue"]
    ranks = [order.index(k) for k, _, _ in kinds]
    assert ranks == sorted(ranks)
    for r in range(len(order)):  # within each block the map's order is ascending
        block_words = [w for w, k in zip(words, ranks) if k == r]
        assert block_words == sorted(block_words)
    assert ri.reg_label(addrs[-1]) == f"queue[{cfg.port_count * 8 - 1}].static_th"
    for kind, _, name in kinds:
        block = {"global": regs.GLOBALS, "pg": regs.PG, "queue": regs.QUEUE,
                 "port": regs.PORT}[kind]
        assert block[name].writable
    assert [k for k, _, _ in kinds].count("global") == len(ri.GLOBAL_REGS)
    assert img[0] == (regs.GLOBALS["buffer_cells"].offset << regs.ADDR_SHIFT, cfg.buffer_cells)
    # alpha_shift -1 as its 4-bit two's complement pattern
    a = ri.pg_word(3, "alpha_shift") << regs.ADDR_SHIFT
    assert dict(img)[a] == 0xF


def test_every_configuration_register_has_a_source(monkeypatch):
    """A configuration register of the map without an MmuConfig value (the RDL grew one) stops
    the import of models.regimage; so does a source whose register went away."""
    ri._check_map()
    monkeypatch.delitem(ri.GLOBAL_SOURCES, "hdrm_pool")
    with pytest.raises(ImportError, match="hdrm_pool"):
        ri._check_map()
    monkeypatch.setitem(ri.GLOBAL_SOURCES, "hdrm_pool", "shared_headroom_pool")
    monkeypatch.setitem(ri.GLOBAL_SOURCES, "gone", "buffer_cells")
    with pytest.raises(ImportError, match="gone"):
        ri._check_map()
    monkeypatch.delitem(ri.GLOBAL_SOURCES, "gone")
    monkeypatch.setattr(ri, "PG_REGS", ri.PG_REGS + [regs.Reg("pause_quanta", 0x10, ())])
    with pytest.raises(ImportError, match="pg.pause_quanta"):
        ri._check_map()


# ---------------------------------------------------------------------------- width rule
@pytest.mark.parametrize("where,setter,words", [
    ("PG reserved 65536", lambda c: setattr(c.ports[1].pgs[3], "reserved", 65536),
     ["ports[1].pgs[3].reserved", "register reserved", "field value", "16 bits"]),
    ("queue static_th -1", lambda c: setattr(c.ports[0].queues[2], "static_th", -1),
     ["ports[0].queues[2].static_th", "register static_th", "unsigned"]),
    ("PG alpha_shift 8", lambda c: setattr(c.ports[0].pgs[4], "alpha_shift", 8),
     ["ports[0].pgs[4].alpha_shift", "register alpha_shift", "two's complement", "-8 .. 7"]),
    ("queue alpha_shift -9", lambda c: setattr(c.ports[0].queues[0], "alpha_shift", -9),
     ["ports[0].queues[0].alpha_shift", "alpha_shift"]),
    ("buffer_cells 70000", lambda c: setattr(c, "buffer_cells", 70000),
     ["buffer_cells", "70000", "field value"]),
    ("max_frame_bytes 2^32", lambda c: setattr(c, "max_frame_bytes", 1 << 32),
     ["max_frame_bytes", "32 bits"]),
    ("pool overfull: shared segment negative",
     lambda c: setattr(c, "ingress_lossy_pool", 0),
     ["lossy_shared", "register pool_shared_lossy"]),
    ("headroom pool 65536", lambda c: setattr(c, "shared_headroom_pool", 65536),
     ["shared_headroom_pool", "register hdrm_pool"]),
])
def test_value_too_wide_is_refused(where, setter, words):
    cfg = example_config(ports=2, buffer_cells=60000)
    ri.image(cfg)  # fits
    setter(cfg)
    with pytest.raises(ConfigError) as e:
        ri.image(cfg)
    for w in words:
        assert w in str(e.value), (where, str(e.value))


def test_widest_values_fit():
    """The edges of each field: 65535 cells, alpha_shift -8 and 7, max_frame_bytes 2^32 - 1."""
    cfg = example_config(ports=1)
    cfg.buffer_cells, cfg.max_frame_bytes = 65535, (1 << 32) - 1
    cfg.ports[0].pgs[0].static_th = 65535
    cfg.ports[0].pgs[1].alpha_shift, cfg.ports[0].pgs[2].alpha_shift = -8, 7
    img = ri.image(cfg)
    assert ri.config_from_image(img, like=cfg) == cfg


def test_sonic_at_its_own_cell_size_does_not_fit():
    """Spectrum's 96-byte cells: the 13.9 MB buffer is 145,269 cells, more than the 16-bit
    buffer_cells register holds; the image says which register."""
    cfg = sonic("mellanox_sn2700_shp", 96)
    with pytest.raises(ConfigError, match=r"buffer_cells: 145269 does not fit register "
                                          r"buffer_cells"):
        ri.image(cfg)


# ---------------------------------------------------------------------------- corruption
def _img():
    cfg = example_config(ports=2)
    return cfg, ri.image(cfg)


@pytest.mark.parametrize("k", [0, 3, 7, 11, 60, 150, 200])
def test_corrupted_value_fails_the_round_trip(k):
    """One bit of one value flipped (within its field): the configuration that comes back is
    not the one the image was made from."""
    cfg, img = _img()
    addr, value = img[k]
    _, _, name = ri.decode_word(addr >> regs.ADDR_SHIFT)
    reg = next(r for r in ri.GLOBAL_REGS + ri.PG_REGS + ri.PORT_REGS + ri.QUEUE_REGS
               if r.name == name)
    bad = list(img)
    bad[k] = (addr, value ^ (1 << (reg.fields[0].width - 1)))
    assert ri.config_from_image(bad, like=cfg) != cfg


@pytest.mark.parametrize("what,mutate,words", [
    ("an entry dropped", lambda img: img[:40] + img[41:], ["missing", "pg["]),
    ("the last entry dropped", lambda img: img[:-1], ["missing", "queue[15].static_th"]),
    ("an entry twice", lambda img: img + [img[5]], ["written twice"]),
    ("a status register", lambda img: img + [(regs.GLOBALS["admitted"].offset << 2, 0)],
     ["read only", "admitted"]),
    ("an unmapped address", lambda img: img + [(0x28 << 2, 0)], ["not a register"]),
    ("an unaligned address", lambda img: [(img[0][0] + 1, img[0][1])] + img[1:],
     ["not a register"]),
    ("bits outside a 1-bit field", lambda img: [(a, 2 if k == 8 else v)
                                                for k, (a, v) in enumerate(img)],
     ["bits outside", "lossless"]),
    ("a port half there", lambda img: img + [(ri.pg_word(16, "lossless") << 2, 1)],
     ["missing", "pg[16]"]),
])
def test_broken_image_is_refused(what, mutate, words):
    cfg, img = _img()
    with pytest.raises(ConfigError) as e:
        ri.config_from_image(mutate(list(img)), like=cfg)
    for w in words:
        assert w in str(e.value), (what, str(e.value))


# ---------------------------------------------------------------------------- file formats
@pytest.mark.parametrize("fmt", ri.FORMATS)
def test_writer_parsed_back(fmt, tmp_path):
    cfg = sonic("mellanox_sn2700_shp", 256, BENCH_PORTS)
    path = tmp_path / f"image{fmt}"
    n = ri.write_image(cfg, path, source="mellanox_sn2700_shp.json")
    assert n == ri.image_entries(2) == 218
    img = ri.read_image(path)
    assert img == ri.image(cfg)
    assert ri.config_from_image(img, like=cfg) == cfg


def test_hex_format_and_markers():
    cfg, img = _img()
    text = ri.to_hex(img, 2, 256)
    data = [ln for ln in text.splitlines() if not ln.startswith("//")]
    assert len(data) == len(img) + 1 and data[-1] == "ffffffff 00000000"
    assert all(len(ln) == 17 and ln[8] == " " for ln in data)
    with pytest.raises(ConfigError, match="no end marker"):
        ri.from_hex("\n".join(text.splitlines()[:-1]))  # truncated
    with pytest.raises(ConfigError, match="after the end marker"):
        ri.from_hex(text + "00000080 00000001\n")
    with pytest.raises(ConfigError, match="not a hex word"):
        ri.from_hex(text.replace("00000080", "0000008g", 1))


def test_json_and_header_counts():
    cfg, img = _img()
    doc = json.loads(ri.to_json(img, 2, 256))
    assert doc["entries"] == len(img) and doc["writes"][0]["reg"] == "buffer_cells"
    doc["writes"].pop()
    with pytest.raises(ConfigError, match="entries says"):
        ri.from_json(json.dumps(doc))
    with pytest.raises(ConfigError, match="format"):
        ri.from_json(json.dumps({"writes": []}))
    h = ri.to_c_header(img, 2, 256)
    with pytest.raises(ConfigError, match="_ENTRIES"):
        ri.from_c_header(h.replace(f"{{0x{img[-1][0]:05x}u", "{0x0zzzzu"))
    with pytest.raises(ConfigError, match="unknown image format"):
        ri.image_format("image.bin")


@pytest.mark.skipif(not shutil.which("iverilog") or not shutil.which("vvp"),
                    reason="needs Icarus Verilog (make setup installs it)")
def test_hex_reads_with_readmemh(tmp_path):
    """$readmemh (Icarus) reads the .hex file as words 2k (address) and 2k+1 (value), the end
    marker last."""
    cfg, img = _img()
    (tmp_path / "image.hex").write_text(ri.to_hex(img, 2, 256, source="x"))
    n = 2 * len(img) + 2
    (tmp_path / "t.v").write_text(f"""
module t;
reg [31:0] rom [0:{n - 1}];
integer k;
initial begin
    $readmemh("image.hex", rom);
    for (k = 0; k < {n}; k = k + 2) $display("%h %h", rom[k], rom[k + 1]);
    $finish;
end
endmodule
""")
    subprocess.run(["iverilog", "-g2012", "-o", "t.vvp", "t.v"], cwd=tmp_path, check=True)
    out = subprocess.run(["vvp", "-n", "t.vvp"], cwd=tmp_path, check=True, capture_output=True,
                         text=True).stdout.split()
    got = [(int(out[k], 16), int(out[k + 1], 16)) for k in range(0, len(out) - 1, 2)
           if not out[k].startswith("$")]
    assert got[:-1] == img and got[-1] == (ri.HEX_END, 0)


@pytest.mark.skipif(not shutil.which("cc"), reason="needs a C compiler")
def test_c_header_compiles_and_holds_the_image(tmp_path):
    cfg, img = _img()
    (tmp_path / "image.h").write_text(ri.to_c_header(img, 2, 256, source="x"))
    (tmp_path / "main.c").write_text("""
#include <stdio.h>
#include "image.h"
#include "image.h"  /* twice: the guard */
int main(void) {
    for (unsigned k = 0; k < PFCMMU_IMAGE_ENTRIES; k++)
        printf("%x %x\\n", (unsigned)pfcmmu_image[k].addr, (unsigned)pfcmmu_image[k].value);
    return PFCMMU_IMAGE_PORT_COUNT == 2u && PFCMMU_IMAGE_CELL_BYTES == 256u ? 0 : 1;
}
""")
    subprocess.run(["cc", "-std=c99", "-Wall", "-Werror", "-o", "main", "main.c"], cwd=tmp_path,
                   check=True)
    out = subprocess.run([str(tmp_path / "main")], check=True, capture_output=True, text=True)
    got = [tuple(int(x, 16) for x in ln.split()) for ln in out.stdout.splitlines()]
    assert got == img


# ---------------------------------------------------------------------------- SONiC examples
@pytest.mark.parametrize("name", SONIC)
def test_sonic_examples_import(name):
    """Each example imports at full size and trimmed to the bench's two ports, validates
    without error, and has what its README line says it has."""
    full = sonic(name, 256)
    assert full.port_count == 32
    two = sonic(name, 256, BENCH_PORTS)
    assert two.port_count == 2
    ll = [pg for _, _, pg in two.all_pgs() if pg.lossless]
    assert len(ll) == 4  # PG 3-4 on each port
    if name == "mellanox_sn2700_shp":
        assert two.shared_headroom_pool > 0
        assert all(q.dynamic for _, _, q in two.all_queues())
        assert two.queue(0, 3).lossless and two.queue(0, 3).alpha_shift == 3
        assert all(pg.reserved == 76 for pg in ll)  # size = xon 19456 B in SHP mode
    if name == "broadcom_td2_static":
        lossy0 = two.pg(0, 0)
        assert not lossy0.lossless and not lossy0.dynamic and lossy0.static_th == 4096
        assert not two.queue(1, 4).dynamic and two.queue(1, 4).static_th == 49868
    if name == "arista_7050qx32":
        assert all(pg.alpha_shift == -3 for pg in ll)


def test_sonic_template_values_this_mmu_refuses():
    """What the examples changed from their templates, and why: Mellanox's egress lossless
    dynamic_th 7 (SAI's 'infinite' alpha) is outside -7..3; Broadcom's lossy ingress profile
    in the lossless pool needs a second kind of pool this MMU does not have."""
    data = json.loads((EXAMPLES / "mellanox_sn2700_shp.json").read_text())
    data["BUFFER_PROFILE"]["egress_lossless_profile"]["dynamic_th"] = "7"
    with pytest.raises(ConfigError, match=r"queues\[3\]\.alpha_shift: 7 outside -7\.\.3"):
        from_sonic(data, 256)
    data = json.loads((EXAMPLES / "broadcom_td2_static.json").read_text())
    data["BUFFER_PROFILE"]["ingress_lossy_profile"]["pool"] = "[BUFFER_POOL|ingress_lossless_pool]"
    with pytest.raises(ConfigError, match=r"ingress_lossy_profile\.pool"):
        from_sonic(data, 256)
