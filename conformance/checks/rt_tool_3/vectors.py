"""RT-TOOL-3's examples as vectors: a tool result, and what the `tool_artifacts` port
surfaces while the prose stays data alone."""

from __future__ import annotations

from adapters.scenario import Return
from conformance.toolkit import (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    RESERVED_KEY_REMOVED,
    RESULTS_SHAPED,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    call,
    calls,
    in_model_inputs,
    listing,
    located_passes,
    mapping,
    one_turn,
    port,
    same_json,
    say,
    show,
    string_values,
    strings,
    tool,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of RT-TOOL-3's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-3", "produced"): "input",
    ("RT-TOOL-3", "surfaced"): "outcome",
}


def _call_id(entries: object, default: str) -> str:
    ids = {mapping(e).get("tool_call_id") for e in array(entries)} - {None}
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
        clause="RT-TOOL-3#c1",
        expected=expected,
        got=port(first, "tool_artifacts"),
    )
    # The payloads' values are what must not leak (a key or a type word such as "link"
    # may well appear in a prompt for reasons of its own).
    payload_values = [
        text
        for entry in array(produced.get("artifacts"))
        for text in string_values(mapping(entry).get("payload"))
        if text not in strings(produced.get("data"))
    ]
    for text in payload_values:
        leaked = in_model_inputs(trace, text)
        ctx.expect(
            not leaked,
            f"the artifact's {show(text)} reached what the model was given, at "
            f"{listing(leaked)}; RT-TOOL-3 ¶3: the prose is built from data alone",
            at=leaked[0] if leaked else None,
            clause="RT-TOOL-3#c3",
        )
    for text in string_values(produced.get("data")):
        ctx.expect(
            bool(in_model_inputs(trace, text)),
            f"the model was never given the data's {show(text)}; RT-TOOL-3 ¶3: the prose "
            "is built from data",
            at=f"{at}/tool_messages",
            clause="RT-TOOL-3#c3",
        )


# The prose is judged through results shaped with a `data` (RT-TOOL-1 ¶1) and the reserved
# key's removal (RT-TOOL-2 ¶4); the port through the artifacts attached to the results it
# surfaces, as a list (RT-TOOL-2 ¶3, RT-TOOL-1 ¶2).
BINDINGS = (
    Binding(
        "RT-TOOL-3",
        ("produced", "surfaced"),
        ("RT-TOOL-3#c1", "RT-TOOL-3#c3"),
        _surfaced,
        through=(
            ARTIFACTS_ATTACHED.judging("RT-TOOL-3#c1"),
            ARTIFACTS_LISTED.judging("RT-TOOL-3#c1"),
            RESULTS_SHAPED.judging("RT-TOOL-3#c3"),
            RESERVED_KEY_REMOVED.judging("RT-TOOL-3#c3"),
        ),
    ),
)
