"""``STANDING.md``: the publishable page of an implementation's standing."""

from __future__ import annotations

from datetime import UTC, datetime

from conformance._escape import code_spans, evidence_href, http_url, markdown
from conformance.report._labels import (
    STANDING_SYMBOLS,
    check_symbol,
    counts_phrase,
    hunt_figures_phrase,
    hunt_sentence,
    reading_url,
    situations_phrase,
    standing_label,
)
from conformance.report._model import ClauseResult, FailedExpectation, RuleResult
from conformance.report._output import OutputFile, Rendered, RenderOptions
from conformance.report._standing import StandingReport

__all__ = ["render_markdown", "standing_markdown"]


_ATTRIBUTION = (
    "Clause text is quoted from the rules as published; the FlowDrop Workflow "
    "Specification text is licensed CC BY 4.0."
)


def _link(label: str, url: str | None, fallback: str) -> str:
    # Destinations are percent-encoded and wrapped in <...>, so nothing can end them early.
    return f"[{label}](<{url}>)" if url else fallback


def _when(stamp: str) -> str:
    """``2026-11-30 21:06:42 UTC`` from an ISO timestamp (as written when unparsable)."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S") + (" UTC" if moment.tzinfo else "")


def _text(text: str) -> str:
    """Rule text as inert Markdown that still shows its `code spans` as code."""
    # Inline HTML content is still Markdown: it is escaped the same way inside the tags.
    return "".join(
        f"<code>{markdown(part)}</code>" if is_code else markdown(part)
        for part, is_code in code_spans(text)
    )


def _header(report: StandingReport) -> list[str]:
    impl, run = report.implementation, report.run
    name = f"{markdown(impl.name)} {markdown(impl.version)}".strip()
    lines = [f"# RT-TOOL standing: {name}", ""]
    facts = [f"Checked by {markdown(report.suite.name)} {markdown(report.suite.version)}"]
    if run.started_at is not None:  # a reproducible report records no time
        facts.append(f"on {markdown(_when(run.started_at))}")
    if run.spec:
        facts.append(f"against {markdown(run.spec)}")
    lines.append(" ".join(facts) + ".")
    lines.append("")
    details = [f"Driven as: {markdown(impl.spec) or 'unknown'}"]
    homepage = http_url(impl.homepage)
    if homepage:
        details.append(_link("homepage", homepage, ""))
    elif impl.homepage:
        details.append(f"homepage: {markdown(impl.homepage)}")
    details.append("profiles claimed: " + (", ".join(map(markdown, impl.profiles)) or "none"))
    details.append(
        "capabilities offered: " + (", ".join(map(markdown, impl.capabilities)) or "none")
    )
    if impl.turn_states:
        details.append("turn states declared: " + "; ".join(map(markdown, impl.turn_states)))
    details.append("levels gated: " + (", ".join(run.levels) or "none"))
    if run.only:
        details.append("only: " + ", ".join(map(markdown, run.only)))
    if run.mutant:
        details.append(f"mutant: {markdown(run.mutant)}")
    if run.shard is not None:
        left = ", ".join(map(markdown, run.shard.left)) or "nothing"
        details.append(
            f"shard {run.shard.index} of {run.shard.count}: the rules below and its share of "
            f"the hunt; left to the other shards: {left} (`rttool report merge` joins them)"
        )
    lines += [f"- {detail}" for detail in details]
    lines.append("")
    return lines


def _families(report: StandingReport) -> list[str]:
    lines = [
        "| Family | Conforming | Applicable | "
        + " | ".join(standing_label(standing) for standing in STANDING_SYMBOLS)
        + " |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for tally in report.tallies():
        counts = tally.counts
        lines.append(
            f"| {markdown(tally.family)} | {tally.conforming} | {tally.applicable} "
            f"| {counts.conforms} | {counts.does_not_conform} | {counts.untested} "
            f"| {counts.not_applicable} | {counts.error} |"
        )
    return [*lines, ""]


def _rule_table(report: StandingReport) -> list[str]:
    lines = ["## Rules", "", "| Rule | Title | Level | Standing |", "| --- | --- | --- | --- |"]
    for rule in report.rules:
        lines.append(
            f"| {markdown(rule.id)} | {markdown(rule.title)} | {rule.level} "
            f"| {standing_label(rule.standing)} |"
        )
    return [*lines, ""]


def _clause(clause: ClauseResult, options: RenderOptions) -> list[str]:
    situations = markdown(situations_phrase(clause))
    lines = [
        f"- **{markdown(clause.citation)}** {standing_label(clause.standing)} "
        f"({'; '.join(filter(None, [counts_phrase(clause.counts), situations]))}): "
        f"{_text(clause.text)}"
    ]
    for check in clause.checks:
        figures = hunt_figures_phrase(check)
        if check.outcome == "passed":
            if figures:  # a passing hunt is shown with what it looked at
                lines.append(f"  - {check_symbol(check)} {markdown(check.name)}: {figures}")
            continue
        reason = markdown(check.message) or "no reason given"
        if check.fault:
            reason += f" (fault: {check.fault})"
        if figures:
            reason += f" ({figures})"
        links = [
            _link(label, evidence_href(path, options.link_prefix), f"{label}: {markdown(path)}")
            for label, path in check.evidence.items()
        ]
        suffix = f" ({' · '.join(links)})" if links else ""
        if len(check.failures) > 1 or any(f.reading for f in check.failures):
            lines.append(f"  - {check_symbol(check)} {markdown(check.name)}:{suffix}")
            lines += [f"    - {_failure(failure)}" for failure in check.failures]
        else:
            lines.append(f"  - {check_symbol(check)} {markdown(check.name)}: {reason}{suffix}")
    return lines


def _failure(failure: FailedExpectation) -> str:
    """One failed expectation as Markdown, its reading as a link."""
    text = markdown(failure.line())
    if failure.reading:
        text += f" ({_link('reading', reading_url(failure.reading), markdown(failure.reading))})"
    return text


def _rule(rule: RuleResult, options: RenderOptions) -> list[str]:
    source = http_url(rule.source)
    facts = [
        standing_label(rule.standing),
        f"level {rule.level}",
        "profiles " + (", ".join(map(markdown, rule.profiles)) or "none"),
        _link("source", source, f"source: {markdown(rule.source)}" if rule.source else ""),
    ]
    lines = [
        f"## {markdown(rule.id)}: {markdown(rule.title)}",
        "",
        " · ".join(fact for fact in facts if fact),
        "",
    ]
    for clause in rule.clauses:
        lines += _clause(clause, options)
    if not rule.clauses:
        lines.append("No clauses were checked.")
    return [*lines, ""]


def standing_markdown(report: StandingReport, options: RenderOptions | None = None) -> str:
    """The text of ``STANDING.md`` for ``report``."""
    options = options or RenderOptions()
    lines = _header(report) + _families(report) + _rule_table(report)
    for rule in report.rules:
        lines += _rule(rule, options)
    if report.hunt is not None:
        lines += ["## Hunt", "", hunt_sentence(report.hunt), ""]
        if report.hunt_status() == "failed":
            lines += [
                "It stopped on an example the implementation could not run: its checks "
                "report the error, and their evidence holds the example.",
                "",
            ]
    elif report.hunt_status() == "failed":
        lines += [
            "## Hunt",
            "",
            "The property-based hunt did not complete: its checks report why.",
            "",
        ]
    elif report.hunt_status() == "skipped":
        lines += [
            "## Hunt",
            "",
            "The property-based hunt had nothing to search: none of its invariants applies "
            "to what the implementation claims, or can be tried with what it offers.",
            "",
        ]
    else:
        lines += [
            "## Hunt",
            "",
            "The property-based hunt did not run: a clause that only the hunt covers is "
            "untested here, and a standing may change when the hunt runs.",
            "",
        ]
    if report.warnings:
        lines += ["## Warnings", ""]
        lines += [f"- {markdown(warning)}" for warning in report.warnings]
        lines.append("")
    lines += ["---", "", _ATTRIBUTION, ""]
    return "\n".join(lines)


def render_markdown(report: StandingReport, options: RenderOptions) -> Rendered:
    """``STANDING.md``."""
    text = standing_markdown(report, options)
    return Rendered(files=(OutputFile(path="STANDING.md", content=text.encode("utf-8")),))
