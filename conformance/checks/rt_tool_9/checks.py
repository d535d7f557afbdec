"""RT-TOOL-9's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_9`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adapters.scenario import Answer, Approve, Reply, Restart, Return, StartTurn, Step
from adapters.trace import Trace
from conformance.checks.rt_tool_9._channels import ONE_DECISION_PER_APPROVAL, REPEATS_RE_EMITTED
from conformance.checks.rt_tool_9._scope import (
    check_guard_keeps_to_its_own_conversation,
)
from conformance.toolkit import (
    GUARD_HOLDS,
    RESULTS_SHAPED,
    UNIDENTIFIED_CALLS_ANSWERED,
    CheckContext,
    Untested,
    ask,
    call,
    calls,
    check,
    failure,
    listing,
    located_passes,
    located_runs,
    located_side_effects,
    mapping,
    one_turn,
    output,
    port,
    say,
    show,
    tool,
)

ANY_ARGS: Mapping[str, object] = {}
CLAUSE_1 = "RT-TOOL-9 ¶1: a call whose identifier the run already recorded is not invoked again"
CLAUSE_5 = "RT-TOOL-9 ¶5: a call that carries no identifier always runs"


@dataclass(frozen=True)
class Repeat:
    """One call sent again: ``times`` passes in all, with ``pause`` ("answer" or
    "restart") between the first and the rest, its first execution ``fails`` or not."""

    times: int = 2
    pause: str | None = None
    fails: bool = False
    call_id: str = "call_a"
    beside_new_call: bool = False


REPEATS: dict[str, Repeat] = {
    "second-pass": Repeat(),
    "third-pass": Repeat(times=3),
    "after-an-answer": Repeat(pause="answer"),
    "after-a-restart": Repeat(pause="restart"),
    "stored-failure": Repeat(fails=True),
    "unusual-identifier": Repeat(call_id='调用-ä/"1"\\' + "x" * 300),
}


def _repeat(ctx: CheckContext, name: str, repeat: Repeat) -> Trace:
    """The call ``do_thing`` sent ``repeat.times`` times, in as many passes of one turn."""
    first = [call("do_thing", [], repeat.call_id)]
    again = [*first, call("other_thing", [], "call_new")] if repeat.beside_new_call else first
    returns: Return = failure("no such record") if repeat.fails else output({"result": "did it"})
    model: list[Reply] = [calls(*first)]
    steps: list[Step] = [StartTurn("t1")]
    if repeat.pause is not None:
        model.append(ask("Go on?"))
        steps += [Restart(), Answer("t1")] if repeat.pause == "restart" else [Answer("t1")]
    model += [calls(*again) for _ in range(repeat.times - 1)]
    return one_turn(
        ctx,
        name,
        tools=[
            tool("do_thing", returns, schema=dict(ANY_ARGS)),
            tool("other_thing", output({"result": "other"}), schema=dict(ANY_ARGS)),
        ],
        model=[*model, say("done")],
        steps=steps,
    )


def _ran(trace: Trace, tool_name: str) -> list[str]:
    """Where each execution of ``tool_name``'s body shows in the trace."""
    return [at for at, _ in located_side_effects(trace, tool_name)]


@check("RT-TOOL-9#c1", variants=REPEATS)
def check_recorded_call_not_invoked_again(ctx: CheckContext, variant: Repeat) -> None:
    """A call whose identifier was already executed in the run is not invoked again."""
    trace = _repeat(ctx, "rt9-c1-once", variant)
    ran = _ran(trace, "do_thing")
    ctx.expect(
        len(ran) == 1,
        f"call {show(variant.call_id, 40)}, sent in {variant.times} passes, ran {len(ran)} "
        f"times (at {listing(ran) or 'nowhere'}); {CLAUSE_1}",
    )


SECOND_PASSES: dict[str, Repeat] = {
    "stored-success": Repeat(),
    "stored-failure": Repeat(fails=True),
    "beside-a-new-call": Repeat(beside_new_call=True),
    "failed-beside-a-new-call": Repeat(fails=True, beside_new_call=True),
    "after-an-answer": Repeat(pause="answer"),
}


