"""RT-TOOL-10's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_10`).

¶4 (calls without an identifier, malformed calls) is checked in ``_malformed``, imported
here first.
"""

from __future__ import annotations

from dataclasses import dataclass

from adapters.scenario import Decline, Interrupt, Reply, StartTurn, Step, Wait
from adapters.trace import PassRecord
from conformance.checks.rt_tool_10._malformed import (
    check_call_without_id_is_work_on_neither_list,
    check_malformed_call_dropped_before_the_guard,
)
from conformance.checks.rt_tool_10._mid_batch import (
    check_malformed_call_leaves_the_rest_of_the_batch,
)
from conformance.checks.rt_tool_10._work import (
    CALL_A,
    CALL_B,
    GATED,
    TOOLS,
    Batch,
    Judged,
    batch_ids,
    failed_in,
    judge,
    judge_work,
    play,
)
from conformance.toolkit import (
    GUARD_HOLDS,
    RECORDED_ONCE_RETURNED,
    UNWIRED_CALLS_ANSWERED,
    WORK_PORTS,
    CheckContext,
    Untested,
    call,
    calls,
    check,
    located_passes,
    mapping,
    one_turn,
    say,
    show,
)

__all__ = [
    "check_all_repeat_pass_is_idle",
    "check_call_without_id_is_work_on_neither_list",
    "check_default_exposure",
    "check_empty_batch_reports_false",
    "check_executed_complements_skipped",
    "check_first_time_handling_is_work",
    "check_malformed_call_dropped_before_the_guard",
]


@dataclass(frozen=True)
class Partition:
    """A batch recorded first, then the judged batch (after a question, with ``pause``)."""

    first: Batch
    second: Batch
    expected: Judged
    pause: bool = False


_ODD = '调用-ä/"1"\\~' + "x" * 300
PARTITIONS = {
    "repeat-then-new": Partition(
        (CALL_A,), (CALL_A, CALL_B), Judged(frozenset({"call_b"}), frozenset({"call_a"}), True)
    ),
    "new-around-a-repeat": Partition(
        (CALL_A,),
        (call("other_thing", [], "call_b"), CALL_A, call("do_thing", [], "call_c")),
        Judged(frozenset({"call_b", "call_c"}), frozenset({"call_a"}), True),
    ),
    "every-kind-of-result": Partition(
        (CALL_A,),
        (
            CALL_A,
            call("failing_thing", {}, "call_f"),
            call("no_such_tool", {}, "call_u"),
            call("strict_thing", {"n": {"not": "a number"}}, "call_i"),
        ),
        Judged(frozenset({"call_f", "call_u", "call_i"}), frozenset({"call_a"}), True),
    ),
    "after-an-answer": Partition(
        (CALL_A,),
        (CALL_A, CALL_B),
        Judged(frozenset({"call_b"}), frozenset({"call_a"}), True),
        pause=True,
    ),
    "unusual-identifiers": Partition(
        (call("do_thing", [], _ODD),),
        (call("do_thing", [], _ODD), call("other_thing", [], "b/~1 ü")),
        Judged(frozenset({"b/~1 ü"}), frozenset({_ODD}), True),
    ),
}


@check("RT-TOOL-10#c1", variants=PARTITIONS, through=(GUARD_HOLDS, UNWIRED_CALLS_ANSWERED))
def check_executed_complements_skipped(ctx: CheckContext, variant: Partition) -> None:
    """`executed_any` is a boolean, and `executed` lists exactly the calls that reached the
    guard and were not skipped.  Which calls those are is what the guard (RT-TOOL-9 ¶1)
    and the answer to an unwired call (¶2) decide: where either is broken in the trace,
    the lists are judged by those clauses' cases."""
    _, found = play(
        ctx,
        "rt10-c1-complement",
        [variant.first, variant.second],
        pause_after=0 if variant.pause else None,
    )
    clause = "RT-TOOL-10 ¶1: executed is the complement of skipped"
    first = Judged(batch_ids(variant.first), frozenset(), True)
    judge(ctx, found[0][0], found[0][1], first, clause)
    judge(ctx, found[1][0], found[1][1], variant.expected, clause)


