"""RT-TOOL-7 ¶2 when another turn of the same conversation writes back first: a new
message sent while a turn is paused holding artifacts starts a turn of its own (DR-6 ¶4),
and that turn's write-back is no write-back "for the same execution"."""

from __future__ import annotations

from adapters.scenario import StartTurn
from conformance.toolkit import (
    CheckContext,
    Untested,
    ask,
    assistant_rows,
    call,
    calls,
    canary,
    check,
    collects,
    count_on_wire,
    describe,
    in_state,
    link,
    listing,
    locate,
    one_turn,
    output,
    say,
    show,
    tool,
    turn,
    wire_pointer,
)

__all__ = ["check_held_not_taken_by_another_turn"]

TOOL = "emit_artifacts"
NEW_MESSAGE = "Something else, meanwhile (a new message)"


@check("RT-TOOL-7#c2", name="held-not-taken-by-another-turn")
def check_held_not_taken_by_another_turn(ctx: CheckContext) -> None:
    """A turn pauses holding an artifact, and a new message in the same conversation
    starts another turn: that turn's write-back does not take the artifact, which is not
    on its messages."""
    collects(ctx)
    mark = canary("rt7-c2-other-turn")
    trace = one_turn(
        ctx,
        "rt7-c2-other-turn",
        tools=[tool(TOOL, output({"ok": True}, link(mark)))],
        model=[calls(call(TOOL, {}, "h0")), ask("Which format?"), say("done, meanwhile")],
        steps=[StartTurn("t1"), StartTurn("t2", message=NEW_MESSAGE)],
    )
    paused = turn(trace, "t1", step=0)
    if not in_state(ctx.handshake, paused, "paused"):
        raise Untested(
            f"turn t1 did not pause on its question (it is {describe(ctx.handshake, paused)})"
        )
    other = turn(trace, "t2")
    if not assistant_rows(other):
        raise Untested(
            f"the new message started no turn t2 that wrote back an assistant message (t2 is "
            f"{describe(ctx.handshake, other)})"
        )
    stray = count_on_wire(trace, mark, label="t2")
    ctx.expect(
        stray == 0,
        f"turn t1's held artifact {show(mark)} was delivered on turn t2, a new message's "
        f"turn (at {listing(locate(other, mark))}); RT-TOOL-7 ¶2: the next write-back for "
        "the same execution takes them",
        at=wire_pointer(trace, "t2"),
    )
