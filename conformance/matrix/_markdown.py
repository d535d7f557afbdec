"""The matrix as a Markdown page: a summary table, then rules and clauses by implementation.

Every cell links to the implementation's own ``STANDING.md``, at the heading of the
rule.  Every string from a report is escaped (:func:`conformance._escape.markdown`);
link destinations are built from folder names and anchors of word characters only.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conformance._escape import code_spans, markdown
from conformance.matrix._build import Column, Matrix, Row
from conformance.matrix._cells import ABSENT, LEGEND, cell, standing_page_anchor, summary_rows
from conformance.report import STANDING_SYMBOLS

__all__ = ["DEFAULT_TITLE", "SVG_FILE", "matrix_markdown", "svg_link"]

DEFAULT_TITLE = "Conformance matrix"
_PAGE = "STANDING.md"
#: The picture of the matrix, written beside the page and shown at its top.
SVG_FILE = "matrix.svg"


def svg_link(out: Path) -> Callable[[Column, Row], str | None]:
    """Where a cell of ``matrix.svg`` leads: the rule's heading in the implementation's
    ``STANDING.md``, as the page's own cells do (a README shows the picture beside it)."""

    def link(column: Column, row: Row) -> str | None:
        return column.link(out, _PAGE, standing_page_anchor(column, row))

    return link


def _link(label: str, url: str | None, title: str = "") -> str:
    """``[label](<url> "title")``; ``label`` is Markdown already, ``title`` plain text."""
    if url is None:
        return label
    quoted = f' "{markdown(title).replace(chr(34), "&quot;")}"' if title else ""
    return f"[{label}](<{url}>{quoted})"


def _prose(text: str) -> str:
    return "".join(
        f"`{part}`" if is_code and "`" not in part else markdown(part)
        for part, is_code in code_spans(text)
    )


def _header(matrix: Matrix, out: Path, first: str) -> list[str]:
    names = [_link(markdown(c.label), c.link(out, _PAGE)) for c in matrix.columns]
    return [
        f"| {first} | " + " | ".join(names) + " |",
        "| --- |" + " :---: |" * len(matrix.columns),
    ]


def _row_label(row: Row) -> str:
    if row.clause is None:
        return f"**{markdown(row.rule.id)}** {markdown(row.rule.title)}"
    return markdown(row.clause.citation)


def _cell(matrix: Matrix, column: Column, row: Row, out: Path) -> str:
    found = cell(matrix, column, row)
    if found.standing is None:
        return ABSENT
    url = column.link(out, _PAGE, standing_page_anchor(column, row))
    return _link(found.symbol, url, found.detail)


def matrix_markdown(
    matrix: Matrix, out: Path, *, title: str = DEFAULT_TITLE, intro: str = ""
) -> str:
    """The Markdown page of ``matrix``, with links relative to the directory ``out``;
    ``intro`` is a paragraph of plain text (its `code spans` shown as code) after the
    heading."""
    suites = sorted({f"{c.report.suite.name} {c.report.suite.version}" for c in matrix.columns})
    lines = [f"# {markdown(title, line_start=True)}", ""]
    if intro:
        lines += [_prose(intro), ""]
    lines += [
        f"{len(matrix.columns)} implementation{'s' * (len(matrix.columns) != 1)} compared "
        "rule by rule and clause by clause, as "
        + ", ".join(markdown(suite) for suite in suites)
        + " found them. Each cell links to that implementation's own report.",
        "",
        " · ".join(f"{STANDING_SYMBOLS[s]} {words}" for s, words in LEGEND)
        + f" · {ABSENT} not in that report",
        "",
        f"[![{markdown(title)}: implementations by clauses]({SVG_FILE})]({SVG_FILE})",
        "",
        "## Summary",
        "",
        *_header(matrix, out, ""),
    ]
    for label, values in summary_rows(matrix):
        lines.append(f"| {markdown(label)} | " + " | ".join(map(markdown, values)) + " |")
    lines += ["", "## Rules and clauses", "", *_header(matrix, out, "Rule / clause")]
    for row in matrix.rows:
        cells = [_cell(matrix, column, row, out) for column in matrix.columns]
        lines.append(f"| {_row_label(row)} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Made by `rttool report matrix`; every standing is the one its report records.",
        "",
    ]
    return "\n".join(lines)
