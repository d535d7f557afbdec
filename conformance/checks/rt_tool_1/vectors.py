"""RT-TOOL-1's examples as vectors: each example is a tool result, and the tool is made to
produce exactly it."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.scenario import Return
from conformance.toolkit import (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    DATA_AS_PRODUCED,
    RESERVED_KEY_REMOVED,
    RESULTS_SHAPED,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    call,
    calls,
    citation,
    located_results,
    mapping,
    one_turn,
    same_json,
    say,
    show,
    tool,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of RT-TOOL-1's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-1", "plain"): "whole",
    ("RT-TOOL-1", "attached"): "whole",
}


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
    got = mapping(record.result)
    # Each part of the example is one clause's word: the keys present (¶2: `artifacts`
    # only when attached), the three values (¶1), and, beside artifacts, `data` (¶3).
    shape, values = (
        ("RT-TOOL-1#c2", "RT-TOOL-1#c1")
        if verdict == "plain"
        else (
            "RT-TOOL-1#c2",
            "RT-TOOL-1#c3",
        )
    )
    ctx.expect(
        isinstance(record.result, Mapping) and sorted(got) == sorted(expected),
        f"the tool result is {show(record.result)}, with keys {show(sorted(got))}; the "
        f"example's keys are {show(sorted(expected))} (key order aside); "
        f"{citation(shape)}",
        at=f"{at}/result",
        clause=shape,
        expected=sorted(expected),
        got=sorted(got),
    )
    for key, want in expected.items():
        clause = shape if key == "artifacts" else values
        if key in got:
            ctx.expect(
                same_json(got[key], want),
                f"the tool result's {key} is {show(got[key])}, the example says {show(want)}; "
                f"{citation(clause)}",
                at=f"{at}/result/{key}",
                clause=clause,
                expected=want,
                got=got[key],
            )


C2, C3 = "RT-TOOL-1#c2", "RT-TOOL-1#c3"

BINDINGS = (
    # The keys of a result that is not `{success, data, error}` are ¶1's, not ¶2's.
    Binding(
        "RT-TOOL-1", ("plain",), ("RT-TOOL-1#c1", C2), _result_vector, through=(RESULTS_SHAPED,)
    ),
    # `artifacts` missing where nothing is ever attached is RT-TOOL-2 ¶3's; `data` that is
    # a rendering of the tool's value (¶1) or keeps the reserved key (RT-TOOL-2 ¶4) folds
    # no artifact into it (¶3).
    Binding(
        "RT-TOOL-1",
        ("attached",),
        (C2, C3),
        _result_vector,
        through=(
            RESULTS_SHAPED,
            ARTIFACTS_LISTED,
            ARTIFACTS_ATTACHED,
            DATA_AS_PRODUCED.judging(C3),
            RESERVED_KEY_REMOVED.judging(C3),
        ),
    ),
)