@check("RT-TOOL-9#c2", variants=SECOND_PASSES, through=(GUARD_HOLDS, REPEATS_RE_EMITTED))
def check_repeat_reported_and_re_emitted(ctx: CheckContext, variant: Repeat) -> None:
    """The repeat is reported on `skipped`, and its stored first result (message and success)
    is re-emitted and counted in the batch's outcome.  A repeat that ran again (¶1's gap)
    leaves no skipped repeat to report, and one whose message was dropped (¶3's) none to
    compare: the check observes through the guard and the re-emission."""
    trace = _repeat(ctx, "rt9-c2-re-emitted", variant)
    passes = located_passes(trace)
    ctx.need(len(passes) >= 2, f"two batches were sent, {len(passes)} tool passes reported")
    (first_at, _, first), (at, _, repeat) = passes[0], passes[1]
    call_id = variant.call_id
    ctx.expect(
        port(repeat, "skipped") == [call_id],
        f"the repeat pass reports skipped {show(port(repeat, 'skipped'))} (at {at}/ports/skipped);"
        f" RT-TOOL-9 ¶2 reports the repeat of {call_id} there",
    )
    stored = _messages(first.tool_messages, call_id)
    again = _messages(repeat.tool_messages, call_id)
    ctx.need(len(stored) == 1, f"the first pass (at {first_at}) has no tool message for {call_id}")
    if ctx.expect(
        len(again) == 1,
        f"the repeat pass emits {len(again)} tool messages for {call_id} (at "
        f"{at}/tool_messages); RT-TOOL-9 ¶2 re-emits the stored one",
    ):
        ctx.expect(
            again[0].get("content") == stored[0].get("content"),
            f"the re-emitted tool message is {show(again[0].get('content'))}, the first "
            f"execution's was {show(stored[0].get('content'))} (at {at}/tool_messages); "
            "RT-TOOL-9 ¶2 re-emits the stored message",
        )
    first_results = [r for r in first.results if r.tool_call_id == call_id]
    repeated = [r for r in repeat.results if r.tool_call_id == call_id]
    success = not variant.fails
    if ctx.expect(
        len(repeated) == 1,
        f"the repeat pass has {len(repeated)} results for {call_id} (at {at}/results); "
        "RT-TOOL-9 ¶2 re-emits the stored result among them",
    ):
        got = mapping(repeated[0].result).get("success")
        ctx.expect(
            got is success,
            f"the re-emitted result has success {show(got)}, the first execution's was "
            f"{show(success)} (at {at}/results); RT-TOOL-9 ¶2 re-emits whether it succeeded",
        )
        if first_results:
            ctx.expect(
                _as_stored(repeated[0].result) == _as_stored(first_results[0].result),
                f"the re-emitted result {show(repeated[0].result)} differs from the stored "
                f"{show(first_results[0].result)} (at {at}/results); RT-TOOL-9 ¶2 re-emits "
                "the stored result",
                through=(*_THROUGH_PASSES, RESULTS_SHAPED),
            )
    expected = {
        "succeeded": (1 if success else 0) + (1 if variant.beside_new_call else 0),
        "failed": 0 if success else 1,
    }
    counted = {key: mapping(repeat.outcome).get(key) for key in expected}
    ctx.expect(
        counted == expected,
        f"the repeat pass's outcome counts {show(counted)} (at {at}/outcome), expected "
        f"{show(expected)}; RT-TOOL-9 ¶2 counts the stored result in the batch's outcome",
    )


#: What ¶2's check observes through besides a whole result: the guard and the re-emission.
_THROUGH_PASSES = (GUARD_HOLDS, REPEATS_RE_EMITTED)


