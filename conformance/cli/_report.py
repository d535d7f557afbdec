"""``rttool report``: render, compare and gate standing reports offline.

* ``render STANDING_JSON --format FORMAT [--out DIR]`` writes any format again from a
  ``standing.json`` (``--format all``: every one); exit 0, or 2 on bad input.
* ``diff OLD NEW [--format text|json]`` lists regressions, fixes, added, removed and
  changed rules and clauses; exit 1 on any regression, 0 otherwise, 2 on bad input.
* ``gate STANDING_JSON [--level L]... [--expectations FILE]`` applies the CI gate to a
  finished report; exit 0 pass, 1 fail, 2 bad input.
* ``matrix DIR... --out DIR [--title TEXT]`` compares implementations side by side
  (``README.md`` and ``index.html``); exit 0, or 2 on bad input.
* ``merge STANDING... --out DIR`` merges the standings of a split run's shards into the
  one an unsplit run writes (``conformance/cli/_merge.py``); exit 0, or 2 when they are
  not the shards of one run.

Each action computes the report layer's own result (the files written, a
:class:`~conformance.report.StandingDiff`, a :class:`~conformance.report.GateResult`, a
matrix) and renders it with a function of this module.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from conformance._escape import printable
from conformance.cli import EXIT_OK, EXIT_USAGE
from conformance.cli._merge import configure_merge
from conformance.cli._output import Output, emit, text

if TYPE_CHECKING:
    from conformance.report import Expectations, ExpectationsError, GateResult, StandingDiff

__all__ = [
    "FORMAT_NAMES",
    "LEVEL_NAMES",
    "SHOWN_PROBLEMS",
    "configure",
    "diff_output",
    "gate_text",
    "load_optional_expectations",
    "problem_lines",
    "problems_output",
]

#: The report formats, as ``conformance.report.ALL_FORMATS`` names them (kept here so
#: that building the parser imports nothing heavy; a test keeps the two equal).
FORMAT_NAMES = ("json", "markdown", "junit", "allure", "html", "badge", "earl")
LEVEL_NAMES = ("core", "extended", "optional")
#: At most this many problems of one file are listed, then how many more there are.
SHOWN_PROBLEMS = 50


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``render``, ``diff``, ``gate`` and ``matrix`` to ``parser``."""
    sub = parser.add_subparsers(
        dest="report_command", metavar="ACTION", parser_class=type(parser), required=True
    )
    _configure_render(
        sub.add_parser("render", help="write a standing.json again in any report format")
    )
    _configure_diff(
        sub.add_parser("diff", help="compare two standing.json files; exit 1 on a regression")
    )
    _configure_gate(sub.add_parser("gate", help="apply the CI gate to a standing.json"))
    _configure_matrix(
        sub.add_parser(
            "matrix",
            help="compare implementations rule by rule and clause by clause "
            "(README.md and index.html)",
        )
    )
    configure_merge(
        sub.add_parser(
            "merge", help="merge the standings of a split run's shards (rttool run --shard)"
        ),
        FORMAT_NAMES,
    )


def _configure_render(render: argparse.ArgumentParser) -> None:
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


def _configure_diff(diff: argparse.ArgumentParser) -> None:
    diff.add_argument("old", type=Path, metavar="OLD_JSON")
    diff.add_argument("new", type=Path, metavar="NEW_JSON")
    diff.add_argument("--format", choices=["text", "json"], default="text")
    diff.add_argument(
        "--allow-mismatch",
        action="store_true",
        help="compare even when the new run covered less (--only, no hunt) than the old",
    )
    diff.set_defaults(handler=_diff)


def _configure_gate(gate: argparse.ArgumentParser) -> None:
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


def _configure_matrix(matrix: argparse.ArgumentParser) -> None:
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


def _said(*lines: str) -> str:
    return text(printable(line) for line in lines)


