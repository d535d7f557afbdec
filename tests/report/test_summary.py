"""The GitHub step summary and appending it to $GITHUB_STEP_SUMMARY."""

from __future__ import annotations

from pathlib import Path

from conformance.report import append_step_summary, gate, github_step_summary, parse_expectations
from tests.report.sample import sample_report


def test_summary_of_a_failing_gate() -> None:
    report = sample_report()
    text = github_step_summary(report, gate(report))
    assert text.startswith("## rttool: toy-runtime 2.3.0: gate ❌ failed\n")
    assert "| RT-TOOL | 1/4 | 1 | 1 | 1 | 0 | 1 |" in text
    assert "| DR | 1/2 | 1 | 0 | 1 | 1 | 0 |" in text
    assert "### Unexpected failures (2)" in text
    assert "RT\\-TOOL" not in text  # hyphens need no escaping mid-line
    assert "Errors: 1 implementation fault(s), 0 suite fault(s)." in text


def test_summary_of_a_passing_gate() -> None:
    report = sample_report()
    expectations = parse_expectations(
        "expectations:\n  - rule: RT-TOOL-7\n    reason: a\n  - rule: RT-TOOL-9\n    reason: b\n",
        source="exp.yaml",
    )
    text = github_step_summary(report, gate(report, None, expectations))
    assert "gate ✅ passed" in text
    assert "### Expected failures (2)" in text
    assert "Unexpected" not in text


def test_append_only_when_the_variable_is_set(tmp_path: Path) -> None:
    target = tmp_path / "summary.md"
    assert append_step_summary("# one", {}) is None
    assert not target.exists()
    assert append_step_summary("# one", {"GITHUB_STEP_SUMMARY": str(target)}) == target
    append_step_summary("# two\n", {"GITHUB_STEP_SUMMARY": str(target)})
    assert target.read_text("utf-8") == "# one\n# two\n"
