"""``docs/benchmarks.md``'s figures, written by the benchmarks themselves.

Each benchmark's figures sit in the page between two markers, with the date they were
measured and the machine's load average before and after; ``python -m bench --doc``
replaces the block of each benchmark it runs and leaves every other block (and the
prose around them, which explains the figures without repeating them) as it was.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

__all__ = ["Measured", "block", "update"]


@dataclass(frozen=True)
class Measured:
    """One benchmark's printed figures, when they were measured and on what load."""

    name: str
    output: str
    day: datetime.date
    load_before: float
    load_after: float
    cores: int


def _begin(name: str) -> str:
    return f"<!-- figures of python -m bench {name}: generated, do not edit -->"


def _end(name: str) -> str:
    return f"<!-- end of the figures of python -m bench {name} -->"


def block(measured: Measured) -> str:
    """The page's block of one benchmark: a line saying when and on what load, then
    what the benchmark printed."""
    return (
        f"{_begin(measured.name)}\n"
        f"Measured {measured.day.isoformat()} by `python -m bench {measured.name}` on "
        f"{measured.cores} cores, load average {measured.load_before:.2f} before and "
        f"{measured.load_after:.2f} after (one-minute figures; above {measured.cores} the "
        "machine was shared, and times are longer by about that ratio):\n\n"
        f"```text\n{measured.output.rstrip()}\n```\n"
        f"{_end(measured.name)}\n"
    )


def update(page: str, measured: Measured) -> str:
    """``page`` with the block of ``measured``'s benchmark replaced (or, when the page
    has none yet, added at its end under a heading of its own)."""
    begin, end = _begin(measured.name), _end(measured.name)
    start = page.find(begin)
    stop = page.find(end, start)
    if start < 0 or stop < 0:
        return f"{page.rstrip()}\n\n## `python -m bench {measured.name}`\n\n{block(measured)}"
    return page[:start] + block(measured) + page[stop + len(end) + 1 :]
