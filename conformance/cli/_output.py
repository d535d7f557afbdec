"""What a command prints, kept apart from how it computed it.

Each command computes an immutable result and renders it with a pure function into an
:class:`Output` (text or JSON), as the report layer renders a standing; the command's
handler then :func:`emit`\\ s it and returns the result's exit code.  A long command
(``run``, ``selftest``, ``publish``) renders each event of its progress the same way, as
it happens.  Renderers escape what came from an implementation or a file: an
:class:`Output` is written as it is.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Output", "emit", "json_output", "text"]


@dataclass(frozen=True)
class Output:
    """Text for standard output (``out``) and for standard error (``err``)."""

    out: str = ""
    err: str = ""

    def __add__(self, other: Output) -> Output:
        return Output(self.out + other.out, self.err + other.err)


def text(lines: Iterable[str]) -> str:
    """``lines``, each ended by a newline."""
    return "".join(f"{line}\n" for line in lines)


def json_output(value: object, *, ascii_only: bool = False) -> Output:
    """``value`` as indented JSON on standard output (non-ASCII characters kept unless
    ``ascii_only``)."""
    return Output(json.dumps(value, ensure_ascii=ascii_only, indent=2) + "\n")


def emit(output: Output, *, courtesy: bool = False) -> None:
    """Write ``output``, flushed: a line of progress is seen when it happens.

    With ``courtesy`` (what a run says beside its report), a stream that is gone (closed,
    full, its reader away) is skipped, never an error: the report and the exit code are
    the verdict, and they stay what they are (``conformance/_terminal.py``)."""
    from conformance._terminal import say

    for stream, written in ((sys.stdout, output.out), (sys.stderr, output.err)):
        if written and courtesy:
            say(stream, written)
        elif written:
            stream.write(written)
            stream.flush()
