"""What a check sees: the implementation's handshake, and scenario runs through the protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NoReturn, Protocol

from adapters.driver import Unsupported
from adapters.errors import ImplementationError
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit._channels import Channel
from conformance.toolkit._outcomes import Blocked, CheckFailed, Failure, NotApplicable, Untested

__all__ = ["NOT_COMPARED", "CheckContext", "Evidence", "ScenarioRunner"]

#: How many characters of an expected or observed value a failure keeps.
COMPARED_CHARS = 500


class _Unsaid:
    """The default of ``expected`` and ``got``: no value given (``None`` is JSON null)."""


_UNSAID = _Unsaid()
#: What a check passes as ``expected`` when it has no one value to show (it accepts
#: several): the failure then carries neither value.
NOT_COMPARED: object = _UNSAID


def _compared(value: object) -> str | None:
    """A compared value as one line of JSON, or ``None`` when none was given."""
    if isinstance(value, _Unsaid):
        return None
    from conformance.toolkit._shown import show

    return show(value, COMPARED_CHARS)


class ScenarioRunner(Protocol):
    """The part of :class:`adapters.Driver` a check uses."""

    def handshake(self) -> Handshake:
        """The implementation's handshake."""
        ...

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        """Run one scenario."""
        ...


@dataclass
class Evidence:
    """The scenarios a check ran and the traces they produced, kept for the report;
    ``counterexample`` is a shrunk scenario the hunt found (saved on its own), ``hunt``
    what the hunt did for an invariant, and ``reached`` the situations of each of its
    clauses that the examples it judged reached (words, by clause id: a hunt case that
    found nothing keeps no trace of its own)."""

    runs: list[tuple[Scenario, Trace | None]] = field(default_factory=list)
    counterexample: dict[str, object] | None = None
    hunt: dict[str, float] | None = None
    reached: dict[str, tuple[str, ...]] = field(default_factory=dict)


