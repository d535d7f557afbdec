"""The comparison matrix: implementations side by side, rule by rule, clause by clause.

``rttool report matrix DIR... --out DIR`` reads each ``standing.json`` and writes
``README.md`` (a Markdown page: a summary table, then a row per rule and clause),
``index.html`` (the same as one self-contained page) and ``matrix.svg`` (implementations
by clauses as a coloured grid, shown at the top of both).  Each cell links to the
implementation's own report; untested is shown apart from a failure.

* :func:`build_matrix` reads the reports (each refused in one line when it cannot be);
* :func:`matrix_markdown`, :func:`matrix_html` and :func:`matrix_svg` render it;
* :func:`write_matrix` writes the three files, atomically, and nothing else.
"""

from __future__ import annotations

from pathlib import Path

from adapters.files import write_file
from conformance.matrix._build import Column, Matrix, Row, build_matrix, heading_anchor
from conformance.matrix._html import matrix_html
from conformance.matrix._markdown import DEFAULT_TITLE, SVG_FILE, matrix_markdown, svg_link
from conformance.matrix._svg import matrix_svg
from conformance.report import ReportWriteError

__all__ = [
    "DEFAULT_TITLE",
    "HTML_FILE",
    "MARKDOWN_FILE",
    "SVG_FILE",
    "Column",
    "Matrix",
    "Row",
    "build_matrix",
    "heading_anchor",
    "matrix_html",
    "matrix_markdown",
    "matrix_svg",
    "svg_link",
    "write_matrix",
]

MARKDOWN_FILE = "README.md"
HTML_FILE = "index.html"


def write_matrix(
    matrix: Matrix, out: Path, *, title: str = DEFAULT_TITLE, intro: str = ""
) -> tuple[Path, ...]:
    """Write ``README.md``, ``index.html`` and ``matrix.svg`` into ``out``; returns the
    three paths."""
    pages = {
        MARKDOWN_FILE: matrix_markdown(matrix, out, title=title, intro=intro),
        HTML_FILE: matrix_html(matrix, out, title=title, intro=intro),
        SVG_FILE: matrix_svg(matrix, svg_link(out), title=title),
    }
    written = []
    try:
        for name, text in pages.items():
            written.append(write_file(out, name, text.encode("utf-8")))
    except OSError as err:
        raise ReportWriteError(
            "cannot write the matrix",
            path=str(err.filename or out),
            complaint=err.strerror or str(err),
        ) from err
    return tuple(written)
