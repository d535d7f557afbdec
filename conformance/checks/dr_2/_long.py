"""DR-2 ¶2 for a result too long to show: the note gives it "with a short result, so
that the model reuses it".  A shortened form must keep something of the result to be
reused (docs/interpretations.md, short-result): a placeholder that carries none of it,
or the whole long result, is not a short result."""

from __future__ import annotations

from adapters.scenario import StartTurn
from conformance.checks.dr_2._calls import TICKET
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
    LEDGER_RECORDS_RETURNS,
    NOTE_AFTER_THE_NUDGE,
    CheckContext,
    calls,
    check,
    cut,
    located_continuations,
    names_call,
    nudge,
    one_turn,
    output,
    plural,
    resume,
    resume_prompt,
    say,
    show,
    shows,
    ticket,
    tools,
)

__all__ = ["check_note_keeps_a_long_results_key_value"]

#: The value a model needs to reuse the call: it opens and closes the long text, and is a
#: short field of its own in the map result.
KEY = "TCK-48213"
#: 300 numbered segments (about 12,000 bytes of UTF-8, non-ASCII included): a note that
#: shows every segment has shown the result whole.
SEGMENTS = tuple(f"[étape-{n:03d}] journal d'intervention ✓" for n in range(300))
LONG_TEXT = f"{KEY} " + " ".join(SEGMENTS) + f" {KEY}"
LONG: dict[str, object] = {
    "text": LONG_TEXT,
    "map-with-a-short-key-field": {"ticket": KEY, "log": LONG_TEXT},
}


@check(
    "DR-2#c2",
    variants=LONG,
    through=(CONTINUES_ON_ITS_OWN, LEDGER_RECORDS_RETURNS, NOTE_AFTER_THE_NUDGE),
)
def check_note_keeps_a_long_results_key_value(ctx: CheckContext, variant: object) -> None:
    """A completed call whose result is long is named with a short result that still
    carries the value the model would reuse, not with a placeholder nor the whole of it."""
    trace = one_turn(
        ctx,
        "dr2-c2-long-result",
        tools=tools(tickets=(output(variant),)),
        model=[calls(ticket(TICKET, "c1")), say("done")],
        steps=[
            cut("after_tool_done", on="create_ticket"),
            StartTurn("t1"),
            resume(ctx, "time_limit"),
        ],
    )
    resumed = located_continuations(trace)
    ctx.need(
        bool(resumed),
        f"turn t1 was cut after create_ticket and resumed {plural(len(resumed), 'time')}; "
        "DR-2 ¶1: the run that resumes after such a cut is given the note",
        reading="resumable-causes",
    )
    at, run = resumed[-1]
    text = nudge(ctx)
    prompt = resume_prompt(run, text)
    if prompt is None:
        ctx.fail(
            f"the resumed run's first model input holds no message with the declared nudge "
            f"{show(text)}; DR-2 ¶1 appends the note to the resume prompt, right after the nudge",
            at=f"{at}/model_inputs/0/messages" if run.model_inputs else at,
        )
    index = prompt.index if prompt.note_index is None else prompt.note_index
    where = f"{at}/model_inputs/0/messages/{index}"
    clause = "DR-2 ¶2 names each completed call with a short result, so that the model reuses it"
    ctx.need(
        names_call(prompt.note, "create_ticket", TICKET),
        f"the note does not name the completed call create_ticket {show(TICKET)}: DR-2 ¶2 "
        "names each completed call (check note-names-completed-with-results judges that)",
    )
    ctx.expect(
        shows(prompt.note, KEY),
        f"the note names create_ticket {show(TICKET)} but its result, {len(LONG_TEXT)} "
        f"characters opening and closing with {KEY}, shows as {show(prompt.note, 200)} "
        f"without {KEY}: nothing of it is left to reuse; {clause}",
        at=where,
        reading="short-result",
    )
    missing = [segment for segment in SEGMENTS if not shows(prompt.note, segment)]
    ctx.expect(
        bool(missing),
        f"the note shows the whole {len(LONG_TEXT.encode())}-byte result of create_ticket, "
        f"every one of its {len(SEGMENTS)} segments; {clause}, not the result in full",
        at=where,
        reading="short-result",
    )
