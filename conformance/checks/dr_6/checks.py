"""DR-6's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.dr_6`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adapters.scenario import Continue, Restart, StartTurn, Step, Stop, Wait
from conformance.checks.dr_6._calls import ANA, TICKET
from conformance.checks.dr_6._later_turns import (
    check_later_turn_told_what_the_latest_unfinished_did,
    check_later_turn_told_what_the_newest_unfinished_did,
)
from conformance.checks.dr_6._newest_stop import check_offered_for_the_newest_stop_either_way
from conformance.toolkit import (
    CONTINUE_ACCEPTED,
    CONTINUES_ON_ITS_OWN,
    NOTE_AFTER_THE_NUDGE,
    NOTE_NAMES_COMPLETED,
    CheckContext,
    calls,
    check,
    cut,
    describe,
    listing,
    located_continuations,
    located_runs,
    mapping,
    names_call,
    nudge,
    one_turn,
    ran,
    resume_prompt,
    runs_of,
    say,
    send,
    show,
    stopped_with_continue,
    text_of,
    ticket,
    tools,
    turn,
    turn_pointer,
    unnamed,
)

BOTH = (
    "DR-6 ¶1: Continue resumes the stopped run's own turn, with the journal note and the "
    "hard-block applied"
)


@dataclass(frozen=True)
class Stopped:
    """A turn that sends an email, is stopped (``stopping`` steps, armed before it starts,
    and ``then`` after), and is continued; the continued run re-dispatches the email."""

    stopping: tuple[Step, ...]
    then: tuple[Step, ...] = (Continue("t1"),)
    middle: tuple[dict[str, object], ...] = ()


STOPS: dict[str, Stopped] = {
    "after-an-error": Stopped((cut("after_tool_done", "error", "send_email"),)),
    "after-a-stop-while-resuming": Stopped(
        (cut("after_tool_done", on="send_email"),), (Stop("t1"), Continue("t1"))
    ),
    "after-the-third-continuation": Stopped(
        (cut("after_tool_done", on="send_email"), *(cut("during_model_call") for _ in range(3))),
        (Wait(), Continue("t1")),
    ),
    "after-a-crash": Stopped((cut("after_tool_done", "crash", "send_email"),)),
    "continue-after-continue": Stopped(
        (
            cut("after_tool_done", "error", "send_email"),
            cut("after_tool_done", "error", "create_ticket"),
        ),
        (Continue("t1"), Continue("t1")),
        middle=(ticket(TICKET, "c2"),),
    ),
}


@check("DR-6#c1", variants=STOPS, through=(CONTINUES_ON_ITS_OWN, CONTINUE_ACCEPTED))
def check_continue_applies_both_layers(ctx: CheckContext, variant: Stopped) -> None:
    """Continue resumes the stopped turn itself: its run is given the note, and a
    re-dispatched completed write is not run again."""
    model = [calls(send(ANA, "c1"))]
    if variant.middle:
        model.append(calls(*variant.middle))
    trace = one_turn(
        ctx,
        "dr6-c1-continue",
        tools=tools(),
        model=[*model, calls(send(ANA, "r1")), say("done")],
        steps=[*variant.stopping, StartTurn("t1"), *variant.then],
    )
    resumed = located_continuations(trace, "t1", ("continue",))
    ctx.need(
        bool(resumed),
        f"no run of turn t1 has cause continue after Continue was chosen; {BOTH}",
        at=turn_pointer(trace, "t1"),
    )
    at, run = resumed[-1]
    prompt = resume_prompt(run, nudge(ctx))
    ctx.expect(
        prompt is not None and names_call(prompt.note, "send_email", dict(ANA)),
        f"in the continued run's prompt "
        f"{unnamed(prompt, f'the completed send_email {show(dict(ANA))}')}; {BOTH}",
        at=f"{at}/model_inputs/0/messages",
        reading="right-after-the-nudge",
        # where the note is and what it names are DR-2's (DR-5 ¶1's note, likewise)
        through=(
            CONTINUES_ON_ITS_OWN,
            CONTINUE_ACCEPTED,
            NOTE_AFTER_THE_NUDGE,
            NOTE_NAMES_COMPLETED,
        ),
    )
    again = ran(trace, "r1")
    ctx.expect(
        not again,
        f"the completed send_email {show(dict(ANA))}, re-dispatched as r1 after Continue, ran "
        f"again (at {listing(again)}); {BOTH}",
        at=again[0] if again else None,
    )


CHOSEN: dict[str, tuple[str, int]] = {
    "five-in-a-row": ("stopped", 5),
    "each-after-work": ("work", 4),
    "restart-before-each": ("restart", 4),
}


@check("DR-6#c2", variants=CHOSEN)
def check_continue_any_number_of_times(ctx: CheckContext, variant: tuple[str, int]) -> None:
    """Continue has no limit: a turn stopped again and again is continued each time."""
    shape, times = variant
    steps: list[Step]
    if shape == "work":
        sent = [send({"to": f"n{i}@example.com"}, f"c{i}") for i in range(times + 1)]
        model = [calls(one) for one in sent] + [say("done")]
        steps = [cut("after_tool_done", "error", "send_email", 1) for _ in range(times + 1)]
    else:
        model = [say("done")]
        steps = [cut("during_model_call", "error") for _ in range(times + 1)]
    steps.append(StartTurn("t1"))
    for _ in range(times):
        steps += [Restart(), Continue("t1")] if shape == "restart" else [Continue("t1")]
    trace = one_turn(ctx, "dr6-c2-unlimited", tools=tools(), model=model, steps=steps)
    chosen = [(i, s) for i, s in enumerate(trace.steps) if s.op == "continue"]
    clause = "DR-6 ¶2: Continue can be chosen any number of times"
    for number, (index, step) in enumerate(chosen, start=1):
        ctx.expect(
            step.outcome == "ok",
            f"Continue number {number} was {step.outcome} ({show(step.error)}); {clause}",
            at=f"/steps/{index}/outcome",
        )
    resumed = located_continuations(trace, "t1", ("continue",))
    ctx.expect(
        len(resumed) == times,
        f"{times} Continues resumed turn t1 {len(resumed)} times (runs of cause continue); "
        f"{clause}",
        at=turn_pointer(trace, "t1"),
    )
    final = turn(trace, "t1")
    ctx.expect(
        stopped_with_continue(ctx.handshake, final),
        f"stopped again after {times} Continues, the turn is {describe(ctx.handshake, final)}, "
        f"not waiting with Continue available; {clause}",
        at=turn_pointer(trace, "t1"),
        reading="stopped-with-continue",
    )


@dataclass(frozen=True)
class Stops:
    """Turns stopped one after another (``turns``: label and conversation), with
    ``between`` steps after the last; the last of each conversation is its newest stop."""

    turns: tuple[tuple[str, str], ...]
    between: tuple[Step, ...] = ()


NEWEST: dict[str, Stops] = {
    "two-stops": Stops((("t1", "main"), ("t2", "main")), (Continue("t1"),)),
    "three-stops": Stops((("t1", "main"), ("t2", "main"), ("t3", "main"))),
    "two-conversations": Stops((("t1", "main"), ("t2", "other"))),
    "after-a-restart": Stops((("t1", "main"), ("t2", "main")), (Restart(),)),
}


@check("DR-6#c3", variants=NEWEST)
def check_offered_only_for_newest_stop(ctx: CheckContext, variant: Stops) -> None:
    """Of a conversation's stopped turns, only the newest offers Continue."""
    steps: list[Step] = []
    for label, conversation in variant.turns:
        steps += [cut("during_model_call", "error"), StartTurn(label, conversation=conversation)]
    steps += variant.between
    trace = one_turn(ctx, "dr6-c3-newest", tools=tools(), model=[say("done")], steps=steps)
    judged = len(variant.turns) * 2 - 1 + sum(1 for s in variant.between if isinstance(s, Restart))
    newest = {conversation: label for label, conversation in variant.turns}
    clause = "DR-6 ¶3: Continue is offered only for the conversation's newest stop"
    for label, conversation in variant.turns:
        wire = turn(trace, label, step=judged, conversation=conversation)
        at = turn_pointer(trace, label, step=judged, conversation=conversation)
        if newest[conversation] == label:
            ctx.expect(
                stopped_with_continue(ctx.handshake, wire),
                f"turn {label}, the newest stop of conversation {conversation}, is "
                f"{describe(ctx.handshake, wire)}: it does not offer Continue; {clause}",
                at=at,
                reading="stopped-with-continue",
            )
        else:
            ctx.expect(
                wire is not None and wire.continueOffered is not True,
                f"turn {label}, an older stop of conversation {conversation}, still offers "
                f"Continue ({describe(ctx.handshake, wire)}); {clause}",
                at=f"{at}/continueOffered",
                reading="continue-on-an-older-stop",
            )


