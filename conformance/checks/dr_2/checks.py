"""DR-2's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.dr_2`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from adapters.scenario import Answer, FailLedgerRead, Interrupt, Restart, Return, StartTurn, Step
from adapters.trace import RunRecord, Trace
from conformance.checks.dr_2._calls import ANA, TICKET
from conformance.checks.dr_2._long import (
    check_note_keeps_a_long_results_key_value,
)
from conformance.checks.dr_2._prompt import SHORT, appended
from conformance.checks.dr_2._short_whole import check_short_result_not_marked_cut
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
    LEDGER_RECORDS_RETURNS,
    NOTE_AFTER_THE_NUDGE,
    CheckContext,
    ResumePrompt,
    Untested,
    ask,
    call,
    calls,
    check,
    cut,
    describe,
    failure,
    in_state,
    leaves,
    located_continuations,
    located_runs,
    names_call,
    nudge,
    one_turn,
    output,
    plural,
    resume,
    resume_prompt,
    say,
    send,
    show,
    shows,
    text_of,
    ticket,
    tools,
    turn,
    turn_pointer,
    unnamed,
)

ZOE = {"to": "zoë@example.com", "subject": 'Grüße ✓ "quoted" \\ back'}
NESTED = {"title": "Imprimante bloquée", "meta": {"étage": "2ᵉ", "tags": ["urgent", "ops"]}}
#: 40 bytes of UTF-8 (30 characters): the longest result the note must show whole.
AT_THE_BOUND = "résumé—naïve—façade✓ 10 bytes!"


@dataclass(frozen=True)
class Resumed:
    """A turn cut (``cuts``, armed before it starts), then resumed: each model reply of
    ``batches`` calls tools, in the turn's first run and in the chunks after each cut;
    ``completed`` and ``interrupted`` are what the last resumed run's journal holds
    (tool, input, and for a completed call what its tool returned)."""

    batches: tuple[tuple[dict[str, object], ...], ...]
    cuts: tuple[Interrupt, ...]
    completed: tuple[tuple[str, object, object], ...] = ()
    interrupted: tuple[tuple[str, object], ...] = ()
    restart: bool = False
    sends: tuple[Return, ...] = ()
    tickets: tuple[Return, ...] = ()
    failed_reads: int = 0
    #: the last resumed chunk asks the operator a question; the ``failed_reads`` are armed
    #: once it paused, so they fail as the answer carries the chunk on
    question: bool = False


def _play(
    ctx: CheckContext,
    name: str,
    shape: Resumed,
    clause: str = "DR-2 ¶1: the run that resumes after such a cut is given the note",
) -> tuple[Trace, str, RunRecord]:
    """Play ``shape``; the last run that resumed the turn, and its pointer."""
    trace = _played(ctx, name, shape)
    resumed = located_continuations(trace)
    cuts = [at for at, run in located_runs(trace) if run.end == "interrupted"]
    ctx.need(
        len(resumed) >= len(shape.cuts),
        f"turn t1 was cut {plural(len(cuts), 'time')} (at {', '.join(cuts) or 'nowhere'}) and "
        f"resumed {plural(len(resumed), 'time')}, expected {len(shape.cuts)}; {clause}",
        at=cuts[-1] if cuts else None,
        reading="resumable-causes",
    )
    at, run = resumed[-1]
    return trace, at, run


def _played(ctx: CheckContext, name: str, shape: Resumed) -> Trace:
    """The trace of ``shape``: its cuts armed, the turn started, and resumed after each."""
    steps: list[Step] = [*shape.cuts, StartTurn("t1")]
    if shape.failed_reads and not shape.question:
        steps.insert(0, FailLedgerRead(shape.failed_reads))
    if shape.restart:
        steps.append(Restart())
    steps += [resume(ctx, one.cause) for one in shape.cuts]
    model = [calls(*batch) for batch in shape.batches]
    if shape.question:
        model.append(ask("Which address should the summary go to?"))
        steps += [FailLedgerRead(shape.failed_reads)] if shape.failed_reads else []
        steps.append(Answer("t1"))
    return one_turn(
        ctx,
        name,
        tools=tools(sends=shape.sends, tickets=shape.tickets),
        model=[*model, say("done")],
        steps=steps,
    )


def _prompt(ctx: CheckContext, at: str, run: RunRecord) -> ResumePrompt:
    """The resume prompt of the resumed run at ``at``; the check ends without one."""
    text = nudge(ctx)
    found = resume_prompt(run, text)
    if found is None:
        ctx.fail(
            f"the resumed run's first model input holds no message with the declared nudge "
            f"{show(text)}; DR-2 ¶1 appends the note to the resume prompt, right after the "
            "nudge",
            at=f"{at}/model_inputs/0/messages" if run.model_inputs else at,
        )
    return found


def _note_at(at: str, prompt: ResumePrompt) -> str:
    index = prompt.index if prompt.note_index is None else prompt.note_index
    return f"{at}/model_inputs/0/messages/{index}"


def _elsewhere(prompt: ResumePrompt, tool: str, args: object) -> str:
    """Where else the prompt names a call, for a message about a note that does not."""
    if names_call(prompt.before, tool, args):
        return "; it is named before the nudge, in the nudge's own message"
    others = [
        i
        for i, m in enumerate(prompt.messages)
        if i not in (prompt.index, prompt.note_index) and names_call(text_of(m), tool, args)
    ]
    return f"; it is named in message {others[0]} instead" if others else ""


PLACES: dict[str, Resumed] = {
    cause.replace("_", "-"): Resumed(
        ((send(ANA, "c1"), ticket(TICKET, "c2")),),
        (cut("after_tool_done", cause, "create_ticket"),),
        (("send_email", ANA, "sent"), ("create_ticket", TICKET, "T-1")),
    )
    for cause in ("time_limit", "gateway_timeout", "transport_error")
} | {
    "second-cut": Resumed(
        ((send(ANA, "c1"),), (ticket(TICKET, "c2"),)),
        (cut("after_tool_done", on="send_email"), cut("after_tool_done", on="create_ticket")),
        (("send_email", ANA, "sent"), ("create_ticket", TICKET, "T-1")),
    ),
    "after-a-restart": Resumed(
        ((send(ANA, "c1"), ticket(TICKET, "c2")),),
        (cut("after_tool_done", on="create_ticket"),),
        (("send_email", ANA, "sent"), ("create_ticket", TICKET, "T-1")),
        restart=True,
    ),
}


@check("DR-2#c1", variants=PLACES, through=(CONTINUES_ON_ITS_OWN,))
def check_note_right_after_nudge(ctx: CheckContext, variant: Resumed) -> None:
    """After a soft timeout, a gateway timeout or a resumable transport error, the resumed
    run's prompt carries the note right after the nudge."""
    _, at, run = _play(ctx, "dr2-c1-placed", variant)
    prompt = _prompt(ctx, at, run)
    tool, args, _ = variant.completed[-1]
    ctx.expect(
        any(names_call(prompt.note, t, a) for t, a, _ in variant.completed),
        f"{unnamed(prompt, f'any call the turn completed ({tool} {show(args)}, …)')}"
        f"{_elsewhere(prompt, tool, args)}; DR-2 ¶1 appends the journal note right after the "
        "nudge",
        at=_note_at(at, prompt),
        reading="right-after-the-nudge",
    )


