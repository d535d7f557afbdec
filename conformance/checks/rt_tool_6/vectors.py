"""RT-TOOL-6's examples as vectors: an artifact kept after a drop at the aggregate budget."""

from __future__ import annotations

from adapters.scenario import Bounds, Return
from conformance.checks.rt_tool_6._kept import blob
from conformance.toolkit import (
    DELIVERY,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    artifact,
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

#: The stage each verdict of RT-TOOL-6's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-6", "kept"): "whole",
}


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


BINDINGS = (
    Binding(
        "RT-TOOL-6",
        ("kept",),
        ("RT-TOOL-6#c4",),
        kept,
        through=DELIVERY,
    ),
)
