"""The situations RT-TOOL-4's clauses name."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.checks.rt_tool_4._messages import assistant_indexes
from conformance.toolkit import (
    ClauseSituation,
    node_outputs,
    read_from_the_implementation,
    situation,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _collecting_runs(scenario: Scenario, trace: Trace) -> list[RunRecord]:
    """The runs in which some call attached artifacts, in order."""
    found: list[RunRecord] = []
    for made in node_outputs(scenario, trace):
        if made.attached and not any(made.run is run for run in found):
            found.append(made.run)
    return found


def _earlier_runs(trace: Trace, run: RunRecord) -> list[RunRecord]:
    """The runs of ``run``'s turn that came before it."""
    before: list[RunRecord] = []
    for other in trace.runs():
        if other is run:
            return before
        if (other.conversation, other.turn) == (run.conversation, run.turn):
            before.append(other)
    return before


def _several_messages(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run that collected artifacts wrote two or more assistant messages: the turn's
    assistant messages grew by two or more over the step that played that run alone."""
    collecting = _collecting_runs(scenario, trace)
    for index, step in enumerate(trace.steps):
        for run in step.runs:
            same_turn = [
                r for r in step.runs if (r.conversation, r.turn) == (run.conversation, run.turn)
            ]
            if not any(run is r for r in collecting) or len(same_turn) != 1:
                continue
            after = step.wire.get(run.conversation, {}).get(run.turn)
            earlier = trace.steps[index - 1].wire if index else {}
            before = earlier.get(run.conversation, {}).get(run.turn)
            known = len(before.messages) if before is not None else 0
            if sum(1 for at in assistant_indexes(after) if at >= known) >= 2:
                return True
    return False


def _later_run_collecting(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run collected artifacts after an earlier run of the same turn."""
    return any(_earlier_runs(trace, run) for run in _collecting_runs(scenario, trace))


def _several_runs_collecting(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Two or more runs of one turn collected artifacts."""
    collecting = _collecting_runs(scenario, trace)
    return any(
        any(earlier is other for earlier in _earlier_runs(trace, run) for other in collecting)
        for run in collecting
    )


def _collected_by_step(scenario: Scenario, trace: Trace) -> list[set[tuple[str, str]]]:
    """After each step, the turns a run of which has collected artifacts so far (a call of
    it attached some, read from the scenario: whatever the implementation made of them)."""
    collecting = _collecting_runs(scenario, trace)
    found: set[tuple[str, str]] = set()
    out: list[set[tuple[str, str]]] = []
    for step in trace.steps:
        found |= {
            (run.conversation, run.turn)
            for run in step.runs
            if any(run is other for other in collecting)
        }
        out.append(set(found))
    return out


def _read_at(trace: Trace, index: int, turns: set[tuple[str, str]]) -> bool:
    """Whether the wire after step ``index`` shows one of ``turns``."""
    wire = trace.steps[index].wire
    return any(wire.get(conversation, {}).get(label) is not None for conversation, label in turns)


def _after_a_reload(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A turn that collected artifacts before a restart, read on the wire after it."""
    collected = _collected_by_step(scenario, trace)
    return any(
        step.op == "restart"
        and step.outcome == "ok"
        and index > 0
        and any(
            _read_at(trace, later, collected[index - 1]) for later in range(index, len(trace.steps))
        )
        for index, step in enumerate(trace.steps)
    )


def _from_the_turn_api(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A turn that collected artifacts, read on the wire as the implementation itself
    reports its turns (whatever that wire then carries)."""
    collected = _collected_by_step(scenario, trace)
    return any(
        read_from_the_implementation(step, handshake) and _read_at(trace, index, collected[index])
        for index, step in enumerate(trace.steps)
    )


def _run_collecting(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run in which some call attached artifacts."""
    return bool(_collecting_runs(scenario, trace))


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "The artifacts a run collected are persisted"
    situation("RT-TOOL-4#c1", "a run that collected artifacts", _run_collecting),
    # ¶1: "persisted on the last assistant message that run wrote"
    situation(
        "RT-TOOL-4#c1",
        "a collecting run that wrote several assistant messages",
        _several_messages,
    ),
    # ¶1: "that run wrote, once per run": the run, not the turn
    situation(
        "RT-TOOL-4#c1",
        "artifacts collected by a later run of the turn",
        _later_run_collecting,
    ),
    # ¶2: "so they survive a reload, and the turn API reports the same list"
    situation("RT-TOOL-4#c2", "a turn's artifacts read after a reload", _after_a_reload),
    situation("RT-TOOL-4#c2", "a turn's artifacts read from its turn API", _from_the_turn_api),
    # ¶2: "aggregates the persisted artifacts of every assistant message in the turn"
    situation(
        "RT-TOOL-4#c2",
        "a turn whose artifacts several runs collected",
        _several_runs_collecting,
    ),
    # ¶3: "On the wire a message carries them": the implementation's wire, not one a
    # harness assembled for a runtime with no turn API
    situation(
        "RT-TOOL-4#c3",
        "a message's artifacts on the implementation's own wire",
        _from_the_turn_api,
    ),
)


WITHOUT_SITUATIONS: dict[str, str] = {}
