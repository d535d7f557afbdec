"""Argument types shared by the command line and the pytest plugin (kept import-light).

Each raises :class:`argparse.ArgumentTypeError`, which argparse (and so pytest's option
parser) turns into a usage error naming the option.
"""

from __future__ import annotations

import argparse
import math

__all__ = [
    "EXAMPLE_DB_FORMS",
    "MAX_SECONDS",
    "MAX_SHARDS",
    "example_db",
    "non_negative_int",
    "positive_float",
    "positive_int",
    "shard",
    "shown_url",
]

#: The forms of ``--example-db``, as they are written.
EXAMPLE_DB_FORMS = ("dir:PATH", "redis://HOST:PORT/DB", "github-artifact:OWNER/REPO")

#: The most shards a run may be split into (a CI matrix wider than this is a typo).
MAX_SHARDS = 256

#: The longest time any option may name: a day.  Far longer ends in an overflow deep in
#: the clocks and sockets that wait (``1e308`` seconds is an ``OverflowError`` there).
MAX_SECONDS = 86_400.0


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    return _whole_number(text, 1)


def non_negative_int(text: str) -> int:
    """A whole number of at least 0."""
    return _whole_number(text, 0)


def _whole_number(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, got {value}")
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


def shard(text: str) -> tuple[int, int]:
    """``K/N``: the K-th (from 1) of N shards."""
    index, slash, count = text.partition("/")
    try:
        pair = (int(index), int(count)) if slash else None
    except ValueError:
        pair = None
    if pair is None:
        raise argparse.ArgumentTypeError(f"expected K/N such as 2/4, got {text!r}")
    if not 1 <= pair[1] <= MAX_SHARDS:
        raise argparse.ArgumentTypeError(f"N must be from 1 to {MAX_SHARDS}, got {text!r}")
    if not 1 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"K must be from 1 to N, got {text!r}")
    return pair


def example_db(url: str) -> str:
    """An example database URL: one of :data:`EXAMPLE_DB_FORMS`."""
    if url.startswith(("dir:", "redis://")) and url.partition(":")[2].strip("/"):
        return url
    owner, slash, repo = url.removeprefix("github-artifact:").partition("/")
    if url.startswith("github-artifact:") and owner and slash and repo and "/" not in repo:
        return url
    raise argparse.ArgumentTypeError(
        f"expected one of {', '.join(EXAMPLE_DB_FORMS)}, got {shown_url(url)!r}"
    )


def shown_url(url: str) -> str:
    """``url`` without what may be a password (``redis://:secret@host`` shows ``***@``)."""
    scheme, separator, rest = url.partition("://")
    if "@" not in rest:
        return url
    return f"{scheme}{separator}***@{rest.rpartition('@')[2]}"
