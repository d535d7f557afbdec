"""Argument types shared by the command line and the pytest plugin (kept import-light).

Each raises :class:`argparse.ArgumentTypeError`, which argparse (and so pytest's option
parser) turns into a usage error naming the option.
"""

from __future__ import annotations

import argparse
import math

__all__ = ["MAX_SECONDS", "non_negative_int", "positive_float", "positive_int"]

#: The longest time any option may name: a day.  Far longer ends in an overflow deep in
#: the clocks and sockets that wait (``1e308`` seconds is an ``OverflowError`` there).
MAX_SECONDS = 86_400.0


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number of at least 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number greater than 0 (seconds), at most :data:`MAX_SECONDS`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text}")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_SECONDS:.0f} seconds (a day), got {text[:40]}"
        )
    return value
