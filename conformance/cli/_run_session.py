"""What ``rttool run`` computes: the implementation's name, the report directory, the run
(the engine's, called directly), and the gate over the standing it built, as one
:class:`RunOutcome`.

Every way a run can end early is an outcome too (a usage error, an implementation that
cannot be driven, an interruption), carrying the lines it says: nothing here prints but
the line of each rule as it finishes (and the progress, on standard error).

The report is built in a staging directory and swapped into the report directory only
once it is whole (``conformance/cli/_report_dir.py``): a run that is killed, or whose
reports cannot all be written, leaves the previous report as it was.
"""

from __future__ import annotations

import argparse
import os
import re
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from adapters.handshake import Handshake
    from conformance._progress import Progress
    from conformance.engine import Case, CaseOutcome, RunOptions, RunPlan, RunResult, Suite
    from conformance.report import Expectations, GateResult, RuleResult, StandingReport

__all__ = ["RunOutcome", "execute"]

_STORAGE = "HYPOTHESIS_STORAGE_DIRECTORY"
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

    options: RunOptions
    expectations: Expectations | None
    handshake: Handshake

    @property
    def name(self) -> str:
        return self.handshake.implementation.name


def execute(args: argparse.Namespace) -> RunOutcome:
    """Run the suite as ``args`` say; never prints but the progress and each rule's line."""
    target = _target(args)
    if isinstance(target, RunOutcome):
        return target
    report_dir = _report_dir(target.options, target.name)
    if isinstance(report_dir, RunOutcome):
        return report_dir
    staging = _staging(report_dir)
    if isinstance(staging, RunOutcome):
        return staging
    from conformance.cli._report_dir import discard

    try:
        outcome = _run(replace(target.options, report_dir=staging), target)
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
    entry = (
        f" entry={err.filename}" if err.filename and str(err.filename) != str(report_dir) else ""
    )
    return (
        "rttool: error: cannot use the report directory: "
        f"dir={report_dir}{entry} reason={err.strerror or err}"
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
    """The options, the expectations and the selection checked, then the handshake."""
    from adapters.errors import ImplementationError, RttoolError
    from conformance._redact import redacted
    from conformance.cli._report import problem_lines
    from conformance.engine import RunOptions, check_selection
    from conformance.report import ExpectationsError, load_expectations
    from conformance.rules import load_corpus

    try:
        options = RunOptions.from_arguments(args)
        expectations = load_expectations(options.expectations) if options.expectations else None
        check_selection(load_corpus(), options.only, options.gate)
    except ExpectationsError as err:  # the problems of the file, a line each
        return RunOutcome(_EXIT_USAGE, problems=problem_lines(err))
    except RttoolError as err:
        return RunOutcome(_EXIT_USAGE, problems=(f"rttool: error: {redacted(str(err))}",))
    if options.report_dir is not None:  # refused before the implementation is started
        refused = _refused_report_dir(options)
        if refused is not None:
            return refused
    try:
        handshake = _handshake(options.spec, options.timeout)
    except ImplementationError as err:
        message = redacted(f"the implementation could not be driven: {err}")
        said: tuple[str, ...] = (f"rttool: {message}",)
        if options.report_dir is not None:
            said += _publish_undrivable(options.report_dir, redacted(options.spec), message)
        return RunOutcome(_EXIT_UNDRIVABLE, problems=said)
    return _Target(options, expectations, handshake)


def _refused_report_dir(options: RunOptions) -> RunOutcome | None:
    """Why the report directory given cannot be used, as the run would find it after
    the handshake (an implementation started over stdio is not started in vain)."""
    from conformance.cli._report_dir import refuse_unreplaceable

    report_dir = _report_dir(options, "")
    if isinstance(report_dir, RunOutcome):
        return report_dir
    try:
        refuse_unreplaceable(report_dir)
    except OSError as err:
        return RunOutcome(_EXIT_USAGE, problems=(_unusable(report_dir, err),))
    return None


def _handshake(spec: str, timeout: float) -> Handshake:
    """The implementation's handshake, on a connection of its own, closed again (a run's
    workers each open their own)."""
    from adapters import Driver, connect
    from conformance import __version__

    driver = Driver(connect(spec, timeout=timeout), timeout=timeout, suite_version=__version__)
    try:
        return driver.handshake()
    finally:
        driver.close()


def _report_dir(options: RunOptions, name: str) -> Path | RunOutcome:
    """The report directory (absolute, no link): a directory, or nothing yet."""
    import errno

    report_dir = (options.report_dir or Path("reports") / _safe(name)).resolve()
    if os.path.lexists(report_dir) and not report_dir.is_dir():
        err = NotADirectoryError(errno.ENOTDIR, "not a directory")
        return RunOutcome(_EXIT_USAGE, problems=(_unusable(report_dir, err),))
    return report_dir


def _run(options: RunOptions, target: _Target) -> RunOutcome:
    """The run, its reports written into ``options.report_dir`` (the staging directory),
    and the gate over the standing it built."""
    from adapters.errors import RttoolError
    from adapters.files import real_directory
    from conformance._escape import printable
    from conformance._redact import redacted
    from conformance.engine import load_suite
    from conformance.report import write_reports

    assert options.report_dir is not None
    try:
        suite = load_suite()
        plan = suite.plan(options)
        # The hunt's example database and hypothesis's own caches live with the reports,
        # never in the working tree (unless the user chose a place), never through a link.
        real_directory(options.report_dir, ".hypothesis")
    except RttoolError as err:
        return RunOutcome(_EXIT_USAGE, problems=(f"rttool: error: {redacted(str(err))}",))
    except OSError as err:
        return RunOutcome(_EXIT_USAGE, problems=(_unusable(options.report_dir, err),))
    result = _executed(suite, plan, options, target.handshake)
    write_error: str | None = None
    try:
        write_reports(result.report, options.report_dir)
    except KeyboardInterrupt:
        raise
    except BaseException as err:
        write_error = printable(redacted(" ".join(f"{type(err).__name__}: {err}".split())))
    outcome = _gated(options, target, result, written=write_error is None)
    if write_error is not None:
        said = f"rttool: error: reports not written: {write_error}"
        outcome = replace(outcome, problems=(said, *outcome.problems))
    return outcome


def _executed(suite: Suite, plan: RunPlan, options: RunOptions, handshake: Handshake) -> RunResult:
    """The engine's run, with the progress on standard error and each rule's line on
    standard output as it finishes (neither when ``--quiet``)."""

    from conformance._progress import Progress
    from conformance.engine import Listener, RuleLines, run_suite

    saved = os.environ.get(_STORAGE)
    assert options.report_dir is not None
    os.environ.setdefault(_STORAGE, str(options.report_dir / ".hypothesis"))
    try:
        with ExitStack() as stack:
            listeners: list[Listener] = []
            if not options.quiet:
                progress = stack.enter_context(Progress("rttool run", len(plan.cases), "cases"))
                # A rule's line comes before the progress line its last case brings.
                listeners.append(RuleLines(options, suite, _say_rule))
                listeners.append(_CaseProgress(progress))
            return run_suite(suite, plan, options, handshake, listeners=listeners)
    finally:
        if saved is None:
            os.environ.pop(_STORAGE, None)
        else:
            os.environ[_STORAGE] = saved


def _say_rule(result: RuleResult) -> None:
    """A rule's line, on standard output, as soon as its last case ended."""
    import sys

    from conformance._terminal import say
    from conformance.report import rule_line

    say(sys.stdout, f"rttool: {rule_line(result)}\n")  # a courtesy: it never fails the run


class _CaseProgress:
    """The progress of a run: cases done of how many, how many failed so far, and how
    many examples the hunt has judged (as each hunt case ends)."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self._examples = 0

    def planned(self, cases: Sequence[Case]) -> None:
        """The total is known from the plan already."""

    def finished(self, case: Case, outcome: CaseOutcome) -> None:
        if outcome.hunt is not None and not self._examples:
            self._examples = outcome.hunt.examples
            self.progress.tally(f"hunt: {self._examples} examples")
        self.progress.advance(failed=outcome.outcome in ("failed", "error"), note=case.id)


def _gated(options: RunOptions, target: _Target, result: RunResult, *, written: bool) -> RunOutcome:
    """The gate over the standing the run built, and the reports it changes."""
    from conformance.report import gate

    report = result.report
    report_dir = options.report_dir
    assert report_dir is not None
    verdict = gate(report, options.gate or target.handshake.levels, target.expectations)  # type: ignore[arg-type]
    problems = _rewritten(options, report, verdict) if written else ()
    problems += _warnings(report, verdict)
    exit_code = int(verdict.exit_code)
    interrupted = result.interrupted or result.hunt_interrupted
    if interrupted:
        exit_code = _EXIT_INTERRUPTED
        problems += ("rttool: interrupted; the cases that did not run are errors",)
    elif not written:
        # The verdict stands as judged; a run whose reports are missing never passes.
        exit_code = exit_code or _EXIT_USAGE
    reasons = tuple(verdict.reasons())
    return RunOutcome(exit_code, problems, report, reasons, report_dir, written, interrupted)


def _rewritten(options: RunOptions, report: StandingReport, verdict: GateResult) -> tuple[str, ...]:
    """The reports the gate and ``--reproducible`` change once written: the committed
    pair without timings, and a ``junit.xml`` that agrees with the gate's expected
    failures (a dashboard reading it must agree with the gate)."""
    from conformance.report import junit_xml, reproducible, write_reports

    assert options.report_dir is not None
    if options.reproducible:  # every other format keeps its timings
        write_reports(reproducible(report), options.report_dir, ("json", "markdown"))
    if not verdict.expected:
        return ()
    listed = {f.target: f"{f.where}: {f.detail}" for f in verdict.expected}
    return _write_quietly(options.report_dir, "junit.xml", junit_xml(report, listed))


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
