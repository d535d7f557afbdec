"""The terminal forms of the standing: a line per rule and the summary table."""

from __future__ import annotations

from dataclasses import replace

from conformance.report import CheckResult, rule_line, terminal_table
from conformance.report._markdown import _when
from tests.report.sample import sample_report, with_hunt_checks, without_hunt


def test_rule_lines_say_what_the_table_says() -> None:
    report = sample_report()
    table = terminal_table(report)
    for rule in report.rules:
        line = rule_line(rule)
        assert line.split()[:2] == [rule.id, rule.standing]
        row = next(r for r in table.splitlines() if r.startswith(f"{rule.id} "))
        assert row.split()[2] == rule.standing
        assert line.split()[2] == row.split()[3]  # conforming clauses / clauses


def test_the_table_says_when_the_hunt_did_not_run_and_when_the_run_was_partial() -> None:
    report = sample_report()
    assert "hunt: did not run" not in terminal_table(report)
    unhunted = replace(without_hunt(report), run=replace(report.run, only=("RT-TOOL-7",)))
    text = terminal_table(unhunted)
    assert "hunt: did not run" in text
    assert text.splitlines()[-1] == "partial run: only RT-TOOL-7"
    # Hunt checks that errored and no summary: it ran, and failed to complete.
    errored = with_hunt_checks(
        report,
        lambda check: CheckResult(
            name=check.name,
            outcome="error",
            message="timed out",
            fault="implementation",
            kind="hunt",
        ),
    )
    assert errored.hunt_status() == "failed"
    assert "hunt: did not complete" in terminal_table(errored)


def test_timestamps_read_as_utc_to_the_second() -> None:
    assert _when("2026-11-30T21:06:42.594471+00:00") == "2026-11-30 21:06:42 UTC"
    assert _when("2026-11-30T22:06:42+01:00") == "2026-11-30 21:06:42 UTC"
    assert _when("not a time") == "not a time"
