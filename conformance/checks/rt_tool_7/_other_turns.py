"""RT-TOOL-7 ¶2 when another turn writes back first: a new message sent while a turn is
paused holding artifacts starts a turn of its own (DR-6 ¶4), and that turn's write-back
is no write-back "for the same execution"; nor, when two turns are paused each holding
its own, is either one's answer a write-back for the other's execution."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.scenario import Answer, StartTurn
from conformance.toolkit import (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    GUARD_HOLDS,
    TOOL_ARTIFACTS_FIELD,
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
    scenario,
    show,
    tool,
    turn,
    wire_pointer,
)

__all__ = ["check_held_not_taken_by_another_turn", "check_held_taken_only_by_their_own_turn"]

TOOL = "emit_artifacts"
NEW_MESSAGE = "Something else, meanwhile (a new message)"


# The message is ¶2's word; the field it carries them in is RT-TOOL-4 ¶3's.
@check(
    "RT-TOOL-7#c2",
    name="held-not-taken-by-another-turn",
    through=(ARTIFACTS_ATTACHED, ARTIFACTS_LISTED, TOOL_ARTIFACTS_FIELD, GUARD_HOLDS),
)
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


@dataclass(frozen=True)
class Beside:
    """Where the second paused turn is: its conversation."""

    conversation: str


#: the second turn in the same conversation (a new message, DR-6 ¶4), or in another one
BESIDE = {
    "same-conversation": Beside("main"),
    "another-conversation": Beside("other"),
}


@check(
    "RT-TOOL-7#c2",
    name="held-taken-only-by-their-own-turn",
    variants=BESIDE,
    through=(ARTIFACTS_ATTACHED, ARTIFACTS_LISTED, TOOL_ARTIFACTS_FIELD, GUARD_HOLDS),
)
def check_held_taken_only_by_their_own_turn(ctx: CheckContext, variant: Beside) -> None:
    """Two turns are paused, each holding an artifact of its own, and each is answered in
    turn: each answer's write-back takes its own turn's held artifact, never the other's."""
    collects(ctx)
    first, second = canary("rt7-c2-own-first"), canary("rt7-c2-own-second")
    trace = ctx.run(
        scenario(
            f"rt7-c2-two-paused-{variant.conversation}",
            tools=[
                tool(TOOL, output({"ok": True}, link(first)), output({"ok": True}, link(second)))
            ],
            model=[
                calls(call(TOOL, {}, "h0")),
                ask("Which format?"),
                calls(call(TOOL, {}, "h1")),
                ask("Which colour?"),
                say("done, the first"),
                say("done, the second"),
            ],
            steps=[
                StartTurn("t1"),
                StartTurn("t2", conversation=variant.conversation, message=NEW_MESSAGE),
                Answer("t1"),
                Answer("t2"),
            ],
        )
    )
    where = {"t1": "main", "t2": variant.conversation}
    for label in ("t1", "t2"):
        paused = turn(trace, label, step=1, conversation=where[label])
        if not in_state(ctx.handshake, paused, "paused"):
            raise Untested(
                f"turn {label} was not paused holding its artifact before the answers (it "
                f"is {describe(ctx.handshake, paused)})"
            )
    for index in (2, 3):
        if trace.steps[index].outcome != "ok":
            raise Untested(f"the answer of step {index} was {trace.steps[index].outcome}")
    for label, own, other in (("t1", first, second), ("t2", second, first)):
        conversation = where[label]
        final = turn(trace, label, conversation=conversation)
        kept = count_on_wire(trace, own, label=label, conversation=conversation)
        ctx.expect(
            kept == 1,
            f"turn {label}'s own held artifact {show(own)} is delivered {kept} time(s) on "
            "its messages once the turn was answered; RT-TOOL-7 ¶2: the next write-back for "
            "the same execution takes them",
            at=wire_pointer(trace, label, conversation=conversation),
        )
        ctx.expect(
            count_on_wire(trace, other, label=label, conversation=conversation) == 0,
            f"the other paused turn's held artifact {show(other)} was delivered on turn "
            f"{label} (at {listing(locate(final, other))}); RT-TOOL-7 ¶2: a write-back "
            "takes the held artifacts of its own execution only",
            at=wire_pointer(trace, label, conversation=conversation),
        )
