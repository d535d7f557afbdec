"""``python -m bench [--doc] [NAME] [ARGS...]``: run one benchmark, or every one in turn;
with ``--doc``, write what each printed into ``docs/benchmarks.md`` (see ``bench._doc``)."""

from __future__ import annotations

import contextlib
import datetime
import importlib
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from adapters.files import write_file
from bench._doc import Measured, update

__all__ = ["BENCHMARKS", "DOC", "main"]

#: The page ``--doc`` writes the figures into.
DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"

#: name -> (module exposing ``main(argv) -> int``, one-line description)
BENCHMARKS: dict[str, tuple[str, str]] = {
    "reference": (
        "bench.reference",
        "reference runtime: held-artifact delivery on resume, turn read latency",
    ),
    "journal": (
        "bench.journal",
        "tool-call journal: build over 10k-1M ledger events, hard-block lookup cost",
    ),
    "transports": (
        "bench.transports",
        "1,000 scenarios through in-process, stdio and HTTP: rates and ratios",
    ),
    "suite": ("bench.suite", "wall time of a full rttool run, serially and with -n 2"),
    "shard": (
        "bench.shard",
        "a run split in 1, 2 and 4 shards (wall time ratios); a hunt across 2 shards on Redis",
    ),
    "hunt": (
        "bench.hunt",
        "hunt scenarios/s in-process and over HTTP; time to find each combination mutant",
    ),
    "loop": ("bench.loop", "make test stage by stage: wall and CPU seconds, machine load"),
    "report": (
        "bench.report",
        "report.html with timelines: render time of 500 cases, size with a mutant's evidence",
    ),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to the named benchmark (its own arguments follow its name)."""
    args = list(sys.argv[1:] if argv is None else argv)
    doc = bool(args) and args[0] == "--doc"
    args = args[1:] if doc else args
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write("usage: python -m bench [--doc] [NAME [ARGS...]]\n\n")
        sys.stdout.write(f"--doc writes the figures into {DOC.parent.name}/{DOC.name}\n\n")
        sys.stdout.write("benchmarks:\n")
        for name, (_, text) in BENCHMARKS.items():
            sys.stdout.write(f"  {name:<12} {text}\n")
        return 0
    if args and args[0] not in BENCHMARKS:
        sys.stderr.write(
            f"python -m bench: error: unknown benchmark {args[0]!r} "
            f"(known: {', '.join(BENCHMARKS)})\n"
        )
        return 2
    chosen = [args[0]] if args else list(BENCHMARKS)
    code = 0
    for name in chosen:
        module = importlib.import_module(BENCHMARKS[name][0])
        before = os.getloadavg()[0]
        printed = io.StringIO()
        with contextlib.redirect_stdout(_Tee(sys.stdout, printed)):
            code = max(code, int(module.main(args[1:] if args else [])))
        if doc:
            measured = Measured(
                name,
                printed.getvalue(),
                datetime.date.today(),
                before,
                os.getloadavg()[0],
                os.cpu_count() or 1,
            )
            updated = update(DOC.read_text("utf-8"), measured)
            write_file(DOC.parent, DOC.name, updated.encode("utf-8"))
    return code


class _Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy."""

    def __init__(self, *streams: TextIO) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


if __name__ == "__main__":
    raise SystemExit(main())
