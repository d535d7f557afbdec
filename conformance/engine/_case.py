"""Cases, and the one way a case is run and its verdict reached (:func:`judge`).

A case is a hand-written check, an example of a rule file run as a test vector, or an
invariant hunted by property-based search.  Each names the clauses it bears on; its
outcome lands on those clauses in the standing report.  The pytest plugin, ``rttool
run``, the self-test, the legal variants, the scenario catalog and the suite's own tests
all judge through :func:`judge`, so that an expectation that failed is never left
unjudged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Literal

from adapters.errors import SuiteError
from conformance._redact import redacted
from conformance.engine._outcome import CaseOutcome
from conformance.report import HUNT_PREFIX
from conformance.rules import Corpus
from conformance.toolkit.machinery import (
    Channel,
    Check,
    CheckContext,
    CheckFailed,
    Failure,
    NotApplicable,
    ScenarioRunner,
    Untested,
    broken_channels,
)

__all__ = [
    "HUNT_CASE_PREFIX",
    "Case",
    "CaseKind",
    "Judgement",
    "Selection",
    "check_selection",
    "hunt_case_id",
    "judge",
    "one_line",
    "rules_of",
]

CaseKind = Literal["check", "vector", "hunt"]
#: Every hunt case's id begins so: ``HUNT/no-loss`` is the invariant ``no-loss``'s case.
HUNT_CASE_PREFIX = "HUNT/"


def hunt_case_id(invariant: str) -> str:
    """The id of the case that holds the hunt's traces to ``invariant``."""
    return f"{HUNT_CASE_PREFIX}{invariant}"


def hunt_case_name(invariant: str) -> str:
    """The name reports give that case (``hunt-no-loss``)."""
    return f"{HUNT_PREFIX}{invariant}"


