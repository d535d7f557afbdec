"""DR-2 ¶2 for a result that is short already: the note shows it whole, and as whole.

The note names a completed call "with a short result, so that the model reuses it".  A
result that is short already is its own short result (docs/interpretations.md,
short-result); shown with a cut marker after it ("T-7…"), it reads as the start of a longer
value, and the model cannot tell the ticket T-7 from a T-77 whose end was cut: what it
would reuse is a guess.  The other checks of ¶2 look for a short value in the note, which
a value marked as cut still passes."""

from __future__ import annotations

from adapters.scenario import Return, StartTurn
from conformance.checks.dr_2._calls import ANA, TICKET
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
    LEDGER_RECORDS_RETURNS,
    NOTE_AFTER_THE_NUDGE,
    CheckContext,
    calls,
    check,
    cut,
    failure,
    located_continuations,
    names_call,
    nudge,
    one_turn,
    output,
    resume,
    resume_prompt,
    say,
    send,
    show,
    ticket,
    tools,
)

__all__ = ["check_short_result_not_marked_cut"]

CLAUSE = "DR-2 ¶2 names each completed call with a short result, so that the model reuses it"

#: What ``create_ticket`` returned before the cut (beside a ``send_email`` that answered
#: "sent"), and the value the note must show whole.
SHORT_ONES: dict[str, tuple[Return, object]] = {
    "ticket-id": (output("T-7"), "T-7"),
    "number": (output(42), 42),
    "failed-call": (failure("queue full"), "queue full"),
}

#: What marks a text as cut short (an ellipsis, as text or ASCII-escaped JSON), and what
#: may stand between the value and the marker (a closing quote or bracket of its JSON, a
#: space).
_MARKERS = ("…", "...", "\\u2026")
_CLOSING = "\"'}]) "


def _forms(value: object) -> list[str]:
    """``value`` as a note may show it: as it is, or as JSON."""
    if isinstance(value, str):
        return [value, show(value, 10_000)]
    return [show(value, 10_000)]


def _marked_cut(note: str, value: object) -> str | None:
    """Where the note shows ``value`` followed by a cut marker (the text from the value to
    the marker), when every place it shows it is so followed; else ``None``."""
    first: str | None = None
    for form in _forms(value):
        start = note.find(form)
        while start >= 0:
            end = start + len(form)
            rest = note[end:].lstrip(_CLOSING)
            marker = next((m for m in _MARKERS if rest.startswith(m)), None)
            if marker is None:
                return None
            first = first or note[start : len(note) - len(rest) + len(marker)]
            start = note.find(form, start + 1)
    return first


@check(
    "DR-2#c2",
    variants=SHORT_ONES,
    through=(CONTINUES_ON_ITS_OWN, LEDGER_RECORDS_RETURNS, NOTE_AFTER_THE_NUDGE),
)
def check_short_result_not_marked_cut(ctx: CheckContext, variant: tuple[Return, object]) -> None:
    """A completed call whose result is short already is named with that result whole,
    not followed by a mark that it was cut."""
    returned, value = variant
    trace = one_turn(
        ctx,
        "dr2-c2-short-result",
        tools=tools(tickets=(returned,)),
        # Two calls complete, so that the note has each of several to name (¶2's "each").
        model=[calls(send(ANA, "c0"), ticket(TICKET, "c1")), say("done")],
        steps=[
            cut("after_tool_done", on="create_ticket"),
            StartTurn("t1"),
            resume(ctx, "time_limit"),
        ],
    )
    resumed = located_continuations(trace)
    prompt = resume_prompt(resumed[-1][1], nudge(ctx)) if resumed else None
    ctx.need(
        prompt is not None and names_call(prompt.note, "create_ticket", TICKET),
        f"no resumed run's note names the completed call create_ticket {show(TICKET)}: DR-2 "
        "¶1 and ¶2 (checks note-right-after-nudge and note-names-completed-with-results "
        "judge that)",
    )
    assert prompt is not None
    at = resumed[-1][0]
    index = prompt.index if prompt.note_index is None else prompt.note_index
    marked = _marked_cut(prompt.note, value)
    ctx.expect(
        marked is None,
        f"the note shows the short result {show(value)} of create_ticket {show(TICKET)} only "
        f"followed by a mark that it was cut ({show(marked)}): it reads as the start of a "
        f"longer value, not as the result to reuse; {CLAUSE}",
        at=f"{at}/model_inputs/0/messages/{index}",
        reading="short-result",
    )
