"""Tests of syn/ram_regs.py (the block RAM floorplan and output-register pinning) on small
hand-made Yosys netlists; no tool runs."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ram_regs  # noqa: E402


def ram(do_bits):
    return {"type": "DP16KD", "attributes": {}, "parameters": {},
            "port_directions": {f"DOB{i}": "output" for i in range(len(do_bits))} | {"CLKB": "input"},
            "connections": {f"DOB{i}": [b] for i, b in enumerate(do_bits)} | {"CLKB": [2]}}


def ff(d, q):
    return {"type": "TRELLIS_FF", "attributes": {}, "parameters": {},
            "port_directions": {"DI": "input", "CLK": "input", "Q": "output"},
            "connections": {"DI": [d], "CLK": [2], "Q": [q]}}


def lut(a, z):
    return {"type": "LUT4", "attributes": {}, "parameters": {},
            "port_directions": {"A": "input", "Z": "output"},
            "connections": {"A": [a], "Z": [z]}}


def netlist(cells):
    return {"modules": {"top": {"attributes": {"top": "00000000000000000000000000000001"},
                                "ports": {}, "cells": cells}}}


def xy(site):
    m = re.match(r"X(\d+)/Y(\d+)/", site)
    return int(m.group(1)), int(m.group(2))


def test_output_registers_are_sole_flip_flop_loads():
    cells = {
        "m.single.mem.0.0": ram([10, 11, 12]),
        "q0": ff(10, 20),                 # DOB0 -> one flip-flop: pinned
        "q1": ff(11, 21), "l1": lut(11, 22),   # DOB1 also drives a LUT: not pinned
        "l2": lut(12, 23),                # DOB2 -> a LUT only: nothing to pin
    }
    regs = ram_regs.ram_output_regs(netlist(cells)["modules"]["top"])
    assert regs == {"m.single.mem.0.0": ["q0"]}


def test_pin_puts_each_register_next_to_its_ram():
    cells = {"m.single.mem.0.0": ram(list(range(100, 118)))}
    for i in range(18):
        cells[f"q{i}"] = ff(100 + i, 200 + i)
    nl = netlist(cells)
    n_ram, n_reg = ram_regs.pin(nl, {"m.single.mem.0.0": "X40/Y46/EBR0"})
    assert (n_ram, n_reg) == (1, 18)
    c = nl["modules"]["top"]["cells"]
    assert c["m.single.mem.0.0"]["attributes"]["BEL"] == "X40/Y46/EBR0"
    bels = [c[f"q{i}"]["attributes"]["BEL"] for i in range(18)]
    assert len(set(bels)) == 18, "two registers on one flip-flop"
    for b in bels:
        x, y = xy(b)
        assert x in (40, 41) and y in (45, 47), b
        assert re.search(r"SLICE[ABCD]\.FF[01]$", b)


def test_compact_floorplan_groups_memories_near_the_centre():
    # a device of two rows of 8 sites, the closest rows 10 and 14
    sites = [f"X{x}/Y{y}/EBR{(x // 2) % 4}" for y in (10, 14, 40) for x in range(2, 34, 4)]
    assert ram_regs.auto_center(sites) == ((2 + 30) / 2, 12.0)
    cells = {}
    bit = 1000
    for b in range(2):
        for s in range(4):
            cells[f"buf.banked.bank[{b}].slice[{s}].mem.0.0"] = ram([bit])
            bit += 1
    cells["desc.single.mem.0.0"] = ram([bit])
    nl = netlist(cells)
    fp = ram_regs.compact_sites(nl, sites, ram_regs.auto_center(sites))
    assert len(fp) == 9 and len(set(fp.values())) == 9
    # nothing in the far row; the one-RAM memory has the site nearest the centre
    assert all(xy(s)[1] in (10, 14) for s in fp.values())
    cx, cy = ram_regs.auto_center(sites)
    dist = {n: abs(xy(s)[0] - cx) + 2 * abs(xy(s)[1] - cy) for n, s in fp.items()}
    assert dist["desc.single.mem.0.0"] == min(dist.values())
    # the two banks of a slice are neighbours in the buffer's row order
    order = sorted((n for n in fp if n.startswith("buf")),
                   key=lambda n: (xy(fp[n])[1], xy(fp[n])[0]))
    keys = [ram_regs._ram_key(n)[1] for n in order]
    assert keys == sorted(keys), keys