@dataclass(frozen=True)
class Case:
    """One runnable case: ``id`` is unique in the suite (``RT-TOOL-7#c4/held-put-back``),
    ``name`` is unique among the cases of each clause it covers."""

    id: str
    name: str
    kind: CaseKind
    clauses: tuple[str, ...]
    summary: str
    run: Callable[[CheckContext], None]
    #: the channels its observations go through: a failure seen where one of them does
    #: not hold is that channel's clause's, not this case's (:func:`judge`)
    through: tuple[Channel, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids of its clauses."""
        return rules_of(self.clauses)

    @classmethod
    def of(cls, check: Check) -> Case:
        """The case a hand-written check is."""
        return cls(
            check.id,
            check.name,
            "check",
            check.clauses,
            check.summary,
            check.function,
            check.through,
        )


@dataclass(frozen=True)
class Judgement:
    """A case judged: its :class:`~conformance.engine.CaseOutcome`, the context it ran in
    (its evidence; ``None`` when none could be made) and what it raised, if it raised."""

    outcome: CaseOutcome
    context: CheckContext | None
    error: Exception | None = None

    @property
    def verdict(self) -> str:
        """``passed``, ``failed``, ``untested``, ``not-applicable`` or ``error``."""
        return self.outcome.skip_kind or self.outcome.outcome

    @property
    def failures(self) -> tuple[Failure, ...]:
        """Every expectation that failed, most specific first."""
        return self.outcome.failures

    @property
    def message(self) -> str:
        """The verdict in words: the first failure, why the case was not judged, or the
        error's type and message; empty for a pass."""
        return self.outcome.message

    @property
    def reason(self) -> str:
        """Why a case that was not judged was not."""
        if self.outcome.skip_kind is None:
            return ""
        return self.outcome.message.removeprefix(f"{self.outcome.skip_kind}: ")


def judge(
    case: Case, runner: ScenarioRunner | CheckContext, *, strict_pointers: bool = False
) -> Judgement:
    """Run ``case`` against ``runner`` and conclude it.

    ``runner`` is the implementation, or a context already made over it (one that notes
    more than a plain context does); ``strict_pointers`` holds every failure's pointer to
    the trace it names.  A check that returns is concluded: any expectation that failed
    fails it.  A check that finds it cannot go on after an expectation failed is failed,
    not untested; one that finds its clause does not bind is not applicable, whatever it
    saw before.  Never raises, but for what is not an :class:`Exception` (a Ctrl-C).
    """
    context: CheckContext | None = None
    try:
        if isinstance(runner, CheckContext):
            context = runner
        else:
            context = CheckContext(runner, strict_pointers=strict_pointers)
        case.run(context)
        context.conclude()
    except CheckFailed as failed:
        complete = context is not None and context.concluded
        return _judged(_failed(case.id, failed.failures, complete=complete), context, case)
    except Untested as untested:
        # What failed before the check found it could not go on still failed.
        if context is not None and context.failures:
            return _judged(_failed(case.id, context.failures), context, case)
        return _judged(_skipped(case.id, "untested", str(untested)), context)
    except NotApplicable as absent:  # the clause does not bind: nothing it saw counts
        return _judged(_skipped(case.id, "not-applicable", str(absent)), context)
    except Exception as err:
        outcome = CaseOutcome(case_id=case.id, outcome="error", message=raised(err), fault="suite")
        return Judgement(outcome, context, err)
    return _judged(CaseOutcome(case_id=case.id, outcome="passed"), context)


def _judged(
    outcome: CaseOutcome, context: CheckContext | None, case: Case | None = None
) -> Judgement:
    """The judgement, the clauses the case declared blocked carried on its outcome, and a
    failed case's failures held to the channels it observes through."""
    if context is not None and context.blocked:
        outcome = replace(outcome, blocked=dict(context.blocked))
    # A case may declare no channel and still have an expectation that said its own.
    if case is not None and context is not None and (case.through or context.through):
        outcome = held_to_channels(case, context, outcome)
    return Judgement(outcome, context)


def held_to_channels(case: Case, context: CheckContext, outcome: CaseOutcome) -> CaseOutcome:
    """``outcome`` of a failed case with each failure held to the channels the case
    observes through, in the trace it was seen in (every trace of the case, for a
    failure that names none).  A failure is held to the channels that judge the clause
    it is charged to (:meth:`~conformance.toolkit.machinery.Channel.judging`), never to
    that clause's own.  A failure seen where a channel does not hold is that channel's
    clause's: it leaves the case, and the clause it was charged to is blocked there.  A
    case left with no failure is untested, saying which channel was broken."""
    traces = [(s, t) for s, t in context.evidence.runs if t is not None]
    kept: list[Failure] = []
    blocked = dict(outcome.blocked)
    reasons: list[str] = []
    for failure in outcome.failures:
        seen = [(s, t) for s, t in traces if s.id == failure.scenario] or traces
        # A failure is never held to the channel of the clause it is charged to: that
        # clause's own words are what it breaks.  Its expectation may have said it went
        # through other channels than the case's (none, read off the implementation's
        # own report).
        own = (failure.clause,) if failure.clause else case.clauses
        declared = context.channels_of(failure)
        channels = case.through if declared is None else declared
        through = [channel for channel in channels if channel.holds_failures_of(own)]
        breaks = [
            one
            for scenario, trace in seen
            for one in broken_channels(through, scenario, trace, context.handshake, judging=own)
        ]
        if not breaks:
            kept.append(failure)
            continue
        reasons.append(breaks[0].reason())
        for clause in own:
            blocked.setdefault(clause, breaks[0].reason())
    if len(kept) == len(outcome.failures):
        return outcome
    if not kept:
        return CaseOutcome(
            case_id=outcome.case_id,
            outcome="skipped",
            skip_kind="untested",
            message=f"untested: {reasons[0]}",
            blocked=blocked,
        )
    # What stands is charged as before; a clause whose every failure was blocked is
    # untested there (the engine's charging reads ``blocked``).
    standing = {failure.clause for failure in kept}
    if None in standing:
        blocked = dict(outcome.blocked)
    else:
        blocked = {c: why for c, why in blocked.items() if c not in standing}
    return replace(outcome, message=kept[0].line(), failures=tuple(kept), blocked=blocked)


def _skipped(case_id: str, kind: Literal["untested", "not-applicable"], reason: str) -> CaseOutcome:
    return CaseOutcome(
        case_id=case_id, outcome="skipped", skip_kind=kind, message=f"{kind}: {reason}"
    )


def _failed(case_id: str, failures: Iterable[Failure], *, complete: bool = False) -> CaseOutcome:
    """A failed case: its message is the first failure, and every failure is listed, as
    the check said it (:func:`as_reported` puts each on one line for a report);
    ``complete`` when the case judged every expectation."""
    listed = tuple(failures)
    return CaseOutcome(
        case_id=case_id,
        outcome="failed",
        message=listed[0].line(),
        failures=listed,
        complete=complete,
    )


def as_reported(outcome: CaseOutcome) -> CaseOutcome:
    """``outcome`` as a report carries it: a failed case's message and every failure's
    message and pointer on one line (:func:`one_line`)."""
    if outcome.outcome != "failed":
        return outcome
    listed = tuple(
        replace(
            failure,
            message=one_line(failure.message),
            pointer=None if failure.pointer is None else one_line(failure.pointer),
            expected=None if failure.expected is None else one_line(failure.expected),
            got=None if failure.got is None else one_line(failure.got),
        )
        for failure in outcome.failures
    )
    return replace(outcome, message=one_line(outcome.message), failures=listed)


def raised(err: BaseException) -> str:
    """An exception on one line: its type and its message."""
    try:
        text = f"{type(err).__name__}: {err}"
    except Exception:  # a __str__ that raises: the type is all there is to say
        text = type(err).__name__
    return one_line(text)


def one_line(text: str) -> str:
    """``text`` as a report carries it: one line, credentials removed, at most 1000
    characters, and no lone surrogate (which no report can carry)."""
    # An adapter's error repeats the implementation spec, which may carry credentials;
    # text an implementation sent may hold lone surrogates.
    one = redacted(" ".join(text.split()))[:1000]
    return one.encode("utf-8", errors="backslashreplace").decode("utf-8")


def rules_of(clauses: Iterable[str]) -> tuple[str, ...]:
    """Rule ids of clause ids, in order, without repeats."""
    return tuple(dict.fromkeys(clause.split("#")[0] for clause in clauses))


@dataclass(frozen=True)
class Selection:
    """Which cases to run: ``only`` rule or clause ids (empty: all), rule ``levels``
    (empty: all), and which kinds."""

    only: tuple[str, ...] = ()
    levels: tuple[str, ...] = ()
    kinds: tuple[CaseKind, ...] = ("check", "vector", "hunt")

    def admits(self, case: Case, corpus: Corpus) -> bool:
        """Whether ``case`` is selected."""
        if case.kind not in self.kinds:
            return False
        if self.only and not any(
            wanted in case.clauses or wanted in case.rules for wanted in self.only
        ):
            return False
        if not self.levels:
            return True
        levels = {rule.level for rule in map(corpus.get, case.rules) if rule is not None}
        return bool(levels & set(self.levels))


def check_selection(
    corpus: Corpus,
    only: Iterable[str],
    levels: Iterable[str],
    *,
    only_flag: str = "--only",
    level_flag: str = "--level",
) -> None:
    """Refuse a selection that names nothing: an ``only`` that is neither a rule nor a
    clause of the corpus, or a level no rule has.  ``*_flag`` name the options as the
    user typed them, so the message points at the right one.

    Raises :class:`adapters.errors.SuiteError`.
    """
    known = {rule.id for rule in corpus.rules} | {clause.id for clause in corpus.clauses}
    for wanted in only:
        if wanted in known:
            continue
        close = sorted(k for k in known if k.lower() == wanted.strip().lower())
        hint = f"; did you mean {close[0]}?" if close else ""
        raise SuiteError(
            f"{only_flag} names no rule or clause of the corpus{hint}",
            value=wanted,
            example="RT-TOOL-7 or RT-TOOL-7#c4",
        )
    present = sorted({rule.level for rule in corpus.rules})
    for level in levels:
        if level not in present:
            raise SuiteError(
                f"{level_flag} {level} selects nothing: no rule of the corpus is at that level",
                levels_in_corpus=",".join(present),
            )
