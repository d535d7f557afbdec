"""DR-3 ¶2 for a journaled result whose map holds a ``result`` text beside other keys.

¶2 returns "the journaled result" in the re-dispatched call's place, and the journal keeps
the whole result, not a summary of it (docs/interpretations.md, reused-result: any
rendering that carries every value of it).  A map such as ``{"result": "Created.",
"ticket": "T-77"}`` invites a runtime to read its ``result`` text as the whole answer:
the model then reads "Created." for the call answered from the journal and never learns
the ticket the earlier attempt made, which is the value it needs to carry on without
doing the write again.  The checks of ``checks.py`` send maps without a ``result`` key,
where no rendering takes one field for the whole."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.scenario import StartTurn, Wait
from adapters.trace import Trace
from conformance.checks.dr_3._scenarios import TICKET
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
    LEDGER_RECORDS_RETURNS,
    CheckContext,
    calls,
    check,
    cut,
    leaves,
    located_runs,
    mapping,
    one_turn,
    output,
    ran,
    runs_of,
    say,
    show,
    shows,
    text_of,
    ticket,
    tools,
)

__all__ = ["check_reused_result_carried_whole"]

CLAUSE = (
    "DR-3 ¶2: a re-dispatched write matching a completed entry is not executed; the "
    "journaled result is returned in its place, with a note"
)

#: What ``create_ticket`` returned when it completed, before the cut: a ``result`` text
#: beside the values the model needs from the earlier attempt.
WHOLE: dict[str, Mapping[str, object]] = {
    "result-text-beside-other-keys": {"result": "Created.", "ticket": "T-77"},
    "result-text-beside-a-nested-map": {
        "result": "Created.",
        "ticket": {"id": "T-78", "queue": "ops"},
    },
}


def _told_for(trace: Trace, call_id: str) -> tuple[str, str] | None:
    """The tool message for ``call_id`` in the last model input that holds one: its
    pointer and its text."""
    found: tuple[str, str] | None = None
    for at, run in located_runs(trace):
        for index, given in enumerate(run.model_inputs):
            for number, message in enumerate(given.messages):
                fields = mapping(message)
                if fields.get("role") == "tool" and fields.get("tool_call_id") == call_id:
                    found = (f"{at}/model_inputs/{index}/messages/{number}", text_of(message))
    return found


@check("DR-3#c2", variants=WHOLE, through=(CONTINUES_ON_ITS_OWN, LEDGER_RECORDS_RETURNS))
def check_reused_result_carried_whole(ctx: CheckContext, variant: Mapping[str, object]) -> None:
    """A write answered from the journal gives the model every value of its journaled
    result, not only the ``result`` text beside them."""
    trace = one_turn(
        ctx,
        "dr3-c2-whole-result",
        tools=tools(tickets=(output(dict(variant)),)),
        model=[calls(ticket(TICKET, "c1")), calls(ticket(TICKET, "r1")), say("done")],
        steps=[cut("after_tool_done", on="create_ticket"), StartTurn("t1"), Wait()],
    )
    said, at = runs_of(trace, "r1")
    ctx.expect(
        not ran(trace, "r1"),
        f"create_ticket {show(dict(TICKET))} (call r1), dispatched in the resumed chunk, "
        f"{said}; expected it not to run: an identical call completed in an earlier chunk of "
        f"the turn; {CLAUSE}",
        at=at,
    )
    told = _told_for(trace, "r1")
    if not ctx.expect(
        told is not None,
        f"the model is never given a tool message for the re-dispatched call r1; {CLAUSE}",
    ):
        return
    assert told is not None
    where, text = told
    missing = [value for value in leaves(variant) if not shows(text, value)]
    ctx.expect(
        not missing,
        f"for the re-dispatched call r1 the model reads {show(text, 160)}, which leaves out "
        f"{show(missing)} of the journaled result {show(dict(variant))}; {CLAUSE}",
        at=where,
        reading="reused-result",
    )
