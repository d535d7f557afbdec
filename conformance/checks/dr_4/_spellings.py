"""DR-4 ¶2 for an identical retry that arrives written otherwise than the interrupted call:
its arguments' keys in another order (the order of a JSON object's keys means nothing,
docs/interpretations.md#key-order), arguments the runtime repairs before the tool gets
them (RT-TOOL-8: the history shows them as written, the journal as received), and an
interrupted call whose identifier an earlier turn of the conversation already used and
answered (a provider that numbers its call ids per response sends ``call_0`` in every
turn).  None changes what the resumed run's history shows: the interrupted call is
declared there, so the identical retry is refused.

An earlier turn's call with the same identifier may keep the interrupted call from running
at all, where a runtime's RT-TOOL-9 guard spans the conversation (guard-scope); then
nothing was interrupted, and the case is untested."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adapters.scenario import StartTurn, Step
from adapters.trace import RunRecord, Trace
from conformance.checks.dr_4._calls import ANA, BO
from conformance.checks.dr_4._history import (
    GUARD,
    NOT_SHOWN,
    before_the_resume_prompt,
    expect_not_reported_succeeded,
)
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
    CheckContext,
    Untested,
    calls,
    check,
    cut,
    listing,
    located_continuations,
    mapping,
    names_call,
    one_turn,
    ran,
    resume,
    say,
    send,
    show,
    strings,
    tools,
)

__all__ = ["check_identical_retry_refused_however_written"]

#: The interrupted call's identifier; in the reused-id variant an earlier turn's too.
REUSED = "call_0"
TURN = "t1"


#: an input whose string the runtime repairs before the tool gets it ("Ember & Oak")
REPAIRED = {"to": "ana@example.com", "subject": "Ember &amp; Oak"}


@dataclass(frozen=True)
class Spelling:
    """The interrupted write (``first``, call :data:`REUSED`), its identical retry
    (``retry``, call ``r1``), and ``earlier``: the input of a write an earlier turn made
    and completed under the same identifier, if any."""

    first: Mapping[str, object]
    retry: Mapping[str, object]
    earlier: Mapping[str, object] | None = None
    #: the entry of docs/interpretations.md a failure of the variant relies on
    reading: str | None = "history-shows-the-interruption"


SPELLINGS: dict[str, Spelling] = {
    "keys-in-another-order": Spelling(
        {"to": "ana@example.com", "subject": "Hi", "meta": {"cc": "bo@example.com", "n": 1}},
        {"meta": {"n": 1, "cc": "bo@example.com"}, "subject": "Hi", "to": "ana@example.com"},
        reading="key-order",
    ),
    "id-used-by-an-earlier-turn": Spelling(ANA, ANA, earlier=BO),
    # Character references the runtime decodes (RT-TOOL-8 ¶4) before the tool gets them:
    # the retry is identical as written and as received, so it is refused either way.
    "arguments-the-runtime-repairs": Spelling(REPAIRED, REPAIRED),
}


def _retrying_run(ctx: CheckContext, variant: Spelling) -> tuple[Trace, str, RunRecord]:
    """Play the variant; the trace, and the resumed run that dispatched the retry."""
    model = [calls(send(variant.first, REUSED)), calls(send(variant.retry, "r1")), say("done")]
    steps: list[Step] = []
    if variant.earlier is not None:
        model = [calls(send(variant.earlier, REUSED)), say("done"), *model]
        steps.append(StartTurn("t0"))
    trace = one_turn(
        ctx,
        "dr4-c2-however-written",
        tools=tools(),
        model=model,
        # The cut waits for the interrupted call's body: the earlier turn's comes first.
        steps=[
            cut("after_tool_body", on="send_email", nth=len(steps) + 1),
            *steps,
            StartTurn(TURN),
            resume(ctx, "time_limit", TURN),
        ],
    )
    for at, run in located_continuations(trace, TURN):
        batches = [mapping(c).get("tool_call_id") for one in run.passes for c in one.batch]
        if "r1" in batches:
            return trace, at, run
    if variant.earlier is not None:
        raise Untested(
            f"turn {TURN} did not resume with the retry: its call {REUSED}, an identifier turn "
            "t0 already used, was never interrupted (a guard spanning the conversation may "
            "skip it, docs/interpretations.md#guard-scope)"
        )
    ctx.fail(f"no resumed run of turn {TURN} dispatched the retry r1; the turn was cut")


def _shown(ctx: CheckContext, run: RunRecord, variant: Spelling) -> bool:
    """Whether the model input the retry came from mentions the interrupted call before the
    resume prompt: its tool and input, or its identifier where no earlier turn used it."""
    for message in before_the_resume_prompt(ctx, run):
        found = list(strings(message))
        if names_call("\n".join(found), "send_email", dict(variant.first)):
            return True
        if variant.earlier is None and REUSED in found:
            return True
    return False


@check("DR-4#c2", variants=SPELLINGS, through=(CONTINUES_ON_ITS_OWN,))
def check_identical_retry_refused_however_written(ctx: CheckContext, variant: Spelling) -> None:
    """An identical retry of an interrupted write is refused however it is written: its
    keys in another order, or the interrupted call under an identifier an earlier turn
    used."""
    trace, at, run = _retrying_run(ctx, variant)
    if not _shown(ctx, run, variant):
        raise Untested(NOT_SHOWN)
    where = ran(trace, "r1")
    ctx.expect(
        not where,
        f"the retry r1, send_email {show(dict(variant.retry))}, identical to the interrupted "
        f"call {REUSED} {show(dict(variant.first))}, ran (at {listing(where)}), though the "
        f"history it was dispatched from shows the interrupted call (at {at}/model_inputs/0); "
        f"{GUARD}",
        at=where[0] if where else None,
        reading=variant.reading,
    )
    expect_not_reported_succeeded(ctx, trace, "r1", bool(where))
