"""RT-TOOL-8's invariant: what a tool receives is the model's arguments reconciled with its
schema, as the oracle in :mod:`conformance.checks.rt_tool_8._reconcile` computes them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks.rt_tool_8._reconcile import declared_types, readings
from conformance.toolkit import (
    Breach,
    Invariant,
    invariant,
    mapping,
    paired,
    seen_passes,
    show,
    well_formed,
)

__all__ = ["INVARIANTS", "broken_clauses"]


def arguments_reconciled(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """What a tool body receives, and what a result reports as the reconciled arguments,
    is the model's arguments reconciled with the tool's schema: JSON strings decoded for
    declared array and object parameters when the shape matches, character references
    decoded until stable, keys and plain text untouched (RT-TOOL-8)."""
    schemas = {tool.name: tool.input_schema for tool in scenario.tools}
    bound = handshake.limits.normalize_passes
    for seen in seen_passes(trace):
        # What a body received, where one body ran for the id (a batch may send an id
        # twice, and which body got which arguments is then not known).
        bodies = Counter(mapping(e).get("tool_call_id") for e in seen.run.side_effects)
        received = {
            mapping(e).get("tool_call_id"): mapping(e).get("input")
            for e in seen.run.side_effects
            if bodies[mapping(e).get("tool_call_id")] == 1
        }
        for index, (result, call) in enumerate(paired(seen.one)):
            name = str(result.tool)
            # Reported arguments are judged even where validation then refused the call.
            if result.disposition not in ("executed", "invalid") or name not in schemas:
                continue
            expected = readings(call.get("args"), schemas[name], bound)
            call_id = result.tool_call_id
            got = [result.arguments] if result.arguments is not None else []
            sent = sum(1 for c in well_formed(seen.one.batch) if c.get("tool_call_id") == call_id)
            if call_id is not None and call_id in received and sent == 1:
                got.append(received[call_id])
            for value in got:
                if value not in expected:
                    return Breach(
                        f"{name} was sent {show(call.get('args'))} and received or reported "
                        f"{show(value)} (at {seen.at}/results/{index}); reconciled with its "
                        f"schema it is {show(expected[0])}",
                        broken_clauses(call.get("args"), schemas[name], value, expected[0]),
                    )
    return None


_ALL = ("RT-TOOL-8#c1", "RT-TOOL-8#c2", "RT-TOOL-8#c3", "RT-TOOL-8#c4", "RT-TOOL-8#c5")


def broken_clauses(sent: object, schema: object, got: object, expected: object) -> tuple[str, ...]:
    """The clauses of RT-TOOL-8 whose words ``got`` breaks, argument by argument: a JSON
    string left undecoded breaks ¶2, a string decoded or a parse substituted where one
    of the three conditions fails ¶3, a character reference left in ¶4, a key changed or
    reference-free text changed ¶5; a repair left undone also breaks ¶1 (arguments are
    reconciled before the tool is invoked).  Every clause, when none can be told."""
    if not (
        isinstance(sent, Mapping) and isinstance(got, Mapping) and isinstance(expected, Mapping)
    ):
        return _ALL
    declared = declared_types(schema)
    found: set[str] = set()
    if set(map(str, got)) != set(map(str, sent)):
        found.add("RT-TOOL-8#c5")
    for key, value in sent.items():
        if key not in got or key not in expected:
            continue
        mine, want = got[key], expected[key]
        if mine == want:
            continue
        decodable = declared.get(str(key)) in ("array", "object") and isinstance(value, str)
        if isinstance(value, str) and not isinstance(mine, str) and isinstance(want, str):
            found.add("RT-TOOL-8#c3")  # decoded where it had to pass through
        elif decodable and isinstance(mine, str) and not isinstance(want, str):
            found.update(("RT-TOOL-8#c1", "RT-TOOL-8#c2"))  # a JSON string left undecoded
        elif value == want:
            found.add("RT-TOOL-8#c5")  # text without a reference came back changed
        else:
            found.update(("RT-TOOL-8#c1", "RT-TOOL-8#c4"))  # references not decoded to stable
    return tuple(clause for clause in _ALL if clause in found) or _ALL


def _reconciling_call(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    declared = {t.name for t in scenario.tools if mapping(t.input_schema).get("properties")}
    return any(
        r.disposition in ("executed", "invalid") and str(r.tool) in declared
        for _, one in trace.passes()
        for r in one.results
    )


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "arguments-reconciled",
        _ALL,
        arguments_reconciled,
        "a call whose tool declares array, object and string parameters",
        _reconciling_call,
        rank=240,
    ),
)
