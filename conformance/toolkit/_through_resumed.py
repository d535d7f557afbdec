"""The channels of what a resumed run is given: the note, the hard-block, and Continue.

A case of DR-5 or DR-6 that reads the journal note in a continuation's prompt reads it
through DR-2: where the note is put (¶1, "right after the nudge") and what it names (¶2,
"each call that already completed").  A note the runtime put before the nudge, or one
that leaves out a call the turn completed, is DR-2's failure, and DR-2's own cases fail
it; the continuation was still given a note.

A case of DR-3 that counts how often a re-dispatched write ran (the snapshot's reach,
¶1; its order, ¶4; its consumption, ¶5) reads it through the hard-block answering a
matched call at all (¶2).  Where a resumed run ran a write whose name and input match a
call completed in the run cut just before it, and answered no call from the journal, no
snapshot of any reach, order or consumption was applied: that is ¶2's failure.

A case that chooses Continue reads what follows it through the Continue being accepted:
a turn stopped, the newest of its conversation, "ends with Continue available" (DR-5
¶5).  Where such a Continue was refused, what the case then sees (no continued run, a
count short of three) is ¶5's failure.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from adapters.handshake import Handshake
from adapters.scenario import Continue, Scenario, StartTurn
from adapters.trace import RunRecord, Trace
from conformance.toolkit._channels import Channel
from conformance.toolkit._json import mapping
from conformance.toolkit._resumed import completed_calls, interrupted_calls
from conformance.toolkit._resuming import RESUMING, dispatched, writes
from conformance.toolkit._shown import show
from conformance.toolkit._states import describe, state_of
from conformance.toolkit._told import ResumePrompt, names_call, resume_prompt
from conformance.toolkit._traces import located_runs

__all__ = [
    "CONTINUE_ACCEPTED",
    "HARD_BLOCK_ANSWERS",
    "NOTE_AFTER_THE_NUDGE",
    "NOTE_NAMES_COMPLETED",
]


def _resumed(trace: Trace) -> Iterator[tuple[str, RunRecord, list[RunRecord]]]:
    """Each run that resumed its turn, with its pointer and the turn's runs before it."""
    earlier: dict[tuple[str, str], list[RunRecord]] = {}
    for at, run in located_runs(trace):
        before = earlier.setdefault((run.conversation, run.turn), [])
        if run.cause in RESUMING and before:
            yield at, run, list(before)
        before.append(run)


def _prompts(
    trace: Trace, handshake: Handshake
) -> Iterator[tuple[str, ResumePrompt, list[tuple[str, object]], list[tuple[str, object]]]]:
    """Each resumed run's prompt, with the calls its turn completed and was interrupted in
    before it."""
    declared = handshake.durable_resume
    if declared is None:
        return
    for at, run, before in _resumed(trace):
        prompt = resume_prompt(run, declared.nudge)
        if prompt is None:
            continue
        done = [one for earlier in before for one in completed_calls(earlier)]
        cut = [one for earlier in before for one in interrupted_calls(earlier)]
        yield at, prompt, done, cut