FIRST_TIME: dict[str, Batch] = {
    "unwired-tool": (call("no_such_tool", {}, "call_x"),),
    "declined-call": (call("gated_thing", {}, "call_x"),),
    "invalid-arguments": (call("strict_thing", {"n": {"not": "a number"}}, "call_x"),),
    "failing-tool": (call("failing_thing", {}, "call_x"),),
    "refused-retry-on-resume": (call("write_thing", {"to": "a"}, "call_x"),),
}


#: A declined call is handled for the first time only where it was never recorded as it
#: paused (RT-TOOL-9 ¶4): one recorded then looks like a repeat when declined.
@check("RT-TOOL-10#c2", variants=FIRST_TIME, through=(WORK_PORTS, RECORDED_ONCE_RETURNED))
def check_first_time_handling_is_work(ctx: CheckContext, variant: Batch) -> None:
    """A call handled for the first time is work, though no tool ran or it failed: a batch
    of only such a call reports `executed_any` true."""
    name = str(mapping(variant[0]).get("name"))
    steps: list[Step] = [StartTurn("t1")]
    model: list[Reply] = [calls(*variant)]
    tools = TOOLS
    if name == "gated_thing":
        steps.append(Decline("t1"))
        tools = [*TOOLS, GATED]
    elif name == "write_thing":
        # The identical retry, under a new id, of a write cut after its body ran is refused
        # on resume by the durable-resume rules (DR-4): only they make such a resume.
        ctx.require_profile("durable-resume")
        first = call("write_thing", {"to": "a"}, "call_w")
        model = [calls(first), *model]
        steps = [Interrupt("after_tool_body", "time_limit", "write_thing"), StartTurn("t1"), Wait()]
    trace = one_turn(
        ctx, "rt10-c2-first-time", tools=tools, model=[*model, say("done")], steps=steps
    )
    judged = [
        (at, one)
        for at, _, one in located_passes(trace)
        if "call_x" in batch_ids(one.batch) and not one.paused
    ]
    ctx.need(bool(judged), "no tool pass handled call_x to the end", at="/steps")
    at, one = judged[-1]
    failed = failed_in(trace)
    ctx.need(
        failed != at,
        "the run ended failed in the pass that handled call_x, never finishing it; "
        "RT-TOOL-10 ¶2: a call handled for the first time is work, and one naming a tool "
        'that is not wired gets the recoverable "not an available tool" result',
        at=f"{at}/results",
    )
    # Which list the call is on is ¶1's word (executed-complements-skipped judges it).
    judge_work(ctx, at, one, True, "RT-TOOL-10 ¶2: a call handled for the first time is work")
    if name == "no_such_tool":
        _judge_not_available(ctx, at, one)


def _judge_not_available(ctx: CheckContext, at: str, one: PassRecord) -> None:
    """The unwired call's result is the recoverable "not an available tool" failure the
    model re-plans against, never a success."""
    found = [(n, r) for n, r in enumerate(one.results) if r.tool_call_id == "call_x"]
    ctx.need(bool(found), f"the pass reports no result for call_x (at {at}/results)")
    number, result = found[0]
    success = mapping(result.result).get("success")
    ctx.expect(
        success is False,
        f"the result of call_x, naming the tool no_such_tool that is not wired, has success "
        f"{show(success)}: {show(result.result, 160)}; RT-TOOL-10 ¶2: its result is the "
        'recoverable "not an available tool" error the model must re-plan against',
        at=f"{at}/results/{number}/result/success",
    )


@dataclass(frozen=True)
class Repeats:
    """A batch sent ``times`` times (a question answered after the first, with ``pause``)."""

    batch: Batch = (CALL_A,)
    times: int = 2
    pause: bool = False


REPEATS = {
    "second-pass": Repeats(),
    "third-pass": Repeats(times=3),
    "after-an-answer": Repeats(pause=True),
    "of-a-stored-failure": Repeats(batch=(call("failing_thing", {}, "call_a"),)),
    "of-two-calls": Repeats(batch=(CALL_A, CALL_B)),
}


