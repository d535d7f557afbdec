"""The situations DR-6's clauses name."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from adapters.handshake import Handshake
from adapters.scenario import Continue, Scenario, StartTurn
from adapters.trace import RunRecord, Trace
from conformance.toolkit import ClauseSituation, dispatched, runs_by_turn, situation, writes

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

ENDED_SHORT = ("interrupted", "failed", "crashed")


def _continued_past_the_cap(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Continue was chosen for one turn more times than DR-5 ¶3 allows automatic
    continuations (three), each after a run of it ended short: "any number of times" is
    what sets Continue apart from them, and two choices of it would not show a runtime
    that counts it against their cap.  The choices are the scenario's, whatever the
    implementation then did with them."""
    chosen: Counter[str] = Counter()
    for index, played in enumerate(scenario.steps[: len(trace.steps)]):
        if isinstance(played, Continue) and any(
            label == played.turn for _, label in _unfinished_before(trace, index)
        ):
            chosen[played.turn] += 1
    return any(count > 3 for count in chosen.values())


def _stopped(runs: list[RunRecord]) -> bool:
    """Whether a turn stopped: a run of it ended short, and the turn did not continue on
    its own right after it."""
    return any(
        run.end in ENDED_SHORT and (after is None or after.cause != "auto_continue")
        for run, after in pairwise([*runs, None])
        if run is not None
    )


def _two_stops(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A conversation holds two stopped turns or more: an older stop beside its newest."""
    stopped = Counter(
        conversation for (conversation, _), runs in runs_by_turn(trace).items() if _stopped(runs)
    )
    return any(count >= 2 for count in stopped.values())


def _unfinished_before(trace: Trace, index: int) -> dict[tuple[str, str], RunRecord]:
    """The turns whose latest run, by step ``index``, ended short: each with that run."""
    latest: dict[tuple[str, str], RunRecord] = {}
    for step in trace.steps[:index]:
        for run in step.runs:
            latest[(run.conversation, run.turn)] = run
    return {key: run for key, run in latest.items() if run.end in ENDED_SHORT}


def _continue_chosen(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Continue chosen for a turn whose latest run ended short (whatever came of it)."""
    return any(
        isinstance(played, Continue)
        and any(label == played.turn for _, label in _unfinished_before(trace, index))
        for index, played in enumerate(scenario.steps[: len(trace.steps)])
    )


def _completed_writes_of(scenario: Scenario, runs: list[RunRecord]) -> set[tuple[object, str]]:
    chosen = writes(scenario)
    return {
        (one.tool, one.input)
        for run in runs
        for one in dispatched(run)
        if one.tool in chosen and one.disposition == "executed"
    }


def _repeated_after_continue(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run Continue started dispatched a write its turn completed before it."""
    for runs in runs_by_turn(trace).values():
        for position, run in enumerate(runs):
            done = _completed_writes_of(scenario, runs[:position])
            if run.cause == "continue" and any((c.tool, c.input) in done for c in dispatched(run)):
                return True
    return False


def _new_message_beside(scenario: Scenario, index: int, trace: Trace) -> list[RunRecord]:
    """Where step ``index`` sends a new message starting a turn, the latest runs of the
    other turns of its conversation that ended short before it."""
    played = scenario.steps[index]
    if not isinstance(played, StartTurn):
        return []
    return [
        run
        for (conversation, label), run in _unfinished_before(trace, index).items()
        if conversation == played.conversation and label != played.turn
    ]


def _sent_beside_unfinished(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A new message sent to a conversation one of whose turns ended short."""
    return any(
        _new_message_beside(scenario, index, trace)
        for index in range(min(len(scenario.steps), len(trace.steps)))
    )


def _unfinished_write_repeated(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A turn started beside an unfinished one dispatched a write that turn completed."""
    by_turn = runs_by_turn(trace)
    for index in range(min(len(scenario.steps), len(trace.steps))):
        beside = _new_message_beside(scenario, index, trace)
        played = scenario.steps[index]
        if not beside or not isinstance(played, StartTurn):
            continue
        done = {
            key
            for run in beside
            for key in _completed_writes_of(scenario, by_turn[(run.conversation, run.turn)])
        }
        new = by_turn.get((played.conversation, played.turn), [])
        if any((c.tool, c.input) in done for run in new for c in dispatched(run)):
            return True
    return False


def _stops_in_two_conversations(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Two conversations or more each hold a stopped turn: the newest stop is each one's
    own."""
    stopped = {
        conversation for (conversation, _), runs in runs_by_turn(trace).items() if _stopped(runs)
    }
    return len(stopped) >= 2


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "Choosing Continue resumes the stopped run's own turn, with both the journal note
    # and the hard-block applied"
    situation("DR-6#c1", "Continue chosen on a stopped turn", _continue_chosen),
    situation(
        "DR-6#c1",
        "a completed write dispatched again after Continue",
        _repeated_after_continue,
    ),
    # ¶2: "Continue can be chosen any number of times"
    situation(
        "DR-6#c2", "Continue chosen more than three times on one turn", _continued_past_the_cap
    ),
    # ¶3: "offered only for the conversation's newest stop"
    situation("DR-6#c3", "a conversation with an older stop beside its newest", _two_stops),
    situation("DR-6#c3", "stops in two conversations", _stops_in_two_conversations),
    # ¶4: "A new message sent instead starts a new turn"
    situation("DR-6#c4", "a new message sent beside an unfinished turn", _sent_beside_unfinished),
    # ¶5: "Neither the journal note nor the hard-block prevents a repeat in that new turn"
    situation(
        "DR-6#c5",
        "a write of the unfinished turn repeated in the new turn",
        _unfinished_write_repeated,
    ),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
