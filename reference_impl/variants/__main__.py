"""``python -m reference_impl.variants --list [--format text|json]``: print the catalogue."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from reference_impl.variants import catalogue


def main(argv: Sequence[str] | None = None) -> int:
    """Print the catalogue: one line per variant, or a JSON list of
    ``{"name", "reading", "clauses", "description"}``."""
    parser = argparse.ArgumentParser(
        prog="python -m reference_impl.variants",
        description="The catalogue of legal variants of the reference runtime.",
    )
    parser.add_argument("--list", action="store_true", help="print the catalogue")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    if not args.list:
        parser.print_usage(sys.stderr)
        sys.stderr.write(f"{parser.prog}: error: nothing to do (use --list)\n")
        return 2
    variants = catalogue()
    if args.format == "json":
        json.dump([v.to_json() for v in variants], sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    width = max(len(v.name) for v in variants)
    for variant in variants:
        sys.stdout.write(f"{variant.name:<{width}}  {variant.reading}: {variant.description}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
