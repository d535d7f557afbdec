"""What ``rttool run`` computes: the implementation's name, the report directory, the
pytest session, and the gate over the standing it built, as one :class:`RunOutcome`.

Every way a run can end early is an outcome too (a usage error, an implementation that
cannot be driven, an interruption), carrying the lines it says: nothing here prints.

The report is built in a staging directory and swapped into the report directory only
once it is whole (``conformance/cli/_report_dir.py``): a run that is killed, or whose
reports cannot all be written, leaves the previous report as it was.
"""

from __future__ import annotations

import argparse
import os
import re
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.cli._session import SessionResult
    from conformance.report import Expectations, GateResult, StandingReport

__all__ = ["RunOutcome", "execute"]

_STORAGE = "HYPOTHESIS_STORAGE_DIRECTORY"
# pytest loads no plugin of an installed package unless asked for by name (-p)
_NO_AUTOLOAD = "PYTEST_DISABLE_PLUGIN_AUTOLOAD"
#: the pytest plugins a suite run loads: rttool's own, hypothesis's (the hunt) and
#: pytest-xdist's (workers, shards)
_SUITE_PLUGINS = ("conformance.plugin", "_hypothesis_pytestplugin", "xdist.plugin")
_EXIT_UNDRIVABLE = 3
_EXIT_USAGE = 2
_EXIT_INTERRUPTED = 130


@dataclass(frozen=True)
class RunOutcome:
    """How a run ended: its exit code, what it says on standard error (``problems``,
    not yet escaped), and, when the suite built a standing, the report, the gate's
    reasons and where the reports went."""

    exit_code: int
    problems: tuple[str, ...] = ()
    report: StandingReport | None = None
    reasons: tuple[str, ...] = ()
    report_dir: Path | None = None
    #: every report reached the disk
    written: bool = True
    interrupted: bool = False


@dataclass(frozen=True)
class _Target:
    """The implementation to run, as its handshake names it."""

    spec: str
    expectations: Expectations | None
    name: str
    claimed: tuple[str, ...]


def execute(args: argparse.Namespace) -> RunOutcome:
    """Run the suite as ``args`` say; never prints (the plugin prints each rule's line)."""
    target = _target(args)
    if isinstance(target, RunOutcome):
        return target
    report_dir = _report_dir(args, target.name)
    if isinstance(report_dir, RunOutcome):
        return report_dir
    staging = _staging(report_dir)
    if isinstance(staging, RunOutcome):
        return staging
    from conformance.cli._report_dir import discard

    levels = tuple(args.level) or target.claimed
    try:
        finished, code = _session(args, staging, levels)
        outcome = _judged(args, target, staging, levels, finished, code)
    except BaseException:
        discard(staging)
        raise
    return _published(outcome, staging, report_dir)


def _staging(report_dir: Path) -> Path | RunOutcome:
    """The staging directory this run's report is built in."""
    from conformance.cli._report_dir import staging_for

    try:
        return staging_for(report_dir)
    except OSError as err:
        return RunOutcome(_EXIT_USAGE, problems=(_unusable(report_dir, err),))


def _unusable(report_dir: Path, err: OSError) -> str:
    return (
        "rttool: error: cannot use the report directory: "
        f"dir={report_dir} reason={err.strerror or err}"
    )


def _published(outcome: RunOutcome, staging: Path, report_dir: Path) -> RunOutcome:
    """Swap the staged report in when it is whole; otherwise keep the previous one."""
    from dataclasses import replace

    from conformance.cli._report_dir import discard, swap_in

    whole = outcome.written and any(
        (staging / name).is_file() for name in ("standing.json", "junit.xml")
    )
    if not whole:
        discard(staging)
        return replace(outcome, report_dir=report_dir if outcome.report_dir else None)
    try:
        swap_in(staging, report_dir)
    except OSError as err:
        discard(staging)
        said = f"rttool: error: reports not written: dir={report_dir} reason={err}"
        return replace(
            outcome,
            exit_code=outcome.exit_code or _EXIT_USAGE,
            problems=(*outcome.problems, said),
            written=False,
        )
    return replace(outcome, report_dir=report_dir if outcome.report_dir else None)


def _target(args: argparse.Namespace) -> _Target | RunOutcome:
    """The spec, the expectations and the selection checked, then the handshake."""
    from adapters.errors import ImplementationError, RttoolError
    from conformance._pytest import resolve_spec
    from conformance._redact import redacted
    from conformance.cases import check_selection
    from conformance.cli._report import problem_lines
    from conformance.report import ExpectationsError, load_expectations
    from conformance.rules import load_corpus

    try:
        spec = resolve_spec(args.impl, args.mutant, args.variant)
        expectations = load_expectations(args.expectations) if args.expectations else None
        check_selection(load_corpus(), args.only, args.level)
    except ExpectationsError as err:  # the problems of the file, a line each
        return RunOutcome(_EXIT_USAGE, problems=problem_lines(err))
    except RttoolError as err:
        return RunOutcome(_EXIT_USAGE, problems=(f"rttool: error: {redacted(str(err))}",))
    try:
        name, claimed = _implementation_name(spec, args.timeout)
    except ImplementationError as err:
        message = redacted(f"the implementation could not be driven: {err}")
        said: tuple[str, ...] = (f"rttool: {message}",)
        if args.report_dir is not None:
            said += _publish_undrivable(args.report_dir.resolve(), redacted(spec), message)
        return RunOutcome(_EXIT_UNDRIVABLE, problems=said)
    return _Target(spec, expectations, name, claimed)


