"""Vector bindings for RT-TOOL-2's lifted example and the examples of RT-TOOL-5, 6, 7 and
10: how each example's value is driven, and where it is observed."""

from __future__ import annotations

from adapters.scenario import Answer, Bounds, EmitLateArtifact, Return, StartTurn
from conformance.checks import CheckContext
from conformance.checks._bounds import collects
from conformance.checks._common import listing, mapping, misplaced, one_turn, port, show
from conformance.checks.rt_tool_6 import blob
from conformance.scenarios import artifact, ask, call, calls, say, tool
from conformance.traces import (
    delivered,
    locate,
    located_passes,
    located_results,
    turn,
    turn_pointer,
)
from conformance.vectors._binding import VectorRun

__all__ = ["dropped", "held", "kept", "lifted", "work"]


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def lifted(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-2: the node output's reserved key -> the tool result's artifacts.

    The example drops the entry with an empty type; RT-TOOL-2 ¶3's text keeps it (a string
    `type`, a map `payload`) and RT-TOOL-6 ¶5 refuses it where the run collects it.  The
    tool result may hold it or not (docs/interpretations.md, empty-type)."""
    mixed, expected = _list(run.value("mixed")), _list(run.value("lifted"))
    trace = one_turn(
        ctx,
        "vector-mixed-lifted",
        tools=[tool("example", Return(output={"artifacts": mixed}))],
        model=[calls(call("example", {}, "c1")), say("done")],
    )
    found = located_results(trace, "c1")
    ctx.need(bool(found), "no tool result was reported for call c1", at="/steps/0/runs")
    at, result = found[0]
    body = mapping(result.result)
    ctx.expect(
        body.get("success") is True,
        f"the call's result is {show(body)}; RT-TOOL-2 ¶3 drops malformed entries without "
        "failing the call",
        at=f"{at}/result",
    )
    empty_typed = [
        e
        for e in mixed
        if mapping(e).get("type") == "" and isinstance(mapping(e).get("payload"), dict)
    ]
    attached = _list(body.get("artifacts"))
    ctx.expect(
        [e for e in attached if e not in empty_typed] == expected,
        f"the tool result's artifacts are {show(body.get('artifacts'))}, the example says "
        f"{show(expected)} (an entry with an empty type may also stay, for RT-TOOL-6 ¶5 to "
        "refuse where the run collects it)",
        at=f"{at}/result/artifacts",
        reading="empty-type",
    )


def dropped(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-5: an artifact for a run that never opened collection -> what it holds."""
    collects(ctx)
    produced = mapping(run.value("produced"))
    entry = artifact(str(produced.get("type")), produced.get("payload"))
    trace = one_turn(
        ctx,
        "vector-produced-dropped",
        tools=[tool("noop", schema={})],
        model=[ask("Go on?"), say("done")],
        steps=[
            StartTurn("t1"),
            EmitLateArtifact("t1", "unopened", entry, str(produced.get("tool_call_id"))),
            Answer("t1"),
        ],
    )
    payload = produced.get("payload")
    kept = [e for e in delivered(turn(trace, "t1")) if mapping(e).get("payload") == payload]
    # Where the artifact showed at any time: on a turn's wire, or held against a turn.
    where = [
        turn_pointer(trace, label, step=index) + found
        for index, step in enumerate(trace.steps)
        for label, wire in step.wire.get("main", {}).items()
        for found in locate(wire, payload)
    ] + [
        f"/steps/{index}/held/{label}"
        for index, step in enumerate(trace.steps)
        for label, held in (step.held or {}).items()
        if any(mapping(e).get("payload") == payload for e in _list(held))
    ]
    expected = run.value("dropped")
    ctx.expect(
        kept == expected and bool(expected or not where),
        f"the run's collection kept {show(kept)} (the artifact was seen at "
        f"{listing(where) or 'nowhere'}), the example says {show(expected)}",
        at=turn_pointer(trace, "t1") + "/messages",
        reading="late-arrivals",
    )


