"""What a run says on its terminal never decides what it does (kept import-light).

A run's lines (each rule as it finishes, the progress, the table at the end) are a
courtesy to whoever watches: its verdict is the report and the exit code.  The terminal
may go away under it: a standard stream closed before it started (``>&-``), a full
device (``>/dev/full``), a reader that stopped reading, a terminal hung up.  Then:

* :func:`standard_streams` gives a closed standard descriptor the null device, at the
  start, so that nothing the process opens later takes its number (a child would write
  its output into that file) and ``sys.stdout`` is never ``None``; a write to an output
  stream closed at the start fails as a full device's does (``EBADF``), so a listing
  that could not be written is an error and a run's courtesy lines are dropped;
* :func:`say` writes and flushes, and on a stream that is gone drops the text and points
  the stream's descriptor at the null device, so that nothing written later, nor the
  interpreter's own flush at exit (whose failure would make the exit code 120), fails;
* :func:`settle` flushes both streams the same way before the exit code is returned;
* :func:`forgiving_streams` makes every write of a command to ``sys.stdout`` and
  ``sys.stderr`` drop its text where the pipe is broken, so that a reader that went away
  (``rttool report gate ... | head -0``) never turns a command's verdict into another
  exit code: the command goes on, unheard, and returns its own.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import IO, TextIO

__all__ = ["forgiving_streams", "say", "settle", "standard_streams"]

_NAMES = ("stdin", "stdout", "stderr")


def _closed(descriptor: int) -> bool:
    try:
        os.fstat(descriptor)
    except OSError:
        return True
    return False


def standard_streams() -> None:
    """Give each closed standard descriptor (0, 1, 2) the null device, and each missing
    ``sys`` stream one on it: a closed stream is then a quiet one."""
    for descriptor, name in enumerate(_NAMES):
        if _closed(descriptor):
            opened = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            if opened != descriptor:
                os.dup2(opened, descriptor)
                os.close(opened)
        if getattr(sys, name) is None:  # Python found it closed at start
            # The descriptor is the null device now: opening it writes no file.
            mode = "r" if descriptor == 0 else "w"
            held = os.fdopen(descriptor, mode, encoding="utf-8", closefd=False)
            said = "output" if descriptor == 1 else "error"
            setattr(sys, name, held if descriptor == 0 else _ClosedAtStart(held, said))


class _ClosedAtStart:
    """An output stream that was closed when the process started: every write fails, as
    on a full device, naming the stream; flushing what was never written is no error."""

    def __init__(self, null: IO[str], name: str) -> None:
        self._null = null
        self._name = name

    def write(self, text: str) -> int:
        import errno

        raise OSError(errno.EBADF, f"standard {self._name} is closed")

    def flush(self) -> None:
        return None

    def __getattr__(self, name: str) -> object:
        return getattr(self._null, name)


def _silenced(stream: TextIO) -> None:
    """Point ``stream``'s descriptor at the null device: what it still buffers, and what
    is written to it later, goes nowhere instead of failing again."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)
    with contextlib.suppress(OSError, ValueError):
        stream.flush()  # the text that could not be written, now to the null device


def say(stream: TextIO | None, text: str) -> bool:
    """Write ``text`` to ``stream`` and flush it; ``False`` (nothing raised) when the
    stream is gone: missing, closed, full, or its reader went away."""
    if stream is None:
        return False
    try:
        if text:
            stream.write(text)
        stream.flush()
    except (OSError, ValueError):
        _silenced(stream)
        return False
    return True


def settle() -> None:
    """Flush standard output and standard error, dropping what cannot be written."""
    for stream in (sys.stdout, sys.stderr):
        say(stream, "")


class _Forgiving:
    """A text stream whose writes and flushes never raise for a reader that went away (a
    broken pipe): the text is dropped and the descriptor silenced, as :func:`say` does.
    A full device still raises: where the output is the product (a listing), losing it
    is an error the command reports."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        try:
            return self._inner.write(text)
        except BrokenPipeError:
            _silenced(self._inner)
            return len(text)

    def flush(self) -> None:
        try:
            self._inner.flush()
        except BrokenPipeError:
            _silenced(self._inner)

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


@contextlib.contextmanager
def forgiving_streams() -> Iterator[None]:
    """While inside, ``sys.stdout`` and ``sys.stderr`` drop what cannot be written instead
    of raising; the streams are given back as they were on the way out."""
    saved = sys.stdout, sys.stderr
    sys.stdout = _Forgiving(saved[0])
    sys.stderr = _Forgiving(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
