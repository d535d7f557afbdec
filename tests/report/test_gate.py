"""The gate's truth table: listed/unlisted x failing/passing, stale, unknown, levels."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adapters.errors import RttoolError
from conformance.report import (
    CheckResult,
    ExpectationsError,
    GateResult,
    gate,
    parse_expectations,
)
from tests.report.sample import sample_report, with_hunt_checks, without_hunt

FAIL_7 = "RT-TOOL-7#c4::held-artifacts-survive-failed-write-back"
ERROR_9 = "RT-TOOL-9#c2::repeat-re-emits-stored-result"


def _gate(*entries: str, levels: tuple[str, ...] | None = None) -> GateResult:
    text = "expectations:\n" + "".join(f"  - {entry}\n    reason: known\n" for entry in entries)
    return gate(sample_report(), levels, parse_expectations(text, source="exp.yaml"))  # type: ignore[arg-type]


def test_unlisted_failures_fail_the_gate() -> None:
    result = gate(sample_report())
    assert result.exit_code == 1
    assert [finding.target for finding in result.unexpected] == [FAIL_7, ERROR_9]
    assert result.implementation_faults == 1
    assert result.suite_faults == 0
    assert result.reasons()[0].startswith(f"unexpected failure: {FAIL_7} [extended]: 2 held")
    assert "error (implementation fault)" in result.reasons()[1]


@pytest.mark.parametrize(
    "entries",
    [
        ("clause: RT-TOOL-7#c4", f'check: "{ERROR_9}"'),
        ("rule: RT-TOOL-7", "rule: RT-TOOL-9"),
        (f'check: "{FAIL_7}"', "clause: RT-TOOL-9#c2"),
    ],
)
def test_listed_failures_pass_the_gate(entries: tuple[str, ...]) -> None:
    result = _gate(*entries)
    assert result.exit_code == 0, result.reasons()
    assert [finding.target for finding in result.expected] == [FAIL_7, ERROR_9]
    assert result.expected[0].where == "exp.yaml:2"
    assert result.expected[1].where == "exp.yaml:4"
    assert "expected failure" in result.reasons()[0]


def test_a_listed_failure_does_not_hide_an_unlisted_one() -> None:
    result = _gate("clause: RT-TOOL-7#c4")
    assert result.exit_code == 1
    assert [finding.target for finding in result.unexpected] == [ERROR_9]


@pytest.mark.parametrize(
    "entry",
    [
        "clause: RT-TOOL-1#c1",
        "rule: RT-TOOL-1",
        'check: "RT-TOOL-7#c4::write-back-ok"',
        "rule: DR-1",
    ],
)
def test_a_listed_target_that_passes_is_stale(entry: str) -> None:
    result = _gate(f'check: "{FAIL_7}"', "rule: RT-TOOL-9", entry)
    assert result.exit_code == 1
    assert len(result.stale) == 1
    assert result.stale[0].where == "exp.yaml:6"
    assert result.reasons()[0].startswith("stale expectation at exp.yaml:6: ")
    assert not result.unexpected


@pytest.mark.parametrize("entry", ["clause: RT-TOOL-7#c2", "rule: DR-3", "rule: DR-2"])
def test_a_listed_target_never_exercised_is_a_note(entry: str) -> None:
    result = _gate(f'check: "{FAIL_7}"', "rule: RT-TOOL-9", entry)
    assert result.exit_code == 0
    assert len(result.unexercised) == 1
    assert "not exercised" in result.reasons()[-1]


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (
            "clause: RT-TOOL-7#c9",
            "clause RT-TOOL-7#c9 is not in the report (RT-TOOL-7 has clauses 1, 2, 4)",
        ),
        ("rule: RT-TOOL-99", "rule RT-TOOL-99 is not in the report"),
        (
            'check: "RT-TOOL-7#c4::nope"',
            "check RT-TOOL-7#c4::nope is not in the report "
            "(RT-TOOL-7#c4 has checks write-back-ok, held-artifacts-survive-failed-write-back)",
        ),
    ],
)
def test_unknown_targets_are_errors_naming_file_and_line(entry: str, words: str) -> None:
    with pytest.raises(ExpectationsError) as caught:
        _gate("rule: RT-TOOL-9", entry)
    assert str(caught.value) == f"exp.yaml:4: {words}"


def test_levels_limit_what_is_gated() -> None:
    result = _gate("clause: RT-TOOL-1#c1", levels=("core",))
    assert result.exit_code == 0  # RT-TOOL failures and the stale entry are extended
    assert result.levels == ("core",)
    assert result.gated_rules == 3
    result = _gate(levels=("extended",))
    assert result.exit_code == 1


@pytest.mark.parametrize("levels", [["optional"], []])
def test_a_gate_of_no_rule_fails_and_says_so(levels: list[str]) -> None:
    """Levels no rule of the report is at (a handshake may claim them, or none) gate
    nothing, and a gate of nothing must not pass a failing runtime."""
    report = sample_report()
    only_dr = replace(report, rules=tuple(rule for rule in report.rules if rule.family == "DR"))
    result = gate(only_dr, levels)
    assert result.exit_code == 1
    shown = ", ".join(levels) or "none"
    assert result.reasons() == (
        f"no rule in the report is at a gated level: {shown}: a gate of nothing passes nothing",
    )


def test_unknown_level_is_refused() -> None:
    with pytest.raises(RttoolError, match="unknown level"):
        gate(sample_report(), ["mandatory"])  # type: ignore[list-item]


def test_entries_outside_an_only_run_are_ignored() -> None:
    report = sample_report()
    narrowed = replace(
        report,
        run=replace(report.run, only=("RT-TOOL-7",)),
        rules=tuple(rule for rule in report.rules if rule.id == "RT-TOOL-7"),
    )
    text = (
        "expectations:\n"
        "  - clause: RT-TOOL-7#c4\n    reason: known\n"
        "  - rule: RT-TOOL-5\n    reason: elsewhere\n"
    )
    result = gate(narrowed, None, parse_expectations(text))
    assert result.exit_code == 0
    with pytest.raises(ExpectationsError, match="RT-TOOL-7#c8 is not in the report"):
        gate(narrowed, None, parse_expectations(text + "  - clause: RT-TOOL-7#c8\n    reason: x\n"))


def test_suite_faults_are_counted() -> None:
    report = sample_report()
    rt9 = report.rules[3]
    check = replace(rt9.clauses[0].checks[0], fault="suite")
    rules = list(report.rules)
    rules[3] = replace(rt9, clauses=(replace(rt9.clauses[0], checks=(check,)),))
    result = gate(replace(report, rules=tuple(rules)))
    assert (result.implementation_faults, result.suite_faults) == (0, 1)


def test_a_hunt_that_finds_nothing_never_makes_an_entry_stale() -> None:
    report = with_hunt_checks(
        sample_report(), lambda check: CheckResult(name=check.name, outcome="passed", kind="hunt")
    )
    text = f'expectations:\n  - check: "{FAIL_7}"\n    reason: known\n'
    result = gate(report, None, parse_expectations(text, source="exp.yaml"))
    assert result.stale == ()
    assert [f.detail for f in result.unexercised] == [
        "the hunt did not find it this run, which proves no fix"
    ]


def test_a_hunt_check_of_a_run_without_the_hunt_is_unexercised_not_unknown() -> None:
    report = without_hunt(sample_report())
    text = 'expectations:\n  - check: "RT-TOOL-7#c4::hunt-no-loss"\n    reason: known\n'
    result = gate(report, None, parse_expectations(text, source="exp.yaml"))
    assert result.stale == ()
    assert [f.detail for f in result.unexercised] == ["the hunt did not run"]
    # A misspelt hand-written check is still refused.
    typo = 'expectations:\n  - check: "RT-TOOL-7#c4::no-such-check"\n    reason: known\n'
    with pytest.raises(ExpectationsError):
        gate(report, None, parse_expectations(typo, source="exp.yaml"))


def test_a_rule_entry_in_a_clause_level_run_excuses_but_is_never_stale() -> None:
    report = sample_report()
    text = "expectations:\n  - rule: RT-TOOL-7\n    reason: known\n"
    exp = parse_expectations(text, source="exp.yaml")
    # Only ¶4 (which fails) ran: the rule entry still excuses it.
    failing = replace(report, run=replace(report.run, only=("RT-TOOL-7#c4",)))
    result = gate(failing, None, exp)
    assert [f.target for f in result.unexpected if f.target.startswith("RT-TOOL-7")] == []
    assert [f.target for f in result.expected] == [FAIL_7]
    # Only a passing clause ran: the entry is not judged, so it cannot be stale.
    passing = replace(report, run=replace(report.run, only=("RT-TOOL-7#c1",)))
    assert gate(passing, None, exp).stale == ()
    assert (
        gate(replace(report, run=replace(report.run, only=("RT-TOOL-7",))), None, exp).stale == ()
    )
