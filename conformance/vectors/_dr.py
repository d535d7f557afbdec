"""Vector bindings for the durable-resume rules.

They judge as the checks do: a journal's lists in any order, what the model was told read
from ``model_inputs`` (a call named by its tool and the values of its input, a short result
by its values), and the calls that ran counted, not ordered.
"""

from __future__ import annotations

import json

from adapters.scenario import ClassifyLedger, Interrupt, Reply, StartTurn, Step, Tool, Wait
from conformance.checks import CheckContext
from conformance.checks._common import mapping, one_turn, show
from conformance.checks._durable import located_continuations, nudge
from conformance.checks._ledger import expect_journal
from conformance.checks._states import stopped_with_continue
from conformance.checks._told import (
    appended,
    leaves,
    names_call,
    resume_prompt,
    shows,
    unnamed,
)
from conformance.scenarios import call, calls, output, say, scenario, tool
from conformance.traces import located_side_effects, turn, turn_pointer
from conformance.vectors._binding import Binding, VectorRun

__all__ = ["DR_BINDINGS"]


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _journal(ctx: CheckContext, run: VectorRun) -> None:
    """DR-1: a ledger -> the journal the implementation derives from it."""
    events = tuple(_list(run.value("ledger")))
    trace = ctx.run(scenario("vector-ledger-journal", steps=[ClassifyLedger(events)]))
    expected = mapping(run.value("journal"))
    completed = [mapping(e) for e in _list(expected.get("completed"))]
    interrupted = [mapping(e) for e in _list(expected.get("interrupted"))]
    expect_journal(
        ctx,
        trace.steps[0].journal,
        [(str(e.get("tool")), e.get("input"), e.get("result")) for e in completed],
        [(str(e.get("tool")), e.get("input")) for e in interrupted],
        at="/steps/0/journal",
        clause=f"the example's journal is {show(run.value('journal'))} (DR-1 ¶3-¶5)",
    )


def _entry_tools(entries: list[object], results: dict[str, object]) -> list[Tool]:
    names = dict.fromkeys(str(mapping(e).get("tool")) for e in entries)
    return [tool(name, output(results.get(name, "done")), schema={}) for name in names]


def _noted(ctx: CheckContext, run: VectorRun) -> None:
    """DR-2: the journal at the cut -> what the resume prompt tells the model.  Completed
    calls run first, the interrupted one (at most one) is cut after its body; with nothing
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
    resumed = located_continuations(trace)
    ctx.need(bool(resumed), "the turn did not resume after its time limit", at="/steps/2")
    at, first = resumed[0]
    text = nudge(ctx)
    prompt = resume_prompt(first, text)
    ctx.need(
        prompt is not None,
        f"the resumed run's first model input holds no message with the nudge {show(text)}",
        at=f"{at}/model_inputs/0/messages",
    )
    assert prompt is not None
    where = f"{at}/model_inputs/0/messages/{prompt.index}"
    if run.has("bare"):
        extra = appended(trace, first, prompt)
        ctx.expect(
            prompt.message == text and not extra,
            f"the resume prompt reads {show(prompt.message, 160)}, followed by {len(extra)} new "
            f"messages; the example says nothing is appended, so it is exactly the nudge "
            f"{show(text)} (DR-2 ¶4)",
            at=where,
            reading="right-after-the-nudge",
        )
        return
    expected = mapping(run.value("noted"))
    for kind in ("completed", "interrupted"):
        for entry in (mapping(e) for e in _list(expected.get(kind))):
            name, args = str(entry.get("tool")), entry.get("input")
            if not ctx.expect(
                names_call(prompt.note, name, args),
                f"{unnamed(prompt, f'the {kind} call {name} {show(args)}')}, which the "
                "example's note reports (DR-2 ¶2, ¶3)",
                at=where,
                reading="right-after-the-nudge",
            ):
                continue
            shown = [leaf for leaf in leaves(entry.get("result")) if leaf not in ("", None)]
            ctx.expect(
                all(shows(prompt.note, leaf) for leaf in shown),
                f"the note names {name} {show(args)} but not its result "
                f"{show(entry.get('result'))}, which the example's note reports (DR-2 ¶2)",
                at=where,
                reading="short-result",
            )


def _key(name: object, args: object) -> str:
    return json.dumps([name, args], sort_keys=True, ensure_ascii=False, default=str)


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
    resumed = {at for at, _ in located_continuations(trace)}
    effects = located_side_effects(trace)
    ran = sorted(
        _key(e.get("tool"), e.get("input")) for at, e in effects if at.rsplit("/", 2)[0] in resumed
    )
    expected = sorted(
        _key(c.get("name"), c.get("args")) for c in (mapping(x) for x in _list(run.value("ran")))
    )
    ctx.expect(
        ran == expected,
        f"the resumed chunk ran {show([json.loads(k) for k in ran])}; the example says "
        f"{show([json.loads(k) for k in expected])} (DR-3 ¶2-¶5)",
        at=next(iter(sorted(resumed)), None),
    )
    earlier = [at for at, _ in effects if at.rsplit("/", 2)[0] not in resumed]
    ctx.expect(
        len(earlier) == len(before),
        f"before the cut {len(earlier)} tool bodies ran, where the example completed "
        f"{len(before)} calls",
        at=earlier[0] if earlier else None,
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
        "automatic_continuations": len(located_continuations(trace, "t1", ("auto_continue",))),
        "continue_available": stopped_with_continue(ctx.handshake, final),
    }
    ctx.expect(
        got == run.value("capped"),
        f"the turn shows {show(got)}, the example says {show(run.value('capped'))} (DR-5 ¶3, ¶5)",
        at=turn_pointer(trace, "t1"),
        reading="stopped-with-continue",
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
