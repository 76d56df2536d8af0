"""syn/area_by_instance.py: cells grouped by their instance prefix, and the estimate."""

from syn.area_by_instance import by_instance, comb


def _netlist(cells: dict[str, str]) -> dict:
    return {"modules": {
        "top": {"attributes": {"top": "00000000000000000000000000000001"},
                "cells": {name: {"type": t} for name, t in cells.items()}},
        "other": {"cells": {"a.b_LUT4_Z": {"type": "LUT4"}}},
    }}


def test_groups_by_prefix_and_depth():
    n = _netlist({
        "core.sw.mmu.x_LUT4_Z": "LUT4",
        "core.sw.mmu.y_CCU2C": "CCU2C",
        "core.sw.port[0].z_TRELLIS_FF_Q": "TRELLIS_FF",
        "core.sw.w_LUT4_Z": "LUT4",
        "btn_LUT4_D": "LUT4",
        "core.sw.mmu.r_DPR": "TRELLIS_DPR16X4",
        "core.sw.mmu.pll": "EHXPLLL",            # not counted
    })
    g = by_instance(n, depth=3)
    assert g["core.sw.mmu"] == {"LUT4": 1, "CCU2C": 1, "TRELLIS_DPR16X4": 1, "TRELLIS_FF": 0}
    assert g["core.sw.port[0]"]["TRELLIS_FF"] == 1
    assert g["core.sw"]["LUT4"] == 1 and g["(top)"]["LUT4"] == 1
    assert by_instance(n, depth=1)["core"]["LUT4"] == 2     # the module "other" is not the top


def test_comb_estimate():
    assert comb({"LUT4": 10, "CCU2C": 3, "TRELLIS_DPR16X4": 2, "TRELLIS_FF": 1000}) == \
        10 + 6 + 8 + 104.0
