"""DR-4's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.dr_4`)."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.scenario import FailLedgerRead, Interrupt, StartTurn, Step
from adapters.trace import RunRecord, Trace
from conformance.checks.dr_4._calls import ANA, BO, TICKET
from conformance.checks.dr_4._history import (
    FIRST,
    GUARD,
    NOT_SHOWN,
    expect_not_reported_succeeded,
    journal_answers,
    shows_the_interrupted_call,
)
from conformance.checks.dr_4._refusal_across_a_pause import (
    check_gated_retry_refused_once_approved,
    check_refusal_outlasts_a_pause,
)
from conformance.checks.dr_4._spellings import check_identical_retry_refused_however_written
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
    CheckContext,
    Untested,
    call,
    calls,
    check,
    cut,
    listing,
    located_continuations,
    located_results,
    mapping,
    one_turn,
    ran,
    resume,
    runs_of,
    say,
    send,
    show,
    ticket,
    tools,
)


@dataclass(frozen=True)
class Between:
    """A chunk between the interruption and the retries: the ``batches`` its model sends,
    one a reply, and the ``cut`` that ends it in turn (armed from the start of the turn).
    The cut is never at a model call: a runtime may record a ``clear`` there, which
    legitimately resets the interrupted call (docs/interpretations.md#when-clear-is-recorded)."""

    batches: tuple[tuple[dict[str, object], ...], ...]
    cut: Interrupt


LOOKUP = call("lookup", {"id": 7}, "c2")
#: a lookup that returns, then a time limit
LOOKED_UP = Between(((LOOKUP,),), cut("after_tool_done", on="lookup"))
#: the interrupted call sent again under its own identifier (refused, and answered with
#: the refusal), then a lookup that returns before a time limit
OWN_ID_REFUSED = Between(((send(ANA, FIRST),), (LOOKUP,)), cut("after_tool_done", on="lookup"))
#: the interrupted call sent again under its own identifier (refused) beside another
#: write, whose body runs before a time limit cuts the batch: the refusal is recorded but
#: its batch never ends
OWN_ID_REFUSED_IN_A_CUT_BATCH = Between(
    ((send(ANA, FIRST), send(BO, "c7")),), cut("after_tool_body", on="send_email", nth=2)
)


@dataclass(frozen=True)
class Retry:
    """A write (``send_email`` to Ana, call ``FIRST``) interrupted by ``interruption``,
    then retried: ``retries`` are the resumed chunk's calls, ``identical`` those that
    repeat the interrupted call exactly; ``middle`` a chunk between, cut in turn.
    ``before`` is a batch the interrupted run completes first, ``beside`` the calls
    ahead of the interrupted one in its batch."""

    interruption: Interrupt
    retries: tuple[dict[str, object], ...] = (send(ANA, "r1"),)
    identical: tuple[str, ...] = ("r1",)
    middle: Between | None = None
    before: tuple[dict[str, object], ...] = ()
    beside: tuple[dict[str, object], ...] = ()
    #: the ledger read of the resumed chunk fails (``fail_ledger_read``, armed first)
    unreadable: bool = False


def _play(ctx: CheckContext, name: str, retry: Retry) -> Trace:
    cause = retry.interruption.cause
    model = [calls(*retry.before)] if retry.before else []
    model.append(calls(*retry.beside, send(ANA, FIRST)))
    steps: list[Step] = [FailLedgerRead()] if retry.unreadable else []
    steps.append(retry.interruption)
    if retry.middle is not None:
        model += [calls(*batch) for batch in retry.middle.batches]
        steps.append(retry.middle.cut)
    steps.append(StartTurn("t1"))
    steps.append(resume(ctx, cause))
    if retry.middle is not None:
        steps.append(resume(ctx, "time_limit"))
    return one_turn(
        ctx, name, tools=tools(), model=[*model, calls(*retry.retries), say("done")], steps=steps
    )


def _retrying_run(ctx: CheckContext, trace: Trace, retry: Retry) -> tuple[str, RunRecord]:
    """The resumed run that dispatched the retries."""
    wanted = {str(c.get("tool_call_id")) for c in retry.retries}
    for at, run in located_continuations(trace):
        batches = [mapping(c).get("tool_call_id") for one in run.passes for c in one.batch]
        if wanted & set(map(str, batches)):
            return at, run
    ctx.fail(
        f"no resumed run of turn t1 dispatched the retries {sorted(wanted)}; the turn was "
        "interrupted and should have resumed",
    )


CUTS: dict[str, Retry] = {
    "cut-after-the-body": Retry(cut("after_tool_body", on="send_email")),
    "cut-before-the-body": Retry(cut("before_tool_body", on="send_email")),
    "crash-after-the-body": Retry(cut("after_tool_body", "crash", "send_email")),
    "two-chunks-later": Retry(cut("after_tool_body", on="send_email"), middle=LOOKED_UP),
}


@check("DR-4#c1", variants=CUTS, through=(CONTINUES_ON_ITS_OWN,))
def check_landed_but_unrecorded_is_interrupted(ctx: CheckContext, variant: Retry) -> None:
    """A call whose result was never recorded is interrupted, not completed: an identical
    retry is never handed a successful result without running."""
    trace = _play(ctx, "dr4-c1-unrecorded", variant)
    _retrying_run(ctx, trace, variant)
    for call_id in variant.identical:
        if ran(trace, call_id):
            continue
        for at, result in located_results(trace, call_id):
            ctx.expect(
                mapping(result.result).get("success") is not True,
                f"the identical retry {call_id} did not run, and got the successful result "
                f"{show(result.result)}; its original was cut before its result was recorded, "
                "so nothing completed can answer it: DR-4 ¶1: the hard-block covers completed "
                "calls only, and a call whose result was never recorded counts as interrupted",
                at=f"{at}/result",
            )


RETRIES: dict[str, Retry] = {
    "next-chunk": Retry(cut("after_tool_body", on="send_email")),
    "two-chunks-later": Retry(cut("after_tool_body", on="send_email"), middle=LOOKED_UP),
    "after-a-crash": Retry(cut("after_tool_body", "crash", "send_email")),
    "two-retries-in-one-batch": Retry(
        cut("after_tool_body", on="send_email"),
        (send(ANA, "r1"), send(ANA, "r2")),
        ("r1", "r2"),
    ),
    "other-arguments-beside": Retry(
        cut("after_tool_body", on="send_email"), (send(BO, "r2"), send(ANA, "r1")), ("r1",)
    ),
    # A refusal answers the interrupted call's own identifier, or records it, and the run
    # that refused is then cut: the history still declares the interrupted call, so the
    # next chunk's identical retry under a new identifier is refused in turn.
    "after-a-refusal-under-its-own-id": Retry(
        cut("after_tool_body", on="send_email"), middle=OWN_ID_REFUSED
    ),
    "after-a-refusal-in-a-cut-batch": Retry(
        cut("after_tool_body", on="send_email"), middle=OWN_ID_REFUSED_IN_A_CUT_BATCH
    ),
    # The resumed chunk's ledger read fails: its journal knows nothing, its note is lost
    # (DR-2 ¶5), but its history still answers the interrupted call, and the refusal is
    # the history's: "refused when the resumed run's history shows the interruption".
    "after-a-failed-ledger-read": Retry(cut("after_tool_body", on="send_email"), unreadable=True),
    # The interrupted call sits behind a repeat of a call the turn already made and a
    # call without an identifier: the history declares it all the same.
    "behind-a-repeat-and-a-call-without-id": Retry(
        cut("after_tool_body", on="send_email"),
        before=(ticket(TICKET, "c0"),),
        beside=(ticket(TICKET, "c0"), ticket({"title": "Toner low"}, None)),
    ),
}


@check("DR-4#c2", variants=RETRIES, through=(CONTINUES_ON_ITS_OWN,))
def check_guard_only_when_history_shows(ctx: CheckContext, variant: Retry) -> None:
    """An identical retry of an interrupted write does not run in the resumed run whose
    history shows the interruption; a retry with other arguments runs."""
    trace = _play(ctx, "dr4-c2-guarded", variant)
    at, run = _retrying_run(ctx, trace, variant)
    if not shows_the_interrupted_call(ctx, run):
        raise Untested(NOT_SHOWN)
    retried = [str(c.get("tool_call_id")) for c in variant.retries]
    journaled = journal_answers(trace, at, [c for c in retried if c in variant.identical])
    for sent in variant.retries:
        call_id = str(sent.get("tool_call_id"))
        where = ran(trace, call_id)
        if call_id in variant.identical:
            ctx.expect(
                not where,
                f"the identical retry {call_id} of the interrupted send_email {show(dict(ANA))} "
                f"ran (at {listing(where)}), though the history it was dispatched from shows "
                f"the interrupted call (at {at}/model_inputs/0); {GUARD}",
                at=where[0] if where else None,
                reading="history-shows-the-interruption",
            )
            expect_not_reported_succeeded(
                ctx, trace, call_id, bool(where), journaled=call_id in journaled
            )
        else:
            said, at_call = runs_of(trace, call_id)
            ctx.expect(
                len(where) == 1,
                f"the retry {call_id} with other arguments, {show(sent.get('args'))}, {said}; "
                f"expected it to run once: only an identical retry is refused; {GUARD}",
                at=at_call,
            )


@check("DR-4#c2", name="not-refused-in-a-new-turn")
def check_not_refused_in_a_new_turn(ctx: CheckContext) -> None:
    """A new message starts a new turn, whose run resumes nothing: the identical write
    runs there."""
    trace = one_turn(
        ctx,
        "dr4-c2-new-turn",
        tools=tools(),
        model=[calls(send(ANA, FIRST)), calls(send(ANA, "n1")), say("done")],
        steps=[cut("after_tool_body", "error", "send_email"), StartTurn("t1"), StartTurn("t2")],
    )
    said, at = runs_of(trace, "n1")
    ctx.expect(
        len(ran(trace, "n1")) == 1,
        f"in the new turn t2, the send_email {show(dict(ANA))} (call n1) identical to turn "
        f"t1's interrupted call {said}; expected it to run once: a new turn's run is not a "
        "resumed run; DR-4 ¶2 refuses a retry only in the resumed run whose history shows the "
        "interruption",
        at=at,
    )


@check("DR-4#c2", name="not-refused-when-never-started", through=(CONTINUES_ON_ITS_OWN,))
def check_not_refused_when_never_started(ctx: CheckContext) -> None:
    """A write cut off before it started is not interrupted (its journal never saw it
    start): its identical retry in the resumed run is not refused, and runs."""
    retry = Retry(cut("after_tool_done", on="create_ticket"), beside=(ticket(TICKET, "c0"),))
    trace = _play(ctx, "dr4-c2-never-started", retry)
    at, run = _retrying_run(ctx, trace, retry)
    if ran(trace, FIRST):
        raise Untested(f"call {FIRST} ran before the cut: nothing was left unstarted")
    note = run.resume.note if run.resume is not None else None
    if note is None:
        raise Untested(
            "the resumed run reports no journal note, so whether its journal holds the "
            f"unstarted call {FIRST} interrupted cannot be told"
        )
    if any(mapping(e).get("tool") == "send_email" for e in note.interrupted):
        raise Untested(
            f"the resumed run's journal lists the unstarted call {FIRST} as interrupted (a "
            "runtime may journal a batch's starts before running it): its retry may be refused"
        )
    said, at_call = runs_of(trace, "r1")
    ctx.expect(
        len(ran(trace, "r1")) == 1,
        f"the send_email {show(dict(ANA))} (call r1) identical to call {FIRST}, which the cut "
        f"came before (it never ran, and the journal note of the resumed run at {at} does not "
        f"list it as interrupted), {said}; expected it to run once: nothing interrupted is "
        f"retried; {GUARD}, and only then",
        at=at_call,
    )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_landed_but_unrecorded_is_interrupted,
    check_guard_only_when_history_shows,
    check_not_refused_in_a_new_turn,
    check_not_refused_when_never_started,
    check_gated_retry_refused_once_approved,
    check_refusal_outlasts_a_pause,
    check_identical_retry_refused_however_written,
)