def _short(value: object) -> bool:
    """Whether a result value is short already (the note shows it whole)."""
    text = value if isinstance(value, str) else show(value, 10_000)
    return len(text.encode("utf-8")) <= SHORT


RESULTS: dict[str, Resumed] = {
    "string-results": PLACES["time-limit"],
    "map-and-failed-results": Resumed(
        ((send(ANA, "c1"), ticket(TICKET, "c2")),),
        (cut("after_tool_done", on="create_ticket"),),
        (
            ("send_email", ANA, "mailbox full"),
            ("create_ticket", TICKET, {"id": "T-7", "queue": "ops"}),
        ),
        sends=(failure("mailbox full"),),
        tickets=(output({"id": "T-7", "queue": "ops"}),),
    ),
    "non-ascii": Resumed(
        ((send(ZOE, "c1"),),),
        (cut("after_tool_done", on="send_email"),),
        (("send_email", ZOE, "envoyé à Zoë ✓"),),
        sends=(output("envoyé à Zoë ✓"),),
    ),
    "empty-result": Resumed(
        ((ticket(TICKET, "c1"),),),
        (cut("after_tool_done", on="create_ticket"),),
        (("create_ticket", TICKET, ""),),
        tickets=(output(""),),
    ),
    "result-at-the-bound": Resumed(
        ((ticket(TICKET, "c1"),),),
        (cut("after_tool_done", on="create_ticket"),),
        (("create_ticket", TICKET, AT_THE_BOUND),),
        tickets=(output(AT_THE_BOUND),),
    ),
    "earlier-chunks": PLACES["second-cut"],
}


