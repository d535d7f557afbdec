"""The situations RT-TOOL-7's clauses name.  What a run collected is read from the
scenario (:func:`conformance.toolkit.node_outputs`), never from what the implementation
held of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Answer, Approve, Continue, FailWriteBack, Scenario
from adapters.trace import RunRecord, StepRecord, Trace
from conformance.toolkit import (
    ClauseSituation,
    Situation,
    in_state,
    mapping,
    node_outputs,
    read_from_the_implementation,
    situation,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


Turn = tuple[str, str]


def _collected_counts(scenario: Scenario, trace: Trace) -> dict[int, int]:
    """How many artifacts the calls of each run (by ``id``) attached, read from the
    scenario, whatever the implementation held of them (an empty type is refused
    outright, RT-TOOL-6 ¶5, and never held)."""
    counts: dict[int, int] = {}
    for made in node_outputs(scenario, trace):
        kept = sum(1 for entry in made.attached if mapping(entry).get("type") != "")
        counts[id(made.run)] = counts.get(id(made.run), 0) + kept
    return counts


@dataclass(frozen=True)
class _Held:
    """What each turn held (how many artifacts) before each run, ``(step index, run,
    held)`` in order, and after each step.  A turn holds what its runs collected before
    they paused, until a run of it completes."""

    before: tuple[tuple[int, RunRecord, dict[Turn, int]], ...]
    after: tuple[dict[Turn, int], ...]


def _held(scenario: Scenario, trace: Trace) -> _Held:
    counts = _collected_counts(scenario, trace)
    held: dict[Turn, int] = {}
    before: list[tuple[int, RunRecord, dict[Turn, int]]] = []
    after: list[dict[Turn, int]] = []
    for index, step in enumerate(trace.steps):
        for run in step.runs:
            before.append((index, run, dict(held)))
            key = (run.conversation, run.turn)
            # A run whose write-back failed is retried: what it collected waits for the
            # retry as a paused run's does (¶4 puts what it took back).
            if run.end in ("paused", "failed") and counts.get(id(run), 0):
                held[key] = held.get(key, 0) + counts[id(run)]
            elif run.end == "completed":
                held.pop(key, None)
        after.append(dict(held))
    return _Held(tuple(before), tuple(after))


def _resumes(scenario: Scenario, trace: Trace) -> Iterator[tuple[int, RunRecord, int]]:
    """``(step index, run, how many artifacts it collected)`` of every run that resumed a
    turn holding artifacts: an earlier run of the turn collected some and paused, and no
    run of it completed since."""
    counts = _collected_counts(scenario, trace)
    for index, run, held in _held(scenario, trace).before:
        if held.get((run.conversation, run.turn)) and run.cause != "start":
            yield index, run, counts.get(id(run), 0)


def _resumed(test: Callable[[RunRecord, int], bool]) -> Situation:
    """Reached where a run resuming a turn that holds artifacts, with how many artifacts
    it collected itself, satisfies ``test``."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(test(run, own) for _, run, own in _resumes(scenario, trace))

    return reached


def _paused(handshake: Handshake, step: StepRecord, turns: Iterable[Turn]) -> bool:
    """Whether the wire after ``step`` shows one of ``turns`` paused."""
    return any(
        in_state(handshake, step.wire.get(conversation, {}).get(label), "paused")
        for conversation, label in turns
    )


def _held_across_a_restart(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """The implementation was restarted while a turn was paused holding artifacts a run of
    it collected before pausing."""
    held = _held(scenario, trace).after
    return any(
        step.op == "restart"
        and step.outcome == "ok"
        and index > 0
        and _paused(handshake, trace.steps[index - 1], held[index - 1])
        for index, step in enumerate(trace.steps)
    )


def _held_on_its_own_wire(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A turn was paused holding artifacts a run of it collected, and the wire read after
    that step was the implementation's own (its turn API, or its own turn ids): "never
    exposed on the wire" says nothing of a wire a harness assembled for itself."""
    held = _held(scenario, trace).after
    return any(
        read_from_the_implementation(step, handshake) and _paused(handshake, step, held[index])
        for index, step in enumerate(trace.steps)
    )


def _another_turn_meanwhile(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run of another turn ended (its write-back came) while a turn held artifacts:
    the write-back that takes them is the same execution's, not this one's."""
    return any(
        run.end in ("completed", "paused")
        and any(key != (run.conversation, run.turn) and count for key, count in held.items())
        for _, run, held in _held(scenario, trace).before
    )


def _asked_again_after_delivery(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """After a resume delivered what its turn held (it completed), the turn is answered,
    approved or continued again: where a second delivery would show."""
    for index, run, _ in _resumes(scenario, trace):
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


def _resumed_after_a_failing_write_back(
    scenario: Scenario, trace: Trace, handshake: Handshake
) -> bool:
    """A write-back armed to fail (``fail_write_back``, accepted), then an answer, an
    approval or Continue for a turn holding artifacts: the write-back that takes them is
    the one armed to fail, whatever the implementation then reported."""
    held = _held(scenario, trace).after
    armed = False
    for index, (played, record) in enumerate(zip(scenario.steps, trace.steps, strict=False)):
        if (
            isinstance(played, Answer | Approve | Continue)
            and armed
            and index > 0
            and any(label == played.turn for _, label in held[index - 1])
        ):
            return True
        armed = armed or (isinstance(played, FailWriteBack) and record.outcome == "ok")
    return False


def _held_over_its_bound(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A turn's runs collected, before their pauses, more artifacts than the held list's
    bound (the scenario's, else the declared default)."""
    own = None if scenario.bounds is None else scenario.bounds.held_artifacts
    bound = own if own is not None else handshake.limits.held_artifacts
    if not isinstance(bound, int):
        return False
    return any(count > bound for after in _held(scenario, trace).after for count in after.values())


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
        _resumed(lambda run, own: run.end == "completed" and own > 0),
    ),
    situation(
        "RT-TOOL-7#c2",
        "a resumed run that collected none of its own",
        _resumed(lambda run, own: run.end == "completed" and own == 0),
    ),
    # ¶2: "The next write-back for the same execution takes them": not another's
    situation(
        "RT-TOOL-7#c2",
        "a run of another turn while a turn holds artifacts",
        _another_turn_meanwhile,
    ),
    # ¶3: "Taking is destructive, so a delivered artifact is never delivered a second time"
    situation(
        "RT-TOOL-7#c3",
        "a resume that completed a turn holding artifacts",
        _resumed(lambda run, own: run.end == "completed"),
    ),
    situation("RT-TOOL-7#c3", "the turn resumed again after delivery", _asked_again_after_delivery),
    # ¶3: "a resume that pauses again holds everything for the next one"
    situation(
        "RT-TOOL-7#c3", "a resume that pauses again", _resumed(lambda run, own: run.end == "paused")
    ),
    # ¶4: "A write-back that fails after taking them puts them back"
    situation(
        "RT-TOOL-7#c4",
        "a write-back armed to fail taking held artifacts",
        _resumed_after_a_failing_write_back,
    ),
    # ¶5: "where it would exceed the bound, the newest entries are dropped"
    situation("RT-TOOL-7#c5", "a held list that would exceed its bound", _held_over_its_bound),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
