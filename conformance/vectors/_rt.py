"""Vector bindings for the RT-TOOL rules (how each example's value is driven and observed)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from adapters.scenario import Approve, Return, StartTurn, Tool
from adapters.trace import PassRecord, Trace
from conformance.checks import CheckContext
from conformance.checks._argument_cases import Reconcile
from conformance.checks._common import (
    listing,
    mapping,
    misplaced,
    one_turn,
    port,
    show,
)
from conformance.checks._results import (
    assistant_indexes,
    in_model_inputs,
    same_json,
    shown_key,
    wire_at,
)
from conformance.checks.rt_tool_8 import judge_arguments
from conformance.scenarios import artifact, call, calls, say, tool
from conformance.traces import (
    all_passes,
    assistant_rows,  # noqa: F401
    located_passes,
    located_results,
    strings,
)
from conformance.vectors._binding import Binding, VectorRun
from conformance.vectors._bounds import dropped, held, kept, lifted, work

__all__ = ["RT_BINDINGS"]


def _result_vector(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-1: the example is a tool result; the tool is made to produce exactly it."""
    verdict = run.verdicts[0]
    expected = mapping(run.value(verdict))
    data = expected.get("data")
    attached = expected.get("artifacts")
    if expected.get("success") is False:
        returns = Return(fail=str(expected.get("error")))
    elif isinstance(attached, list):
        returns = Return(output={**mapping(data), "artifacts": attached})
    else:
        returns = Return(output=data)
    trace = one_turn(
        ctx,
        f"vector-{verdict}",
        tools=[tool("example", returns)],
        model=[calls(call("example", {}, "c1")), say("done")],
    )
    found = located_results(trace, "c1")
    ctx.need(bool(found), "no tool result was reported for call c1; RT-TOOL-1 ¶1", at="/steps")
    at, record = found[0]
    ctx.expect(
        same_json(record.result, dict(expected)),
        f"the tool result is {show(record.result)}, the example says {show(dict(expected))} "
        "(key order aside); RT-TOOL-1",
        at=f"{at}/result",
    )


def _values(value: object) -> list[str]:
    """The string values (not the keys) inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _values(item)]
    if isinstance(value, list):
        return [text for item in value for text in _values(item)]
    return []


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _call_id(entries: object, default: str) -> str:
    ids = {mapping(e).get("tool_call_id") for e in _list(entries)} - {None}
    return str(next(iter(ids))) if len(ids) == 1 else default


def _surfaced(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-3: a tool result -> the port, and the prose stays data alone."""
    produced = mapping(run.value("produced"))
    expected = run.value("surfaced")
    call_id = _call_id(expected, "c1")
    output = {**mapping(produced.get("data")), "artifacts": produced.get("artifacts")}
    trace = one_turn(
        ctx,
        "vector-produced-surfaced",
        tools=[tool("example", Return(output))],
        model=[calls(call("example", {}, call_id)), say("done")],
    )
    passes = located_passes(trace)
    ctx.need(bool(passes), "no tool pass was reported; RT-TOOL-3 ¶1", at="/steps")
    at, _, first = passes[0]
    ctx.expect(
        same_json(port(first, "tool_artifacts"), expected),
        f"tool_artifacts carries {show(port(first, 'tool_artifacts'))}, the example says "
        f"{show(expected)}; RT-TOOL-3 ¶1",
        at=f"{at}/ports/tool_artifacts",
    )
    # The payloads' values are what must not leak (a key or a type word such as "link"
    # may well appear in a prompt for reasons of its own).
    payload_values = [
        text
        for entry in _list(produced.get("artifacts"))
        for text in _values(mapping(entry).get("payload"))
        if text not in strings(produced.get("data"))
    ]
    for text in payload_values:
        leaked = in_model_inputs(trace, text)
        ctx.expect(
            not leaked,
            f"the artifact's {show(text)} reached what the model was given, at "
            f"{listing(leaked)}; RT-TOOL-3 ¶3: the prose is built from data alone",
            at=leaked[0] if leaked else None,
        )
    for text in _values(produced.get("data")):
        ctx.expect(
            bool(in_model_inputs(trace, text)),
            f"the model was never given the data's {show(text)}; RT-TOOL-3 ¶3: the prose "
            "is built from data",
            at=f"{at}/tool_messages",
        )


