"""RT-TOOL-4: a turn's artifacts are persisted on its message and reported on its result."""

from __future__ import annotations

from adapters.scenario import Restart, StartTurn
from conformance.checks import CheckContext, check
from conformance.checks._common import one_turn
from conformance.scenarios import call, calls, canary, link, output, say, tool
from conformance.traces import assistant_rows, contains, delivered, rows_with_artifacts, turn


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
    ctx.expect(len(rows) >= 2, f"expected two assistant messages, the wire shows {len(rows)}")
    carrying = [row for row in rows if contains(row.get("toolArtifacts"), mark)]
    ctx.expect(
        len(carrying) == 1,
        f"the artifact is carried by {len(carrying)} assistant messages, expected 1",
    )
    ctx.expect(carrying[0] is rows[-1], "the artifact is not on the run's last assistant message")
    ctx.expect(
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
        ctx.expect(wire is not None, f"the turn is missing from the wire {when}")
        assert wire is not None
        on_messages = delivered(wire)
        ctx.expect(
            all(any(contains(e, m) for e in on_messages) for m in marks),
            f"{when}, the messages do not carry both artifacts: {on_messages!r}",
        )
        ctx.expect(
            wire.toolArtifacts == on_messages,
            f"{when}, the turn result reports {wire.toolArtifacts!r} but its messages "
            f"carry {on_messages!r}",
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
    ctx.expect(bool(rows_with_artifacts(wire)), "no message carries a top-level toolArtifacts")
    for row in wire.messages if wire is not None else ():
        ctx.expect(isinstance(row, dict), "a message row is not a JSON object")
        assert isinstance(row, dict)
        ctx.expect(
            not contains(row.get("metadata"), mark), "a message's metadata carries the artifact"
        )
        carried = row.get("toolArtifacts")
        ctx.expect(
            carried is None or isinstance(carried, list),
            f"toolArtifacts is not a list: {carried!r}",
        )
