"""RT-TOOL-5's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_5`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from adapters.scenario import (
    Answer,
    Approve,
    EmitLateArtifact,
    Interrupt,
    Reply,
    StartTurn,
    Step,
    Tool,
)
from adapters.trace import Trace
from conformance.toolkit import (
    DELIVERY,
    CheckContext,
    Untested,
    ask,
    call,
    calls,
    canary,
    check,
    collects,
    contains,
    count_on_wire,
    delivered,
    describe,
    in_state,
    link,
    listing,
    locate,
    located_runs,
    misplaced,
    one_turn,
    output,
    say,
    show,
    tool,
    turn,
    turn_pointer,
    whereabouts,
    wire_pointer,
)

TOOL = "emit_artifacts"


def _kept_anywhere(ctx: CheckContext, trace: Trace, mark: str, what: str, clause: str) -> None:
    """Expect ``mark`` on no turn's wire and in no held list, after any step."""
    for index, step in enumerate(trace.steps):
        for conversation, turns in step.wire.items():
            for label, wire in turns.items():
                found = locate(wire, mark)
                ctx.expect(
                    not found,
                    f"{what} shows after step {index} ({step.op}) on turn {label}, at "
                    f"{listing(found)}; {clause}",
                    at=turn_pointer(trace, label, step=index, conversation=conversation),
                    reading="late-arrivals",
                )
        for label, held in (step.held or {}).items():
            ctx.expect(
                not contains(held, mark),
                f"{what} is held against turn {label} after step {index} ({step.op}); {clause}",
                at=f"/steps/{index}/held/{label}",
                reading="late-arrivals",
            )


STANCES = {"returning-run": False, "paused-run": True}


# Delivery is read on the messages: a runtime that keeps what it collected elsewhere
# (RT-TOOL-4 ¶1) shows nothing of whether it collects.  So for every check of this rule
# that counts what was delivered.
@check(
    "RT-TOOL-5#c1",
    variants=STANCES,
    through=DELIVERY,
)
def check_collection_stance_is_truthful(ctx: CheckContext, variant: bool) -> None:
    """An implementation may collect nothing at all; whichever it declares, it does."""
    mark = canary("rt5-c1")
    model: list[Reply] = [calls(call(TOOL, {}, "c1"))]
    steps: list[Step] = [StartTurn("t1")]
    if variant:
        model.append(ask())
        steps.append(Answer("t1"))
    trace = one_turn(
        ctx,
        "rt5-c1-stance",
        tools=[tool(TOOL, output({"ok": True}, link(mark)))],
        model=[*model, say("done")],
        steps=steps,
    )
    wire = turn(trace, "t1")
    count = count_on_wire(trace, mark)
    if ctx.handshake.collects_artifacts:
        ctx.expect(
            count == 1,
            f"the handshake says artifacts are collected; the run's artifact was delivered "
            f"{count} times in the messages' toolArtifacts, expected once; it "
            f"{whereabouts(wire, mark)}; RT-TOOL-5 ¶1",
            at=wire_pointer(trace),
        )
    else:
        ctx.expect(
            count == 0,
            "the handshake says no artifacts are collected, yet the run's artifact was "
            f"delivered, at {listing(locate(wire, mark))}; RT-TOOL-5 ¶1: an implementation "
            "may collect nothing, and then delivers nothing",
            at=wire_pointer(trace),
        )


@dataclass(frozen=True)
class Early:
    """Artifacts arriving (``arrivals`` of them) for the turn's next run before it opens
    collection; the run is then opened by ``opened_by`` ("answer", "approve");
    ``same_call``: they arrive under the call id the run then uses."""

    opened_by: str = "answer"
    arrivals: int = 1
    same_call: bool = False


EARLY = {
    "opened-by-an-answer": Early(),
    "opened-by-an-approval": Early(opened_by="approve"),
    "two-arrivals": Early(arrivals=2),
    "under-the-runs-own-call-id": Early(same_call=True),
}


@check(
    "RT-TOOL-5#c2",
    variants=EARLY,
    through=DELIVERY,
)
def check_unopened_run_drops_arrivals(ctx: CheckContext, variant: Early) -> None:
    """An artifact arriving for a run whose collection was never opened is dropped: opening
    collection later does not reach back for it."""
    collects(ctx)
    marks = [canary(f"rt5-c2-{i}") for i in range(variant.arrivals)]
    own = "https://e.x/own"
    gate = variant.opened_by == "approve"
    late_id = "c2" if variant.same_call else "call_late"
    tools = [tool(TOOL, output({"ok": True}, link(own)))]
    if gate:
        tools.append(tool("gated_thing", output({"ok": True}), gate=True))
        model: list[Reply] = [calls(call("gated_thing", {}, "c1"), call(TOOL, {}, "c2"))]
    else:
        model = [ask("Continue?"), calls(call(TOOL, {}, "c2"))]
    steps: list[Step] = [StartTurn("t1")]
    steps += [EmitLateArtifact("t1", "unopened", link(mark), late_id) for mark in marks]
    steps.append(Approve("t1") if gate else Answer("t1"))
    trace = one_turn(ctx, "rt5-c2-unopened", tools=tools, model=[*model, say("done")], steps=steps)
    final = turn(trace, "t1")
    ctx.need(
        in_state(ctx.handshake, final, "completed"),
        f"the turn is {describe(ctx.handshake, final)} after the {variant.opened_by}; the "
        "check needs it completed",
        at=turn_pointer(trace, "t1") + "/status",
    )
    for mark in marks:
        _kept_anywhere(
            ctx,
            trace,
            mark,
            "an artifact that arrived before its run opened collection",
            "RT-TOOL-5 ¶2: it is dropped",
        )
    ctx.expect(
        count_on_wire(trace, own) == 1,
        f"the run's own artifact (the check's control) was delivered {count_on_wire(trace, own)} "
        f"times in the messages' toolArtifacts, expected once; it {whereabouts(final, own)}",
        at=wire_pointer(trace),
    )


