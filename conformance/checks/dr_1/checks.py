"""DR-1's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.dr_1`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adapters.scenario import ClassifyLedger
from adapters.trace import Trace
from conformance.checks.dr_1._ledger import Tally, done, expect_journal, start, tally, turn_ledger
from conformance.checks.dr_1._pairing import (
    check_done_pairs_one_way_whatever_the_run_ids,
    check_nameless_events_neither_pair_nor_reset,
)
from conformance.checks.dr_1._scenarios import (
    CLASSIFIED,
    CLEARED,
    PAIRED,
    READS,
    RECORDINGS,
    JournalRead,
    Probe,
    Recording,
)
from conformance.toolkit import (
    CheckContext,
    check,
    leaves,
    listing,
    located_side_effects,
    one_turn,
    plural,
    pointers,
    scenario,
    show,
    tools,
)

CLAUSE_1 = (
    "DR-1 ¶1 records a tool_start before a tool runs and a tool_done, carrying its name, "
    "input and result, once it returned"
)


def _stray_done(
    events: Sequence[tuple[str, dict[str, object]]], counted: Tally, after: int
) -> tuple[str, dict[str, object]] | None:
    """The first done after position ``after`` that closed no start (a done whose tool name
    is missing or wrong pairs with nothing)."""
    return next((events[p] for p in counted.stray if p > after), None)


def _expect_done(
    ctx: CheckContext, at: str, event: Mapping[str, object], tool: str, args: object, out: object
) -> None:
    """``event`` (the done of a call of ``tool`` with input ``args``) carries the tool's
    name, that input and a result holding what the tool returned (``out``)."""
    if "tool" not in event or event.get("tool") != tool:
        named = (
            "carries no tool name"
            if "tool" not in event
            else (f"carries tool name {show(event.get('tool'))}")
        )
        ctx.expect(False, f"the tool_done after {tool}'s tool_start {named}; {CLAUSE_1}", at=at)
    got = event.get("input")
    # A null input is no input, unless the call's input was null.
    if "input" not in event or (got is None and args is not None):
        ctx.expect(False, f"the tool_done of {tool} carries no input; {CLAUSE_1}", at=at)
    else:
        ctx.expect(
            got == args,
            f"the tool_done of {tool} carries input {show(got)}, not its tool_start's input "
            f"{show(args)}; {CLAUSE_1}",
            at=at,
        )
    result = event.get("result")
    if result is None:
        absent = "no result" if "result" not in event else "no result (null)"
        ctx.expect(False, f"the tool_done of {tool} carries {absent}; {CLAUSE_1}", at=at)
        return
    missing = [leaf for leaf in leaves(out) if not pointers(result, leaf)]
    ctx.expect(
        not missing,
        f"the tool_done of {tool} carries result {show(result)}, which holds nothing of what "
        f"the tool returned, {show(out)}; {CLAUSE_1}",
        at=at,
    )


@check("DR-1#c1", variants=RECORDINGS)
def check_start_before_and_done_after(ctx: CheckContext, variant: Recording) -> None:
    """Every call of the turn gets a `tool_start` before its body runs (a cut before the
    body leaves the start, and no side effect) and, once it returned, a `tool_done`
    carrying the tool's name, the input and the result."""
    trace = one_turn(
        ctx,
        "dr1-c1-recording",
        tools=tools(tickets=variant.tickets),
        model=variant.model,
        steps=list(variant.steps),
    )
    events = turn_ledger(ctx, trace)
    counted = tally([event for _, event in events])
    used: set[int] = set()
    for at, effect in located_side_effects(trace):
        tool, args, call_id = effect.get("tool"), effect.get("input"), effect.get("tool_call_id")
        begun = next(
            (
                p
                for p, (_, e) in enumerate(events)
                if p not in used
                and e.get("event") == "tool_start"
                and e.get("tool") == tool
                and e.get("input") == args
            ),
            None,
        )
        if not ctx.expect(
            begun is not None,
            f"the body of {tool} {show(args)} ran (at {at}), and the ledger (at /ledger) "
            f"holds no tool_start of {tool} with that input; {CLAUSE_1}",
            at=at,
        ):
            continue
        assert begun is not None
        used.add(begun)
        closing = counted.pairs.get(begun)
        if closing is None:
            stray = _stray_done(events, counted, begun)
            if stray is not None:  # a done with no (or the wrong) tool name closes nothing
                _expect_done(
                    ctx, stray[0], stray[1], str(tool), args, variant.outputs.get(str(call_id))
                )
                continue
            ctx.expect(
                False,
                f"{tool} {show(args)} returned (its body at {at}), and no tool_done closes its "
                f"tool_start (at {events[begun][0]}); {CLAUSE_1}",
                at=events[begun][0],
            )
            continue
        _expect_done(ctx, *events[closing], str(tool), args, variant.outputs.get(str(call_id)))
    if variant.cut_before is not None:
        _expect_cut_before(ctx, trace, events, used, variant.cut_before)


