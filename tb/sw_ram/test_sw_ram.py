import pytest

import harness

# (width, depth, address bits, OUT_REG, IN_COPIES): plain, output-registered, and sliced /
# banked RAMs: 2 banks of 16K x 1 (the ULX3S buffer geometry, narrower) with its inputs in 4
# registered copies, one bank of 8K x 2 partly used (the Colorlight i5's) with 3 copies over 4
# slices, 3 banks with the last one partly used, slices of 18 over 40 bits; OUT_REG 3 (two
# registers per slice, as switch_core's data RAM) on the ULX3S geometry and on 3 banks
CONFIGS = [
    (12, 64, 6, 0, 0),
    (12, 64, 6, 1, 0),
    (6, 32768, 15, 2, 4),
    (8, 6144, 13, 2, 3),
    (40, 1300, 11, 2, 0),
    (6, 32768, 15, 3, 4),
    (40, 1300, 11, 3, 0),
]


@pytest.mark.parametrize("width,depth,aw,out_reg,copies", CONFIGS,
                         ids=[f"w{w}-d{d}-o{o}-c{c}" for w, d, _a, o, c in CONFIGS])
def test_sw_ram(width, depth, aw, out_reg, copies):
    harness.run("sw_ram", "sw_ram.sw_ram_cases",
                test_id=f"sw_ram-w{width}-d{depth}-o{out_reg}-c{copies}",
                sources=harness.rtl_sources(["sw_ram"]),
                parameters={"WIDTH": width, "DEPTH": depth, "ADDR_W": aw, "OUT_REG": out_reg,
                            "IN_COPIES": copies})
