"""DR-2's invariant: a resumed run is told, after the nudge, what its turn completed and
interrupted."""

from __future__ import annotations

import json

from adapters.handshake import Handshake
from adapters.scenario import FailLedgerRead, Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    RESUMING,
    Breach,
    Invariant,
    completed_calls,
    interrupted_calls,
    invariant,
    mapping,
    show,
    unreported_calls,
)

__all__ = ["INVARIANTS"]


def resume_note(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A resumed run is prompted with the nudge and, right after it, a note naming every
    call its turn completed and every call it interrupted; with nothing to say, the
    prompt is the nudge alone, byte for byte.  Where a ledger read was made to fail, the
    note may be missing (DR-2 ¶5)."""
    declared = handshake.durable_resume
    if declared is None:
        return None
    completed: dict[tuple[str, str], list[str]] = {}
    interrupted: dict[tuple[str, str], list[str]] = {}
    cleared: dict[tuple[str, str], list[str]] = {}  # may or may not still be reported
    unreadable = 0
    wired = {tool.name for tool in scenario.tools}
    for index, step in enumerate(trace.steps):
        armed = scenario.steps[index] if index < len(scenario.steps) else None
        if isinstance(armed, FailLedgerRead):
            unreadable += armed.count
        for run in step.runs:
            key = (run.conversation, run.turn)
            if run.cause in RESUMING:
                if unreadable > 0:
                    unreadable -= 1
                else:
                    owed = (completed.get(key, []), interrupted.get(key, []))
                    problem = _note_problem(run, declared.nudge, owed, bool(cleared.get(key)))
                    if problem:
                        return problem
            completed.setdefault(key, []).extend(name for name, _ in completed_calls(run))
            completed[key].extend(_receipts(run))
            interrupted.setdefault(key, []).extend(
                name for name, _ in interrupted_calls(run, wired)
            )
            # A body a failed run never reported may have returned: the note may name it.
            cleared.setdefault(key, []).extend(name for name, _ in unreported_calls(run))
            if mapping(run.interruption).get("point") == "during_model_call":
                # A cut in flight abandons partial output, which a runtime may mark with a
                # `clear`: the calls left open before it are then no longer interrupted
                # (DR-1 ¶5; docs/interpretations.md#when-clear-is-recorded).
                cleared.setdefault(key, []).extend(interrupted.get(key, []))
                interrupted[key] = []
    return None


def _receipts(run: RunRecord) -> list[str]:
    """The receipts in the data of the run's completed calls, where the data is short
    enough that a short result has no reason to cut it (the hunt's tools put one in)."""
    found: list[str] = []
    for one in run.passes:
        for result in one.results:
            data = mapping(result.result).get("data")
            receipt = mapping(data).get("receipt")
            short = len(json.dumps(data, separators=(",", ":"), default=str)) <= 60
            if result.disposition == "executed" and isinstance(receipt, str) and short:
                found.append(receipt)
    return found


#: the clause each kind of call owed to the note is named by
_COMPLETED, _INTERRUPTED, _EMPTY = "DR-2#c2", "DR-2#c3", "DR-2#c4"


def _note_problem(
    run: RunRecord, nudge: str, owed: tuple[list[str], list[str]], maybe: bool
) -> Breach | None:
    """What is wrong with the note of resumed ``run``, charged to the clause whose words
    it breaks: a completed call (or its short result) left out is ¶2's, an interrupted
    call left out ¶3's, something appended to an empty journal's prompt ¶4's."""
    if not run.model_inputs:
        return None
    done, cut = owed
    messages = [mapping(m) for m in run.model_inputs[0].messages]
    found = [i for i, m in enumerate(messages) if str(m.get("content") or "").startswith(nudge)]
    if not found:
        return Breach(
            f"resumed run {run.id} ({run.cause}) is not prompted with the nudge {show(nudge)}",
            _owed_clauses(done, cut),
        )
    at = found[-1]
    prompt = str(messages[at].get("content"))
    if not done and not cut:
        if prompt != nudge and not maybe:
            return Breach(
                f"resumed run {run.id} had nothing in its journal, yet its prompt is "
                f"{show(prompt)}, not the nudge alone",
                (_EMPTY,),
            )
        return None
    # The note follows the nudge, in its message or the next (docs/interpretations.md).
    following = messages[at + 1] if at + 1 < len(messages) else {}
    note = prompt[len(nudge) :] + " " + str(following.get("content") or "")
    missing_done = sorted({name for name in done if name not in note})
    missing_cut = sorted({name for name in cut if name not in note})
    if missing_done or missing_cut:
        return Breach(
            f"resumed run {run.id} ({run.cause}) is not told of "
            f"{show(sorted({*missing_done, *missing_cut}))} after the nudge (tools its turn "
            f"already ran, and the results they returned): {show(note.strip(), 160)}",
            _owed_clauses(missing_done, missing_cut),
        )
    return None


def _owed_clauses(done: list[str], cut: list[str]) -> tuple[str, ...]:
    """The clauses naming what was owed: ¶2 for completed calls and their results, ¶3
    for interrupted ones, ¶4 when nothing was (the prompt must then be the nudge)."""
    clauses = ((_COMPLETED,) if done else ()) + ((_INTERRUPTED,) if cut else ())
    return clauses or (_EMPTY,)


def _resumed_with_journal(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    done: set[tuple[str, str]] = set()
    wired = {tool.name for tool in scenario.tools}
    for run in trace.runs():
        key = (run.conversation, run.turn)
        if key in done and run.cause in RESUMING:
            return True
        if completed_calls(run) or interrupted_calls(run, wired):
            done.add(key)
    return False


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "resume-note",
        ("DR-2#c2", "DR-2#c3", "DR-2#c4"),
        resume_note,
        "a turn resumed after calls completed or were interrupted",
        _resumed_with_journal,
        profile="durable-resume",
        rank=300,
    ),
)
