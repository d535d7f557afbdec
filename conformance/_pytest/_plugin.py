"""The suite's pytest hooks: the engine's plan as the suite test's parameters, live
per-rule lines, and the standing report built from every process's outcomes."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from adapters.errors import ImplementationError, RttoolError
from adapters.files import real_directory, write_file
from conformance._escape import printable
from conformance._redact import redacted
from conformance.engine import (
    EXITFIRST_NOT_RUN,
    NOT_RUN,
    RUN_OPTIONS,
    Case,
    CaseOutcome,
    RuleLines,
    RunOptions,
    RunPlan,
    Session,
    Suite,
    Tally,
    build_report,
    load_suite,
)

if TYPE_CHECKING:
    from conformance.report import RuleResult, StandingReport

__all__ = ["STATE", "SUITE_MODULE", "TEST_NAME", "UNDRIVABLE", "activate", "report_allure"]

#: written into the report directory when the implementation cannot be driven at all
UNDRIVABLE = "undrivable.txt"
SUITE_MODULE = Path(__file__).with_name("_suite.py")
#: the name of the suite's one test function (in ``_suite.py``)
TEST_NAME = "test_rttool"
_SEVERITY = {"core": "critical", "extended": "normal", "optional": "minor"}
#: how the plugin's options are named, for messages about the selection
_FLAGS = {"only": "--rttool-only", "levels": "--rttool-level", "first": "--rttool-first"}


@dataclass
class PluginState:
    """What one pytest process holds: the options, the suite and its plan, the session
    running cases here, and the outcomes reported so far (by case id)."""

    options: RunOptions
    suite: Suite
    plan: RunPlan
    session: Session
    outcomes: dict[str, CaseOutcome] = field(default_factory=dict)
    started: float = field(default_factory=time.time)

    def tally(self) -> Tally:
        """The run so far."""
        return Tally(
            options=self.options,
            corpus=self.suite.corpus,
            cases=self.plan.cases,
            outcomes=self.outcomes,
            situations=self.suite.situations,
            started=self.started,
            shard=self.plan.shard,
        )


STATE = pytest.StashKey[PluginState]()


def _options(config: pytest.Config) -> RunOptions:
    values: dict[str, object] = {
        option.name: config.getoption(option.plugin_dest)
        for option in RUN_OPTIONS
        if option.plugin is not None
    }
    values["exitfirst"] = (config.getoption("maxfail", default=0) or 0) == 1
    return RunOptions.of(values)


def activate(config: pytest.Config) -> None:
    """Plan the run and join the suite's test module to the session."""
    try:
        options = _options(config)
        suite = load_suite()
        plan = suite.plan(options, flags=_FLAGS)
    except RttoolError as err:
        raise pytest.UsageError(f"rttool: {err}") from err
    if options.report_dir is not None:  # a marker left by an earlier run says nothing now
        (options.report_dir / UNDRIVABLE).unlink(missing_ok=True)
        try:  # the hunt's example database is written here: never through a link
            real_directory(options.report_dir, ".hypothesis")
        except OSError as err:
            raise pytest.UsageError(
                f"rttool: cannot use the report directory: {printable(str(err))}"
            ) from err
    state = PluginState(options, suite, plan, Session(options, suite.corpus, suite.situations))
    config.stash[STATE] = state
    config.pluginmanager.register(SuitePlugin(state), "rttool-suite")
    if str(SUITE_MODULE) not in config.args:
        config.args.append(str(SUITE_MODULE))


