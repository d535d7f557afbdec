"""RT-TOOL-2: a tool node emits artifacts on a reserved key that never reaches the model."""

from __future__ import annotations

from adapters.scenario import Approve, Decline, StartTurn
from conformance.checks import CheckContext, check
from conformance.checks._common import mapping, one_result, one_turn, show, whereabouts
from conformance.scenarios import artifact, call, calls, canary, failure, link, output, say, tool
from conformance.traces import contains, delivered, model_text, turn


@check("RT-TOOL-2#c1")
def check_reserved_key_is_accepted(ctx: CheckContext) -> None:
    """A node output carrying a list of `{type, payload}` maps is a normal successful output
    whose entries are attached."""
    trace = one_turn(
        ctx,
        "rt2-c1-reserved-key",
        tools=[
            tool(
                "make",
                output(
                    {"ok": True}, link("https://example.com/a"), artifact("citation", {"ref": "b"})
                ),
            )
        ],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    result = mapping(one_result(ctx, trace, "c1").result)
    ctx.need(
        result.get("success") is True,
        f"a call whose output carries `artifacts` did not succeed: {show(result)}",
    )
    ctx.need(
        result.get("artifacts")
        == [link("https://example.com/a"), artifact("citation", {"ref": "b"})],
        f"the reserved key's entries were not attached as given: {show(result.get('artifacts'))}",
    )


@check("RT-TOOL-2#c2")
def check_channel_survives_unexposed_port(ctx: CheckContext) -> None:
    """The reserved key survives whether or not the author exposed the tool's port."""
    for exposed in (False, True):
        mark = canary(f"rt2-c2-{'exposed' if exposed else 'hidden'}")
        trace = one_turn(
            ctx,
            f"rt2-c2-exposed-{str(exposed).lower()}",
            tools=[tool("make", output({"ok": True}, link(mark)), expose_artifacts_port=exposed)],
            model=[calls(call("make", {}, "c1")), say("done")],
        )
        result = mapping(one_result(ctx, trace, "c1").result)
        ctx.need(
            contains(result.get("artifacts"), mark),
            f"with the tool's port {'exposed' if exposed else 'not exposed'}, the "
            "artifact was not attached to the tool result",
        )
        wire = turn(trace, "t1")
        if not contains(delivered(wire), mark):
            ctx.fail(
                f"with the tool's port {'exposed' if exposed else 'not exposed'}, the artifact "
                f"was not delivered in any message's toolArtifacts; it {whereabouts(wire, mark)}"
            )


@check("RT-TOOL-2#c3")
def check_malformed_entries_dropped_alone(ctx: CheckContext) -> None:
    """Only entries with a string `type` and a map `payload` are kept; the others are
    dropped without failing the call."""
    good = [link("https://ok.example.com"), artifact("note", {})]
    entries = [
        "not-a-map",
        {"payload": {"a": 1}},
        {"type": 3, "payload": {}},
        {"type": "link", "payload": "not-a-map"},
        {"type": "link", "payload": [1]},
        {"type": "link"},
        good[0],
        good[1],
    ]
    # The empty type is left out on purpose: RT-TOOL-2's normative text keeps it, its
    # narrative drops it, and RT-TOOL-6 refuses it at collection (docs/rules.md).
    trace = one_turn(
        ctx,
        "rt2-c3-mixed",
        tools=[tool("make", output({"ok": True}, *entries))],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    result = mapping(one_result(ctx, trace, "c1").result)
    ctx.need(result.get("success") is True, "malformed entries failed the call")
    ctx.need(
        result.get("artifacts") == good,
        f"attached {show(result.get('artifacts'))}, expected only the well-formed {show(good)}",
    )


@check("RT-TOOL-2#c4")
def check_reserved_key_removed_from_data(ctx: CheckContext) -> None:
    """The reserved key never stays in `data`, even when nothing on it was valid, and never
    reaches the model."""
    mark = canary("rt2-c4")
    trace = one_turn(
        ctx,
        "rt2-c4-removed",
        tools=[
            tool("junk_only", output({"note": "kept"}, f"junk {mark}")),
            tool("valid", output({"note": "kept"}, link(mark))),
        ],
        model=[calls(call("junk_only", {}, "c1"), call("valid", {}, "c2")), say("done")],
    )
    for call_id in ("c1", "c2"):
        data = mapping(one_result(ctx, trace, call_id).result).get("data")
        ctx.need(
            data == {"note": "kept"},
            f"call {call_id}: data is {show(data)}; the reserved key must be removed",
        )
    ctx.need(
        not any(mark in text for text in model_text(trace)),
        "content of the reserved key reached the model",
    )


@check("RT-TOOL-2#c5", name="failed-call-carries-no-artifacts")
def check_failed_call_carries_none(ctx: CheckContext) -> None:
    """A call that failed carries no artifacts, even if its node emitted some."""
    mark = canary("rt2-c5-failed")
    trace = one_turn(
        ctx,
        "rt2-c5-failed",
        tools=[tool("flaky", failure("upstream refused", link(mark)))],
        model=[calls(call("flaky", {}, "c1")), say("done")],
    )
    result = mapping(one_result(ctx, trace, "c1").result)
    ctx.need(result.get("success") is False, "the failing tool's call did not fail")
    ctx.need("artifacts" not in result, f"a failed call carries artifacts: {show(result)}")
    ctx.need(
        not contains(delivered(turn(trace, "t1")), mark), "a failed call's artifact was delivered"
    )


@check("RT-TOOL-2#c5", name="declined-call-carries-no-artifacts")
def check_declined_call_carries_none(ctx: CheckContext) -> None:
    """A gated call the operator declined carries no artifacts (and an approved one does)."""
    for approve in (False, True):
        mark = canary(f"rt2-c5-{'approved' if approve else 'declined'}")
        step = Approve("t1") if approve else Decline("t1")
        trace = one_turn(
            ctx,
            f"rt2-c5-gate-{'approved' if approve else 'declined'}",
            tools=[tool("send", output({"sent": True}, link(mark)), gate=True)],
            model=[calls(call("send", {}, "c1")), say("done")],
            steps=[StartTurn("t1"), step],
        )
        result = mapping(one_result(ctx, trace, "c1").result)
        if approve:
            ctx.need(
                contains(result.get("artifacts"), mark),
                "an approved gated call lost its artifact (the check's control case)",
            )
            continue
        ctx.need(result.get("success") is False, "a declined call did not fail")
        ctx.need("artifacts" not in result, f"a declined call carries artifacts: {show(result)}")
        ctx.need(
            not contains(delivered(turn(trace, "t1")), mark),
            "a declined call's artifact was delivered",
        )
