"""RT-TOOL-8's invariant: what a tool receives is the model's arguments reconciled with its
schema, as the oracle in :mod:`conformance.checks.rt_tool_8._reconcile` computes them."""

from __future__ import annotations

from collections import Counter

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks.rt_tool_8._reconcile import readings
from conformance.toolkit import (
    Invariant,
    invariant,
    mapping,
    paired,
    seen_passes,
    show,
    well_formed,
)

__all__ = ["INVARIANTS"]


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
                    return (
                        f"{name} was sent {show(call.get('args'))} and received or reported "
                        f"{show(value)} (at {seen.at}/results/{index}); reconciled with its "
                        f"schema it is {show(expected[0])}"
                    )
    return None


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
        ("RT-TOOL-8#c1", "RT-TOOL-8#c2", "RT-TOOL-8#c3", "RT-TOOL-8#c4", "RT-TOOL-8#c5"),
        arguments_reconciled,
        "a call whose tool declares array, object and string parameters",
        _reconciling_call,
    ),
)
