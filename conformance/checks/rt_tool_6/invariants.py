"""RT-TOOL-6's invariants: no delivered payload over its bound, and no artifact with an
empty type delivered."""

from __future__ import annotations

import json

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    Invariant,
    canary_of,
    canary_phrase,
    delivered,
    invariant,
    mapping,
    scripted_entries,
    wires,
)

__all__ = ["INVARIANTS"]


def payload_within_bound(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """No delivered artifact's payload exceeds the payload bound, measured in UTF-8 bytes
    of its compact JSON encoding: every other encoding of it is larger, so whatever the
    implementation measures, it is over (RT-TOOL-6 ¶3: dropped, with a warning)."""
    bound = (scenario.bounds.payload_bytes if scenario.bounds else None) or (
        handshake.limits.payload_bytes
    )
    if bound is None:
        return None
    for index, _conversation, turn, wire in wires(trace):
        for entry in delivered(wire):
            size = _compact_size(mapping(entry).get("payload"))
            if size > bound:
                return (
                    f"after step {index}, turn {turn} delivers "
                    f"{canary_phrase(canary_of(entry))} whose payload is {size} bytes encoded, "
                    f"over the bound of {bound}"
                )
    return None


def _compact_size(payload: object) -> int:
    return len(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _over_the_bound_produced(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    bound = (scenario.bounds.payload_bytes if scenario.bounds else None) or (
        handshake.limits.payload_bytes
    )
    if bound is None:
        return False
    return any(
        _compact_size(mapping(entry).get("payload")) > bound
        for run in trace.runs()
        for one in run.passes
        for result in one.results
        for entry in scripted_entries(result.result)
    )


def empty_type_refused(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """An artifact with an empty `type` is never delivered (RT-TOOL-6 ¶5); whether the
    tool result or the port still carries it depends on where collection happens
    (docs/interpretations.md#empty-type), so only the wire is judged."""
    for index, _conversation, turn, wire in wires(trace):
        for entry in delivered(wire):
            if mapping(entry).get("type") == "":
                return f"after step {index}, turn {turn} delivers an entry with an empty type"
    return None


def _empty_type_produced(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    for run in trace.runs():
        for one in run.passes:
            for result in one.results:
                if result.disposition == "executed" and mapping(result.result).get("success"):
                    tool = next((t for t in scenario.tools if t.name == result.tool), None)
                    if tool is not None and any(
                        mapping(e).get("type") == ""
                        for ret in tool.returns
                        for e in scripted_entries(ret.output)
                    ):
                        return True
    return False


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "payload-within-bound",
        ("RT-TOOL-6#c3",),
        payload_within_bound,
        "an artifact whose payload exceeds the payload bound",
        _over_the_bound_produced,
        collecting=True,
        rank=130,
    ),
    invariant(
        "empty-type-refused",
        ("RT-TOOL-6#c5",),
        empty_type_refused,
        "an artifact with an empty type from a call that succeeded",
        _empty_type_produced,
        collecting=True,
        rank=140,
    ),
)
