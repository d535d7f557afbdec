"""Vector bindings for the durable-resume rules."""

from __future__ import annotations

from adapters.scenario import ClassifyLedger, Interrupt, Reply, StartTurn, Step, Tool, Wait
from conformance.checks import CheckContext
from conformance.checks._common import mapping, one_turn, show
from conformance.checks._durable import continuations, nudge, resume_message
from conformance.checks._states import stopped_with_continue
from conformance.scenarios import call, calls, output, say, scenario, tool
from conformance.traces import side_effects, turn
from conformance.vectors._binding import Binding, VectorRun

__all__ = ["DR_BINDINGS"]


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _journal(ctx: CheckContext, run: VectorRun) -> None:
    """DR-1: a ledger -> the journal the implementation derives from it."""
    events = tuple(_list(run.value("ledger")))
    trace = ctx.run(scenario("vector-ledger-journal", steps=[ClassifyLedger(events)]))
    got = trace.steps[0].journal
    ctx.need(
        got == run.value("journal"),
        f"the journal is {show(got)}, the example says {show(run.value('journal'))}",
    )


def _entry_tools(entries: list[object], results: dict[str, object]) -> list[Tool]:
    names = dict.fromkeys(str(mapping(e).get("tool")) for e in entries)
    return [tool(name, output(results.get(name, "done")), schema={}) for name in names]


def _noted(ctx: CheckContext, run: VectorRun) -> None:
    """DR-2: the journal at the cut -> the note the resume prompt carries.  Completed calls
    run first, the interrupted one (at most one) is cut after its body; with nothing
    interrupted the run is cut in its next model call."""
    journaled = mapping(run.value("journaled"))
    completed = [mapping(e) for e in _list(journaled.get("completed"))]
    interrupted = [mapping(e) for e in _list(journaled.get("interrupted"))]
    ctx.need(len(interrupted) <= 1, "a vector can interrupt at most one call")
    results = {str(e.get("tool")): e.get("result") for e in completed}
    batch = [
        call(str(e.get("tool")), e.get("input"), f"c{i}")
        for i, e in enumerate([*completed, *interrupted])
    ]
    cut: Step = (
        Interrupt("after_tool_body", "time_limit", str(interrupted[0].get("tool")))
        if interrupted
        else Interrupt("during_model_call", "time_limit", occurrence=2 if batch else 1)
    )
    model: list[Reply] = [calls(*batch)] if batch else []
    trace = one_turn(
        ctx,
        f"vector-journaled-{run.verdicts[-1]}",
        tools=_entry_tools([*completed, *interrupted], results),
        model=[*model, say("done")],
        steps=[cut, StartTurn("t1"), Wait()],
    )
    resumed = [r for r in continuations(trace) if r.resume is not None]
    ctx.need(bool(resumed), "the turn did not resume after its time limit")
    note = resumed[0].resume.note if resumed[0].resume else None
    if run.has("bare"):
        ctx.need(
            note is None and resume_message(resumed[0], nudge(ctx)) == nudge(ctx),
            f"the resume prompt carries a note: {show(note)}",
        )
        return
    expected = mapping(run.value("noted"))
    ctx.need(note is not None, "the resume prompt carries no note")
    assert note is not None
    for kind, got in (("completed", note.completed), ("interrupted", note.interrupted)):
        want = [mapping(e) for e in _list(expected.get(kind))]
        have = [mapping(e) for e in got]
        ctx.need(
            [(e.get("tool"), e.get("input")) for e in have]
            == [(e.get("tool"), e.get("input")) for e in want],
            f"the note's {kind} calls are {show(have)}, the example says {show(want)}",
        )
        for mine, theirs in zip(have, want, strict=True):
            if "result" in theirs:
                ctx.need(
                    str(theirs["result"]) in str(mine.get("result")),
                    f"the note's short result {show(mine.get('result'))} does not show "
                    f"{show(theirs['result'])}",
                )
    # The note is what the model reads: the prompt text itself must name every entry.
    prompt = resume_message(resumed[0], nudge(ctx)) or ""
    for kind in ("completed", "interrupted"):
        for entry in (mapping(e) for e in _list(expected.get(kind))):
            shown = [str(entry.get("tool")), *([str(entry["result"])] if "result" in entry else [])]
            ctx.need(
                all(part in prompt for part in shown),
                f"the resume prompt does not name the {kind} call {' / '.join(shown)}",
            )


def _ran(ctx: CheckContext, run: VectorRun) -> None:
    """DR-3: completed calls, a cut, the resumed chunk's calls -> the calls that really run."""
    before = [mapping(c) for c in _list(run.value("completed"))]
    after = [mapping(c) for c in _list(run.value("redispatched"))]
    names = {str(c.get("name")): bool(c.get("read_only")) for c in [*before, *after]}
    tools = [tool(name, output("done"), schema={}, read_only=ro) for name, ro in names.items()]
    last = str(before[-1].get("name"))
    count = sum(1 for c in before if c.get("name") == last)
    trace = one_turn(
        ctx,
        "vector-completed-redispatched-ran",
        tools=tools,
        model=[
            calls(
                *(call(str(c.get("name")), c.get("args"), f"c{i}") for i, c in enumerate(before))
            ),
            calls(*(call(str(c.get("name")), c.get("args"), f"r{i}") for i, c in enumerate(after))),
            say("done"),
        ],
        steps=[Interrupt("after_tool_done", "time_limit", last, count), StartTurn("t1"), Wait()],
    )
    resumed = {r.id for r in continuations(trace)}
    ran = [
        {"name": e.get("tool"), "args": e.get("input")}
        for r in trace.runs()
        if r.id in resumed
        for e in (mapping(x) for x in r.side_effects)
    ]
    expected = [
        {"name": c.get("name"), "args": c.get("args")}
        for c in (mapping(x) for x in _list(run.value("ran")))
    ]
    ctx.need(
        ran == expected, f"the resumed chunk ran {show(ran)}, the example says {show(expected)}"
    )
    ctx.need(
        len(side_effects(trace)) == len(before) + len(expected),
        "the calls before the cut did not each run exactly once",
    )


def _capped(ctx: CheckContext, run: VectorRun) -> None:
    """DR-5: repeated time limits -> how many automatic continuations, and Continue."""
    cuts = int(str(mapping(run.value("cut")).get("time_limits")))
    trace = one_turn(
        ctx,
        "vector-cut-capped",
        tools=[],
        model=[say("done")],
        steps=[
            *(Interrupt("during_model_call", "time_limit") for _ in range(cuts)),
            StartTurn("t1"),
            Wait(),
        ],
    )
    final = turn(trace, "t1")
    got = {
        "automatic_continuations": len(continuations(trace, "t1", "auto_continue")),
        "continue_available": stopped_with_continue(ctx.handshake, final),
    }
    ctx.need(
        got == run.value("capped"),
        f"the turn shows {show(got)}, the example says {show(run.value('capped'))}",
    )


DR_BINDINGS = (
    Binding("DR-1", ("ledger", "journal"), ("DR-1#c3", "DR-1#c4", "DR-1#c5"), _journal),
    Binding("DR-2", ("journaled", "noted"), ("DR-2#c2", "DR-2#c3"), _noted),
    Binding("DR-2", ("journaled", "bare"), ("DR-2#c4",), _noted),
    Binding(
        "DR-3",
        ("completed", "redispatched", "ran"),
        ("DR-3#c2", "DR-3#c3", "DR-3#c4", "DR-3#c5"),
        _ran,
    ),
    Binding("DR-5", ("cut", "capped"), ("DR-5#c3", "DR-5#c5"), _capped),
)
