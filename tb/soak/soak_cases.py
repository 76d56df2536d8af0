"""The soak run (tb/soak/soak_top.v): the bench only sets the configuration, starts and stops
the on-chip partners and reads counters every SOAK_CHUNK clocks (a Timer of many clocks, no
Python per clock); the admission trace goes to a file that tb/soak/replay.py replays through
the golden model after the simulation.  Ends with the switch drained and writes every figure
the checks need to soak_summary.json in the run folder.

Environment: SOAK_FRAMES (test frames delivered, counted by the frame checkers, before the
partners stop; the frames offered are about 1.65 times as many, the rest dropped), SOAK_SEED,
SOAK_BAD_RATE (bad priority-1 frames in 256), SOAK_PFC_PORTS (bit mask of the partners that
send PFC to the switch), SOAK_CHUNK (clocks between counter reads).  After the drain it reads
the admission core's status and switch_core's own registers (replay.switch_keys) over the same
AXI4-Lite master.
"""

from __future__ import annotations

import json
import os
import time

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, Timer

from common import switch_regs
from common.mmu_axil import MmuAxil
from common.mmu_bus import drained_status_addrs
from mmu_core import regmap
from soak.replay import SUMMARY_NAME, switch_keys
from soak.soak_config import CELL_W, LOSSLESS_MASK, PERIOD_NS, soak_switch_config, soak_config

P = {k[6:]: int(v) for k, v in os.environ.items() if k.startswith("PARAM_")}
PORTS = P.get("PORT_COUNT", 4)
BUFFER_CELLS = P.get("BUFFER_CELLS", 2048)
CELL_BYTES = P.get("CELL_BYTES", 128)
FRAMES = int(os.environ.get("SOAK_FRAMES", "20000"))
SEED = int(os.environ.get("SOAK_SEED", "1"))
BAD_RATE = int(os.environ.get("SOAK_BAD_RATE", "16"))
PFC_PORTS = int(os.environ.get("SOAK_PFC_PORTS", "3"), 0)
CHUNK = int(os.environ.get("SOAK_CHUNK", "20000"))
DRAIN_CLOCKS = 2_000_000


def words(sig, n: int) -> list[int]:
    v = int(sig.value)
    return [(v >> (32 * i)) & 0xFFFFFFFF for i in range(n)]


