"""``report.html``: one self-contained page, filterable by standing.

Nothing is loaded from anywhere: the stylesheet and script are inline constants, and a
Content-Security-Policy allows exactly those two by hash (no other script, no inline
handler, no remote asset).  Every string from the report goes through
``html.escape(..., quote=True)``; the script never receives report data, it reads the
``data-standing`` attributes.  Without JavaScript the whole page is readable and the
filter bar stays hidden.
"""

from __future__ import annotations

import base64
import hashlib

from conformance._escape import code_spans, evidence_href, html_text, http_url
from conformance.report._html_assets import SCRIPT
from conformance.report._labels import (
    counts_phrase,
    hunt_figures_phrase,
    hunt_sentence,
    reading_url,
    situations_phrase,
)
from conformance.report._model import CheckResult, ClauseResult, RuleResult
from conformance.report._output import OutputFile, Rendered, RenderOptions
from conformance.report._standing import StandingReport
from conformance.report._timeline_page import PAGE_STYLE, TimelineBook
from conformance.report._values import STANDINGS, Standing

__all__ = ["CONTENT_SECURITY_POLICY", "clause_anchor", "render_html", "standing_html"]


def _hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; script-src {_hash(SCRIPT)}; style-src {_hash(PAGE_STYLE)}; "
    "img-src 'none'; base-uri 'none'; form-action 'none'"
)


def _e(text: str) -> str:
    """Escape for element content and quoted attribute values alike."""
    return html_text(text)


def _a(label: str, href: str | None) -> str:
    if href is None:
        return _e(label)
    return f'<a href="{_e(href)}" rel="noopener noreferrer">{_e(label)}</a>'


def _pill(kind: str, word: str) -> str:
    """A coloured label; ``kind`` and ``word`` come from the model's closed vocabularies."""
    return f'<span class="pill {_e(kind)}-{_e(word)}">{_e(word)}</span>'


def _standing(standing: Standing) -> str:
    return _pill("s", standing)


def _evidence(path: str, label: str, options: RenderOptions) -> str:
    href = evidence_href(path, options.link_prefix)
    return _a(label, href) if href else f"{_e(label)}: <code>{_e(path)}</code>"


def _header(report: StandingReport) -> list[str]:
    impl, run = report.implementation, report.run
    facts = [
        ("Driven as", _e(impl.spec) or "unknown"),
        ("Homepage", _a(impl.homepage, http_url(impl.homepage)) if impl.homepage else "none"),
        ("Profiles claimed", _e(", ".join(impl.profiles)) or "none"),
        ("Capabilities offered", _e(", ".join(impl.capabilities)) or "none"),
        ("Levels gated", _e(", ".join(run.levels)) or "none"),
        ("Seed", "none" if run.seed is None else str(run.seed)),
    ]
    if run.duration_s is not None:
        facts.append(("Duration", f"{run.duration_s:.1f} s"))
    if run.only:
        facts.append(("Only", _e(", ".join(run.only))))
    if run.mutant:
        facts.append(("Mutant", _e(run.mutant)))
    against = f" against {_e(run.spec)}" if run.spec else ""
    when = f" on {_e(run.started_at)}" if run.started_at is not None else ""
    lines = [
        "<header>",
        f"<h1>RT-TOOL standing: {_e(impl.name)} {_e(impl.version)}</h1>",
        f"<p>Checked by {_e(report.suite.name)} {_e(report.suite.version)}{when}{against}.</p>",
        '<dl class="facts">',
    ]
    lines += [f"<dt>{term}</dt><dd>{value}</dd>" for term, value in facts]
    return [*lines, "</dl>", "</header>"]


def _filters(report: StandingReport) -> list[str]:
    lines = ['<nav id="filters" aria-label="Filter by standing" hidden>', "<span>Show:</span>"]
    for standing in STANDINGS:
        lines.append(
            f'<label><input type="checkbox" data-filter value="{standing}" checked> '
            f"{_standing(standing)} ({report.counts.get(standing)})</label>"
        )
    lines += [
        '<button type="button" data-preset="all">All</button>',
        '<button type="button" data-preset="problems">Problems only</button>',
        "</nav>",
    ]
    return lines


def _summary(report: StandingReport) -> list[str]:
    lines = [
        '<section id="summary">',
        "<h2>Families</h2>",
        "<table>",
        "<thead><tr><th>Family</th><th>Conforming</th><th>Applicable</th>"
        + "".join(f"<th>{_standing(s)}</th>" for s in STANDINGS)
        + "</tr></thead>",
        "<tbody>",
    ]
    for tally in report.tallies():
        cells = "".join(f'<td class="n">{tally.counts.get(s)}</td>' for s in STANDINGS)
        lines.append(
            f'<tr><td>{_e(tally.family)}</td><td class="n">{tally.conforming}</td>'
            f'<td class="n">{tally.applicable}</td>{cells}</tr>'
        )
    return [*lines, "</tbody>", "</table>", "</section>"]


def _rules_table(report: StandingReport) -> list[str]:
    lines = [
        '<section id="rules">',
        "<h2>Rules</h2>",
        "<table>",
        "<thead><tr><th>Rule</th><th>Title</th><th>Level</th><th>Standing</th></tr></thead>",
        "<tbody>",
    ]
    for index, rule in enumerate(report.rules, 1):
        lines.append(
            f'<tr data-standing="{_e(rule.standing)}"><td><a href="#rule-{index}">{_e(rule.id)}'
            f"</a></td><td>{_e(rule.title)}</td><td>{_e(rule.level)}</td>"
            f"<td>{_standing(rule.standing)}</td></tr>"
        )
    return [*lines, "</tbody>", "</table>", "</section>"]


