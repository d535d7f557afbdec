"""Words and symbols for standings and outcomes, shared by the human-readable formats."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from conformance.report._model import CheckCounts, CheckResult
from conformance.report._run import HuntSummary
from conformance.report._values import Standing

__all__ = [
    "STANDING_SYMBOLS",
    "check_symbol",
    "counts_phrase",
    "hunt_sentence",
    "standing_label",
]

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


def check_symbol(check: CheckResult) -> str:
    """The symbol of the standing a check alone would give its clause."""
    if check.outcome == "passed":
        return STANDING_SYMBOLS["conforms"]
    if check.outcome == "failed":
        return STANDING_SYMBOLS["does-not-conform"]
    if check.outcome == "error":
        return STANDING_SYMBOLS["error"]
    return STANDING_SYMBOLS[check.skip_kind or "untested"]


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
    """``321 generated examples in 4.8 s (budget 5.0 s); 1 counterexample.`` (without
    the time taken when the report records none)."""
    plural = "" if hunt.counterexamples == 1 else "s"
    took = "" if hunt.elapsed_s is None else f" in {hunt.elapsed_s:.1f} s"
    return (
        f"{hunt.examples} generated examples{took} "
        f"(budget {hunt.budget_s:.1f} s); {hunt.counterexamples} counterexample{plural}."
    )
