"""RT-TOOL-7's invariants: what a pause holds stays off the wire, is delivered once, first,
within its bound, to its own turn, and survives a failed write-back."""

from __future__ import annotations

from collections import Counter

from adapters.handshake import Handshake
from adapters.scenario import FailWriteBack, Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    ARTIFACTS_ON_MESSAGES,
    DELIVERY,
    GUARD_HOLDS,
    HELD_TAKEN_BY_THEIR_TURN,
    TOOL_ARTIFACTS_FIELD,
    Breach,
    Invariant,
    Produced,
    canary_of,
    canary_phrase,
    delivered,
    in_state,
    invariant,
    listing,
    locate,
    mapping,
    no_loss,
    produced,
    produced_counts,
    produced_then_completed,
    wire_canaries,
    wires,
)

__all__ = ["INVARIANTS"]


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
            attached = mapping(result.result).get("artifacts")
            if isinstance(attached, list):
                found += [c for c in map(canary_of, attached) if c]
    return found


def no_double_delivery(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """No artifact is delivered more often than it was produced: not on two messages, and
    not twice on one (a tool that emitted it twice is owed two deliveries)."""
    made = produced_counts(trace)
    for index, _conversation, turn, wire in wires(trace):
        seen = Counter(c for c in map(canary_of, delivered(wire)) if c is not None)
        twice = [c for c, n in seen.items() if n > max(1, made[c])]
        if twice:
            return (
                f"after step {index}, turn {turn} carries {canary_phrase(twice[0])} "
                f"{seen[twice[0]]} times; it was produced {made[twice[0]]} times"
            )
    if trace.steps:
        everywhere = Counter(
            c for _, _, _, w in wires(trace, -1) for c in map(canary_of, delivered(w)) if c
        )
        twice = [c for c, n in everywhere.items() if n > max(1, made[c])]
        if twice:
            return (
                f"{canary_phrase(twice[0])} is delivered {everywhere[twice[0]]} times; it was "
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
            for canary in wire_canaries(wire)
            if canary in made and made[canary].run_end == "paused"
        ]
        if shown:
            return (
                f"after step {index}, turn {turn} is paused but its wire shows "
                f"{canary_phrase(shown[0])} at {listing(locate(wire, shown[0]))}"
            )
    return None


def _paused_with_held(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(run.end == "paused" and _canaries_of_run(run) for run in trace.runs())


def held_first(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """On every message, artifacts come in the order they were produced: what was held
    comes before what the resumed run collected.  Each artifact is placed where it first
    appears: one delivered again is ¶3's (never delivered a second time), not out of
    order."""
    made = produced(trace)
    for index, _conversation, turn, wire in wires(trace):
        for row in wire.messages:
            carried = mapping(row).get("toolArtifacts")
            firsts = (
                dict.fromkeys(c for c in (canary_of(e) for e in carried or []) if c in made)
                if isinstance(carried, list)
                else {}
            )
            order = [made[c].seq for c in firsts]
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
        for canary in wire_canaries(wire):
            source = made.get(canary)
            if source is not None and (source.conversation, source.turn) != (conversation, turn):
                found = locate(wire, canary)
                # On another turn's message, it left the turn that produced it (RT-TOOL-7
                # ¶1); only in another turn's result, that result aggregated what none of
                # its messages carries (RT-TOOL-4 ¶2).
                on_a_message = any(at.startswith("/messages/") for at in found)
                return Breach(
                    f"after step {index}, {canary_phrase(canary)} from turn {source.turn} "
                    f"({source.conversation}) appears in turn {turn} ({conversation}), at "
                    f"{listing(found)}",
                    ("RT-TOOL-7#c1",) if on_a_message else ("RT-TOOL-4#c2",),
                )
    return None


def _two_turns_produce(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return len({(m.conversation, m.turn) for m in produced(trace).values()}) >= 2


def _failed_write_back_held(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    if not any(isinstance(step, FailWriteBack) for step in scenario.steps):
        return False
    return produced_then_completed(_before_a_failed_write_back)(scenario, trace, handshake)


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "no-loss-across-pause",
        ("RT-TOOL-7#c1",),
        no_loss(_before_a_pause),
        "an artifact produced before a pause, in a turn that later completed",
        produced_then_completed(_before_a_pause),
        collecting=True,
        rank=30,
        through=(
            ARTIFACTS_ATTACHED,
            ARTIFACTS_LISTED,
            ARTIFACTS_ON_MESSAGES,
            TOOL_ARTIFACTS_FIELD,
            GUARD_HOLDS,
        ),
    ),
    invariant(
        "no-loss-after-failed-write-back",
        ("RT-TOOL-7#c4",),
        no_loss(_before_a_failed_write_back),
        "a failed write-back while artifacts were held, in a turn that later completed",
        _failed_write_back_held,
        collecting=True,
        rank=40,
        through=(*DELIVERY, GUARD_HOLDS),
    ),
    invariant(
        "no-double-delivery",
        ("RT-TOOL-7#c3",),
        no_double_delivery,
        "a resume while artifacts were held",
        _resumed_with_held,
        collecting=True,
        rank=50,
    ),
    invariant(
        "held-off-wire",
        ("RT-TOOL-7#c1",),
        held_off_wire,
        "a paused turn with artifacts held",
        _paused_with_held,
        collecting=True,
        rank=60,
    ),
    invariant(
        "held-first",
        ("RT-TOOL-7#c2",),
        held_first,
        "a resume while artifacts were held",
        _resumed_with_held,
        collecting=True,
        rank=90,
    ),
    invariant(
        "held-within-bound",
        ("RT-TOOL-7#c5",),
        held_within_bound,
        "more artifacts produced before a pause than the held list's bound",
        _more_than_the_bound_paused,
        needs=("held_observation",),
        collecting=True,
        rank=100,
    ),
    invariant(
        "isolation",
        ("RT-TOOL-7#c1", "RT-TOOL-4#c2"),
        isolation,
        "artifacts produced in two turns",
        _two_turns_produce,
        collecting=True,
        rank=110,
        through=(HELD_TAKEN_BY_THEIR_TURN,),
    ),
)
