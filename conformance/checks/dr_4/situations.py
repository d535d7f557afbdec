"""The situations DR-4's clauses name."""

from __future__ import annotations

from collections.abc import Iterator

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.checks.dr_4._history import mentions
from conformance.toolkit import (
    RESUMING,
    ClauseSituation,
    Dispatched,
    dispatched,
    mapping,
    resume_prompt,
    runs_by_turn,
    situation,
    writes,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

CUT = ("interrupted", "crashed")


def _interrupted_writes(scenario: Scenario, run: RunRecord) -> list[Dispatched]:
    """The writes ``run`` dispatched and was cut before it recorded their results."""
    if run.end not in CUT:
        return []
    chosen = writes(scenario)
    return [one for one in dispatched(run) if one.tool in chosen and one.disposition is None]


def _landed_unrecorded(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A write's body ran (its side effect is on the trace), and its run was cut before
    it recorded the result."""
    for run in trace.runs():
        unrecorded = {one.call_id for one in _interrupted_writes(scenario, run)}
        if any(mapping(effect).get("tool_call_id") in unrecorded for effect in run.side_effects):
            return True
    return False


def _interrupted_sent_again(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A resumed run dispatched a write (same tool and input) that an earlier run of its
    turn dispatched and was cut before it recorded the result, whether or not its body
    ran: the hard-block must leave it to DR-4 ¶2."""
    for runs in runs_by_turn(trace).values():
        for position, run in enumerate(runs):
            if run.cause not in RESUMING:
                continue
            cut = {
                (one.tool, one.input)
                for r in runs[:position]
                for one in _interrupted_writes(scenario, r)
            }
            if any((one.tool, one.input) in cut for one in dispatched(run)):
                return True
    return False


def _write_after_a_cut(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A resumed run dispatched a write while an earlier run of its turn had been cut
    with a write unanswered: a run where "and only then" decides whether a write that
    is no identical retry may run."""
    chosen = writes(scenario)
    for runs in runs_by_turn(trace).values():
        for position, run in enumerate(runs):
            if run.cause not in RESUMING:
                continue
            if not any(_interrupted_writes(scenario, r) for r in runs[:position]):
                continue
            if any(one.tool in chosen for one in dispatched(run)):
                return True
    return False


def _retries(
    scenario: Scenario, trace: Trace, same_turn: bool
) -> Iterator[tuple[RunRecord, Dispatched]]:
    """Each run that dispatched an identical retry of a write interrupted earlier, with the
    interrupted call: in a resumed run of its own turn (``same_turn``), or in the first run
    of a later turn of its conversation."""
    runs = list(trace.runs())
    for position, run in enumerate(runs):
        if run.cause not in (RESUMING if same_turn else ("start",)):
            continue
        earlier = [
            r
            for r in runs[:position]
            if r.conversation == run.conversation and (r.turn == run.turn) is same_turn
        ]
        cut = [one for r in earlier for one in _interrupted_writes(scenario, r)]
        for again in dispatched(run):
            for one in cut:
                if (one.tool, one.input) == (
                    again.tool,
                    again.input,
                ) and one.call_id != again.call_id:
                    yield run, one


def _history_shows(run: RunRecord, interrupted: Dispatched, handshake: Handshake) -> bool:
    """Whether the model input the run's calls came from (its first) mentions the
    interrupted call before the resume prompt."""
    if not run.model_inputs:
        return False
    messages = list(run.model_inputs[0].messages)
    declared = handshake.durable_resume
    prompt = resume_prompt(run, declared.nudge) if declared is not None else None
    history = messages[: prompt.index] if prompt is not None else messages
    return any(
        mentions(m, str(interrupted.call_id), str(interrupted.tool), interrupted.arguments)
        for m in history
    )


def _retry_shown(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(_history_shows(run, one, handshake) for run, one in _retries(scenario, trace, True))


def _retry_in_a_new_turn(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(True for _ in _retries(scenario, trace, False))


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "The hard-block covers completed calls only"
    situation(
        "DR-4#c1", "an interrupted write dispatched again in a resumed run", _interrupted_sent_again
    ),
    # ¶1: "a call whose side effect landed but whose result was never recorded"
    situation(
        "DR-4#c1",
        "a write whose body ran and whose result was never recorded",
        _landed_unrecorded,
    ),
    # ¶2: "refused when the resumed run's history shows the interruption, and only then"
    situation(
        "DR-4#c2",
        "an identical retry from a resumed history showing the interruption",
        _retry_shown,
    ),
    situation(
        "DR-4#c2",
        "an identical retry in a new turn, which resumes nothing",
        _retry_in_a_new_turn,
    ),
    # ¶2: "and only then": any other write a resumed run sends after a cut runs
    situation(
        "DR-4#c2",
        "a write dispatched in a resumed run after a cut left a write unanswered",
        _write_after_a_cut,
    ),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
