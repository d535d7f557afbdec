"""``expectations update``: what fails now, keeping what the file already says."""

from __future__ import annotations

from dataclasses import replace

import yaml

from conformance.report import (
    CheckResult,
    StandingReport,
    gate,
    parse_expectations,
    update_expectations,
)
from tests.report.sample import sample_report

FAIL_7 = "RT-TOOL-7#c4::held-artifacts-survive-failed-write-back"


def _targets(text: str) -> list[tuple[str, str]]:
    return [(entry.scope, entry.target) for entry in parse_expectations(text).entries]


def test_from_nothing_lists_every_failing_clause_and_hunt_findings_by_check() -> None:
    result = update_expectations(sample_report())
    # RT-TOOL-7 ¶4 fails only in the hunt: listed by check, so that a run without the
    # hunt leaves the entry unexercised instead of stale.
    assert _targets(result.text) == [
        ("check", "RT-TOOL-7#c4::held-artifacts-survive-failed-write-back"),
        ("clause", "RT-TOOL-9#c2"),
    ]
    assert result.text.startswith('# Known failures of "toy-runtime" "2.3.0"')
    assert result.text.count("  # new\n") == 2
    reasons = [entry.reason for entry in parse_expectations(result.text).entries]
    assert reasons == [
        "2 held artifacts were lost after the write-back failed",
        "implementation crashed: exit status 139",
    ]
    assert gate(sample_report(), None, parse_expectations(result.text)).exit_code == 0


def test_existing_reasons_are_kept_and_stale_or_unknown_entries_dropped() -> None:
    existing = parse_expectations(
        "expectations:\n"
        "  - clause: RT-TOOL-7#c4\n    reason: our own words\n    issue: https://t.example/1\n"
        "  - clause: RT-TOOL-1#c1\n    reason: fixed since\n"
        "  - rule: RT-TOOL-9\n    reason: whole rule\n"
        "  - rule: RT-TOOL-42\n    reason: gone\n"
        "  - clause: RT-TOOL-7#c2\n    reason: cannot tell yet\n"
    )
    result = update_expectations(sample_report(), existing)
    entries = parse_expectations(result.text).entries
    assert [(entry.scope, entry.target) for entry in entries] == [
        ("clause", "RT-TOOL-7#c2"),
        ("clause", "RT-TOOL-7#c4"),
        ("rule", "RT-TOOL-9"),
    ]
    assert entries[1].reason == "our own words"
    assert entries[1].issue == "https://t.example/1"
    assert [entry.target for entry, _ in result.dropped] == ["RT-TOOL-1#c1", "RT-TOOL-42"]
    assert "stale" in result.dropped[0][1]
    assert result.added == ()
    assert "# new" not in result.text


def test_a_clause_tracked_check_by_check_gets_check_entries() -> None:
    report = sample_report()
    rt7 = report.rules[2]
    clause = rt7.clauses[2]
    second = CheckResult(name="second-failure", outcome="failed", message="also broken")
    rules = list(report.rules)
    rules[2] = replace(
        rt7, clauses=(*rt7.clauses[:2], replace(clause, checks=(*clause.checks, second)))
    )
    report = replace(report, rules=tuple(rules))
    existing = parse_expectations(f'expectations:\n  - check: "{FAIL_7}"\n    reason: mine\n')
    result = update_expectations(report, existing)
    assert _targets(result.text) == [
        ("check", FAIL_7),
        ("check", "RT-TOOL-7#c4::second-failure"),
        ("clause", "RT-TOOL-9#c2"),
    ]


def test_levels_limit_what_is_added() -> None:
    result = update_expectations(sample_report(), None, ["core"])
    assert "expectations: []" in result.text
    assert _targets(result.text) == []


def test_updating_twice_changes_nothing_but_the_new_marks() -> None:
    first = update_expectations(sample_report())
    second = update_expectations(sample_report(), parse_expectations(first.text))
    assert parse_expectations(second.text) == parse_expectations(
        first.text.replace("  # new\n", "")
    )


def test_awkward_reasons_survive_as_yaml() -> None:
    report: StandingReport = sample_report()
    awkward = "quote ' \" colon: # hash - dash {brace} [list] \\ back \u2028 \x85 end"
    rt9 = report.rules[3]
    check = replace(rt9.clauses[0].checks[0], message=awkward)
    rules = list(report.rules)
    rules[3] = replace(rt9, clauses=(replace(rt9.clauses[0], checks=(check,)),))
    result = update_expectations(replace(report, rules=tuple(rules)))
    reasons = [entry["reason"] for entry in yaml.safe_load(result.text)["expectations"]]
    assert reasons[1] == check.message
