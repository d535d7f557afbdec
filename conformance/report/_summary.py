"""A Markdown summary of a run and its gate, for ``$GITHUB_STEP_SUMMARY``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from adapters.files import append_text
from conformance._escape import markdown
from conformance.report._errors import ReportWriteError
from conformance.report._gate import GateFinding, GateResult
from conformance.report._labels import STANDING_SYMBOLS
from conformance.report._standing import StandingReport

__all__ = ["append_step_summary", "github_step_summary"]

# GitHub caps a step summary at 1 MiB; a long list is cut well before that.
_MAX_LINES = 50


def _findings(title: str, findings: tuple[GateFinding, ...]) -> list[str]:
    if not findings:
        return []
    lines = [f"### {title} ({len(findings)})", ""]
    lines += [f"- {markdown(str(finding))}" for finding in findings[:_MAX_LINES]]
    if len(findings) > _MAX_LINES:
        lines.append(f"- … and {len(findings) - _MAX_LINES} more (see STANDING.md)")
    return [*lines, ""]


def github_step_summary(report: StandingReport, result: GateResult) -> str:
    """The summary: verdict, one row per family, then what failed and what is stale."""
    impl = report.implementation
    verdict = "✅ passed" if result.passed else "❌ failed"
    started = report.run.started_at
    lines = [
        f"## rttool: {markdown(impl.name)} {markdown(impl.version)}: gate {verdict}",
        "",
        f"Levels gated: {', '.join(result.levels) or 'none'}. "
        f"Suite {markdown(report.suite.name)} {markdown(report.suite.version)}"
        + (f"; run started {markdown(started)}." if started is not None else "."),
        "",
        "| Family | Conforming / applicable | "
        + " | ".join(f"{symbol} {standing}" for standing, symbol in STANDING_SYMBOLS.items())
        + " |",
        "| --- | --- |" + " ---: |" * len(STANDING_SYMBOLS),
    ]
    for tally in report.tallies():
        counts = " | ".join(str(tally.counts.get(standing)) for standing in STANDING_SYMBOLS)
        lines.append(f"| {markdown(tally.family)} | {tally.message} | {counts} |")
    lines.append("")
    lines += _findings("Unexpected failures", result.unexpected)
    lines += _findings("Stale expectations", result.stale)
    lines += _findings("Expected failures", result.expected)
    lines += _findings("Expectations not exercised", result.unexercised)
    if result.implementation_faults or result.suite_faults:
        lines += [
            f"Errors: {result.implementation_faults} implementation fault(s), "
            f"{result.suite_faults} suite fault(s).",
            "",
        ]
    return "\n".join(lines)


def append_step_summary(text: str, environ: Mapping[str, str] | None = None) -> Path | None:
    """Append ``text`` to the file ``$GITHUB_STEP_SUMMARY`` names; ``None`` if unset."""
    environ = os.environ if environ is None else environ
    target = environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return None
    path = Path(target)
    try:
        append_text(path, text)
    except OSError as err:
        raise ReportWriteError(
            "cannot append to GITHUB_STEP_SUMMARY", path=target, complaint=err.strerror or str(err)
        ) from err
    return path
