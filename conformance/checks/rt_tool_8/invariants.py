"""RT-TOOL-8's invariant: what a tool receives is the model's arguments reconciled with its
schema, as the oracle in :mod:`conformance.checks.rt_tool_8._reconcile` computes them."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks.rt_tool_8._observed import ALL_CLAUSES, reconciled_calls
from conformance.toolkit import Breach, Invariant, invariant, mapping, show

__all__ = ["INVARIANTS"]


def arguments_reconciled(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """What a tool body receives, and what a result reports as the reconciled arguments,
    is the model's arguments reconciled with the tool's schema: JSON strings decoded for
    declared array and object parameters when the shape matches, character references
    decoded until stable, keys and plain text untouched (RT-TOOL-8).  A wrong
    reconciliation is charged to the clauses whose words it breaks
    (:func:`~conformance.checks.rt_tool_8._observed.broken_clauses`); a body handed other
    arguments than the reconciliation its result reports, to ¶1."""
    for found in reconciled_calls(scenario, trace, handshake):
        for value, whose in ((found.reported, "reported"), (found.received, "received")):
            if value is None or value in found.expected:
                continue
            if whose == "received" and found.reported is not None:
                # One reconciliation reported, another handed to the body: the arguments
                # were not reconciled *before the tool was invoked* (¶1).
                broken: tuple[str, ...] = ("RT-TOOL-8#c1",)
            else:
                broken = found.broken(value)
            return Breach(
                f"{found.tool} was sent {show(found.sent)} and {whose} {show(value)} (at "
                f"{found.at}); reconciled with its schema it is {show(found.expected[0])}",
                broken,
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
        ALL_CLAUSES,
        arguments_reconciled,
        "a call whose tool declares array, object and string parameters",
        _reconciling_call,
        rank=240,
    ),
)
