"""The situations DR-6's clauses name."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import ClauseSituation, runs_by_turn, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

ENDED_SHORT = ("interrupted", "failed", "crashed")


def _continued_past_the_cap(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """One turn was resumed by Continue more times than DR-5 ¶3 allows automatic
    continuations (three): "any number of times" is what sets Continue apart from them,
    and two choices of it would not show a runtime that counts it against their cap."""
    return any(
        sum(1 for run in runs if run.cause == "continue") > 3
        for runs in runs_by_turn(trace).values()
    )


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


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶2: "Continue can be chosen any number of times"
    situation(
        "DR-6#c2", "Continue chosen more than three times on one turn", _continued_past_the_cap
    ),
    # ¶3: "offered only for the conversation's newest stop"
    situation("DR-6#c3", "a conversation with an older stop beside its newest", _two_stops),
)

WITHOUT_SITUATIONS: dict[str, str] = {
    "DR-6#c1": (
        "one circumstance, Continue on a stopped turn that completed a write and dispatches "
        "it again, in which the text asks for two behaviours (the note, the hard-block); "
        "every case of the clause plays it"
    ),
    "DR-6#c4": (
        "one behaviour in one circumstance: a new message sent to a conversation whose "
        "newest turn is unfinished"
    ),
    "DR-6#c5": (
        "one behaviour in one circumstance, a write of the unfinished turn repeated in the "
        "new turn, which every case of the clause plays"
    ),
}
