"""DR-6 ¶4 in a conversation's third and fourth turn: the unfinished turn a new message
follows is the conversation's latest, never its first, and the new turn starts; and
after two unfinished turns, the one told of is the newest, the turn the message is sent
instead of continuing (Continue is offered for it alone, ¶3)."""

from __future__ import annotations

from adapters.scenario import StartTurn, Step
from adapters.trace import Trace
from conformance.checks.dr_6._calls import BO, TICKET
from conformance.toolkit import (
    CheckContext,
    calls,
    check,
    cut,
    located_runs,
    mapping,
    names_call,
    nudge,
    one_turn,
    say,
    send,
    show,
    text_of,
    ticket,
    tools,
)

__all__ = [
    "check_later_turn_told_what_the_latest_unfinished_did",
    "check_later_turn_told_what_the_newest_unfinished_did",
]

NEW_MESSAGE = "And now the next thing (a new message)"
#: How many turns finish before the one left unfinished.
FINISHED_BEFORE: dict[str, int] = {"third-turn": 1, "fourth-turn": 2}


# ¶4's alone: the new turn starting and being told is ¶4's; ¶5 (no repeat prevented in
# it) is judged where a repeat is played (new-turn-not-blocked).
@check("DR-6#c4", variants=FINISHED_BEFORE)
def check_later_turn_told_what_the_latest_unfinished_did(ctx: CheckContext, variant: int) -> None:
    """After turns that finished, a turn left unfinished by an error, then a new message:
    the new turn starts, and its agent is first told what the unfinished turn did."""
    finished: list[Step] = [StartTurn(f"t{n}", message=f"Hello {n}") for n in range(variant)]
    last = f"t{variant + 1}"
    trace = one_turn(
        ctx,
        "dr6-c4-later-turn",
        tools=tools(),
        model=[*(say(f"done {n}") for n in range(variant)), calls(send(BO, "c1")), say("ok")],
        steps=[
            cut("after_tool_done", "error", "send_email"),
            *finished,
            StartTurn(f"t{variant}", message="Please write to Bo"),
            StartTurn(last, message=NEW_MESSAGE),
        ],
    )
    clause = (
        f"DR-6 ¶4: a new message starts a new turn (the conversation's turn {variant + 2}) "
        "whose agent is first told what the unfinished turn already did"
    )
    found = _told(ctx, trace, last, f"after {variant} finished turns and an unfinished one", clause)
    if found is None:
        return
    told, at = found
    ctx.expect(
        names_call(told, "send_email", BO),
        f"before the new message (at {at}) the agent is told {show(told.strip(), 200)}, "
        f"which does not name the unfinished turn's send_email {show(dict(BO))}; {clause}",
        at=at,
        reading="first-told",
    )


@check("DR-6#c4", name="later-turn-told-what-the-newest-unfinished-did")
def check_later_turn_told_what_the_newest_unfinished_did(ctx: CheckContext) -> None:
    """Two turns left unfinished one after the other (the second started by a new message
    instead of Continue), then a new message: its agent is first told what the second
    did, the turn the message is sent instead of continuing, not only the first."""
    trace = one_turn(
        ctx,
        "dr6-c4-newest-unfinished",
        tools=tools(),
        model=[calls(send(BO, "c1")), calls(ticket(TICKET, "c2")), say("ok")],
        steps=[
            cut("after_tool_done", "error", "send_email"),
            cut("after_tool_done", "error", "create_ticket"),
            StartTurn("t1", message="Please write to Bo"),
            StartTurn("t2", message="Please file the ticket"),
            StartTurn("t3", message=NEW_MESSAGE),
        ],
    )
    clause = (
        "DR-6 ¶4: a new message starts a new turn whose agent is first told what the "
        "unfinished turn already did (the one it is sent instead of continuing: the newest)"
    )
    found = _told(ctx, trace, "t3", "after two unfinished turns", clause)
    if found is None:
        return
    told, at = found
    ctx.expect(
        names_call(told, "create_ticket", TICKET),
        f"before the new message (at {at}) the agent is told {show(told.strip(), 200)}, "
        f"which does not name the newest unfinished turn's create_ticket {show(dict(TICKET))} "
        f"(turn t2, which stopped after turn t1); {clause}",
        at=at,
        reading="first-told",
    )


def _told(
    ctx: CheckContext, trace: Trace, label: str, after: str, clause: str
) -> tuple[str, str] | None:
    """What turn ``label``'s agent is told before the new message in its first model
    input, and where that message is; ``None`` (with the failure recorded) when the turn
    never called the model."""
    runs = [(at, run) for at, run in located_runs(trace) if run.turn == label]
    ctx.expect(
        bool(runs) and bool(runs[0][1].model_inputs),
        f"the new message {after} started no run that called the model; {clause}",
    )
    if not runs or not runs[0][1].model_inputs:
        return None
    at, run = runs[0]
    messages = run.model_inputs[0].messages
    index = next(
        (i for i in range(len(messages) - 1, -1, -1) if NEW_MESSAGE in text_of(messages[i])),
        None,
    )
    ctx.need(index is not None, f"the new turn's model input holds no {show(NEW_MESSAGE)}")
    assert index is not None
    skip = nudge(ctx)
    told = (
        "\n".join(
            text_of(m)
            for m in messages[:index]
            if mapping(m).get("role") not in ("assistant", "tool") and skip not in text_of(m)
        )
        + text_of(messages[index]).split(NEW_MESSAGE)[0]
    )
    return told, f"{at}/model_inputs/0/messages/{index}"