def report_allure(
    config: pytest.Config, state: PluginState, case: Case, outcome: CaseOutcome
) -> None:
    """Label the running test for Allure (family epic, rule feature, clause story)."""
    if not config.getoption("allure_report_dir", default=None):
        return
    import allure

    dynamic: Any = allure.dynamic  # allure's own functions are untyped
    attach: Any = allure.attach
    rules = [state.suite.corpus.get(rule) for rule in case.rules]
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

    def __init__(self, state: PluginState) -> None:
        self.state = state
        self.lines = RuleLines(state.options, state.suite, self._rule_line)
        self.lines.planned(state.plan.cases)
        self.report: StandingReport | None = None
        #: why the reports could not be written, when they could not
        self.write_error: str | None = None
        # The test id of each case (``test_rttool[RT-TOOL-7#c4/name]``), and the cases
        # the session is to run (after deselection; all of them until collection says).
        self._by_test = {f"{TEST_NAME}[{case.id}]": case for case in state.plan.cases}
        self._expected: list[Case] = list(state.plan.cases)

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        """Parametrize the suite's test with every planned case."""
        if "rttool_case" in metafunc.fixturenames:
            cases = self.state.plan.cases
            metafunc.parametrize("rttool_case", cases, ids=[case.id for case in cases])

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """On the controlling process, make sure the implementation can be driven at all."""
        if hasattr(session.config, "workerinput"):
            return
        try:
            self.state.session.handshake()
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
        self._expected = [case for case in found if case is not None]

    def _case_of(self, node_id: str) -> Case | None:
        return self._by_test.get(node_id.rpartition("::")[2])

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Collect outcomes (from every worker) and print a line per finished rule.

        A suite test that ended without its outcome (it failed outside the case, or its
        worker died) is recorded as an error of the suite: no case goes unreported.
        """
        case = self._case_of(report.nodeid)
        if case is None:
            return
        for key, value in report.user_properties:
            if key == "rttool" and isinstance(value, str):
                self._record(case, CaseOutcome.from_json(value))
                return
        if report.failed or report.when == "call":
            crashed = CaseOutcome(
                case_id=case.id, outcome="error", message=_crash_line(report), fault="suite"
            )
            self._record(case, crashed)

    def _record(self, case: Case, outcome: CaseOutcome) -> None:
        if case.id in self.state.outcomes:
            return
        self.state.outcomes[case.id] = outcome
        self.lines.finished(case, outcome)

    def _rule_line(self, result: RuleResult) -> None:
        from conformance.report import rule_line

        if self.state.options.quiet:
            return
        line = f"rttool: {rule_line(result)}"
        if self.reporter is not None:
            self.reporter.write_line(line)
        else:
            sys.stdout.write(line + "\n")

    reporter: Any = None

    @pytest.hookimpl(trylast=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        """Find the terminal reporter, if any."""
        self.reporter = config.pluginmanager.get_plugin("terminalreporter")

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
        from conformance.report import write_reports

        stopped = self.state.options.exitfirst and bool(session.shouldfail)
        for case in self._expected:
            if case.id in self.state.outcomes:
                continue
            if stopped:  # --exitfirst: nothing was tried, so nothing is in error
                unrun = CaseOutcome(
                    case_id=case.id,
                    outcome="skipped",
                    skip_kind="untested",
                    message=EXITFIRST_NOT_RUN,
                )
            else:
                unrun = CaseOutcome(
                    case_id=case.id, outcome="error", message=NOT_RUN, fault="suite"
                )
            self._record(case, unrun)
        handshake = self.state.session.handshake()
        options = self.state.options
        self.report = build_report(
            self.state.tally(),
            handshake,
            duration_s=time.time() - self.state.started,
            levels=options.gate or handshake.levels,
        )
        if options.report_dir is None:
            return
        try:
            write_reports(self.report, options.report_dir)
        except KeyboardInterrupt:
            raise
        except BaseException as err:
            self.write_error = printable(redacted(" ".join(f"{type(err).__name__}: {err}".split())))
            sys.stderr.write(f"rttool: error: reports not written: {self.write_error}\n")
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.INTERNAL_ERROR

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The standing table."""
        from conformance.report import terminal_table

        if self.report is not None and not self.state.options.quiet:
            terminalreporter.section("rttool standing")
            terminalreporter.write_line(terminal_table(self.report))

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """Close the connection to the implementation."""
        self.state.session.close()


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
