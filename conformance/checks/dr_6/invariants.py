"""DR-6's invariant: Continue is offered only for a conversation's newest stop."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario, StartTurn
from adapters.trace import Trace
from conformance.toolkit import Invariant, invariant, show, state_of

__all__ = ["INVARIANTS"]


def _order(scenario: Scenario) -> dict[str, list[str]]:
    """Each conversation's turn labels, in the order they were started."""
    out: dict[str, list[str]] = {}
    for step in scenario.steps:
        if isinstance(step, StartTurn):
            out.setdefault(step.conversation, []).append(step.turn)
    return out


def continue_offer(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Continue is offered only for the conversation's newest stop."""
    order = _order(scenario)
    for step in trace.steps:
        for conversation, turns in step.wire.items():
            labels = [t for t in order.get(conversation, []) if t in turns]
            stops = [
                t
                for t in labels
                if turns[t].continueOffered
                or state_of(handshake, turns[t]) in ("stopped", "failed")
            ]
            offering = [t for t in labels if turns[t].continueOffered is True]
            if offering and (len(offering) > 1 or offering[0] != stops[-1]):
                return (
                    f"after step {step.index} ({step.op}), Continue is offered for "
                    f"{show(offering)} in conversation {conversation}, whose newest stop is "
                    f"{show(stops[-1])}"
                )
    return None


def _two_stops(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    if not trace.steps:
        return False
    for turns in trace.steps[-1].wire.values():
        stops = [w for w in turns.values() if state_of(handshake, w) in ("stopped", "failed")]
        if len(stops) >= 2:
            return True
    return False


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "continue-offer",
        ("DR-6#c3",),
        continue_offer,
        "a conversation with two stopped turns",
        _two_stops,
        profile="durable-resume",
        rank=330,
    ),
)
