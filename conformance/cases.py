"""Cases: everything the suite runs against an implementation, addressable by id.

A case is a hand-written check, an example of a rule file run as a test vector, or an
invariant hunted by property-based search.  Each names the clauses it bears on; its
outcome lands on those clauses in the standing report.

:func:`judge` is the one way a case is run and its verdict reached: the pytest plugin,
the self-test, the legal variants, the scenario catalog and the suite's own tests all
go through it, so that an expectation that failed is never left unjudged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from adapters.errors import SuiteError
from conformance.checks import all_checks
from conformance.rules import Corpus
from conformance.toolkit import (
    Check,
    CheckContext,
    CheckFailed,
    Failure,
    NotApplicable,
    ScenarioRunner,
    Untested,
    validate_bindings,
)

__all__ = [
    "Case",
    "CaseKind",
    "Judgement",
    "Selection",
    "Verdict",
    "check_selection",
    "collect_cases",
    "first_ordered",
    "judge",
    "rules_of",
]

CaseKind = Literal["check", "vector", "hunt"]
#: How a case ended: ``untested`` when the implementation lacks what it needs,
#: ``not-applicable`` when the clause does not bind it, ``error`` when the case raised.
Verdict = Literal["passed", "failed", "untested", "not-applicable", "error"]


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

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids of its clauses."""
        return rules_of(self.clauses)

    @classmethod
    def of(cls, check: Check) -> Case:
        """The case a hand-written check is."""
        return cls(check.id, check.name, "check", check.clauses, check.summary, check.function)


@dataclass(frozen=True)
class Judgement:
    """How one case ended: its ``verdict``, every expectation that failed (most specific
    first), why it was not judged (``reason``), what it raised (``error``), and the
    context it ran in (its evidence; ``None`` when none could be made).  ``complete``:
    a failed case judged every expectation (none ended it early), so a clause of it that
    no failure is charged to held."""

    case_id: str
    verdict: Verdict
    context: CheckContext | None
    failures: tuple[Failure, ...] = ()
    reason: str = ""
    error: Exception | None = None
    complete: bool = False

    @property
    def message(self) -> str:
        """The verdict in words: the first failure, why the case was not judged, or the
        error's type and message; empty for a pass."""
        if self.failures:
            return self.failures[0].line()
        if self.error is not None:
            return _raised(self.error)
        return f"{self.verdict}: {self.reason}" if self.reason else ""


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
        return Judgement(case.id, "failed", context, failed.failures, complete=complete)
    except Untested as untested:
        # What failed before the check found it could not go on still failed.
        if context is not None and context.failures:
            return Judgement(case.id, "failed", context, tuple(context.failures))
        return Judgement(case.id, "untested", context, reason=str(untested))
    except NotApplicable as absent:  # the clause does not bind: nothing it saw counts
        return Judgement(case.id, "not-applicable", context, reason=str(absent))
    except Exception as err:
        return Judgement(case.id, "error", context, error=err)
    return Judgement(case.id, "passed", context)


def _raised(err: Exception) -> str:
    """An exception on one line: its type and its message."""
    try:
        text = f"{type(err).__name__}: {err}"
    except Exception:  # a __str__ that raises: the type is all there is to say
        text = type(err).__name__
    return " ".join(text.split())


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


def collect_cases(
    corpus: Corpus, selection: Selection = Selection(), extra: Sequence[Case] = ()
) -> list[Case]:
    """Every selected case, checks first, then vectors and hunts (``extra``).

    Raises :class:`adapters.errors.SuiteError` when a check cites a clause that the
    corpus does not have.
    """
    checks = all_checks()
    validate_bindings(checks, (clause.id for clause in corpus.clauses))
    cases = [Case.of(check) for check in checks]
    cases += list(extra)
    return [case for case in cases if selection.admits(case, corpus)]


def first_ordered(cases: Sequence[Case], first: Sequence[str]) -> list[Case]:
    """``cases`` with those named by ``first`` (case ids, clause ids or rule ids) moved
    to the front, in the order ``first`` names them; the rest keep their order after
    them, and the hunt's cases stay last (its one search is the longest case)."""

    def rank(case: Case) -> int:
        if case.kind == "hunt":
            return len(first) + 1
        return next(
            (
                index
                for index, wanted in enumerate(first)
                if wanted == case.id or wanted in case.clauses or wanted in case.rules
            ),
            len(first),
        )

    return sorted(cases, key=rank)  # stable: the rest keep their order


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
