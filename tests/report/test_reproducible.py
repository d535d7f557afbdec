"""Reproducible reports: two runs that differ only in their timings render alike."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conformance.report import (
    ALL_FORMATS,
    StandingFormatError,
    StandingReport,
    from_json,
    is_reproducible,
    render,
    reproducible,
    to_json,
)
from tests.report.sample import sample_report


def _retimed(report: StandingReport) -> StandingReport:
    """``report`` as another run would have it: another start, other durations."""
    assert report.hunt is not None
    rules = tuple(
        replace(
            rule,
            clauses=tuple(
                replace(
                    clause,
                    checks=tuple(
                        replace(check, duration_s=(check.duration_s or 0) + 1.5)
                        for check in clause.checks
                    ),
                )
                for clause in rule.clauses
            ),
        )
        for rule in report.rules
    )
    return replace(
        report,
        run=replace(report.run, started_at="2031-06-07T08:09:10+00:00", duration_s=99.0),
        rules=rules,
        hunt=replace(report.hunt, elapsed_s=3.25),
    )


def _files(report: StandingReport, fmt: str) -> dict[str, bytes]:
    return {item.path: item.content for item in render(report, fmt).files}


def test_a_reproducible_report_records_no_timing() -> None:
    report = reproducible(sample_report())
    assert is_reproducible(report)
    assert not is_reproducible(sample_report())
    assert report.run.started_at is None and report.run.duration_s is None
    assert report.hunt is not None and report.hunt.elapsed_s is None
    assert all(check.duration_s is None for _, _, check in report.checks())


def test_the_standing_is_unchanged() -> None:
    full = sample_report()
    stable = reproducible(full)
    assert [rule.standing for rule in stable.rules] == [rule.standing for rule in full.rules]
    assert [(c.id, k.outcome, k.message, k.evidence) for _, c, k in stable.checks()] == [
        (c.id, k.outcome, k.message, k.evidence) for _, c, k in full.checks()
    ]
    assert stable.tallies() == full.tallies()


def test_it_survives_standing_json() -> None:
    stable = reproducible(sample_report())
    again = from_json(to_json(stable))
    assert again == stable
    assert is_reproducible(again)


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_runs_that_differ_only_in_timings_render_alike(fmt: str) -> None:
    first, second = sample_report(), _retimed(sample_report())
    # The timings show in the full report (so the comparison below has something to hide)...
    if fmt not in ("badge",):
        assert _files(first, fmt) != _files(second, fmt)
    # ...and nowhere in the reproducible one.
    assert _files(reproducible(first), fmt) == _files(reproducible(second), fmt)


@pytest.mark.parametrize("fmt", ["json", "markdown", "html", "junit", "earl"])
def test_no_start_time_is_written(fmt: str) -> None:
    rendered = b"".join(_files(reproducible(sample_report()), fmt).values()).decode("utf-8")
    assert "2025-01-02" not in rendered
    assert "12.5" not in rendered


def test_a_timestamp_that_is_not_one_is_still_refused() -> None:
    text = to_json(sample_report()).replace("2025-01-02T03:04:05+00:00", "yesterday")
    with pytest.raises(StandingFormatError):
        from_json(text)
