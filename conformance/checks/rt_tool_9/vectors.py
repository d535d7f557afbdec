"""RT-TOOL-9's examples as vectors: a declared call sent a second time, and a batch
re-issued after its gated call was approved."""

from __future__ import annotations

from adapters.scenario import Approve, StartTurn, Tool
from adapters.trace import PassRecord, Trace
from conformance.checks.rt_tool_9._channels import EXECUTED_LISTS_NEW_CALLS
from conformance.toolkit import (
    GUARD_HOLDS,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    calls,
    mapping,
    one_turn,
    port,
    say,
    show,
    tool,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of RT-TOOL-9's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-9", "skipped"): "input",
    ("RT-TOOL-9", "recorded"): "outcome",
    ("RT-TOOL-9", "resumed"): "input",
    ("RT-TOOL-9", "mixed"): "outcome",
}


def _batch(value: object) -> list[object]:
    return array(mapping(value).get("tool_calls"))


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
    passes = [one for _, one in trace.passes()]
    ctx.need(len(passes) == 2, f"expected two passes, got {len(passes)}")
    return passes[1], trace


def _recorded(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-9: a declared call sent a second time -> the repeat pass's `skipped`."""
    batch = _batch(run.value("skipped"))
    second, trace = _repeat_pass(ctx, batch, batch, "vector-skipped-recorded")
    ran = sum(len(r.side_effects) for r in trace.runs())
    once = ctx.expect(
        ran == len(batch),
        f"the tool ran {ran} times across both runs; RT-TOOL-9 ¶1",
        clause="RT-TOOL-9#c1",
    )
    # The repeat is reported only where the guard skipped it (¶1 holds).
    if ctx.prerequisite(
        "RT-TOOL-9#c1", once, "the repeat was invoked again", judging="RT-TOOL-9#c2"
    ):
        ctx.expect(
            port(second, "skipped") == run.value("recorded"),
            f"skipped is {show(port(second, 'skipped'))}, "
            f"the example says {show(run.value('recorded'))}; RT-TOOL-9 ¶2",
            clause="RT-TOOL-9#c2",
        )


def _resumed(ctx: CheckContext, run: VectorRun) -> None:
    """RT-TOOL-9: a batch re-issued after its gated call was approved -> `executed`."""
    batch = _batch(run.value("resumed"))
    gated = {str(x) for x in array(run.value("mixed"))}
    trace = one_turn(
        ctx,
        "vector-resumed-mixed",
        tools=_tools_for(batch, gated),
        model=[calls(*batch), say("done")],
        steps=[StartTurn("t1"), Approve("t1")],
    )
    mixed = run.value("mixed")
    # ¶4 speaks of what runs once approved; the `executed` output that reports it is
    # RT-TOOL-10 ¶1's port, judged here only where the implementation reports it.
    ran = [
        mapping(effect).get("tool_call_id")
        for r in trace.runs()
        if r.cause == "approve"
        for effect in r.side_effects
    ]
    ctx.expect(
        sorted(map(str, ran)) == sorted(map(str, array(mixed))),
        f"the run the approval set off ran {show(ran)}, the example says {show(mixed)}",
    )
    resumed = [one for r, one in trace.passes() if r.cause == "approve"]
    ctx.need(bool(resumed), "no pass after the approval")
    executed = port(resumed[0], "executed")
    ctx.expect(
        executed is None or executed == mixed,
        f"executed is {show(executed)}, the example says {show(mixed)}",
    )


BINDINGS = (
    Binding("RT-TOOL-9", ("skipped", "recorded"), ("RT-TOOL-9#c1", "RT-TOOL-9#c2"), _recorded),
    # The call that returned before the pause is skipped only where the guard holds; the
    # executed output the example names is RT-TOOL-10 ¶1's port.
    Binding(
        "RT-TOOL-9",
        ("resumed", "mixed"),
        ("RT-TOOL-9#c4",),
        _resumed,
        (GUARD_HOLDS, EXECUTED_LISTS_NEW_CALLS),
    ),
)
