"""DR-4: an interrupted write is not blindly retried."""

from __future__ import annotations

from adapters.scenario import Interrupt, StartTurn, Wait
from conformance.checks import CheckContext, check
from conformance.checks._common import mapping, one_turn
from conformance.checks._durable import ANA, continuations, send, tools
from conformance.scenarios import call, calls, say
from conformance.traces import results, side_effects, strings


@check("DR-4#c1")
def check_landed_but_unrecorded_is_interrupted(ctx: CheckContext) -> None:
    """A call whose side effect landed but whose result was never recorded is interrupted,
    not completed: it is not answered from the journal."""
    trace = one_turn(
        ctx,
        "dr4-c1-unrecorded",
        tools=tools(),
        model=[calls(send(ANA, "c1")), calls(send(ANA, "r1")), say("done")],
        steps=[Interrupt("after_tool_body", "time_limit", "send_email"), StartTurn("t1"), Wait()],
    )
    resumed = [run for run in continuations(trace) if run.resume is not None]
    ctx.need(bool(resumed), "the turn did not resume after its time limit")
    note = resumed[0].resume.note if resumed[0].resume else None
    if note is not None:
        ctx.need(
            not any(mapping(e).get("tool") == "send_email" for e in note.completed),
            "a call cut after its side effect is named as completed",
        )
        ctx.need(
            any(mapping(e).get("tool") == "send_email" for e in note.interrupted),
            "a call cut after its side effect is not named as interrupted",
        )
    again = results(trace, "r1")
    ctx.need(bool(again), "the retried call got no result")
    ctx.need(
        again[0].disposition != "reused",
        "the retry was answered from the journal as if the first attempt had completed",
    )


@check("DR-4#c2")
def check_guard_only_when_history_shows(ctx: CheckContext) -> None:
    """An identical retry of an interrupted write is refused in the resumed run whose
    history shows the interruption, and not in a new turn."""
    trace = one_turn(
        ctx,
        "dr4-c2-guarded",
        tools=tools(),
        model=[calls(send(ANA, "c1")), calls(send(ANA, "r1")), say("done")],
        steps=[Interrupt("after_tool_body", "time_limit", "send_email"), StartTurn("t1"), Wait()],
    )
    resumed = continuations(trace)
    ctx.need(
        bool(resumed) and bool(resumed[0].model_inputs),
        "the turn did not resume after its time limit",
    )
    shown = list(strings(list(resumed[0].model_inputs[0].messages)))
    ctx.need(
        any("send_email" in text for text in shown),
        "the resumed run's history does not show the interrupted call",
    )
    ctx.need(
        len(side_effects(trace, "send_email")) == 1,
        "the identical retry of the interrupted send ran again",
    )
    refused = results(trace, "r1")
    ctx.need(
        bool(refused) and mapping(refused[0].result).get("success") is False,
        "the refused retry did not get a recoverable failure",
    )
    fresh = one_turn(
        ctx,
        "dr4-c2-new-turn",
        tools=tools(),
        model=[calls(send(ANA, "c1")), calls(send(ANA, "n1")), say("done")],
        steps=[
            Interrupt("after_tool_body", "error", "send_email"),
            StartTurn("t1"),
            StartTurn("t2"),
        ],
    )
    ctx.need(
        len(side_effects(fresh, "send_email")) == 2,
        "in a new turn, whose run is not a resumed one, the identical send was refused",
    )


@check("DR-4#c2", name="guard-holds-across-chunks")
def check_guard_holds_across_chunks(ctx: CheckContext) -> None:
    """An interrupted write stays interrupted when a later chunk, itself cut off, ran
    other tools: the identical retry in the chunk after that is still refused."""
    trace = one_turn(
        ctx,
        "dr4-c2-two-cuts",
        tools=tools(),
        model=[
            calls(send(ANA, "c1")),
            calls(call("lookup", {"id": 7}, "c2")),
            calls(send(ANA, "r1")),
            say("done"),
        ],
        steps=[
            Interrupt("after_tool_body", "time_limit", "send_email"),
            Interrupt("after_tool_done", "time_limit", "lookup"),
            StartTurn("t1"),
            Wait(),
        ],
    )
    resumed = continuations(trace)
    ctx.need(len(resumed) >= 2, "the turn did not continue twice after its time limits")
    shown = (
        list(strings(list(resumed[-1].model_inputs[0].messages)))
        if resumed[-1].model_inputs
        else []
    )
    ctx.need(
        any("send_email" in text for text in shown),
        "the last resumed run's history does not show the interrupted send",
    )
    ctx.need(
        len(side_effects(trace, "send_email")) == 1,
        "two chunks later, the identical retry of the interrupted send ran again",
    )
