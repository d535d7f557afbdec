"""RT-TOOL-7's examples as vectors: an artifact held against a paused turn, then delivered
exactly once."""

from __future__ import annotations

from adapters.scenario import Answer, Return, StartTurn
from conformance.toolkit import (
    DELIVERY,
    GUARD_HOLDS,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    artifact,
    ask,
    call,
    calls,
    collects,
    delivered,
    mapping,
    misplaced,
    one_turn,
    say,
    show,
    tool,
    turn,
    turn_pointer,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of RT-TOOL-7's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-7", "held"): "whole",
}


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
            array(paused.held.get("t1")) == [value],
            f"held against the paused turn: {show(paused.held.get('t1'))}, the example says "
            f"{show(value)}; RT-TOOL-7 ¶1",
            at="/steps/0/held/t1",
            clause="RT-TOOL-7#c1",
        )
    early = turn(trace, "t1", step=0)
    ctx.expect(
        early is not None and not delivered(early),
        f"while the turn is paused its wire shows {show(delivered(early))}; the held artifact "
        "stays off the wire; RT-TOOL-7 ¶1",
        at=turn_pointer(trace, "t1", step=0) + "/messages",
        clause="RT-TOOL-7#c1",
    )
    for index in (1, 2):
        wire = turn(trace, "t1", step=index)
        ctx.expect(
            delivered(wire) == [value],
            f"after step {index} ({trace.steps[index].op}) the turn carries "
            f"{show(delivered(wire))}, the example's artifact exactly once is expected"
            f"{misplaced(wire, [value])}; RT-TOOL-7 ¶3",
            at=turn_pointer(trace, "t1", step=index) + "/messages",
            reading="unrequired-refusals" if index == 2 else None,
            clause="RT-TOOL-7#c3",
        )


BINDINGS = (
    Binding(
        "RT-TOOL-7",
        ("held",),
        ("RT-TOOL-7#c1", "RT-TOOL-7#c3"),
        held,
        through=(*DELIVERY, GUARD_HOLDS),
    ),
)
