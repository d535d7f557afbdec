"""The model: aggregation truth tables, invariants, derived values."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.errors import SuiteError
from conformance.report import (
    CheckResult,
    ClauseResult,
    ImplementationInfo,
    RuleResult,
    RunInfo,
    StandingReport,
    SuiteInfo,
    clause_standing,
    rule_standing,
)
from tests.report.sample import sample_report

PASS = CheckResult(name="p", outcome="passed")
FAIL = CheckResult(name="f", outcome="failed", message="broke")
ERROR = CheckResult(name="e", outcome="error", fault="suite", message="oops")
UNTESTED = CheckResult(name="u", outcome="skipped", skip_kind="untested", message="untested: x")
NA = CheckResult(name="n", outcome="skipped", skip_kind="not-applicable", message="n/a")


@pytest.mark.parametrize(
    ("checks", "expected"),
    [
        ((), "untested"),
        ((PASS,), "conforms"),
        ((PASS, UNTESTED), "conforms"),
        ((PASS, NA), "conforms"),
        ((UNTESTED,), "untested"),
        ((UNTESTED, NA), "untested"),
        ((NA,), "not-applicable"),
        ((NA, NA), "not-applicable"),
        ((ERROR,), "error"),
        ((ERROR, PASS), "error"),
        ((FAIL, ERROR), "does-not-conform"),
        ((FAIL, PASS, NA, UNTESTED), "does-not-conform"),
    ],
)
def test_clause_standing(checks: tuple[CheckResult, ...], expected: str) -> None:
    assert clause_standing(checks) == expected


@pytest.mark.parametrize(
    ("standings", "expected"),
    [
        ((), "untested"),
        (("conforms",), "conforms"),
        (("conforms", "not-applicable"), "conforms"),
        (("not-applicable", "not-applicable"), "not-applicable"),
        (("conforms", "untested"), "untested"),
        (("untested", "not-applicable"), "untested"),
        (("error", "untested", "conforms"), "error"),
        (("error", "does-not-conform"), "does-not-conform"),
        (("conforms", "does-not-conform", "not-applicable"), "does-not-conform"),
    ],
)
def test_rule_standing(standings: tuple[str, ...], expected: str) -> None:
    assert rule_standing(standings) == expected  # type: ignore[arg-type]


def test_clause_derives_standing_counts_and_citation() -> None:
    clause = ClauseResult(
        id="RT-TOOL-7#c4", rule="RT-TOOL-7", number=4, text="t", checks=(PASS, UNTESTED, NA)
    )
    assert clause.standing == "conforms"
    assert (clause.counts.passed, clause.counts.untested, clause.counts.not_applicable) == (1, 1, 1)
    assert clause.citation == "RT-TOOL-7 ¶4"
    assert clause.check_id(PASS) == "RT-TOOL-7#c4::p"


def test_rule_counts_clauses_by_standing() -> None:
    rule = sample_report().rule("RT-TOOL-7")
    assert rule is not None
    assert rule.standing == "does-not-conform"
    assert (rule.counts.conforms, rule.counts.untested, rule.counts.does_not_conform) == (1, 1, 1)


@pytest.mark.parametrize(
    "build",
    [
        lambda: CheckResult(name="x", outcome="skipped"),
        lambda: CheckResult(name="x", outcome="passed", skip_kind="untested"),
        lambda: CheckResult(name="x", outcome="error"),
        lambda: CheckResult(name="x", outcome="failed", fault="suite"),
        lambda: CheckResult(name="x", outcome="maybe"),  # type: ignore[arg-type]
        lambda: CheckResult(name="", outcome="passed"),
        lambda: CheckResult(name="x", outcome="passed", duration_s=-1.0),
        lambda: CheckResult(name="x", outcome="passed", duration_s=float("nan")),
        lambda: CheckResult(name="x", outcome="passed", kind="other"),  # type: ignore[arg-type]
        lambda: ClauseResult(id="R-1#c2", rule="R-1", number=1, text=""),
        lambda: ClauseResult(id="R-1#c0", rule="R-1", number=0, text=""),
        lambda: ClauseResult(id="R-1#c1", rule="R-1", number=1, text="", checks=(PASS, PASS)),
        lambda: RuleResult(id="R#1", title="", family="R", level="core"),
        lambda: RuleResult(id="R-1", title="", family="R", level="mandatory"),  # type: ignore[arg-type]
        lambda: RuleResult(
            id="R-1",
            title="",
            family="R",
            level="core",
            clauses=(ClauseResult(id="R-2#c1", rule="R-2", number=1, text=""),),
        ),
        lambda: RunInfo(started_at="yesterday"),
        lambda: RunInfo(started_at="2025-01-01T00:00:00", levels=("core", "core")),
        lambda: RunInfo(started_at="2025-01-01T00:00:00", seed=True),  # type: ignore[arg-type]
        lambda: ImplementationInfo(name="", version="1"),
    ],
)
def test_invalid_models_are_refused(build: object) -> None:
    with pytest.raises(SuiteError):
        build()  # type: ignore[operator]


def test_report_refuses_repeated_rule_ids() -> None:
    report = sample_report()
    with pytest.raises(SuiteError, match="rule ids repeat"):
        replace(report, rules=report.rules + report.rules[:1])


def test_strings_are_kept_on_one_line_and_encodable() -> None:
    check = CheckResult(name="a\nb", outcome="failed", message="line one\r\nline two\u2028three")
    assert check.name == "a b"
    assert check.message == "line one line two three"
    impl = ImplementationInfo(name="x\ud800y", version="1\n2", profiles=("p\nq",))
    assert impl.name == "x\ufffdy"
    assert impl.version == "1 2"
    assert impl.profiles == ("p q",)
    impl.name.encode("utf-8")


def test_tallies_count_conforming_over_applicable() -> None:
    report = sample_report()
    rt, dr = report.tallies()
    assert (rt.family, rt.conforming, rt.applicable, rt.message) == ("RT-TOOL", 1, 4, "1/4")
    assert (dr.family, dr.conforming, dr.applicable, dr.message) == ("DR", 1, 2, "1/2")
    assert report.tally("NOPE").message == "n/a"
    assert report.tally("NOPE").ratio is None


def test_lookups() -> None:
    report = sample_report()
    assert report.rule("RT-TOOL-9") is not None
    assert report.rule("RT-TOOL-99") is None
    clause = report.clause("RT-TOOL-7#c4")
    assert clause is not None
    assert clause.number == 4
    found = report.check("RT-TOOL-9#c2::repeat-re-emits-stored-result")
    assert found is not None
    assert found[1].outcome == "error"
    assert report.check("RT-TOOL-9#c2::nope") is None
    assert report.check("RT-TOOL-9#c2") is None
    assert len(report.evidence_paths()) == 3


def test_run_started_reads_naive_times_as_utc() -> None:
    run = RunInfo(started_at="2025-01-02T03:04:05")
    assert run.started.utcoffset() is not None
    assert run.started.isoformat() == "2025-01-02T03:04:05+00:00"


def test_empty_report_is_valid() -> None:
    report = StandingReport(
        implementation=ImplementationInfo(name="x", version="1"),
        suite=SuiteInfo(version="0"),
        run=RunInfo(started_at="2025-01-01T00:00:00Z"),
    )
    assert report.tallies() == ()
    assert report.counts.conforms == 0


def test_implementation_from_a_handshake() -> None:
    from adapters.handshake import Capabilities, Handshake, Implementation, Limits

    handshake = Handshake(
        protocol="rttool-adapter/1",
        implementation=Implementation(name="toy", version="1.0", homepage="https://toy.example"),
        profiles=("runtime",),
        capabilities=Capabilities(restart=True, interrupt_points=("before_tool", "after_tool")),
        limits=Limits(),
    )
    info = ImplementationInfo.from_handshake(handshake, spec="stdio:toy")
    assert (info.name, info.version, info.homepage, info.spec) == (
        "toy",
        "1.0",
        "https://toy.example",
        "stdio:toy",
    )
    assert info.profiles == ("runtime",)
    assert info.capabilities == (
        "restart",
        "interrupt_points:before_tool",
        "interrupt_points:after_tool",
        "entry_points:chat",
    )


def test_a_declared_turn_state_vocabulary_is_shown_in_the_report() -> None:
    """The checks judge a turn by the state its word is declared to mean: the standing
    says which words the harness declared, and the published page shows them; a harness
    that declared none keeps its report as it was."""
    import json

    from adapters.handshake import Capabilities, Handshake, Implementation, Limits, TurnStates
    from conformance.report import to_json
    from conformance.report._markdown import standing_markdown

    def info(states: TurnStates) -> ImplementationInfo:
        handshake = Handshake(
            protocol="rttool-adapter/1",
            implementation=Implementation(name="toy", version="1.0"),
            profiles=("runtime",),
            capabilities=Capabilities(),
            limits=Limits(),
            turn_states=states,
        )
        return ImplementationInfo.from_handshake(handshake, spec="stdio:toy")

    declared = info(TurnStates(paused=("waiting", "on_hold")))
    assert declared.turn_states == ("paused: waiting, on_hold",)
    assert info(TurnStates()).turn_states == ()
    report = sample_report()
    shown = replace(report, implementation=declared)
    assert json.loads(to_json(shown))["implementation"]["turn_states"] == [
        "paused: waiting, on_hold"
    ]
    assert "turn states declared: paused: waiting, on\\_hold" in standing_markdown(shown)
    assert "turn_states" not in json.loads(to_json(report))["implementation"]
