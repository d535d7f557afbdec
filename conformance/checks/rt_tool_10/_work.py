"""What the checks of RT-TOOL-10 share: the tools, a turn of passes, and how one pass is
held to what it must report.  The rule's overview (:mod:`conformance.checks.rt_tool_10`)
lists what the checks vary."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Answer, Reply, Scenario, StartTurn, Step
from adapters.trace import PassRecord, Trace
from conformance.toolkit import (
    Channel,
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
    well_formed,
)

__all__ = [
    "CALL_A",
    "CALL_B",
    "GATED",
    "REPEATS_NO_WORK",
    "TOOLS",
    "Batch",
    "Judged",
    "batch_ids",
    "failed_in",
    "judge",
    "judge_work",
    "play",
    "repeats_reported_as_work",
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
    """Hold one pass to ¶1's words: ``executed_any`` a boolean, and ``executed`` and
    ``skipped`` the lists ``want`` names, each port on its own.  Whether ``executed_any``
    is true is ¶2's to ¶4's word (:func:`judge_work`), and which calls reach the lists at
    all ¶4's: a check of theirs judges it."""
    reported = ports(one)
    any_ = reported.get("executed_any")
    ctx.expect(
        isinstance(any_, bool),
        f"the pass reports executed_any {show(any_)}"
        + (f" (its ports: {show(sorted(reported))})" if any_ is None else "")
        + "; RT-TOOL-10 ¶1: a boolean (a missing port is not false)",
        at=f"{at}/ports/executed_any",
        # what the pass reports at all is its own report, whatever the guard did
        through=(),
    )
    for name, expected in (("executed", want.executed), ("skipped", want.skipped)):
        value = port(one, name)
        if not ctx.expect(
            isinstance(value, list),
            f"the pass reports {name} {show(value)}, not a list; {clause}",
            at=f"{at}/ports/{name}",
            through=(),
        ):
            continue
        listed = value if isinstance(value, list) else []
        # which calls are on the lists goes through the guard (what is a repeat)
        ctx.expect(
            len(listed) == len(set(map(str, listed))) and set(listed) == set(expected),
            f"the pass reports {name} {show(value)}, expected {show(sorted(expected))} in any "
            f"order; {clause}",
            at=f"{at}/ports/{name}",
            reading="executed-order",
        )


def judge_work(ctx: CheckContext, at: str, one: PassRecord, work: bool, clause: str) -> None:
    """Hold one pass's ``executed_any`` to ``work``.  The port is ¶1's: every check that
    calls this declares :data:`~conformance.toolkit.WORK_PORTS`, so that a pass without
    a boolean there blocks its judgement instead of failing it."""
    any_ = ports(one).get("executed_any")
    ctx.expect(
        any_ is work,
        f"the pass reports executed_any {show(any_)}, expected {show(work)}; {clause}",
        at=f"{at}/ports/executed_any",
    )


def _only_repeats(one: PassRecord) -> bool:
    """A batch of nothing but repeats: every call well formed, and every result skipped."""
    return (
        bool(one.results)
        and len(well_formed(one.batch)) == len(one.batch) == len(one.results)
        and all(result.disposition == "skipped" for result in one.results)
    )


def repeats_reported_as_work(trace: Trace) -> str | None:
    """Where a finished pass of nothing but repeats reports ``executed_any`` true (¶2's
    words broken: a repeat is no work), or ``None``."""
    for at, _, one in located_passes(trace):
        if one.cut or one.paused or not _only_repeats(one):
            continue
        if ports(one).get("executed_any") is True:
            return f"a pass of nothing but repeats reports executed_any true (at {at}/ports)"
    return None


def _repeats_worked(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    return repeats_reported_as_work(trace)


#: RT-TOOL-10 ¶2: a pass of nothing but repeats did no work.  A check that sends a repeat
#: beside what it judges (a malformed call beside it leaves ``executed_any`` false, ¶4)
#: sees through it: where a pure repeat already reports work, the pass it judges cannot
#: tell its own calls' part.
REPEATS_NO_WORK = Channel(
    "a pass of nothing but repeats reporting no work", "RT-TOOL-10#c2", _repeats_worked
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