def _as_stored(result: object) -> tuple[object, ...]:
    """What a stored result is made of in the rules' words: its ``success``, ``data`` and
    ``error`` (RT-TOOL-1 ¶1) and the artifacts it attached (¶2; an empty list attaches
    nothing).  A key of the runtime's own beside them is RT-TOOL-1 ¶1's to judge, and a
    result missing one of the three is not shaped so (the comparison observes through
    that shape): neither is a difference in what was re-emitted."""
    body = mapping(result)
    attached = body.get("artifacts")
    return (
        body.get("success"),
        body.get("data"),
        body.get("error"),
        attached if attached != [] else None,
    )


def _messages(messages: Sequence[object], call_id: str) -> list[Mapping[str, object]]:
    return [mapping(m) for m in messages if mapping(m).get("tool_call_id") == call_id]


@dataclass(frozen=True)
class GatedBatch:
    """A batch with gated calls among plain ones, approved one gate at a time."""

    batch: tuple[tuple[str, str], ...]  # (tool, call id), in the order the model sent them
    restart: bool = False

    @property
    def gates(self) -> list[str]:
        return [call_id for name, call_id in self.batch if name == "gated_thing"]

    @property
    def plain_before_first_gate(self) -> list[str]:
        out: list[str] = []
        for name, call_id in self.batch:
            if name == "gated_thing":
                break
            out.append(call_id)
        return out


GATED: dict[str, GatedBatch] = {
    "gate-last": GatedBatch((("do_thing", "call_a"), ("gated_thing", "call_gate"))),
    "gate-in-the-middle": GatedBatch(
        (("do_thing", "call_a"), ("gated_thing", "call_gate"), ("other_thing", "call_b"))
    ),
    # The call between the gates fails recoverably before the second pause: a recoverable
    # error is recorded as a success is (¶4: "success or a recoverable error").
    "two-gates": GatedBatch(
        (
            ("do_thing", "call_a"),
            ("gated_thing", "call_gate"),
            ("failing_thing", "call_b"),
            ("gated_thing", "call_gate_2"),
        )
    ),
    "restart-before-approval": GatedBatch(
        (("do_thing", "call_a"), ("gated_thing", "call_gate")), restart=True
    ),
}


def _gate_trace(ctx: CheckContext, name: str, shape: GatedBatch) -> Trace:
    tools = [
        tool("do_thing", output({"result": "did it"}), schema=dict(ANY_ARGS)),
        tool("other_thing", output({"result": "other"}), schema=dict(ANY_ARGS)),
        tool("failing_thing", failure("no such record"), schema=dict(ANY_ARGS)),
        tool("gated_thing", output({"result": "sent"}), schema=dict(ANY_ARGS), gate=True),
    ]
    steps: list[Step] = [StartTurn("t1")]
    if shape.restart:
        steps.append(Restart())
    steps += [Approve("t1") for _ in shape.gates]
    # Each gated call asks something of its own (a runtime may key a consent by what is
    # asked, and decide each on its own).
    batch = calls(
        *(
            call(name, {"to": call_id} if name == "gated_thing" else [], call_id)
            for name, call_id in shape.batch
        )
    )
    return one_turn(ctx, name, tools=tools, model=[batch, say("done")], steps=steps)


#: What the gated checks observe through: the guard, which keeps the calls that returned
#: before a pause from running again (¶1), and one decision per approve step.
GATED_THROUGH = (GUARD_HOLDS, ONE_DECISION_PER_APPROVAL)


