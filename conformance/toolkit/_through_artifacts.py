"""The channels an observation of artifacts goes through, each with the clause that makes
it hold: the value a result's ``data`` carries, the artifacts attached to a result, the
``tool_artifacts`` port, and the artifacts persisted on a turn's messages.

Each test reads only what its clause's own words promise, and says a channel is broken
only where the trace shows it broken beyond doubt: the same artifacts reported on a
turn's result and carried by none of its messages, a tool's map turned into a string,
no attachment at all where nodes emitted entries.  A runtime that merely differs from
the reference is never taken for a broken channel.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Return, Scenario
from adapters.trace import ToolResultRecord, Trace, TurnWire
from conformance.toolkit._channels import Channel
from conformance.toolkit._json import mapping
from conformance.toolkit._produced import wires
from conformance.toolkit._results import entries, kept_entry, projection, same_json
from conformance.toolkit._running import has_port
from conformance.toolkit._shown import show
from conformance.toolkit._states import in_state
from conformance.toolkit._traces import delivered, escape_token, located_passes, pointers

__all__ = [
    "ANY_ARTIFACT_ATTACHED",
    "ARTIFACTS_ATTACHED",
    "ARTIFACTS_LISTED",
    "ARTIFACTS_ON_MESSAGES",
    "DATA_AS_PRODUCED",
    "DATA_DISJOINT",
    "MESSAGE_DELIVERY",
    "TOOL_ARTIFACTS_FIELD",
    "TOOL_ARTIFACTS_PORT",
]

_RESERVED = "artifacts"


@dataclass(frozen=True)
class _Executed:
    """A call whose body ran: where its result is, the result, and what its node did on
    that invocation (the ``n``-th run of a tool plays its ``n``-th scripted return, the
    last repeating)."""

    at: str
    result: ToolResultRecord
    returned: Return
    #: the tool has one scripted return, so which invocation this was cannot matter
    only: bool = False

    @property
    def succeeded(self) -> bool:
        """The node returned normally and the result says the call succeeded."""
        return self.returned.fail is None and mapping(self.result.result).get("success") is True

    @property
    def emitted(self) -> list[object]:
        """The well-formed entries its node put on the reserved key (RT-TOOL-2 ¶3 keeps
        them)."""
        found = mapping(self.returned.output).get(_RESERVED)
        return [entry for entry in entries(found) if kept_entry(entry)]


def _executed(scenario: Scenario, trace: Trace) -> Iterator[_Executed]:
    tools = {tool.name: tool for tool in scenario.tools}
    played: dict[str, int] = {}
    for at, _, one in located_passes(trace):
        for number, result in enumerate(one.results):
            if result.disposition != "executed" or not isinstance(result.tool, str):
                continue
            tool = tools.get(result.tool)
            if tool is None or not tool.returns:
                continue
            count = played.get(tool.name, 0)
            played[tool.name] = count + 1
            returned = tool.returns[min(count, len(tool.returns) - 1)]
            only = len(tool.returns) == 1
            yield _Executed(f"{at}/results/{number}/result", result, returned, only)


def _data_as_produced(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for done in _executed(scenario, trace):
        produced = done.returned.output
        if not done.succeeded or produced is None or isinstance(produced, str):
            continue
        if isinstance(produced, Mapping):
            produced = {key: value for key, value in produced.items() if key != _RESERVED}
        data = mapping(done.result.result).get("data")
        if isinstance(data, str):
            return (
                f"call {done.result.tool_call_id}'s tool produced {show(produced, 80)}, and "
                f"its result's data is the text {show(data, 80)}, a rendering of it (at "
                f"{done.at}/data)"
            )
    return None


#: RT-TOOL-1 ¶1: a result's ``data`` is what the tool produced, a JSON value, not a text
#: rendering of it (broken where a tool's map, list, number, boolean or null comes back
#: as a string).
DATA_AS_PRODUCED = Channel(
    "results whose data is the value the tool produced", "RT-TOOL-1#c1", _data_as_produced
)


def _folded(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for done in _executed(scenario, trace):
        produced = done.returned.output
        if not done.succeeded or not isinstance(produced, Mapping):
            continue
        mine = {key: value for key, value in produced.items() if key != _RESERVED}
        data = mapping(done.result.result).get("data")
        if not isinstance(data, Mapping):
            continue
        beside = {key: value for key, value in data.items() if key != _RESERVED}
        for entry in done.emitted:
            payload = mapping(entry).get("payload")
            if not payload or pointers(mine, payload):
                continue
            found = pointers(beside, payload, f"{done.at}/data")
            if found:
                return (
                    f"call {done.result.tool_call_id}'s data carries the payload of "
                    f"{show(entry, 80)}, an artifact its node emitted on the reserved key, "
                    f"which the tool's own data does not hold (at {found[0]})"
                )
    return None


#: RT-TOOL-1 ¶3: "Artifacts are attached additively, and are never folded into `data`: the
#: two are disjoint" (broken where a successful result's data carries, outside a kept
#: reserved key, an artifact's payload the tool's own data does not hold).  What reaches
#: the prose from such a data is the fold's, not the prose's.
DATA_DISJOINT = Channel("results whose data holds no artifact", "RT-TOOL-1#c3", _folded)


def _listed(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for done in _executed(scenario, trace):
        body = mapping(done.result.result)
        if done.succeeded and _RESERVED in body and not isinstance(body[_RESERVED], list):
            return (
                f"call {done.result.tool_call_id}'s result carries artifacts "
                f"{show(body[_RESERVED], 80)}, not a list of them (at {done.at}/artifacts)"
            )
    return None


#: RT-TOOL-1 ¶2: the `artifacts` key a result carries is the list of what was attached
#: (broken where a successful result carries it as anything but a list: an entry bare, a
#: map of them).
ARTIFACTS_LISTED = Channel("results whose artifacts key holds a list", "RT-TOOL-1#c2", _listed)


def _lost(done: _Executed, warned: set[tuple[str | None, str | None]]) -> list[object]:
    """The well-formed entries ``done``'s node emitted that its result, which attaches
    some, does not attach, and no warning names (a bound may drop one with a warning,
    RT-TOOL-6 ¶3; an empty type may be refused outright, ¶5).  Only a tool with one
    scripted return is judged: which return an invocation played is read off how often
    the tool ran before, and a body run the trace does not report would shift it."""
    attached = [projection(entry) for entry in entries(mapping(done.result.result).get(_RESERVED))]
    if not attached or not done.only:
        return []
    return [
        entry
        for entry in done.emitted
        if mapping(entry).get("type") != ""
        and (done.result.tool_call_id, mapping(entry).get("type")) not in warned
        and not any(same_json(projection(entry), one) for one in attached)
    ]


def _artifacts_attached(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    return _attached(scenario, trace, every=True)


def _any_attached(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    return _attached(scenario, trace, every=False)


def _attached(scenario: Scenario, trace: Trace, *, every: bool) -> str | None:
    emitting: list[_Executed] = []
    warned = {(one.tool_call_id, one.type) for one in trace.warnings()}
    for done in _executed(scenario, trace):
        if not done.succeeded:
            continue
        lost = _lost(done, warned) if every else []
        if lost:
            return (
                f"call {done.result.tool_call_id}'s node emitted {len(done.emitted)} "
                f"well-formed entries and its result attaches "
                f"{len(entries(mapping(done.result.result).get(_RESERVED)))}, without "
                f"{show(lost[0], 80)}, and no warning names it (at {done.at}/artifacts)"
            )
        attached = mapping(done.result.result).get(_RESERVED)
        for number, entry in enumerate(entries(attached)):
            if not kept_entry(entry):
                return (
                    f"call {done.result.tool_call_id}'s result attaches {show(entry, 80)}, "
                    f"which has no string type or no map payload (at {done.at}/artifacts/"
                    f"{number})"
                )
        if done.emitted:
            emitting.append(done)
    if emitting and not any(_RESERVED in mapping(d.result.result) for d in emitting):
        first = emitting[0]
        return (
            f"{len(emitting)} successful call(s) emitted well-formed entries on the reserved "
            f"key, and no result attaches any: call {first.result.tool_call_id}'s node "
            f"emitted {len(first.emitted)}, its result has no artifacts (at {first.at})"
        )
    return None


#: RT-TOOL-2 ¶3: a successful call's well-formed entries are attached to its result, and
#: only those (broken where nothing is ever attached though nodes emitted entries, where a
#: result attaches some and loses another well-formed one that no warning names, or where
#: a result attaches an entry that is not well formed).
ARTIFACTS_ATTACHED = Channel(
    "the artifacts attached to the results of the calls that emitted them",
    "RT-TOOL-2#c3",
    _artifacts_attached,
)

#: RT-TOOL-2 ¶3's lifting at all, for a check of RT-TOOL-2 ¶1, whose own words ("a list of
#: `{type, payload}` maps") a result that keeps some entries and loses others breaks: broken
#: only where nothing is ever attached though nodes emitted entries, or a result attaches
#: an entry that is not well formed.
ANY_ARTIFACT_ATTACHED = Channel(
    "artifacts attached to results at all", "RT-TOOL-2#c3", _any_attached
)


def _port(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    passes = located_passes(trace)
    if not passes or has_port(trace, "tool_artifacts"):
        return None
    return (
        f"none of the trace's {len(passes)} tool passes has a tool_artifacts port, reported "
        f"or exposed (at {passes[0][0]}/ports)"
    )


#: RT-TOOL-3 ¶1: a node that invokes tools surfaces every call's artifacts on its
#: ``tool_artifacts`` port (broken where no pass of the trace has the port at all).
TOOL_ARTIFACTS_PORT = Channel("the tool_artifacts port", "RT-TOOL-3#c1", _port)


def _collected(trace: Trace) -> dict[tuple[str, str], list[dict[str, object]]]:
    """What each turn's runs attached to their successful calls' results (``type`` and
    ``payload``), by conversation and turn."""
    found: dict[tuple[str, str], list[dict[str, object]]] = {}
    for run in trace.runs():
        for one in run.passes:
            for result in one.results:
                body = mapping(result.result)
                if result.disposition != "executed" or body.get("success") is not True:
                    continue
                found.setdefault((run.conversation, run.turn), []).extend(
                    projection(entry) for entry in entries(body.get(_RESERVED))
                )
    return found


def _completed(
    trace: Trace, handshake: Handshake
) -> Iterator[tuple[str, str, TurnWire, list[dict[str, object]]]]:
    """``(pointer, turn, wire, what its runs collected)`` of every completed turn, after
    every step, whose runs attached artifacts."""
    collected = _collected(trace)
    for index, conversation, label, wire in wires(trace):
        made = collected.get((conversation, label))
        if made and in_state(handshake, wire, "completed"):
            at = f"/steps/{index}/wire/{escape_token(conversation)}/{escape_token(label)}"
            yield at, label, wire, made


def _on_messages(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for at, label, wire, made in _completed(trace, handshake):
        rows = list(wire.messages)
        for number, entry in enumerate(entries(wire.toolArtifacts)):
            shown = projection(entry)
            if any(same_json(shown, one) for one in made) and not pointers(rows, shown):
                return (
                    f"completed turn {label}'s result reports {show(entry, 100)}, an "
                    f"artifact its runs produced, and none of its messages carries it (at "
                    f"{at}/toolArtifacts/{number})"
                )
    return None


#: RT-TOOL-4 ¶1: the artifacts a run collected are persisted on the last assistant message
#: it wrote (broken where a completed turn's result reports an artifact its own runs
#: produced that none of its messages carries, in any field: the runtime kept it
#: elsewhere, with the run).
ARTIFACTS_ON_MESSAGES = Channel(
    "the artifacts persisted on the turn's messages", "RT-TOOL-4#c1", _on_messages
)


def _in_their_field(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for at, label, wire, made in _completed(trace, handshake):
        carried = [projection(entry) for entry in delivered(wire)]
        for one in made:
            if any(same_json(one, seen) for seen in carried):
                continue
            for number, row in enumerate(wire.messages):
                found = pointers(row, one, f"{at}/messages/{number}")
                if found:
                    return (
                        f"completed turn {label}'s message {number} carries {show(one, 100)}, "
                        f"an artifact its runs produced, outside any message's toolArtifacts "
                        f"(at {found[0]})"
                    )
    return None


#: RT-TOOL-4 ¶3: a message carries its artifacts "as a top-level `toolArtifacts` field
#: rather than as raw message metadata" (broken where a completed turn's message carries
#: an artifact its runs produced somewhere else, and no message's toolArtifacts does).
TOOL_ARTIFACTS_FIELD = Channel(
    "the messages' top-level toolArtifacts field", "RT-TOOL-4#c3", _in_their_field
)


#: The channels of a turn's delivery this module holds: the artifacts attached to the
#: results they are collected from (RT-TOOL-2 ¶3), as a list (RT-TOOL-1 ¶2), persisted on
#: the turn's messages (RT-TOOL-4 ¶1), in the messages' toolArtifacts field (RT-TOOL-4 ¶3).
#: The toolkit's ``DELIVERY`` adds a run's collection and a pause's held list to them.
MESSAGE_DELIVERY: tuple[Channel, ...] = (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    ARTIFACTS_ON_MESSAGES,
    TOOL_ARTIFACTS_FIELD,
)
