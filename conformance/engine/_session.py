"""A session against one implementation: its connection, the cases run through it one at
a time, and the evidence of each failure written as it happens.

Every process that runs cases (a whole run, a worker of one, the self-test judging a
mutant, the pytest plugin) holds one :class:`Session`.  :meth:`Session.execute` never
loses a verdict: whatever happens while running, judging or writing the evidence, the
case ends with a :class:`~conformance.engine.CaseOutcome`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from adapters import Driver, connect
from adapters.capabilities import missing_capability, needed_capabilities
from adapters.codec import to_json
from adapters.driver import Unsupported
from adapters.errors import ImplementationError, TimedOut
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance import __version__
from conformance._errored import ERROR_FILE, error_record, save_json
from conformance.engine._case import Case, as_reported, judge, one_line, raised
from conformance.engine._options import RunOptions
from conformance.engine._outcome import EVIDENCE_NOT_WRITTEN, CaseOutcome, HuntRecord
from conformance.report import Evidence
from conformance.rules import Corpus
from conformance.stopping import stop_requested
from conformance.toolkit.machinery import (
    CheckContext,
    ClauseSituation,
    ScenarioRunner,
    reached_by_case,
)

__all__ = ["Session"]


class Session:
    """What one process knows of the implementation it runs cases against."""

    #: after this many cases in a row timed out the implementation is taken to hang, and
    #: the cases left are reported as errors at once instead of costing a timeout each
    HANG_AFTER = 3

    def __init__(
        self,
        options: RunOptions,
        corpus: Corpus,
        situations: Mapping[str, tuple[ClauseSituation, ...]],
    ) -> None:
        self.options = options
        self.corpus = corpus
        self._situations = situations
        self._driver: Driver | None = None
        self._timeouts = 0  # cases in a row that timed out (skips neither count nor reset)
        self._last_timeout: TimedOut | None = None
        self._handshake: Handshake | None = None

    @property
    def driver(self) -> Driver:
        """The connection to the implementation (opened on first use)."""
        if self._driver is None:
            self._driver = Driver(
                connect(self.options.spec, timeout=self.options.timeout),
                timeout=self.options.timeout,
                suite_version=__version__,
            )
        return self._driver

    def handshake(self) -> Handshake:
        """The implementation's handshake (raises :class:`ImplementationError`)."""
        if self._handshake is None:
            self._handshake = self.driver.handshake()
        return self._handshake

    def close(self) -> None:
        """Close the connection, if one was opened."""
        if self._driver is not None:
            self._driver.close()
            self._driver = None

    def applicable(self, case: Case, handshake: Handshake) -> str | None:
        """``None`` when the case applies, else why not."""
        for rule_id in case.rules:
            rule = self.corpus.get(rule_id)
            if rule is not None and not set(rule.profiles) & set(handshake.profiles):
                return f"not-applicable: profile {'/'.join(rule.profiles)} not claimed"
        return None

    def execute(self, case: Case) -> CaseOutcome:
        """Run ``case`` and say how it ended; never raises (but for a real Ctrl-C).

        Whatever happens while running, judging or writing the evidence, the case ends
        with an outcome: a verdict is never lost, and never changed, because its
        evidence could not be written.
        """
        if stop_requested():  # a stop whose KeyboardInterrupt was dropped on its way
            raise KeyboardInterrupt
        started = time.perf_counter()
        context: CheckContext | None = None
        error: ImplementationError | None = None
        try:
            outcome, context, error = self._judge(case)
        except KeyboardInterrupt:
            raise
        except BaseException as err:  # the suite's own fault, outside any check
            outcome = CaseOutcome(
                case_id=case.id, outcome="error", message=raised(err), fault="suite"
            )
        duration = round(time.perf_counter() - started, 6)
        evidence = Evidence()
        unwritten = ""
        if outcome.outcome in ("failed", "error") and context is not None:
            try:
                evidence = self._write_evidence(case, context, error)
            except KeyboardInterrupt:
                raise
            except BaseException as err:
                unwritten = raised(err)
        message = outcome.message
        if unwritten:
            message = one_line(f"{message}{EVIDENCE_NOT_WRITTEN}{unwritten})")
        return replace(
            outcome,
            message=message,
            duration_s=duration,
            evidence=evidence,
            hunt=_hunt_record(context),
            reached=self._reached(case, context) if context is not None else {},
            evidence_error=unwritten,
        )

    def _halt_message(self) -> str:
        return (
            f"not run: the implementation did not answer in time {self._timeouts} times "
            f"in a row (timeout={self.options.timeout}s)"
        )

    def _judge(
        self, case: Case
    ) -> tuple[CaseOutcome, CheckContext | None, ImplementationError | None]:
        """Run ``case``: its outcome, the context its evidence is in, and the error of the
        implementation that ended it, if one did."""
        halted = self._timeouts >= self.HANG_AFTER
        if halted and self._handshake is None:
            # Not even the hello was answered in this process: nothing can be tried.
            return self._implementation_error(case.id, self._halt_message()), None, None
        answered = _Answered(self.driver)
        try:
            handshake = self.handshake()
        except ImplementationError as err:
            return self._errored(case.id, err, answered), None, _kept(err)
        reason = self.applicable(case, handshake)
        if reason is not None:
            skipped = CaseOutcome(
                case_id=case.id, outcome="skipped", message=reason, skip_kind="not-applicable"
            )
            return skipped, None, None
        runner: ScenarioRunner = answered
        if halted:
            # Taken to hang: the case still runs up to its first request, so that what
            # does not apply or cannot be tried is still reported as such.
            runner = _Halted(handshake, self._halt_message())
        judged = judge(case, runner, strict_pointers=self.options.strict_pointers)
        if judged.outcome.outcome == "error" and judged.error is not None:
            errored = self._errored(case.id, judged.error, answered)
            return errored, judged.context, _kept(judged.error)
        if answered.answered:
            self._timeouts = 0  # the implementation answered a scenario: it does not hang
        return as_reported(judged.outcome), judged.context, None

    def _errored(self, case_id: str, err: BaseException, answered: _Answered) -> CaseOutcome:
        """A case that raised: the implementation's fault (a timeout counts towards taking
        it to hang) or the suite's own."""
        if isinstance(err, TimedOut):
            # The hunt's cases share one search and re-raise its one failure: count it once.
            if err is not self._last_timeout:
                self._timeouts += 1
                self._last_timeout = err
            return self._implementation_error(case_id, one_line(str(err)))
        if answered.answered:
            self._timeouts = 0
        if isinstance(err, _NotRun):
            return self._implementation_error(case_id, err.message)
        if isinstance(err, ImplementationError):
            return self._implementation_error(case_id, one_line(str(err)))
        return CaseOutcome(case_id=case_id, outcome="error", message=raised(err), fault="suite")

    @staticmethod
    def _implementation_error(case_id: str, message: str) -> CaseOutcome:
        return CaseOutcome(
            case_id=case_id, outcome="error", message=message, fault="implementation"
        )

    def _reached(self, case: Case, context: CheckContext) -> dict[str, tuple[str, ...]]:
        """The situations of each of the case's clauses that its traces (or the examples a
        passing hunt case judged) reached."""
        evidence = context.evidence
        return reached_by_case(
            self._situations, case.clauses, evidence.runs, context.handshake, evidence.reached
        )

    def _write_evidence(
        self, case: Case, context: CheckContext, error: ImplementationError | None
    ) -> Evidence:
        root = self.options.report_dir
        if root is None or not context.evidence.runs:
            return Evidence()
        found = context.evidence.counterexample
        kind = "counterexamples" if found is not None else "evidence"
        folder = Path(kind) / re.sub(r"[^A-Za-z0-9._-]+", "_", case.id)
        written: dict[str, str] = {}
        if found is not None:
            written["counterexample"] = save_json(root, folder / "counterexample.json", found)
        # The evidence is the scenario the first failure was observed in (else the last,
        # which is the one an error ended).
        observed = next((f.scenario for f in context.failures if f.scenario), None)
        chosen = [run for run in context.evidence.runs if run[0].id == observed and not error]
        scenario, trace = (chosen or context.evidence.runs)[-1]
        written["scenario"] = save_json(root, folder / "scenario.json", to_json(scenario))
        if trace is not None:
            written["trace"] = save_json(root, folder / "trace.json", to_json(trace))
        if error is not None and not found:
            record = error_record(error, scenario, case=case.id)
            written["error"] = save_json(root, folder / ERROR_FILE, record)
        return Evidence(**written)


