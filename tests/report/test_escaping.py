"""A hostile string from an implementation survives as text, never as markup, everywhere."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from conformance._escape import (
    evidence_href,
    http_url,
    markdown,
    printable,
    safe_relative_path,
    xml_text,
)
from conformance.report import gate, github_step_summary, render, write_reports
from tests.report.htmlscan import Scan, scan_html
from tests.report.sample import HOSTILE, hostile_report

LIVE_TAGS = {"script", "img", "svg", "iframe", "object", "embed", "b"}
SHOWN = [xml_text(text) for text in HOSTILE]


def _assert_inert(scan: Scan, *, own_scripts: int = 0) -> None:
    assert len(scan.tags("script")) == own_scripts
    assert not [tag for tag, _ in scan.elements if tag in LIVE_TAGS - {"script"}]
    assert scan.handlers() == []
    assert "data-pwned" not in scan.attribute_names()
    for attrs in scan.tags("a"):
        assert not attrs.get("href", "").lower().startswith("javascript:")
    text = scan.joined_text()
    for shown in SHOWN:
        assert shown in text, shown


def _markdown_html(text: str) -> str:
    # The commonmark preset passes raw HTML through, as GitHub's renderer would before
    # sanitising: anything unescaped would show up as a live element here.
    return MarkdownIt("commonmark").enable("table").render(text)


def test_markdown() -> None:
    text = render(hostile_report(), "markdown").files[0].content.decode()
    html = _markdown_html(text)
    _assert_inert(scan_html(html))
    rules_table = html.split("<table>")[2].split("</table>")[0]
    rows = rules_table.split("<tr>")[1:]
    assert len(rows) == 1 + len(hostile_report().rules)
    assert all(row.count("<td") + row.count("<th") == 4 for row in rows)  # no pipe split a cell


def test_html() -> None:
    page = render(hostile_report(), "html").files[0].content.decode()
    _assert_inert(scan_html(page), own_scripts=1)
    assert "javascript:" not in {attrs.get("href") for attrs in scan_html(page).tags("a")}


def test_junit() -> None:
    root = ET.fromstring(render(hostile_report(), "junit").files[0].content)
    names = [case.get("name") for case in root.iter("testcase")]
    messages = [failure.get("message") for failure in root.iter("failure")]
    for shown in SHOWN:
        assert any(shown in (name or "") for name in names)
        assert any(shown in (message or "") for message in messages)
    assert xml_text(HOSTILE[0]) in (root.get("name") or "")


def test_allure(tmp_path: Path) -> None:
    write_reports(hostile_report(), tmp_path, ["allure"])
    results = [
        json.loads(path.read_text("utf-8"))
        for path in (tmp_path / "allure-results").glob("*-result.json")
    ]
    messages = [result["statusDetails"].get("message") for result in results]
    for text in HOSTILE:
        assert any(text in (message or "") for message in messages)
    for result in results:
        assert "<script" not in result.get("descriptionHtml", "")
        for link in result.get("links", []):
            assert link["url"].startswith("https://")
    # The only evidence files named are hostile strings and ../../etc/passwd: none is copied.
    assert not list((tmp_path / "allure-results").glob("*-attachment.*"))
    environment = (tmp_path / "allure-results" / "environment.properties").read_bytes()
    environment.decode("ascii")
    assert len(environment.splitlines()) == 7


def test_earl() -> None:
    document = json.loads(render(hostile_report(), "earl").files[0].content)
    subject = document["@graph"][0]
    assert subject["doap:name"] == f"evil {HOSTILE[0]}"
    assert "doap:homepage" not in subject  # a javascript: homepage is never an IRI
    infos = " ".join(
        node["earl:result"]["earl:info"]
        for node in document["@graph"]
        if node.get("@type") == "earl:Assertion"
    )
    for text in HOSTILE:
        assert text in infos


def test_badge_with_a_hostile_family() -> None:
    report = hostile_report()
    rules = (replace(report.rules[0], family=HOSTILE[2]),)
    files = render(replace(report, rules=rules), "badge").files
    svg = next(item for item in files if item.path.endswith(".svg") and item.path != "badge.svg")
    root = ET.fromstring(svg.content)
    assert root.find("{http://www.w3.org/2000/svg}title") is not None
    texts = [node.text for node in root.iter("{http://www.w3.org/2000/svg}text")]
    assert xml_text(HOSTILE[2]) in texts
    assert "/" not in svg.path.removeprefix("badge-")
    badge = json.loads(next(item for item in files if item.path == svg.path[:-3] + "json").content)
    assert badge["label"] == HOSTILE[2]


def test_step_summary() -> None:
    report = hostile_report()
    text = github_step_summary(report, gate(report))
    scan = scan_html(_markdown_html(text))
    assert not scan.tags("script")
    assert scan.handlers() == []


@pytest.mark.parametrize(
    ("path", "safe"),
    [
        ("evidence/a/trace.json", True),
        ("trace.json", True),
        ("", False),
        ("/etc/passwd", False),
        ("../secret", False),
        ("a/../../b", False),
        ("a//b", False),
        ("./a", False),
        ("javascript:alert(1)", False),
        ("C:\\x", False),
        ("a\\b", False),
        ("a\nb", False),
    ],
)
def test_safe_relative_path(path: str, safe: bool) -> None:
    assert safe_relative_path(path) is safe


def test_hrefs_are_percent_encoded() -> None:
    assert evidence_href('a b/"q"<x>(y).json') == "a%20b/%22q%22%3Cx%3E%28y%29.json"
    assert evidence_href("x.json", "../run") == "../run/x.json"
    assert evidence_href("../x") is None
    assert http_url("javascript:alert(1)") is None
    assert http_url("https://ok.example/a b") is None
    assert http_url('https://ok.example/a"b') == "https://ok.example/a%22b"
    assert http_url("https://ok.example/(x)") == "https://ok.example/%28x%29"
    assert http_url("ftp://x.example/") is None


def test_markdown_escaping_leaves_no_syntax() -> None:
    html = _markdown_html(markdown("*a* _b_ `c` [d](e) ![f](g) <i>h</i> &amp; ~~s~~ a|b"))
    assert html.strip() == (
        "<p>*a* _b_ `c` [d](e) ![f](g) &lt;i&gt;h&lt;/i&gt; &amp;amp; ~~s~~ a|b</p>"
    )
    assert _markdown_html(markdown("# not a heading", line_start=True)).startswith("<p>")
    assert _markdown_html(markdown("1. not a list", line_start=True)).startswith("<p>")


def test_terminal_output_shows_control_characters() -> None:
    assert printable("a\x1b[31mb\x07") == "a\\x1b[31mb\\x07"
