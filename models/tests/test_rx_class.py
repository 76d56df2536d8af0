"""The ingress classification (models.rx_class): one class per frame, first rule wins."""

from models.rx_class import PFC_DA, RxClass, RxConfig, RxFrame, acts, classify, count, keeps_ok

CFG = RxConfig(port_count=4, max_frame_bytes=1518, keep_width=8, stall_clocks=100)


def frame(da=bytes.fromhex("020000000001"), ethertype=0x0800, op=0, length=64) -> bytes:
    head = da + bytes(6) + ethertype.to_bytes(2, "big") + op.to_bytes(2, "big")
    return head + bytes(length - len(head))


def test_order_first_match_wins():
    pfc = frame(PFC_DA, 0x8808, 0x0101)
    assert classify(RxFrame(pfc), CFG) is RxClass.PFC
    assert classify(RxFrame(pfc, error=True), CFG) is RxClass.ERROR
    assert classify(RxFrame(pfc, stall=100, error=True), CFG) is RxClass.STALL
    assert classify(RxFrame(pfc, stall=99), CFG) is RxClass.PFC
    assert classify(RxFrame(pfc[:59]), CFG) is RxClass.RUNT
    assert classify(RxFrame(pfc, keeps=(0xFF,) * 3 + (0x0F,) + (0xFF,) * 4), CFG) \
        is RxClass.MALFORMED
    assert classify(RxFrame(frame(length=1519)), CFG) is RxClass.OVERSIZE
    assert classify(RxFrame(frame(length=1519), keeps=(0,)), CFG) is RxClass.MALFORMED


def test_mac_control_classes():
    assert classify(RxFrame(frame(PFC_DA, 0x8808, 0x0001)), CFG) is RxClass.PAUSE
    assert classify(RxFrame(frame(PFC_DA, 0x8808, 0x0002)), CFG) is RxClass.CTRL_UNKNOWN
    assert classify(RxFrame(frame(ethertype=0x8808, op=0x0101)), CFG) is RxClass.CTRL_MALFORMED
    assert classify(RxFrame(frame(PFC_DA, 0x8809)), CFG) is RxClass.CTRL_MALFORMED
    # consumed even with a tdest out of range (MAC Control goes nowhere)
    assert classify(RxFrame(frame(PFC_DA, 0x8808, 0x0101), dest=9), CFG) is RxClass.PFC


def test_data_classes():
    assert classify(RxFrame(frame(), dest=3), CFG) is RxClass.GOOD
    assert classify(RxFrame(frame(), dest=4), CFG) is RxClass.BAD_DEST
    no_cut = RxConfig(port_count=4, max_frame_bytes=1518, keep_width=8, stall_clocks=0)
    assert classify(RxFrame(frame(), stall=10**6), no_cut) is RxClass.GOOD


def test_keeps():
    assert keeps_ok((0xFF, 0x01), 8) and keeps_ok((0x7F,), 8) and keeps_ok((1, 1), 1)
    assert not keeps_ok((0xFF, 0x00), 8)       # empty last beat
    assert not keeps_ok((0xFE, 0xFF), 8)       # hole before tlast
    assert not keeps_ok((0xFF, 0x05), 8)       # non-contiguous last beat
    assert not keeps_ok((0, 1), 1)             # empty beat before tlast


def test_acts_and_count():
    on = RxConfig(port_count=4, max_frame_bytes=1518, keep_width=8, link_pause_enable=True)
    assert acts(RxClass.PFC, CFG) and not acts(RxClass.PAUSE, CFG) and acts(RxClass.PAUSE, on)
    assert not acts(RxClass.CTRL_UNKNOWN, on)
    c = count([RxFrame(frame()), RxFrame(frame(), error=True), RxFrame(frame())], CFG)
    assert c[RxClass.GOOD] == 2 and c[RxClass.ERROR] == 1
