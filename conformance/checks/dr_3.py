"""DR-3: a resumed chunk does not repeat a completed write."""

from __future__ import annotations

from collections.abc import Sequence

from adapters.scenario import Interrupt, StartTurn, Wait
from adapters.trace import Trace
from conformance.checks import CheckContext, check
from conformance.checks._common import mapping, one_turn, show
from conformance.checks._durable import ANA, BO, CY, send, tools
from conformance.scenarios import call, calls, say
from conformance.traces import results, side_effects


def _resumed(
    ctx: CheckContext,
    name: str,
    before: Sequence[object],
    after: Sequence[object],
    *,
    cut_tool: str = "send_email",
    occurrence: int | None = None,
    separately: bool = False,
) -> Trace:
    """Run ``before`` as one batch, cut the run by its time limit after the last call of
    ``cut_tool`` returned, then let it continue with ``after`` as the resumed batch (with
    ``separately``, one batch per call, so each is its own pass)."""
    count = occurrence or sum(1 for c in before if mapping(c).get("name") == cut_tool)
    resumed = [calls(one) for one in after] if separately else [calls(*after)]
    return one_turn(
        ctx,
        name,
        tools=tools(),
        model=[calls(*before), *resumed, say("done")],
        steps=[
            Interrupt("after_tool_done", "time_limit", cut_tool, count),
            StartTurn("t1"),
            Wait(),
        ],
    )


def _sent_to(trace: Trace) -> list[object]:
    return [mapping(e.get("input")).get("to") for e in side_effects(trace, "send_email")]


@check("DR-3#c1")
def check_snapshot_taken_once_before_chunk(ctx: CheckContext) -> None:
    """The snapshot covers prior chunks only: a write completed inside the resumed chunk
    does not block its own identical repeat there."""
    trace = _resumed(
        ctx,
        "dr3-c1-once",
        [call("lookup", {"id": 7}, "c1")],
        [send(ANA, "r1"), send(ANA, "r2")],
        cut_tool="lookup",
        separately=True,  # a journal read again before each pass would block the second
    )
    ctx.need(
        _sent_to(trace).count(ANA["to"]) == 2,
        f"two identical fresh sends in the resumed chunk ran {show(_sent_to(trace))}; a call "
        "completed in this chunk must not be in its snapshot",
    )


@check("DR-3#c2")
def check_completed_write_not_repeated(ctx: CheckContext) -> None:
    """A re-dispatched write matching a completed entry is not executed: its journaled result
    comes back, with a note."""
    trace = _resumed(ctx, "dr3-c2-blocked", [send(ANA, "c1")], [send(ANA, "r1")])
    ctx.need(
        _sent_to(trace) == [ANA["to"]],
        f"the email was sent {len(_sent_to(trace))} times: {show(_sent_to(trace))}",
    )
    found = results(trace, "r1")
    ctx.need(bool(found), "the re-dispatched call got no result")
    result = mapping(found[0].result)
    ctx.need(
        result.get("success") is True and "sent" in str(result.get("data")),
        f"the re-dispatched call did not get the journaled result: {show(result)}",
    )

    def message(call_id: str, cause: str) -> str | None:
        for run, one in trace.passes():
            for m in one.tool_messages:
                if run.cause == cause and mapping(m).get("tool_call_id") == call_id:
                    return str(mapping(m).get("content"))
        return None

    first, reused = message("c1", "start"), message("r1", "auto_continue")
    ctx.need(
        first is not None and reused is not None,
        "the tool messages of the first send and of its re-dispatch are missing",
    )
    assert first is not None and reused is not None
    ctx.need(
        reused != first and first in reused,
        f"the journaled result came back without a note: first {show(first)}, again {show(reused)}",
    )


@check("DR-3#c3")
def check_read_only_never_blocked(ctx: CheckContext) -> None:
    """A read-only tool re-dispatched with the same input runs again."""
    lookup = call("lookup", {"id": 7}, "c1")
    trace = _resumed(
        ctx, "dr3-c3-read-only", [lookup], [call("lookup", {"id": 7}, "r1")], cut_tool="lookup"
    )
    ran = len(side_effects(trace, "lookup"))
    ctx.need(ran == 2, f"the read-only lookup ran {ran} times; it must never be blocked")


@check("DR-3#c4")
def check_match_by_content_not_position(ctx: CheckContext) -> None:
    """Matching is by name and input: order does not matter, different arguments run."""
    trace = _resumed(
        ctx,
        "dr3-c4-content",
        [send(ANA, "c1"), send(BO, "c2")],
        [send(BO, "r1"), send(CY, "r2"), send(ANA, "r3")],
    )
    sent = _sent_to(trace)
    ctx.need(
        sorted(map(str, sent)) == sorted(map(str, [ANA["to"], BO["to"], CY["to"]])),
        f"emails went to {show(sent)}; expected Ana and Bo once each (first attempt) and "
        "Cy once (a fresh call)",
    )
    for call_id, expected in (("r1", "sent"), ("r3", "sent")):
        got = results(trace, call_id)
        ctx.need(
            bool(got)
            and mapping(got[0].result).get("success") is True
            and expected in str(mapping(got[0].result).get("data")),
            f"re-dispatched call {call_id} did not get its own journaled result",
        )


@check("DR-3#c5")
def check_entry_consumed_once(ctx: CheckContext) -> None:
    """One journaled completion short-circuits one re-dispatch only."""
    trace = _resumed(
        ctx,
        "dr3-c5-consume",
        [send(ANA, "c1")],
        [send(ANA, "r1"), send(ANA, "r2")],
        separately=True,
    )
    ctx.need(
        _sent_to(trace).count(ANA["to"]) == 2,
        f"the email was sent {_sent_to(trace).count(ANA['to'])} times; one completion "
        "must absorb exactly one repeat",
    )


@check("DR-3#c6")
def check_fresh_runs_untouched(ctx: CheckContext) -> None:
    """A run that was never interrupted, and a new turn, see an empty journal."""
    trace = one_turn(
        ctx,
        "dr3-c6-fresh",
        tools=tools(),
        model=[
            calls(send(ANA, "c1")),
            calls(send(ANA, "c2")),
            say("done"),
            calls(send(ANA, "c3")),
            say("done"),
        ],
        steps=[StartTurn("t1"), StartTurn("t2")],
    )
    ctx.need(
        _sent_to(trace).count(ANA["to"]) == 3,
        f"identical sends in runs that were never interrupted ran "
        f"{_sent_to(trace).count(ANA['to'])} times, expected 3",
    )