def _expect_cut_before(
    ctx: CheckContext,
    trace: Trace,
    events: Sequence[tuple[str, dict[str, object]]],
    used: set[int],
    call_id: str,
) -> None:
    """The call cut before its body ran left a start, and no body."""
    bodies = [
        at for at, effect in located_side_effects(trace) if effect.get("tool_call_id") == call_id
    ]
    ctx.expect(
        not bodies,
        f"call {call_id}, cut before its body ran, ran anyway (at {listing(bodies)})",
        at=bodies[0] if bodies else None,
    )
    left = [
        at for p, (at, e) in enumerate(events) if p not in used and e.get("event") == "tool_start"
    ]
    ctx.expect(
        bool(left),
        f"call {call_id} was cut after it began and before its body ran, and the ledger "
        f"(at /ledger) holds no tool_start for it; {CLAUSE_1}",
        at="/ledger",
    )


def _unmatched(
    recorded: Sequence[tuple[str, dict[str, object]]], bodies: Sequence[Mapping[str, object]]
) -> list[tuple[str, dict[str, object]]]:
    """The recorded events with no body of the same tool and input to account for them."""
    left = [(b.get("tool"), b.get("input")) for b in bodies]
    out = []
    for at, event in recorded:
        key = (event.get("tool"), event.get("input"))
        if key in left:
            left.remove(key)
        else:
            out.append((at, event))
    return out


@check("DR-1#c2", variants=READS)
def check_journal_adds_no_recording(ctx: CheckContext, variant: JournalRead) -> None:
    """Reading the journal (each time a chunk resumes), and answering or refusing a call
    from it, neither adds to nor alters the ledger: one start per body that ran, one done
    per body that returned."""
    trace = one_turn(
        ctx,
        "dr1-c2-pure-read",
        tools=tools(),
        model=variant.model,
        steps=list(variant.steps),
    )
    events = turn_ledger(ctx, trace)
    counted = tally([event for _, event in events])
    bodies = [effect for _, effect in located_side_effects(trace)]
    closes = {done_at: start_at for start_at, done_at in counted.pairs.items()}
    # A done is the call of the start it closes (a done recorded without its input is
    # DR-1 ¶1's concern, not this clause's).
    dones = [
        (at, {**e, "input": events[closes[p]][1].get("input")} if p in closes else e)
        for p, (at, e) in enumerate(events)
        if e.get("event") == "tool_done"
    ]
    live = [
        events[p]
        for p, (_, e) in enumerate(events)
        if e.get("event") == "tool_start" and p not in counted.cleared
    ]
    clause = "DR-1 ¶2: the journal is a pure read, and answering a call from it records nothing"
    ran = "1 tool body" if len(bodies) == 1 else f"{len(bodies)} tool bodies"
    for kind, recorded in (("tool_done", dones), ("tool_start", live)):
        for at, event in _unmatched(recorded, bodies):
            ctx.expect(
                False,
                f"the ledger holds a {kind} of {event.get('tool')} {show(event.get('input'))} "
                f"with no body of that call behind it ({ran} ran in all); {clause}",
                at=at,
            )
    returned = len(bodies) - variant.unreturned
    ctx.expect(
        len(dones) <= returned,
        f"{returned} of the {ran} returned, and the ledger holds "
        f"{plural(len(dones), 'tool_done event')} (at {listing([at for at, _ in dones])}); "
        f"{clause}",
        at="/ledger",
    )
    if variant.probe:
        ledger = (start("t", 1), done("t", "r"), start("t", 2))
        again = [
            ctx.run(scenario(f"dr1-c2-probe-{i}", steps=[ClassifyLedger(ledger)])).steps[0].journal
            for i in range(2)
        ]
        ctx.expect(
            again[0] == again[1],
            f"one ledger, classified twice, gave {show(again[0])}, then {show(again[1])} (at "
            "/steps/0/journal); DR-1 ¶2: the journal is a pure read over the ledger",
            at="/steps/0/journal",
        )


