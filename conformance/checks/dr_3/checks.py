"""DR-3's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.dr_3`)."""

from __future__ import annotations

from collections.abc import Sequence

from adapters.scenario import Answer, Restart, StartTurn, Step, Wait
from adapters.trace import Trace
from conformance.checks.dr_3._claims_across_a_pause import check_claim_outlasts_a_pause
from conformance.checks.dr_3._reused_result_whole import check_reused_result_carried_whole
from conformance.checks.dr_3._scenarios import (
    ANA,
    CONSUMED,
    EVERY_PRIOR_CHUNK,
    FRESH,
    MATCHED,
    READS,
    REUSED,
    TWICE,
    Call,
    Fresh,
    Redispatch,
)
from conformance.toolkit import (
    CONTINUES_ON_ITS_OWN,
    HARD_BLOCK_ANSWERS,
    LEDGER_RECORDS_RETURNS,
    CheckContext,
    ask,
    call,
    calls,
    check,
    cut,
    located_results,
    located_runs,
    mapping,
    one_turn,
    ran,
    runs_of,
    say,
    send,
    show,
    shows,
    text_of,
    tools,
)


def _count(batch: Sequence[Call], name: object) -> int:
    return sum(1 for c in batch if c.get("name") == name)


QUESTIONS = ("Which address should the summary go to?", "And under which subject?")


def _play(ctx: CheckContext, name: str, shape: Redispatch) -> Trace:
    first = str(shape.before[-1].get("name"))
    steps: list[Step] = [
        cut(
            shape.last_cut if not shape.middle else "after_tool_done",
            on=first,
            nth=_count(shape.before, first),
        )
    ]
    model = [calls(*shape.before)]
    if shape.middle:
        second = str(shape.middle[-1].get("name"))
        steps.append(
            cut(shape.last_cut, on=second, nth=_count([*shape.before, *shape.middle], second))
        )
        model.append(calls(*shape.middle))
    model += [ask(question) for question in QUESTIONS[: shape.pauses]]
    model += [calls(one) for one in shape.after] if shape.separately else [calls(*shape.after)]
    steps += [StartTurn("t1"), *([Restart()] if shape.restart else []), Wait()]
    steps += [Answer("t1")] * shape.pauses
    trace = one_turn(
        ctx,
        name,
        tools=tools(sends=shape.sends, tickets=shape.tickets),
        model=[*model, say("done")],
        steps=steps,
    )
    return trace


def _expect_runs(
    ctx: CheckContext, trace: Trace, shape: Redispatch, clause: str, fresh: str
) -> None:
    """Each call of ``after`` ran as often as ``shape.runs`` says (``fresh``: why a call
    that must run has nothing to answer it)."""
    for sent in shape.after:
        call_id = str(sent.get("tool_call_id"))
        if call_id not in shape.runs:
            continue
        wanted = shape.runs[call_id]
        said, at = runs_of(trace, call_id)
        expected = (
            "expected it not to run: an identical call completed in an earlier chunk of the turn"
            if not wanted
            else f"expected it to run once: {fresh}"
        )
        ctx.expect(
            len(ran(trace, call_id)) == wanted,
            f"{sent.get('name')} {show(sent.get('args'), 120)} (call {call_id}), dispatched in "
            f"the resumed chunk, {said}; {expected}; {clause}",
            at=at,
        )


def _given(trace: Trace, call_id: str) -> tuple[str, str] | None:
    """The first tool message for ``call_id`` the model was given: its pointer and text."""
    for at, run in located_runs(trace):
        for index, given in enumerate(run.model_inputs):
            for number, message in enumerate(given.messages):
                fields = mapping(message)
                if fields.get("role") == "tool" and fields.get("tool_call_id") == call_id:
                    return f"{at}/model_inputs/{index}/messages/{number}", text_of(message)
    return None


PAIR_ONE = "DR-3 ¶1: the snapshot holds the prior chunks of the same turn, and only them"


@check(
    "DR-3#c1",
    variants={**TWICE, "every-prior-chunk": EVERY_PRIOR_CHUNK, "another-turn": None},
    through=(CONTINUES_ON_ITS_OWN, HARD_BLOCK_ANSWERS),
)
def check_snapshot_taken_once_before_chunk(ctx: CheckContext, variant: Redispatch | None) -> None:
    """The snapshot covers the prior chunks of the same turn, all of them and only them: a
    write completed two chunks before blocks its identical repeat; one completed inside
    the resumed chunk, or in an earlier turn, does not."""
    if variant is not None:
        trace = _play(ctx, "dr3-c1-once", variant)
        _expect_runs(
            ctx, trace, variant, PAIR_ONE, "its twin completed in this chunk, not an earlier one"
        )
        return
    trace = one_turn(
        ctx,
        "dr3-c1-another-turn",
        tools=tools(),
        model=[
            calls(send(ANA, "c1")),
            say("done"),
            calls(call("lookup", {"id": 7}, "c2")),
            calls(send(ANA, "r1")),
            say("done"),
        ],
        steps=[cut("after_tool_done", on="lookup"), StartTurn("t1"), StartTurn("t2"), Wait()],
    )
    said, at = runs_of(trace, "r1")
    ctx.expect(
        len(ran(trace, "r1")) == 1,
        f"send_email {show(dict(ANA))} (call r1), dispatched in turn t2's resumed chunk, {said};"
        f" expected it to run once: its identical call completed in another turn, t1; {PAIR_ONE}",
        at=at,
    )


