"""DR-5: a turn cut off by its time limit continues on its own, at most three times."""

from __future__ import annotations

from adapters.scenario import Interrupt, Restart, StartTurn, Step, Stop, Wait
from adapters.trace import Trace
from conformance.checks import CheckContext, Untested, check
from conformance.checks._common import mapping, one_turn
from conformance.checks._durable import continuations, tools
from conformance.checks._states import describe, in_state, stopped_with_continue
from conformance.scenarios import call, calls, say
from conformance.traces import turn

STOPPING = ("error", "stop", "cancel", "credential", "rate_limit")


def _cuts(count: int) -> list[Step]:
    return [Interrupt("during_model_call", "time_limit") for _ in range(count)]


def _automatic(trace: Trace) -> int:
    return len(continuations(trace, "t1", "auto_continue"))


@check("DR-5#c1")
def check_continues_in_same_turn_with_thread(ctx: CheckContext) -> None:
    """Cut at its time limit, the turn continues on its own, in the same turn, and the
    resumed run is given the thread's tool calls and results plus the note."""
    trace = one_turn(
        ctx,
        "dr5-c1-continues",
        tools=tools(),
        model=[calls(call("lookup", {"id": 7}, "c1")), say("done")],
        steps=[Interrupt("after_tool_done", "time_limit", "lookup"), StartTurn("t1"), Wait()],
    )
    resumed = continuations(trace, "t1", "auto_continue")
    ctx.need(bool(resumed), "the turn did not continue on its own in the same turn")
    run = resumed[0]
    ctx.need(
        run.resume is not None and run.resume.note is not None,
        "the continuation was not given the journal note",
    )
    given = [mapping(m) for m in run.model_inputs[0].messages] if run.model_inputs else []
    ctx.need(
        any(
            "lookup" in str(m.get("tool_calls") or m.get("content"))
            for m in given
            if m.get("role") == "assistant"
        ),
        "the continuation was not given the thread's tool call",
    )
    ctx.need(
        any("order 7: shipped" in str(m.get("content")) for m in given if m.get("role") == "tool"),
        "the continuation was not given the thread's tool result",
    )
    final = turn(trace, "t1")
    ctx.need(
        in_state(ctx.handshake, final, "completed"),
        f"the continued turn did not complete: {describe(ctx.handshake, final)}",
    )


@check("DR-5#c2")
def check_reports_resuming_and_stop_works(ctx: CheckContext) -> None:
    """While it waits to continue, the turn reports that it is resuming; Stop still works."""
    trace = one_turn(
        ctx,
        "dr5-c2-resuming",
        tools=tools(),
        model=[say("done")],
        steps=[*_cuts(1), StartTurn("t1"), Stop("t1"), Wait()],
    )
    waiting = turn(trace, "t1", step=1)
    ctx.need(
        in_state(ctx.handshake, waiting, "resuming"),
        f"while waiting to continue the turn is not resuming: {describe(ctx.handshake, waiting)}",
    )
    ctx.need(trace.steps[2].outcome == "ok", f"Stop was {trace.steps[2].outcome}")
    stopped = turn(trace, "t1")
    ctx.need(
        stopped_with_continue(ctx.handshake, stopped),
        "after Stop the turn does not wait with Continue offered: "
        f"{describe(ctx.handshake, stopped)}",
    )
    ctx.need(_automatic(trace) == 0, "the stopped turn continued on its own anyway")


@check("DR-5#c3")
def check_at_most_three_automatic_continuations(ctx: CheckContext) -> None:
    """A turn cut at its time limit again and again continues on its own three times only."""
    trace = one_turn(
        ctx,
        "dr5-c3-three",
        tools=tools(),
        model=[say("done")],
        steps=[*_cuts(4), StartTurn("t1"), Wait()],
    )
    ctx.need(
        _automatic(trace) == 3,
        f"the turn continued automatically {_automatic(trace)} times, expected 3",
    )
    final = turn(trace, "t1")
    ctx.need(
        stopped_with_continue(ctx.handshake, final),
        "after the third continuation the turn does not wait with Continue offered: "
        f"{describe(ctx.handshake, final)}",
    )


@check("DR-5#c4", name="count-survives-reload")
def check_count_survives_reload(ctx: CheckContext) -> None:
    """The count is stored with the turn: a reload in the middle does not reset it."""
    trace = one_turn(
        ctx,
        "dr5-c4-reload",
        tools=tools(),
        model=[say("done")],
        steps=[*_cuts(4), StartTurn("t1"), Wait(rounds=1), Restart(), Wait()],
    )
    ctx.need(
        _automatic(trace) == 3,
        f"with a reload in between, the turn continued {_automatic(trace)} times, expected 3",
    )


@check("DR-5#c4", name="count-not-doubled-by-second-client")
def check_count_not_doubled(ctx: CheckContext) -> None:
    """Two clients waiting at once cannot double a continuation."""
    ctx.require("concurrent_clients")
    trace = one_turn(
        ctx,
        "dr5-c4-two-clients",
        tools=tools(),
        model=[say("done")],
        steps=[*_cuts(1), StartTurn("t1"), Wait(clients=2)],
    )
    ctx.need(
        _automatic(trace) == 1, f"one cut was continued {_automatic(trace)} times by two clients"
    )


@check("DR-5#c5")
def check_other_stops_wait_for_continue(ctx: CheckContext) -> None:
    """After an error, a stop, a cancellation, or a credential or rate-limit failure, the
    turn does not continue on its own: it waits with Continue offered."""
    causes = [c for c in STOPPING if c in ctx.handshake.capabilities.interrupt_causes]
    if not causes:
        raise Untested("needs an interruption cause other than a time limit")
    for cause in causes:
        trace = one_turn(
            ctx,
            f"dr5-c5-{cause}",
            tools=tools(),
            model=[say("done")],
            steps=[
                Interrupt("during_model_call", cause),  # type: ignore[arg-type]
                StartTurn("t1"),
                Wait(),
            ],
        )
        final = turn(trace, "t1")
        ctx.need(_automatic(trace) == 0, f"after a {cause} the turn continued on its own")
        ctx.need(
            stopped_with_continue(ctx.handshake, final),
            f"after a {cause} the turn does not wait with Continue offered: "
            f"{describe(ctx.handshake, final)}",
        )
