"""RT-TOOL-4: a turn's artifacts are persisted on its message and reported on its result."""

from __future__ import annotations

from adapters.scenario import Restart, StartTurn
from conformance.checks import CheckContext, check
from conformance.checks._common import listing, one_turn, show, whereabouts
from conformance.scenarios import call, calls, canary, link, output, say, tool
from conformance.traces import (
    assistant_rows,
    contains,
    delivered,
    pointers,
    rows_with_artifacts,
    turn,
)


@check("RT-TOOL-4#c1")
def check_persisted_on_last_assistant_message(ctx: CheckContext) -> None:
    """A run that writes two assistant messages persists its artifacts once, on the last."""
    mark = canary("rt4-c1")
    trace = one_turn(
        ctx,
        "rt4-c1-last-message",
        tools=[tool("make", output({"ok": True}, link(mark)))],
        model=[calls(call("make", {}, "c1"), text="Working on it."), say("Here is your report.")],
    )
    wire = turn(trace, "t1")
    rows = assistant_rows(wire)
    ctx.need(len(rows) >= 2, f"expected two assistant messages, the wire shows {len(rows)}")
    carrying = [row for row in rows if contains(row.get("toolArtifacts"), mark)]
    if len(carrying) != 1:
        ctx.fail(
            f"the artifact is carried by the toolArtifacts of {len(carrying)} assistant "
            f"messages, expected 1; it {whereabouts(wire, mark)}"
        )
    ctx.need(carrying[0] is rows[-1], "the artifact is not on the run's last assistant message")
    ctx.need(
        sum(1 for entry in delivered(wire) if contains(entry, mark)) == 1,
        "the artifact was persisted more than once",
    )


@check("RT-TOOL-4#c2")
def check_turn_result_aggregates_and_survives_reload(ctx: CheckContext) -> None:
    """The turn read reports the same list its messages carry, before and after a reload."""
    marks = [canary("rt4-c2-a"), canary("rt4-c2-b")]
    trace = one_turn(
        ctx,
        "rt4-c2-aggregate",
        tools=[
            tool("make", output({"ok": True}, link(marks[0])), output({"ok": True}, link(marks[1])))
        ],
        model=[calls(call("make", {}, "c1")), calls(call("make", {}, "c2")), say("done")],
        steps=[StartTurn("t1"), Restart()],
    )
    for step, when in ((0, "before the reload"), (1, "after the reload")):
        wire = turn(trace, "t1", step=step)
        ctx.need(wire is not None, f"the turn is missing from the wire {when}")
        assert wire is not None
        on_messages = delivered(wire)
        missing = [m for m in marks if not any(contains(e, m) for e in on_messages)]
        if missing:
            ctx.fail(
                f"{when}, the messages' toolArtifacts do not carry both artifacts: "
                f"{show(on_messages)}; the first missing one {whereabouts(wire, missing[0])}"
            )
        ctx.need(
            wire.toolArtifacts == on_messages,
            f"{when}, the turn result reports {show(wire.toolArtifacts)} but its messages "
            f"carry {show(on_messages)}",
        )


@check("RT-TOOL-4#c3")
def check_top_level_field_not_metadata(ctx: CheckContext) -> None:
    """On the wire the artifacts are a top-level `toolArtifacts` list, never inside `metadata`."""
    mark = canary("rt4-c3")
    trace = one_turn(
        ctx,
        "rt4-c3-wire",
        tools=[tool("make", output({"ok": True}, link(mark)))],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    wire = turn(trace, "t1")
    if not rows_with_artifacts(wire):
        ctx.fail(
            "no message carries a top-level toolArtifacts list; in the turn's wire form "
            f"the artifact {whereabouts(wire, mark)}"
        )
    for index, row in enumerate(wire.messages if wire is not None else ()):
        ctx.need(isinstance(row, dict), f"message {index} is not a JSON object")
        assert isinstance(row, dict)
        leaked = pointers(row.get("metadata"), mark, f"/messages/{index}/metadata")
        ctx.need(
            not leaked,
            f"message {index}'s metadata carries the artifact, at {listing(leaked)}",
        )
        carried = row.get("toolArtifacts")
        ctx.need(
            carried is None or isinstance(carried, list),
            f"message {index}'s toolArtifacts is not a list: {show(carried)}",
        )