def _implementation_name(spec: str, timeout: float) -> tuple[str, tuple[str, ...]]:
    from adapters import Driver, connect
    from conformance import __version__

    driver = Driver(connect(spec, timeout=timeout), timeout=timeout, suite_version=__version__)
    try:
        handshake = driver.handshake()
    finally:
        driver.close()
    return handshake.implementation.name, handshake.levels


def _report_dir(args: argparse.Namespace, name: str) -> Path | RunOutcome:
    """The report directory (absolute, no link): a directory, or nothing yet."""
    import errno

    report_dir = (args.report_dir or Path("reports") / _safe(name)).resolve()
    if os.path.lexists(report_dir) and not report_dir.is_dir():
        err = NotADirectoryError(errno.ENOTDIR, "not a directory")
        return RunOutcome(_EXIT_USAGE, problems=(_unusable(report_dir, err),))
    return report_dir


def _session(
    args: argparse.Namespace, report_dir: Path, levels: tuple[str, ...]
) -> tuple[SessionResult, int]:
    """The pytest session over the suite; returns what it built and pytest's exit code."""
    import pytest

    from conformance._progress import Progress
    from conformance.cli._session import RunProgress, SessionResult

    # The hunt's example database and hypothesis's own caches live with the reports,
    # never in the working tree (unless the user chose a place), for this run only.  The
    # session loads only the plugins the suite names (_SUITE_PLUGINS), never every pytest
    # plugin installed beside it: another package's plugin could change how cases run,
    # and one (LangSmith's, which the LangGraph extra installs) costs a second of import
    # in every run and in every worker.
    saved = {name: os.environ.get(name) for name in (_STORAGE, _NO_AUTOLOAD)}
    os.environ.setdefault(_STORAGE, str(report_dir / ".hypothesis"))
    os.environ[_NO_AUTOLOAD] = "1"
    finished = SessionResult()
    plugins = [finished.plugin()]
    try:
        with ExitStack() as stack:
            if not args.quiet:
                progress = stack.enter_context(Progress("rttool run", 0, "cases"))
                plugins.append(RunProgress(progress).plugin())
            code = pytest.main(_pytest_args(args, report_dir, levels), plugins=plugins)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return finished, int(code)


def _judged(
    args: argparse.Namespace,
    target: _Target,
    report_dir: Path,
    levels: tuple[str, ...],
    finished: SessionResult,
    code: int,
) -> RunOutcome:
    """How the session ended: without a standing, or with one to gate."""
    import pytest

    from conformance._pytest import UNDRIVABLE
    from conformance._redact import redacted
    from conformance.report import load_standing

    undrivable = report_dir / UNDRIVABLE
    if undrivable.is_file():
        from adapters.files import read_text

        said = read_text(undrivable, limit=64 * 1024, errors="replace").strip()
        written = _write_undrivable(report_dir, redacted(target.spec), redacted(said))
        return RunOutcome(_EXIT_UNDRIVABLE, problems=written)
    report = finished.report
    if report is None and code == pytest.ExitCode.INTERRUPTED:
        return RunOutcome(_EXIT_INTERRUPTED, ("rttool: interrupted before any case reported",))
    if code == pytest.ExitCode.USAGE_ERROR or (
        code == pytest.ExitCode.INTERNAL_ERROR and finished.write_error is None
    ):
        return RunOutcome(_EXIT_USAGE)
    if report is None:
        standing = report_dir / "standing.json"
        if not standing.is_file():
            said = "rttool: the run produced no standing; the implementation could not be driven"
            return RunOutcome(_EXIT_UNDRIVABLE, problems=(said,))
        report = load_standing(standing)
    interrupted = code == pytest.ExitCode.INTERRUPTED or finished.hunt_interrupted
    return _gated(args, target, report_dir, levels, finished, report, interrupted=interrupted)


