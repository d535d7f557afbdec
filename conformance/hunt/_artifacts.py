"""Invariants about artifacts: where they go, how often, and what never sees them
(RT-TOOL-2 ¶4, RT-TOOL-3, RT-TOOL-4, RT-TOOL-5 ¶4, RT-TOOL-6, RT-TOOL-7).

Artifacts are traced by canary: every artifact the hunt's tools produce carries a string
unique to it, so a canary seen twice was delivered twice, and one seen where it does not
belong leaked there.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping

from adapters.handshake import Handshake
from adapters.scenario import EmitLateArtifact, FailWriteBack, Scenario
from adapters.trace import RunRecord, Trace, TurnWire
from conformance.checks._common import listing, show, whereabouts
from conformance.checks._states import in_state
from conformance.hunt._invariant import Invariant, invariant
from conformance.hunt._produced import (
    Produced,
    canaries_in,
    canary_of,
    produced,
    produced_counts,
    wires,
)
from conformance.traces import delivered, locate, pointers

__all__ = ["ARTIFACT_INVARIANTS"]


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _entries(output: object) -> list[object]:
    """What a scripted tool output carries on its reserved key, as a list."""
    found = _mapping(output).get("artifacts")
    return found if isinstance(found, list) else []


def _canary(canary: str | None) -> str:
    """A canary as a message names it: ``canary "cn-1-0-0."`` (the dot is part of it)."""
    return f"canary {show(canary)}"


def _call(tool_call_id: object) -> str:
    """``call c1``, or ``a call without an id``."""
    return f"call {tool_call_id}" if tool_call_id is not None else "a call without an id"


# -- delivery ------------------------------------------------------------------------

Selector = Callable[[Trace, Produced], bool]


def _completed_turns(trace: Trace, handshake: Handshake) -> dict[tuple[str, str], TurnWire]:
    return {(c, t): w for _, c, t, w in wires(trace, -1) if in_state(handshake, w, "completed")}


def _before_a_pause(trace: Trace, made: Produced) -> bool:
    return made.run_end == "paused"


def _before_a_failed_write_back(trace: Trace, made: Produced) -> bool:
    """Whether a write-back of ``made``'s turn failed after ``made`` was produced."""
    seen = False
    for run in trace.runs():
        if run.conversation == made.conversation and run.turn == made.turn:
            if any(canary == made.canary for canary in _canaries_of_run(run)):
                seen = True
            elif seen and run.end == "failed":
                return True
    return False


def _canaries_of_run(run: RunRecord) -> list[str]:
    """The canaries the run's calls attached to their results."""
    found: list[str] = []
    for one in run.passes:
        for result in one.results:
            attached = _mapping(result.result).get("artifacts")
            if isinstance(attached, list):
                found += [c for c in map(canary_of, attached) if c]
    return found


def _every(trace: Trace, made: Produced) -> bool:
    return True


