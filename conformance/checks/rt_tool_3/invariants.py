"""RT-TOOL-3's invariants: what the `tool_artifacts` port surfaces, and what never reaches
the model (with RT-TOOL-2 ¶4)."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    RESULTS_SHAPED,
    Breach,
    Invariant,
    Produced,
    canaries_in,
    canary_of,
    canary_phrase,
    delivered,
    invariant,
    mapping,
    produced,
    scripted_entries,
    seen_passes,
    show,
    wires,
)

__all__ = ["INVARIANTS"]


def no_prose_leak(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A canary that lives only in an artifact's payload never reaches the model.  Where a
    result's `data` kept the reserved key, the leak is RT-TOOL-2 ¶4's ("removed from the
    result's `data`, so it never reaches the prose"): prose built from that `data` alone
    still carries it, and RT-TOOL-3 ¶3 is not what broke."""
    for run in trace.runs():
        for given in run.model_inputs:
            leaked = canaries_in(list(given.messages))
            if leaked:
                said = (
                    f"{canary_phrase(leaked[0])} reached the model's input in run {run.id} of "
                    f"{run.turn}"
                )
                kept = _kept_in_data(trace, leaked[0])
                if kept:
                    return Breach(f"{said}; a result's data keeps it ({kept})", (C4,))
                return said
    return None


C4 = "RT-TOOL-2#c4"


def _kept_in_data(trace: Trace, canary: str) -> str | None:
    """Where a result's `data` keeps the reserved key holding ``canary``, if one does."""
    for seen in seen_passes(trace):
        for index, result in enumerate(seen.one.results):
            data = mapping(result.result).get("data")
            if isinstance(data, Mapping) and canary in canaries_in(data.get("artifacts")):
                return f"at {seen.at}/results/{index}/result/data/artifacts"
    return None


def _produced_any(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return bool(produced(trace))


def shape_and_pairing(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Every artifact on the `tool_artifacts` port and on the wire is exactly
    `{type, payload, tool_call_id}`, paired with the call that produced it."""
    made = produced(trace)
    for run in trace.runs():
        for one in run.passes:
            surfaced = mapping(one.ports).get("tool_artifacts")
            for entry in surfaced if isinstance(surfaced, list) else ():
                found = _entry_problem(entry, made)
                if found:
                    return f"in run {run.id}, the tool_artifacts port carries {found}"
    for index, _conversation, turn, wire in wires(trace):
        for entry in delivered(wire):
            found = _entry_problem(entry, made)
            if found:
                return f"after step {index}, turn {turn} carries {found}"
    return None


def _entry_problem(entry: object, made: Mapping[str, Produced]) -> str | None:
    keys = sorted(mapping(entry))
    if keys != ["payload", "tool_call_id", "type"]:
        return f"an entry with keys {show(keys)}"
    canary = canary_of(entry)
    if (
        canary is not None
        and canary in made
        and (mapping(entry).get("tool_call_id") != made[canary].tool_call_id)
    ):
        return (
            f"{canary_phrase(canary)} paired with call {show(mapping(entry).get('tool_call_id'))}, "
            f"but call {show(made[canary].tool_call_id)} produced it"
        )
    return None


def _forging_tool_ran(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A tool that forges its call id or adds a key of its own produced an artifact."""
    forged = {
        canary_of(entry)
        for tool in scenario.tools
        for ret in tool.returns
        for entry in scripted_entries(ret.output)
        if isinstance(entry, Mapping) and set(entry) - {"type", "payload"}
    }
    return bool(forged & set(produced(trace)))


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "no-prose-leak",
        ("RT-TOOL-3#c3", "RT-TOOL-2#c4"),
        no_prose_leak,
        "an artifact produced by a call",
        _produced_any,
        rank=70,
        # ¶3's prose is built from a result's data: results without one are RT-TOOL-1 ¶1's
        through=(RESULTS_SHAPED.judging("RT-TOOL-3#c3"),),
    ),
    invariant(
        "shape-and-pairing",
        ("RT-TOOL-3#c1",),
        shape_and_pairing,
        "an artifact from a tool that forges its call id or adds keys of its own",
        _forging_tool_ran,
        rank=80,
    ),
)
