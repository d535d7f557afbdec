"""DR-3 ¶5 across a pause in a resumed chunk.  The resumed chunk answers a write from the
journal, then pauses (the model asks the operator a question, or a gated call waits for
approval); once it is answered, the model dispatches the identical write again.  One
journaled completion has already answered one call of the turn, so the second identical
call is fresh and runs.

Whether the pause ends the chunk, the text does not say (docs/rules.md); either way the
two identical calls are in the same turn, and ¶5 consumes the entry "so two identical
fresh calls in the same turn do not both short-circuit on one journaled completion": a
completion claimed before the pause stays claimed after it.  (Across a cut, where ¶1
takes a new snapshot for the next chunk, the suite still judges nothing.)"""

from __future__ import annotations

from adapters.scenario import StartTurn, Wait
from conformance.checks.dr_3._scenarios import ANA
from conformance.toolkit import (
    CHUNK_PAUSES,
    CONTINUES_ON_ITS_OWN,
    CheckContext,
    ChunkPause,
    calls,
    check,
    cut,
    one_turn,
    ran,
    runs_of,
    say,
    send,
    show,
)

__all__ = ["check_claim_outlasts_a_pause"]

TURN = "t1"
CLAUSE = (
    "DR-3 ¶5: each completed entry is consumed when it is matched, so two identical fresh "
    "calls in the same turn do not both short-circuit on one journaled completion"
)


@check("DR-3#c5", variants=CHUNK_PAUSES, through=(CONTINUES_ON_ITS_OWN,))
def check_claim_outlasts_a_pause(ctx: CheckContext, variant: ChunkPause) -> None:
    """A write answered from the journal before a pause in the resumed chunk used up its
    completion: the identical write dispatched after the pause runs."""
    trace = one_turn(
        ctx,
        "dr3-c5-across-a-pause",
        tools=variant.tools(),
        model=[
            calls(send(ANA, "c1")),
            calls(send(ANA, "r1")),
            variant.reply("Which address should the summary go to?"),
            calls(send(ANA, "r2")),
            say("done"),
        ],
        steps=[
            cut("after_tool_done", on="send_email"),
            StartTurn(TURN),
            Wait(),
            variant.answer(TURN),
        ],
    )
    said, _ = runs_of(trace, "r1")
    ctx.prerequisite(
        "DR-3#c2",
        not ran(trace, "r1"),
        f"send_email {show(dict(ANA))} (call r1), dispatched in the resumed chunk, {said}: "
        "it was not answered from the journal, so nothing was consumed before the pause",
    )
    said, at = runs_of(trace, "r2")
    ctx.expect(
        len(ran(trace, "r2")) == 1,
        f"send_email {show(dict(ANA))} (call r2), dispatched after the resumed chunk's pause, "
        f"{said}; expected it to run once: the one identical completion (call c1) already "
        f"answered call r1 before the pause; {CLAUSE}",
        at=at,
    )
