"""From case outcomes to the standing report.

A case's outcome lands on each clause it is bound to as :func:`charged` says (a failure
belongs to the clause whose words it breaks), and is read there into the report model's
:class:`~conformance.report.CheckResult`; the report model derives each clause's
standing from those, and each rule's from its clauses'.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from adapters.handshake import Handshake
from conformance import __version__
from conformance._redact import redacted
from conformance.engine._build import suite_build
from conformance.engine._case import Case
from conformance.engine._options import RunOptions
from conformance.engine._outcome import CaseOutcome
from conformance.engine._shard import ShardPlan
from conformance.report import (
    CheckResult,
    ClauseResult,
    FailedExpectation,
    HuntFigures,
    HuntSummary,
    ImplementationInfo,
    RuleResult,
    RunInfo,
    ShardHunt,
    ShardInfo,
    ShardOptions,
    StandingReport,
    SuiteInfo,
)
from conformance.rules import Corpus
from conformance.toolkit.machinery import ClauseSituation, citation

__all__ = [
    "Tally",
    "build_report",
    "charged",
    "clauses_standing",
    "rule_result",
    "selected_clause",
    "shown_spec",
]


@dataclass(frozen=True)
class Tally:
    """What a run has so far: its options, the corpus, the cases it runs, their outcomes
    (by case id), when it started and the shard it is."""

    options: RunOptions
    corpus: Corpus
    cases: Sequence[Case]
    outcomes: Mapping[str, CaseOutcome]
    situations: Mapping[str, tuple[ClauseSituation, ...]]
    started: float
    shard: ShardPlan | None = None


def charged(outcome: CaseOutcome, clause_id: str, situations: tuple[str, ...] = ()) -> CaseOutcome:
    """The outcome of a case as it lands on ``clause_id``, one of the clauses it is bound
    to: a failure belongs to the clause whose words it breaks.

    A failed case whose expectations name their clause fails ``clause_id`` only with
    the expectations charged to it (or to no clause in particular); when none is, the
    case passed there when it judged every expectation, and is untested there when a
    failure ended it early.  A clause the case declared blocked (its prerequisite
    missing, or a channel it observes through broken) is untested there.  And a clause
    is never failed by a case whose traces reached none of the ``situations`` its words
    name: what the case saw is not what the clause speaks of.  (A case that read no
    trace, judging what the handshake declares, records no situations at all: its
    failure stands.)
    """
    landed = _charged(outcome, clause_id)
    recorded = landed.reached.get(clause_id)
    if landed.outcome != "failed" or not situations or recorded is None or recorded:
        return landed
    named = "; ".join(situations)
    return replace(
        landed,
        outcome="skipped",
        skip_kind="untested",
        message=(
            f"untested: its traces reached none of the situations {citation(clause_id)} "
            f"names ({named}), so what failed is not this clause's: {landed.message}"
        ),
        failures=(),
    )


def _charged(outcome: CaseOutcome, clause_id: str) -> CaseOutcome:
    mine = tuple(item for item in outcome.failures if item.clause in (None, clause_id))
    if outcome.outcome in ("passed", "failed") and clause_id in outcome.blocked and not mine:
        return replace(
            outcome,
            outcome="skipped",
            skip_kind="untested",
            message=f"untested: {outcome.blocked[clause_id]}",
            failures=(),
        )
    if outcome.outcome != "failed" or len(mine) == len(outcome.failures):
        return outcome
    if mine:
        # A case whose evidence could not be written says so on every clause it lands on.
        return replace(outcome, message=mine[0].line() + outcome.unwritten(), failures=mine)
    if outcome.complete:  # every expectation was judged, and this clause's held
        return replace(outcome, outcome="passed", message="", failures=())
    others = dict.fromkeys(str(item.clause) for item in outcome.failures)
    broken = ", ".join(citation(clause) for clause in others)
    return replace(
        outcome,
        outcome="skipped",
        skip_kind="untested",
        message=f"untested: what failed is {broken}'s, not this clause's: {outcome.message}",
        failures=(),
    )


def selected_clause(options: RunOptions, clause_id: str, rule_id: str) -> bool:
    """Whether the run asked for ``clause_id``: every clause without ``--only``, else the
    clauses named and every clause of the rules named.  A case bound to several clauses
    (a hunt invariant) reports only on those asked for, so ``--only RT-TOOL-7`` never
    brings RT-TOOL-4 into the report."""
    only = options.only
    return not only or clause_id in only or rule_id in only


def rule_result(tally: Tally, rule_id: str) -> RuleResult | None:
    """The standing of one rule from the outcomes so far (``None`` when the run did not
    select it, by ``--only`` or by ``--level``)."""
    rule = tally.corpus.get(rule_id)
    options = tally.options
    if rule is None or (options.levels and rule.level not in options.levels):
        return None
    wanted = [clause.id for clause in rule.clauses if selected_clause(options, clause.id, rule.id)]
    if not wanted:
        return None
    # Every clause is listed (one left out of a partial run stays untested), but only the
    # clauses asked for collect outcomes.
    by_clause: dict[str, list[CheckResult]] = {clause_id: [] for clause_id in wanted}
    for case in tally.cases:
        outcome = tally.outcomes.get(case.id)
        if outcome is None:
            continue
        for clause_id in case.clauses:
            if clause_id in by_clause:
                named = tuple(s.words for s in tally.situations.get(clause_id, ()))
                landed = charged(outcome, clause_id, named)
                by_clause[clause_id].append(check_result(case, landed, clause_id))
    return RuleResult(
        id=rule.id,
        title=rule.title,
        family=rule.family,
        level=rule.level,  # type: ignore[arg-type]
        profiles=tuple(rule.profiles),
        source=str(rule.source or ""),
        clauses=tuple(
            ClauseResult(
                id=clause.id,
                rule=rule.id,
                number=clause.number,
                text=clause.text,
                checks=tuple(by_clause.get(clause.id, ())),
                situations=tuple(s.words for s in tally.situations.get(clause.id, ())),
            )
            for clause in rule.clauses
        ),
    )


def build_report(
    tally: Tally, handshake: Handshake, *, duration_s: float, levels: tuple[str, ...]
) -> StandingReport:
    """The standing of every selected rule that has at least one selected case."""
    with_cases = {rule for case in tally.cases for rule in case.rules}
    if tally.shard is not None:  # the rules left to other shards are theirs to report
        with_cases &= set(tally.shard.rules)
    found = (rule_result(tally, rule.id) for rule in tally.corpus.rules if rule.id in with_cases)
    rules = [result for result in found if result is not None]
    options = tally.options
    hunted = [o.hunt for o in tally.outcomes.values() if o.hunt is not None]
    hunt = None
    if hunted:
        first = hunted[0]
        hunt = HuntSummary(
            budget_s=first.budget_s,
            elapsed_s=first.elapsed_s,
            examples=first.examples,
            counterexamples=first.counterexamples,
            shrinks=first.shrinks,
            replayed=first.replayed,
        )
    return StandingReport(
        hunt=hunt,
        warnings=_store_lost(options, max(h.store_lost for h in hunted)) if hunted else (),
        implementation=ImplementationInfo.from_handshake(handshake, spec=shown_spec(options.impl)),
        suite=SuiteInfo(name="rttool", version=__version__),
        run=RunInfo(
            started_at=datetime.fromtimestamp(tally.started, UTC).isoformat(),
            duration_s=round(duration_s, 3),
            seed=options.seed,
            levels=levels,  # type: ignore[arg-type]
            ci=options.ci,
            only=options.only,
            mutant=options.mutant,
            shard=_shard_info(tally),
        ),
        rules=tuple(rules),
    )


def shown_spec(impl: str, here: Path | None = None) -> str:
    """``--impl`` as a report records it: no credentials, and no path of the machine
    that made it (a report is committed and read elsewhere).  A path inside the working
    directory ``here`` becomes relative to it; any other absolute path keeps its last
    part only (``…/harness.mjs``)."""
    base = (here or Path.cwd()).resolve()

    def shown(match: re.Match[str]) -> str:
        found = Path(match.group(0))
        try:
            return found.resolve().relative_to(base).as_posix() or "."
        except (ValueError, OSError):
            return f"…/{found.name}" if found.name else "…"

    return _ABSOLUTE.sub(shown, redacted(impl))


#: An absolute path in a spec: after the start, a space, ``=`` or ``:`` (``stdio:/x``).
_ABSOLUTE = re.compile(r"(?:(?<=^)|(?<=[\s=:]))/(?!/)[^\s'\"?&]+")


def clauses_standing(
    report: StandingReport, standing: str = "does-not-conform"
) -> tuple[tuple[str, str], ...]:
    """``(clause id, the message of its first case that did not pass)`` of every clause
    of ``report`` whose standing is ``standing``, in corpus order."""
    found = []
    for rule in report.rules:
        for clause in rule.clauses:
            if clause.standing != standing:
                continue
            said = next((c.message for c in clause.checks if c.outcome in ("failed", "error")), "")
            found.append((clause.id, said))
    return tuple(found)


def _store_lost(options: RunOptions, loss: int) -> tuple[str, ...]:
    """The warning of a hunt whose shared example database failed (``loss``, a key of
    ``conformance.hunt.LOSSES``; none when 0)."""
    from conformance.hunt import LOSSES

    if not loss:
        return ()
    where = redacted(options.example_db or "")
    return (
        f"the example database {where} {LOSSES.get(loss, LOSSES[1])} during the hunt; it "
        "went on with local storage in the report directory's .hypothesis, where what it "
        "found since is kept",
    )


def _shard_info(tally: Tally) -> ShardInfo | None:
    """What a shard's standing says of it: which shard, of which build and options, what
    it left, its hunt."""
    plan = tally.shard
    if plan is None:
        return None
    # One entry per clause of each invariant: the situations its share of the examples
    # reached are the clause's, and the merge joins every shard's.
    hunted = tuple(
        ShardHunt(clause=clause, check=check_result(case, outcome, clause))
        for case in tally.cases
        if case.kind == "hunt" and (outcome := tally.outcomes.get(case.id))
        for clause in case.clauses
    )
    options = tally.options
    return ShardInfo(
        index=plan.index,
        count=plan.count,
        corpus=plan.corpus,
        build=suite_build(),
        options=ShardOptions(
            levels=options.levels,  # type: ignore[arg-type]
            hunt=options.hunt,
            examples=options.examples,
            hunt_seconds=options.hunt_seconds,
            timeout=options.timeout,
            exitfirst=options.exitfirst,
        ),
        rules=plan.rules,
        left=plan.left,
        hunt=hunted,
    )


def check_result(case: Case, outcome: CaseOutcome, clause: str) -> CheckResult:
    """How ``case`` stands on ``clause``, as the report model holds it (``outcome``
    already charged to that clause)."""
    return CheckResult(
        name=case.name,
        outcome=outcome.outcome,
        message=outcome.message,
        skip_kind=outcome.skip_kind,
        fault=outcome.fault,
        duration_s=outcome.duration_s,
        kind=case.kind,
        evidence=outcome.evidence,
        failures=tuple(
            FailedExpectation(
                message=failure.message or "no message",
                scenario=failure.scenario,
                pointer=failure.pointer,
                reading=failure.reading,
                expected=failure.expected,
                got=failure.got,
            )
            for failure in outcome.failures
        )
        if outcome.outcome == "failed"
        else (),
        hunt=None
        if case.kind != "hunt" or outcome.hunt is None
        else HuntFigures(judged=outcome.hunt.judged, exercised=outcome.hunt.exercised),
        reached=tuple(outcome.reached.get(clause, ())),
    )
