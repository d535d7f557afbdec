"""``rttool report merge STANDING... --out DIR``: the standings of a split run's shards
(``rttool run --shard K/N``) as the one standing an unsplit run writes.

Each argument is a shard's report directory or its ``standing.json``; every shard must be
given once, and each shard's share is recomputed, never believed.  The evidence files the
merged standing names are copied from the shard that found them; ``--out`` is a folder
of its own, made whole (``conformance/cli/_merge_out.py``).  Standings of different
implementations, versions, builds, corpora, seeds, options or selections are refused
with one line (exit 2).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from conformance._escape import printable
from conformance.cli import EXIT_OK
from conformance.cli._output import Output, emit, text

__all__ = ["configure_merge", "merge_command"]


def configure_merge(merge: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    """Arguments of ``rttool report merge``; ``formats`` are the report formats it may
    write, as ``rttool report`` names them (given, so that this module imports nothing
    of that one, which imports it)."""
    merge.add_argument(
        "standings",
        type=Path,
        nargs="+",
        metavar="STANDING",
        help="each shard's report directory or standing.json, every shard once",
    )
    merge.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="where the merged reports go"
    )
    merge.add_argument(
        "--format",
        dest="formats",
        action="append",
        choices=[*formats, "all"],
        metavar="FORMAT",
        help="report formats to write (repeatable; default: json and markdown, "
        "the standing.json and STANDING.md an unsplit run keeps)",
    )
    merge.set_defaults(handler=merge_command)


def merge_command(args: argparse.Namespace) -> int:
    """Merge, write into a folder of its own made whole, and say what was merged."""
    from conformance.cli._merge_out import ShardFolder, check_out, write_merged
    from conformance.report import ALL_FORMATS, load_standing
    from conformance.shard import merge_standings

    files = [path / "standing.json" if path.is_dir() else path for path in args.standings]
    loaded = [(str(path), load_standing(path)) for path in files]
    merged = merge_standings(loaded)
    folders = [
        ShardFolder(report.run.shard.index, path.parent.resolve())
        for path, (_, report) in zip(files, loaded, strict=True)
        if report.run.shard is not None
    ]
    out: Path = args.out
    chosen = args.formats or ["json", "markdown"]
    formats = ALL_FORMATS if "all" in chosen else tuple(chosen)
    written, problems = write_merged(merged, folders, check_out(out, folders), formats)
    report = merged.report
    said = (
        f"merged {len(files)} shards of {report.implementation.name} "
        f"{report.implementation.version}: {len(report.rules)} rules; "
        f"wrote {written} file{'s' * (written != 1)} to {out}"
    )
    emit(Output(text(printable(line) for line in [said]), text(map(printable, problems))))
    return EXIT_OK