@check("RT-TOOL-9#c3", variants=GATED, through=GATED_THROUGH)
def check_no_declared_call_left_unanswered(ctx: CheckContext, variant: GatedBatch) -> None:
    """After a batch paused midway is re-issued, every declared call is answered, the
    already-executed ones by their re-emitted results: in the tool messages the re-issued
    pass sends downstream, and in what the model is given next."""
    trace = _gate_trace(ctx, "rt9-c3-answered", variant)
    declared = [call_id for _, call_id in variant.batch]
    approved = [(at, run, one) for at, run, one in located_passes(trace) if run.cause == "approve"]
    ctx.need(bool(approved), "no tool pass was reported after the approval")
    # The pass's own output first: a runtime may patch the model's input from its records,
    # but whatever else reads the node's tool messages would still miss a dropped repeat.
    at, run, last = approved[-1]
    emitted = {mapping(m).get("tool_call_id") for m in last.tool_messages}
    missing = [call_id for call_id in declared if call_id not in emitted]
    # The re-issued batch is the clause's situation: a runtime that resumes by running the
    # approved call alone, the others never reaching its guard again, has no repeat to
    # re-emit; what the model is given next (below) still answers for every call.
    reissued = {r.tool_call_id for r in last.results} >= set(variant.plain_before_first_gate)
    ctx.expect(
        not reissued or not missing,
        f"the re-issued pass after the last approval emits no tool message for declared "
        f"calls {show(missing)} (at {at}/tool_messages); RT-TOOL-9 ¶3 answers every "
        "declared call, a repeat by its re-emitted result",
    )
    ctx.need(bool(run.model_inputs), "after the last approval the model was not called again")
    given = run.model_inputs[0].messages
    answered = {mapping(m).get("tool_call_id") for m in given if mapping(m).get("role") == "tool"}
    unanswered = [call_id for call_id in declared if call_id not in answered]
    ctx.expect(
        not unanswered,
        f"after the last approval the model is given no result for declared calls "
        f"{show(unanswered)}; RT-TOOL-9 ¶3 leaves no declared call identifier unanswered",
    )


@check("RT-TOOL-9#c4", variants=GATED, through=GATED_THROUGH)
def check_recorded_only_once_returned(ctx: CheckContext, variant: GatedBatch) -> None:
    """A call that paused for approval was never recorded: once approved it runs, and the
    calls that had returned before the pause are skipped, never run again."""
    trace = _gate_trace(ctx, "rt9-c4-after-approval", variant)
    # The clause's own expectations first: what ran, and how often.
    for name in ("do_thing", "other_thing", "failing_thing"):
        ran = _ran(trace, name)
        expected = sum(1 for tool_name, _ in variant.batch if tool_name == name)
        ctx.expect(
            len(ran) == expected,
            f"{name} ran {len(ran)} times (at {listing(ran) or 'nowhere'}), expected "
            f"{expected}: a call that returned before the pause is recorded, and is not "
            "invoked again when the batch is re-issued (RT-TOOL-9 ¶1, ¶4)",
        )
    gated = _ran(trace, "gated_thing")
    ctx.expect(
        len(gated) == len(variant.gates),
        f"the gated calls ran {len(gated)} times (at {listing(gated) or 'nowhere'}), expected "
        f"{len(variant.gates)}: a call that paused for approval was never recorded, so once "
        "approved it runs (RT-TOOL-9 ¶4)",
    )
    # What the clause speaks of is what ran: the `executed` and `skipped` outputs that
    # report it are RT-TOOL-10 ¶1's and RT-TOOL-9 ¶2's words, judged by their own cases.
    gate = variant.gates[0]
    elsewhere = [
        f"{at}/side_effects/{number}"
        for at, run in located_runs(trace)
        if run.cause != "approve"
        for number, effect in enumerate(run.side_effects)
        if mapping(effect).get("tool") == "gated_thing"
    ]
    ctx.expect(
        not elsewhere,
        f"a gated call ran before it was approved (at {listing(elsewhere)}); RT-TOOL-9 ¶4: "
        f"a call that pauses for approval, such as {gate}, runs once approved",
    )


@dataclass(frozen=True)
class Unguarded:
    """A call without an identifier, sent in ``passes`` passes (``twice`` in each), with
    a pause after the first; ``null_id`` sends ``"tool_call_id": null`` instead of none,
    ``numeric_id`` that number: an identifier to some readings, none to others
    (docs/interpretations.md, malformed-calls), so it is sent in one pass only, where
    every reading runs it."""

    passes: int = 2
    pause: bool = False
    twice: bool = False
    null_id: bool = False
    numeric_id: int | None = None


