"""RT-TOOL-1: a tool result carries artifacts alongside its data, never inside it."""

from __future__ import annotations

from adapters.scenario import Return
from conformance.checks import CheckContext, check
from conformance.checks._common import json_keys, mapping, one_result, one_turn, show
from conformance.scenarios import artifact, call, calls, canary, failure, output, say, tool
from conformance.traces import contains

BASE = ["success", "data", "error"]


@check("RT-TOOL-1#c1")
def check_result_is_success_data_error(ctx: CheckContext) -> None:
    """A successful and a failed call each give a `{success, data, error}` result."""
    trace = one_turn(
        ctx,
        "rt1-c1-shape",
        tools=[tool("ok_tool", output({"value": 1})), tool("bad_tool", failure("it broke"))],
        model=[calls(call("ok_tool", {}, "c1"), call("bad_tool", {}, "c2")), say("done")],
    )
    for call_id, success in (("c1", True), ("c2", False)):
        result = mapping(one_result(ctx, trace, call_id).result)
        ctx.need(
            sorted(json_keys(result)) == sorted(BASE),
            f"call {call_id}: result keys are {json_keys(result)}, expected exactly {BASE}",
        )
        ctx.need(
            result.get("success") is success,
            f"call {call_id}: success is {show(result.get('success'))}, expected {success}",
        )
    ctx.need(
        mapping(one_result(ctx, trace, "c1").result).get("data") == {"value": 1},
        "the successful result's data is not the tool's output",
    )


@check("RT-TOOL-1#c2")
def check_artifacts_key_only_when_attached(ctx: CheckContext) -> None:
    """`artifacts` appears only once at least one artifact was attached."""
    trace = one_turn(
        ctx,
        "rt1-c2-only-when-attached",
        tools=[
            tool("plain", output({"ok": True})),
            tool("empty_list", Return(output={"ok": True, "artifacts": []})),
            tool("nothing_valid", output({"ok": True}, "junk", {"type": 7})),
            tool("one", output({"ok": True}, artifact("link", {"u": "x"}))),
        ],
        model=[
            calls(
                call("plain", {}, "c1"),
                call("empty_list", {}, "c2"),
                call("nothing_valid", {}, "c3"),
                call("one", {}, "c4"),
            ),
            say("done"),
        ],
    )
    for call_id in ("c1", "c2", "c3"):
        keys = json_keys(one_result(ctx, trace, call_id).result)
        ctx.need(
            "artifacts" not in keys,
            f"call {call_id} attached no artifact, yet its result has keys {keys}",
        )
    attached = mapping(one_result(ctx, trace, "c4").result).get("artifacts")
    ctx.need(
        isinstance(attached, list) and len(attached) == 1,
        f"call c4 attached one artifact; its result's artifacts are {show(attached)}",
    )


@check("RT-TOOL-1#c3")
def check_artifacts_never_folded_into_data(ctx: CheckContext) -> None:
    """Attaching an artifact leaves `data` exactly as the tool produced it."""
    mark = canary("rt1-c3")
    trace = one_turn(
        ctx,
        "rt1-c3-disjoint",
        tools=[tool("make", output({"title": "Report"}, artifact("link", {"url": mark})))],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    result = mapping(one_result(ctx, trace, "c1").result)
    ctx.need(
        result.get("data") == {"title": "Report"},
        f"data is {show(result.get('data'))}: attaching an artifact changed it",
    )
    ctx.need(not contains(result.get("data"), mark), "an artifact was folded into data")
    ctx.need(
        contains(result.get("artifacts"), mark),
        "the artifact is not carried beside data under `artifacts`",
    )
