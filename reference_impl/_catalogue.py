"""The one printer of the runtime's two catalogues: its mutants and its legal variants.

``python -m reference_impl.mutants --list`` and ``python -m reference_impl.variants
--list`` are the same command over another catalogue: a line per entry (its name,
padded to the longest, then what :meth:`Listed.listing` says), or with ``--format json``
the list of each entry's :meth:`Listed.to_json` that ``rttool selftest`` reads.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Protocol

__all__ = ["Listed", "catalogue_json", "catalogue_main", "catalogue_text"]


class Listed(Protocol):
    """An entry of a catalogue, as the printer sees it."""

    @property
    def name(self) -> str:
        """The entry's name, unique in its catalogue."""

    def listing(self) -> str:
        """What its line says after its name."""

    def to_json(self) -> dict[str, object]:
        """The entry as the catalogue's JSON lists it."""


def catalogue_text(entries: Sequence[Listed]) -> str:
    """A line per entry: its name, padded to the longest, then its listing."""
    width = max((len(entry.name) for entry in entries), default=0)
    return "".join(f"{entry.name:<{width}}  {entry.listing()}\n" for entry in entries)


def catalogue_json(entries: Sequence[Listed]) -> str:
    """The entries' JSON, a list in the catalogue's order."""
    return json.dumps([entry.to_json() for entry in entries], indent=2, ensure_ascii=False) + "\n"


def catalogue_main(
    prog: str,
    description: str,
    catalogue: Callable[[], Sequence[Listed]],
    argv: Sequence[str] | None = None,
) -> int:
    """``PROG --list [--format text|json]``: print ``catalogue()``; returns the exit code
    (2 when ``--list`` is not given: there is nothing else to do)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--list", action="store_true", help="print the catalogue")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    if not args.list:
        parser.print_usage(sys.stderr)
        sys.stderr.write(f"{parser.prog}: error: nothing to do (use --list)\n")
        return 2
    render = catalogue_json if args.format == "json" else catalogue_text
    try:
        sys.stdout.write(render(catalogue()))
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped early (``| head``): nothing is left to say to it, and the
        # interpreter must not complain while it flushes standard output at exit.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
