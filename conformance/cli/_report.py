"""``rttool report``: render, compare and gate standing reports offline.

* ``render STANDING_JSON --format FORMAT [--out DIR]`` writes any format again from a
  ``standing.json`` (``--format all``: every one); exit 0, or 2 on bad input.
* ``diff OLD NEW [--format text|json]`` lists regressions, fixes, added, removed and
  changed rules and clauses; exit 1 on any regression, 0 otherwise, 2 on bad input.
* ``gate STANDING_JSON [--level L]... [--expectations FILE]`` applies the CI gate to a
  finished report; exit 0 pass, 1 fail, 2 bad input.
* ``matrix DIR... --out DIR [--title TEXT]`` compares implementations side by side
  (``README.md`` and ``index.html``); exit 0, or 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from conformance.cli import EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from conformance.report import Expectations, ExpectationsError

__all__ = [
    "FORMAT_NAMES",
    "LEVEL_NAMES",
    "SHOWN_PROBLEMS",
    "configure",
    "load_optional_expectations",
    "report_problems",
    "say",
]

#: The report formats, as ``conformance.report.ALL_FORMATS`` names them (kept here so
#: that building the parser imports nothing heavy; a test keeps the two equal).
FORMAT_NAMES = ("json", "markdown", "junit", "allure", "html", "badge", "earl")
LEVEL_NAMES = ("core", "extended", "optional")


def say(line: str, *, stream: TextIO | None = None) -> None:
    """Print ``line`` with control characters shown, never sent to the terminal."""
    from conformance._escape import printable

    (stream or sys.stdout).write(printable(line) + "\n")


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``render``, ``diff``, ``gate`` and ``matrix`` to ``parser``."""
    sub = parser.add_subparsers(
        dest="report_command", metavar="ACTION", parser_class=type(parser), required=True
    )
    render = sub.add_parser("render", help="write a standing.json again in any report format")
    render.add_argument("standing", type=Path, metavar="STANDING_JSON")
    render.add_argument(
        "--format",
        dest="formats",
        action="append",
        choices=[*FORMAT_NAMES, "all"],
        metavar="FORMAT",
        help=f"one of {', '.join(FORMAT_NAMES)} or all (repeatable; default: all)",
    )
    render.add_argument(
        "--out", type=Path, metavar="DIR", help="where to write (default: beside STANDING_JSON)"
    )
    render.set_defaults(handler=_render)
    diff = sub.add_parser("diff", help="compare two standing.json files; exit 1 on a regression")
    diff.add_argument("old", type=Path, metavar="OLD_JSON")
    diff.add_argument("new", type=Path, metavar="NEW_JSON")
    diff.add_argument("--format", choices=["text", "json"], default="text")
    diff.add_argument(
        "--allow-mismatch",
        action="store_true",
        help="compare even when the new run covered less (--only, no hunt) than the old",
    )
    diff.set_defaults(handler=_diff)
    gate = sub.add_parser("gate", help="apply the CI gate to a standing.json")
    gate.add_argument("standing", type=Path, metavar="STANDING_JSON")
    gate.add_argument(
        "--level",
        dest="levels",
        action="append",
        choices=LEVEL_NAMES,
        help="a level whose failures fail the gate (repeatable; default: the run's levels)",
    )
    gate.add_argument("--expectations", type=Path, metavar="FILE", help="known failures")
    gate.add_argument(
        "--step-summary",
        action="store_true",
        help="append a Markdown summary to $GITHUB_STEP_SUMMARY when it is set",
    )
    gate.set_defaults(handler=_gate)
    matrix = sub.add_parser(
        "matrix",
        help="compare implementations rule by rule and clause by clause (README.md and index.html)",
    )
    matrix.add_argument(
        "reports",
        type=Path,
        nargs="+",
        metavar="DIR",
        help="a report directory holding standing.json (or the file itself); one per "
        "implementation, in the order of the columns",
    )
    matrix.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="where README.md and index.html go"
    )
    matrix.add_argument("--title", default=None, metavar="TEXT", help="the pages' heading")
    matrix.add_argument("--intro", default="", metavar="TEXT", help="a paragraph under the heading")
    matrix.set_defaults(handler=_matrix)


