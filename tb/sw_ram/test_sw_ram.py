import pytest

import harness

# (width, depth, address bits, OUT_REG): plain, output-registered, and sliced / banked RAMs:
# 2 banks of 16K x 1 (the ULX3S buffer geometry, narrower), one bank of 8K x 2 partly used
# (the Colorlight i5's), 3 banks with the last one partly used, slices of 18 over 40 bits
CONFIGS = [
    (12, 64, 6, 0),
    (12, 64, 6, 1),
    (6, 32768, 15, 2),
    (8, 6144, 13, 2),
    (40, 1300, 11, 2),
]


@pytest.mark.parametrize("width,depth,aw,out_reg", CONFIGS,
                         ids=[f"w{w}-d{d}-o{o}" for w, d, _a, o in CONFIGS])
def test_sw_ram(width, depth, aw, out_reg):
    harness.run("sw_ram", "sw_ram.sw_ram_cases",
                test_id=f"sw_ram-w{width}-d{depth}-o{out_reg}",
                sources=harness.rtl_sources(["sw_ram"]),
                parameters={"WIDTH": width, "DEPTH": depth, "ADDR_W": aw, "OUT_REG": out_reg})
