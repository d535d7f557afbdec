"""RT-TOOL-5: artifact collection is opened and released per run.

Clauses 2-5 bind only "where it does" collect: an implementation whose handshake says
it collects nothing is not-applicable to them, and clause 1 checks that stance.
"""

from __future__ import annotations

from typing import Literal

from adapters.scenario import Answer, EmitLateArtifact, Interrupt, Reply, StartTurn, Step
from adapters.trace import TurnWire
from conformance.checks import CheckContext, NotApplicable, Untested, check
from conformance.checks._common import misplaced, one_turn, port, show, whereabouts
from conformance.checks._states import describe, in_state
from conformance.scenarios import ask, call, calls, canary, link, output, say, tool
from conformance.traces import all_passes, contains, delivered, turn

#: The URLs of the control artifacts, looked for on the wire when they are not delivered.
OWN, REPORT = "https://e.x/own", "https://e.x/report"


def _collects(ctx: CheckContext) -> None:
    if not ctx.handshake.collects_artifacts:
        raise NotApplicable("the implementation does not collect tool artifacts")


@check("RT-TOOL-5#c1")
def check_collection_stance_is_truthful(ctx: CheckContext) -> None:
    """An implementation may collect nothing at all; whichever it declares, it does."""
    mark = canary("rt5-c1")
    trace = one_turn(
        ctx,
        "rt5-c1-stance",
        tools=[tool("make", output({"ok": True}, link(mark)))],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    surfaced = any(contains(port(one, "tool_artifacts"), mark) for _, one in all_passes(trace))
    wire = turn(trace, "t1")
    on_wire = contains(delivered(wire), mark)
    if ctx.handshake.collects_artifacts:
        ctx.need(
            surfaced,
            "the handshake says artifacts are collected, but the artifact was not surfaced "
            "on tool_artifacts",
        )
        if not on_wire:
            ctx.fail(
                "the handshake says artifacts are collected, but the artifact was not "
                f"delivered in any message's toolArtifacts; it {whereabouts(wire, mark)}"
            )
    else:
        ctx.need(
            not on_wire, "the handshake says nothing is collected, yet an artifact was delivered"
        )


@check("RT-TOOL-5#c2")
def check_unopened_run_drops_arrivals(ctx: CheckContext) -> None:
    """An artifact arriving for a run whose collection was never opened is dropped: opening
    collection later does not reach back for it."""
    _collects(ctx)
    mark = canary("rt5-c2")
    trace = one_turn(
        ctx,
        "rt5-c2-unopened",
        tools=[tool("make", output({"ok": True}, link(OWN)))],
        model=[calls(call("make", {}, "c1")), ask("Continue?"), say("done")],
        steps=[
            StartTurn("t1"),
            EmitLateArtifact("t1", "unopened", link(mark), "call_late"),
            Answer("t1"),
        ],
    )
    final = turn(trace, "t1")
    ctx.need(
        in_state(ctx.handshake, final, "completed"),
        f"the turn did not complete after the answer: {describe(ctx.handshake, final)}",
    )
    if not contains(delivered(final), OWN):
        ctx.fail(
            "the turn's own artifact was not delivered in any message's toolArtifacts (the "
            f"check's control case); it {whereabouts(final, OWN)}"
        )
    for step in trace.steps:
        for wire in step.wire.get("main", {}).values():
            ctx.need(
                not contains(delivered(wire), mark),
                "an artifact that arrived before its run opened collection was kept",
            )
    ctx.need(
        not any(contains(port(one, "tool_artifacts"), mark) for _, one in all_passes(trace)),
        "an artifact that arrived before its run opened collection was surfaced",
    )


@check("RT-TOOL-5#c3")
def check_drain_does_not_end_collection(ctx: CheckContext) -> None:
    """After one tool pass has been drained, a later call in the same run still collects."""
    _collects(ctx)
    marks = [canary("rt5-c3-first"), canary("rt5-c3-second")]
    trace = one_turn(
        ctx,
        "rt5-c3-drain",
        tools=[
            tool("make", output({"ok": True}, link(marks[0])), output({"ok": True}, link(marks[1])))
        ],
        model=[calls(call("make", {}, "c1")), calls(call("make", {}, "c2")), say("done")],
    )
    wire = turn(trace, "t1")
    on_wire = delivered(wire)
    for mark, which in zip(marks, ("first", "second"), strict=True):
        if not contains(on_wire, mark):
            ctx.fail(
                f"the {which} pass's artifact was not delivered in any message's toolArtifacts "
                f"(only releasing collection may end collection); it {whereabouts(wire, mark)}"
            )


@check("RT-TOOL-5#c4", name="late-arrival-after-release-dropped")
def check_released_on_every_exit(ctx: CheckContext) -> None:
    """A run that returns, pauses or fails releases collection: no collection stays open
    after the step, and nothing arriving later is kept."""
    _collects(ctx)
    # Whether collection is still open can only be seen: a late arrival for a run that
    # has ended is never delivered either way.
    ctx.require("collection_observation")
    exits: dict[str, tuple[list[Reply], list[Step]]] = {
        "return": ([calls(call("make", {}, "c1")), say("done")], [StartTurn("t1")]),
        "pause": ([calls(call("make", {}, "c1")), ask(), say("done")], [StartTurn("t1")]),
        "fail": (
            [calls(call("make", {}, "c1")), say("never")],
            [Interrupt("after_tool_done", "error", "make"), StartTurn("t1")],
        ),
    }
    for how, (model, steps) in exits.items():
        mark = canary(f"rt5-c4-{how}")
        trailing: list[Step] = [EmitLateArtifact("t1", "ended", link(mark), "call_late")]
        if how == "pause":
            trailing.append(Answer("t1"))
        trace = one_turn(
            ctx,
            f"rt5-c4-{how}",
            tools=[tool("make", output({"ok": True}, link(f"https://e.x/{how}")))],
            model=model,
            steps=[*steps, *trailing],
        )
        for step in trace.steps:
            for wire in step.wire.get("main", {}).values():
                ctx.need(
                    not contains(delivered(wire), mark),
                    f"an artifact arriving after the run's {how} was kept",
                )
            # The capability promises the observation on every step: a step without it
            # would let a collection left open go unseen.
            ctx.need(
                step.open_collections is not None,
                f"after step {step.index} ({step.op}) the harness reports no open_collections, "
                "although it claims collection_observation",
            )
            ctx.need(
                not step.open_collections,
                f"after step {step.index} ({step.op}), collection is still open "
                f"for {show(list(step.open_collections or ()))}",
            )


@check("RT-TOOL-5#c5")
def check_collection_independent_of_entry_point(ctx: CheckContext) -> None:
    """The same run collects the same artifacts whichever entry point launched it."""
    _collects(ctx)
    seen: dict[str, list[object]] = {}
    wires: dict[str, TurnWire | None] = {}
    entry_point: Literal["chat", "api", "trigger"]
    for entry_point in ("chat", "api", "trigger"):
        if entry_point not in ctx.handshake.capabilities.entry_points:
            continue
        trace = one_turn(
            ctx,
            f"rt5-c5-{entry_point}",
            tools=[tool("make", output({"ok": True}, link(REPORT)))],
            model=[calls(call("make", {}, "c1")), say("done")],
            steps=[StartTurn("t1", entry_point=entry_point)],
        )
        wires[entry_point] = turn(trace, "t1")
        seen[entry_point] = delivered(wires[entry_point])
    if len(seen) < 2:
        raise Untested(f"needs two entry points; the handshake offers {len(seen)}")
    first, reference = next(iter(seen.items()))
    if not reference:
        ctx.fail(
            f"launched from {show(first)}, no artifact was delivered in any message's "
            f"toolArtifacts; it {whereabouts(wires[first], REPORT)}"
        )
    for launched, artifacts in seen.items():
        if artifacts != reference:
            ctx.fail(
                f"launched from {show(launched)}, the run delivered {show(artifacts)}; "
                f"expected {show(reference)}{misplaced(wires[launched], reference)}"
            )
