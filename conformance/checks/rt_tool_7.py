"""RT-TOOL-7: a pause does not destroy artifacts, and does not deliver them twice."""

from __future__ import annotations

from adapters.scenario import Answer, Bounds, FailWriteBack, Reply, Restart, StartTurn, Step
from adapters.trace import Trace
from conformance.checks import CheckContext, Untested, check
from conformance.checks._common import misplaced, one_turn, show, whereabouts
from conformance.checks._states import describe, in_state
from conformance.scenarios import ask, call, calls, canary, link, output, say, tool
from conformance.traces import assistant_rows, contains, delivered, strings, turn


def _count(trace: Trace, mark: str) -> int:
    """How many delivered entries of the final turn carry ``mark``."""
    return sum(1 for entry in delivered(turn(trace, "t1")) if contains(entry, mark))


def _delivered_once(ctx: CheckContext, trace: Trace, mark: str, what: str) -> None:
    """Fail unless the final turn delivers ``mark`` exactly once; when it does not deliver
    it at all, say where on the wire it went."""
    count = _count(trace, mark)
    if count == 1:
        return
    said = f"{what} was delivered {count} times in the messages' toolArtifacts, expected once"
    if count == 0:
        said += f"; it {whereabouts(turn(trace, 't1'), mark)}"
    ctx.fail(said)


def _never_on_wire_while_paused(ctx: CheckContext, trace: Trace, marks: list[str]) -> None:
    for step in trace.steps:
        wire = step.wire.get("main", {}).get("t1")
        # Held artifacts are those of a pause: a turn that is not paused holds nothing.
        if wire is None or not in_state(ctx.handshake, wire, "paused"):
            continue
        for mark in marks:
            ctx.need(
                not any(mark in text for text in strings([wire.messages, wire.toolArtifacts])),
                f"after step {step.index} ({step.op}) the turn is paused and its "
                "wire already shows a held artifact",
            )


@check("RT-TOOL-7#c1")
def check_held_durably_off_the_wire(ctx: CheckContext) -> None:
    """An artifact produced before a pause is held (it survives a restart) and stays off the
    wire until the resume delivers it."""
    mark = canary("rt7-c1")
    trace = one_turn(
        ctx,
        "rt7-c1-held",
        tools=[tool("make", output({"ok": True}, link(mark)))],
        model=[calls(call("make", {}, "call_1")), ask("Which format?"), say("done")],
        steps=[StartTurn("t1"), Restart(), Answer("t1")],
    )
    paused = turn(trace, "t1", step=1)
    ctx.need(
        in_state(ctx.handshake, paused, "paused"),
        "after the question and the restart the turn is not paused: "
        f"{describe(ctx.handshake, paused)}",
    )
    _never_on_wire_while_paused(ctx, trace, [mark])
    if trace.steps[1].held is not None:
        ctx.need(
            contains(trace.steps[1].held.get("t1"), mark),
            "after the restart nothing is held against the paused turn",
        )
    _delivered_once(ctx, trace, mark, "after the answer, the held artifact")


@check("RT-TOOL-7#c2")
def check_held_prepended_on_resumed_message(ctx: CheckContext) -> None:
    """The resume's write-back delivers the held artifacts first, then the resumed run's own,
    on the resumed turn's assistant message."""
    held, own = canary("rt7-c2-held"), canary("rt7-c2-own")
    trace = one_turn(
        ctx,
        "rt7-c2-merged",
        tools=[tool("make", output({"ok": True}, link(held)), output({"ok": True}, link(own)))],
        model=[calls(call("make", {}, "c1")), ask(), calls(call("make", {}, "c2")), say("done")],
        steps=[StartTurn("t1"), Answer("t1")],
    )
    wire = turn(trace, "t1")
    rows = assistant_rows(wire)
    ctx.need(bool(rows), "the resumed turn has no assistant message")
    carried = rows[-1].get("toolArtifacts") if rows else None
    if not (
        isinstance(carried, list)
        and len(carried) == 2
        and contains(carried[0], held)
        and contains(carried[1], own)
    ):
        ctx.fail(
            f"the resumed turn's last assistant message carries toolArtifacts {show(carried)}; "
            "expected the held artifact followed by the resumed run's own"
            f"{misplaced(wire, [held, own])}"
        )


@check("RT-TOOL-7#c3")
def check_pausing_again_holds_everything(ctx: CheckContext) -> None:
    """A resume that pauses again holds everything; the final delivery carries each
    artifact exactly once."""
    first, second = canary("rt7-c3-first"), canary("rt7-c3-second")
    trace = one_turn(
        ctx,
        "rt7-c3-destructive",
        tools=[tool("make", output({"ok": True}, link(first)), output({"ok": True}, link(second)))],
        model=[
            calls(call("make", {}, "c1")),
            ask("First question?"),
            calls(call("make", {}, "c2")),
            ask("Second question?"),
            say("done"),
        ],
        steps=[StartTurn("t1"), Answer("t1"), Answer("t1"), Answer("t1")],
    )
    _never_on_wire_while_paused(ctx, trace, [first, second])
    for mark, which in ((first, "first"), (second, "second")):
        _delivered_once(ctx, trace, mark, f"after the last answer, the {which} held artifact")
    ctx.need(trace.steps[3].outcome == "refused", "answering a completed turn was not refused")