NEW_MESSAGE = "Next, please file the report (a new message)"


@dataclass(frozen=True)
class Unfinished:
    """A turn left unfinished by ``stopping`` after it sent ``args`` (its first call
    ``calls``), then a new message; ``told`` are the calls the new turn's agent must be
    told of (tool, input)."""

    stopping: tuple[Step, ...]
    told: tuple[tuple[str, Mapping[str, object]], ...]
    batch: tuple[dict[str, object], ...] = (send(ANA, "c1"),)
    between: tuple[Step, ...] = ()


ZOE = {"to": "zoë@example.com", "subject": "Grüße ✓"}

UNFINISHED: dict[str, Unfinished] = {
    "after-an-error": Unfinished(
        (cut("after_tool_done", "error", "send_email"),), (("send_email", ANA),)
    ),
    "interrupted-call": Unfinished(
        (cut("after_tool_body", "error", "create_ticket"),),
        (("send_email", ANA), ("create_ticket", TICKET)),
        (send(ANA, "c1"), ticket(TICKET, "c2")),
    ),
    "while-resuming": Unfinished(
        (cut("after_tool_done", on="send_email"),), (("send_email", ANA),)
    ),
    "after-a-restart": Unfinished(
        (cut("after_tool_done", "error", "send_email"),),
        (("send_email", ANA),),
        between=(Restart(),),
    ),
    "non-ascii-input": Unfinished(
        (cut("after_tool_done", "error", "send_email"),), (("send_email", ZOE),), (send(ZOE, "c1"),)
    ),
}


