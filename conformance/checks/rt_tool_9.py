"""RT-TOOL-9: a tool call executes at most once per run."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.scenario import Approve, Reply, Return, StartTurn
from adapters.trace import Trace
from conformance.checks import CheckContext, check
from conformance.checks._common import mapping, one_turn, port, show
from conformance.scenarios import call, calls, failure, output, say, tool
from conformance.traces import all_passes, side_effects

ANY_ARGS: Mapping[str, object] = {}


def _repeat(ctx: CheckContext, name: str, *, returns: Return | None = None) -> Trace:
    """One declared call sent in two passes of the same run."""
    batch = calls(call("do_thing", [], "call_a"))
    body = tool("do_thing", returns or output({"result": "did it"}), schema=dict(ANY_ARGS))
    return one_turn(ctx, name, tools=[body], model=[batch, batch, say("done")])


@check("RT-TOOL-9#c1")
def check_recorded_call_not_invoked_again(ctx: CheckContext) -> None:
    """A call whose identifier was already executed in the run is not invoked again."""
    trace = _repeat(ctx, "rt9-c1-once")
    ran = len(side_effects(trace, "do_thing"))
    ctx.expect(ran == 1, f"the call ran {ran} times across two passes, expected once")


@check("RT-TOOL-9#c2")
def check_repeat_reported_and_re_emitted(ctx: CheckContext) -> None:
    """The repeat is reported on `skipped`, and its stored first result (message and success)
    is re-emitted and counted in the batch's outcome."""
    trace = _repeat(ctx, "rt9-c2-re-emitted")
    passes = [one for _, one in all_passes(trace)]
    ctx.expect(len(passes) >= 2, f"expected two tool passes, got {len(passes)}")
    first, second = passes[0], passes[1]
    ctx.expect(
        port(second, "skipped") == ["call_a"],
        f"the repeat pass's skipped output is {show(port(second, 'skipped'))}",
    )
    first_message = [m for m in first.tool_messages if mapping(m).get("tool_call_id") == "call_a"]
    again = [m for m in second.tool_messages if mapping(m).get("tool_call_id") == "call_a"]
    ctx.expect(len(first_message) == 1, "the first execution's tool message is missing")
    ctx.expect(len(again) == 1, "the repeat's stored tool message was not re-emitted")
    ctx.expect(
        mapping(again[0]).get("content") == mapping(first_message[0]).get("content"),
        "the re-emitted tool message differs from the first execution's",
    )
    repeated = [r for r in second.results if r.tool_call_id == "call_a"]
    ctx.expect(
        len(repeated) == 1 and mapping(repeated[0].result).get("success") is True,
        "the repeat's stored result (a success) was not re-emitted among the results",
    )
    ctx.expect(
        mapping(second.outcome).get("succeeded") == 1,
        f"the repeat pass's outcome {show(second.outcome)} does not count the stored success",
    )
    failed = _repeat(ctx, "rt9-c2-stored-failure", returns=failure("no such record"))
    failed_passes = [one for _, one in all_passes(failed)]
    ctx.expect(len(failed_passes) >= 2, f"expected two tool passes, got {len(failed_passes)}")
    repeat = failed_passes[1]
    ctx.expect(
        mapping(repeat.outcome).get("failed") == 1,
        f"a stored recoverable failure was not counted as one: {show(repeat.outcome)}",
    )


def _gate_batch() -> Reply:
    return calls(call("do_thing", [], "call_a"), call("gated_thing", [], "call_gate"))


def _gate_trace(ctx: CheckContext, name: str) -> Trace:
    tools = [
        tool("do_thing", output({"result": "did it"}), schema=dict(ANY_ARGS)),
        tool("gated_thing", output({"result": "sent"}), schema=dict(ANY_ARGS), gate=True),
    ]
    return one_turn(
        ctx,
        name,
        tools=tools,
        model=[_gate_batch(), say("done")],
        steps=[StartTurn("t1"), Approve("t1")],
    )


@check("RT-TOOL-9#c3")
def check_no_declared_call_left_unanswered(ctx: CheckContext) -> None:
    """After a batch paused midway is re-issued, every declared call is answered, the
    already-executed one by its re-emitted result: in the tool messages the re-issued pass
    sends downstream, and in what the model is given next."""
    trace = _gate_trace(ctx, "rt9-c3-answered")
    # The pass's own output first: a runtime may patch the model's input from its records,
    # but whatever else reads the node's tool messages would still miss a dropped repeat.
    again = [one for run, one in all_passes(trace) if run.cause == "approve"]
    ctx.expect(bool(again), "no pass was reported after the approval")
    emitted = {mapping(m).get("tool_call_id") for m in again[0].tool_messages}
    for call_id in ("call_a", "call_gate"):
        ctx.expect(
            call_id in emitted,
            f"the re-issued pass emitted no tool message for declared call {call_id}",
        )
    resumed = [run for run in trace.runs() if run.cause == "approve"]
    ctx.expect(
        bool(resumed) and bool(resumed[0].model_inputs),
        "after the approval the model was not called again",
    )
    given = resumed[0].model_inputs[0].messages
    answered = {mapping(m).get("tool_call_id") for m in given if mapping(m).get("role") == "tool"}
    for call_id in ("call_a", "call_gate"):
        ctx.expect(
            call_id in answered, f"the model was given no result for declared call {call_id}"
        )


@check("RT-TOOL-9#c4")
def check_recorded_only_once_returned(ctx: CheckContext) -> None:
    """A call that paused for approval was never recorded: once approved it runs, while the
    call that had already returned is skipped."""
    trace = _gate_trace(ctx, "rt9-c4-after-approval")
    # What really ran comes first: every implementation reports its side effects, while
    # the ports below are the node's own account of the same thing.
    ctx.expect(
        len(side_effects(trace, "gated_thing")) == 1, "the approved call did not run exactly once"
    )
    ctx.expect(
        len(side_effects(trace, "do_thing")) == 1,
        "the call that had returned before the pause ran again",
    )
    resumed = [one for run, one in all_passes(trace) if run.cause == "approve"]
    ctx.expect(bool(resumed), "no pass was reported after the approval")
    ctx.expect(
        port(resumed[0], "executed") == ["call_gate"],
        f"the resumed pass executed {show(port(resumed[0], 'executed'))}, expected ['call_gate']",
    )
    ctx.expect(
        port(resumed[0], "skipped") == ["call_a"],
        f"the resumed pass skipped {show(port(resumed[0], 'skipped'))}, expected ['call_a']",
    )


@check("RT-TOOL-9#c5")
def check_call_without_id_always_runs(ctx: CheckContext) -> None:
    """A call with no identifier cannot be guarded: it runs on every pass."""
    batch = calls({"name": "do_thing", "args": []})
    trace = one_turn(
        ctx,
        "rt9-c5-no-id",
        tools=[tool("do_thing", output({"result": "did it"}), schema=dict(ANY_ARGS))],
        model=[batch, batch, say("done")],
    )
    ran = len(side_effects(trace, "do_thing"))
    ctx.expect(ran == 2, f"a call without an identifier ran {ran} times in two passes")
