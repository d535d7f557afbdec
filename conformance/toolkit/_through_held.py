"""The channels an observation of delivery goes through across a run's life: what a pause
holds (RT-TOOL-7 ¶1), what a failed write-back puts back (¶4), what the next write-back
of the same execution takes (¶2), and a run's collection kept open after a drain
(RT-TOOL-5 ¶3).

A check of delivery whose scenario pauses (an approval, a question) or calls tools in two
passes of one run sees what these clauses promise before it sees what it judges: where a
pause discarded what it held, the resumed turn delivers nothing of it, and every count
of delivered artifacts is short for RT-TOOL-7 ¶1's reason, not the judged clause's.
Each test says a channel is broken only where the trace shows it beyond doubt: every
artifact of a run lost without a warning, never a difference of order or placement.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace, TurnWire
from conformance.toolkit._channels import Channel
from conformance.toolkit._json import mapping
from conformance.toolkit._produced import wires
from conformance.toolkit._results import entries, projection, same_json
from conformance.toolkit._shown import show
from conformance.toolkit._states import in_state
from conformance.toolkit._through_artifacts import MESSAGE_DELIVERY
from conformance.toolkit._traces import delivered, pointers

__all__ = [
    "COLLECTION_STAYS_OPEN",
    "DELIVERY",
    "HELD_ACROSS_A_PAUSE",
    "HELD_PUT_BACK",
    "HELD_TAKEN_BY_THEIR_TURN",
]


@dataclass(frozen=True)
class _Run:
    """A run, the step it ran in, and what each of its passes attached to its successful
    calls' results (type and payload; an empty type is refused at collection, never owed
    a delivery: docs/interpretations.md#empty-type), with the calls that attached them."""

    step: int
    run: RunRecord
    passes: tuple[tuple[tuple[dict[str, object], str | None], ...], ...]

    @property
    def made(self) -> list[dict[str, object]]:
        """Everything the run attached, in order."""
        return [entry for one in self.passes for entry, _ in one]

    @property
    def key(self) -> tuple[str, str]:
        return (self.run.conversation, self.run.turn)


def _runs(trace: Trace) -> Iterator[_Run]:
    for step in trace.steps:
        for run in step.runs:
            passes = []
            for one in run.passes:
                found: list[tuple[dict[str, object], str | None]] = []
                for result in one.results:
                    body = mapping(result.result)
                    if result.disposition != "executed" or body.get("success") is not True:
                        continue
                    for entry in entries(body.get("artifacts")):
                        shown = projection(entry)
                        if isinstance(shown["type"], str) and shown["type"]:
                            found.append((shown, result.tool_call_id))
                passes.append(tuple(found))
            yield _Run(step.index, run, tuple(passes))


def _anywhere(wire: TurnWire | None, entry: dict[str, object]) -> bool:
    """Whether the turn's wire shows ``entry`` anywhere: on a message, in any field, or
    on its result."""
    return wire is not None and bool(pointers([wire.messages, wire.toolArtifacts], entry))


def _warned(trace: Trace) -> set[tuple[str | None, str | None]]:
    """``(call, type)`` of every warning: a bound dropped that artifact."""
    return {(one.tool_call_id, one.type) for one in trace.warnings()}


def _final(trace: Trace, handshake: Handshake) -> dict[tuple[str, str], TurnWire]:
    """The turns completed after the last step."""
    if not trace.steps:
        return {}
    return {(c, t): w for _, c, t, w in wires(trace, -1) if in_state(handshake, w, "completed")}


def _all_lost(
    run: _Run, wire: TurnWire, warned: set[tuple[str | None, str | None]]
) -> dict[str, object] | None:
    """The first artifact of ``run``, when none of them shows anywhere on ``wire`` and no
    warning names any of them: the whole run's share was lost, which no bound explains."""
    made = [(entry, call) for one in run.passes for entry, call in one]
    if not made or any((call, entry["type"]) in warned for entry, call in made):
        return None
    if any(_anywhere(wire, entry) for entry, _ in made):
        return None
    return made[0][0]


def _failed_later(runs: Sequence[_Run], index: int) -> bool:
    """Whether a later run of the same turn failed (a write-back that failed)."""
    return any(
        other.key == runs[index].key and other.run.end == "failed" for other in runs[index + 1 :]
    )


def _held_shown(trace: Trace, handshake: Handshake, runs: Sequence[_Run]) -> str | None:
    for index, conversation, label, wire in wires(trace):
        if not in_state(handshake, wire, "paused"):
            continue
        mine = [r for r in runs if r.key == (conversation, label) and r.step <= index]
        held = [e for r in mine if r.run.end == "paused" for e in r.made]
        other = [e for r in mine if r.run.end != "paused" for e in r.made]
        carried = [projection(entry) for entry in delivered(wire)]
        for entry in held:
            if any(same_json(entry, e) for e in other):
                continue
            if any(same_json(entry, seen) for seen in carried):
                return (
                    f"after step {index} turn {label} is paused and one of its messages "
                    f"already carries {show(entry, 100)}, produced by a run that paused"
                )
    return None


def _held_after(trace: Trace, one: _Run) -> list[dict[str, object]] | None:
    """What the implementation says it holds against ``one``'s turn after the step the run
    paused in, where it offers that observation."""
    step = next((s for s in trace.steps if s.index == one.step), None)
    if step is None or step.held is None or one.run.turn not in step.held:
        return None
    return [projection(entry) for entry in entries(step.held[one.run.turn])]


