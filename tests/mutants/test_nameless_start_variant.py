"""The legal variant of docs/interpretations.md#nameless-start: what its journal lists."""

from __future__ import annotations

from reference_impl.journal import LedgerEvent
from reference_impl.variants import components_for

VARIANT = "nameless-start-journaled-interrupted"


def _journal(*events: LedgerEvent) -> tuple[list[str], list[str]]:
    read = components_for(VARIANT).behaviour.journal(list(events))
    return [e.tool for e in read.completed], [e.tool for e in read.interrupted]


def test_a_nameless_start_is_listed_interrupted_beside_the_named_calls() -> None:
    completed, interrupted = _journal(
        LedgerEvent("tool_start", "send_email", {"to": "ana"}),
        LedgerEvent("tool_start", None, {"to": "bo"}),
        LedgerEvent("tool_done", "send_email", {"to": "ana"}, "sent"),
    )
    assert completed == ["send_email"]
    assert interrupted == [""]


def test_a_clear_resets_a_nameless_start_too() -> None:
    completed, interrupted = _journal(
        LedgerEvent("tool_start", None, {"to": "bo"}),
        LedgerEvent("clear"),
        LedgerEvent("tool_start", "send_email", {"to": "ana"}),
    )
    assert (completed, interrupted) == ([], ["send_email"])
