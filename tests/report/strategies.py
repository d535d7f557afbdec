"""Hypothesis strategies for valid standing models."""

from __future__ import annotations

from datetime import UTC, timedelta, timezone

from hypothesis import strategies as st

from conformance.report import (
    CHECK_KINDS,
    LEVELS,
    OUTCOMES,
    CheckResult,
    ClauseResult,
    Evidence,
    FailedExpectation,
    HuntFigures,
    HuntSummary,
    ImplementationInfo,
    RuleResult,
    RunInfo,
    StandingReport,
    SuiteInfo,
)
from conformance.report._values import one_line

texts = st.text(max_size=24)
names = st.text(min_size=1, max_size=16).filter(lambda text: one_line(text) != "")
seconds = st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False)
optional_texts = st.none() | texts
zones = st.sampled_from(
    [UTC, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=8))]
)


@st.composite
def evidence(draw: st.DrawFn) -> Evidence:
    return Evidence(
        scenario=draw(optional_texts),
        trace=draw(optional_texts),
        counterexample=draw(optional_texts),
        error=draw(optional_texts),
    )


failures = st.lists(
    st.builds(
        FailedExpectation,
        message=names,
        scenario=optional_texts,
        pointer=optional_texts,
        reading=optional_texts,
        expected=optional_texts,
        got=optional_texts,
    ),
    max_size=3,
).map(tuple)


@st.composite
def hunt_figures(draw: st.DrawFn) -> HuntFigures:
    judged = draw(st.integers(0, 10_000))
    return HuntFigures(judged=judged, exercised=draw(st.integers(0, judged)))


@st.composite
def checks(draw: st.DrawFn, name: str, situations: tuple[str, ...] = ()) -> CheckResult:
    outcome = draw(st.sampled_from(OUTCOMES))
    kind = draw(st.sampled_from(CHECK_KINDS))
    return CheckResult(
        name=name,
        outcome=outcome,
        message=draw(texts),
        skip_kind=draw(st.sampled_from(["untested", "not-applicable"]))
        if outcome == "skipped"
        else None,
        fault=draw(st.sampled_from(["implementation", "suite"])) if outcome == "error" else None,
        duration_s=draw(seconds),
        evidence=draw(evidence()),
        kind=kind,
        failures=draw(failures) if outcome == "failed" else (),
        hunt=draw(st.none() | hunt_figures()) if kind == "hunt" else None,
        reached=tuple(s for s in situations if draw(st.booleans())),
    )


@st.composite
def clauses(draw: st.DrawFn, rule: str, number: int) -> ClauseResult:
    check_names = draw(st.lists(names, max_size=4, unique_by=one_line))
    situations = tuple(map(one_line, draw(st.lists(names, max_size=3, unique_by=one_line))))
    return ClauseResult(
        id=f"{rule}#c{number}",
        rule=rule,
        number=number,
        text=draw(texts),
        checks=tuple(draw(checks(name, situations)) for name in check_names),
        situations=situations,
    )


@st.composite
def rules(draw: st.DrawFn, rule_id: str) -> RuleResult:
    numbers = draw(st.lists(st.integers(min_value=1, max_value=40), max_size=4, unique=True))
    return RuleResult(
        id=rule_id,
        title=draw(texts),
        family=draw(st.sampled_from(["RT-TOOL", "DR", "X"])),
        level=draw(st.sampled_from(LEVELS)),
        profiles=tuple(draw(st.lists(texts, max_size=2))),
        source=draw(texts),
        clauses=tuple(draw(clauses(rule_id, number)) for number in numbers),
    )


@st.composite
def reports(draw: st.DrawFn) -> StandingReport:
    rule_ids = draw(
        st.lists(st.from_regex(r"[A-Z]{1,3}-[0-9]{1,2}", fullmatch=True), max_size=4, unique=True)
    )
    started = draw(st.datetimes(timezones=zones))
    hunt = draw(
        st.none()
        | st.builds(
            HuntSummary,
            budget_s=seconds,
            elapsed_s=seconds,
            examples=st.integers(min_value=0, max_value=10**9),
            counterexamples=st.integers(min_value=0, max_value=1000),
        )
    )
    return StandingReport(
        implementation=ImplementationInfo(
            name=draw(names),
            version=draw(texts),
            homepage=draw(optional_texts),
            spec=draw(texts),
            profiles=tuple(draw(st.lists(texts, max_size=3))),
            capabilities=tuple(draw(st.lists(texts, max_size=3))),
            turn_states=tuple(draw(st.lists(texts, max_size=2))),
        ),
        suite=SuiteInfo(version=draw(texts)),
        run=RunInfo(
            started_at=started.isoformat(),
            duration_s=draw(seconds),
            seed=draw(st.none() | st.integers()),
            levels=tuple(draw(st.lists(st.sampled_from(LEVELS), unique=True))),
            ci=draw(st.booleans()),
            spec=draw(texts),
            only=tuple(draw(st.lists(texts, max_size=2))),
            mutant=draw(optional_texts),
        ),
        rules=tuple(draw(rules(rule_id)) for rule_id in rule_ids),
        warnings=tuple(draw(st.lists(texts, max_size=3))),
        hunt=hunt,
    )
