"""Markdown, HTML, badges and Allure from the sample report, and the writer."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from markdown_it import MarkdownIt

from conformance.report import (
    ALL_FORMATS,
    FamilyTally,
    RenderOptions,
    StandingCounts,
    StandingReport,
    render,
    write_reports,
)
from conformance.report._badge import badge_color
from conformance.report._html import CONTENT_SECURITY_POLICY, standing_html
from conformance.report._markdown import standing_markdown
from tests.report.sample import EVIDENCE_FILES, sample_report, write_evidence
from tests.report.strategies import reports


def test_markdown_page_has_heading_table_clauses_and_evidence_links() -> None:
    text = standing_markdown(sample_report())
    assert text.startswith("# RT-TOOL standing: toy-runtime 2.3.0\n")
    assert "Checked by rttool 0.1.0" in text
    assert "| RT-TOOL-7 | A pause does not destroy artifacts" in text
    assert "| ❌ does-not-conform |" in text
    assert "**RT-TOOL-7 ¶4** ❌ does-not-conform (1 passed, 1 failed)" in text
    assert "[trace](<evidence/RT-TOOL-7/c4/trace.json>)" in text
    assert "[counterexample](<evidence/RT-TOOL-7/c4/counterexample.json>)" in text
    assert "untested: needs capability restart" in text
    assert "not-applicable: profile durable-resume not claimed" in text
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert '<a href="evidence/RT-TOOL-7/c4/trace.json">trace</a>' in html
    assert html.count("<table>") == 2


def test_markdown_links_evidence_through_the_prefix() -> None:
    text = standing_markdown(sample_report(), RenderOptions(link_prefix="../run"))
    assert "[trace](<../run/evidence/RT-TOOL-7/c4/trace.json>)" in text


def test_html_is_self_contained_with_a_strict_policy() -> None:
    page = standing_html(sample_report())
    assert f'content="{CONTENT_SECURITY_POLICY}"' in page
    assert "default-src 'none'" in CONTENT_SECURITY_POLICY
    assert re.search(r"script-src 'sha256-[A-Za-z0-9+/=]+';", CONTENT_SECURITY_POLICY)
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert page.count("<script>") == 1
    assert not re.search(r"<(?:link|img|iframe|object|embed)\b", page)
    assert not re.search(r"\bsrc\s*=", page)
    assert not re.search(r"url\(\s*['\"]?https?:", page)
    # Anchors to the implementation's homepage and rule sources are the only http(s) URLs.
    for url in re.findall(r"https?://[^\"'<\s]+", page):
        assert url.startswith(
            (
                "https://toy.example/",
                "https://flowdrop.example/",
                "http://127",
                "https://github.com/rttool/rttool/blob/main/docs/interpretations.md#",
            )
        )


def test_html_marks_every_filterable_item_with_its_standing() -> None:
    report = sample_report()
    page = standing_html(report)
    standings = re.findall(r'<(?:tr|section|div)\b[^>]*\sdata-standing="([a-z-]+)"', page)
    rules = [rule.standing for rule in report.rules]
    clauses = [clause.standing for rule in report.rules for clause in rule.clauses]
    assert sorted(standings) == sorted(rules * 2 + clauses)
    assert '<nav id="filters" aria-label="Filter by standing" hidden>' in page
    for standing in ("conforms", "does-not-conform", "untested", "not-applicable", "error"):
        assert f'data-filter value="{standing}" checked' in page


@pytest.mark.parametrize(
    ("conforming", "applicable", "colour"),
    [
        (10, 10, "brightgreen"),
        (9, 10, "green"),
        (8, 10, "yellowgreen"),
        (5, 10, "yellow"),
        (3, 10, "orange"),
        (1, 10, "red"),
        (0, 0, "lightgrey"),
    ],
)
def test_badge_colour_by_ratio(conforming: int, applicable: int, colour: str) -> None:
    tally = FamilyTally(
        family="RT-TOOL", conforming=conforming, applicable=applicable, counts=StandingCounts()
    )
    assert badge_color(tally) == colour


def test_badges_per_family() -> None:
    files = {item.path: item.content for item in render(sample_report(), "badge").files}
    assert set(files) == {"badge.svg", "badge.json", "badge-DR.svg", "badge-DR.json"}
    assert json.loads(files["badge.json"]) == {
        "schemaVersion": 1,
        "label": "RT-TOOL",
        "message": "1/4",
        "color": "orange",
    }
    assert json.loads(files["badge-DR.json"])["message"] == "1/2"
    assert b"RT-TOOL: 1/4" in files["badge.svg"]


def test_badge_without_rt_tool_rules_says_not_applicable() -> None:
    report = sample_report()
    only_dr = replace(report, rules=tuple(rule for rule in report.rules if rule.family == "DR"))
    files = {item.path: item.content for item in render(only_dr, "badge").files}
    assert json.loads(files["badge.json"])["message"] == "n/a"
    assert json.loads(files["badge.json"])["color"] == "lightgrey"


def _allure_results(directory: Path) -> list[dict[str, object]]:
    return [
        json.loads(path.read_text("utf-8"))
        for path in sorted((directory / "allure-results").glob("*-result.json"))
    ]


def _label(result: dict[str, object], name: str) -> list[str]:
    return [
        label["value"]
        for label in result["labels"]  # type: ignore[attr-defined]
        if label["name"] == name
    ]


def test_allure_results_labels_links_and_attachments(tmp_path: Path) -> None:
    write_evidence(tmp_path)
    write_reports(sample_report(), tmp_path, ["allure"])
    results = {result["name"]: result for result in _allure_results(tmp_path)}
    assert len(results) == 14
    failing = results["held-artifacts-survive-failed-write-back"]
    assert failing["status"] == "failed"
    assert _label(failing, "epic") == ["RT-TOOL"]
    assert _label(failing, "feature")[0].startswith("RT-TOOL-7")
    assert _label(failing, "story") == ["RT-TOOL-7 ¶4"]
    assert _label(failing, "severity") == ["normal"]
    assert failing["links"] == [
        {
            "name": "RT-TOOL-7",
            "type": "link",
            "url": "https://flowdrop.example/spec/rules/RT-TOOL-7",
        }
    ]
    assert {"name": "clause", "value": "RT-TOOL-7#c4"} in failing["parameters"]  # type: ignore[operator]
    assert failing["statusDetails"]["message"].startswith("2 held artifacts")  # type: ignore[index]
    attachments = failing["attachments"]
    assert [item["name"] for item in attachments] == ["counterexample", "scenario", "trace"]  # type: ignore[attr-defined]
    for item in attachments:  # type: ignore[attr-defined]
        copied = tmp_path / "allure-results" / item["source"]
        assert copied.read_text("utf-8") in EVIDENCE_FILES.values()
    assert results["repeat-re-emits-stored-result"]["status"] == "broken"
    assert _label(results["journal-read"], "severity") == ["critical"]
    assert _label(results["lifted"], "severity") == ["minor"]
    assert results["DR-3#c1 has no checks"]["status"] == "skipped"


def test_allure_attaches_only_existing_evidence(tmp_path: Path) -> None:
    write_reports(sample_report(), tmp_path, ["allure"])  # no evidence files written
    failing = next(
        result
        for result in _allure_results(tmp_path)
        if result["name"] == "held-artifacts-survive-failed-write-back"
    )
    assert "attachments" not in failing
    assert not list((tmp_path / "allure-results").glob("*-attachment.*"))


def test_allure_uuids_are_deterministic_and_old_results_are_cleared(tmp_path: Path) -> None:
    write_reports(sample_report(), tmp_path, ["allure"])
    first = sorted(path.name for path in (tmp_path / "allure-results").iterdir())
    later = replace(
        sample_report(), run=replace(sample_report().run, started_at="2025-02-01T00:00:00+00:00")
    )
    (tmp_path / "allure-results" / "keep.txt").write_text("not ours", encoding="utf-8")
    write_reports(later, tmp_path, ["allure"])
    second = sorted(path.name for path in (tmp_path / "allure-results").iterdir())
    assert "keep.txt" in second
    assert len(second) == len(first) + 1
    assert set(first) & set(second) == {"categories.json", "environment.properties"}


def test_writer_refuses_evidence_outside_the_report_directory(tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text("{}", encoding="utf-8")
    report_dir = tmp_path / "report"
    report = sample_report()
    rt7 = report.rules[2]
    check = rt7.clauses[2].checks[1]
    sneaky = replace(
        check, evidence=replace(check.evidence, trace="../secret.json", scenario=str(secret))
    )
    clause = replace(rt7.clauses[2], checks=(rt7.clauses[2].checks[0], sneaky))
    report = replace(
        report,
        rules=(
            *report.rules[:2],
            replace(rt7, clauses=(*rt7.clauses[:2], clause)),
            *report.rules[3:],
        ),
    )
    written = write_reports(report, report_dir)
    assert not [path for path in written if "attachment" in path.name]
    page = (report_dir / "STANDING.md").read_text("utf-8")
    assert "](<../secret.json>)" not in page
    assert "trace: ../secret.json" in page


def test_writer_links_evidence_from_another_output_directory(tmp_path: Path) -> None:
    write_evidence(tmp_path / "run")
    write_reports(
        sample_report(), tmp_path / "site", ["markdown", "allure"], evidence_root=tmp_path / "run"
    )
    page = (tmp_path / "site" / "STANDING.md").read_text("utf-8")
    assert "[trace](<../run/evidence/RT-TOOL-7/c4/trace.json>)" in page
    assert list((tmp_path / "site" / "allure-results").glob("*-attachment.json"))


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    from adapters.errors import RttoolError

    with pytest.raises(RttoolError, match="unknown report format"):
        write_reports(sample_report(), tmp_path, ["pdf"])
    with pytest.raises(RttoolError, match="unknown report format"):
        render(sample_report(), "pdf")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports())
def test_every_format_renders_any_model(report: StandingReport) -> None:
    for fmt in ALL_FORMATS:
        rendered = render(report, fmt)
        assert rendered.files
        for item in rendered.files:
            assert item.content
            if item.path.endswith((".json", ".jsonld")):
                json.loads(item.content)