def _hunt_record(context: CheckContext | None) -> HuntRecord | None:
    """What the hunt did, as a hunt case's context noted it."""
    noted = context.evidence.hunt if context is not None else None
    if not noted:
        return None
    replayed = noted.get("replayed")
    return HuntRecord(
        examples=int(noted["examples"]),
        shrinks=int(noted.get("shrinks", 0)),
        elapsed_s=float(noted["elapsed_s"]),
        budget_s=float(noted["budget_s"]),
        counterexamples=int(noted["counterexamples"]),
        judged=int(noted["judged"]),
        exercised=int(noted["exercised"]),
        replayed=None if replayed is None else int(replayed),
        store_lost=int(noted.get("store_lost", 0)),
        interrupted=bool(noted.get("interrupted")),
    )


class _NotRun(ImplementationError):
    """A request the suite did not send: the implementation is taken to hang."""


def _kept(err: BaseException) -> ImplementationError | None:
    """The implementation's error whose evidence is kept for replay (a request the suite
    never sent, and a fault of the suite itself, leave nothing to replay)."""
    if isinstance(err, ImplementationError) and not isinstance(err, _NotRun):
        return err
    return None


class _Halted:
    """A runner that answers the handshake from memory and sends nothing: a scenario that
    needs a capability the handshake lacks is still unsupported (untested), as with a
    real driver; any other is not run."""

    def __init__(self, handshake: Handshake, message: str) -> None:
        self._handshake = handshake
        self._message = message

    def handshake(self) -> Handshake:
        return self._handshake

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        missing = missing_capability(self._handshake.capabilities, needed_capabilities(scenario))
        if missing is not None:
            return Unsupported(missing, "the handshake does not offer it")
        raise _NotRun(self._message)


class _Answered:
    """The driver, noting whether the implementation answered a scenario (only that shows
    it is not hanging; a case judged without a request proves nothing either way)."""

    def __init__(self, driver: Driver) -> None:
        self._driver = driver
        self.answered = False

    def handshake(self) -> Handshake:
        return self._driver.handshake()

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        trace = self._driver.run(scenario)
        # An Unsupported may be the driver's own verdict from the handshake: no answer.
        self.answered = self.answered or isinstance(trace, Trace)
        return trace
