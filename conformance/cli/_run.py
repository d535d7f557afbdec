"""``rttool run``: the suite against one implementation, with standing reports and a gate.

Built on the pytest plugin: the run is a pytest session over the suite's one test
module, with pytest's own terminal output replaced by a line per rule and a summary.
Exit codes: 0 every gated rule conforms (or is expected to fail), 1 something gated does
not, 2 a usage, corpus or expectations error (or reports that could not be written), 3
the implementation could not be driven, 130 the run was interrupted.  The gate judges
the standing the run built, not what reached the disk, so a report that fails to be
written never improves the exit code.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

__all__ = ["configure"]

_STORAGE = "HYPOTHESIS_STORAGE_DIRECTORY"
#: the exit code of an interrupted run, as a shell reports a Ctrl-C
EXIT_INTERRUPTED = 130


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``rttool run``."""
    from conformance._arguments import positive_float, positive_int

    parser.add_argument(
        "--impl",
        default="reference",
        metavar="SPEC",
        help="reference (default), python:MODULE:ATTR, http://HOST:PORT, or stdio:COMMAND",
    )
    parser.add_argument(
        "--mutant", default=None, metavar="NAME", help="run a named mutant of the reference runtime"
    )
    parser.add_argument(
        "--variant",
        default=None,
        metavar="NAME",
        help="run a named legal variant of the reference runtime (rttool selftest --list)",
    )
    parser.add_argument(
        "--report-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="where reports go (default reports/<implementation>/)",
    )
    parser.add_argument(
        "--level",
        action="append",
        default=[],
        metavar="LEVEL",
        choices=("core", "extended", "optional"),
        help="levels whose failures fail the run (default: the levels "
        "the implementation claims); repeatable",
    )
    parser.add_argument(
        "--expectations",
        type=Path,
        default=None,
        metavar="FILE",
        help="YAML file of expected failures",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="RULE[#cN]",
        help="run only these rules or clauses; repeatable",
    )
    parser.add_argument(
        "-n",
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="run in N parallel processes (pytest-xdist)",
    )
    parser.add_argument(
        "--examples",
        type=positive_int,
        default=None,
        metavar="N",
        help="the least number of examples the hunt generates, a floor and not a ceiling: "
        "the search goes on until its time budget is spent (default 150)",
    )
    parser.add_argument(
        "--hunt-seconds",
        type=positive_float,
        default=None,
        metavar="S",
        help="how long the hunt searches (one search shared by every invariant, spent in "
        "full; an implementation too slow to reach the example floor in time gets up to "
        "four times as long; default 20)",
    )
    parser.add_argument("--seed", type=int, default=None, metavar="N", help="hunt seed")
    parser.add_argument("--no-hunt", action="store_true", help="skip the property-based hunt")
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=30.0,
        metavar="S",
        help="per-request timeout for the implementation (default 30)",
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the summary table")
    parser.add_argument(
        "--reproducible",
        action="store_true",
        help="write standing.json and STANDING.md without the start time and durations, "
        "so that they change only when a standing does (for reports kept in a repository; "
        "the other formats keep the timings)",
    )
    parser.set_defaults(handler=run)


def _implementation_name(spec: str, timeout: float) -> tuple[str, tuple[str, ...]]:
    from adapters import Driver, connect
    from conformance import __version__

    driver = Driver(connect(spec, timeout=timeout), timeout=timeout, suite_version=__version__)
    try:
        handshake = driver.handshake()
    finally:
        driver.close()
    return handshake.implementation.name, handshake.levels


