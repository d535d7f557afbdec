"""The channels observations go through, each with the clause that makes it hold.

Each test is what its clause's own words promise, read off one trace, and is kept
narrow: it says a channel is broken only where the trace shows it broken, so that a
case is blocked only by a break its observation could have gone through.  The channels
of artifacts on their way to a turn's messages are in :mod:`._through_artifacts`.
"""

from __future__ import annotations

from collections.abc import Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit._channels import Channel
from conformance.toolkit._json import mapping
from conformance.toolkit._passes import seen_passes
from conformance.toolkit._shown import show

__all__ = [
    "RESERVED_KEY_REMOVED",
    "RESULTS_SHAPED",
    "WORK_PORTS",
]

_WORK = ("executed_any", "executed", "skipped")


def _results_shaped(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for seen in seen_passes(trace):
        for index, result in enumerate(seen.one.results):
            body = result.result
            at = f"{seen.at}/results/{index}/result"
            if not isinstance(body, Mapping):
                return f"a tool result is {show(body)}, not a map (at {at})"
            missing = [key for key in ("success", "data", "error") if key not in body]
            if missing:
                return f"a tool result has no {', '.join(missing)} (at {at})"
            if not isinstance(body["success"], bool):
                return f"a tool result's success is {show(body['success'])} (at {at})"
    return None


#: RT-TOOL-1 ¶1: every tool result is ``{success, data, error}``.
RESULTS_SHAPED = Channel(
    "tool results shaped {success, data, error}", "RT-TOOL-1#c1", _results_shaped
)


def _reserved_key_removed(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for seen in seen_passes(trace):
        for index, result in enumerate(seen.one.results):
            data = mapping(result.result).get("data")
            if isinstance(data, Mapping) and "artifacts" in data:
                at = f"{seen.at}/results/{index}/result/data/artifacts"
                return f"a result's data keeps the reserved artifacts key (at {at})"
    return None


#: RT-TOOL-2 ¶4: the reserved key is removed from the result's ``data``.
RESERVED_KEY_REMOVED = Channel(
    "results whose data the reserved key was removed from", "RT-TOOL-2#c4", _reserved_key_removed
)


def _work_ports(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for seen in seen_passes(trace):
        if seen.one.paused or seen.one.cut:
            continue
        reported = mapping(seen.one.ports)
        missing = [name for name in _WORK if name not in reported]
        if missing:
            return f"a pass reports no {' or '.join(missing)} port (at {seen.at}/ports)"
        if not isinstance(reported["executed_any"], bool):
            return f"a pass's executed_any is {show(reported['executed_any'])} (at {seen.at}/ports)"
    return None


#: RT-TOOL-10 ¶1: every pass reports ``executed_any``, ``executed`` and ``skipped``.
WORK_PORTS = Channel("the executed_any, executed and skipped ports", "RT-TOOL-10#c1", _work_ports)