@dataclass(frozen=True)
class Passes:
    """One run whose passes each produce the artifacts listed (how many per call, one
    list per pass); ``late``: then an artifact arrives after the run released collection."""

    passes: tuple[tuple[int, ...], ...]
    late: bool = False


DRAINS = {
    "second-pass": Passes(((1,), (1,))),
    "third-pass": Passes(((1,), (1,), (1,))),
    "after-an-empty-pass": Passes(((0,), (1,))),
    "after-a-pass-of-two-calls": Passes(((1, 1), (1,))),
    "arrival-after-release": Passes(((1,), (1,)), late=True),
}


@check(
    "RT-TOOL-5#c3",
    variants=DRAINS,
    through=DELIVERY,
)
def check_drain_does_not_end_collection(ctx: CheckContext, variant: Passes) -> None:
    """After one tool pass has been drained, a later call in the same run still collects;
    only release ends collection, and what arrives after it is dropped."""
    collects(ctx)
    returns, model, marks = [], [], []
    for number, counts in enumerate(variant.passes):
        batch = []
        for index, count in enumerate(counts):
            made = [canary(f"rt5-c3-p{number}-c{index}-{i}") for i in range(count)]
            marks += [(number, mark) for mark in made]
            returns.append(output({"ok": True}, *(link(mark) for mark in made)))
            batch.append(call(TOOL, {}, f"p{number}c{index}"))
        model.append(calls(*batch))
    late = canary("rt5-c3-late")
    steps: list[Step] = [StartTurn("t1")]
    if variant.late:  # needs `late_artifacts`: only this variant asks for it
        steps.append(EmitLateArtifact("t1", "ended", link(late), "call_late"))
    trace = one_turn(
        ctx, "rt5-c3-drain", tools=[tool(TOOL, *returns)], model=[*model, say("done")], steps=steps
    )
    wire = turn(trace, "t1")
    for number, mark in marks:
        count = count_on_wire(trace, mark)
        ctx.expect(
            count == 1,
            f"the artifact of pass {number + 1} was delivered {count} times in the messages' "
            f"toolArtifacts, expected once; it {whereabouts(wire, mark)}; RT-TOOL-5 ¶3: "
            "draining does not end collection, a later call in the same run still collects",
            at=wire_pointer(trace),
        )
    if variant.late:
        _kept_anywhere(
            ctx,
            trace,
            late,
            "an artifact that arrived after release",
            "RT-TOOL-5 ¶3: it is dropped",
        )


Exit = Literal["return", "question", "gate", "error", "time-limit", "resumed-return"]
EXITS: dict[str, Exit] = {
    "return": "return",
    "question": "question",
    "gate": "gate",
    "error": "error",
    "time-limit": "time-limit",
    "resumed-return": "resumed-return",
}


def _exit_scenario(how: Exit) -> tuple[list[Reply], list[Step], list[Tool]]:
    """The model, the steps up to the run's end, and the extra tools, for each way out."""
    made = [calls(call(TOOL, {}, "c1"))]
    if how == "return":
        return [*made, say("done")], [StartTurn("t1")], []
    if how == "question":
        return [*made, ask(), say("done")], [StartTurn("t1")], []
    if how == "gate":
        gated = calls(call(TOOL, {}, "c1"), call("gated_thing", {}, "c2"))
        return [gated, say("done")], [StartTurn("t1")], [tool("gated_thing", gate=True)]
    if how == "resumed-return":
        resumed = [*made, ask(), calls(call(TOOL, {}, "c2")), say("done")]
        return resumed, [StartTurn("t1"), Answer("t1")], []
    cut = Interrupt("after_tool_done", "error", TOOL)
    if how == "time-limit":
        cut = Interrupt("after_tool_done", "time_limit", TOOL)
    return (
        [*made, say("never")],
        [cut, StartTurn("t1")],
        [],
    )