@check(
    "RT-TOOL-10#c2",
    variants=REPEATS,
    name="all-repeat-pass-is-idle",
    through=(WORK_PORTS, GUARD_HOLDS),
)
def check_all_repeat_pass_is_idle(ctx: CheckContext, variant: Repeats) -> None:
    """A pass whose every call was already handled in the run reports `executed_any`
    false, although it re-emits results: only first-time handling is work."""
    _, found = play(
        ctx,
        "rt10-c2-all-repeat",
        [variant.batch] * variant.times,
        pause_after=0 if variant.pause else None,
    )
    # A repeat that ran again (RT-TOOL-9 ¶1's gap) leaves no pass of nothing but
    # repeats: the check declares the guard's channel.
    first = "RT-TOOL-10 ¶2: a call handled for the first time is work"
    judge_work(ctx, found[0][0], found[0][1], True, first)
    for at, one in found[1:]:
        # The repeats are on skipped: ¶1's word, and RT-TOOL-9 ¶2's.
        judge_work(ctx, at, one, False, "RT-TOOL-10 ¶2: a pass of nothing but repeats did no work")


EMPTY: dict[str, tuple[tuple[Batch, ...], int | None]] = {
    "first-pass": (((),), None),
    "after-a-pass-that-worked": (((CALL_A,), ()), None),
    "after-an-answer": (((CALL_A,), ()), 0),
}


@check("RT-TOOL-10#c3", variants=EMPTY, through=(WORK_PORTS,))
def check_empty_batch_reports_false(
    ctx: CheckContext, variant: tuple[tuple[Batch, ...], int | None]
) -> None:
    """An empty batch reports `executed_any` false."""
    batches, pause_after = variant
    _, found = play(ctx, "rt10-c3-empty", batches, pause_after=pause_after, every_pass=False)
    empty = [(at, one) for at, one in found if not one.batch]
    if not empty:
        # A runtime that never invokes its tool step without calls never meets the
        # clause's situation: a reply with no calls is, to it, a final answer.
        raise Untested(
            f"no pass over an empty batch was reported ({len(batches)} batches were sent, "
            f"{len(found)} tool passes reported)"
        )
    at, one = empty[-1]
    judge_work(ctx, at, one, False, "RT-TOOL-10 ¶3: an empty batch reports false")


EXPOSURES: dict[str, dict[str, bool] | None] = {
    "no-choices": None,
    "other-ports-chosen": {"tool_artifacts": True, "skipped": True},
}


@check("RT-TOOL-10#c5", variants=EXPOSURES, through=(WORK_PORTS,))
def check_default_exposure(ctx: CheckContext, variant: dict[str, bool] | None) -> None:
    """`executed_any` is exposed by default, in every pass; `executed` is not."""
    trace = one_turn(
        ctx,
        "rt10-c5-exposure",
        expose=variant,
        tools=TOOLS,
        model=[calls(CALL_A), calls(CALL_A, CALL_B), say("done")],
    )
    for at, _, one in located_passes(trace):
        exposed = mapping(one.exposed)
        ctx.expect(
            exposed.get("executed_any") is True,
            f"the pass reports executed_any exposed {show(exposed.get('executed_any'))}; "
            "RT-TOOL-10 ¶5 exposes it by default",
            at=f"{at}/exposed/executed_any",
        )
        ctx.expect(
            exposed.get("executed") is False,
            f"the pass reports executed exposed {show(exposed.get('executed'))}; RT-TOOL-10 ¶5 "
            "does not expose it by default",
            at=f"{at}/exposed/executed",
        )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_call_without_id_is_work_on_neither_list,
    check_malformed_call_dropped_before_the_guard,
    check_executed_complements_skipped,
    check_first_time_handling_is_work,
    check_all_repeat_pass_is_idle,
    check_empty_batch_reports_false,
    check_default_exposure,
    check_malformed_call_leaves_the_rest_of_the_batch,
)