class CheckContext:
    """Handed to every check.  A check builds scenarios, runs them with :meth:`run`, and
    judges the traces.

    :meth:`expect` records a failed expectation and lets the check go on, so that a
    report shows every expectation that failed, not only the first; :meth:`need` and
    :meth:`fail` end the check at once (for what later expectations cannot be judged
    without).  A check writes its expectations most specific first: the expectation that
    states the clause comes before those that only describe its symptoms.
    """

    def __init__(self, runner: ScenarioRunner, *, strict_pointers: bool = False) -> None:
        self._runner = runner
        self.handshake = runner.handshake()
        self.evidence = Evidence()
        self.failures: list[Failure] = []
        #: failures whose observation goes through other channels than the case's (none,
        #: for one read off the implementation's own report of what its clause speaks
        #: of): :meth:`expect`'s ``through``
        self.through: list[tuple[Failure, tuple[Channel, ...]]] = []
        #: clauses of this case it could not judge, with why ("blocked by ...")
        self.blocked: dict[str, str] = {}
        #: the check returned and every expectation was judged (none ended it early)
        self.concluded = False
        self._strict = strict_pointers

    @property
    def runner(self) -> ScenarioRunner:
        """The implementation, for code that runs many scenarios (the hunt)."""
        return self._runner

    @property
    def capabilities(self) -> object:
        """The handshake's capabilities."""
        return self.handshake.capabilities

    @property
    def scenario(self) -> str | None:
        """The id of the scenario run last (the one a failure is observed in)."""
        return self.evidence.runs[-1][0].id if self.evidence.runs else None

    def run(self, scenario: Scenario) -> Trace:
        """Run ``scenario``; a missing capability ends the check as untested.  An
        implementation that fails part way leaves the steps it answered as the run's
        trace (the evidence of its error)."""
        self.evidence.runs.append((scenario, None))
        try:
            outcome = self._runner.run(scenario)
        except ImplementationError as err:
            self.evidence.runs[-1] = (scenario, err.partial_trace)
            raise
        if isinstance(outcome, Unsupported):
            raise Untested(f"needs capability {outcome.capability}")
        self.evidence.runs[-1] = (scenario, outcome)
        return outcome

    def require(self, *capabilities: str) -> None:
        """End the check as untested unless the handshake offers every capability named
        (observations such as ``held_observation`` or ``ledger``)."""
        for name in capabilities:
            if getattr(self.handshake.capabilities, name, False) is not True:
                raise Untested(f"needs capability {name}")

    def require_profile(self, profile: str) -> None:
        """End the check as not applicable unless the implementation claims ``profile``."""
        if profile not in self.handshake.profiles:
            raise NotApplicable(f"profile {profile} not claimed")

    def prerequisite(
        self, clause: str, holds: bool, reason: str, *, judging: str | None = None
    ) -> bool:
        """State that this case needs what ``clause`` (another clause's id) provides: a
        port, a decoding, a reported list.  Unless it ``holds``, the case is untested,
        "blocked by RT-TOOL-8 ¶4: ``reason``": a missing or broken prerequisite is that
        clause's failure, charged there by that clause's own cases, never this one's.

        Without ``judging`` the whole case ends here.  With it (one of the clauses of a
        case bound to several), only that clause is blocked: the case goes on judging
        the others, and the return value says whether to judge ``judging``.  Call it
        before any expectation whose judgement depends on it.
        """
        if holds:
            return True
        if judging is None:
            raise Blocked(clause, reason)
        self.blocked.setdefault(judging, str(Blocked(clause, reason)))
        return False

    def _failure(
        self,
        message: str,
        at: str | None,
        reading: str | None,
        clause: str | None = None,
        compared: tuple[object, object] = (_UNSAID, _UNSAID),
    ) -> Failure:
        if at is not None and self._strict:
            self._check_pointer(at, message)
        scenario = self.scenario if at is not None else None
        expected, got = (_compared(value) for value in compared)
        if expected is None or got is None:  # one value alone is no comparison
            expected = got = None
        return Failure(message, scenario, at, reading, clause, expected, got)

    def _check_pointer(self, at: str, message: str) -> None:
        """Refuse a failure whose pointer names nothing in the last trace (its parent must
        exist: a pointer may name a key that is absent, which is what it reports)."""
        from adapters.codec import to_json
        from adapters.errors import SuiteError
        from conformance.toolkit._traces import resolves

        trace = self.evidence.runs[-1][1] if self.evidence.runs else None
        if trace is None or not resolves(to_json(trace), at):
            raise SuiteError(
                "a failure points at nothing in its trace", pointer=at, failure=message[:200]
            )

    def expect(
        self,
        condition: bool,
        message: str,
        *,
        at: str | None = None,
        reading: str | None = None,
        clause: str | None = None,
        expected: object = _UNSAID,
        got: object = _UNSAID,
        through: tuple[Channel, ...] | None = None,
    ) -> bool:
        """Record ``message`` as a failed expectation unless ``condition`` holds, and go on.

        ``at`` is the JSON pointer, into the last scenario's trace, of what was observed;
        ``reading`` the entry of ``docs/interpretations.md`` the expectation relies on;
        ``clause``, in a case bound to several clauses, the one whose words it tests;
        ``expected`` and ``got``, where the check compares a value with the one the
        clause requires, the two values (a report shows them side by side); ``through``,
        where this expectation's observation goes through other channels than the case
        declares: ``()`` where what failed is read straight off the implementation's own
        report of what the clause speaks of (a port it does not report at all), so that
        no channel can have made it and it stays the clause's whatever else the trace
        shows broken.  Returns ``condition``, so that a check can skip what depends on
        it.
        """
        if not condition:
            self._record(self._failure(message, at, reading, clause, (expected, got)), through)
        return condition

    def _record(self, failure: Failure, through: tuple[Channel, ...] | None) -> None:
        self.failures.append(failure)
        if through is not None:
            self.through.append((failure, through))

    def channels_of(self, failure: Failure) -> tuple[Channel, ...] | None:
        """The channels ``failure``'s observation went through where its expectation said
        (``None``: the case's)."""
        return next((channels for one, channels in self.through if one == failure), None)

    def need(
        self,
        condition: bool,
        message: str,
        *,
        at: str | None = None,
        reading: str | None = None,
        clause: str | None = None,
        expected: object = _UNSAID,
        got: object = _UNSAID,
        through: tuple[Channel, ...] | None = None,
    ) -> None:
        """Like :meth:`expect`, but end the check when ``condition`` does not hold: what
        follows cannot be judged without it."""
        if not condition:
            self.fail(
                message,
                at=at,
                reading=reading,
                clause=clause,
                expected=expected,
                got=got,
                through=through,
            )

    def fail(
        self,
        message: str,
        *,
        at: str | None = None,
        reading: str | None = None,
        clause: str | None = None,
        expected: object = _UNSAID,
        got: object = _UNSAID,
        through: tuple[Channel, ...] | None = None,
    ) -> NoReturn:
        """Fail the check now, with every expectation that failed so far (``expected``,
        ``got`` and ``through`` as for :meth:`expect`)."""
        self._record(self._failure(message, at, reading, clause, (expected, got)), through)
        raise CheckFailed(self.failures)

    def conclude(self) -> None:
        """Raise :class:`CheckFailed` when any expectation failed (the suite calls this
        once the check returns)."""
        self.concluded = True
        if self.failures:
            raise CheckFailed(self.failures)
