"""Command-line plumbing shared by the model's tools (``pfcmmu`` and ``python -m models.*``).

Every wrong usage ends in exactly one line on stderr and a non-zero exit status:

* an argument argparse rejects (unknown option, missing value, a value its type check refuses):
  ``<prog>: error: <what> (see <prog> --help)``, exit 2;
* a request the model refuses while running (a configuration that cannot work, a file that
  cannot be read): ``<prog>: error: <what>``, exit 1 (see :func:`run_guarded`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable
from typing import NoReturn

USAGE_EXIT = 2  # argparse's own status for a usage error
FAIL_EXIT = 1


class Parser(argparse.ArgumentParser):
    """ArgumentParser whose usage errors are one line (argparse prints the usage, then the
    error).  Sub-parsers made with ``add_subparsers`` inherit the class."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_EXIT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _number(kind: type, lo: float | None, hi: float | None, lo_open: bool, what: str
            ) -> Callable[[str], float | int]:
    def parse(text: str) -> float | int:
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if kind is float and not math.isfinite(v):
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
        if lo is not None and (v <= lo if lo_open else v < lo):
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: must be {'>' if lo_open else '>='} {lo:g}"
                + (f" and <= {hi:g}" if hi is not None else ""))
        if hi is not None and v > hi:
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: must be <= {hi:g}"
                + (f" and {'>' if lo_open else '>='} {lo:g}" if lo is not None else ""))
        return v
    parse.__name__ = what  # argparse names the type in "invalid <name> value" messages
    return parse


def positive_float(text: str) -> float:
    """A float > 0 (a speed, a time)."""
    return _number(float, 0, None, True, "a finite number")(text)


def nonneg_float(text: str) -> float:
    """A float >= 0 (a cable length)."""
    return _number(float, 0, None, False, "a finite number")(text)


def int_range(lo: int | None, hi: int | None = None) -> Callable[[str], int]:
    """An integer in lo..hi (either end may be None: unbounded)."""
    return _number(int, lo, hi, False, "an integer")


def float_range(lo: float, hi: float) -> Callable[[str], float]:
    return _number(float, lo, hi, False, "a finite number")


def run_guarded(prog: str, body: Callable[[], int]) -> int:
    """Run ``body``; a ValueError (ConfigError is one), an OSError or a JSON error becomes one
    line on stderr and exit status 1 instead of a traceback."""
    try:
        return body()
    except BrokenPipeError:  # `| head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return FAIL_EXIT
    except json.JSONDecodeError as e:
        print(f"{prog}: error: not valid JSON: {e}", file=sys.stderr)
    except OSError as e:
        where = f": {e.filename}" if e.filename else ""
        print(f"{prog}: error: {e.strerror or e}{where}", file=sys.stderr)
    except ValueError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
    return FAIL_EXIT