@check(
    "DR-2#c2",
    variants=RESULTS,
    through=(CONTINUES_ON_ITS_OWN, LEDGER_RECORDS_RETURNS, NOTE_AFTER_THE_NUDGE),
)
def check_note_names_completed_with_results(ctx: CheckContext, variant: Resumed) -> None:
    """The note names each completed call, with a short result."""
    _, at, run = _play(ctx, "dr2-c2-completed", variant)
    prompt = _prompt(ctx, at, run)
    where = _note_at(at, prompt)
    for tool, args, out in variant.completed:
        if not ctx.expect(
            names_call(prompt.note, tool, args),
            f"{unnamed(prompt, f'the completed call {tool} {show(args)}')}"
            f"{_elsewhere(prompt, tool, args)}; DR-2 ¶2 names each call that already completed",
            at=where,
            reading="right-after-the-nudge",
        ):
            continue
        unseen = [
            leaf
            for leaf in leaves(out)
            if leaf not in ("", None) and _short(leaf) and not shows(prompt.note, leaf)
        ]
        ctx.expect(
            not unseen,
            f"the note names {tool} {show(args)} but shows no {show(unseen[0] if unseen else '')} "
            f"of its result {show(out)}; DR-2 ¶2 names each completed call with a short "
            "result",
            at=where,
            reading="short-result",
        )


INTERRUPTIONS: dict[str, Resumed] = {
    "cut-after-the-body": Resumed(
        ((send(ANA, "c1"), ticket(TICKET, "c2")),),
        (cut("after_tool_body", on="create_ticket"),),
        interrupted=(("create_ticket", TICKET),),
    ),
    "cut-before-the-body": Resumed(
        ((send(ANA, "c1"), ticket(TICKET, "c2")),),
        (cut("before_tool_body", on="create_ticket"),),
        interrupted=(("create_ticket", TICKET),),
    ),
    "two-chunks-ago": Resumed(
        ((ticket(TICKET, "c1"),), (call("lookup", {"id": 7}, "c2"),)),
        (cut("after_tool_body", on="create_ticket"), cut("after_tool_done", on="lookup")),
        interrupted=(("create_ticket", TICKET),),
    ),
    "nested-non-ascii-input": Resumed(
        ((ticket(NESTED, "c1"),),),
        (cut("after_tool_body", on="create_ticket"),),
        interrupted=(("create_ticket", NESTED),),
    ),
    # "each call": two calls cut in two chunks, both named by the third chunk's note
    "one-in-each-of-two-chunks": Resumed(
        ((ticket(TICKET, "c1"),), (send(ANA, "c2"),)),
        (cut("after_tool_body", on="create_ticket"), cut("after_tool_body", on="send_email")),
        interrupted=(("create_ticket", TICKET), ("send_email", ANA)),
    ),
}


@check("DR-2#c3", variants=INTERRUPTIONS, through=(CONTINUES_ON_ITS_OWN, NOTE_AFTER_THE_NUDGE))
def check_note_names_interrupted(ctx: CheckContext, variant: Resumed) -> None:
    """The note names each interrupted call, whose outcome is unknown."""
    _, at, run = _play(ctx, "dr2-c3-interrupted", variant)
    prompt = _prompt(ctx, at, run)
    for tool, args in variant.interrupted:
        ctx.expect(
            names_call(prompt.note, tool, args),
            f"{unnamed(prompt, f'the interrupted call {tool} {show(args)}')}"
            f"{_elsewhere(prompt, tool, args)}; DR-2 ¶3 names each call that was interrupted, "
            "whose outcome is unknown",
            at=_note_at(at, prompt),
            reading="right-after-the-nudge",
        )


BARE: dict[str, Resumed] = {
    "no-tool-activity": Resumed((), (cut("during_model_call"),)),
    "cut-twice": Resumed((), (cut("during_model_call"), cut("during_model_call"))),
    "after-a-restart": Resumed((), (cut("during_model_call"),), restart=True),
}