REUSE = (
    "DR-3 ¶2: a re-dispatched write matching a completed entry is not executed; the "
    "journaled result comes back with a note"
)


@check("DR-3#c2", variants=REUSED, through=(CONTINUES_ON_ITS_OWN, LEDGER_RECORDS_RETURNS))
def check_completed_write_not_repeated(ctx: CheckContext, variant: Redispatch) -> None:
    """A re-dispatched write matching a completed entry is not executed: the model gets
    its journaled result back, with a note that it was not run again."""
    trace = _play(ctx, "dr3-c2-blocked", variant)
    _expect_runs(ctx, trace, variant, REUSE, "")
    for call_id, (original, out) in variant.answers.items():
        given = _given(trace, call_id)
        if not ctx.expect(
            given is not None,
            f"the model is never given a tool message for the re-dispatched call {call_id}; "
            f"{REUSE}",
        ):
            continue
        assert given is not None
        at, text = given
        ctx.expect(
            shows(text, out)
            if isinstance(out, str)
            else all(shows(text, v) for v in mapping(out).values()),
            f"for the re-dispatched call {call_id} the model reads {show(text, 160)}, which does "
            f"not carry the journaled result {show(out)}; {REUSE}",
            at=at,
            reading="reused-result",
        )
        first = _given(trace, original)
        ctx.expect(
            first is None or text.strip() != first[1].strip(),
            f"for the re-dispatched call {call_id} the model reads {show(text, 160)}, exactly "
            f"what it read when call {original} ran: nothing says it already completed and was "
            f"not run again; {REUSE}",
            at=at,
            reading="reused-result",
        )
        failed = isinstance(out, str) and bool(variant.sends) and variant.sends[0].fail == out
        for where, result in located_results(trace, call_id):
            got = mapping(result.result).get("success")
            ctx.expect(
                got is (not failed),
                f"the result of the re-dispatched call {call_id} has success {show(got)}, the "
                f"journaled result's was {show(not failed)}; {REUSE}",
                at=f"{where}/result/success",
                reading="reused-result",
            )


READ_ONLY = "DR-3 ¶3: read-only tools are never blocked"


@check("DR-3#c3", variants=READS, through=(CONTINUES_ON_ITS_OWN,))
def check_read_only_never_blocked(ctx: CheckContext, variant: Redispatch) -> None:
    """A read-only tool re-dispatched with the same input runs again, whether it completed
    or was interrupted before."""
    _expect_runs(
        ctx, _play(ctx, "dr3-c3-read-only", variant), variant, READ_ONLY, "it is read-only"
    )


MATCH = "DR-3 ¶4: the match is on the tool name and a signature of its input, not on position"


@check(
    "DR-3#c4",
    variants=MATCHED,
    through=(CONTINUES_ON_ITS_OWN, LEDGER_RECORDS_RETURNS, HARD_BLOCK_ANSWERS),
)
def check_match_by_content_not_position(ctx: CheckContext, variant: Redispatch) -> None:
    """Matching is by tool name and input, wherever the call sits: an identical call is
    answered from the journal (with its own journaled result), any difference runs."""
    trace = _play(ctx, "dr3-c4-content", variant)
    _expect_runs(ctx, trace, variant, MATCH, "no completed call has its tool and input")
    for call_id, (original, out) in variant.answers.items():
        given = _given(trace, call_id)
        ctx.expect(
            given is not None and shows(given[1], out),
            f"for call {call_id} the model reads {show(given[1] if given else None, 160)}, not "
            f"the journaled result of the call it matches, {original} ({show(out)}); {MATCH}",
            at=given[0] if given else None,
            reading="reused-result",
        )


@check("DR-3#c5", variants=CONSUMED, through=(CONTINUES_ON_ITS_OWN, HARD_BLOCK_ANSWERS))
def check_entry_consumed_once(ctx: CheckContext, variant: Redispatch) -> None:
    """One journaled completion short-circuits one re-dispatch only."""
    _expect_runs(
        ctx,
        _play(ctx, "dr3-c5-consume", variant),
        variant,
        "DR-3 ¶5: each completed entry is consumed when it is matched",
        "every identical completion was already used up by a call before it",
    )


@check("DR-3#c6", variants=FRESH)
def check_fresh_runs_untouched(ctx: CheckContext, variant: Fresh) -> None:
    """A run that was never interrupted sees an empty journal: an identical write runs
    every time it is sent."""
    trace = one_turn(
        ctx,
        "dr3-c6-fresh",
        tools=tools(),
        model=variant.model,
        steps=list(variant.steps),
    )
    for call_id in variant.call_ids:
        said, at = runs_of(trace, call_id)
        ctx.expect(
            len(ran(trace, call_id)) == 1,
            f"send_email {show(dict(ANA))} (call {call_id}) {said}; expected it to run once: no "
            "run of the turn was ever interrupted; DR-3 ¶6: a first-turn call sees an empty "
            "journal, and nothing changes for a run never interrupted",
            at=at,
        )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_snapshot_taken_once_before_chunk,
    check_completed_write_not_repeated,
    check_reused_result_carried_whole,
    check_read_only_never_blocked,
    check_match_by_content_not_position,
    check_entry_consumed_once,
    check_fresh_runs_untouched,
    check_claim_outlasts_a_pause,
)
