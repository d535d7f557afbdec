"""The suite's pytest hooks: collection, live per-rule lines, and the standing report."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from adapters.errors import ImplementationError, RttoolError
from adapters.files import real_directory, write_file
from conformance._pytest._options import RunOptions
from conformance._pytest._shard import shard_cases
from conformance._pytest._state import CaseOutcome, SuiteState
from conformance._redact import redacted
from conformance.cases import Case, Selection, collect_cases

if TYPE_CHECKING:
    from conformance.report import StandingReport
from conformance._escape import printable

__all__ = ["STATE", "SUITE_MODULE", "TEST_NAME", "UNDRIVABLE", "activate", "report_allure"]

STATE = pytest.StashKey[SuiteState]()
#: written into the report directory when the implementation cannot be driven at all
UNDRIVABLE = "undrivable.txt"
SUITE_MODULE = Path(__file__).with_name("_suite.py")
#: the name of the suite's one test function (in ``_suite.py``)
TEST_NAME = "test_rttool"
_SEVERITY = {"core": "critical", "extended": "normal", "optional": "minor"}


def activate(config: pytest.Config) -> None:
    """Load the corpus and the cases, and join the suite's test module to the session."""
    from conformance.cases import check_selection, first_ordered
    from conformance.rules import load_corpus
    from conformance.vectors import vector_cases

    options = RunOptions.from_config(config)
    try:
        corpus = load_corpus()
        check_selection(
            corpus,
            options.only,
            options.levels,
            only_flag="--rttool-only",
            level_flag="--rttool-level",
        )
        selection = Selection(only=options.only, levels=options.levels)
        extra = vector_cases(corpus) + _hunt_cases(options)
        cases, plan = shard_cases(corpus, collect_cases(corpus, selection, extra), options.shard)
        cases = first_ordered(cases, options.first) if options.first else cases
        if plan is None:
            _check_first(cases, options.first)
    except RttoolError as err:
        raise pytest.UsageError(f"rttool: {err}") from err
    if not cases:
        if plan is not None:
            raise pytest.UsageError(
                f"rttool: shard {plan.index}/{plan.count} has no case to run: the selection "
                "has fewer rules than there are shards and no hunt"
            )
        raise pytest.UsageError("rttool: the selection leaves no case to run")
    if options.report_dir is not None:  # a marker left by an earlier run says nothing now
        (options.report_dir / UNDRIVABLE).unlink(missing_ok=True)
        try:  # the hunt's example database is written here: never through a link
            real_directory(options.report_dir, ".hypothesis")
        except OSError as err:
            raise pytest.UsageError(
                f"rttool: cannot use the report directory: {printable(str(err))}"
            ) from err
    state = SuiteState(options, corpus, cases)
    state.shard = plan
    config.stash[STATE] = state
    config.pluginmanager.register(SuitePlugin(state), "rttool-suite")
    if str(SUITE_MODULE) not in config.args:
        config.args.append(str(SUITE_MODULE))


def _check_first(cases: list[Case], first: tuple[str, ...]) -> None:
    """Refuse a ``--first`` that names no rule, clause or case of the selection."""
    for wanted in first:
        if not any(wanted == c.id or wanted in c.clauses or wanted in c.rules for c in cases):
            raise pytest.UsageError(
                f"rttool: --first {printable(wanted)[:200]} names no rule, clause or case "
                "of the selection"
            )


def _hunt_cases(options: RunOptions) -> list[Case]:
    if not options.hunt:
        return []
    try:
        from conformance.hunt import hunt_cases
    except ImportError:  # the hunt is optional equipment
        return []
    return hunt_cases(options)