def _render(args: argparse.Namespace) -> int:
    from conformance.report import ALL_FORMATS, load_standing, write_reports

    report = load_standing(args.standing)
    chosen = args.formats or ["all"]
    formats = ALL_FORMATS if "all" in chosen else tuple(chosen)
    out: Path = args.out if args.out is not None else args.standing.parent
    written = write_reports(report, out, formats, evidence_root=args.standing.parent)
    emit(Output(_said(f"wrote {len(written)} {'file' if len(written) == 1 else 'files'} to {out}")))
    return EXIT_OK


def diff_output(diff: StandingDiff, *, as_json: bool, allow_mismatch: bool) -> Output:
    """The diff in text or JSON, and why the runs are not comparable when they are not
    (unless ``allow_mismatch``)."""
    shown = diff.as_json() if as_json else diff.as_text()
    if not diff.mismatches or allow_mismatch:
        return Output(shown)
    refused = [f"rttool: error: the runs are not comparable: {why}" for why in diff.mismatches]
    refused.append("rttool: compare runs of the same selection, or pass --allow-mismatch")
    return Output(shown, _said(*refused))


def _diff(args: argparse.Namespace) -> int:
    from conformance.report import diff_reports, load_standing

    result = diff_reports(load_standing(args.old), load_standing(args.new))
    allow = args.allow_mismatch
    emit(diff_output(result, as_json=args.format == "json", allow_mismatch=allow))
    return EXIT_USAGE if result.mismatches and not allow else result.exit_code


def _matrix(args: argparse.Namespace) -> int:
    from conformance.matrix import DEFAULT_TITLE, build_matrix, write_matrix

    matrix = build_matrix(args.reports)
    written = write_matrix(matrix, args.out, title=args.title or DEFAULT_TITLE, intro=args.intro)
    columns = len(matrix.columns)
    paths = ", ".join(str(path) for path in written)
    emit(Output(_said(f"compared {columns} implementation{'s' * (columns != 1)}: {paths}")))
    return EXIT_OK


def problem_lines(error: ExpectationsError) -> tuple[str, ...]:
    """The problems of an expectations file, one line each (the first
    :data:`SHOWN_PROBLEMS`, then how many more), not yet escaped."""
    lines = [f"rttool: error: {problem}" for problem in error.problems[:SHOWN_PROBLEMS]]
    hidden = len(error.problems) - SHOWN_PROBLEMS
    if hidden > 0:
        noun = "problem" if hidden == 1 else "problems"
        lines.append(f"rttool: error: ... and {hidden} more {noun} in the same file")
    return tuple(lines)


def problems_output(error: ExpectationsError) -> Output:
    """:func:`problem_lines` on standard error."""
    return Output(err=_said(*problem_lines(error)))


def load_optional_expectations(path: Path | None) -> Expectations | None:
    """The expectations file at ``path`` (``None`` when no path was given)."""
    from conformance.report import load_expectations

    return None if path is None else load_expectations(path)


def gate_text(result: GateResult) -> Output:
    """The gate's reasons, then its verdict in one line."""
    verdict = "passed" if result.passed else "failed"
    summary = (
        f"gate {verdict}: levels {', '.join(result.levels) or 'none'}, "
        f"{len(result.unexpected)} unexpected, {len(result.stale)} stale, "
        f"{len(result.expected)} expected"
    )
    return Output(_said(*result.reasons(), summary))


def _gates_nothing(levels: Sequence[str]) -> Output:
    return Output(
        err=_said(
            f"rttool: error: --level {' '.join(levels)} gates nothing: "
            "no rule in the report is at that level"
        )
    )


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
        emit(problems_output(error))
        return EXIT_USAGE
    if args.levels and result.gated_rules == 0:
        emit(_gates_nothing(args.levels))
        return EXIT_USAGE
    emit(gate_text(result))
    if args.step_summary:
        append_step_summary(github_step_summary(report, result))
    return result.exit_code