def _held_lost(trace: Trace, handshake: Handshake, runs: Sequence[_Run]) -> str | None:
    final, warned = _final(trace, handshake), _warned(trace)
    for index, one in enumerate(runs):
        wire = final.get(one.key)
        if wire is None or one.run.end != "paused" or _failed_later(runs, index):
            continue
        held = _held_after(trace, one)
        # the implementation's own observation says what it held: where some of the run's
        # artifacts are held, nothing was discarded at the pause
        if held is not None and any(same_json(e, h) for e in one.made for h in held):
            continue
        lost = _all_lost(one, wire, warned)
        if lost is not None:
            return (
                f"run {one.run.id} of turn {one.run.turn} paused having produced "
                f"{len(one.made)} artifact(s), and the turn completed showing none of them "
                f"anywhere, without a warning: the first, {show(lost, 100)}, was discarded"
            )
    return None


def _held_across(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    runs = list(_runs(trace))
    return _held_shown(trace, handshake, runs) or _held_lost(trace, handshake, runs)


#: RT-TOOL-7 ¶1: "Artifacts produced before a run pauses are held durably against the
#: turn that produced them rather than discarded, and are never exposed on the wire while
#: they are held" (broken where a paused turn's message already carries what its paused
#: run produced, or where a turn completed showing nothing, anywhere, of what a run of it
#: produced before pausing, with no warning and no failed write-back between).
HELD_ACROSS_A_PAUSE = Channel(
    "the artifacts held across a pause (off the wire, then delivered)",
    "RT-TOOL-7#c1",
    _held_across,
)


def _put_back(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    runs = list(_runs(trace))
    final, warned = _final(trace, handshake), _warned(trace)
    for index, one in enumerate(runs):
        wire = final.get(one.key)
        if wire is None or one.run.end != "paused" or not _failed_later(runs, index):
            continue
        lost = _all_lost(one, wire, warned)
        if lost is not None:
            return (
                f"run {one.run.id} of turn {one.run.turn} paused having produced "
                f"{len(one.made)} artifact(s), a write-back of the turn failed, and the turn "
                f"completed showing none of them anywhere, without a warning: the first, "
                f"{show(lost, 100)}, was not put back"
            )
    return None


#: RT-TOOL-7 ¶4: "A write-back that fails after taking them puts them back before it
#: reports the failure" (broken where a turn completed showing nothing, anywhere, of what
#: a run of it produced before pausing, a write-back of it having failed since).
HELD_PUT_BACK = Channel(
    "the held artifacts a failed write-back puts back", "RT-TOOL-7#c4", _put_back
)


def _taken_elsewhere(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    runs = list(_runs(trace))
    for index, conversation, label, wire in wires(trace):
        carried = [projection(entry) for entry in delivered(wire)]
        theirs = [e for r in runs if r.key == (conversation, label) for e in r.made]
        for one in runs:
            if one.key == (conversation, label) or one.run.end != "paused":
                continue
            for entry in one.made:
                if any(same_json(entry, e) for e in theirs):
                    continue
                if any(same_json(entry, seen) for seen in carried):
                    return (
                        f"after step {index}, a message of turn {label} carries "
                        f"{show(entry, 100)}, held by the pause of turn {one.run.turn}"
                    )
    return None


#: RT-TOOL-7 ¶2: "The next write-back for the same execution takes them" (broken where a
#: message of one turn carries what a run of another turn produced before pausing: a
#: write-back took what another execution held).
HELD_TAKEN_BY_THEIR_TURN = Channel(
    "the held artifacts taken by the write-back of their own execution",
    "RT-TOOL-7#c2",
    _taken_elsewhere,
)


def _drain_closed(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    final, warned = _final(trace, handshake), _warned(trace)
    for one in _runs(trace):
        wire = final.get(one.key)
        if wire is None or one.run.end != "completed":
            continue
        shown = [any(_anywhere(wire, entry) for entry, _ in batch) for batch in one.passes]
        for number, batch in enumerate(one.passes):
            if not batch or shown[number] or not any(shown[:number]):
                continue
            if any((call, entry["type"]) in warned for entry, call in batch):
                continue
            return (
                f"run {one.run.id} of turn {one.run.turn} delivered what its earlier passes "
                f"collected, and nothing, anywhere, of the {len(batch)} artifact(s) of its "
                f"pass {number}, without a warning: the first, {show(batch[0][0], 100)}, was "
                "not collected"
            )
    return None


#: RT-TOOL-5 ¶3: "Draining what has been collected does not end collection — a later tool
#: call in the same run still collects" (broken where a completed run's turn shows what
#: the run's earlier passes collected and nothing, anywhere, of a later pass's artifacts,
#: with no warning naming them).
COLLECTION_STAYS_OPEN = Channel(
    "the run's collection, open until it is released", "RT-TOOL-5#c3", _drain_closed
)


#: What a check that reads delivery on a turn's messages observes through: the artifacts
#: attached to the results they are collected from (RT-TOOL-2 ¶3), as a list (RT-TOOL-1
#: ¶2), collected by the run until it is released (RT-TOOL-5 ¶3), taken by their own turn
#: (RT-TOOL-7 ¶2) and put back by a failed write-back (¶4),
#: persisted on the turn's messages (RT-TOOL-4 ¶1), in the messages' toolArtifacts field
#: (RT-TOOL-4 ¶3).
#: Not yet the held list itself (HELD_ACROSS_A_PAUSE): the paused variants of several
#: checks (RT-TOOL-3 ¶4, RT-TOOL-7 ¶2, ¶3) are proven by no mutant of their own clause, only
#: by one that discards or shows what a pause holds.
DELIVERY: tuple[Channel, ...] = (
    *MESSAGE_DELIVERY,
    COLLECTION_STAYS_OPEN,
    HELD_TAKEN_BY_THEIR_TURN,
    HELD_PUT_BACK,
)