def _render(args: argparse.Namespace) -> int:
    from conformance.report import ALL_FORMATS, load_standing, write_reports

    report = load_standing(args.standing)
    chosen = args.formats or ["all"]
    formats = ALL_FORMATS if "all" in chosen else tuple(chosen)
    out: Path = args.out if args.out is not None else args.standing.parent
    written = write_reports(report, out, formats, evidence_root=args.standing.parent)
    say(f"wrote {len(written)} {'file' if len(written) == 1 else 'files'} to {out}")
    return EXIT_OK


def _diff(args: argparse.Namespace) -> int:
    from conformance.report import diff_reports, load_standing

    result = diff_reports(load_standing(args.old), load_standing(args.new))
    sys.stdout.write(result.as_json() if args.format == "json" else result.as_text())
    if result.mismatches and not args.allow_mismatch:
        for reason in result.mismatches:
            say(f"rttool: error: the runs are not comparable: {reason}", stream=sys.stderr)
        say(
            "rttool: compare runs of the same selection, or pass --allow-mismatch",
            stream=sys.stderr,
        )
        return EXIT_USAGE
    return result.exit_code


def _matrix(args: argparse.Namespace) -> int:
    from conformance.matrix import DEFAULT_TITLE, build_matrix, write_matrix

    matrix = build_matrix(args.reports)
    written = write_matrix(matrix, args.out, title=args.title or DEFAULT_TITLE, intro=args.intro)
    columns = len(matrix.columns)
    say(
        f"compared {columns} implementation{'s' * (columns != 1)}: "
        + ", ".join(str(path) for path in written)
    )
    return EXIT_OK


#: At most this many problems of one file are listed, then how many more there are.
SHOWN_PROBLEMS = 50


def report_problems(error: ExpectationsError) -> int:
    """Print the problems of an expectations file, one line each (the first
    :data:`SHOWN_PROBLEMS`, then how many more); return exit code 2."""
    for problem in error.problems[:SHOWN_PROBLEMS]:
        say(f"rttool: error: {problem}", stream=sys.stderr)
    hidden = len(error.problems) - SHOWN_PROBLEMS
    if hidden > 0:
        noun = "problem" if hidden == 1 else "problems"
        say(f"rttool: error: ... and {hidden} more {noun} in the same file", stream=sys.stderr)
    return EXIT_USAGE


def load_optional_expectations(path: Path | None) -> Expectations | None:
    """The expectations file at ``path`` (``None`` when no path was given)."""
    from conformance.report import load_expectations

    return None if path is None else load_expectations(path)


def _gate(args: argparse.Namespace) -> int:
    from conformance.report import (
        ExpectationsError,
        append_step_summary,
        gate,
        github_step_summary,
        load_standing,
    )

    report = load_standing(args.standing)
    try:
        expectations = load_optional_expectations(args.expectations)
        result = gate(report, args.levels or report.run.levels, expectations)
    except ExpectationsError as error:
        return report_problems(error)
    if args.levels and result.gated_rules == 0:
        say(
            f"rttool: error: --level {' '.join(args.levels)} gates nothing: "
            "no rule in the report is at that level",
            stream=sys.stderr,
        )
        return EXIT_USAGE
    for line in result.reasons():
        say(line)
    verdict = "passed" if result.passed else "failed"
    say(
        f"gate {verdict}: levels {', '.join(result.levels) or 'none'}, "
        f"{len(result.unexpected)} unexpected, {len(result.stale)} stale, "
        f"{len(result.expected)} expected"
    )
    if args.step_summary:
        append_step_summary(github_step_summary(report, result))
    return result.exit_code
