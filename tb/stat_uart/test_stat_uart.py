import harness

from stat_uart.stat_uart_cases import check_decoder_catches_error


def test_stat_uart():
    harness.run("stat_uart", "stat_uart.stat_uart_cases", test_id="stat_uart",
                sources=harness.rtl_sources(["uart_tx", "stat_uart"]),
                parameters={"COUNT": 3, "LABELS": '"cba"', "CLKS_PER_BIT": 8})


def test_expected_line_sensitive():
    check_decoder_catches_error()