def kept(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-6: the artifact after a drop at the aggregate budget is still kept (sizes
    hold in every encoding: docs/interpretations.md, payload-size)."""
    collects(ctx)
    value = mapping(run.value("kept"))
    entries = [
        artifact("fill", blob(800, "fill")),
        artifact("crossing", blob(400, "cross")),
        artifact(str(value.get("type")), value.get("payload")),
    ]
    trace = one_turn(
        ctx,
        "vector-kept",
        bounds=Bounds(run_bytes=1_000, payload_bytes=1_000),
        tools=[tool("example", Return(output={"ok": True, "artifacts": entries}))],
        model=[calls(call("example", {}, str(value.get("tool_call_id")))), say("done")],
    )
    wire = turn(trace, "t1")
    on_wire = delivered(wire)
    at = turn_pointer(trace, "t1") + "/messages"
    ctx.expect(
        on_wire[-1:] == [dict(value)],
        f"the retained list ends with {show(on_wire[-1:])}, the example says "
        f"{show(dict(value))}{misplaced(wire, [dict(value)])}",
        at=at,
        reading="payload-size",
    )
    ctx.expect(
        len(on_wire) == 2,
        f"the retained list is {show(on_wire, 300)}, {len(on_wire)} long; expected the fill and "
        "the example's artifact: the one dropped leaves no placeholder",
        at=at,
        reading="payload-size",
    )


def held(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-7: held against the paused turn, then delivered exactly once (an answer sent
    again after that may be refused or ignored: docs/interpretations.md,
    unrequired-refusals)."""
    collects(ctx)
    value = dict(mapping(run.value("held")))
    entry = artifact(str(value.get("type")), value.get("payload"))
    trace = one_turn(
        ctx,
        "vector-held",
        tools=[tool("example", Return(output={"ok": True, "artifacts": [entry]}))],
        model=[
            calls(call("example", {}, str(value.get("tool_call_id")))),
            ask("Which format?"),
            say("done"),
        ],
        steps=[StartTurn("t1"), Answer("t1"), Answer("t1")],
    )
    paused = trace.steps[0]
    if paused.held is not None:
        ctx.expect(
            _list(paused.held.get("t1")) == [value],
            f"held against the paused turn: {show(paused.held.get('t1'))}, the example says "
            f"{show(value)}",
            at="/steps/0/held/t1",
        )
    early = turn(trace, "t1", step=0)
    ctx.expect(
        early is not None and not delivered(early),
        f"while the turn is paused its wire shows {show(delivered(early))}; the held artifact "
        "stays off the wire",
        at=turn_pointer(trace, "t1", step=0) + "/messages",
    )
    for index in (1, 2):
        wire = turn(trace, "t1", step=index)
        ctx.expect(
            delivered(wire) == [value],
            f"after step {index} ({trace.steps[index].op}) the turn carries "
            f"{show(delivered(wire))}, the example's artifact exactly once is expected"
            f"{misplaced(wire, [value])}",
            at=turn_pointer(trace, "t1", step=index) + "/messages",
            reading="unrequired-refusals" if index == 2 else None,
        )


def work(ctx: CheckContext, run: VectorRun, sent: str, outcome: str, port_name: str) -> None:
    """RT-TOOL-10: the calls the outcome does not name as new ran in an earlier pass; the
    second pass reports ``port_name``."""
    batch = _list(mapping(run.value(sent)).get("tool_calls"))
    expected = run.value(outcome)
    fresh = {str(x) for x in _list(expected)}
    earlier = [c for c in batch if str(mapping(c).get("tool_call_id")) not in fresh]
    names = {str(mapping(c).get("name")) for c in batch}
    trace = one_turn(
        ctx,
        f"vector-{sent}-{outcome}",
        tools=[tool(name, schema={}) for name in sorted(names)],
        model=[calls(*earlier), calls(*batch), say("done")],
    )
    passes = located_passes(trace)
    ctx.need(
        len(passes) == 2, f"two batches were sent, {len(passes)} tool passes reported", at="/steps"
    )
    at, _, second = passes[1]
    ctx.expect(
        port(second, port_name) == expected,
        f"the second pass reports {port_name} {show(port(second, port_name))}, the example says "
        f"{show(expected)}",
        at=f"{at}/ports/{port_name}",
    )
