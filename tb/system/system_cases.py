"""cocotb test module of the system regression: every pyuvm test class of tb/uvm wrapped as a
cocotb test (pyuvm.test), selectable by class name (COCOTB_TEST_FILTER / harness testcase).
tb/system/test_system.py runs each in its own simulator process; coverage closure over all of
them is checked there, from the coverage file each test writes."""

import pyuvm

from uvm.egress_pause_test import EgressPauseTest
from uvm.incast_dsh_test import IncastDshTest
from uvm.incast_test import IncastTest
from uvm.incast_undersized_test import IncastUndersizedTest
from uvm.mixed_lossy_test import MixedLossyTest
from uvm.random_test import RandomTest
from uvm.soak_test import SoakTest
from uvm.warmup_test import WarmupTest

pyuvm.test()(WarmupTest)
pyuvm.test()(RandomTest)
pyuvm.test()(IncastTest)
# proves the losslessness check can fail: headroom an eighth of eta drops lossless frames
pyuvm.test(expect_fail=True)(IncastUndersizedTest)
pyuvm.test()(MixedLossyTest)
pyuvm.test()(EgressPauseTest)
pyuvm.test()(SoakTest)
# headroom policy dsh: port-level pauses honoured by the link partners (issue 21)
pyuvm.test()(IncastDshTest)
