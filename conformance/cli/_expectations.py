"""``rttool expectations``: keep an expectations file in step with a standing report.

* ``update --standing STANDING_JSON [--out FILE] [--level L]...`` writes FILE (default
  ``expectations.yaml``) listing every failing clause, keeping the reasons and issues
  of entries FILE already has and dropping stale ones; exit 0, or 2 on bad input.
* ``check FILE [--standing STANDING_JSON]`` validates FILE, and with a report also that
  every entry names something in it; exit 0 or 2.

``update`` computes the report layer's :class:`~conformance.report.ExpectationsUpdate`
and ``check`` the file's entries; each is rendered by a function of this module.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from conformance._escape import printable
from conformance.cli import EXIT_OK, EXIT_USAGE
from conformance.cli._output import Output, emit, text
from conformance.cli._report import LEVEL_NAMES, load_optional_expectations, problems_output

if TYPE_CHECKING:
    from conformance.report import Expectations, ExpectationsUpdate

__all__ = ["checked_text", "configure", "update_text"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``update`` and ``check`` to ``parser``."""
    sub = parser.add_subparsers(
        dest="expectations_command", metavar="ACTION", parser_class=type(parser), required=True
    )
    update = sub.add_parser("update", help="list every failing clause of a standing.json")
    update.add_argument("--standing", type=Path, required=True, metavar="STANDING_JSON")
    update.add_argument(
        "--out",
        type=Path,
        default=Path("expectations.yaml"),
        metavar="FILE",
        help="the expectations file to write; existing entries are kept (default: %(default)s)",
    )
    update.add_argument(
        "--level",
        dest="levels",
        action="append",
        choices=LEVEL_NAMES,
        help="only failures at this level (repeatable; default: every level)",
    )
    update.set_defaults(handler=_update)
    check = sub.add_parser("check", help="validate an expectations file")
    check.add_argument("file", type=Path, metavar="FILE")
    check.add_argument("--standing", type=Path, metavar="STANDING_JSON")
    check.set_defaults(handler=_check)


def update_text(out: Path, result: ExpectationsUpdate) -> Output:
    """A line per entry dropped, then the counts."""
    lines = [
        f"dropped {entry.scope} {entry.target} (line {entry.line}): {why}"
        for entry, why in result.dropped
    ]
    lines.append(
        f"{out}: {len(result.kept)} kept, {len(result.added)} added, {len(result.dropped)} dropped"
    )
    return Output(text(printable(line) for line in lines))


def _update(args: argparse.Namespace) -> int:
    from adapters.files import write_file
    from conformance.report import (
        ExpectationsError,
        ReportWriteError,
        load_standing,
        update_expectations,
    )

    report = load_standing(args.standing)
    out: Path = args.out
    try:
        existing = load_optional_expectations(out if out.exists() else None)
    except ExpectationsError as error:
        emit(problems_output(error))
        return EXIT_USAGE
    result = update_expectations(report, existing, args.levels)
    try:
        write_file(out.parent, out.name, result.text.encode("utf-8"))
    except OSError as err:
        raise ReportWriteError(
            "cannot write expectations", path=str(out), complaint=err.strerror or str(err)
        ) from err
    emit(update_text(out, result))
    return EXIT_OK


def _checked(file: Path, standing: Path | None) -> Expectations | None:
    """The expectations file, each entry checked against the corpus (and the report)."""
    from conformance.report import ExpectationsError, Problem, load_standing, resolve_expectations
    from conformance.rules import load_corpus

    expectations = load_optional_expectations(file)
    if expectations is None:
        return None
    # Without a report, the corpus still says which rules and clauses exist.
    corpus = load_corpus()
    known = {rule.id for rule in corpus.rules} | {c.id for c in corpus.clauses}
    unknown = [
        Problem(
            expectations.source,
            entry.line,
            f"{entry.scope} {entry.target} names no rule or clause of the corpus",
        )
        for entry in expectations.entries
        if (entry.clause or entry.rule) not in known
    ]
    if unknown:
        raise ExpectationsError(unknown)
    if standing is not None:
        resolve_expectations(load_standing(standing), expectations)
    return expectations


def checked_text(file: Path, expectations: Expectations | None) -> Output:
    """How many entries the file has, all valid."""
    count = len(expectations.entries) if expectations is not None else 0
    said = f"{file}: {count} {'entry' if count == 1 else 'entries'}, all valid"
    return Output(text([printable(said)]))


def _check(args: argparse.Namespace) -> int:
    from conformance.report import ExpectationsError

    try:
        expectations = _checked(args.file, args.standing)
    except ExpectationsError as error:
        emit(problems_output(error))
        return EXIT_USAGE
    emit(checked_text(args.file, expectations))
    return EXIT_OK
