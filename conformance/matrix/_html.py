"""The matrix as one self-contained HTML page, a conformance dashboard.

No script at all, and nothing loaded from anywhere: the stylesheet is an inline
constant that the page's Content-Security-Policy allows by hash.  Every string from a
report goes through ``html.escape(..., quote=True)``.  A cell links to the
implementation's ``report.html`` at the rule's section when that page sits beside its
``standing.json``, else to the rule's heading in its ``STANDING.md``.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Callable
from pathlib import Path

from conformance._escape import code_spans, xml_text
from conformance.matrix._build import Column, Matrix, Row
from conformance.matrix._cells import (
    ABSENT,
    LEGEND,
    WORDS,
    cell,
    standing_page_anchor,
    summary_rows,
)
from conformance.matrix._svg import matrix_svg
from conformance.report import STANDING_SYMBOLS, clause_anchor

__all__ = ["CONTENT_SECURITY_POLICY", "matrix_html"]

STYLE = """
:root { color-scheme: light dark; --line: #8884; --muted: #777; }
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; padding: 1rem 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin-top: 1.5rem; }
.muted { color: var(--muted); }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; vertical-align: top; }
thead th { position: sticky; top: 0; background: Canvas; }
th.impl { min-width: 7rem; max-width: 14rem; overflow-wrap: anywhere; }
tr.rule th { text-align: left; padding-top: .6rem; }
tr.clause th { text-align: left; font-weight: normal; padding-left: 1.5rem; }
.text { display: block; font-size: .85em; color: var(--muted); max-width: 38rem; }
td.cell { text-align: center; white-space: nowrap; }
td.cell a { text-decoration: none; display: block; color: inherit; }
.word { font-size: .85em; }
.s-conforms { background: #2e7d3233; }
.s-does-not-conform { background: #c6282855; }
.s-error { background: #b4530955; }
.s-untested { background: repeating-linear-gradient(45deg, #6b728022 0 6px, transparent 6px 12px); }
.s-not-applicable { background: #9ca3af22; }
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1rem; padding: 0; list-style: none; }
.legend li { padding: 0 .4rem; border: 1px solid var(--line); }
figure.grid { margin: .5rem 0; overflow-x: auto; }
td.value { overflow-wrap: anywhere; max-width: 14rem; }
"""


def _hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; style-src {_hash(STYLE)}; img-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)


def _e(text: str) -> str:
    return html.escape(xml_text(text), quote=True)


def _a(label_html: str, href: str | None, title: str = "") -> str:
    if href is None:
        return label_html
    tip = f' title="{_e(title)}"' if title else ""
    return f'<a href="{_e(href)}"{tip} rel="noopener noreferrer">{label_html}</a>'


def _prose(text: str) -> str:
    return "".join(
        f"<code>{_e(part)}</code>" if is_code else _e(part) for part, is_code in code_spans(text)
    )


def _report_link(column: Column, out: Path, row: Row | None = None) -> str | None:
    if column.has_page("report.html"):
        index = column.rule_index(row.rule.id) if row is not None else None
        return column.link(out, "report.html", f"rule-{index}" if index else "")
    anchor = standing_page_anchor(column, row) if row is not None else ""
    return column.link(out, "STANDING.md", anchor)


def _grid_link(out: Path) -> Callable[[Column, Row], str | None]:
    """Where a cell of the picture leads: the clause's section of ``report.html`` when it
    sits beside the standing, else the rule's heading in ``STANDING.md``."""

    def link(column: Column, row: Row) -> str | None:
        if column.has_page("report.html") and row.clause is not None:
            return column.link(out, "report.html", clause_anchor(row.clause))
        return _report_link(column, out, row)

    return link


def _head(matrix: Matrix, out: Path, first: str) -> list[str]:
    names = "".join(
        f'<th class="impl" scope="col">{_a(_e(c.label), _report_link(c, out))}</th>'
        for c in matrix.columns
    )
    return [f'<thead><tr><th scope="col">{_e(first)}</th>{names}</tr></thead>']


def _summary(matrix: Matrix, out: Path) -> list[str]:
    lines = ['<section id="summary">', "<h2>Summary</h2>", "<table>"]
    lines += _head(matrix, out, "")
    lines.append("<tbody>")
    for label, values in summary_rows(matrix):
        cells = "".join(f'<td class="value">{_e(value)}</td>' for value in values)
        lines.append(f'<tr><th scope="row">{_e(label)}</th>{cells}</tr>')
    return [*lines, "</tbody>", "</table>", "</section>"]


def _row(matrix: Matrix, row: Row, out: Path) -> str:
    if row.clause is None:
        head = f"{_e(row.rule.id)}: {_e(row.rule.title)}"
        kind = "rule"
    else:
        head = f'{_e(row.clause.citation)}<span class="text">{_prose(row.clause.text)}</span>'
        kind = "clause"
    cells = []
    for column in matrix.columns:
        found = cell(matrix, column, row)
        if found.standing is None:
            cells.append(f'<td class="cell absent" title="{_e(found.detail)}">{ABSENT}</td>')
            continue
        # The word as well as the symbol: a symbol a font lacks must not hide the standing.
        label = f'{_e(found.symbol)} <span class="word">{_e(WORDS[found.standing])}</span>'
        link = _a(label, _report_link(column, out, row), found.detail)
        cells.append(f'<td class="cell s-{found.standing}">{link}</td>')
    return f'<tr class="{kind}"><th scope="row">{head}</th>{"".join(cells)}</tr>'


def matrix_html(matrix: Matrix, out: Path, *, title: str, intro: str = "") -> str:
    """The HTML page of ``matrix``, with links relative to the directory ``out``;
    ``intro`` is a paragraph of plain text (its `code spans` shown as code)."""
    legend = "".join(
        f'<li class="s-{standing}">{STANDING_SYMBOLS[standing]} {_e(words)}</li>'
        for standing, words in LEGEND
    )
    count = len(matrix.columns)
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        "<header>",
        f"<h1>{_e(title)}</h1>",
        *([f"<p>{_prose(intro)}</p>"] if intro else []),
        f'<p class="muted">{count} implementation{"s" * (count != 1)} compared rule by rule '
        "and clause by clause; each cell links to that implementation's own report.</p>",
        f'<ul class="legend">{legend}<li>{ABSENT} not in that report</li></ul>',
        f'<figure class="grid">{matrix_svg(matrix, _grid_link(out), title=title)}</figure>',
        "</header>",
        "<main>",
        *_summary(matrix, out),
        '<section id="rules">',
        "<h2>Rules and clauses</h2>",
        "<table>",
        *_head(matrix, out, "Rule / clause"),
        "<tbody>",
        *(_row(matrix, row, out) for row in matrix.rows),
        "</tbody>",
        "</table>",
        "</section>",
        "</main>",
        '<footer class="muted">Made by <code>rttool report matrix</code>; every standing is '
        "the one its report records. Clause text is quoted from the rules as published; the "
        "FlowDrop Workflow Specification text is licensed CC BY 4.0.</footer>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(lines)
