"""RT-TOOL-1's invariants (and RT-TOOL-2 ¶3, ¶4, which speak of the same results): the
shape of every tool result, and artifacts kept beside its data."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    Breach,
    Invariant,
    canaries_in,
    emitting_tools,
    invariant,
    kept_entry,
    mapping,
    seen_passes,
    show,
)

__all__ = ["INVARIANTS"]

C1, C2 = "RT-TOOL-1#c1", "RT-TOOL-1#c2"


def result_shape(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Every tool result is `{success, data, error}`, plus `artifacts` only when at least
    one well-formed entry (a string `type`, a map `payload`) was attached."""
    for seen in seen_passes(trace):
        for index, result in enumerate(seen.one.results):
            at = f"{seen.at}/results/{index}/result"
            body = result.result
            if not isinstance(body, Mapping):
                return Breach(f"a tool result is {show(body)} (at {at}), not a map", (C1,))
            keys = set(body)
            if keys not in (
                {"success", "data", "error"},
                {"success", "data", "error", "artifacts"},
            ):
                return Breach(f"a tool result has keys {show(sorted(keys))} (at {at})", (C1,))
            if not isinstance(body.get("success"), bool):
                return Breach(
                    f"a tool result's success is {show(body.get('success'))} (at {at})", (C1,)
                )
            if "artifacts" in body:
                attached = body["artifacts"]
                if not isinstance(attached, list) or not attached:
                    return Breach(
                        f"a tool result carries artifacts {show(attached)} (at {at})", (C2,)
                    )
                for number, entry in enumerate(attached):
                    if not kept_entry(entry):
                        # Keeping what is not well-formed is the filtering's failure.
                        return Breach(
                            f"a tool result attaches {show(entry)} (at {at}/artifacts/{number}),"
                            " which has no string type or no map payload",
                            ("RT-TOOL-2#c3",),
                        )
    return None


def _any_result(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(one.results for _, one in trace.passes())


def artifacts_beside_data(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """The reserved key is removed from `data`, and no artifact is folded into it."""
    for seen in seen_passes(trace):
        for index, result in enumerate(seen.one.results):
            body = mapping(result.result)
            if body.get("success") is not True:
                continue
            data, at = body.get("data"), f"{seen.at}/results/{index}/result/data"
            # A key never removed is RT-TOOL-2 ¶4's; what it carries into `data` was
            # never lifted, so nothing was folded there (¶3).
            if isinstance(data, Mapping) and "artifacts" in data:
                return Breach(
                    f"a result's data keeps the reserved artifacts key (at {at})", ("RT-TOOL-2#c4",)
                )
            if canaries_in(data):
                return Breach(
                    f"a result's data holds an artifact's payload {show(data)} (at {at})",
                    ("RT-TOOL-1#c3",),
                )
    return None


def _success_of_an_emitter(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    emitting = emitting_tools(scenario)
    return any(
        str(r.tool) in emitting and mapping(r.result).get("success") is True
        for _, one in trace.passes()
        for r in one.results
    )


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "result-shape",
        ("RT-TOOL-1#c1", "RT-TOOL-1#c2", "RT-TOOL-2#c3"),
        result_shape,
        "a tool result",
        _any_result,
        rank=220,
    ),
    invariant(
        "artifacts-beside-data",
        ("RT-TOOL-1#c3", "RT-TOOL-2#c4"),
        artifacts_beside_data,
        "a successful call of a tool that emits artifacts",
        _success_of_an_emitter,
        rank=230,
    ),
)
