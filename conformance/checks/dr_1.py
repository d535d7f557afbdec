"""DR-1: the tool-call journal classifies a turn's calls from the durable ledger."""

from __future__ import annotations

from adapters.scenario import ClassifyLedger, Interrupt, StartTurn, Wait
from adapters.trace import Trace
from conformance.checks import CheckContext, check
from conformance.checks._common import mapping, one_turn, show
from conformance.checks._durable import ANA, BO, send, tools
from conformance.scenarios import call, calls, say, scenario
from conformance.traces import side_effects


def _ledger(ctx: CheckContext, trace: Trace) -> list[dict[str, object]]:
    ctx.require("ledger")
    return [
        dict(mapping(event))
        for event in trace.ledger or ()
        if mapping(event).get("turn", "t1") == "t1"
    ]


def _classify(ctx: CheckContext, name: str, events: list[dict[str, object]]) -> dict[str, object]:
    trace = ctx.run(scenario(name, steps=[ClassifyLedger(tuple(events))]))
    return dict(mapping(trace.steps[0].journal))


def start(tool: str, args: object) -> dict[str, object]:
    """A ``tool_start`` ledger event."""
    return {"event": "tool_start", "tool": tool, "input": args}


def done(tool: str, result: object) -> dict[str, object]:
    """A ``tool_done`` ledger event for the journal probe.  It carries no input on purpose:
    the probes test pairing by tool name alone, which a done that repeated its start's
    input would let a journal fake by matching inputs."""
    return {"event": "tool_done", "tool": tool, "result": result}


def _expect_done_of(ctx: CheckContext, done_event: dict[str, object], start_event: object) -> None:
    """``done_event`` carries its call's tool name, the input ``start_event`` recorded for
    the call, and a result; each failure says which of the three is missing or wrong."""
    started = mapping(start_event)
    tool, wanted = started.get("tool"), started.get("input")
    ctx.need("tool" in done_event, f"tool_done of {tool} carries no tool name")
    ctx.need(
        done_event.get("tool") == tool,
        f"tool_done carries tool name {show(done_event.get('tool'))}, "
        f"not its tool_start's {show(tool)}",
    )
    got = done_event.get("input")
    # A null input is no input, unless the call's input was null.
    ctx.need(
        "input" in done_event and (got is not None or wanted is None),
        f"tool_done of {tool} carries no input",
    )
    ctx.need(
        got == wanted,
        f"tool_done of {tool} carries input {show(got)}, not its tool_start's input {show(wanted)}",
    )
    ctx.need(done_event.get("result") not in (None, ""), f"tool_done of {tool} carries no result")


@check("DR-1#c1")
def check_start_before_and_done_after(ctx: CheckContext) -> None:
    """`tool_start` is recorded before the tool runs (a cut before the body leaves it, with
    no side effect) and `tool_done`, with name, input and result, once it has returned."""
    trace = one_turn(
        ctx,
        "dr1-c1-recording",
        tools=tools(),
        model=[calls(send(ANA, "c1")), calls(send(BO, "c2")), say("done")],
        steps=[Interrupt("before_tool_body", "time_limit", "send_email", 2), StartTurn("t1")],
    )
    events = [e for e in _ledger(ctx, trace) if e.get("event") != "clear"]
    kinds = [e.get("event") for e in events]
    ctx.need(
        kinds == ["tool_start", "tool_done", "tool_start"],
        f"the ledger holds {kinds}; expected start, done, then the start of the call "
        "cut before its body ran",
    )
    first, finished, second = events
    for begun, args in ((first, ANA), (second, BO)):
        ctx.need(
            begun.get("tool") == "send_email" and begun.get("input") == args,
            f"a tool_start carries tool {show(begun.get('tool'))} and input "
            f"{show(begun.get('input'))}; expected send_email with {show(args)}",
        )
    _expect_done_of(ctx, finished, first)
    ctx.need(len(side_effects(trace, "send_email")) == 1, "the call cut before its body still ran")


