"""Per-process suite state: the options, the corpus, the cases, and the driver."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
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
from conformance._pytest._options import RunOptions
from conformance._pytest._shard import ShardPlan
from conformance._redact import redacted
from conformance.cases import Case, judge
from conformance.rules import Corpus
from conformance.situations import clause_situations
from conformance.stopping import stop_requested
from conformance.toolkit import CheckContext, Failure, ScenarioRunner, reached_situations

__all__ = ["EVIDENCE_NOT_WRITTEN", "CaseOutcome", "SuiteState"]

#: What a case's message says when its evidence could not be written (the verdict stands).
EVIDENCE_NOT_WRITTEN = " (evidence not written: "


@dataclass(frozen=True)
class CaseOutcome:
    """How one case ended, in the shape that travels between pytest processes."""

    id: str
    outcome: str
    message: str = ""
    skip_kind: str | None = None
    fault: str | None = None
    duration_s: float = 0.0
    evidence: dict[str, str] = field(default_factory=dict)
    #: what the hunt did (examples, elapsed_s, budget_s, counterexamples), for hunt cases
    hunt: dict[str, float] | None = None
    #: every failed expectation of a failed case: ``{message, scenario, pointer, reading,
    #: clause, expected, got}`` (``clause``: the one clause it is charged to, or ``None``
    #: for all; ``expected`` and ``got``: the values compared, where the check gave them)
    failures: list[dict[str, str | None]] = field(default_factory=list)
    #: clause id -> the situations of the clause the case's traces reached
    reached: dict[str, list[str]] = field(default_factory=dict)
    #: the clauses of the case it could not judge, each with why: "blocked by RT-TOOL-10
    #: ¶1: ..." (a passing or failing case lands on them as untested)
    blocked: dict[str, str] = field(default_factory=dict)
    #: a failed case judged every expectation (none ended it early): a clause of it that
    #: no failure is charged to held
    complete: bool = False
    #: why the evidence of a failed or erring case could not be written (empty: it was,
    #: or there was none to write); the verdict stands, and every clause it lands on says so
    evidence_error: str = ""

    def unwritten(self) -> str:
        """What a message about this case adds when its evidence could not be written."""
        return f"{EVIDENCE_NOT_WRITTEN}{self.evidence_error})" if self.evidence_error else ""

    def to_json(self) -> str:
        """One JSON string (pytest's user properties carry it)."""
        return json.dumps(self.__dict__, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> CaseOutcome:
        """The inverse of :meth:`to_json`."""
        return cls(**json.loads(text))


class SuiteState:
    """What one pytest process knows about the run."""

    #: after this many cases in a row timed out the implementation is taken to hang, and
    #: the cases left are reported as errors at once instead of costing a timeout each
    HANG_AFTER = 3

    def __init__(self, options: RunOptions, corpus: Corpus, cases: list[Case]) -> None:
        self.options = options
        self.corpus = corpus
        self.cases = cases
        self.by_id = {case.id: case for case in cases}
        self.outcomes: dict[str, CaseOutcome] = {}
        self.started = time.time()
        self._driver: Driver | None = None
        self._timeouts = 0  # cases in a row that timed out (skips neither count nor reset)
        self._last_timeout: TimedOut | None = None
        self._handshake: Handshake | None = None
        #: set when the run is one shard of several
        self.shard: ShardPlan | None = None

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
        """The implementation's handshake."""
        if self._handshake is None:
            self._handshake = self.driver.handshake()
        return self._handshake

    def _halt_message(self) -> str:
        return (
            f"not run: the implementation did not answer in time {self._timeouts} times "
            f"in a row (timeout={self.options.timeout}s)"
        )

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
            outcome = CaseOutcome(case.id, "error", _raised(err), fault="suite")
        duration = round(time.perf_counter() - started, 6)
        evidence: dict[str, str] = {}
        unwritten = ""
        if outcome.outcome in ("failed", "error") and context is not None:
            try:
                evidence = self._write_evidence(case, context, error)
            except KeyboardInterrupt:
                raise
            except BaseException as err:
                unwritten = _raised(err)
        return CaseOutcome(
            outcome.id,
            outcome.outcome,
            _line(f"{outcome.message}{EVIDENCE_NOT_WRITTEN}{unwritten})")
            if unwritten
            else outcome.message,
            outcome.skip_kind,
            outcome.fault,
            duration,
            evidence,
            context.evidence.hunt if context is not None else None,
            outcome.failures,
            _reached(case, context) if context is not None else {},
            dict(context.blocked) if context is not None else {},
            outcome.complete,
            unwritten,
        )

    def _judge(
        self, case: Case
    ) -> tuple[CaseOutcome, CheckContext | None, ImplementationError | None]:
        """Run ``case``: its outcome, the context its evidence is in, and the error of the
        implementation that ended it, if one did."""
        halted = self._timeouts >= self.HANG_AFTER
        if halted and self._handshake is None:
            # Not even the hello was answered in this process: nothing can be tried.
            halt = CaseOutcome(case.id, "error", self._halt_message(), fault="implementation")
            return halt, None, None
        answered = _Answered(self.driver)
        try:
            handshake = self.handshake()
        except ImplementationError as err:
            return self._errored(case.id, err, answered), None, _kept(err)
        reason = self.applicable(case, handshake)
        if reason is not None:
            return CaseOutcome(case.id, "skipped", reason, "not-applicable"), None, None
        runner: ScenarioRunner = answered
        if halted:
            # Taken to hang: the case still runs up to its first request, so that what
            # does not apply or cannot be tried is still reported as such.
            runner = _Halted(handshake, self._halt_message())
        judged = judge(case, runner, strict_pointers=self.options.strict_pointers)
        if judged.verdict == "error" and judged.error is not None:
            errored = self._errored(case.id, judged.error, answered)
            return errored, judged.context, _kept(judged.error)
        if answered.answered:
            self._timeouts = 0  # the implementation answered a scenario: it does not hang
        if judged.verdict == "failed":
            failed = _failed(case.id, judged.failures, complete=judged.complete)
            return failed, judged.context, None
        if judged.verdict in ("untested", "not-applicable"):
            message = f"{judged.verdict}: {judged.reason}"
            skipped = CaseOutcome(case.id, "skipped", message, judged.verdict)
            return skipped, judged.context, None
        return CaseOutcome(case.id, "passed"), judged.context, None

    def _errored(self, case_id: str, err: BaseException, answered: _Answered) -> CaseOutcome:
        """A case that raised: the implementation's fault (a timeout counts towards taking
        it to hang) or the suite's own."""
        if isinstance(err, TimedOut):
            # The hunt's cases share one search and re-raise its one failure: count it once.
            if err is not self._last_timeout:
                self._timeouts += 1
                self._last_timeout = err
            return CaseOutcome(case_id, "error", _line(str(err)), fault="implementation")
        if answered.answered:
            self._timeouts = 0
        if isinstance(err, _NotRun):
            return CaseOutcome(case_id, "error", err.message, fault="implementation")
        if isinstance(err, ImplementationError):
            return CaseOutcome(case_id, "error", _line(str(err)), fault="implementation")
        return CaseOutcome(case_id, "error", _raised(err), fault="suite")

    def _write_evidence(
        self, case: Case, context: CheckContext, error: ImplementationError | None
    ) -> dict[str, str]:
        root = self.options.report_dir
        if root is None or not context.evidence.runs:
            return {}
        found = context.evidence.counterexample
        kind = "counterexamples" if found is not None else "evidence"
        folder = Path(kind) / re.sub(r"[^A-Za-z0-9._-]+", "_", case.id)
        written: dict[str, str] = {}
        if found is not None:
            written["counterexample"] = _dump(root, folder / "counterexample.json", found)
        # The evidence is the scenario the first failure was observed in (else the last,
        # which is the one an error ended).
        observed = next((f.scenario for f in context.failures if f.scenario), None)
        chosen = [run for run in context.evidence.runs if run[0].id == observed and not error]
        scenario, trace = (chosen or context.evidence.runs)[-1]
        written["scenario"] = _dump(root, folder / "scenario.json", to_json(scenario))
        if trace is not None:
            written["trace"] = _dump(root, folder / "trace.json", to_json(trace))
        if error is not None and not found:
            record = error_record(error, scenario, case=case.id)
            written["error"] = save_json(root, folder / ERROR_FILE, record)
        return written


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


def _reached(case: Case, context: CheckContext) -> dict[str, list[str]]:
    """The situations of each of the case's clauses that its traces reached."""
    declared = clause_situations()
    return {
        clause: list(reached_situations(declared[clause], context.evidence.runs, context.handshake))
        for clause in case.clauses
        if clause in declared
    }


def _failed(
    case_id: str, failures: tuple[Failure, ...] | list[Failure], *, complete: bool = False
) -> CaseOutcome:
    """A failed case: its message is the first failure, and every failure is listed;
    ``complete`` when the case judged every expectation (none ended it early)."""
    listed = [
        {
            "message": _line(failure.message),
            "scenario": failure.scenario,
            "pointer": None if failure.pointer is None else _line(failure.pointer),
            "reading": failure.reading,
            "clause": failure.clause,
            "expected": None if failure.expected is None else _line(failure.expected),
            "got": None if failure.got is None else _line(failure.got),
        }
        for failure in failures
    ]
    return CaseOutcome(
        case_id, "failed", _line(failures[0].line()), failures=listed, complete=complete
    )


def _dump(root: Path, relative: Path, value: object) -> str:
    return save_json(root, relative, value)


def _raised(err: BaseException) -> str:
    """One line for an exception nobody expected: its type and its message."""
    try:
        text = f"{type(err).__name__}: {err}"
    except Exception:  # a __str__ that raises: the type is all there is to say
        text = type(err).__name__
    return _line(text)


def _line(text: str) -> str:
    # An adapter's error repeats the implementation spec, which may carry credentials;
    # text an implementation sent may hold lone surrogates, which no report can carry.
    one = redacted(" ".join(text.split()))[:1000]
    return one.encode("utf-8", errors="backslashreplace").decode("utf-8")
