"""RT-TOOL-4's invariants: artifacts persisted on the messages, never in their metadata,
and aggregated by the turn's result."""

from __future__ import annotations

import json

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    COLLECTION_STAYS_OPEN,
    DELIVERY,
    HELD_ACROSS_A_PAUSE,
    HELD_PUT_BACK,
    HELD_TAKEN_BY_THEIR_TURN,
    TOOL_ARTIFACTS_FIELD,
    Invariant,
    Produced,
    canaries_in,
    canary_phrase,
    delivered,
    invariant,
    listing,
    mapping,
    message_canaries,
    no_loss,
    pointers,
    produced_then_completed,
    wires,
)

__all__ = ["INVARIANTS"]


def _every(trace: Trace, made: Produced) -> bool:
    return True


def no_metadata_leak(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """No canary anywhere under any message's metadata."""
    for index, _conversation, turn, wire in wires(trace):
        for number, row in enumerate(wire.messages):
            metadata = mapping(row).get("metadata")
            leaked = canaries_in(metadata)
            if leaked:
                at = pointers(metadata, leaked[0], f"/messages/{number}/metadata")
                return (
                    f"after step {index}, message {number} of turn {turn} has "
                    f"{canary_phrase(leaked[0])} in its metadata, at {listing(at)}"
                )
    return None


def _delivered_any(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(message_canaries(w) for _, _, _, w in wires(trace))


def aggregation(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A turn's result holds exactly its messages' artifacts, after every step (restarts
    included); in which order the rule does not say."""
    for index, _conversation, turn, wire in wires(trace):
        carried = wire.toolArtifacts if isinstance(wire.toolArtifacts, list) else None
        if carried is None or sorted(map(_key, carried)) != sorted(map(_key, delivered(wire))):
            return (
                f"after step {index}, turn {turn}'s result does not equal what its messages carry"
            )
    return None


def _key(entry: object) -> str:
    return json.dumps(entry, sort_keys=True, default=str)


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "no-metadata-leak",
        ("RT-TOOL-4#c3",),
        no_metadata_leak,
        "an artifact delivered on the wire",
        _delivered_any,
        collecting=True,
        rank=10,
    ),
    invariant(
        "no-loss",
        ("RT-TOOL-4#c1",),
        no_loss(_every),
        "an artifact produced in a turn that completed",
        produced_then_completed(_every),
        collecting=True,
        rank=20,
        through=(
            ARTIFACTS_ATTACHED,
            ARTIFACTS_LISTED,
            TOOL_ARTIFACTS_FIELD,
            COLLECTION_STAYS_OPEN,
            HELD_ACROSS_A_PAUSE,
            HELD_PUT_BACK,
            HELD_TAKEN_BY_THEIR_TURN,
        ),
    ),
    invariant(
        "aggregation",
        ("RT-TOOL-4#c2",),
        aggregation,
        "an artifact delivered on the wire",
        _delivered_any,
        collecting=True,
        rank=120,
        through=DELIVERY,
    ),
)
