"""The situations RT-TOOL-7's clauses name, and why the others name none."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from adapters.handshake import Handshake
from adapters.scenario import Answer, Approve, Continue, Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    ClauseSituation,
    Situation,
    in_state,
    mapping,
    read_from_the_implementation,
    scripted_entries,
    situation,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _collected(run: RunRecord) -> int:
    """How many artifacts the calls of ``run`` ran and returned (an empty type is refused
    outright, RT-TOOL-6 ¶5, and never held)."""
    return sum(
        1
        for one in run.passes
        for result in one.results
        if result.disposition == "executed" and mapping(result.result).get("success") is True
        for entry in scripted_entries(result.result)
        if mapping(entry).get("type") != ""
    )


def _resumes(trace: Trace) -> Iterator[tuple[int, RunRecord]]:
    """``(step index, run)`` of every run that resumed a turn holding artifacts: an
    earlier run of the turn collected some and paused, and no run of it completed since."""
    holding: set[tuple[str, str]] = set()
    for index, step in enumerate(trace.steps):
        for run in step.runs:
            key = (run.conversation, run.turn)
            if key in holding and run.cause != "start":
                yield index, run
            if run.end == "paused" and _collected(run):
                holding.add(key)
            elif run.end == "completed":
                holding.discard(key)


def _resumed(test: Callable[[RunRecord], bool]) -> Situation:
    """Reached where a run resuming a turn that holds artifacts satisfies ``test``."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(test(run) for _, run in _resumes(trace))

    return reached


def _held_across_a_restart(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """The implementation was restarted while a turn was paused holding artifacts a run of
    it collected before pausing."""
    holding: set[tuple[str, str]] = set()
    for index, step in enumerate(trace.steps):
        if step.op == "restart" and step.outcome == "ok" and index:
            before = trace.steps[index - 1].wire
            if any(
                in_state(handshake, before.get(conversation, {}).get(turn), "paused")
                for conversation, turn in holding
            ):
                return True
        for run in step.runs:
            if run.end == "paused" and _collected(run):
                holding.add((run.conversation, run.turn))
            elif run.end == "completed":
                holding.discard((run.conversation, run.turn))
    return False


def _held_on_its_own_wire(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A turn was paused holding artifacts a run of it collected, and the wire read after
    that step was the implementation's own (its turn API, or its own turn ids): "never
    exposed on the wire" says nothing of a wire a harness assembled for itself."""
    holding: set[tuple[str, str]] = set()
    for step in trace.steps:
        for run in step.runs:
            if run.end == "paused" and _collected(run):
                holding.add((run.conversation, run.turn))
            elif run.end == "completed":
                holding.discard((run.conversation, run.turn))
        if (
            holding
            and read_from_the_implementation(step, handshake)
            and any(
                in_state(handshake, step.wire.get(conversation, {}).get(turn), "paused")
                for conversation, turn in holding
            )
        ):
            return True
    return False


def _asked_again_after_delivery(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """After a resume delivered what its turn held (it completed), the turn is answered,
    approved or continued again: where a second delivery would show."""
    for index, run in _resumes(trace):
        if run.end != "completed":
            continue
        if any(
            isinstance(step, Answer | Approve | Continue)
            and step.turn == run.turn
            and index < later < len(trace.steps)
            for later, step in enumerate(scenario.steps)
        ):
            return True
    return False


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "held durably against the turn that produced them"
    situation("RT-TOOL-7#c1", "held artifacts across a restart", _held_across_a_restart),
    # ¶1: "never exposed on the wire while they are held" (the implementation's own wire,
    # as RT-TOOL-4 ¶3 reads "on the wire")
    situation(
        "RT-TOOL-7#c1",
        "a turn holding artifacts read on the implementation's own wire",
        _held_on_its_own_wire,
    ),
    # ¶2: "prepends them to whatever the resumed run collected"
    situation(
        "RT-TOOL-7#c2",
        "a resumed run that collected artifacts of its own",
        _resumed(lambda run: run.end == "completed" and _collected(run) > 0),
    ),
    situation(
        "RT-TOOL-7#c2",
        "a resumed run that collected none of its own",
        _resumed(lambda run: run.end == "completed" and _collected(run) == 0),
    ),
    # ¶3: "a delivered artifact is never delivered a second time"
    situation("RT-TOOL-7#c3", "the turn resumed again after delivery", _asked_again_after_delivery),
    # ¶3: "a resume that pauses again holds everything for the next one"
    situation(
        "RT-TOOL-7#c3", "a resume that pauses again", _resumed(lambda run: run.end == "paused")
    ),
)

WITHOUT_SITUATIONS: dict[str, str] = {
    "RT-TOOL-7#c4": "one behaviour in one circumstance: a write-back that fails puts back "
    "what it took, and every case of it is blocked unless that failure is reported",
    "RT-TOOL-7#c5": "one behaviour in one circumstance: a held list that would exceed its "
    "bound drops its newest entries with a warning",
}
