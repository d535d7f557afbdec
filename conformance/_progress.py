"""Progress of a long command, on standard error: how much is done of how much, what
has failed so far, and a note on what runs now.

On a terminal (standard output and standard error both one, and ``CI`` unset) it is a
live bar drawn by ``rich``; anywhere else it is plain lines, one each time another tenth
of the work is done and one at the end, so that a log stays readable.  Progress never
reaches standard output or a report: what a command prints and writes is the same with
it or without it, and a stream that went away (closed, full, a terminal hung up) ends
the progress, never the command.  ``rich`` is imported only when a bar is drawn.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO

from conformance._escape import printable
from conformance._terminal import say

__all__ = ["Progress", "live"]

#: How many plain lines a run says at most (one per tenth, and the last).
_STEPS = 10


def live(stream: TextIO | None = None) -> bool:
    """Whether a live bar can be drawn: standard output and ``stream`` (standard error)
    are terminals, and ``CI`` is not set."""
    err = sys.stderr if stream is None else stream
    if os.environ.get("CI"):
        return False
    return all(getattr(s, "isatty", lambda: False)() for s in (sys.stdout, err))


class Progress:
    """``done`` of ``total`` things (``unit`` names them in the plural: ``"cases"``), and
    the failures so far.

    Use it as a context manager; :meth:`advance` after each thing is done.  ``label``
    starts every plain line (``rttool run``).
    """

    def __init__(
        self,
        label: str,
        total: int,
        unit: str,
        *,
        stream: TextIO | None = None,
        bar: bool | None = None,
    ) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.done = 0
        self.failed = 0
        self._stream = sys.stderr if stream is None else stream
        self._bar = live(self._stream) if bar is None else bar
        self._said = 0  # tenths already said as plain lines
        self._tally = ""
        self._rich: Any = None
        self._task: Any = None

    def __enter__(self) -> Progress:
        if self._bar:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )
            from rich.progress import Progress as Bar

            self._rich = Bar(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[failed]}"),
                TimeElapsedColumn(),
                TextColumn("{task.fields[tally]}"),
                TextColumn("{task.fields[note]}"),
                console=Console(file=self._stream),
                transient=True,
                # No refreshing thread: the self-test forks its workers only while this
                # process runs one thread (see conformance._workers); the bar is redrawn
                # at each change instead.
                auto_refresh=False,
                # Lines the command prints go above the bar, on standard output.
                redirect_stdout=True,
                redirect_stderr=False,
            )
            self._drawn(lambda bar: bar.start())
            if self._rich is not None:
                self._task = self._rich.add_task(
                    self.label, total=self.total or None, failed="", tally="", note=""
                )
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._rich is not None:
            self._drawn(lambda bar: bar.stop())
            self._rich = None
        elif kind is None and self.done and self._said < _STEPS:
            self._line()

    def _drawn(self, change: Callable[[Any], object]) -> None:
        """Change the bar and redraw it; a terminal that went away ends the bar (and
        the plain lines: they would go to the same place)."""
        try:
            change(self._rich)
            self._rich.refresh()
        except (OSError, ValueError):
            with contextlib.suppress(OSError, ValueError):
                self._rich.stop()  # gives standard output back, which the bar redirected
            self._rich, self.total = None, 0

    def resize(self, total: int) -> None:
        """The total became known (or changed): a pytest session learns it on collection."""
        self.total = total
        if self._rich is not None:
            self._drawn(lambda bar: bar.update(self._task, total=total or None))

    def note(self, text: str) -> None:
        """Say what runs now (the bar only: a log line would say it too often)."""
        if self._rich is not None:
            self._drawn(lambda bar: bar.update(self._task, note=printable(text)[:60]))

    def tally(self, text: str) -> None:
        """A running count of something besides the things done (the hunt's examples),
        said on the bar and on each plain line."""
        self._tally = printable(text)[:60]
        if self._rich is not None:
            self._drawn(lambda bar: bar.update(self._task, tally=self._tally))

    def advance(self, *, failed: bool = False, note: str = "") -> None:
        """One more thing done; ``failed`` when it failed."""
        self.done += 1
        self.failed += int(failed)
        if self._rich is not None:
            said = f"{self.failed} failed" if self.failed else ""
            shown = printable(note)[:60]
            self._drawn(lambda bar: bar.update(self._task, advance=1, failed=said, note=shown))
            return
        if not self.total:
            return
        tenth = min(_STEPS, self.done * _STEPS // self.total)
        if tenth > self._said:
            self._said = tenth
            self._line()

    def _line(self) -> None:
        of = f" of {self.total}" if self.total else ""
        failed = f", {self.failed} failed" if self.failed else ""
        tally = f"; {self._tally}" if self._tally else ""
        if not say(
            self._stream, f"{self.label}: {self.done}{of} {self.unit} done{failed}{tally}\n"
        ):
            self.total = 0  # the stream is gone: nothing more is said
