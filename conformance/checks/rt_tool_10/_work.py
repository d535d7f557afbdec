"""What the checks of RT-TOOL-10 share: the tools, a turn of passes, and how one pass is
held to what it must report.  The rule's overview (:mod:`conformance.checks.rt_tool_10`)
lists what the checks vary."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adapters.scenario import Answer, Reply, StartTurn, Step
from adapters.trace import PassRecord, Trace
from conformance.toolkit import (
    CheckContext,
    ask,
    call,
    calls,
    failure,
    located_passes,
    mapping,
    one_turn,
    output,
    port,
    ports,
    say,
    show,
    tool,
)

__all__ = [
    "CALL_A",
    "CALL_B",
    "GATED",
    "TOOLS",
    "Batch",
    "Judged",
    "batch_ids",
    "failed_in",
    "judge",
    "play",
]

Batch = tuple[object, ...]
TOOLS = [
    tool("do_thing", output({"result": "did"}), schema={}),
    tool("other_thing", output({"result": "other"}), schema={}),
    tool("failing_thing", failure("no such record"), schema={}),
    tool(
        "strict_thing",
        schema={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    ),
    tool("write_thing", output({"result": "written"}), schema={}),
]
#: Only the scenario that declines a call has it: a gated tool needs the `gates` capability.
#: Two well-formed calls the checks send, first or again.
CALL_A, CALL_B = call("do_thing", [], "call_a"), call("other_thing", [], "call_b")
GATED = tool("gated_thing", output({"result": "sent"}), schema={}, gate=True)


@dataclass(frozen=True)
class Judged:
    """What one pass must report: the ids on ``executed`` and ``skipped`` (as sets), and
    ``executed_any``."""

    executed: frozenset[str] = frozenset()
    skipped: frozenset[str] = frozenset()
    work: bool = False


def play(
    ctx: CheckContext,
    name: str,
    batches: Sequence[Batch],
    *,
    pause_after: int | None = None,
    every_pass: bool = True,
) -> tuple[Trace, list[tuple[str, PassRecord]]]:
    """The batches as passes of one turn (a question, answered, after batch
    ``pause_after``); every pass with its pointer (one per batch, unless ``every_pass``
    is false)."""
    model: list[Reply] = []
    steps: list[Step] = [StartTurn("t1")]
    for index, batch in enumerate(batches):
        model.append(calls(*batch))
        if index == pause_after:
            model.append(ask())
            steps.append(Answer("t1"))
    trace = one_turn(ctx, name, tools=TOOLS, model=[*model, say("done")], steps=steps)
    found = [(at, one) for at, _, one in located_passes(trace)]
    ctx.need(
        len(found) == len(batches) or not every_pass,
        f"{len(batches)} batches were sent, {len(found)} tool passes reported",
        at="/steps",
    )
    return trace, found


def judge(ctx: CheckContext, at: str, one: PassRecord, want: Judged, clause: str) -> None:
    """Hold one pass to ``want``, each port on its own, naming what it reported.

    The ports are RT-TOOL-10 ¶1's: every check of another clause declares the channel
    :data:`~conformance.toolkit.WORK_PORTS`, so that a pass without them blocks its
    judgement instead of failing it."""
    reported = ports(one)
    any_ = reported.get("executed_any")
    if ctx.expect(
        isinstance(any_, bool),
        f"the pass reports executed_any {show(any_)}"
        + (f" (its ports: {show(sorted(reported))})" if any_ is None else "")
        + "; RT-TOOL-10 ¶1: a boolean (a missing port is not false)",
        at=f"{at}/ports/executed_any",
    ):
        ctx.expect(
            any_ is want.work,
            f"the pass reports executed_any {show(any_)}, expected {show(want.work)}; {clause}",
            at=f"{at}/ports/executed_any",
        )
    for name, expected in (("executed", want.executed), ("skipped", want.skipped)):
        value = port(one, name)
        listed = value if isinstance(value, list) else None
        ctx.expect(
            listed is not None
            and len(listed) == len(set(map(str, listed)))
            and set(listed) == set(expected),
            f"the pass reports {name} {show(value)}, expected {show(sorted(expected))} in any "
            f"order; {clause}",
            at=f"{at}/ports/{name}",
            reading="executed-order",
        )


def failed_in(trace: Trace) -> str | None:
    """The pointer of the pass the run failed in (cut, or its run's last, in a run that
    ended ``failed``), if one was: the runtime never finished handling that batch."""
    for at, run, one in located_passes(trace):
        if run.end == "failed" and (one.cut or one is run.passes[-1]):
            return at
    return None


def batch_ids(batch: Batch) -> frozenset[str]:
    return frozenset(str(mapping(c).get("tool_call_id")) for c in batch)