@check("DR-2#c4", variants=BARE, through=(CONTINUES_ON_ITS_OWN,))
def check_empty_journal_appends_nothing(ctx: CheckContext, variant: Resumed) -> None:
    """With nothing in the journal, the resume prompt is exactly the nudge, and nothing
    new follows it."""
    trace, at, run = _play(ctx, "dr2-c4-empty", variant)
    prompt = _prompt(ctx, at, run)
    text = nudge(ctx)
    clause = (
        "DR-2 ¶4: with an empty journal nothing is appended, and the resume prompt is "
        "byte-for-byte what it would be without the note"
    )
    ctx.expect(
        prompt.message == text,
        f"the resume prompt reads {show(prompt.message, 160)}, not exactly the nudge "
        f"{show(text)}; {clause}",
        at=f"{at}/model_inputs/0/messages/{prompt.index}",
    )
    for offset, message in appended(trace, run, prompt):
        ctx.expect(
            False,
            f"after the nudge comes {show(message, 160)}, which no earlier model input held; "
            f"{clause}",
            at=f"{at}/model_inputs/0/messages/{offset}",
            reading="right-after-the-nudge",
        )


READS: dict[str, Resumed] = {
    "one-failed-read": Resumed(
        ((send(ANA, "c1"),),), (cut("after_tool_done", on="send_email"),), failed_reads=1
    ),
    "failed-at-two-resumes": Resumed(
        ((send(ANA, "c1"),), (ticket(TICKET, "c2"),)),
        (cut("after_tool_done", on="send_email"), cut("after_tool_done", on="create_ticket")),
        failed_reads=2,
    ),
    # The resumed chunk pauses on a question; the read fails as the answer carries it on.
    "while-carrying-on-after-a-question": Resumed(
        ((send(ANA, "c1"),),),
        (cut("after_tool_done", on="send_email"),),
        failed_reads=1,
        question=True,
    ),
}


@check("DR-2#c5", variants=READS)
def check_failed_ledger_read_does_not_block(ctx: CheckContext, variant: Resumed) -> None:
    """A failed ledger read never blocks a recovery that would otherwise succeed: the same
    turn played without the failed read (the control) recovers, and with it, it still
    does."""
    clause = "DR-2 ¶5: a failed ledger read never blocks a recovery that would otherwise succeed"
    control = _played(ctx, "dr2-c5-control", replace(variant, failed_reads=0))
    recovered = turn(control, "t1")
    if len(located_continuations(control)) < len(variant.cuts) or not in_state(
        ctx.handshake, recovered, "completed"
    ):
        raise Untested(
            "played without the failed ledger read, the turn does not recover either (it "
            f"resumed {plural(len(located_continuations(control)), 'time')} and ends "
            f"{describe(ctx.handshake, recovered)}): no recovery would otherwise succeed, "
            "which is what DR-2 ¶5 speaks of"
        )
    trace, at, run = _play(ctx, "dr2-c5-best-effort", variant, clause)
    prompt = resume_prompt(run, nudge(ctx))
    judged = "the resumed run"
    if variant.question:
        # The run the answer started carries the paused chunk on: it is the one judged.
        at, run = [(where, one) for where, one in located_runs(trace) if one.turn == "t1"][-1]
        judged = "the run the answer started, carrying the paused resumed chunk on,"
    elif prompt is not None and names_call(prompt.note, "send_email", ANA):
        raise Untested("the armed ledger-read failure did not reach the resume (it has a note)")
    ctx.expect(
        run.end == "completed",
        f"with the ledger read failing, {judged} ended {show(run.end)}; {clause}",
        at=f"{at}/end",
    )
    final = turn(trace, "t1")
    ctx.expect(
        in_state(ctx.handshake, final, "completed"),
        f"with the ledger read failing, the turn ends {describe(ctx.handshake, final)}, not "
        f"completed; {clause}",
        at=turn_pointer(trace, "t1"),
        reading="turn-states",
    )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_note_right_after_nudge,
    check_note_names_completed_with_results,
    check_note_names_interrupted,
    check_empty_journal_appends_nothing,
    check_failed_ledger_read_does_not_block,
    check_note_keeps_a_long_results_key_value,
    check_short_result_not_marked_cut,
)