def _note_before_the_nudge(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Why a resumed run's note is not right after the nudge: the text after it names none
    of the calls its turn completed or was interrupted in, and the nudge's own message,
    before the nudge, names one."""
    for at, prompt, done, cut in _prompts(trace, handshake):
        calls = done + cut
        if any(names_call(prompt.note, tool, args) for tool, args in calls):
            continue
        named = [(tool, args) for tool, args in calls if names_call(prompt.before, tool, args)]
        if named:
            tool, args = named[0]
            return (
                f"the resumed run at {at} names {tool} {show(args)} before the nudge, in the "
                "nudge's own message, and no call of its turn right after it"
            )
    return None


#: DR-2 ¶1: the note "is appended to the resume prompt, right after the nudge".
NOTE_AFTER_THE_NUDGE = Channel(
    "the journal note, right after the nudge", "DR-2#c1", _note_before_the_nudge
)


def _note_leaves_out(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Why a resumed run's note does not name each call its turn completed before it: a
    note is there (right after the nudge it names some call of the turn) and leaves one
    out."""
    for at, prompt, done, cut in _prompts(trace, handshake):
        if not any(names_call(prompt.note, tool, args) for tool, args in done + cut):
            continue  # no note follows the nudge: what is missing is the note itself
        left = [(tool, args) for tool, args in done if not names_call(prompt.note, tool, args)]
        if left:
            tool, args = left[0]
            return (
                f"the note of the resumed run at {at} leaves out {tool} {show(args)}, which "
                "its turn completed before it"
            )
    return None


#: DR-2 ¶2: "The note names each call that already completed".
NOTE_NAMES_COMPLETED = Channel(
    "the journal note naming each call its turn completed", "DR-2#c2", _note_leaves_out
)


def _as_dispatched(tool: object, arguments: object) -> str:
    """A call as it was written, its keys in their order: the same call by any signature
    of its input (DR-3 ¶4 judges which others are)."""
    return f"{tool}\x00{json.dumps(arguments, ensure_ascii=False, default=str)}"


def _no_block(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Why the trace shows no hard-block at all: a resumed run answered no call from the
    journal, and ran a write whose name and input match a call completed in the run just
    before it, written the same, keys in the same order (the first such call of the run, so
    no consumption spent its entry, and no signature could tell the two apart)."""
    wired = writes(scenario)
    for at, run, before in _resumed(trace):
        if any(r.disposition == "reused" for one in run.passes for r in one.results):
            continue
        last = {_as_dispatched(tool, args) for tool, args in completed_calls(before[-1])}
        effects = {str(mapping(e).get("tool_call_id")) for e in run.side_effects}
        seen: set[str] = set()
        for call in dispatched(run):
            signature = _as_dispatched(call.tool, call.arguments)
            if str(call.tool) not in wired or signature not in last or signature in seen:
                continue
            seen.add(signature)
            if call.disposition == "executed" or str(call.call_id) in effects:
                return (
                    f"{call.tool} {show(call.arguments)} (call {show(call.call_id)}), "
                    f"re-dispatched in the resumed run at {at} with the name and input of a "
                    "call completed in the run just before it, ran, and that run answered no "
                    "call from the journal"
                )
    return None


#: DR-3 ¶2: a re-dispatched write matching a completed entry "is not executed: the
#: journaled result is returned in its place".
HARD_BLOCK_ANSWERS = Channel(
    "the hard-block answering a re-dispatched completed write from the journal",
    "DR-3#c2",
    _no_block,
)


def _continue_refused(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Why a Continue chosen on a stopped turn, its conversation's newest, was refused."""
    newest: dict[str, str] = {}
    conversation_of: dict[str, str] = {}
    for index, armed in enumerate(scenario.steps[: len(trace.steps)]):
        if isinstance(armed, StartTurn):
            newest[armed.conversation] = armed.turn
            conversation_of[armed.turn] = armed.conversation
        if not isinstance(armed, Continue) or index == 0 or trace.steps[index].outcome == "ok":
            continue
        conversation = conversation_of.get(armed.turn, "main")
        if newest.get(conversation) != armed.turn:
            continue  # an older stop: DR-6 ¶3 offers it no Continue
        wire = trace.steps[index - 1].wire.get(conversation, {}).get(armed.turn)
        if wire is None or state_of(handshake, wire) in (
            "running",
            "resuming",
            "paused",
            "completed",
        ):
            continue
        error = trace.steps[index].error
        return (
            f"turn {armed.turn}, the newest of conversation {conversation}, was "
            f"{describe(handshake, wire)} and refused the Continue chosen at /steps/{index} "
            f"({show(error)})"
        )
    return None


#: DR-5 ¶5: after an error, a stop, a cancellation (and so on) "the turn ends with
#: Continue available".
CONTINUE_ACCEPTED = Channel(
    "Continue, chosen on its conversation's newest stop, being accepted",
    "DR-5#c5",
    _continue_refused,
)