@check("DR-1#c2")
def check_journal_adds_no_recording(ctx: CheckContext) -> None:
    """Reading the journal (on resume), and answering a re-dispatched call from it, neither
    adds to nor alters the ledger: it holds exactly one start per call begun and one done
    per call returned."""
    trace = one_turn(
        ctx,
        "dr1-c2-pure-read",
        tools=tools(),
        model=[
            calls(send(ANA, "c1"), call("lookup", {"id": 7}, "c2")),
            # r1 repeats c1: answered from the journal where DR-3 holds, run where it does
            # not; either way, the ledger must show only the bodies that really ran.
            calls(send(ANA, "r1"), send(BO, "c3")),
            say("done"),
        ],
        steps=[Interrupt("after_tool_done", "time_limit", "lookup"), StartTurn("t1"), Wait()],
    )
    events = _ledger(ctx, trace)
    starts = [e for e in events if e.get("event") == "tool_start"]
    dones = [e for e in events if e.get("event") == "tool_done"]
    ran = side_effects(trace)
    ctx.need(
        len(starts) == len(ran) and len(dones) == len(ran),
        f"{len(ran)} tool bodies ran and returned; the ledger holds {len(starts)} starts "
        f"and {len(dones)} dones after the journal was read",
    )
    again = [
        _classify(ctx, f"dr1-c2-probe-{i}", [start("t", 1), done("t", "r"), start("t", 2)])
        for i in range(2)
    ]
    ctx.need(again[0] == again[1], "the same ledger classified twice gave different journals")


@check("DR-1#c3")
def check_completed_and_interrupted(ctx: CheckContext) -> None:
    """A start with a matching done is completed; a start without one is interrupted."""
    got = _classify(
        ctx,
        "dr1-c3-classify",
        [
            start("send_email", ANA),
            done("send_email", "sent"),
            start("create_ticket", {"title": "Printer jam"}),
        ],
    )
    ctx.need(
        got.get("completed") == [{"tool": "send_email", "input": ANA, "result": "sent"}],
        f"completed is {show(got.get('completed'))}",
    )
    ctx.need(
        got.get("interrupted") == [{"tool": "create_ticket", "input": {"title": "Printer jam"}}],
        f"interrupted is {show(got.get('interrupted'))}",
    )


@check("DR-1#c4")
def check_done_pairs_fifo_per_tool(ctx: CheckContext) -> None:
    """A done pairs with the oldest still-open start of the same tool name."""
    got = _classify(
        ctx,
        "dr1-c4-fifo",
        [
            start("send_email", ANA),
            start("create_ticket", {"t": 1}),
            start("send_email", BO),
            done("send_email", "sent"),
            done("create_ticket", "T-1"),
        ],
    )
    listed = got.get("completed")
    completed = {
        (mapping(e).get("tool"), str(mapping(e).get("input")))
        for e in (listed if isinstance(listed, list) else [])
    }
    ctx.need(
        completed == {("send_email", str(ANA)), ("create_ticket", str({"t": 1}))},
        f"completed is {show(got.get('completed'))}: the done must pair with the oldest "
        "open start of its own tool",
    )
    ctx.need(
        got.get("interrupted") == [{"tool": "send_email", "input": BO}],
        f"interrupted is {show(got.get('interrupted'))}",
    )


@check("DR-1#c5")
def check_clear_resets_open_calls(ctx: CheckContext) -> None:
    """After a `clear`, calls left open before it are not interrupted, and a later done does
    not pair with them."""
    got = _classify(
        ctx,
        "dr1-c5-clear",
        [
            start("create_ticket", {"title": "a"}),
            {"event": "clear"},
            start("create_ticket", {"title": "b"}),
            done("create_ticket", "T-2"),
        ],
    )
    ctx.need(
        got.get("interrupted") == [],
        f"interrupted is {show(got.get('interrupted'))}: "
        "an abandoned partial left a phantom open call",
    )
    ctx.need(
        got.get("completed")
        == [{"tool": "create_ticket", "input": {"title": "b"}, "result": "T-2"}],
        f"completed is {show(got.get('completed'))}",
    )
    lone = _classify(
        ctx,
        "dr1-c5-clear-then-done",
        [start("create_ticket", {"title": "a"}), {"event": "clear"}, done("create_ticket", "T-9")],
    )
    ctx.need(
        lone.get("completed") == [] and lone.get("interrupted") == [],
        f"a done after a clear paired with a start from before it: {show(lone)}",
    )
