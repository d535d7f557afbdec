"""DR-2: a resumed run is told what its turn already did."""

from __future__ import annotations

from adapters.scenario import (
    RESUMABLE_CAUSES,
    Continue,
    FailLedgerRead,
    Interrupt,
    StartTurn,
    Step,
    Wait,
)
from adapters.trace import RunRecord, Trace
from conformance.checks import CheckContext, Untested, check
from conformance.checks._common import mapping, one_turn, show
from conformance.checks._durable import ANA, continuations, nudge, resume_message, send, tools
from conformance.checks._states import describe, in_state
from conformance.scenarios import call, calls, say
from conformance.traces import turn

RESUMABLE = sorted(RESUMABLE_CAUSES)
TICKET = {"title": "Printer jam"}


def _cut_after(
    ctx: CheckContext,
    name: str,
    *,
    cause: str = "time_limit",
    interrupted: bool = False,
    ledger_fails: bool = False,
) -> tuple[Trace, RunRecord]:
    """Send an email (completed), then create a ticket, cut by ``cause`` after the ticket's
    body ran (``interrupted``) or after it returned; let the turn continue on its own, or
    choose Continue where the handshake says the cause does not resume by itself.

    Whether a gateway timeout or a transport error resumes by itself or waits for
    Continue, the rules leave open (docs/interpretations.md#resumable-causes): the note
    is owed to the run that resumes either way."""
    point = "after_tool_body" if interrupted else "after_tool_done"
    cut = Interrupt(point, cause, "create_ticket")  # type: ignore[arg-type]
    declared = ctx.handshake.durable_resume
    by_itself = declared is None or cause in declared.resumes_on_its_own
    steps: list[Step] = [cut, StartTurn("t1"), Wait() if by_itself else Continue("t1")]
    if ledger_fails:
        steps.insert(0, FailLedgerRead())
    trace = one_turn(
        ctx,
        name,
        tools=tools(),
        model=[calls(send(ANA, "c1"), call("create_ticket", TICKET, "c2")), say("done")],
        steps=steps,
    )
    resumed = [run for run in trace.runs() if run.resume is not None]
    if not resumed:
        ctx.fail(f"after a cut by {cause}, no run of the turn resumed with a resume prompt")
    return trace, resumed[0]


@check("DR-2#c1")
def check_note_right_after_nudge(ctx: CheckContext) -> None:
    """After a soft timeout, a gateway timeout or a resumable transport error, the resume
    prompt carries the note right after the nudge."""
    text = nudge(ctx)
    causes = [c for c in RESUMABLE if c in ctx.handshake.capabilities.interrupt_causes]
    if not causes:
        raise Untested("needs a resumable interruption cause")
    for cause in causes:
        _, run = _cut_after(ctx, f"dr2-c1-{cause}", cause=cause)
        ctx.need(
            run.resume is not None and run.resume.note is not None,
            f"after a {cause} the resumed run reports no journal note",
        )
        prompt = resume_message(run, text)
        ctx.need(
            prompt is not None, f"after a {cause} no prompt begins with the nudge {show(text)}"
        )
        assert prompt is not None
        rest = prompt[len(text) :]
        ctx.need(
            rest.strip() != "" and "send_email" in rest,
            f"after a {cause} the note does not follow the nudge: {show(prompt[:160])}",
        )


@check("DR-2#c2")
def check_note_names_completed_with_results(ctx: CheckContext) -> None:
    """The note names each completed call with a short result."""
    text = nudge(ctx)
    _, run = _cut_after(ctx, "dr2-c2-completed")
    note = run.resume.note if run.resume else None
    ctx.need(note is not None, "the resumed run reports no note")
    assert note is not None
    entries = [mapping(e) for e in note.completed]
    found = [e for e in entries if e.get("tool") == "send_email" and e.get("input") == ANA]
    ctx.need(bool(found), f"the completed send_email is not named in the note: {show(entries)}")
    ctx.need(
        "sent" in str(found[0].get("result")),
        f"the completed call's short result is missing: {show(found[0])}",
    )
    ticket = [e for e in entries if e.get("tool") == "create_ticket"]
    ctx.need(bool(ticket), "the completed create_ticket is not named in the note")
    prompt = resume_message(run, text) or ""
    ctx.need(
        "send_email" in prompt and "sent" in prompt,
        "the prompt text does not name the completed call and its result",
    )


@check("DR-2#c3")
def check_note_names_interrupted(ctx: CheckContext) -> None:
    """The note names each interrupted call, whose outcome is unknown."""
    text = nudge(ctx)
    _, run = _cut_after(ctx, "dr2-c3-interrupted", interrupted=True)
    note = run.resume.note if run.resume else None
    ctx.need(note is not None, "the resumed run reports no note")
    assert note is not None
    interrupted = [mapping(e) for e in note.interrupted]
    ctx.need(
        any(e.get("tool") == "create_ticket" and e.get("input") == TICKET for e in interrupted),
        f"the interrupted create_ticket is not named: {show(interrupted)}",
    )
    ctx.need(
        not any(mapping(e).get("tool") == "create_ticket" for e in note.completed),
        "the interrupted call is named as completed",
    )
    prompt = resume_message(run, text) or ""
    ctx.need("create_ticket" in prompt, "the prompt text does not name the interrupted call")


@check("DR-2#c4")
def check_empty_journal_appends_nothing(ctx: CheckContext) -> None:
    """With nothing in the journal the resume prompt is exactly the nudge."""
    text = nudge(ctx)
    trace = one_turn(
        ctx,
        "dr2-c4-empty",
        tools=tools(),
        model=[say("done")],
        steps=[Interrupt("during_model_call", "time_limit"), StartTurn("t1"), Wait()],
    )
    resumed = continuations(trace)
    ctx.need(bool(resumed), "the turn did not continue after its time limit")
    run = resumed[0]
    ctx.need(
        run.resume is not None and run.resume.note is None,
        f"an empty journal still produced a note: {show(run.resume)}",
    )
    ctx.need(
        resume_message(run, text) == text,
        f"the resume prompt is {show(resume_message(run, text))}, expected exactly {show(text)}",
    )


@check("DR-2#c5")
def check_failed_ledger_read_does_not_block(ctx: CheckContext) -> None:
    """A failed ledger read never blocks a recovery that would otherwise succeed."""
    trace, run = _cut_after(ctx, "dr2-c5-best-effort", ledger_fails=True)
    if run.resume is not None and run.resume.note is not None:
        raise Untested("the armed ledger-read failure did not reach the resume (it has a note)")
    final = turn(trace, "t1")
    ctx.need(
        in_state(ctx.handshake, final, "completed"),
        "with the ledger read failing, the recovery did not complete the turn "
        f"({describe(ctx.handshake, final)})",
    )
    ctx.need(run.end == "completed", f"the resumed run ended {run.end}")
