"""DR-6: Continue resumes the stopped turn; a new message starts afresh."""

from __future__ import annotations

from adapters.scenario import Continue, Interrupt, Reply, StartTurn, Step
from adapters.trace import Trace
from conformance.checks import CheckContext, check
from conformance.checks._common import mapping, one_turn
from conformance.checks._durable import ANA, continuations, send, tools
from conformance.checks._states import describe, stopped_with_continue
from conformance.scenarios import calls, say
from conformance.traces import results, side_effects, turn


def _stopped_after_send(
    ctx: CheckContext, name: str, then: list[Step], model_after: list[Reply]
) -> Trace:
    """Send an email, then stop the turn with an error; then ``then``."""
    return one_turn(
        ctx,
        name,
        tools=tools(),
        model=[calls(send(ANA, "c1")), *model_after],
        steps=[Interrupt("after_tool_done", "error", "send_email"), StartTurn("t1"), *then],
    )


@check("DR-6#c1")
def check_continue_applies_both_layers(ctx: CheckContext) -> None:
    """Continue resumes the stopped run's own turn with the note and the hard-block."""
    trace = _stopped_after_send(
        ctx, "dr6-c1-continue", [Continue("t1")], [calls(send(ANA, "r1")), say("done")]
    )
    resumed = continuations(trace, "t1", "continue")
    ctx.need(bool(resumed), "Continue did not resume the stopped turn")
    note = resumed[0].resume.note if resumed[0].resume else None
    ctx.need(
        note is not None and any(mapping(e).get("tool") == "send_email" for e in note.completed),
        "the Continue run was not given the journal note",
    )
    ctx.need(
        len(side_effects(trace, "send_email")) == 1,
        "after Continue the completed send was repeated",
    )
    reused = results(trace, "r1")
    ctx.need(
        bool(reused) and mapping(reused[0].result).get("success") is True,
        "the re-dispatched send did not get its journaled result",
    )


@check("DR-6#c2")
def check_continue_any_number_of_times(ctx: CheckContext) -> None:
    """Continue has no limit: five stops in a row are each continued."""
    times = 5
    steps: list[Step] = [Interrupt("during_model_call", "error") for _ in range(times + 1)]
    steps.append(StartTurn("t1"))
    steps += [Continue("t1") for _ in range(times)]
    trace = one_turn(ctx, "dr6-c2-unlimited", tools=tools(), model=[say("done")], steps=steps)
    accepted = [s for s in trace.steps if s.op == "continue" and s.outcome == "ok"]
    ctx.need(len(accepted) == times, f"{len(accepted)} of {times} Continues were accepted")
    ctx.need(
        len(continuations(trace, "t1", "continue")) == times, "not every Continue resumed the turn"
    )


@check("DR-6#c3")
def check_offered_only_for_newest_stop(ctx: CheckContext) -> None:
    """With two stopped turns, only the newer offers Continue, and only it can be continued."""
    trace = one_turn(
        ctx,
        "dr6-c3-newest",
        tools=tools(),
        model=[say("done")],
        steps=[
            Interrupt("during_model_call", "error"),
            StartTurn("t1"),
            Interrupt("during_model_call", "error"),
            StartTurn("t2"),
            Continue("t1"),
            Continue("t2"),
        ],
    )
    older, newer = turn(trace, "t1", step=3), turn(trace, "t2", step=3)
    ctx.need(
        stopped_with_continue(ctx.handshake, newer),
        f"the newest stop does not wait with Continue offered: {describe(ctx.handshake, newer)}",
    )
    ctx.need(older is not None and not older.continueOffered, "an older stop still offers Continue")
    ctx.need(trace.steps[4].outcome == "refused", "Continue on the older stop was accepted")
    ctx.need(trace.steps[5].outcome == "ok", "Continue on the newest stop was refused")


@check("DR-6#c4")
def check_new_message_told_what_unfinished_did(ctx: CheckContext) -> None:
    """A new message starts a new turn whose agent is first told what the unfinished turn
    already did."""
    trace = _stopped_after_send(
        ctx, "dr6-c4-told", [StartTurn("t2", message="Next")], [say("done")]
    )
    runs = [run for run in trace.runs() if run.turn == "t2"]
    ctx.need(bool(runs) and bool(runs[0].model_inputs), "the new turn's model was not called")
    messages = [mapping(m) for m in runs[0].model_inputs[0].messages]
    last_user = max(
        (
            i
            for i, m in enumerate(messages)
            if m.get("role") == "user" and m.get("content") == "Next"
        ),
        default=-1,
    )
    ctx.need(last_user >= 0, "the new message is not in the new turn's model input")
    told = [
        m
        for m in messages[:last_user]
        if "send_email" in str(m.get("content")) and m.get("role") in ("system", "user")
    ]
    ctx.need(
        bool(told),
        "before the new message, the agent is not told that the unfinished "
        "turn already sent the email",
    )


@check("DR-6#c5")
def check_new_turn_not_blocked(ctx: CheckContext) -> None:
    """Neither the note nor the hard-block prevents a repeat in the new turn."""
    trace = _stopped_after_send(
        ctx, "dr6-c5-not-blocked", [StartTurn("t2")], [calls(send(ANA, "n1")), say("done")]
    )
    ctx.need(
        len(side_effects(trace, "send_email")) == 2, "the new turn's identical send was blocked"
    )
    new_runs = [run for run in trace.runs() if run.turn == "t2"]
    ctx.need(all(run.resume is None for run in new_runs), "the new turn was prompted as a resume")
