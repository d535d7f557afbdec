"""The channels observations go through, each with the clause that makes it hold.

Each test is what its clause's own words promise, read off one trace, and is kept
narrow: it says a channel is broken only where the trace shows it broken, so that a
case is blocked only by a break its observation could have gone through.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit._channels import Channel
from conformance.toolkit._json import mapping
from conformance.toolkit._passes import seen_passes
from conformance.toolkit._produced import no_loss, scripted_entries
from conformance.toolkit._results import kept_entry
from conformance.toolkit._shown import show

__all__ = [
    "ARTIFACTS_ATTACHED",
    "ARTIFACTS_ON_MESSAGES",
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


def _emitted(scenario: Scenario, trace: Trace) -> Iterator[tuple[str, list[object]]]:
    """``(call id, the well-formed entries its body's output carried)`` of every call
    whose body ran, its output the scripted one for that invocation of its tool (the
    ``n``-th run of a body plays its ``n``-th return, the last repeating)."""
    by_name = {tool.name: tool for tool in scenario.tools}
    runs: dict[str, int] = {}
    for run in trace.runs():
        for effect in run.side_effects:
            done = mapping(effect)
            name, call = str(done.get("tool")), done.get("tool_call_id")
            tool = by_name.get(name)
            count = runs.get(name, 0)
            runs[name] = count + 1
            if tool is None or not isinstance(call, str) or not tool.returns:
                continue
            played = tool.returns[min(count, len(tool.returns) - 1)]
            if played.output is None:
                continue
            kept = [entry for entry in scripted_entries(played.output) if kept_entry(entry)]
            if kept:
                yield call, kept


def _artifacts_attached(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    emitted = dict(_emitted(scenario, trace))
    for seen in seen_passes(trace):
        for index, result in enumerate(seen.one.results):
            body = mapping(result.result)
            call = result.tool_call_id
            if call not in emitted or result.disposition != "executed":
                continue
            if body.get("success") is not True:
                continue
            if not isinstance(body.get("artifacts"), list) or not body["artifacts"]:
                return (
                    f"call {call}'s body emitted {len(emitted[call])} well-formed artifact "
                    f"entries and its successful result attaches none (at {seen.at}/results/"
                    f"{index}/result)"
                )
    return None


#: RT-TOOL-2 ¶3: a successful call's well-formed entries are attached to its result.
ARTIFACTS_ATTACHED = Channel(
    "the artifacts attached to the results of the calls that emitted them",
    "RT-TOOL-2#c3",
    _artifacts_attached,
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


def _every(trace: Trace, made: object) -> bool:
    return True


_NO_LOSS = no_loss(_every)


def _on_messages(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    if not handshake.collects_artifacts:
        return None
    return _NO_LOSS(scenario, trace, handshake)


#: RT-TOOL-4 ¶1: a completed turn's artifacts are persisted on its messages.
ARTIFACTS_ON_MESSAGES = Channel(
    "the artifacts persisted on the turn's messages", "RT-TOOL-4#c1", _on_messages
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