def run(args: argparse.Namespace) -> int:
    """Run the suite; print lines per rule and a summary; return the gate's exit code."""
    import pytest

    from adapters.errors import ImplementationError, RttoolError
    from conformance._escape import printable
    from conformance._pytest import UNDRIVABLE, resolve_spec
    from conformance._redact import redacted
    from conformance.cases import check_selection
    from conformance.cli import EXIT_UNDRIVABLE, EXIT_USAGE
    from conformance.cli._session import SessionResult
    from conformance.report import (
        ExpectationsError,
        append_step_summary,
        gate,
        github_step_summary,
        junit_xml,
        load_expectations,
        load_standing,
        reproducible,
        terminal_table,
        write_reports,
    )
    from conformance.rules import load_corpus

    try:
        spec = resolve_spec(args.impl, args.mutant, args.variant)
        expectations = load_expectations(args.expectations) if args.expectations else None
        check_selection(load_corpus(), args.only, args.level)
    except ExpectationsError as err:  # the problems of the file, a line each
        from conformance.cli._report import report_problems

        return report_problems(err)
    except RttoolError as err:
        sys.stderr.write(f"rttool: error: {printable(redacted(str(err)))}\n")
        return EXIT_USAGE
    try:
        name, claimed = _implementation_name(spec, args.timeout)
    except ImplementationError as err:
        message = redacted(f"the implementation could not be driven: {err}")
        sys.stderr.write(f"rttool: {printable(message)}\n")
        if args.report_dir is not None:
            _write_undrivable(args.report_dir, redacted(spec), message)
        return EXIT_UNDRIVABLE
    report_dir = (args.report_dir or Path("reports") / _safe(name)).resolve()
    try:
        report_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        sys.stderr.write(
            f"rttool: error: cannot use the report directory: "
            f"dir={report_dir} reason={err.strerror or err}\n"
        )
        return EXIT_USAGE
    standing = report_dir / "standing.json"
    undrivable = report_dir / UNDRIVABLE
    try:  # what an earlier run left says nothing about this one
        standing.unlink(missing_ok=True)
        undrivable.unlink(missing_ok=True)
    except OSError as err:
        sys.stderr.write(printable(f"rttool: error: cannot use the report directory: {err}") + "\n")
        return EXIT_USAGE
    levels = tuple(args.level) or claimed
    # The hunt's example database and hypothesis's own caches live with the reports,
    # never in the working tree (unless the user chose a place), for this run only.
    saved = os.environ.get(_STORAGE)
    os.environ.setdefault(_STORAGE, str(report_dir / ".hypothesis"))
    finished = SessionResult()
    try:
        code = pytest.main(_pytest_args(args, report_dir, levels), plugins=[finished.plugin()])
    finally:
        if saved is None:
            os.environ.pop(_STORAGE, None)
    if undrivable.is_file():
        text = undrivable.read_text(encoding="utf-8", errors="replace").strip()
        _write_undrivable(report_dir, redacted(spec), redacted(text))
        return EXIT_UNDRIVABLE
    report = finished.report
    if report is None and code == pytest.ExitCode.INTERRUPTED:
        sys.stderr.write("rttool: interrupted before any case reported\n")
        return EXIT_INTERRUPTED
    if code == pytest.ExitCode.USAGE_ERROR or (
        code == pytest.ExitCode.INTERNAL_ERROR and finished.write_error is None
    ):
        return EXIT_USAGE
    if report is None:
        if not standing.is_file():
            sys.stderr.write(
                "rttool: the run produced no standing; the implementation could not be driven\n"
            )
            return EXIT_UNDRIVABLE
        report = load_standing(standing)
    if args.reproducible and finished.write_error is None:
        # The committed pair; every other format keeps its timings.
        write_reports(reproducible(report), report_dir, ("json", "markdown"))
    result = gate(report, levels, expectations)  # type: ignore[arg-type]
    if result.expected and finished.write_error is None:
        # A dashboard reading junit.xml must agree with the gate.
        listed = {
            finding.target: f"{finding.where}: {finding.detail}" for finding in result.expected
        }
        _write_quietly(report_dir, "junit.xml", junit_xml(report, listed))
    print(terminal_table(report))
    for reason in result.reasons():
        print(f"rttool: {printable(reason)}")
    append_step_summary(github_step_summary(report, result))
    if code == pytest.ExitCode.INTERRUPTED:
        sys.stderr.write("rttool: interrupted; the cases that did not run are errors\n")
        return EXIT_INTERRUPTED
    if finished.write_error is not None:
        # The verdict stands as judged; a run whose reports are missing never passes.
        print(f"rttool: reports NOT written to {printable(str(report_dir))}")
        return int(result.exit_code) or EXIT_USAGE
    print(f"rttool: reports in {printable(str(report_dir))}")
    return int(result.exit_code)


def _pytest_args(args: argparse.Namespace, report_dir: Path, levels: tuple[str, ...]) -> list[str]:
    from conformance._pytest import SUITE_MODULE

    out = [
        str(SUITE_MODULE),
        "-p",
        "no:cacheprovider",
        "-p",
        "no:terminal",
        "--rootdir",
        str(SUITE_MODULE.parent),
        "-c",
        os.devnull,
        "--rttool-impl",
        args.impl,
        "--rttool-report-dir",
        str(report_dir),
        "--rttool-timeout",
        str(args.timeout),
    ]
    if args.mutant:
        out += ["--rttool-mutant", args.mutant]
    if args.variant:
        out += ["--rttool-variant", args.variant]
    for only in args.only:
        out += ["--rttool-only", only]
    for option, value in (
        ("--rttool-examples", args.examples),
        ("--rttool-hunt-seconds", args.hunt_seconds),
        ("--rttool-seed", args.seed),
    ):
        if value is not None:
            out += [option, str(value)]
    if args.no_hunt:
        out.append("--rttool-no-hunt")
    for level in levels:
        out += ["--rttool-gate", level]
    if args.workers > 1:
        out += ["-n", str(args.workers)]
    if args.quiet:
        out += ["--rttool-quiet"]
    return out


def _write_undrivable(report_dir: Path, spec: str, message: str) -> None:
    """Leave a ``junit.xml`` with the error, so that a CI dashboard shows why."""
    from conformance.report import undrivable_junit

    _write_quietly(report_dir, "junit.xml", undrivable_junit(spec, message))


def _write_quietly(report_dir: Path, name: str, content: bytes) -> None:
    """Write one file of the report directory; a failure is said on one line."""
    from conformance._escape import printable
    from conformance._files import write_file

    try:
        write_file(report_dir, name, content)
    except OSError as err:
        sys.stderr.write(
            printable(f"rttool: cannot write {name}: dir={report_dir} reason={err}") + "\n"
        )


def _safe(name: str) -> str:
    """A folder name from an implementation's name: never empty, never ``.`` or ``..``."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return cleaned or "implementation"
