"""RT-TOOL-2's invariant: a call that failed or was declined carries no artifacts."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import Invariant, emitting_tools, invariant, mapping, seen_passes

__all__ = ["INVARIANTS"]


def failed_carries_none(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A call that failed or was declined carries no artifacts."""
    for seen in seen_passes(trace):
        for index, result in enumerate(seen.one.results):
            body = mapping(result.result)
            failed = body.get("success") is False or result.disposition == "declined"
            if failed and "artifacts" in body:
                return (
                    f"a {result.disposition} call that did not succeed carries artifacts "
                    f"(at {seen.at}/results/{index}/result/artifacts)"
                )
    return None


def _failure_of_an_emitter(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    emitting = emitting_tools(scenario)
    return any(
        str(r.tool) in emitting
        and (mapping(r.result).get("success") is False or r.disposition == "declined")
        for _, one in trace.passes()
        for r in one.results
    )


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "failed-carries-none",
        ("RT-TOOL-2#c5",),
        failed_carries_none,
        "a failed or declined call of a tool that emits artifacts",
        _failure_of_an_emitter,
        rank=250,
    ),
)