@check("RT-TOOL-7#c3")
def check_taking_is_destructive(ctx: CheckContext) -> None:
    """The write-back takes the held list: once delivered, nothing is left held to be
    delivered again."""
    # A copy left behind is invisible on the wire of a completed turn: only the held
    # list itself shows it.
    ctx.require("held_observation")
    mark = canary("rt7-c3-taken")
    trace = one_turn(
        ctx,
        "rt7-c3-taken",
        tools=[tool("make", output({"ok": True}, link(mark)))],
        model=[calls(call("make", {}, "c1")), ask(), say("done")],
        steps=[StartTurn("t1"), Answer("t1")],
    )
    held = trace.steps[0].held
    ctx.need(
        held is not None and contains(held.get("t1"), mark),
        "nothing is held against the paused turn",
    )
    _delivered_once(ctx, trace, mark, "after the answer, the held artifact")
    after = trace.steps[-1].held
    ctx.need(
        after is not None and not after.get("t1"),
        f"after delivery the artifact is still held: {show(after)}",
    )


@check("RT-TOOL-7#c4")
def check_failed_write_back_puts_back(ctx: CheckContext) -> None:
    """A write-back that fails after taking the held list puts it back: the failure only
    postpones delivery."""
    mark = canary("rt7-c4")
    trace = one_turn(
        ctx,
        "rt7-c4-put-back",
        tools=[tool("make", output({"ok": True}, link(mark)))],
        model=[calls(call("make", {}, "c1")), ask(), say("first try"), say("second try")],
        steps=[StartTurn("t1"), FailWriteBack(), Answer("t1"), Answer("t1")],
    )
    failed = trace.steps[2]
    ctx.need(
        failed.outcome in ("failed", "refused"),
        f"the armed write-back failure was not reported (outcome {failed.outcome})",
    )
    ctx.need(
        not contains(delivered(turn(trace, "t1", step=2)), mark),
        "the artifact was delivered by the write-back that failed",
    )
    if failed.held is not None:
        ctx.need(
            contains(failed.held.get("t1"), mark),
            "after the failed write-back the artifact is no longer held",
        )
    retry = trace.steps[3]
    if retry.outcome != "ok":
        if failed.held is None:
            raise Untested(
                "the failed step cannot be retried and held artifacts are not observable"
            )
        return
    _delivered_once(ctx, trace, mark, "after the retry, the held artifact")


@check("RT-TOOL-7#c5")
def check_held_list_bounded_newest_dropped(ctx: CheckContext) -> None:
    """Where the held list would exceed its bound, the newest entries are dropped, each with
    a warning."""
    caps, limits = ctx.handshake.capabilities, ctx.handshake.limits
    if caps.configurable_bounds:
        bound, per_run, bounds = 2, 8, Bounds(held_artifacts=2, run_artifacts=8)
    elif limits.held_artifacts is not None and limits.run_artifacts is not None:
        bound, per_run, bounds = limits.held_artifacts, limits.run_artifacts, None
    else:
        raise Untested("needs configurable bounds or declared held and run bounds")
    total = bound + 1
    entries = [link(f"https://e.x/held/{i}") for i in range(total)]
    chunks = [entries[i : i + per_run] for i in range(0, total, per_run)]
    tools = [tool("make", *(output({"ok": True}, *chunk) for chunk in chunks))]
    model: list[Reply] = []
    steps: list[Step] = [StartTurn("t1")]
    for index in range(len(chunks)):
        model += [calls(call("make", {}, f"c{index}")), ask(f"Question {index}?")]
        steps.append(Answer("t1"))
    model.append(say("done"))
    trace = one_turn(ctx, "rt7-c5-bounded", tools=tools, model=model, steps=steps, bounds=bounds)
    wire = turn(trace, "t1")
    on_wire = [e.get("payload") for e in delivered(wire) if isinstance(e, dict)]
    kept = [entry["payload"] for entry in entries[:bound]]
    if on_wire != kept:
        ctx.fail(
            f"with a held bound of {bound}, the messages' toolArtifacts delivered "
            f"{len(on_wire)} artifacts; expected the oldest {bound}{misplaced(wire, kept)}"
        )
    newest = entries[-1]["payload"]
    ctx.need(
        any(
            w.tool_call_id == f"c{len(chunks) - 1}" or contains(w.message, "held")
            for w in trace.warnings()
        ),
        f"the newest artifact ({show(newest)}) was dropped without a warning",
    )
