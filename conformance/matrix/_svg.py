"""The matrix as a picture: implementations by clauses, a coloured cell per standing.

One row per implementation, one column per clause, the clauses of a rule side by side
under the rule's id.  Each cell links to that implementation's report at the clause (a
link a picture shown by a README cannot follow; the file opened on its own can) and says
its standing, with the check counts, when hovered.  Failures and errors carry a glyph and
untested cells a hatching, so no standing is told by its colour alone.  Nothing but the
SVG itself: no script, no style sheet, no font or image loaded; every string from a
report is escaped by the reports' one HTML escaper.
"""

from __future__ import annotations

from collections.abc import Callable

from conformance._escape import html_text
from conformance.matrix._build import Column, Matrix, Row
from conformance.matrix._cells import LEGEND, cell
from conformance.report import Standing

__all__ = ["matrix_svg"]

Link = Callable[[Column, Row], "str | None"]

_CELL_W, _CELL_H, _GAP, _RULE_GAP = 12, 18, 2, 8
_LABEL_W, _TOP, _LEFT_PAD = 230, 78, 6
_LABEL_CHARS = 34
_FILL: dict[Standing, str] = {
    "conforms": "#2e7d32",
    "does-not-conform": "#c62828",
    "error": "#b45309",
    "untested": "url(#hatched)",
    "not-applicable": "#d1d5db",
}
_GLYPH: dict[Standing, str] = {"does-not-conform": "×", "error": "!"}
# Attributes, not a style sheet: a page inlining the picture allows only its own styles.
_GLYPH_LOOK = 'fill="#fff" font-weight="700" text-anchor="middle"'


def _e(text: str) -> str:
    return html_text(text)


def _label(text: str) -> str:
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"


def _columns(matrix: Matrix) -> list[tuple[Row, int]]:
    """Each clause row with the x of its column, a gap between rules."""
    placed: list[tuple[Row, int]] = []
    x = _LABEL_W
    rule = None
    for row in matrix.rows:
        if row.clause is None:
            continue
        if rule is not None and row.rule.id != rule:
            x += _RULE_GAP
        placed.append((row, x))
        rule = row.rule.id
        x += _CELL_W + _GAP
    return placed


def _rule_labels(placed: list[tuple[Row, int]]) -> list[str]:
    """Each rule's id, slanted above its first clause."""
    out = []
    seen: set[str] = set()
    for row, x in placed:
        if row.rule.id in seen:
            continue
        seen.add(row.rule.id)
        left, y = x + 3, _TOP - 6
        turned = f'transform="rotate(-50 {left},{y})"'
        out.append(f'<text x="{left}" y="{y}" {turned}>{_e(row.rule.id)}</text>')
    return out


def _rect(x: int, y: int, fill: str) -> str:
    return f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}" fill="{fill}"/>'


def _cell(matrix: Matrix, column: Column, row: Row, x: int, y: int, link: Link) -> str:
    found = cell(matrix, column, row)
    title = f"<title>{_e(column.label)}: {_e(found.detail)}</title>"
    if found.standing is None:
        shape = (
            f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}" fill="#fff" '
            'stroke="#9ca3af" stroke-dasharray="2 2"/>'
        )
        return f"<g>{title}{shape}</g>"
    shape = _rect(x, y, _FILL[found.standing])
    glyph = _GLYPH.get(found.standing)
    if glyph:
        shape += f'<text x="{x + _CELL_W / 2}" y="{y + 13}" {_GLYPH_LOOK}>{glyph}</text>'
    href = link(column, row)
    if href is None:
        return f"<g>{title}{shape}</g>"
    return f'<a href="{_e(href)}">{title}{shape}</a>'


def _legend(y: int) -> list[str]:
    out = []
    x = _LEFT_PAD
    for standing, words in LEGEND:
        short = words.split(":")[0]
        out.append(
            f'<rect x="{x}" y="{y}" width="{_CELL_W}" height="{_CELL_H}" fill="{_FILL[standing]}"/>'
        )
        glyph = _GLYPH.get(standing)
        if glyph:
            out.append(f'<text x="{x + _CELL_W / 2}" y="{y + 13}" {_GLYPH_LOOK}>{glyph}</text>')
        out.append(f'<text x="{x + _CELL_W + 5}" y="{y + 13}">{_e(short)}</text>')
        x += _CELL_W + 12 + 7 * len(short)
    return out


def matrix_svg(matrix: Matrix, link: Link, *, title: str) -> str:
    """The picture of ``matrix``; ``link(column, row)`` is the URL a cell leads to."""
    placed = _columns(matrix)
    width = (placed[-1][1] + _CELL_W + _LEFT_PAD) if placed else _LABEL_W + _LEFT_PAD
    width = max(width, 560)
    rows_y = [_TOP + i * (_CELL_H + _GAP) for i in range(len(matrix.columns))]
    legend_y = (rows_y[-1] + _CELL_H if rows_y else _TOP) + 14
    height = legend_y + _CELL_H + 8
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}" '
        'font-family="system-ui, sans-serif" font-size="11">',
        f"<title>{_e(title)}</title>",
        '<defs><pattern id="hatched" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#e5e7eb"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#6b7280" stroke-width="2"/></pattern>'
        "</defs>",
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
        '<g fill="#111">',
        *_rule_labels(placed),
    ]
    for column, y in zip(matrix.columns, rows_y, strict=True):
        lines.append(f'<text x="{_LEFT_PAD}" y="{y + 13}">{_e(_label(column.label))}</text>')
        lines += [_cell(matrix, column, row, x, y, link) for row, x in placed]
    lines += _legend(legend_y)
    return "\n".join([*lines, "</g>", "</svg>", ""])
