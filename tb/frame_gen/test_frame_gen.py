import pytest

import harness


@pytest.mark.parametrize("data_width", [8, 64])
def test_frame_gen(data_width):
    harness.run("frame_gen", "frame_gen.frame_gen_cases", test_id=f"frame_gen-dw{data_width}",
                sources=harness.rtl_sources(["frame_gen"]),
                parameters={"DATA_WIDTH": data_width, "DEST_WIDTH": 2, "SRC_PORT": 1},
                testcase="generator_frames")


@pytest.mark.parametrize("data_width", [8, 64])
def test_frame_check(data_width):
    harness.run("frame_check", "frame_gen.frame_gen_cases", test_id=f"frame_check-dw{data_width}",
                sources=harness.rtl_sources(["frame_check"]),
                parameters={"DATA_WIDTH": data_width, "SRC_COUNT": 4, "PORT": 0},
                testcase="checker_counts_faults")
