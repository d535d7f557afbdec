"""Words and symbols for standings and outcomes, shared by the human-readable formats."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from urllib.parse import quote

from conformance.report._model import CheckCounts, CheckResult, ClauseResult, clause_standing
from conformance.report._run import HuntSummary
from conformance.report._values import Standing

__all__ = [
    "INTERPRETATIONS_URL",
    "STANDING_SYMBOLS",
    "check_symbol",
    "counts_phrase",
    "failure_lines",
    "hunt_figures_phrase",
    "hunt_sentence",
    "reading_url",
    "situations_phrase",
    "standing_label",
]

#: Where the suite's readings of the rule text are published; a failure that depends on
#: one links to its entry.
INTERPRETATIONS_URL = "https://github.com/rttool/rttool/blob/main/docs/interpretations.md"

STANDING_SYMBOLS: Mapping[Standing, str] = MappingProxyType(
    {
        "conforms": "✅",
        "does-not-conform": "❌",
        "untested": "❔",
        "not-applicable": "➖",
        "error": "⚠️",
    }
)


def standing_label(standing: Standing) -> str:
    """``✅ conforms`` and so on."""
    return f"{STANDING_SYMBOLS[standing]} {standing}"


def situations_phrase(clause: ClauseResult) -> str:
    """``2 of 3 situations reached; not reached: a turn read after a reload`` for a clause
    that would conform but for situations of its text its passing checks left unreached;
    ``""`` otherwise (then its standing says all there is: a failure, an error, or
    nothing that passed)."""
    if not clause.unreached or clause_standing(clause.checks) != "conforms":
        return ""
    total = len(clause.situations)
    reached = total - len(clause.unreached)
    return f"{reached} of {total} situations reached; not reached: {', '.join(clause.unreached)}"


def check_symbol(check: CheckResult) -> str:
    """The symbol of the standing a check alone would give its clause."""
    if check.outcome == "passed":
        return STANDING_SYMBOLS["conforms"]
    if check.outcome == "failed":
        return STANDING_SYMBOLS["does-not-conform"]
    if check.outcome == "error":
        return STANDING_SYMBOLS["error"]
    return STANDING_SYMBOLS[check.skip_kind or "untested"]


def reading_url(reading: str) -> str:
    """The address of the entry ``reading`` of ``docs/interpretations.md``."""
    return f"{INTERPRETATIONS_URL}#{quote(reading, safe='-._~')}"


def failure_lines(check: CheckResult) -> list[str]:
    """Every failed expectation of ``check`` on one line each (the message alone when it
    lists none): what was observed, where, and the reading it relies on."""
    if not check.failures:
        return [check.message] if check.message else []
    return [
        failure.line() + (f" (reading: {reading_url(failure.reading)})" if failure.reading else "")
        for failure in check.failures
    ]


def hunt_figures_phrase(check: CheckResult) -> str:
    """``judged 412, exercised 37`` for a hunt check that reports its figures, else ``""``."""
    if check.hunt is None:
        return ""
    return f"judged {check.hunt.judged}, exercised {check.hunt.exercised}"


def counts_phrase(counts: CheckCounts) -> str:
    """``2 passed, 1 untested``: the non-zero counts, or ``no checks``."""
    parts = [
        (counts.passed, "passed"),
        (counts.failed, "failed"),
        (counts.error, "errored"),
        (counts.untested, "untested"),
        (counts.not_applicable, "not applicable"),
    ]
    text = ", ".join(f"{number} {word}" for number, word in parts if number)
    return text or "no checks"


def hunt_sentence(hunt: HuntSummary) -> str:
    """``321 generated examples in 4.8 s (budget 5.0 s); 1 counterexample, shrunk in 40
    more runs.`` (without the time taken when the report records none)."""
    plural = "" if hunt.counterexamples == 1 else "s"
    took = "" if hunt.elapsed_s is None else f" in {hunt.elapsed_s:.1f} s"
    shrunk = f", shrunk in {hunt.shrinks} more runs" if hunt.shrinks else ""
    return (
        f"{hunt.examples} generated examples{took} "
        f"(budget {hunt.budget_s:.1f} s); {hunt.counterexamples} counterexample{plural}"
        f"{shrunk}."
    )
