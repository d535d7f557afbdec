"""``report diff``: regressions, fixes, added, removed and changed."""

from __future__ import annotations

import json
from dataclasses import replace

from conformance.report import (
    CheckResult,
    ClauseResult,
    StandingReport,
    diff_reports,
)
from tests.report.sample import sample_report


def _with_rule(report: StandingReport, index: int, **changes: object) -> StandingReport:
    rules = list(report.rules)
    rules[index] = replace(rules[index], **changes)  # type: ignore[arg-type]
    return replace(report, rules=tuple(rules))


def _fixed() -> StandingReport:
    """The sample with RT-TOOL-7 ¶4's failing check passing."""
    report = sample_report()
    rt7 = report.rules[2]
    clause = rt7.clauses[2]
    passing = replace(clause.checks[1], outcome="passed", message="", failures=())
    return _with_rule(
        report, 2, clauses=(*rt7.clauses[:2], replace(clause, checks=(clause.checks[0], passing)))
    )


def test_identical_reports() -> None:
    diff = diff_reports(sample_report(), sample_report())
    assert diff.exit_code == 0
    assert diff.as_text() == "regressions: 0\nfixes: 0\nadded: 0\nremoved: 0\nchanged: 0\n"


def test_regression() -> None:
    diff = diff_reports(_fixed(), sample_report())
    assert diff.exit_code == 1
    assert [(c.kind, c.id, c.old, c.new) for c in diff.regressions] == [
        ("rule", "RT-TOOL-7", "untested", "does-not-conform"),
        ("clause", "RT-TOOL-7#c4", "conforms", "does-not-conform"),
    ]
    assert "  clause RT-TOOL-7#c4: conforms -> does-not-conform" in diff.as_text()


def test_fix() -> None:
    diff = diff_reports(sample_report(), _fixed())
    assert diff.exit_code == 0
    assert [(c.kind, c.id) for c in diff.fixes] == [("clause", "RT-TOOL-7#c4")]
    # The rule went from does-not-conform to untested (¶2 is untested): changed, not fixed.
    assert [(c.kind, c.id, c.new) for c in diff.changed] == [("rule", "RT-TOOL-7", "untested")]


def test_added_and_removed() -> None:
    report = sample_report()
    extra = ClauseResult(
        id="DR-1#c2",
        rule="DR-1",
        number=2,
        text="new clause",
        checks=(CheckResult(name="x", outcome="failed"),),
    )
    newer = _with_rule(report, 4, clauses=(*report.rules[4].clauses, extra))
    newer = replace(newer, rules=newer.rules[:-1])  # DR-3 removed
    diff = diff_reports(report, newer)
    assert [(c.kind, c.id, c.new) for c in diff.added] == [
        ("clause", "DR-1#c2", "does-not-conform")
    ]
    assert [(c.kind, c.id, c.old) for c in diff.removed] == [
        ("rule", "DR-3", "untested"),
        ("clause", "DR-3#c1", "untested"),
    ]
    # DR-1 itself went from conforms to does-not-conform: a regression.
    assert [(c.kind, c.id) for c in diff.regressions] == [("rule", "DR-1")]
    assert diff.exit_code == 1


def test_other_changes_and_notes() -> None:
    report = sample_report()
    passing = ClauseResult(
        id="DR-3#c1",
        rule="DR-3",
        number=1,
        text="t",
        checks=(CheckResult(name="x", outcome="passed"),),
    )
    newer = _with_rule(report, 6, clauses=(passing,))
    newer = replace(newer, implementation=replace(newer.implementation, version="2.4.0"))
    diff = diff_reports(report, newer)
    assert [(c.id, c.old, c.new) for c in diff.changed] == [
        ("DR-3", "untested", "conforms"),
        ("DR-3#c1", "untested", "conforms"),
    ]
    assert diff.notes == ("comparing toy-runtime 2.3.0 with toy-runtime 2.4.0",)
    data = json.loads(diff.as_json())
    assert data["changed"][0] == {
        "kind": "rule",
        "id": "DR-3",
        "old": "untested",
        "new": "conforms",
    }
    assert data["regressions"] == []
