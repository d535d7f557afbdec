"""RT-TOOL-5's invariants: an artifact arriving for a run whose collection is not open is
never delivered, and every run releases its collection."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import EmitLateArtifact, Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    Invariant,
    canary_of,
    canary_phrase,
    invariant,
    show,
    wire_canaries,
    wires,
)

__all__ = ["INVARIANTS"]


def late_artifacts_dropped(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """An artifact arriving for a run whose collection is not open (never opened, or
    released) is never delivered (RT-TOOL-5 ¶2, ¶3)."""
    late = {
        canary_of(step.artifact)
        for step in scenario.steps
        if isinstance(step, EmitLateArtifact) and canary_of(step.artifact)
    }
    for index, _conversation, turn, wire in wires(trace):
        for canary in wire_canaries(wire):
            if canary in late:
                return (
                    f"after step {index}, turn {turn} delivers {canary_phrase(canary)}, which "
                    "arrived out of band for a run whose collection was not open"
                )
    return None


def _late_emitted(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(isinstance(step, EmitLateArtifact) for step in scenario.steps)


def collection_released(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Once a step has come to rest, no run has its collection open: a run that returns,
    pauses, fails or is cut releases it (RT-TOOL-5 ¶4)."""
    for step in trace.steps:
        if step.open_collections:
            return (
                f"after step {step.index} ({step.op}), collection is still open for "
                f"{show(list(step.open_collections))}"
            )
    return None


def _run_ended_otherwise(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(run.end != "completed" for run in trace.runs())


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "late-artifacts-dropped",
        ("RT-TOOL-5#c2", "RT-TOOL-5#c3"),
        late_artifacts_dropped,
        "an artifact arriving for a run whose collection was not open",
        _late_emitted,
        needs=("late_artifacts",),
        collecting=True,
        rank=150,
    ),
    invariant(
        "collection-released",
        ("RT-TOOL-5#c4",),
        collection_released,
        "a run that paused, failed or was cut",
        _run_ended_otherwise,
        needs=("collection_observation",),
        collecting=True,
        rank=160,
    ),
)