def _judge_probe(
    ctx: CheckContext,
    name: str,
    probe: Probe,
    clause: str,
    charged: Mapping[str, str | None] | None = None,
) -> None:
    """Classify ``probe``'s ledger and judge the journal; ``charged`` says which kinds of
    difference are this check's (:func:`expect_journal`)."""
    trace = ctx.run(scenario(name, steps=[ClassifyLedger(probe.events)]))
    expect_journal(
        ctx,
        trace.steps[0].journal,
        probe.completed,
        probe.interrupted,
        at="/steps/0/journal",
        clause=f"{clause} (the ledger: {show(list(probe.events), 600)})",
        ledger=[dict(event) for event in probe.events],
        charged=charged,
    )


@check("DR-1#c3", variants=CLASSIFIED)
def check_completed_and_interrupted(ctx: CheckContext, variant: Probe) -> None:
    """A start with a matching done is completed, whatever its result; a start without one
    is interrupted."""
    _judge_probe(
        ctx,
        "dr1-c3-classify",
        variant,
        "DR-1 ¶3: a call with a tool_start and a matching tool_done is completed, one "
        "without is interrupted",
        # Which start a done closes is ¶4's, and what a clear resets ¶5's.
        {"classified": "DR-1#c3", "unlisted": "DR-1#c3"},
    )


@check("DR-1#c4", variants=PAIRED)
def check_done_pairs_fifo_per_tool(ctx: CheckContext, variant: Probe) -> None:
    """A done pairs with the oldest still-open start of the same tool name."""
    _judge_probe(
        ctx,
        "dr1-c4-fifo",
        variant,
        "DR-1 ¶4: a tool_done pairs with the oldest still-open tool_start of the same tool name",
        # An interrupted call left out of the journal altogether was paired with nothing:
        # that is ¶3's classification, not this pairing.
        {"paired": "DR-1#c4", "classified": "DR-1#c4", "cleared": "DR-1#c4"},
    )


@check("DR-1#c5", variants=CLEARED)
def check_clear_resets_open_calls(ctx: CheckContext, variant: Probe) -> None:
    """After a `clear`, no call left open before it is interrupted, and no later done pairs
    with one; calls completed before it stay completed."""
    _judge_probe(
        ctx,
        "dr1-c5-clear",
        variant,
        "DR-1 ¶5: a clear resets the tally of open calls, so an abandoned partial leaves no "
        "phantom interrupted call",
    )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_start_before_and_done_after,
    check_journal_adds_no_recording,
    check_completed_and_interrupted,
    check_done_pairs_fifo_per_tool,
    check_clear_resets_open_calls,
    check_done_pairs_one_way_whatever_the_run_ids,
    check_nameless_events_neither_pair_nor_reset,
)
