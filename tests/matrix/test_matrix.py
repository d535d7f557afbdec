"""``rttool report matrix``: implementations side by side, escaped, linked, one-line errors."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from conformance._escape import xml_text
from conformance.cli import main
from conformance.matrix import (
    HTML_FILE,
    MARKDOWN_FILE,
    SVG_FILE,
    build_matrix,
    heading_anchor,
    matrix_html,
    matrix_markdown,
)
from conformance.matrix._html import CONTENT_SECURITY_POLICY, STYLE
from conformance.report import StandingReport, render, to_json, write_reports
from tests.report.htmlscan import scan_html
from tests.report.sample import HOSTILE, hostile_report, sample_report


def _publish(folder: Path, report: StandingReport, *formats: str) -> Path:
    write_reports(report, folder, ("json", "markdown", *formats))
    return folder


def _smaller(report: StandingReport) -> StandingReport:
    """Another implementation: RT-TOOL-7 missing, RT-TOOL-1 failing outright."""
    rules = [rule for rule in report.rules if rule.id != "RT-TOOL-7"]
    first = rules[0]
    failed = replace(first.clauses[0].checks[0], outcome="failed", message="no result")
    rules[0] = replace(first, clauses=(replace(first.clauses[0], checks=(failed,)),))
    impl = replace(report.implementation, name="other-runtime", version="2.0")
    return replace(report, implementation=impl, rules=tuple(rules))


@pytest.fixture
def two(tmp_path: Path) -> list[Path]:
    return [
        _publish(tmp_path / "reports" / "sample", sample_report(), "html"),
        _publish(tmp_path / "reports" / "other", _smaller(sample_report())),
    ]


def _markdown_cells(text: str, row_start: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.startswith(f"| {row_start}"))
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[2:-1]]


def test_rows_are_rules_then_their_clauses_with_a_column_per_implementation(
    two: list[Path],
) -> None:
    matrix = build_matrix(two)
    assert [column.label for column in matrix.columns] == ["toy-runtime 2.3.0", "other-runtime 2.0"]
    rule_ids = [row.rule.id for row in matrix.rows if row.clause is None]
    assert rule_ids == [rule.id for rule in sample_report().rules]
    rt1 = [row.id for row in matrix.rows if row.rule.id == "RT-TOOL-1"]
    assert rt1 == ["RT-TOOL-1", "RT-TOOL-1#c1", "RT-TOOL-1#c2", "RT-TOOL-1#c3"]


def test_untested_failed_and_absent_are_told_apart(two: list[Path]) -> None:
    out = two[0].parent
    text = matrix_markdown(build_matrix(two), out)
    assert _markdown_cells(text, "**RT-TOOL-1**")[1].startswith("[❌]")  # failed
    assert _markdown_cells(text, "**RT-TOOL-5**")[0].startswith("[❔]")  # untested
    assert _markdown_cells(text, "**RT-TOOL-7**")[1] == "—"  # not in that report
    assert _markdown_cells(text, "**RT-TOOL-9**")[0].startswith("[⚠️]")  # error
    assert _markdown_cells(text, "**DR-2**")[0].startswith("[➖]")  # not applicable
    # Counted apart: RT-TOOL-7 fails in one, RT-TOOL-1 in the other; two untested in each.
    assert _markdown_cells(text, "❌ rules") == ["1", "1"]
    assert _markdown_cells(text, "❔ rules") == ["2", "2"]
    page = matrix_html(build_matrix(two), out, title="t")
    classes = {attrs.get("class") for attrs in scan_html(page).tags("td")}
    assert {"cell s-untested", "cell s-does-not-conform", "cell absent"} <= classes


def test_cells_link_to_each_implementations_own_report(two: list[Path]) -> None:
    out = two[0].parent
    matrix = build_matrix(two)
    text = matrix_markdown(matrix, out)
    links = re.findall(r"\]\(<([^>]*)>", text)
    assert "sample/STANDING.md" in links and "other/STANDING.md" in links
    anchor = heading_anchor(f"RT-TOOL-7: {sample_report().rules[2].title}")
    assert f"sample/STANDING.md#{anchor}" in links
    # The anchor is the one a Markdown host gives the rule's heading in STANDING.md.
    page = (two[0] / "STANDING.md").read_text("utf-8")
    rendered = MarkdownIt("commonmark").render(page)
    headings = [scan_html(h).joined_text() for h in re.findall(r"<h2>.*?</h2>", rendered)]
    assert anchor in [heading_anchor(h) for h in headings]
    # In HTML a cell leads to report.html where it exists (sample), else to STANDING.md.
    hrefs = [a["href"] for a in scan_html(matrix_html(matrix, out, title="t")).tags("a")]
    assert "sample/report.html#rule-3" in hrefs
    assert any(href.startswith("other/STANDING.md#") for href in hrefs)
    assert not any(href.startswith("other/report.html") for href in hrefs)


def test_every_string_from_a_report_is_escaped(tmp_path: Path) -> None:
    folder = _publish(tmp_path / "evil", hostile_report())
    matrix = build_matrix([folder])
    html = MarkdownIt("commonmark").enable("table").render(matrix_markdown(matrix, tmp_path))
    dashboard = matrix_html(matrix, tmp_path, title=HOSTILE[0], intro=HOSTILE[1])
    for page, pictures in ((html, 0), (dashboard, 1)):
        scan = scan_html(page)
        assert scan.tags("script") == []
        # the grid's own picture, nothing injected: an image in Markdown, inline in HTML
        assert [img["src"] for img in scan.tags("img")] == ["matrix.svg"] * (1 - pictures)
        assert len(scan.tags("svg")) == pictures
        assert scan.handlers() == []
        assert not any(a.get("href", "").startswith("javascript") for a in scan.tags("a"))
        assert xml_text(HOSTILE[0]).split(">")[0] in scan.joined_text()
    # A pipe from a report never splits a Markdown table cell.
    rows = html.split("<table>")[2].split("<tbody>")[1].split("<tr>")[1:]
    assert all(row.count("<td") + row.count("<th") == 2 for row in rows)


def test_the_html_page_is_self_contained(two: list[Path]) -> None:
    page = matrix_html(build_matrix(two), two[0].parent, title="Matrix")
    scan = scan_html(page)
    assert scan.tags("script") == [] and scan.tags("link") == []
    assert all(not a["href"].startswith(("http:", "https:", "//")) for a in scan.tags("a"))
    assert CONTENT_SECURITY_POLICY in page and f"<style>{STYLE}</style>" in page
    assert "default-src 'none'" in CONTENT_SECURITY_POLICY


def test_two_runs_of_one_implementation_get_their_folder_in_the_label(tmp_path: Path) -> None:
    folders = [_publish(tmp_path / name, sample_report()) for name in ("before", "after")]
    labels = [column.label for column in build_matrix(folders).columns]
    assert labels[0].endswith("(before)") and labels[1].endswith("(after)")


def test_the_command_writes_the_two_pages_their_picture_and_nothing_else(
    two: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site"
    code = main(["report", "matrix", *map(str, two), "--out", str(out), "--title", "Ours"])
    assert code == 0
    written = sorted(path.name for path in out.iterdir())
    assert written == sorted([HTML_FILE, MARKDOWN_FILE, SVG_FILE])
    assert (out / MARKDOWN_FILE).read_text("utf-8").startswith("# Ours\n")
    assert "compared 2 implementations" in capsys.readouterr().out


def _refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["report", "matrix", *args]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    return err


def test_a_folder_without_a_standing_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _refused([str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")], capsys)
    assert "nowhere" in err and "standing.json" in err
    assert not (tmp_path / "o").exists()


def test_a_broken_standing_is_refused_with_its_pointer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(to_json(sample_report()))
    data["rules"][0]["standing"] = "conforms-ish"
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "standing.json").write_text(json.dumps(data), "utf-8")
    err = _refused([str(tmp_path / "bad"), "--out", str(tmp_path / "o")], capsys)
    assert "pointer=/rules/0/standing" in err


def test_absurd_nesting_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    _refused([str(tmp_path / "deep.json"), "--out", str(tmp_path / "o")], capsys)


def test_a_report_too_large_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("conformance.matrix._build.MAX_STANDING_BYTES", 100)
    folder = _publish(tmp_path / "big", sample_report())
    assert "too large" in _refused([str(folder), "--out", str(tmp_path / "o")], capsys)


def test_one_report_named_twice_is_refused(
    two: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twice = [str(two[0]), str(two[0] / "standing.json")]
    assert "named twice" in _refused([*twice, "--out", str(tmp_path / "o")], capsys)


def test_the_markdown_renders_a_well_formed_table(two: list[Path]) -> None:
    text = matrix_markdown(build_matrix(two), two[0].parent)
    html = MarkdownIt("commonmark").enable("table").render(text)
    body = html.split("<table>")[2]
    rows = body.split("<tr>")[1:]
    assert len(rows) == 1 + len(build_matrix(two).rows)
    assert all(row.count("<td") + row.count("<th") == 3 for row in rows)
    assert render(sample_report(), "markdown").files  # the linked pages exist beside