def report_allure(
    config: pytest.Config, state: SuiteState, case: Case, outcome: CaseOutcome
) -> None:
    """Label the running test for Allure (family epic, rule feature, clause story)."""
    if not config.getoption("allure_report_dir", default=None):
        return
    import allure

    dynamic: Any = allure.dynamic  # allure's own functions are untyped
    attach: Any = allure.attach
    rules = [state.corpus.get(rule) for rule in case.rules]
    for rule in filter(None, rules):
        dynamic.epic(rule.family)
        dynamic.feature(rule.id)
        dynamic.severity(_SEVERITY.get(rule.level, "normal"))
        if rule.source and str(rule.source).startswith("http"):
            dynamic.link(str(rule.source), name=rule.id)
    for clause in case.clauses:
        dynamic.story(clause)
    dynamic.title(case.id)
    if outcome.outcome in ("failed", "error") and state.options.report_dir is not None:
        for label, relative in outcome.evidence.items():
            path = state.options.report_dir / relative
            if path.is_file():
                attach.file(str(path), name=label, attachment_type=allure.attachment_type.JSON)


class SuitePlugin:
    """Hooks of an active suite (one instance per pytest process)."""

    def __init__(self, state: SuiteState) -> None:
        from conformance._pytest._build import selected_clause

        self.state = state
        self._pending: dict[str, int] = {}
        # The rules each case counts towards: those with a clause of the case that the
        # run selected (a hunt case also bound to an unselected rule does not count there).
        self._counted: dict[str, tuple[str, ...]] = {}
        for case in state.cases:
            counted = tuple(
                rule
                for rule in case.rules
                if any(
                    selected_clause(state, clause, rule)
                    for clause in case.clauses
                    if clause.startswith(f"{rule}#")
                )
            )
            self._counted[case.id] = counted
            for rule in counted:
                self._pending[rule] = self._pending.get(rule, 0) + 1
        # Lines come out in corpus order: a rule's line waits for the rules before it.
        self._order = [rule.id for rule in state.corpus.rules if rule.id in self._pending]
        self._printed = 0
        self.report: StandingReport | None = None
        #: why the reports could not be written, when they could not
        self.write_error: str | None = None
        #: the hunt was interrupted (and ended early with what it had found)
        self.hunt_interrupted = False
        # The test id of each case (``test_rttool[RT-TOOL-7#c4/name]``), and the cases
        # the session is to run (after deselection; all of them until collection says).
        self._by_test = {f"{TEST_NAME}[{case.id}]": case.id for case in state.cases}
        self._expected: list[str] = [case.id for case in state.cases]

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        """Parametrize the suite's test with every selected case."""
        if "rttool_case" in metafunc.fixturenames:
            metafunc.parametrize(
                "rttool_case", self.state.cases, ids=[case.id for case in self.state.cases]
            )

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """On the controlling process, make sure the implementation can be driven at all."""
        if hasattr(session.config, "workerinput"):
            return
        try:
            self.state.handshake()
        except ImplementationError as err:
            message = f"the implementation could not be driven: {err}"
            if self.state.options.report_dir is not None:
                # pytest's own exit code 3 means an internal error: say it in a file too.
                write_file(
                    self.state.options.report_dir,
                    UNDRIVABLE,
                    (redacted(message) + "\n").encode("utf-8", errors="backslashreplace"),
                )
            pytest.exit(f"rttool: {printable(redacted(message))}", returncode=3)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """The cases this session runs: those its items (after deselection) name."""
        self._note_collected([item.nodeid for item in session.items])

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        """Under xdist the controller collects nothing: the workers say what they run."""
        self._note_collected(ids)

    def _note_collected(self, node_ids: list[str]) -> None:
        found = [self._case_of(node_id) for node_id in node_ids]
        self._expected = [case_id for case_id in found if case_id is not None]

    def _case_of(self, node_id: str) -> str | None:
        return self._by_test.get(node_id.rpartition("::")[2])

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Collect outcomes (from every worker) and print a line per finished rule.

        A suite test that ended without its outcome (it failed outside the case, or its
        worker died) is recorded as an error of the suite: no case goes unreported.
        """
        for key, value in report.user_properties:
            if key == "rttool" and isinstance(value, str):
                self._record(CaseOutcome.from_json(value))
                return
        case_id = self._case_of(report.nodeid)
        if case_id is not None and (report.failed or report.when == "call"):
            self._record(CaseOutcome(case_id, "error", _crash_line(report), fault="suite"))

    def _record(self, outcome: CaseOutcome) -> None:
        if outcome.id in self.state.outcomes:
            return
        self.state.outcomes[outcome.id] = outcome
        self._finished(outcome)

    def _finished(self, outcome: CaseOutcome) -> None:
        from conformance._pytest._build import rule_result
        from conformance.report import rule_line

        for rule in self._counted.get(outcome.id, ()):
            self._pending[rule] -= 1
        while self._printed < len(self._order) and not self._pending[self._order[self._printed]]:
            result = rule_result(self.state, self._order[self._printed])
            self._printed += 1
            if result is not None:
                self._say(f"rttool: {rule_line(result)}")

    def _say(self, line: str) -> None:
        if self.state.options.quiet:
            return
        reporter = self.state_reporter
        if reporter is not None:
            reporter.write_line(line)
        else:
            sys.stdout.write(line + "\n")

    state_reporter: Any = None

    @pytest.hookimpl(trylast=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        """Find the terminal reporter, if any."""
        self.state_reporter = config.pluginmanager.get_plugin("terminalreporter")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """On the controlling process, write the standing report.

        Every case the session was to run is in it: one that never reported (the
        session was interrupted, a worker died) is an error.  Reports that cannot be
        written are said on one line, and the session's exit status does not improve.
        """
        if hasattr(session.config, "workerinput") or session.config.option.collectonly:
            return
        if not self.state.outcomes and session.exitstatus != pytest.ExitCode.INTERRUPTED:
            return  # nothing ran (the implementation could not be driven at all)
        from conformance._pytest._build import build_report
        from conformance.report import write_reports

        stopped = self.state.options.exitfirst and bool(session.shouldfail)
        for case_id in self._expected:
            if case_id in self.state.outcomes:
                continue
            if stopped:  # --exitfirst: nothing was tried, so nothing is in error
                said = "untested: not run: the run stopped at its first failing case (--exitfirst)"
                self._record(CaseOutcome(case_id, "skipped", said, "untested"))
                continue
            message = "not run: the session ended before this case reported an outcome"
            self._record(CaseOutcome(case_id, "error", message, fault="suite"))
        self.hunt_interrupted = any(
            (outcome.hunt or {}).get("interrupted") for outcome in self.state.outcomes.values()
        )
        handshake = self.state.handshake()
        report = build_report(
            self.state,
            handshake,
            duration_s=time.time() - self.state.started,
            levels=self.state.options.gate or handshake.levels,
        )
        self.report = report
        if self.state.options.report_dir is None:
            return
        try:
            write_reports(report, self.state.options.report_dir)
        except KeyboardInterrupt:
            raise
        except BaseException as err:
            self.write_error = printable(redacted(" ".join(f"{type(err).__name__}: {err}".split())))
            sys.stderr.write(f"rttool: error: reports not written: {self.write_error}\n")
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.INTERNAL_ERROR

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Under plain pytest, the standing table (``rttool run`` prints its own)."""
        from conformance.report import terminal_table

        if self.report is not None and not self.state.options.quiet:
            terminalreporter.section("rttool standing")
            terminalreporter.write_line(terminal_table(self.report))

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """Close the connection to the implementation."""
        self.state.close()


def _crash_line(report: pytest.TestReport) -> str:
    """One line for a suite test that failed outside its case: what was raised."""
    if not report.failed:
        said = "it reported no outcome"
    else:
        crash = getattr(getattr(report.longrepr, "reprcrash", None), "message", None)
        lines = [line.strip() for line in str(crash or report.longrepr).splitlines()]
        said = next((line for line in lines if line), "no report")
    line = f"the case ended without an outcome ({report.when}): {said}"
    return printable(redacted(" ".join(line.split())))[:1000]