def _reported(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-4: an artifact of a call -> the assistant message as the wire reports it."""
    produced = mapping(run.value("produced"))
    entry = artifact(str(produced.get("type")), produced.get("payload"))
    trace = one_turn(
        ctx,
        "vector-produced-reported",
        tools=[tool("example", Return(output={"ok": True, "artifacts": [entry]}))],
        model=[calls(call("example", {}, str(produced.get("tool_call_id")))), say("done")],
    )
    base, wire = wire_at(trace)
    rows = assistant_indexes(wire)
    ctx.need(bool(rows), "the turn has no assistant message; RT-TOOL-4 ¶1", at=base)
    assert wire is not None
    at = f"{base}/messages/{rows[-1]}"
    last = mapping(wire.messages[rows[-1]])
    expected = mapping(run.value("reported"))
    for key, want in expected.items():
        shown = last.get(key)
        if key == "metadata":
            # The example's empty metadata stands for "nothing of the artifacts in it": a
            # message may carry metadata of its own.  Containment, not equality: a payload
            # value kept as part of a longer string (a JSON text in metadata, say) leaks
            # just the same.
            ctx.expect(
                isinstance(shown, dict),
                f"the last assistant message's metadata is {shown_key(last, key)}, where the "
                "example shows a map; RT-TOOL-4 ¶3",
                at=f"{at}/metadata",
            )
            found = strings(shown)
            leaked = [t for t in _values(produced.get("payload")) if any(t in s for s in found)]
            ctx.expect(
                not leaked,
                f"the last assistant message's metadata {show(shown)} holds the artifact's "
                f"{show(leaked[:3])}; RT-TOOL-4 ¶3: artifacts are not message metadata",
                at=f"{at}/metadata",
            )
            continue
        ctx.expect(
            same_json(shown, want),
            f"the last assistant message shows {key} {shown_key(last, key)}, the example says "
            f"{show(want)}; RT-TOOL-4 ¶1, ¶3"
            + (misplaced(wire, _list(want)) if key == "toolArtifacts" else ""),
            at=f"{at}/{key}",
        )


def _declared(schema_types: Mapping[str, str]) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {name: {"type": kind} for name, kind in schema_types.items()},
    }


def _kind(value: object) -> str:
    return "array" if isinstance(value, list) else "object" if isinstance(value, dict) else "string"


def _decoded(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-8: sent arguments -> what reaches the tool (the schema declares each
    parameter with the shape of its decoded value)."""
    sent, expected = mapping(run.value("sent")), mapping(run.value("decoded"))
    schema = _declared({key: _kind(value) for key, value in expected.items()})
    judge_arguments(
        ctx,
        "vector-sent-decoded",
        Reconcile(schema, dict(sent), dict(expected)),
        "RT-TOOL-8 ¶4: the example's decoded arguments",
    )


def _untouched(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-8 without an outcome block: the rule text decides.  For every declared type
    under which a string argument fails a decoding condition, it passes through."""
    sent = mapping(run.value("sent"))
    for key, value in sent.items():
        if not isinstance(value, str) or "&" in value:
            continue
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        failing = ["string", "array", "object"]
        if isinstance(parsed, list):
            failing.remove("array")
        if isinstance(parsed, dict):
            failing.remove("object")
        for kind in failing:
            judge_arguments(
                ctx,
                f"vector-sent-{kind}",
                Reconcile(_declared({key: kind}), {key: value}, {key: value}),
                f"RT-TOOL-8 ¶3: declared {kind}, the argument fails a decoding condition and "
                "passes through unmodified",
            )


def _batch(value: object) -> list[object]:
    return _list(mapping(value).get("tool_calls"))


def _tools_for(batch: list[object], gated: set[str]) -> list[Tool]:
    names = {str(mapping(c).get("name")): str(mapping(c).get("tool_call_id")) for c in batch}
    return [tool(name, schema={}, gate=call_id in gated) for name, call_id in names.items()]


def _repeat_pass(
    ctx: CheckContext, first: list[object], second: list[object], name: str
) -> tuple[PassRecord, Trace]:
    """``first`` then ``second`` as two passes of one run; the second pass and the trace."""
    trace = one_turn(
        ctx,
        name,
        tools=_tools_for(second, set()),
        model=[calls(*first), calls(*second), say("done")],
    )
    passes = [one for _, one in all_passes(trace)]
    ctx.need(len(passes) == 2, f"expected two passes, got {len(passes)}")
    return passes[1], trace


def _recorded(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-9: a declared call sent a second time -> the repeat pass's `skipped`."""
    batch = _batch(run.value("skipped"))
    second, trace = _repeat_pass(ctx, batch, batch, "vector-skipped-recorded")
    ctx.need(
        port(second, "skipped") == run.value("recorded"),
        f"skipped is {show(port(second, 'skipped'))}, "
        f"the example says {show(run.value('recorded'))}",
    )
    ran = sum(len(r.side_effects) for r in trace.runs())
    ctx.need(ran == len(batch), f"the tool ran {ran} times across both runs")


def _resumed(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-9: a batch re-issued after its gated call was approved -> `executed`."""
    batch = _batch(run.value("resumed"))
    gated = {str(x) for x in _list(run.value("mixed"))}
    trace = one_turn(
        ctx,
        "vector-resumed-mixed",
        tools=_tools_for(batch, gated),
        model=[calls(*batch), say("done")],
        steps=[StartTurn("t1"), Approve("t1")],
    )
    resumed = [one for r, one in all_passes(trace) if r.cause == "approve"]
    ctx.need(bool(resumed), "no pass after the approval")
    ctx.need(
        port(resumed[0], "executed") == run.value("mixed"),
        f"executed is {show(port(resumed[0], 'executed'))}, "
        f"the example says {show(run.value('mixed'))}",
    )


RT_BINDINGS = (
    Binding("RT-TOOL-1", ("plain",), ("RT-TOOL-1#c1", "RT-TOOL-1#c2"), _result_vector),
    Binding("RT-TOOL-1", ("attached",), ("RT-TOOL-1#c2", "RT-TOOL-1#c3"), _result_vector),
    Binding("RT-TOOL-2", ("mixed", "lifted"), ("RT-TOOL-2#c3",), lifted),
    Binding("RT-TOOL-3", ("produced", "surfaced"), ("RT-TOOL-3#c1", "RT-TOOL-3#c3"), _surfaced),
    Binding("RT-TOOL-4", ("produced", "reported"), ("RT-TOOL-4#c1", "RT-TOOL-4#c3"), _reported),
    Binding("RT-TOOL-5", ("produced", "dropped"), ("RT-TOOL-5#c2",), dropped),
    Binding("RT-TOOL-6", ("kept",), ("RT-TOOL-6#c4",), kept),
    Binding("RT-TOOL-7", ("held",), ("RT-TOOL-7#c1", "RT-TOOL-7#c3"), held),
    Binding("RT-TOOL-8", ("sent", "decoded"), ("RT-TOOL-8#c4",), _decoded),
    Binding("RT-TOOL-8", ("sent",), ("RT-TOOL-8#c3",), _untouched),
    Binding("RT-TOOL-9", ("skipped", "recorded"), ("RT-TOOL-9#c1", "RT-TOOL-9#c2"), _recorded),
    Binding("RT-TOOL-9", ("resumed", "mixed"), ("RT-TOOL-9#c4",), _resumed),
    Binding(
        "RT-TOOL-10",
        ("resent", "idle"),
        ("RT-TOOL-10#c2",),
        lambda ctx, run: work(ctx, run, "resent", "idle", "executed_any"),
    ),
    Binding(
        "RT-TOOL-10",
        ("sent", "active"),
        ("RT-TOOL-10#c1",),
        lambda ctx, run: work(ctx, run, "sent", "active", "executed"),
    ),
)
