"""DR-6 ¶3 where the stop that happened last is not the latest stopped turn.

"It is offered only for the conversation's newest stop" (DR-6 ¶3).  A stop is an event:
the plainest reading of "the newest stop" is the one that happened last.  A runtime may
also take the conversation's latest stopped turn, the stop of its newest turn.  The two
agree while turns stop in the order they were started, which every other case plays;
here they differ.  Turn t1 pauses on a question, a new message starts turn t2, which an
error stops; then t1 is answered and an error stops it too.  t1 holds the stop that
happened last, t2 is the latest stopped turn: Continue must be offered for exactly one
of them, either (docs/interpretations.md#newest-stop)."""

from __future__ import annotations

from adapters.scenario import Answer, StartTurn
from adapters.trace import TurnWire
from conformance.toolkit import (
    CheckContext,
    Untested,
    ask,
    check,
    cut,
    describe,
    one_turn,
    say,
    show,
    state_of,
    stopped_with_continue,
    tools,
    turn,
    turn_pointer,
)

__all__ = ["check_offered_for_the_newest_stop_either_way"]

CLAUSE = "DR-6 ¶3: Continue is offered only for the conversation's newest stop"
#: the step after which both turns have stopped, t2 first
JUDGED = 4


@check("DR-6#c3", name="offered-for-the-newest-stop-either-way")
def check_offered_for_the_newest_stop_either_way(ctx: CheckContext) -> None:
    """An older turn stopped after a newer one: Continue is offered for one of the two
    only, the stop that happened last or the latest stopped turn."""
    trace = one_turn(
        ctx,
        "dr6-c3-stopped-last",
        tools=tools(),
        model=[ask("Which report should I file?"), say("done")],
        steps=[
            StartTurn("t1"),
            cut("during_model_call", "error"),
            StartTurn("t2", message="Something else first (a new message)"),
            cut("during_model_call", "error"),
            Answer("t1"),
        ],
    )
    answered = trace.steps[JUDGED] if len(trace.steps) > JUDGED else None
    if answered is None or answered.outcome != "ok":
        raise Untested(
            "the answer to turn t1, paused when the new message started turn t2, was not "
            f"carried out ({show(answered.outcome if answered else None)}): t1 never stopped "
            "after t2"
        )
    older, newer = (turn(trace, label, step=JUDGED) for label in ("t1", "t2"))
    if not (_stopped(ctx, older) and _stopped(ctx, newer)):
        raise Untested(
            f"after the answer turn t1 is {describe(ctx.handshake, older)} and turn t2 "
            f"{describe(ctx.handshake, newer)}: not both stopped, so no two stops to tell apart"
        )
    offering = [
        label
        for label, wire in (("t1", older), ("t2", newer))
        if wire is not None and wire.continueOffered is True
    ]
    ctx.expect(
        len(offering) == 1,
        f"turn t2 stopped (an error) while turn t1 waited for an answer, then t1 was answered "
        f"and stopped (an error): Continue is offered for {show(offering)}, where the "
        "conversation's newest stop is one of the two, t1's stop (the one that happened "
        f"last) or t2's (the latest stopped turn); {CLAUSE}",
        at=turn_pointer(trace, offering[-1] if offering else "t1", step=JUDGED),
        reading="newest-stop",
    )


def _stopped(ctx: CheckContext, wire: TurnWire | None) -> bool:
    """Whether the turn stopped: it waits with Continue offered, or its declared state is
    stopped or failed (an older stop need not offer Continue)."""
    if wire is None:
        return False
    if stopped_with_continue(ctx.handshake, wire):
        return True
    return state_of(ctx.handshake, wire) in ("stopped", "failed")
