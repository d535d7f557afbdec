"""From case outcomes to the standing report."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from adapters.handshake import Handshake
from conformance import __version__
from conformance._pytest._options import RunOptions
from conformance._pytest._state import CaseOutcome, SuiteState
from conformance._redact import redacted
from conformance.report import (
    CheckResult,
    ClauseResult,
    Evidence,
    FailedExpectation,
    HuntFigures,
    HuntSummary,
    ImplementationInfo,
    RuleResult,
    RunInfo,
    ShardHunt,
    ShardInfo,
    StandingReport,
    SuiteInfo,
)
from conformance.situations import clause_situations
from conformance.toolkit import citation

__all__ = ["build_report", "charged", "redacted", "rule_result", "selected_clause"]


def charged(outcome: CaseOutcome, clause_id: str) -> CaseOutcome:
    """The outcome of a case as it lands on ``clause_id``, one of the clauses it is bound
    to: a failure belongs to the clause whose words it breaks.

    A failed case whose expectations name their clause fails ``clause_id`` only with
    the expectations charged to it (or to no clause in particular); when none is, the
    case passed there when it judged every expectation, and is untested there when a
    failure ended it early.  A clause the case declared blocked (its prerequisite
    missing) is untested there.
    """
    mine = [item for item in outcome.failures if item.get("clause") in (None, clause_id)]
    if outcome.outcome in ("passed", "failed") and clause_id in outcome.blocked and not mine:
        return replace(
            outcome,
            outcome="skipped",
            skip_kind="untested",
            message=f"untested: {outcome.blocked[clause_id]}",
            failures=[],
        )
    if outcome.outcome != "failed" or len(mine) == len(outcome.failures):
        return outcome
    if mine:
        first = mine[0]
        where = first.get("pointer")
        message = str(first.get("message") or "")
        if where:
            scenario = first.get("scenario")
            message += f" (at {where}" + (f" of {scenario})" if scenario else ")")
        # A case whose evidence could not be written says so on every clause it lands on.
        return replace(outcome, message=message + outcome.unwritten(), failures=mine)
    if outcome.complete:  # every expectation was judged, and this clause's held
        return replace(outcome, outcome="passed", message="", failures=[])
    others = dict.fromkeys(str(item["clause"]) for item in outcome.failures)
    broken = ", ".join(citation(clause) for clause in others)
    return replace(
        outcome,
        outcome="skipped",
        skip_kind="untested",
        message=f"untested: what failed is {broken}'s, not this clause's: {outcome.message}",
        failures=[],
    )


def selected_clause(state: SuiteState, clause_id: str, rule_id: str) -> bool:
    """Whether the run asked for ``clause_id``: every clause without ``--only``, else the
    clauses named and every clause of the rules named.  A case bound to several clauses
    (a hunt invariant) reports only on those asked for, so ``--only RT-TOOL-7`` never
    brings RT-TOOL-4 into the report."""
    only = state.options.only
    return not only or clause_id in only or rule_id in only


def rule_result(state: SuiteState, rule_id: str) -> RuleResult | None:
    """The standing of one rule from the outcomes so far (``None`` when the run did not
    select it, by ``--only`` or by ``--level``)."""
    rule = state.corpus.get(rule_id)
    if rule is None or (state.options.levels and rule.level not in state.options.levels):
        return None
    wanted = [clause.id for clause in rule.clauses if selected_clause(state, clause.id, rule.id)]
    if not wanted:
        return None
    # Every clause is listed (one left out of a partial run stays untested), but only the
    # clauses asked for collect outcomes.
    by_clause: dict[str, list[CheckResult]] = {clause_id: [] for clause_id in wanted}
    declared = clause_situations()
    for case in state.cases:
        outcome = state.outcomes.get(case.id)
        if outcome is None:
            continue
        for clause_id in case.clauses:
            if clause_id in by_clause:
                by_clause[clause_id].append(
                    _check(case.name, charged(outcome, clause_id), case.kind, clause_id)
                )
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
                situations=tuple(s.words for s in declared.get(clause.id, ())),
            )
            for clause in rule.clauses
        ),
    )


def build_report(
    state: SuiteState, handshake: Handshake, *, duration_s: float, levels: tuple[str, ...]
) -> StandingReport:
    """The standing of every selected rule that has at least one selected case."""
    with_cases = {rule for case in state.cases for rule in case.rules}
    if state.shard is not None:  # the rules left to other shards are theirs to report
        with_cases &= set(state.shard.rules)
    found = (rule_result(state, rule.id) for rule in state.corpus.rules if rule.id in with_cases)
    rules = [result for result in found if result is not None]
    options = state.options
    hunted = [o.hunt for o in state.outcomes.values() if o.hunt]
    hunt = None
    if hunted:
        hunt = HuntSummary(
            budget_s=float(hunted[0]["budget_s"]),
            elapsed_s=float(hunted[0]["elapsed_s"]),
            examples=int(hunted[0]["examples"]),
            counterexamples=int(hunted[0]["counterexamples"]),
            shrinks=int(hunted[0].get("shrinks", 0)),
            replayed=None if hunted[0].get("replayed") is None else int(hunted[0]["replayed"]),
        )
    return StandingReport(
        hunt=hunt,
        warnings=_store_lost(options) if any(h.get("store_lost") for h in hunted) else (),
        implementation=ImplementationInfo.from_handshake(handshake, spec=redacted(options.impl)),
        suite=SuiteInfo(name="rttool", version=__version__),
        run=RunInfo(
            started_at=datetime.fromtimestamp(state.started, UTC).isoformat(),
            duration_s=round(duration_s, 3),
            seed=options.seed,
            levels=levels,  # type: ignore[arg-type]
            ci=options.ci,
            only=options.only,
            mutant=options.mutant,
            shard=_shard_info(state),
        ),
        rules=tuple(rules),
    )


def _store_lost(options: RunOptions) -> tuple[str, ...]:
    """The warning of a hunt whose shared example database went away."""
    from conformance._arguments import shown_url

    where = shown_url(options.example_db or "")
    return (
        f"the example database {where} went away during the hunt; it went on with local "
        "storage in the report directory's .hypothesis, where what it found since is kept",
    )


def _shard_info(state: SuiteState) -> ShardInfo | None:
    """What a shard's standing says of it: which shard, what it left, its hunt."""
    plan = state.shard
    if plan is None:
        return None
    hunted = tuple(
        ShardHunt(
            clause=case.clauses[0],
            check=_check(case.name, outcome, case.kind, case.clauses[0]),
        )
        for case in state.cases
        if case.kind == "hunt" and case.clauses and (outcome := state.outcomes.get(case.id))
    )
    return ShardInfo(
        index=plan.index,
        count=plan.count,
        corpus=plan.corpus,
        rules=plan.rules,
        left=plan.left,
        hunt=hunted,
    )