def _gated(
    args: argparse.Namespace,
    target: _Target,
    report_dir: Path,
    levels: tuple[str, ...],
    finished: SessionResult,
    report: StandingReport,
    *,
    interrupted: bool,
) -> RunOutcome:
    """The gate over the standing the run built, and the reports it changes."""
    from conformance.report import gate, junit_xml, reproducible, write_reports

    written = finished.write_error is None
    if args.reproducible and written:
        # The committed pair; every other format keeps its timings.
        write_reports(reproducible(report), report_dir, ("json", "markdown"))
    result = gate(report, levels, target.expectations)  # type: ignore[arg-type]
    problems: tuple[str, ...] = ()
    if result.expected and written:
        # A dashboard reading junit.xml must agree with the gate.
        listed = {f.target: f"{f.where}: {f.detail}" for f in result.expected}
        problems = _write_quietly(report_dir, "junit.xml", junit_xml(report, listed))
    problems += _warnings(report, result)
    exit_code = int(result.exit_code)
    if interrupted:
        exit_code = _EXIT_INTERRUPTED
        problems += ("rttool: interrupted; the cases that did not run are errors",)
    elif not written:
        # The verdict stands as judged; a run whose reports are missing never passes.
        exit_code = exit_code or _EXIT_USAGE
    reasons = tuple(result.reasons())
    return RunOutcome(exit_code, problems, report, reasons, report_dir, written, interrupted)


def _warnings(report: StandingReport, result: GateResult) -> tuple[str, ...]:
    """The step summary appended for the CI page, and the standing's warnings, as lines:
    a summary that cannot be written is a warning, never a change of the verdict."""
    from conformance.report import ReportWriteError, append_step_summary, github_step_summary

    said = tuple(f"rttool: warning: {warning}" for warning in report.warnings)
    try:
        append_step_summary(github_step_summary(report, result))
    except ReportWriteError as err:
        # The summary is a courtesy to the CI page: the verdict, and its exit code, stand.
        said = (f"rttool: warning: {err}", *said)
    return said


def _pytest_args(args: argparse.Namespace, report_dir: Path, levels: tuple[str, ...]) -> list[str]:
    from conformance._pytest import SUITE_MODULE

    out = [str(SUITE_MODULE), "-p", "no:cacheprovider", "-p", "no:terminal"]
    for plugin in _SUITE_PLUGINS:
        out += ["-p", plugin]
    out += ["--rootdir", str(SUITE_MODULE.parent), "-c", os.devnull]
    out += ["--rttool-impl", args.impl, "--rttool-report-dir", str(report_dir)]
    out += ["--rttool-timeout", str(args.timeout)]
    valued: list[tuple[str, object]] = [
        ("--rttool-mutant", args.mutant),
        ("--rttool-variant", args.variant),
        *(("--rttool-only", only) for only in args.only),
        *(("--rttool-first", first) for first in getattr(args, "first", ())),
        ("--rttool-examples", args.examples),
        ("--rttool-hunt-seconds", args.hunt_seconds),
        ("--rttool-seed", args.seed),
        *_distributed_pytest_args(args),
    ]
    for option, value in valued:
        if value is not None and value != "":
            out += [option, str(value)]
    out += _flags(args)
    for level in levels:
        out += ["--rttool-gate", level]
    if args.workers > 1:
        out += ["-n", str(args.workers)]
    return out


def _flags(args: argparse.Namespace) -> list[str]:
    """The run's on/off options, as the plugin and pytest take them."""
    chosen = {
        "--rttool-no-hunt": args.no_hunt,
        "--exitfirst": getattr(args, "exitfirst", False),
        "--rttool-quiet": args.quiet,
    }
    return [flag for flag, on in chosen.items() if on]


def _distributed_pytest_args(args: argparse.Namespace) -> list[tuple[str, object]]:
    """The options of a run split across machines, as the plugin takes them."""
    shard = getattr(args, "shard", None)
    return [
        ("--rttool-shard", None if shard is None else f"{shard[0]}/{shard[1]}"),
        ("--rttool-example-db", getattr(args, "example_db", None)),
    ]


def _publish_undrivable(report_dir: Path, spec: str, message: str) -> tuple[str, ...]:
    """The report of a run whose implementation answered no handshake: its ``junit.xml``
    alone, in place of the previous report."""
    from conformance.cli._report_dir import discard, staging_for, swap_in

    try:
        staging = staging_for(report_dir)
    except OSError as err:
        return (_unusable(report_dir, err),)
    said = _write_undrivable(staging, spec, message)
    if said:
        discard(staging)
        return said
    try:
        swap_in(staging, report_dir)
    except OSError as err:
        discard(staging)
        return (f"rttool: cannot write junit.xml: dir={report_dir} reason={err}",)
    return ()


def _write_undrivable(report_dir: Path, spec: str, message: str) -> tuple[str, ...]:
    """Leave a ``junit.xml`` with the error, so that a CI dashboard shows why."""
    from conformance.report import undrivable_junit

    return _write_quietly(report_dir, "junit.xml", undrivable_junit(spec, message))


def _write_quietly(report_dir: Path, name: str, content: bytes) -> tuple[str, ...]:
    """Write one file of the report directory; a failure is one line to say."""
    from adapters.files import write_file

    try:
        write_file(report_dir, name, content)
    except OSError as err:
        return (f"rttool: cannot write {name}: dir={report_dir} reason={err}",)
    return ()


def _safe(name: str) -> str:
    """A folder name from an implementation's name: never empty, never ``.`` or ``..``."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return cleaned or "implementation"
