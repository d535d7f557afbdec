"""DR-1 ¶3, ¶4 across the runs of one turn.  A ``tool_done`` carries its call's input
(¶1), so the done that completes a call is the one whose run started it: a start left
open by a run that was cut stays interrupted when a later run calls the same tool with
other input, and the later call is the one completed.

Runtimes name their runs with identifiers of their own, often random, and a journal that
pairs across runs by comparing those identifiers goes wrong in only one of their two
orders.  So the scenario is played again, up to :data:`PLAYS` times, until the cut run's
identifier has sorted both before and after the resumed run's, and every play is
judged."""

from __future__ import annotations

from adapters.scenario import ClassifyLedger, StartTurn
from conformance.toolkit import (
    ANA,
    BO,
    CheckContext,
    Untested,
    calls,
    check,
    cut,
    located_continuations,
    located_runs,
    one_turn,
    output,
    resume,
    say,
    scenario,
    send,
    show,
    tools,
)

__all__ = [
    "check_done_pairs_within_the_run_that_started_it",
    "check_nameless_events_neither_pair_nor_reset",
]

#: At most this many plays; with random identifiers both orders show within the first
#: few (the chance of one order eight times running is under 1%).
PLAYS = 8
CLAUSE = (
    "DR-1 ¶3, ¶4: a start with no matching tool_done (the done carries its call's input) "
    "is interrupted, and a tool_done completes the still-open start of its own call"
)


def _play(ctx: CheckContext, number: int) -> tuple[str, str] | None:
    """Play once and judge; the cut run's and the resumed run's identifiers."""
    trace = one_turn(
        ctx,
        f"dr1-c4-across-runs-{number}",
        tools=tools(sends=(output("sent to ana"), output("sent to bo"))),
        model=[calls(send(ANA, "c1")), calls(send(BO, "c2")), say("done")],
        steps=[
            cut("after_tool_body", on="send_email"),
            cut("after_tool_done", on="send_email"),
            StartTurn("t1"),
            resume(ctx, "time_limit"),
            resume(ctx, "time_limit"),
        ],
    )
    runs = [run for _, run in located_runs(trace) if run.turn == "t1"]
    resumed = located_continuations(trace)
    ctx.need(
        len(resumed) >= 2 and len(runs) >= 3,
        f"turn t1 was cut twice and resumed {len(resumed)} times, expected 2; DR-2 ¶1 "
        "resumes a run cut by its time limit",
        reading="resumable-causes",
    )
    at, last = resumed[-1]
    note = last.resume.note if last.resume is not None else None
    if note is None:
        raise Untested("the run resumed after the second cut reports no journal note")
    completed = [(e.get("tool"), e.get("input")) for e in map(_entry, note.completed)]
    interrupted = [(e.get("tool"), e.get("input")) for e in map(_entry, note.interrupted)]
    ledger = f"(the runs: {show(runs[0].id)} cut, then {show(runs[1].id)})"
    ctx.expect(
        ("send_email", dict(ANA)) in interrupted and ("send_email", dict(ANA)) not in completed,
        f"the journal lists send_email {show(ANA)}, whose run was cut before its done, as "
        f"completed {show(completed)}, interrupted {show(interrupted)} {ledger}; {CLAUSE}",
        at=f"{at}/resume/note",
    )
    ctx.expect(
        ("send_email", dict(BO)) in completed and ("send_email", dict(BO)) not in interrupted,
        f"the journal lists send_email {show(BO)}, which returned in the resumed run, as "
        f"completed {show(completed)}, interrupted {show(interrupted)} {ledger}; {CLAUSE}",
        at=f"{at}/resume/note",
    )
    return runs[0].id, runs[1].id


def _entry(raw: object) -> dict[str, object]:
    return dict(raw) if isinstance(raw, dict) else {}


@check("DR-1#c3", "DR-1#c4")
def check_done_pairs_within_the_run_that_started_it(ctx: CheckContext) -> None:
    """A call cut before its done stays interrupted when a later run calls the same tool
    with other input; that later call is the completed one, whichever way the two runs'
    identifiers sort."""
    orders: set[bool] = set()
    for number in range(PLAYS):
        played = _play(ctx, number)
        if played is not None:
            orders.add(played[0] < played[1])
        if len(orders) == 2:
            return


#: A start, then a done and a start that name no tool, then the start's own done.
NAMELESS = (
    {"event": "tool_start", "tool": "send_email", "input": dict(ANA)},
    {"event": "tool_done", "result": "nameless"},
    {"event": "tool_start", "input": dict(BO)},
    {"event": "tool_done", "tool": "send_email", "result": "sent"},
)


@check("DR-1#c4", "DR-1#c5")
def check_nameless_events_neither_pair_nor_reset(ctx: CheckContext) -> None:
    """Only a `clear` resets the open calls, and a done pairs only with a start of its
    own tool name: a done and a start that name no tool, between a start and its done,
    leave that call to be completed by its done."""
    trace = ctx.run(scenario("dr1-c5-nameless-events", steps=[ClassifyLedger(NAMELESS)]))
    journal = trace.steps[0].journal
    listed = journal.get("completed") if isinstance(journal, dict) else None
    completed = [_entry(e) for e in listed] if isinstance(listed, list) else []
    ctx.expect(
        any(
            e.get("tool") == "send_email" and e.get("input") == ANA and e.get("result") == "sent"
            for e in completed
        ),
        f"the journal of the ledger {show(list(NAMELESS), 400)} lists completed "
        f'{show(completed)}, without send_email {show(ANA)} -> "sent"; DR-1 ¶5: only a '
        "clear resets the open calls, and ¶4: a done pairs with a start of the same tool "
        "name",
        at="/steps/0/journal",
    )
