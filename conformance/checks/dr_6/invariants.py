"""DR-6's invariant: Continue is offered only for a conversation's newest stop."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario, StartTurn
from adapters.trace import Trace
from conformance.toolkit import Invariant, invariant, show, state_of

__all__ = ["INVARIANTS"]

#: how a run that stopped its turn ended
_ENDED_SHORT = ("interrupted", "failed", "crashed")


def _order(scenario: Scenario) -> dict[str, list[str]]:
    """Each conversation's turn labels, in the order they were started."""
    out: dict[str, list[str]] = {}
    for step in scenario.steps:
        if isinstance(step, StartTurn):
            out.setdefault(step.conversation, []).append(step.turn)
    return out


def continue_offer(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Continue is offered only for the conversation's newest stop: the stop that happened
    last, or the latest stopped turn in conversation order; the two readings are accepted
    (docs/interpretations.md#newest-stop).  When each stop happened is read off the steps:
    the step after which its turn first showed stopped, or in which a run of it ended
    short and left it stopped (stops made in one step are not ordered among themselves)."""
    order = _order(scenario)
    stopped_at: dict[tuple[str, str], int] = {}
    for step in trace.steps:
        ended = {(run.conversation, run.turn) for run in step.runs if run.end in _ENDED_SHORT}
        for conversation, turns in step.wire.items():
            labels = [t for t in order.get(conversation, []) if t in turns]
            stops = [
                t
                for t in labels
                if turns[t].continueOffered
                or state_of(handshake, turns[t]) in ("stopped", "failed")
            ]
            for label in labels:
                key = (conversation, label)
                if label not in stops:
                    stopped_at.pop(key, None)
                elif key not in stopped_at or key in ended:
                    stopped_at[key] = step.index
            offering = [t for t in labels if turns[t].continueOffered is True]
            if not offering:
                continue
            last = max(stopped_at[(conversation, t)] for t in stops)
            newest = {stops[-1], *(t for t in stops if stopped_at[(conversation, t)] == last)}
            if len(offering) > 1 or offering[0] not in newest:
                return (
                    f"after step {step.index} ({step.op}), Continue is offered for "
                    f"{show(offering)} in conversation {conversation}, where it is offered "
                    f"for one stop only, the newest: one of {show(sorted(newest))} (the "
                    "latest stopped turn, or the stop made last)"
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
