"""RT-TOOL-4's examples as vectors: an artifact of a call, and the assistant message as
the wire reports it."""

from __future__ import annotations

from adapters.scenario import Return
from conformance.checks.rt_tool_4._messages import assistant_indexes
from conformance.toolkit import (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    TOOL_ARTIFACTS_FIELD,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    artifact,
    call,
    calls,
    citation,
    collects,
    mapping,
    misplaced,
    one_turn,
    same_json,
    say,
    show,
    shown_key,
    string_values,
    strings,
    tool,
    wire_at,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of RT-TOOL-4's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-4", "produced"): "input",
    ("RT-TOOL-4", "reported"): "outcome",
}


def _reported(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-4: an artifact of a call -> the assistant message as the wire reports it."""
    collects(ctx)  # as the clauses' checks: nothing collected is nothing delivered
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
            # The example's empty metadata stands for "nothing of the artifacts in it": ¶3
            # says they travel "as a top-level `toolArtifacts` field rather than as raw
            # message metadata", and no clause asks a message to carry metadata at all, so
            # a message may carry none, or metadata of its own.  Containment, not
            # equality: a payload value kept as part of a longer string (a JSON text in
            # metadata, say) leaks just the same.
            found = strings(shown)
            leaked = [
                t for t in string_values(produced.get("payload")) if any(t in s for s in found)
            ]
            ctx.expect(
                not leaked,
                f"the last assistant message's metadata {show(shown)} holds the artifact's "
                f"{show(leaked[:3])}; RT-TOOL-4 ¶3: artifacts are not message metadata",
                at=f"{at}/metadata",
                clause="RT-TOOL-4#c3",
            )
            continue
        # Where the artifacts are persisted is ¶1's word; the message's other fields, as
        # the example shows them, are the top-level shape ¶3 speaks of.
        clause = "RT-TOOL-4#c1" if key == "toolArtifacts" else "RT-TOOL-4#c3"
        ctx.expect(
            same_json(shown, want),
            f"the last assistant message shows {key} {shown_key(last, key)}, the example says "
            f"{show(want)}; {citation(clause)}"
            + (misplaced(wire, array(want)) if key == "toolArtifacts" else ""),
            at=f"{at}/{key}",
            clause=clause,
        )


# The message's toolArtifacts (¶1's word) missing where the message carries them in another
# field is ¶3's.
BINDINGS = (
    Binding(
        "RT-TOOL-4",
        ("produced", "reported"),
        ("RT-TOOL-4#c1", "RT-TOOL-4#c3"),
        _reported,
        through=(ARTIFACTS_ATTACHED, ARTIFACTS_LISTED, TOOL_ARTIFACTS_FIELD),
    ),
)
