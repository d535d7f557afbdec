"""``rttool report merge STANDING... --out DIR``: the standings of a split run's shards
(``rttool run --shard K/N``) as the one standing an unsplit run writes.

Each argument is a shard's report directory or its ``standing.json``; every shard must be
given once.  The evidence files the merged standing names are copied from the shard that
found them.  Standings of different implementations, versions, corpora, seeds or
selections are refused with one line (exit 2).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from conformance._escape import printable
from conformance.cli import EXIT_OK
from conformance.cli._output import Output, emit, text

__all__ = ["configure_merge", "merge_command"]

#: An evidence file larger than this is not copied (its standing still names it).
_EVIDENCE_LIMIT = 16 * 1024 * 1024


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
    """Merge, write, and say what was merged."""
    from conformance.report import ALL_FORMATS, load_standing, write_reports
    from conformance.shard import merge_standings

    files = [path / "standing.json" if path.is_dir() else path for path in args.standings]
    merged = merge_standings([(str(path), load_standing(path)) for path in files])
    chosen = args.formats or ["json", "markdown"]
    formats = ALL_FORMATS if "all" in chosen else tuple(chosen)
    out: Path = args.out
    problems = _copy_evidence(merged.evidence, [path.parent for path in files], out)
    written = write_reports(merged.report, out, formats)
    report = merged.report
    said = (
        f"merged {len(files)} shards of {report.implementation.name} "
        f"{report.implementation.version}: {len(report.rules)} rules; "
        f"wrote {len(written)} file{'s' * (len(written) != 1)} to {out}"
    )
    emit(Output(text(printable(line) for line in [said]), text(map(printable, problems))))
    return EXIT_OK


def _copy_evidence(evidence: dict[str, int], folders: list[Path], out: Path) -> list[str]:
    """Copy every evidence file from the shard that holds it; a file that cannot be
    copied is one line (the standing still names it, as a run whose evidence failed)."""
    from adapters.files import read_bytes, write_file

    by_index = _folders_by_shard(folders)
    problems: list[str] = []
    for relative, index in sorted(evidence.items()):
        source = by_index.get(index)
        try:
            if source is None:
                raise OSError("no report directory for its shard")
            path = (source / relative).resolve()
            if not path.is_relative_to(source.resolve()):
                raise OSError("outside its report directory")
            write_file(out, relative, read_bytes(path, limit=_EVIDENCE_LIMIT))
        except OSError as err:
            problems.append(f"rttool: evidence not copied: {relative}: {err}")
    return problems


def _folders_by_shard(folders: list[Path]) -> dict[int, Path]:
    from conformance.report import load_standing

    found: dict[int, Path] = {}
    for folder in folders:
        shard = load_standing(folder / "standing.json").run.shard
        if shard is not None:
            found[shard.index] = folder
    return found
