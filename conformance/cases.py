"""Cases: everything the suite runs against an implementation, addressable by id.

A case is a hand-written check, an example of a rule file run as a test vector, or an
invariant hunted by property-based search.  Each names the clauses it bears on; its
outcome lands on those clauses in the standing report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from adapters.errors import SuiteError
from conformance.checks import all_checks
from conformance.rules import Corpus
from conformance.toolkit import CheckContext, validate_bindings

__all__ = ["Case", "CaseKind", "Selection", "check_selection", "collect_cases", "rules_of"]

CaseKind = Literal["check", "vector", "hunt"]


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
    cases = [Case(c.id, c.name, "check", c.clauses, c.summary, c.function) for c in checks]
    cases += list(extra)
    return [case for case in cases if selection.admits(case, corpus)]


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
