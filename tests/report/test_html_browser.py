"""report.html in a real headless Chromium: its own script runs, injected markup never does,
and a failing check's timeline opens from a link and highlights the step its failure names.

Skipped, saying why, only when no Chromium binary is installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conformance._escape import xml_text
from conformance.report import write_reports
from tests._tiers import slow_only
from tests.report.chromium import Browser, read_back, timeline_shot
from tests.report.htmlscan import Scan, scan_html
from tests.report.sample import HOSTILE, hostile_report, sample_report, write_evidence

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _dump_dom(page: Path, profile: Path, fragment: str = "") -> Scan:
    slow_only("the browser")
    if CHROMIUM is None:
        pytest.skip(
            "no chromium or chromium-browser binary on PATH; install Chromium to run "
            "the browser test"
        )
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--dump-dom",
        page.resolve().as_uri() + fragment,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "<body" in done.stdout, done.stderr[-2000:]
    return scan_html(done.stdout)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("html")
    write_reports(hostile_report(), directory, ["html"])
    return directory / "report.html"


def test_own_script_runs_and_injected_markup_does_not(page: Path, tmp_path: Path) -> None:
    dom = _dump_dom(page, tmp_path / "profile")
    body = dom.tags("body")
    assert body and body[0].get("data-ready") == "1"  # the page's own script ran
    assert "data-pwned" not in dom.attribute_names()  # no injected script or handler ran
    assert dom.handlers() == []
    assert len(dom.tags("script")) == 1
    assert not dom.tags("img")
    assert not dom.tags("svg")
    for attrs in dom.tags("a"):
        assert not attrs.get("href", "").lower().startswith("javascript:")
    text = dom.joined_text()
    for payload in HOSTILE:
        assert xml_text(payload) in text  # the injected text is shown, as text
    for rule in hostile_report().rules:
        assert rule.id in text
    filters = [attrs for attrs in dom.tags("nav") if attrs.get("id") == "filters"]
    assert filters and "hidden" not in filters[0]  # the script revealed the filter bar


def test_filtering_by_standing_hides_other_rows(page: Path, tmp_path: Path) -> None:
    dom = _dump_dom(page, tmp_path / "profile", "#show=does-not-conform,error")
    rows = [
        attrs
        for tag, attrs in dom.elements
        if tag in ("tr", "section", "div") and "data-standing" in attrs
    ]
    assert rows
    for attrs in rows:
        shown = attrs["data-standing"] in ("does-not-conform", "error")
        assert ("hidden" not in attrs) is shown, attrs
    assert {attrs["data-standing"] for attrs in rows} > {"does-not-conform", "error"}


def test_a_timeline_opens_from_its_link_and_highlights_the_step_the_failure_names(
    tmp_path: Path,
) -> None:
    slow_only("the browser")
    if CHROMIUM is None:
        pytest.skip(
            "no chromium or chromium-browser binary on PATH; install Chromium to run "
            "the browser test"
        )
    folder = tmp_path / "report"
    write_evidence(folder)
    report = sample_report()
    write_reports(report, folder, ["html"])
    failing = next(check for _, _, check in report.checks() if check.evidence.trace)
    named = [int(f.pointer.split("/")[2]) for f in failing.failures if f.pointer]
    with Browser(tmp_path / "profile") as browser:
        browser.open((folder / "report.html").as_uri() + "#timeline-1")
        shown = read_back(browser, "timeline-1")
        picture = timeline_shot(browser, "timeline-1")
    assert shown["open"] is True  # the link's fragment opened the collapsed timeline
    hits = shown["hits"]
    assert isinstance(hits, list)
    # each failure highlighted on the step its pointer names, its message beside it
    assert [int(hit["step"]) for hit in hits] == sorted(named)
    assert [int(step) for step in shown["marked"]] == sorted(named)  # type: ignore[union-attr]
    ordered = sorted(failing.failures, key=lambda f: str(f.pointer))
    for hit, failure in zip(hits, ordered, strict=True):
        assert hit["shown"] and hit["outline"] == "solid", hit  # drawn, and styled
        assert failure.message in hit["flag"]
    assert picture.startswith(b"\x89PNG") and len(picture) > 10_000