def _check(name: str, outcome: CaseOutcome, kind: str, clause: str) -> CheckResult:
    return CheckResult(
        name=name,
        outcome=outcome.outcome,  # type: ignore[arg-type]
        message=outcome.message,
        skip_kind=outcome.skip_kind,  # type: ignore[arg-type]
        fault=outcome.fault,  # type: ignore[arg-type]
        duration_s=outcome.duration_s,
        kind=kind,  # type: ignore[arg-type]
        evidence=Evidence(
            scenario=outcome.evidence.get("scenario"),
            trace=outcome.evidence.get("trace"),
            counterexample=outcome.evidence.get("counterexample"),
            error=outcome.evidence.get("error"),
        ),
        failures=tuple(
            FailedExpectation(
                message=str(item.get("message") or "no message"),
                scenario=item.get("scenario"),
                pointer=item.get("pointer"),
                reading=item.get("reading"),
                expected=item.get("expected"),
                got=item.get("got"),
            )
            for item in outcome.failures
        )
        if outcome.outcome == "failed"
        else (),
        hunt=_figures(outcome) if kind == "hunt" else None,
        reached=tuple(outcome.reached.get(clause, ())),
    )


def _figures(outcome: CaseOutcome) -> HuntFigures | None:
    """An invariant's judged and exercised counts, when the hunt reported them."""
    found = outcome.hunt or {}
    judged, exercised = found.get("judged"), found.get("exercised")
    if judged is None or exercised is None:
        return None
    return HuntFigures(judged=int(judged), exercised=int(exercised))
