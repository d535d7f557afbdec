"""``python -m reference_impl.mutants --list [--format text|json]``: print the catalogue."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from reference_impl.mutants import catalogue


def main(argv: Sequence[str] | None = None) -> int:
    """Print the catalogue: one line per mutant, or a JSON list of
    ``{"name", "breaks", "description"}``."""
    parser = argparse.ArgumentParser(
        prog="python -m reference_impl.mutants",
        description="The catalogue of deliberately broken variants of the reference runtime.",
    )
    parser.add_argument("--list", action="store_true", help="print the catalogue")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    if not args.list:
        parser.print_usage(sys.stderr)
        sys.stderr.write(f"{parser.prog}: error: nothing to do (use --list)\n")
        return 2
    mutants = catalogue()
    if args.format == "json":
        json.dump([m.to_json() for m in mutants], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    width = max(len(m.name) for m in mutants)
    for mutant in mutants:
        sys.stdout.write(
            f"{mutant.name:<{width}}  {' '.join(mutant.breaks):<13}  {mutant.description}\n"
        )
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except BrokenPipeError:
        # The reader stopped early (``| head``): nothing is left to say to it.
        sys.stderr.close()
        raise SystemExit(0) from None
