"""DR-1 ¶3, ¶4 across the runs of one turn: a run calls ``send_email`` and is cut after
the body ran, before its done; the run that resumes it calls the tool again, with other
input, and that call returns.  Two pairings are read from the text
(docs/interpretations.md#pairing-across-runs): the later done closes the start of its own
call, which the runtime knows from its run and its input (¶1, ¶3's "matching"), or the
oldest start of the tool name still open in the turn, the cut one (¶4 word for word, with
¶5's per-turn tally).  Either way one of the two calls is completed and the other
interrupted; anything else breaks ¶3 and ¶4.

Runtimes name their runs with identifiers of their own, often random, and a journal that
pairs across runs by comparing those identifiers pairs one way in one of their orders
and the other way in the other, where ¶4's "oldest" is the ledger's order.  So the
scenario is played again, up to :data:`PLAYS` times, until the cut run's identifier has
sorted both before and after the resumed run's, every play is judged, and every play
must pair the same way."""

from __future__ import annotations

from adapters.scenario import ClassifyLedger, StartTurn
from conformance.checks.dr_1._scenarios import ANA, BO
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
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
    "check_done_pairs_one_way_whatever_the_run_ids",
    "check_nameless_events_neither_pair_nor_reset",
]

#: At most this many plays; with random identifiers both orders show within the first
#: few, and a pairing by identifier is missed only where one order comes every time: at
#: 16 plays, 2 in 65,536 (at 8 it was 1 in 128, and the self-test saw it happen).
PLAYS = 16
CLAUSE = (
    "DR-1 ¶3, ¶4: a call with a start and a matching done is completed, one without is "
    "interrupted, and a done pairs with one open start of its tool name (its own call's, "
    "or the oldest)"
)
#: the two pairings the text allows, by what the journal then lists as completed
OWN_CALL, OLDEST_OPEN = "its own call's start", "the oldest open start of the tool name"


def _play(ctx: CheckContext, number: int) -> tuple[str, str, str | None]:
    """Play once and judge; the cut run's and the resumed run's identifiers, and how
    the done was paired (``None`` when the journal lists the calls neither way)."""
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
    # The second call has other arguments than the interrupted one: refusing it is
    # DR-4 ¶2's failure (only an identical retry is refused), charged by its own cases;
    # then no done was recorded to be paired, and nothing here can be judged.
    ctx.prerequisite(
        "DR-4#c2",
        not any(
            result.tool == "send_email" and result.disposition == "refused"
            for run in runs
            for one in run.passes
            for result in one.results
        ),
        f"the resumed run refused send_email {show(BO)}, a call with other arguments than "
        f"the interrupted send_email {show(ANA)}, so no done of it came to be paired",
    )
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
    ana, bo = ("send_email", dict(ANA)), ("send_email", dict(BO))
    # Which call the journal lists as completed (each entry by its call's tool and input;
    # the result is the done's, whichever start it closed): the start the done closed.
    # Whether the other is then listed interrupted is ¶3's classification, not pairing.
    listed = (ana in completed, bo in completed)
    pairing = {(False, True): OWN_CALL, (True, False): OLDEST_OPEN}.get(listed)
    ledger = f"(the runs: {show(runs[0].id)} cut, then {show(runs[1].id)})"
    ctx.expect(
        pairing is not None,
        f"of send_email {show(ANA)}, cut before its done, and send_email {show(BO)}, which "
        f"returned in the resumed run, the journal lists completed {show(completed)}, "
        f"interrupted {show(interrupted)} {ledger}: one of the two is completed and the "
        f"other interrupted, whichever start the done closes; {CLAUSE}",
        at=f"{at}/resume/note",
        reading="pairing-across-runs",
        clause="DR-1#c4",
    )
    if pairing is not None:
        other = ana if pairing == OWN_CALL else bo
        ctx.expect(
            other in interrupted,
            f"the journal paired the done with {pairing}, so {other[0]} {show(other[1])} has "
            f"no done of its own, and the journal does not list it interrupted (interrupted: "
            f"{show(interrupted)}) {ledger}; DR-1 ¶3: a call with a tool_start and no "
            "matching tool_done is interrupted",
            at=f"{at}/resume/note",
            clause="DR-1#c3",
        )
    return runs[0].id, runs[1].id, pairing


def _entry(raw: object) -> dict[str, object]:
    return dict(raw) if isinstance(raw, dict) else {}


@check("DR-1#c3", "DR-1#c4", through=(CONTINUES_ON_ITS_OWN,))
def check_done_pairs_one_way_whatever_the_run_ids(ctx: CheckContext) -> None:
    """A call cut before its done and a later call of the same tool that returned: one
    is completed and the other interrupted, and the journal pairs the same way whichever
    way the two runs' identifiers sort."""
    orders: dict[bool, str | None] = {}
    for number in range(PLAYS):
        cut_run, resumed_run, pairing = _play(ctx, number)
        orders.setdefault(cut_run < resumed_run, pairing)
        if len(orders) == 2:
            break
    ways = {way for way in orders.values() if way is not None}
    ctx.expect(
        len(ways) <= 1,
        "the journal paired the resumed run's done with "
        + " in one play and with ".join(sorted(ways))
        + " in another, as the two runs' identifiers sorted one way or the other; DR-1 ¶4: "
        "the oldest open start is the oldest in the ledger, however its runs are named",
        clause="DR-1#c4",
        reading="pairing-across-runs",
    )


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