NO_IDS: dict[str, Unguarded] = {
    "two-passes": Unguarded(),
    "three-passes": Unguarded(passes=3),
    "twice-in-one-batch": Unguarded(passes=1, twice=True),
    "after-an-answer": Unguarded(pause=True),
    "null-identifier": Unguarded(null_id=True),
    "numeric-identifier-sent-once": Unguarded(passes=1, numeric_id=7),
}


@check("RT-TOOL-9#c5", variants=NO_IDS, through=(UNIDENTIFIED_CALLS_ANSWERED,))
def check_call_without_id_always_runs(ctx: CheckContext, variant: Unguarded) -> None:
    """A call with no identifier cannot be guarded: it runs every time it is sent.  What
    was sent is what the runtime received: a batch the model was never asked for (the
    run ended before) was never sent; a run that failed in the pass over such a call,
    before it answered them all, is RT-TOOL-10 ¶4's gap (the check observes through
    the pass that answers the call)."""
    bare: dict[str, object] = {"name": "do_thing", "args": []}
    if variant.null_id:
        bare["tool_call_id"] = None
    if variant.numeric_id is not None:
        bare["tool_call_id"] = variant.numeric_id
    batch = calls(bare, dict(bare)) if variant.twice else calls(bare)
    model: list[Reply] = [batch]
    steps: list[Step] = [StartTurn("t1")]
    if variant.pause:
        model.append(ask("Go on?"))
        steps.append(Answer("t1"))
    model += [batch] * (variant.passes - 1)
    trace = one_turn(
        ctx,
        "rt9-c5-no-id",
        tools=[tool("do_thing", output({"result": "did it"}), schema=dict(ANY_ARGS))],
        model=[*model, say("done")],
        steps=steps,
    )
    planned = variant.passes * (2 if variant.twice else 1)
    ran = _ran(trace, "do_thing")
    if variant.numeric_id is not None:
        ctx.expect(
            len(ran) == planned,
            f"a call whose identifier is the number {variant.numeric_id}, sent once, ran "
            f"{len(ran)} times (at {listing(ran) or 'nowhere'}); its one sending runs whether "
            f"the number counts as no identifier ({CLAUSE_5}) or as one not yet recorded "
            "(RT-TOOL-9 ¶1 holds back only a recorded one)",
            reading="malformed-calls",
        )
        return
    sent = _sent_without_id(trace, model)
    if sent < planned and sent < 2:
        ends = sorted({run.end for run in trace.runs()})
        raise Untested(
            f"the call without an identifier was to be sent {planned} times and reached the "
            f"runtime {sent} time(s): the model was asked for the replies carrying it no "
            f"more often (its runs ended {', '.join(ends) or 'nowhere'}), so it was never "
            "sent again"
        )
    ctx.expect(
        len(ran) == sent,
        f"a call without an identifier, sent {sent} times, ran {len(ran)} times (at "
        f"{listing(ran) or 'nowhere'}); {CLAUSE_5}",
    )


def _sent_without_id(trace: Trace, model: Sequence[Reply]) -> int:
    """How many calls without an identifier reached the runtime: those of the replies the
    model was asked for (one per model input, in order), or of the batches its passes
    received, whichever shows more."""
    asked = sum(len(run.model_inputs) for run in trace.runs())
    replied = sum(_unidentified(reply.tool_calls or ()) for reply in model[:asked])
    received = sum(_unidentified(one.batch) for _, one in trace.passes())
    return max(replied, received)


def _unidentified(batch: Sequence[object]) -> int:
    return sum(
        1 for call in batch if isinstance(call, Mapping) and call.get("tool_call_id") is None
    )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_recorded_call_not_invoked_again,
    check_repeat_reported_and_re_emitted,
    check_no_declared_call_left_unanswered,
    check_recorded_only_once_returned,
    check_call_without_id_always_runs,
    check_guard_keeps_to_its_own_conversation,
)
