"""DR-2's examples as vectors: the journal at the cut, and what the resume prompt tells the
model (read from ``model_inputs``: a call named by its tool and the values of its input,
a short result by its values)."""

from __future__ import annotations

from adapters.scenario import Interrupt, Reply, StartTurn, Step, Tool, Wait
from conformance.checks.dr_2._prompt import appended
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
    LEDGER_RECORDS_RETURNS,
    NOTE_AFTER_THE_NUDGE,
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    call,
    calls,
    leaves,
    located_continuations,
    mapping,
    names_call,
    nudge,
    one_turn,
    output,
    resume_prompt,
    say,
    show,
    shows,
    tool,
    unnamed,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of DR-2's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("DR-2", "journaled"): "input",
    ("DR-2", "noted"): "outcome",
    ("DR-2", "bare"): "outcome",
}


def _entry_tools(entries: list[object], results: dict[str, object]) -> list[Tool]:
    names = dict.fromkeys(str(mapping(e).get("tool")) for e in entries)
    return [tool(name, output(results.get(name, "done")), schema={}) for name in names]


def _noted(ctx: CheckContext, run: VectorRun) -> None:
    """DR-2: the journal at the cut -> what the resume prompt tells the model.  Completed
    calls run first, the interrupted one (at most one) is cut after its body; with nothing
    interrupted the run is cut in its next model call."""
    journaled = mapping(run.value("journaled"))
    completed = [mapping(e) for e in array(journaled.get("completed"))]
    interrupted = [mapping(e) for e in array(journaled.get("interrupted"))]
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
    # Each difference is charged to the clause whose words it breaks: a completed call or
    # its short result to ¶2, an interrupted call to ¶3.
    for kind, clause, cited in (("completed", "DR-2#c2", "¶2"), ("interrupted", "DR-2#c3", "¶3")):
        for entry in (mapping(e) for e in array(expected.get(kind))):
            name, args = str(entry.get("tool")), entry.get("input")
            if not ctx.expect(
                names_call(prompt.note, name, args),
                f"{unnamed(prompt, f'the {kind} call {name} {show(args)}')}, which the "
                f"example's note reports (DR-2 {cited})",
                at=where,
                reading="right-after-the-nudge",
                clause=clause,
            ):
                continue
            shown = [leaf for leaf in leaves(entry.get("result")) if leaf not in ("", None)]
            ctx.expect(
                all(shows(prompt.note, leaf) for leaf in shown),
                f"the note names {name} {show(args)} but not its result "
                f"{show(entry.get('result'))}, which the example's note reports (DR-2 ¶2)",
                at=where,
                reading="short-result",
                clause="DR-2#c2",
            )


#: the vectors wait for the turn cut by its time limit to continue on its own
WAITED_ON = (CONTINUES_ON_ITS_OWN,)

BINDINGS = (
    Binding(
        "DR-2",
        ("journaled", "noted"),
        ("DR-2#c2", "DR-2#c3"),
        _noted,
        # a completed call's short result is the one its tool_done carries; what the note
        # names is read right after the nudge, where ¶1 puts it
        through=(*WAITED_ON, LEDGER_RECORDS_RETURNS.judging("DR-2#c2"), NOTE_AFTER_THE_NUDGE),
    ),
    Binding("DR-2", ("journaled", "bare"), ("DR-2#c4",), _noted, through=WAITED_ON),
)
