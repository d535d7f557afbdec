"""Timelines in pages: beside each failing or erring check of ``report.html``, and alone
on the page ``rttool replay --html`` writes.

:class:`TimelineBook` gives ``report.html`` what it shows of one check's evidence: where
each failure happened, in words, for the failures' list, and the timeline itself,
collapsed, as a row under the check.  Two checks with the same evidence and the same
failures (a hunt counterexample charged to several clauses) share one timeline: the
second links to the first.  :func:`timeline_page` is a whole page for one scenario.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence

from conformance._escape import html_text
from conformance.report._drawn import DrawnEvidence
from conformance.report._html_assets import STYLE
from conformance.report._model import CheckResult, Evidence
from conformance.report._timeline import timeline_html
from conformance.report._timeline_style import TIMELINE_STYLE
from conformance.report._timeline_values import LONG_CHARS, plain
from conformance.report._timeline_where import Mark, marks_of

__all__ = ["PAGE_STYLE", "TimelineBook", "timeline_page"]

#: The stylesheet of a page holding a timeline: the report's, then the timeline's.
PAGE_STYLE = STYLE + TIMELINE_STYLE


class TimelineBook:
    """The timelines of one rendering of ``report.html``, drawn from the evidence the
    writer read (``drawn``: evidence -> what it drew); each is rendered once."""

    def __init__(self, drawn: Mapping[Evidence, DrawnEvidence]) -> None:
        self._drawn = drawn
        self._ids: dict[tuple[object, ...], str] = {}
        self._rendered: set[str] = set()
        self._marks: dict[tuple[object, ...], list[Mark]] = {}

    def _evidence(self, check: CheckResult) -> DrawnEvidence | None:
        if check.outcome not in ("failed", "error"):
            return None
        return self._drawn.get(check.evidence)

    def _key(self, check: CheckResult) -> tuple[object, ...]:
        return (check.evidence, check.failures, check.message)

    def _ident(self, check: CheckResult) -> str:
        """The id of the check's timeline (checks with the same evidence and failures
        share one)."""
        key = self._key(check)
        if key not in self._ids:
            self._ids[key] = f"timeline-{len(self._ids) + 1}"
        return self._ids[key]

    def _marked(self, check: CheckResult, drawn: DrawnEvidence) -> list[Mark]:
        key = self._key(check)
        if key not in self._marks:
            self._marks[key] = marks_of(drawn, check.failures, check.message)
        return self._marks[key]

    def wheres(self, check: CheckResult) -> tuple[str | None, ...]:
        """For each of the check's failures, where it happened, as HTML: the place in
        words, a link that opens the timeline (``None`` where the timeline cannot place
        it)."""
        drawn = self._evidence(check)
        if drawn is None or not check.failures:
            return ()
        ident = html_text(self._ident(check))
        return tuple(
            f'<a href="#{ident}">{html_text(mark.where)}</a>' if mark.anchor is not None else None
            for mark in self._marked(check, drawn)
        )

    def row(self, check: CheckResult, columns: int) -> str:
        """The table row under ``check`` holding its timeline (empty when it has none)."""
        drawn = self._evidence(check)
        if drawn is None:
            return ""
        ident = self._ident(check)
        if ident in self._rendered:
            body = (
                '<p class="tl-note">The same evidence and failures as '
                f'<a href="#{html_text(ident)}">the timeline above</a>.</p>'
            )
        else:
            self._rendered.add(ident)
            body = timeline_html(drawn, self._marked(check, drawn), ident=ident)
        return f'<tr class="timeline-row"><td colspan="{columns}">{body}</td></tr>'


def _hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


_POLICY = (
    f"default-src 'none'; style-src {_hash(PAGE_STYLE)}; img-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)


def timeline_page(
    title: str, lines: Sequence[str], drawn: DrawnEvidence, marks: Sequence[Mark]
) -> str:
    """A self-contained page: ``title``, ``lines`` of plain text under it, and the
    timeline of ``drawn`` with ``marks`` placed, opened.  No script; the stylesheet is
    allowed by hash."""
    said = "".join(f"<p>{plain(line, LONG_CHARS)}</p>" for line in lines)
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">',
            '<meta name="referrer" content="no-referrer">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{plain(title, 200)}</title>",
            f"<style>{PAGE_STYLE}</style>",
            "</head>",
            "<body>",
            f"<header><h1>{plain(title, 200)}</h1>{said}</header>",
            f"<main>{timeline_html(drawn, marks, ident='timeline', opened=True)}</main>",
            "</body>",
            "</html>",
            "",
        ]
    )