@cocotb.test()
async def soak(dut):
    """Congest the switch until it has delivered FRAMES test frames, drain, record."""
    t0 = time.time()
    log = dut._log
    cfg = soak_config(ports=PORTS, cell_bytes=CELL_BYTES, buffer_cells=BUFFER_CELLS)
    dut.seed.value = SEED
    dut.gen_enable.value = 0
    dut.partner_pfc_enable.value = 0
    dut.bad_rate.value = BAD_RATE
    dut.lossless_prios.value = LOSSLESS_MASK
    dut.trace_flush.value = 0
    regs = MmuAxil(dut, dut.clk, dut.rst)
    log.info("soak: %d frames to deliver, seed %d, bad frames %d/256 of priority 1, partners sending PFC "
             "%#x, %d ports, %d cells of %d bytes, headroom %d cells per lossless PG",
             FRAMES, SEED, BAD_RATE, PFC_PORTS, PORTS, BUFFER_CELLS, CELL_BYTES,
             cfg.ports[0].pgs[3].headroom)
    cocotb.start_soon(Clock(dut.clk, PERIOD_NS, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    # the switch registers, then the model's register image over AXI4-Lite; the switch
    # admits nothing before the admission image's last write
    await regs.load_switch(soak_switch_config(cfg))
    await regs.load(cfg, PORTS)
    await ClockCycles(dut.clk, 2)
    assert int(dut.cfg_done.value), "the admission gate did not open after the image"
    dut.gen_enable.value = 1
    dut.partner_pfc_enable.value = PFC_PORTS
    t_run = time.time()
    clocks = 0
    last_report = t_run
    while True:
        await Timer(CHUNK * PERIOD_NS, unit="ns")
        clocks += CHUNK
        offered = sum(words(dut.gen_frames, PORTS))
        delivered = sum(words(dut.chk_ok, PORTS))
        lost = sum(words(dut.chk_lost, PORTS)) + sum(words(dut.chk_errors, PORTS))
        assert lost == 0, f"frame_check: {words(dut.chk_lost, PORTS)} lost, " \
                          f"{words(dut.chk_errors, PORTS)} errors after {clocks} clocks"
        assert int(dut.cell_double_allocs.value) == 0 and \
            int(dut.cell_double_frees.value) == 0, "a cell handed out or freed twice"
        now = time.time()
        if now - last_report > 30 or delivered >= FRAMES:
            last_report = now
            log.info("soak: %d frames offered, %d delivered after %d clocks (%.0f s, %.0f "
                     "frames/s, %.0f clocks/s)", offered, delivered, clocks,
                     now - t_run, offered / max(now - t_run, 1e-9), clocks / max(now - t_run,
                                                                                  1e-9))
        if delivered >= FRAMES:
            break
    t_traffic = time.time() - t_run
    # drain: the partners stop sending data and PFC (their pause ends with an XON), the
    # switch empties its queues, its PGs leave XOFF
    dut.gen_enable.value = 0
    dut.partner_pfc_enable.value = 0
    drained = False
    waited = 0
    while waited < DRAIN_CLOCKS:
        await Timer(1000 * PERIOD_NS, unit="ns")
        waited += 1000
        busy = (any(words(dut.gen_busy, PORTS)) or int(dut.stat_queued_frames.value)
                or int(dut.core_busy.value) or int(dut.stat_used_cells.value)
                or int(dut.stat_xoff.value) or int(dut.stat_pause.value)
                or int(dut.partner_pause.value) or int(dut.partner_req_xoff.value))
        if not busy:
            drained = True
            break
    assert drained, (f"switch not drained after {DRAIN_CLOCKS} clocks: queued "
                     f"{int(dut.stat_queued_frames.value)}, used {int(dut.stat_used_cells.value)}"
                     f", xoff {int(dut.stat_xoff.value):#x}, pause {int(dut.stat_pause.value):#x}")
    # frames in the checkers' pipelines, the last PFC frames
    await Timer(2000 * PERIOD_NS, unit="ns")

    # admission core status: every counter zero, per-PG headroom watermarks
    n = PORTS * 8
    held_addrs = drained_status_addrs(n)
    wm_addrs = [regmap.pg_addr(i, "hdrm_wm") for i in range(n)] + [regmap.STATUS["hdrm_wm"]]
    vals = await regs.read_words(held_addrs + wm_addrs)
    held = [(hex(a), v) for a, v in zip(held_addrs, vals) if v]
    wms = vals[len(held_addrs):]
    # switch_core's own registers (configuration, drained globals, per-port counters), for
    # replay.check to compare with the soak's counts
    sw_regs = await switch_regs.read(regs, switch_keys(cfg))
    await FallingEdge(dut.clk)
    end_clock = int(dut.mmu_clock.value)
    dut.trace_flush.value = 1
    await RisingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.trace_flush.value = 0
    owned = int(dut.cells_owned.value)
    spare_valid = int(dut.spare_valid.value)
    spares = sorted(c for p, c in enumerate(words(dut.spare_cell, PORTS)) if spare_valid >> p & 1)
    wall = time.time() - t0
    s = {
        "params": {"ports": PORTS, "data_width": P.get("DATA_WIDTH", 64),
                   "cell_bytes": CELL_BYTES, "buffer_cells": BUFFER_CELLS, "seed": SEED,
                   "bad_rate": BAD_RATE, "pfc_ports": PFC_PORTS, "frames to deliver": FRAMES},
        "buffer_cells": BUFFER_CELLS,
        "end_clock": end_clock,
        "traffic_clocks": clocks,
        "trace_lines": int(dut.trace_lines.value),
        "sim_wall_s": round(wall, 1),
        "traffic_wall_s": round(t_traffic, 1),
        "mmu_held": held,
        "pg_hdrm_wm": wms[:n],
        "hdrm_pool_wm": wms[n],
        "cells_owned": sorted(i for i in range(BUFFER_CELLS) if owned >> i & 1),
        "spare_cells": spares,
        "err_flags": int(dut.err_flags.value),
        "stat_mmu_drop_count": words(dut.stat_mmu_drop_count, 7),
        "stat_xoff": int(dut.stat_xoff.value),
        "switch_regs": sw_regs,
    }
    for name in ("gen_frames", "gen_bad_frames", "gen_paused_clocks", "chk_ok", "chk_other",
                 "chk_lost", "chk_gaps", "chk_errors", "partner_pfc_rx", "partner_pfc_tx",
                 "stat_rx_frames", "stat_tx_frames", "stat_drop_error", "stat_drop_runt",
                 "stat_drop_oversize", "stat_drop_admission", "stat_pfc_rx_frames",
                 "stat_drop_malformed", "stat_drop_bad_dest", "stat_drop_stall",
                 "stat_ctrl_other"):
        s[name] = words(getattr(dut, name), PORTS)
    for name in ("stat_free_cells", "stat_free_low_wm", "stat_used_cells", "stat_queued_frames",
                 "cell_allocs", "cell_double_allocs", "cell_double_frees"):
        s[name] = int(getattr(dut, name).value)
    with open(SUMMARY_NAME, "w") as f:
        json.dump(s, f, indent=1)
    log.info("soak: %d frames offered in %d clocks, %.0f s of simulation (%.0f frames/s); "
             "trace %d lines", sum(s["gen_frames"]), end_clock, wall,
             sum(s["gen_frames"]) / max(t_traffic, 1e-9), s["trace_lines"])
