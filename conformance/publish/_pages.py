"""``reports/README.md``: the matrix comparing the published standings."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from conformance.publish._checkout import Checkout
from conformance.publish._entries import COMMITTED, Committed

__all__ = ["INTRO", "TITLE", "matrix_page", "matrix_picture", "write_matrix_pages"]

TITLE = "Published standings"
INTRO = (
    "The standings rttool publishes for the runtimes it bundles or ships a harness for. "
    "`make reports` regenerates every one of them and this page; `make test` fails when "
    "any is out of date."
)


def _published(checkout: Checkout, entries: Sequence[Committed]) -> list[Path]:
    """The folders of the committed standings, in the matrix's column order."""
    folders = [entry.folder(checkout) for entry in entries]
    return [folder for folder in folders if (folder / "standing.json").is_file()]


def matrix_page(checkout: Checkout, entries: Sequence[Committed] = COMMITTED) -> str:
    """The text ``reports/README.md`` must hold: the matrix of the committed standings."""
    from conformance.matrix import build_matrix, matrix_markdown

    matrix = build_matrix(_published(checkout, entries))
    return matrix_markdown(matrix, checkout.reports, title=TITLE, intro=INTRO)


def matrix_picture(checkout: Checkout, entries: Sequence[Committed] = COMMITTED) -> str:
    """The text ``reports/matrix.svg`` must hold: the committed standings as a grid."""
    from conformance.matrix import build_matrix, matrix_svg, svg_link

    matrix = build_matrix(_published(checkout, entries))
    return matrix_svg(matrix, svg_link(checkout.reports), title=TITLE)


def write_matrix_pages(
    checkout: Checkout, entries: Sequence[Committed] = COMMITTED
) -> tuple[Path, ...]:
    """Write ``reports/README.md`` and ``reports/matrix.svg`` (and the untracked
    ``reports/index.html``)."""
    from conformance.matrix import build_matrix, write_matrix

    matrix = build_matrix(_published(checkout, entries))
    return write_matrix(matrix, checkout.reports, title=TITLE, intro=INTRO)
