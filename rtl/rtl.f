// Ordered Verilog source list: used by simulation (tb/harness.py), lint (scripts/lint.sh)
// and synthesis (syn/).  Paths relative to the repository root; leaf modules first.
rtl/uart_tx.v
rtl/stat_uart.v
rtl/frame_gen.v
rtl/frame_check.v
rtl/pfc_tx.v
rtl/pfc_rx.v
rtl/pfc_watchdog.v
rtl/mmu_mpram.v
rtl/mmu_cfg_check.v
rtl/mmu_core_carry.v
rtl/mmu_core_cfg.v
rtl/mmu_core_view.v
rtl/mmu_core_decide.v
rtl/mmu_core_commit.v
rtl/mmu_core_eval.v
rtl/mmu_core_status.v
rtl/mmu_core.v
rtl/regs/pfcmmu_csr.v
rtl/mmu_cfg_loader.v
rtl/sw_ram.v
rtl/sw_fifo.v
rtl/sw_free_list.v
rtl/sw_ingress.v
rtl/sw_egress.v
rtl/switch_core.v
rtl/fpga_core.v
