"""pyuvm environment for the pfcmmu switch (switch_core): one class per file.

Plain-Python pieces (frames, link_timing, pause_state, tx_scheduler, flow_book, cov_db) import
no cocotb and are unit-tested with pytest alone (tb/system/test_uvm_units.py); the rest are
pyuvm components run under cocotb by tb/system/system_cases.py.
"""