def _clause(clause: ClauseResult, options: RenderOptions, book: TimelineBook) -> list[str]:
    lines = [
        f'<div class="clause" id="{_e(clause_anchor(clause))}" '
        f'data-standing="{_e(clause.standing)}">',
        f"<h3>{_e(clause.citation)} {_standing(clause.standing)} "
        f'<span class="muted">({_e(counts_phrase(clause.counts))})</span></h3>',
        *(
            [f'<p class="situations">{_e(situations_phrase(clause))}</p>']
            if situations_phrase(clause)
            else []
        ),
        f'<p class="text">{_code_spans(clause.text)}</p>',
    ]
    if not clause.checks:
        return [*lines, '<p class="muted">No check covers this clause.</p>', "</div>"]
    lines += [
        '<table class="checks">',
        "<thead><tr><th>Check</th><th>Outcome</th><th>Message</th><th>Evidence</th></tr></thead>",
        "<tbody>",
    ]
    for check in clause.checks:
        outcome = _pill("o", check.outcome)
        if check.skip_kind or check.fault:
            outcome += (
                f' <span class="muted">{_e(check.skip_kind or f"{check.fault} fault")}</span>'
            )
        evidence = " ".join(
            _evidence(path, label, options) for label, path in check.evidence.items()
        )
        lines.append(
            f"<tr><td><code>{_e(check.name)}</code></td><td>{outcome}</td>"
            f'<td class="message">{_message(check, book.wheres(check))}</td>'
            f"<td>{evidence}</td></tr>"
        )
        lines.append(book.row(check, 4))  # its timeline, collapsed (failing or erring only)
    return [*lines, "</tbody>", "</table>", "</div>"]


def _message(check: CheckResult, wheres: tuple[str | None, ...] = ()) -> str:
    """A check's message cell: every failed expectation, each reading a link and, where
    its timeline places it, where it happened; the hunt's figures for an invariant."""
    figures = hunt_figures_phrase(check)
    after = f' <span class="muted">({_e(figures)})</span>' if figures else ""
    if not check.failures:
        return _e(check.message) + after
    items = []
    for number, failure in enumerate(check.failures):
        item = _e(failure.line())
        if failure.reading:
            item += " (" + _a("reading", reading_url(failure.reading)) + ")"
        where = wheres[number] if number < len(wheres) else None
        if where:  # opens the check's timeline (the row under it), where it is marked
            item += f'<span class="where">in {where}</span>'
        items.append(f"<li>{item}</li>")
    return '<ol class="failures">' + "".join(items) + "</ol>" + after


def _rule(index: int, rule: RuleResult, options: RenderOptions, book: TimelineBook) -> list[str]:
    source = http_url(rule.source)
    meta = [
        _standing(rule.standing),
        f"level {_e(rule.level)}",
        "profiles " + (_e(", ".join(rule.profiles)) or "none"),
        _a("source", source) if source else (f"source: {_e(rule.source)}" if rule.source else ""),
    ]
    lines = [
        f'<section class="rule" id="rule-{index}" data-standing="{_e(rule.standing)}">',
        f"<h2>{_e(rule.id)}: {_e(rule.title)}</h2>",
        f'<p class="muted">{" · ".join(part for part in meta if part)}</p>',
    ]
    for clause in rule.clauses:
        lines += _clause(clause, options, book)
    return [*lines, "</section>"]


def _extras(report: StandingReport) -> list[str]:
    lines: list[str] = []
    if report.hunt is not None:
        sentence = _e(hunt_sentence(report.hunt))
        lines += ['<section id="hunt">', "<h2>Hunt</h2>", f"<p>{sentence}</p>", "</section>"]
    if report.warnings:
        lines += ['<section id="warnings">', "<h2>Warnings</h2>", "<ul>"]
        lines += [f"<li>{_e(warning)}</li>" for warning in report.warnings]
        lines += ["</ul>", "</section>"]
    return lines


def standing_html(report: StandingReport, options: RenderOptions | None = None) -> str:
    """The text of ``report.html`` for ``report``."""
    options = options or RenderOptions()
    impl = report.implementation
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>RT-TOOL standing: {_e(impl.name)} {_e(impl.version)}</title>",
        f"<style>{PAGE_STYLE}</style>",
        "</head>",
        "<body>",
        *_header(report),
        *_filters(report),
        "<main>",
        *_summary(report),
        *_rules_table(report),
    ]
    book = TimelineBook(options.drawn)
    for index, rule in enumerate(report.rules, 1):
        lines += _rule(index, rule, options, book)
    lines += _extras(report)
    lines += [
        "</main>",
        '<footer class="muted">Clause text is quoted from the rules as published; the FlowDrop '
        "Workflow Specification text is licensed CC BY 4.0.</footer>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(lines)


def render_html(report: StandingReport, options: RenderOptions) -> Rendered:
    """``report.html``."""
    text = standing_html(report, options)
    return Rendered(files=(OutputFile(path="report.html", content=text.encode("utf-8")),))


def clause_anchor(clause: ClauseResult) -> str:
    """The id of a clause's section in ``report.html``: ``RT-TOOL-7-c4``."""
    return clause.id.replace("#", "-")


def _code_spans(text: str) -> str:
    """Escaped rule text whose `code spans` are shown as code."""
    return "".join(
        f"<code>{_e(part)}</code>" if is_code else _e(part) for part, is_code in code_spans(text)
    )