def _no_loss(selector: Selector) -> Callable[[Scenario, Trace, Handshake], str | None]:
    def judge(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
        """Every artifact a completed call produced is delivered once its turn completes,
        unless a bound dropped it with a warning naming its call."""
        if not trace.steps:
            return None
        final = {(c, t): w for _, c, t, w in wires(trace, -1)}
        warned = {(w.tool_call_id, w.type) for w in trace.warnings()}
        for canary, made in produced(trace).items():
            wire = final.get((made.conversation, made.turn))
            if not in_state(handshake, wire, "completed") or made.run_end == "crashed":
                continue
            if not selector(trace, made) or (made.tool_call_id, made.type) in warned:
                continue
            if canary not in [canary_of(e) for e in delivered(wire)]:
                return (
                    f"{_canary(canary)} ({made.type} from {made.tool} {_call(made.tool_call_id)}) "
                    f"was produced in turn {made.turn}, which completed without delivering it "
                    f"in any message's toolArtifacts and without a warning; it "
                    f"{whereabouts(wire, canary)}"
                )
        return None

    return judge


def _produced_then_completed(selector: Selector) -> Callable[[Scenario, Trace, Handshake], bool]:
    def exercised(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        if not trace.steps:
            return False
        done = _completed_turns(trace, handshake)
        return any(
            (made.conversation, made.turn) in done and selector(trace, made)
            for made in produced(trace).values()
        )

    return exercised


def no_double_delivery(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """No artifact is delivered more often than it was produced: not on two messages, and
    not twice on one (a tool that emitted it twice is owed two deliveries)."""
    made = produced_counts(trace)
    for index, _conversation, turn, wire in wires(trace):
        seen = Counter(c for c in map(canary_of, delivered(wire)) if c is not None)
        twice = [c for c, n in seen.items() if n > max(1, made[c])]
        if twice:
            return (
                f"after step {index}, turn {turn} carries {_canary(twice[0])} "
                f"{seen[twice[0]]} times; it was produced {made[twice[0]]} times"
            )
    if trace.steps:
        everywhere = Counter(
            c for _, _, _, w in wires(trace, -1) for c in map(canary_of, delivered(w)) if c
        )
        twice = [c for c, n in everywhere.items() if n > max(1, made[c])]
        if twice:
            return (
                f"{_canary(twice[0])} is delivered {everywhere[twice[0]]} times; it was "
                f"produced {made[twice[0]]} times"
            )
    return None


def _resumed_with_held(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run resumed a turn after a pause in which artifacts had been produced."""
    paused_with: set[tuple[str, str]] = set()
    for run in trace.runs():
        key = (run.conversation, run.turn)
        if key in paused_with and run.cause in ("answer", "approve", "decline"):
            return True
        if run.end == "paused" and _canaries_of_run(run):
            paused_with.add(key)
    return False


def held_off_wire(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Nothing produced before a turn paused is on the wire while the turn is paused.

    Only a pause holds artifacts (RT-TOOL-7): a run cut by a time limit or an error may
    persist what it collected on the last message it wrote (RT-TOOL-4 ¶1), so only what
    a run that paused produced is judged, whatever the turn did before or after
    (docs/interpretations.md#cut-is-not-a-pause)."""
    made = produced(trace)
    for index, _conversation, turn, wire in wires(trace):
        if not in_state(handshake, wire, "paused"):
            continue
        shown = [
            canary
            for canary in canaries_in([wire.messages, wire.toolArtifacts])
            if canary in made and made[canary].run_end == "paused"
        ]
        if shown:
            return (
                f"after step {index}, turn {turn} is paused but its wire shows "
                f"{_canary(shown[0])} at {listing(locate(wire, shown[0]))}"
            )
    return None


def _paused_with_held(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(run.end == "paused" and _canaries_of_run(run) for run in trace.runs())


def no_metadata_leak(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """No canary anywhere under any message's metadata."""
    for index, _conversation, turn, wire in wires(trace):
        for number, row in enumerate(wire.messages):
            metadata = _mapping(row).get("metadata")
            leaked = canaries_in(metadata)
            if leaked:
                at = pointers(metadata, leaked[0], f"/messages/{number}/metadata")
                return (
                    f"after step {index}, message {number} of turn {turn} has "
                    f"{_canary(leaked[0])} in its metadata, at {listing(at)}"
                )
    return None


def _delivered_any(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(canaries_in(w.messages) for _, _, _, w in wires(trace))


def no_prose_leak(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A canary that lives only in an artifact's payload never reaches the model."""
    for run in trace.runs():
        for given in run.model_inputs:
            leaked = canaries_in(list(given.messages))
            if leaked:
                return (
                    f"{_canary(leaked[0])} reached the model's input in run {run.id} of {run.turn}"
                )
    return None


def _produced_any(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return bool(produced(trace))


def shape_and_pairing(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Every artifact on the `tool_artifacts` port and on the wire is exactly
    `{type, payload, tool_call_id}`, paired with the call that produced it."""
    made = produced(trace)
    for run in trace.runs():
        for one in run.passes:
            surfaced = _mapping(one.ports).get("tool_artifacts")
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
    keys = sorted(_mapping(entry))
    if keys != ["payload", "tool_call_id", "type"]:
        return f"an entry with keys {show(keys)}"
    canary = canary_of(entry)
    if (
        canary is not None
        and canary in made
        and (_mapping(entry).get("tool_call_id") != made[canary].tool_call_id)
    ):
        return (
            f"{_canary(canary)} paired with call {show(_mapping(entry).get('tool_call_id'))}, "
            f"but call {show(made[canary].tool_call_id)} produced it"
        )
    return None


def _forging_tool_ran(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A tool that forges its call id or adds a key of its own produced an artifact."""
    forged = {
        canary_of(entry)
        for tool in scenario.tools
        for ret in tool.returns
        for entry in _entries(ret.output)
        if isinstance(entry, Mapping) and set(entry) - {"type", "payload"}
    }
    return bool(forged & set(produced(trace)))


def held_first(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """On every message, artifacts come in the order they were produced: what was held
    comes before what the resumed run collected."""
    made = produced(trace)
    for index, _conversation, turn, wire in wires(trace):
        for row in wire.messages:
            carried = _mapping(row).get("toolArtifacts")
            order = (
                [made[c].seq for c in (canary_of(e) for e in carried or []) if c in made]
                if isinstance(carried, list)
                else []
            )
            if order != sorted(order):
                return (
                    f"after step {index}, a message of turn {turn} delivers artifacts out "
                    "of the order they were produced"
                )
    return None


def held_within_bound(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """The held list never exceeds its bound."""
    bound = _held_bound(scenario, handshake)
    if bound is None:
        return None
    for step in trace.steps:
        for turn, held in (step.held or {}).items():
            if isinstance(held, list) and len(held) > bound:
                return (
                    f"after step {step.index}, {len(held)} artifacts are held against "
                    f"{turn}, over the bound of {bound}"
                )
    return None


def _held_bound(scenario: Scenario, handshake: Handshake) -> int | None:
    return (
        scenario.bounds.held_artifacts if scenario.bounds else None
    ) or handshake.limits.held_artifacts


def _more_than_the_bound_paused(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    bound = _held_bound(scenario, handshake)
    if bound is None:
        return False
    made: Counter[tuple[str, str]] = Counter()
    for run in trace.runs():
        made[(run.conversation, run.turn)] += len(_canaries_of_run(run))
        if run.end == "paused" and made[(run.conversation, run.turn)] > bound:
            return True
    return False


def isolation(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Nothing of one turn or conversation appears in another."""
    made = produced(trace)
    for index, conversation, turn, wire in wires(trace):
        for canary in canaries_in([wire.messages, wire.toolArtifacts]):
            source = made.get(canary)
            if source is not None and (source.conversation, source.turn) != (conversation, turn):
                return (
                    f"after step {index}, {_canary(canary)} from turn {source.turn} "
                    f"({source.conversation}) appears in turn {turn} ({conversation}), at "
                    f"{listing(locate(wire, canary))}"
                )
    return None


def _two_turns_produce(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return len({(m.conversation, m.turn) for m in produced(trace).values()}) >= 2


def aggregation(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A turn's result holds exactly its messages' artifacts, after every step (restarts
    included); in which order the rule does not say."""
    for index, _conversation, turn, wire in wires(trace):
        carried = wire.toolArtifacts if isinstance(wire.toolArtifacts, list) else None
        if carried is None or sorted(map(_key, carried)) != sorted(map(_key, delivered(wire))):
            return (
                f"after step {index}, turn {turn}'s result does not equal what its messages carry"
            )
    return None


def _key(entry: object) -> str:
    return json.dumps(entry, sort_keys=True, default=str)


def empty_type_refused(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """An artifact with an empty `type` is never delivered (RT-TOOL-6 ¶5); whether the
    tool result or the port still carries it depends on where collection happens
    (docs/interpretations.md#empty-type), so only the wire is judged."""
    for index, _conversation, turn, wire in wires(trace):
        for entry in delivered(wire):
            if _mapping(entry).get("type") == "":
                return f"after step {index}, turn {turn} delivers an entry with an empty type"
    return None


def _empty_type_produced(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    for run in trace.runs():
        for one in run.passes:
            for result in one.results:
                if result.disposition == "executed" and _mapping(result.result).get("success"):
                    tool = next((t for t in scenario.tools if t.name == result.tool), None)
                    if tool is not None and any(
                        _mapping(e).get("type") == ""
                        for ret in tool.returns
                        for e in _entries(ret.output)
                    ):
                        return True
    return False


def late_artifacts_dropped(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """An artifact arriving for a run whose collection is not open (never opened, or
    released) is never delivered (RT-TOOL-5 ¶2, ¶3)."""
    late = {
        canary_of(step.artifact)
        for step in scenario.steps
        if isinstance(step, EmitLateArtifact) and canary_of(step.artifact)
    }
    for index, _conversation, turn, wire in wires(trace):
        for canary in canaries_in([wire.messages, wire.toolArtifacts]):
            if canary in late:
                return (
                    f"after step {index}, turn {turn} delivers {_canary(canary)}, which "
                    "arrived out of band for a run whose collection was not open"
                )
    return None


def _late_emitted(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(isinstance(step, EmitLateArtifact) for step in scenario.steps)


def collection_released(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Once a step has come to rest, no run has its collection open: a run that returns,
    pauses, fails or is cut releases it (RT-TOOL-5 ¶4)."""
    for step in trace.steps:
        if step.open_collections:
            return (
                f"after step {step.index} ({step.op}), collection is still open for "
                f"{show(list(step.open_collections))}"
            )
    return None


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
            size = _compact_size(_mapping(entry).get("payload"))
            if size > bound:
                return (
                    f"after step {index}, turn {turn} delivers {_canary(canary_of(entry))} whose "
                    f"payload is {size} bytes encoded, over the bound of {bound}"
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
        _compact_size(_mapping(entry).get("payload")) > bound
        for run in trace.runs()
        for one in run.passes
        for result in one.results
        for entry in _entries(result.result)
    )


def _run_ended_otherwise(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(run.end != "completed" for run in trace.runs())


def _failed_write_back_held(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    if not any(isinstance(step, FailWriteBack) for step in scenario.steps):
        return False
    return _produced_then_completed(_before_a_failed_write_back)(scenario, trace, handshake)


ARTIFACT_INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "no-metadata-leak",
        ("RT-TOOL-4#c3",),
        no_metadata_leak,
        "an artifact delivered on the wire",
        _delivered_any,
    ),
    invariant(
        "no-loss",
        ("RT-TOOL-4#c1",),
        _no_loss(_every),
        "an artifact produced in a turn that completed",
        _produced_then_completed(_every),
    ),
    invariant(
        "no-loss-across-pause",
        ("RT-TOOL-7#c1",),
        _no_loss(_before_a_pause),
        "an artifact produced before a pause, in a turn that later completed",
        _produced_then_completed(_before_a_pause),
    ),
    invariant(
        "no-loss-after-failed-write-back",
        ("RT-TOOL-7#c4",),
        _no_loss(_before_a_failed_write_back),
        "a failed write-back while artifacts were held, in a turn that later completed",
        _failed_write_back_held,
    ),
    invariant(
        "no-double-delivery",
        ("RT-TOOL-7#c3",),
        no_double_delivery,
        "a resume while artifacts were held",
        _resumed_with_held,
    ),
    invariant(
        "held-off-wire",
        ("RT-TOOL-7#c1",),
        held_off_wire,
        "a paused turn with artifacts held",
        _paused_with_held,
    ),
    invariant(
        "no-prose-leak",
        ("RT-TOOL-3#c3", "RT-TOOL-2#c4"),
        no_prose_leak,
        "an artifact produced by a call",
        _produced_any,
    ),
    invariant(
        "shape-and-pairing",
        ("RT-TOOL-3#c1",),
        shape_and_pairing,
        "an artifact from a tool that forges its call id or adds keys of its own",
        _forging_tool_ran,
    ),
    invariant(
        "held-first",
        ("RT-TOOL-7#c2",),
        held_first,
        "a resume while artifacts were held",
        _resumed_with_held,
    ),
    invariant(
        "held-within-bound",
        ("RT-TOOL-7#c5",),
        held_within_bound,
        "more artifacts produced before a pause than the held list's bound",
        _more_than_the_bound_paused,
        needs=("held_observation",),
    ),
    invariant(
        "isolation",
        ("RT-TOOL-7#c1", "RT-TOOL-4#c2"),
        isolation,
        "artifacts produced in two turns",
        _two_turns_produce,
    ),
    invariant(
        "aggregation",
        ("RT-TOOL-4#c2",),
        aggregation,
        "an artifact delivered on the wire",
        _delivered_any,
    ),
    invariant(
        "payload-within-bound",
        ("RT-TOOL-6#c3",),
        payload_within_bound,
        "an artifact whose payload exceeds the payload bound",
        _over_the_bound_produced,
    ),
    invariant(
        "empty-type-refused",
        ("RT-TOOL-6#c5",),
        empty_type_refused,
        "an artifact with an empty type from a call that succeeded",
        _empty_type_produced,
    ),
    invariant(
        "late-artifacts-dropped",
        ("RT-TOOL-5#c2", "RT-TOOL-5#c3"),
        late_artifacts_dropped,
        "an artifact arriving for a run whose collection was not open",
        _late_emitted,
        needs=("late_artifacts",),
    ),
    invariant(
        "collection-released",
        ("RT-TOOL-5#c4",),
        collection_released,
        "a run that paused, failed or was cut",
        _run_ended_otherwise,
        needs=("collection_observation",),
    ),
)