def _told(messages: Sequence[object], nudge_text: str) -> tuple[str, int] | None:
    """What the agent is told before the new message: the text of the messages before it
    (neither the assistant's nor tool results, nor a resume prompt) and the part of the new
    message before its own text; with the new message's index."""
    index = next(
        (i for i in range(len(messages) - 1, -1, -1) if NEW_MESSAGE in text_of(messages[i])),
        None,
    )
    if index is None:
        return None
    told = [
        text_of(m)
        for m in messages[:index]
        if mapping(m).get("role") not in ("assistant", "tool") and nudge_text not in text_of(m)
    ]
    opening = text_of(messages[index])
    told.append(opening[: opening.rfind(NEW_MESSAGE)])
    return "\n".join(told), index


@check("DR-6#c4", variants=UNFINISHED)
def check_new_message_told_what_unfinished_did(ctx: CheckContext, variant: Unfinished) -> None:
    """A new message starts a new turn whose agent is first told what the unfinished turn
    already did."""
    trace = one_turn(
        ctx,
        "dr6-c4-told",
        tools=tools(),
        model=[calls(*variant.batch), say("done")],
        steps=[
            *variant.stopping,
            StartTurn("t1"),
            *variant.between,
            StartTurn("t2", message=NEW_MESSAGE),
        ],
    )
    clause = (
        "DR-6 ¶4: a new message starts a new turn whose agent is first told what the "
        "unfinished turn already did"
    )
    runs = [(at, run) for at, run in located_runs(trace) if run.turn == "t2"]
    ctx.need(
        bool(runs) and bool(runs[0][1].model_inputs),
        f"the new message started no run of a new turn that called the model; {clause}",
        at=turn_pointer(trace, "t2") if trace.steps else None,
    )
    at, run = runs[0]
    where = f"{at}/model_inputs/0/messages"
    found = _told(run.model_inputs[0].messages, nudge(ctx))
    ctx.need(
        found is not None,
        f"the new turn's first model input holds no message with the new message's text "
        f"{show(NEW_MESSAGE)}; {clause}",
        at=where,
    )
    assert found is not None
    text, index = found
    for tool, args in variant.told:
        ctx.expect(
            names_call(text, tool, args),
            f"before the new message (at {where}/{index}) the agent is told "
            f"{show(text.strip(), 200)}, which does not name the unfinished turn's {tool} "
            f"{show(dict(args))}; {clause}",
            at=f"{where}/{index}",
            reading="first-told",
        )


REPEATS: dict[str, tuple[tuple[Step, ...], int]] = {
    "completed-write": ((cut("after_tool_done", "error", "send_email"),), 1),
    "turn-superseded-while-resuming": ((cut("after_tool_done", on="send_email"),), 1),
    "two-repeats": ((cut("after_tool_done", "error", "send_email"),), 2),
}


@check("DR-6#c5", variants=REPEATS)
def check_new_turn_not_blocked(ctx: CheckContext, variant: tuple[tuple[Step, ...], int]) -> None:
    """Neither the note nor the hard-block prevents a repeat in the new turn: its
    identical writes all run."""
    stopping, repeats = variant
    again = [send(ANA, f"n{i}") for i in range(1, repeats + 1)]
    trace = one_turn(
        ctx,
        "dr6-c5-not-blocked",
        tools=tools(),
        model=[calls(send(ANA, "c1")), calls(*again), say("done")],
        steps=[*stopping, StartTurn("t1"), StartTurn("t2")],
    )
    for sent in again:
        call_id = str(sent.get("tool_call_id"))
        said, at = runs_of(trace, call_id)
        ctx.expect(
            len(ran(trace, call_id)) == 1,
            f"in the new turn t2, send_email {show(dict(ANA))} (call {call_id}), identical to "
            f"the unfinished turn's completed call, {said}; expected it to run once; DR-6 ¶5: "
            "neither the journal note nor the hard-block prevents a repeat in the new turn",
            at=at or turn_pointer(trace, "t2"),
        )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_continue_applies_both_layers,
    check_continue_any_number_of_times,
    check_offered_only_for_newest_stop,
    check_offered_for_the_newest_stop_either_way,
    check_new_message_told_what_unfinished_did,
    check_new_turn_not_blocked,
    check_later_turn_told_what_the_latest_unfinished_did,
    check_later_turn_told_what_the_newest_unfinished_did,
)
