"""RT-TOOL-2's examples as vectors: a node output's reserved key, and the artifacts the tool
result carries."""

from __future__ import annotations

from adapters.scenario import Return
from conformance.toolkit import (
    ARTIFACTS_LISTED,
    RESULTS_SHAPED,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    call,
    calls,
    located_results,
    mapping,
    one_turn,
    say,
    show,
    tool,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of RT-TOOL-2's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-2", "mixed"): "input",
    ("RT-TOOL-2", "lifted"): "outcome",
}


def lifted(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-2: the node output's reserved key -> the tool result's artifacts.

    The example drops the entry with an empty type; RT-TOOL-2 ¶3's text keeps it (a string
    `type`, a map `payload`) and RT-TOOL-6 ¶5 refuses it where the run collects it.  The
    tool result may hold it or not (docs/interpretations.md, empty-type)."""
    mixed, expected = array(run.value("mixed")), array(run.value("lifted"))
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
    attached = array(body.get("artifacts"))
    ctx.expect(
        [e for e in attached if e not in empty_typed] == expected,
        f"the tool result's artifacts are {show(body.get('artifacts'))}, the example says "
        f"{show(expected)} (an entry with an empty type may also stay, for RT-TOOL-6 ¶5 to "
        "refuse where the run collects it)",
        at=f"{at}/result/artifacts",
        reading="empty-type",
        expected=expected,
        got=body.get("artifacts"),
    )


# "without failing the call" reads `success`: a result that has none is RT-TOOL-1 ¶1's.
BINDINGS = (
    Binding(
        "RT-TOOL-2",
        ("mixed", "lifted"),
        ("RT-TOOL-2#c3",),
        lifted,
        through=(RESULTS_SHAPED, ARTIFACTS_LISTED),
    ),
)
