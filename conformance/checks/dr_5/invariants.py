"""DR-5's invariants: at most three automatic continuations, and a stop that waits with
Continue offered."""

from __future__ import annotations

from collections import Counter

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    Invariant,
    describe,
    invariant,
    mapping,
    stopped_with_continue,
)

__all__ = ["INVARIANTS"]

#: Causes after which a turn waits for Continue in every reading (a crash may be taken up
#: by a background run, so it is left out).
_STOPPING = frozenset({"error", "stop", "cancel", "credential", "rate_limit"})


def continuation_count(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """No turn continues on its own more than three times, whatever else happened to it."""
    counted = Counter((r.conversation, r.turn) for r in trace.runs() if r.cause == "auto_continue")
    over = [(key, n) for key, n in counted.items() if n > 3]
    if over:
        (conversation, turn), times = over[0]
        return f"turn {turn} ({conversation}) continued on its own {times} times"
    return None


def _continued_on_its_own(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(run.cause == "auto_continue" for run in trace.runs())


def stop_offers_continue(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """After an error, a stop, a cancellation, or a credential or rate-limit failure, the
    turn ends with Continue available."""
    for step in trace.steps:
        for run in step.runs:
            cause = mapping(run.interruption).get("cause")
            if run.end != "interrupted" or cause not in _STOPPING:
                continue
            wire = step.wire.get(run.conversation, {}).get(run.turn)
            later = [r for r in step.runs if r.turn == run.turn and r is not run]
            if later:
                continue  # the turn went on within the step (it was continued again)
            if not stopped_with_continue(handshake, wire):
                return (
                    f"after step {step.index} ({step.op}), run {run.id} was cut by {cause} and "
                    f"turn {run.turn} does not wait with Continue offered: "
                    f"{describe(handshake, wire)}"
                )
    return None


def _stopping_cut(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(
        run.end == "interrupted" and mapping(run.interruption).get("cause") in _STOPPING
        for run in trace.runs()
    )


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "continuation-count",
        ("DR-5#c3", "DR-5#c4"),
        continuation_count,
        "a turn that continued on its own",
        _continued_on_its_own,
        profile="durable-resume",
        rank=310,
    ),
    invariant(
        "stop-offers-continue",
        ("DR-5#c5",),
        stop_offers_continue,
        "a run cut by an error, a stop, a cancellation or a credential or rate-limit failure",
        _stopping_cut,
        profile="durable-resume",
        rank=320,
    ),
)
