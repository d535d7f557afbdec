"""The matrix as a picture: implementations by clauses, coloured, linked, escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from conformance.matrix import build_matrix, matrix_svg, svg_link
from conformance.report import StandingReport, write_reports
from tests.report.sample import HOSTILE, hostile_report, sample_report

_SVG = "{http://www.w3.org/2000/svg}"


def _folder(path: Path, report: StandingReport) -> Path:
    write_reports(report, path, ("json", "markdown"))
    return path


def _cells(picture: str) -> list[tuple[str, str, str | None]]:
    """Each cell: its fill, its hover text and the link it leads to (if any)."""
    root = ET.fromstring(picture)
    found = []
    for group in root.iter():
        if group.tag not in (f"{_SVG}a", f"{_SVG}g") or group.find(f"{_SVG}title") is None:
            continue
        rect = group.find(f"{_SVG}rect")
        title = group.find(f"{_SVG}title")
        assert rect is not None and title is not None
        found.append((rect.get("fill", ""), title.text or "", group.get("href")))
    return found


def test_one_row_per_implementation_and_one_cell_per_clause(tmp_path: Path) -> None:
    folders = [_folder(tmp_path / n, sample_report()) for n in ("one", "two")]
    matrix = build_matrix(folders)
    picture = matrix_svg(matrix, svg_link(tmp_path), title="Ours")
    clauses = [row for row in matrix.rows if row.clause is not None]
    cells = _cells(picture)
    assert len(cells) == 2 * len(clauses)
    failing = [cell for cell in cells if "RT-TOOL-7#c4: does-not-conform" in cell[1]]
    assert len(failing) == 2 and {fill for fill, _, _ in failing} == {"#c62828"}
    untested = [cell for cell in cells if "RT-TOOL-5#c1: untested" in cell[1]]
    assert {fill for fill, _, _ in untested} == {"url(#hatched)"}  # never a failure's colour
    pages = ("one/STANDING.md#", "two/STANDING.md#")
    assert all(href and href.startswith(pages) for *_, href in cells)


def test_every_string_from_a_report_is_escaped(tmp_path: Path) -> None:
    matrix = build_matrix([_folder(tmp_path / "evil", hostile_report())])
    picture = matrix_svg(matrix, svg_link(tmp_path), title=HOSTILE[0])
    root = ET.fromstring(picture)  # well-formed: nothing broke out of a text or attribute
    tags = {element.tag.removeprefix(_SVG) for element in root.iter()}
    assert tags <= {"svg", "title", "defs", "pattern", "rect", "line", "g", "text", "a"}
    assert not [key for e in root.iter() for key in e.attrib if key.lower().startswith("on")]
    assert all(not (a.get("href") or "").startswith("javascript") for a in root.iter(f"{_SVG}a"))
    assert root.findtext(f"{_SVG}title") == HOSTILE[0]


def test_the_dashboard_inlines_the_picture_linked_to_report_html_clauses(tmp_path: Path) -> None:
    from conformance.matrix import matrix_html
    from tests.report.htmlscan import scan_html

    folder = tmp_path / "sample"
    write_reports(sample_report(), folder, ("json", "html"))
    page = matrix_html(build_matrix([folder]), tmp_path, title="Ours")
    hrefs = [a["href"] for a in scan_html(page).tags("a")]
    assert "sample/report.html#RT-TOOL-7-c4" in hrefs
    assert 'id="RT-TOOL-7-c4"' in (folder / "report.html").read_text("utf-8")
