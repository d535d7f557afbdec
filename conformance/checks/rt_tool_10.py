"""RT-TOOL-10: a tool-calling pass reports whether it did any work."""

from __future__ import annotations

from adapters.scenario import Reply
from adapters.trace import PassRecord
from conformance.checks import CheckContext, check
from conformance.checks._common import mapping, one_turn, port, ports, show
from conformance.scenarios import call, calls, output, say, tool
from conformance.traces import all_passes, results


def _executed_any(ctx: CheckContext, one: PassRecord) -> bool:
    """The pass's ``executed_any``; fails the check, saying so, when the port is missing or
    is not a boolean (a missing port must not read as "false")."""
    value = ports(one).get("executed_any")
    if value is None:
        ctx.fail(
            f"a pass reports no executed_any port (its ports: {show(sorted(ports(one)))}); "
            "a missing port is not false"
        )
    if not isinstance(value, bool):
        ctx.fail(f"a pass reports executed_any {show(value)}, not a boolean")
    return value


def _passes(ctx: CheckContext, name: str, *batches: Reply) -> list[PassRecord]:
    trace = one_turn(
        ctx,
        name,
        tools=[
            tool("do_thing", output({"result": "did"}), schema={}),
            tool("other_thing", output({"result": "other"}), schema={}),
        ],
        model=[*batches, say("done")],
    )
    found = [one for _, one in all_passes(trace)]
    ctx.need(
        len(found) == len(batches),
        f"{len(batches)} batches were sent, {len(found)} passes reported",
    )
    return found


@check("RT-TOOL-10#c1")
def check_executed_complements_skipped(ctx: CheckContext) -> None:
    """`executed_any` is a boolean and `executed` lists exactly the guarded calls not skipped."""
    first = calls(call("do_thing", [], "call_a"))
    mixed = calls(call("do_thing", [], "call_a"), call("other_thing", [], "call_b"))
    passes = _passes(ctx, "rt10-c1-complement", first, mixed)
    ctx.need(
        all(isinstance(port(one, "executed_any"), bool) for one in passes),
        "executed_any is not a boolean",
    )
    ctx.need(
        port(passes[1], "executed") == ["call_b"] and port(passes[1], "skipped") == ["call_a"],
        f"executed {show(port(passes[1], 'executed'))} and skipped "
        f"{show(port(passes[1], 'skipped'))} do not partition ['call_a', 'call_b']",
    )


@check("RT-TOOL-10#c2")
def check_unwired_tool_counts_as_work(ctx: CheckContext) -> None:
    """A call naming a tool that is not wired is handled for the first time: a recoverable
    result, and `executed_any` is true."""
    trace = one_turn(
        ctx,
        "rt10-c2-unwired",
        tools=[tool("do_thing", schema={})],
        model=[calls(call("no_such_tool", {}, "call_x")), say("done")],
    )
    passes = [one for _, one in all_passes(trace)]
    ctx.need(len(passes) == 1, "the pass was not reported")
    ctx.need(
        _executed_any(ctx, passes[0]) is True, "a call to an unwired tool left executed_any false"
    )
    ctx.need(
        port(passes[0], "executed") == ["call_x"],
        f"executed is {show(port(passes[0], 'executed'))}, expected ['call_x']",
    )
    found = results(trace, "call_x")
    ctx.need(
        bool(found) and mapping(found[0].result).get("success") is False,
        "the unwired call did not get a recoverable failure result",
    )


@check("RT-TOOL-10#c2", name="all-repeat-pass-is-idle")
def check_all_repeat_pass_is_idle(ctx: CheckContext) -> None:
    """A pass whose every call was already handled in the run reports `executed_any`
    false, although it still re-emits results: only first-time handling is work."""
    batch = calls(call("do_thing", [], "call_a"), call("other_thing", [], "call_b"))
    passes = _passes(ctx, "rt10-c2-all-repeat", batch, batch)
    ctx.need(_executed_any(ctx, passes[0]) is True, "the first pass reported no work")
    ctx.need(
        _executed_any(ctx, passes[1]) is False,
        "a pass of nothing but repeats reported executed_any "
        f"{show(_executed_any(ctx, passes[1]))}",
    )
    ctx.need(bool(passes[1].results), "the repeats' stored results were not re-emitted")


@check("RT-TOOL-10#c3")
def check_empty_batch_reports_false(ctx: CheckContext) -> None:
    """An empty batch reports `executed_any` false."""
    passes = _passes(ctx, "rt10-c3-empty", calls())
    ctx.need(
        _executed_any(ctx, passes[0]) is False,
        f"an empty batch reported executed_any {show(_executed_any(ctx, passes[0]))}",
    )


@check("RT-TOOL-10#c4")
def check_unguarded_and_malformed_calls(ctx: CheckContext) -> None:
    """A call with no identifier is in neither list but sets `executed_any`; a malformed
    call is dropped before the guard, in neither list, and leaves it false."""
    no_id = calls({"name": "do_thing", "args": []})
    malformed = calls(
        "not a call",
        42,
        {"name": ""},
        {"name": "  "},
        {"name": {"x": 1}},
        {"name": ["do_thing"]},
        {"args": {}},
    )
    passes = _passes(ctx, "rt10-c4-unguarded", no_id, malformed)
    ctx.need(
        _executed_any(ctx, passes[0]) is True,
        "a call without an identifier left executed_any false",
    )
    ctx.need(
        port(passes[0], "executed") == [] and port(passes[0], "skipped") == [],
        "a call without an identifier appears in executed or skipped",
    )
    ctx.need(_executed_any(ctx, passes[1]) is False, "a batch of malformed calls set executed_any")
    ctx.need(
        port(passes[1], "executed") == [] and port(passes[1], "skipped") == [],
        "a malformed call appears in executed or skipped",
    )
    ctx.need(not passes[1].results, f"malformed calls produced results: {show(passes[1].results)}")


@check("RT-TOOL-10#c5")
def check_default_exposure(ctx: CheckContext) -> None:
    """`executed_any` is exposed by default; `executed` is not."""
    passes = _passes(ctx, "rt10-c5-exposure", calls(call("do_thing", [], "c1")))
    exposed = mapping(passes[0].exposed)
    ctx.need(
        exposed.get("executed_any") is True,
        f"executed_any is not exposed by default ({show(exposed.get('executed_any'))})",
    )
    ctx.need(
        exposed.get("executed") is False,
        f"executed is exposed by default ({show(exposed.get('executed'))})",
    )
