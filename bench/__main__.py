"""``python -m bench [NAME] [ARGS...]``: run one benchmark, or every one in turn."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

__all__ = ["BENCHMARKS", "main"]

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
    "hunt": (
        "bench.hunt",
        "hunt scenarios/s in-process and over HTTP; time to find each combination mutant",
    ),
    "loop": ("bench.loop", "make test stage by stage: wall and CPU seconds, machine load"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to the named benchmark (its own arguments follow its name)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write("usage: python -m bench [NAME [ARGS...]]\n\nbenchmarks:\n")
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
        code = max(code, int(module.main(args[1:] if args else [])))
    return code


if __name__ == "__main__":
    raise SystemExit(main())
