"""RT-TOOL-5's examples as vectors: an artifact arriving for a run that never opened
collection, and what the run keeps."""

from __future__ import annotations

from adapters.scenario import Answer, EmitLateArtifact, StartTurn
from conformance.toolkit import (
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    artifact,
    ask,
    collects,
    delivered,
    listing,
    locate,
    mapping,
    one_turn,
    say,
    show,
    tool,
    turn,
    turn_pointer,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of RT-TOOL-5's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-5", "produced"): "input",
    ("RT-TOOL-5", "dropped"): "outcome",
}


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
        if any(mapping(e).get("payload") == payload for e in array(held))
    ]
    expected = run.value("dropped")
    ctx.expect(
        kept == expected and bool(expected or not where),
        f"the run's collection kept {show(kept)} (the artifact was seen at "
        f"{listing(where) or 'nowhere'}), the example says {show(expected)}",
        at=turn_pointer(trace, "t1") + "/messages",
        reading="late-arrivals",
        expected=expected,
        got=kept,
    )


BINDINGS = (Binding("RT-TOOL-5", ("produced", "dropped"), ("RT-TOOL-5#c2",), dropped),)