@check("RT-TOOL-5#c4", variants=EXITS, name="late-arrival-after-release-dropped")
def check_released_on_every_exit(ctx: CheckContext, variant: Exit) -> None:
    """A run that returns, pauses or fails releases collection: after the step that ended
    it, and every later one, its collection is not open, and nothing arriving later is
    kept."""
    collects(ctx)
    # Whether collection is still open can only be seen: a late arrival for a run that
    # has ended is never delivered either way.
    ctx.require("collection_observation")
    model, steps, extra = _exit_scenario(variant)
    mark = canary(f"rt5-c4-{variant}")
    trailing: list[Step] = [EmitLateArtifact("t1", "ended", link(mark), "call_late")]
    if variant in ("question", "gate"):
        trailing.append(Approve("t1") if variant == "gate" else Answer("t1"))
    trace = one_turn(
        ctx,
        f"rt5-c4-{variant}",
        tools=[tool(TOOL, output({"ok": True}, link(f"https://e.x/{variant}"))), *extra],
        model=model,
        steps=[*steps, *trailing],
    )
    for index, step in enumerate(trace.steps):
        # The capability promises the observation on every step: a step without it would
        # let a collection left open go unseen.
        ctx.need(
            step.open_collections is not None,
            f"after step {index} ({step.op}) the harness reports no open_collections, "
            "although it claims collection_observation",
            at=f"/steps/{index}",
        )
    for at, run in located_runs(trace):
        # Every run a step reports has come to rest by the step's end (returned, paused,
        # cut off or failed); only those are judged, whatever else the list names.
        ended = int(at.split("/")[2])
        still = [
            i
            for i in range(ended, len(trace.steps))
            if run.id in (trace.steps[i].open_collections or ())
        ]
        ctx.expect(
            not still,
            f"run {show(run.id)} ended {show(run.end)} in step {ended}, and its collection is "
            f"still open after steps {show(still)}; RT-TOOL-5 ¶4: a run that returns, pauses "
            "or fails releases it",
            at=f"/steps/{still[0] if still else ended}/open_collections",
            reading="late-arrivals",
        )
    _kept_anywhere(
        ctx,
        trace,
        mark,
        f"an artifact that arrived after the run's {variant.replace('-', ' ')}",
        "RT-TOOL-5 ¶4: a run cannot retain artifacts beyond its own life",
    )


ENTRY_POINTS = {"single-run": False, "resumed-run": True}
ENTRY_POINT_NAMES: tuple[Literal["chat", "api", "trigger"], ...] = ("chat", "api", "trigger")


@check(
    "RT-TOOL-5#c5",
    variants=ENTRY_POINTS,
    through=DELIVERY,
)
def check_collection_independent_of_entry_point(ctx: CheckContext, variant: bool) -> None:
    """The same run collects the same artifacts whichever entry point launched it (and so
    does a run that resumes it)."""
    collects(ctx)
    offered = [one for one in ENTRY_POINT_NAMES if one in ctx.handshake.capabilities.entry_points]
    # What one entry point's run delivers says nothing of "which entry point launched
    # the run": the clause is judged where two can be compared, or not at all.
    if len(offered) < 2:
        raise Untested(f"needs two entry points; the handshake offers {len(offered)}")
    seen: dict[str, list[object]] = {}
    pointers: dict[str, str] = {}
    for entry_point in offered:
        model: list[Reply] = [calls(call(TOOL, {}, "c1"))]
        steps: list[Step] = [StartTurn("t1", entry_point=entry_point)]
        if variant:
            model += [ask(), calls(call(TOOL, {}, "c2"))]
            steps.append(Answer("t1"))
        trace = one_turn(
            ctx,
            f"rt5-c5-{entry_point}",
            tools=[
                tool(
                    TOOL,
                    output({"ok": True}, link("https://e.x/first")),
                    output({"ok": True}, link("https://e.x/resumed")),
                )
            ],
            model=[*model, say("done")],
            steps=steps,
        )
        seen[entry_point] = delivered(turn(trace, "t1"))
        pointers[entry_point] = f"{wire_pointer(trace)} of scenario rt5-c5-{entry_point}"
        expected = 2 if variant else 1
        ctx.expect(
            len(seen[entry_point]) == expected,
            f"launched from {show(entry_point)}, the turn delivered {show(seen[entry_point])} in "
            f"its messages' toolArtifacts, expected the {expected} artifact(s) its runs "
            f"produced{misplaced(turn(trace, 't1'), ['https://e.x/first'])}; RT-TOOL-5 ¶5",
            at=wire_pointer(trace),
        )
    first, reference = next(iter(seen.items()))
    for launched, artifacts in seen.items():
        ctx.expect(
            artifacts == reference,
            f"launched from {show(launched)}, the run delivered {show(artifacts)} (at "
            f"{pointers[launched]}); launched from {show(first)}, {show(reference)}; RT-TOOL-5 "
            "¶5: collection does not depend on the entry point",
        )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_collection_stance_is_truthful,
    check_unopened_run_drops_arrivals,
    check_drain_does_not_end_collection,
    check_released_on_every_exit,
    check_collection_independent_of_entry_point,
)
