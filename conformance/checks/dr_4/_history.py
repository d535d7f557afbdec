"""What DR-4 ¶2's cases share: the interrupted call, the clause's words, the history a
retry was sent from, and the refused retry's result.

The suite takes the history to show the interruption when the model input the retry
came from (its run's first) mentions the interrupted call before the resume prompt
(docs/interpretations.md#history-shows-the-interruption)."""

from __future__ import annotations

from adapters.trace import RunRecord, Trace
from conformance.checks.dr_4._calls import ANA
from conformance.toolkit import (
    CheckContext,
    located_results,
    located_runs,
    mapping,
    names_call,
    nudge,
    paired,
    resume_prompt,
    same_json,
    show,
    strings,
)

__all__ = [
    "FIRST",
    "GUARD",
    "NOT_SHOWN",
    "before_the_resume_prompt",
    "expect_not_reported_succeeded",
    "identical_completions",
    "journal_answers",
    "mentions",
    "shows_the_interrupted_call",
]

#: The interrupted call's identifier (a ``send_email`` to Ana).
FIRST = "call-interrupted-1"
GUARD = (
    "DR-4 ¶2: an identical retry of an interrupted write is refused when the resumed run's "
    "history shows the interruption"
)
#: Why a case is untested when the history does not mention the interrupted call.
NOT_SHOWN = (
    "the resumed run's history does not mention the interrupted call; DR-4 ¶2 refuses a "
    "retry only when it shows the interruption"
)


def mentions(message: object, call_id: str, tool: str, args: object) -> bool:
    """Whether a message, read whole (structured tool calls included), mentions a call: its
    identifier, or its tool name with every value of its input."""
    found = list(strings(message))
    whole = "\n".join(found)
    return call_id in found or names_call(whole, tool, args)


def before_the_resume_prompt(ctx: CheckContext, run: RunRecord) -> list[object]:
    """The messages of the run's first model input before its resume prompt (all of them
    where it holds none; none where the run was given nothing)."""
    if not run.model_inputs:
        return []
    messages = list(run.model_inputs[0].messages)
    prompt = resume_prompt(run, nudge(ctx))
    return messages[: prompt.index] if prompt is not None else messages


def shows_the_interrupted_call(ctx: CheckContext, run: RunRecord) -> bool:
    """Whether the history the run was given mentions the interrupted call :data:`FIRST`
    (its identifier, or ``send_email`` with Ana's input) before the resume prompt."""
    history = before_the_resume_prompt(ctx, run)
    return any(mentions(m, FIRST, "send_email", dict(ANA)) for m in history)


def expect_not_reported_succeeded(
    ctx: CheckContext, trace: Trace, call_id: str, did_run: bool, *, journaled: bool = False
) -> None:
    """A retry that did not run (``did_run`` false) is not reported as succeeded, unless
    it was answered from the journal (``journaled``: see :func:`journal_answers`)."""
    for result_at, result in located_results(trace, call_id):
        ctx.expect(
            did_run or journaled or mapping(result.result).get("success") is not True,
            f"the refused retry {call_id} is reported as succeeded ({show(result.result)}); "
            f"{GUARD}",
            at=f"{result_at}/result",
        )


def identical_completions(trace: Trace, retrying: str, turn: str = "t1") -> int:
    """How many calls identical to the interrupted one (``send_email`` to Ana) returned in
    the runs of ``turn`` before the run at ``retrying``: completed entries of the journal
    a retry in that run may be answered from."""
    found = 0
    for at, run in located_runs(trace):
        if at == retrying:
            break
        if run.turn != turn:
            continue
        found += sum(
            1
            for one in run.passes
            for result, call in paired(one)
            if result.disposition == "executed"
            and result.tool == "send_email"
            and same_json(call.get("args"), dict(ANA))
        )
    return found


def journal_answers(trace: Trace, retrying: str, call_ids: list[str]) -> set[str]:
    """Which of the identical retries ``call_ids`` (in dispatch order) were answered from
    the journal rather than refused: reported ``reused``, each by a completion of its own.

    A retry may repeat both the interrupted call and a completed one: the interrupted call
    sent again earlier, where the history did not show it, ran and returned.  Both
    clauses then keep the retry from running.  DR-3 ¶2's words say what comes back: "When
    the model re-dispatches a write tool whose name and input match a completed entry of
    that snapshot, the call is not executed: the journaled result is returned in its
    place"; DR-4 ¶2's "is refused" says only that it is not carried out.  So a retry
    answered with the journaled result, one per completion (DR-3 ¶5), is not a retry DR-4
    ¶2 reports as succeeded (docs/interpretations.md#history-shows-the-interruption)."""
    left = identical_completions(trace, retrying)
    answered: set[str] = set()
    for call_id in call_ids:
        reused = [r for _, r in located_results(trace, call_id) if r.disposition == "reused"]
        if reused and left > 0:
            answered.add(call_id)
            left -= 1
    return answered
