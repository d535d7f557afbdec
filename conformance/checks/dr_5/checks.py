"""DR-5's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.dr_5`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adapters.scenario import (
    UNENCODABLE,
    Answer,
    Continue,
    FailWriteBack,
    Interrupt,
    Restart,
    Return,
    StartTurn,
    Step,
    Stop,
    Wait,
)
from adapters.trace import Trace
from conformance.toolkit import (
    CONTINUE_ACCEPTED,
    CONTINUES_ON_ITS_OWN,
    NOTE_AFTER_THE_NUDGE,
    NOTE_NAMES_COMPLETED,
    CheckContext,
    Untested,
    ask,
    call,
    calls,
    check,
    cut,
    describe,
    in_state,
    located_continuations,
    located_runs,
    mapping,
    names_call,
    nudge,
    one_turn,
    output,
    plural,
    resume_prompt,
    resumes_by_itself,
    say,
    show,
    shows,
    stopped_with_continue,
    strings,
    text_of,
    ticket,
    tools,
    turn,
    turn_pointer,
    unnamed,
)

TICKET: Mapping[str, object] = {"title": "Printer jam"}
LOOKUP = {"id": 7}


def _automatic(trace: Trace, label: str = "t1") -> list[str]:
    """Where the automatic continuations of turn ``label`` are."""
    return [at for at, _ in located_continuations(trace, label, ("auto_continue",))]


def _bounded(steps: list[Step]) -> dict[int, int]:
    """For each wait bounded by ``rounds``, the automatic continuations the scenario needs
    made by the end of that step: the rounds asked so far."""
    needs, asked = {}, 0
    for index, step in enumerate(steps):
        if isinstance(step, Wait) and step.rounds is not None:
            asked += step.rounds
            needs[index] = asked
    return needs


def _reached(trace: Trace, needs: dict[int, int]) -> None:
    """The turn had continued on its own, by the end of each step of ``needs``, as often
    as the case needs.  A wait may continue less than its bound, or a runtime before any
    wait: the state the case observes was then never reached, and the case is untested,
    whatever it would observe there."""
    found = [int(at.split("/")[2]) for at in _automatic(trace)]
    for index, needed in sorted(needs.items()):
        made = sum(1 for at in found if at <= index)
        if made != needed:
            raise Untested(
                f"by the end of step {index} the turn had continued on its own "
                f"{plural(made, 'time')}, not the {needed} the case needs before what it "
                "observes (a wait bounded by rounds may continue less)"
            )


def _model_cuts(count: int, cause: str = "time_limit") -> list[Step]:
    return [cut("during_model_call", cause) for _ in range(count)]


@dataclass(frozen=True)
class Continued:
    """A turn (``label``) cut by its time limit; ``calls`` are the model's tool calls before
    and between the cuts, ``given`` what each continuation must be given (tool, input,
    what it returned); ``before`` steps run first (an earlier turn)."""

    calls: tuple[tuple[dict[str, object], ...], ...]
    cuts: tuple[Interrupt, ...]
    given: tuple[tuple[str, object, object], ...] = ()
    restart: bool = False
    label: str = "t1"
    before: tuple[Step, ...] = ()
    earlier_replies: int = 0


CONTINUED: dict[str, Continued] = {
    "cut-after-a-tool-returned": Continued(
        ((call("lookup", LOOKUP, "c1"),),),
        (cut("after_tool_done", on="lookup"),),
        (("lookup", LOOKUP, "order 7: shipped"),),
    ),
    "cut-in-a-model-call": Continued((), (cut("during_model_call"),)),
    "cut-twice": Continued(
        ((call("lookup", LOOKUP, "c1"),), (ticket(TICKET, "c2"),)),
        (cut("after_tool_done", on="lookup"), cut("after_tool_done", on="create_ticket")),
        (("lookup", LOOKUP, "order 7: shipped"), ("create_ticket", TICKET, "T-1")),
    ),
    "after-a-restart": Continued(
        ((call("lookup", LOOKUP, "c1"),),),
        (cut("after_tool_done", on="lookup"),),
        (("lookup", LOOKUP, "order 7: shipped"),),
        restart=True,
    ),
    # A call without an identifier is answered in the thread all the same (RT-TOOL-9 ¶5
    # runs it): its result is among the thread's tool results the continuation gets.
    "cut-after-a-call-without-an-id": Continued(
        ((call("lookup", LOOKUP),),),
        (cut("during_model_call", nth=2),),
        (("lookup", LOOKUP, "order 7: shipped"),),
    ),
    "in-a-later-turn": Continued(
        ((call("lookup", LOOKUP, "c1"),),),
        (cut("after_tool_done", on="lookup"),),
        (("lookup", LOOKUP, "order 7: shipped"),),
        label="t2",
        before=(StartTurn("t1"),),
        earlier_replies=1,
    ),
}
CONTINUES = "DR-5 ¶1: a turn stopped at its run time limit continues on its own, in the same turn"


@check("DR-5#c1", variants=CONTINUED)
def check_continues_in_same_turn_with_thread(ctx: CheckContext, variant: Continued) -> None:
    """Cut at its time limit, the turn continues on its own, in the same turn, and the
    continuation is given the thread's tool calls and results plus the journal note."""
    earlier = [say("earlier turn done")] * variant.earlier_replies
    steps: list[Step] = [*variant.before, *variant.cuts, StartTurn(variant.label)]
    steps += [Restart()] if variant.restart else []
    trace = one_turn(
        ctx,
        "dr5-c1-continues",
        tools=tools(),
        model=[*earlier, *(calls(*batch) for batch in variant.calls), say("done")],
        steps=[*steps, Wait()],
    )
    label = variant.label
    cut_off = [
        at
        for at, run in located_runs(trace)
        if run.turn == label
        and run.end == "interrupted"
        and mapping(run.interruption).get("cause", "time_limit") == "time_limit"
    ]
    if not cut_off:
        ends = [f"{one.end} (at {at})" for at, one in located_runs(trace) if one.turn == label]
        raise Untested(
            f"no time limit armed cut turn {label}: its runs ended "
            f"{', '.join(ends) or 'nowhere'} before one did, so the turn never stopped at its "
            "time limit, which is what DR-5 ¶1 speaks of"
        )
    resumed = located_continuations(trace, variant.label, ("auto_continue",))
    ctx.need(
        len(resumed) == len(variant.cuts),
        f"turn {variant.label} was cut by its time limit {plural(len(variant.cuts), 'time')} "
        f"and continued on its own {plural(len(resumed), 'time')} (runs of cause "
        f"auto_continue); {CONTINUES}",
        at=turn_pointer(trace, variant.label),
    )
    at, run = resumed[-1]
    given = list(run.model_inputs[0].messages) if run.model_inputs else []
    where = f"{at}/model_inputs/0/messages"
    prompt = resume_prompt(run, nudge(ctx))
    for tool, args, out in variant.given:
        ctx.expect(
            any(tool in list(strings(m)) or names_call(text_of(m), tool, args) for m in given),
            f"the continuation's model input names no {tool} call {show(args)}; DR-5 ¶1 gives "
            "the resumed run the thread's tool calls",
            at=where,
        )
        results = [m for m in given if mapping(m).get("role") == "tool"]
        ctx.expect(
            any(shows(text_of(m), out) for m in results),
            f"no tool message of the continuation's model input carries {tool}'s result "
            f"{show(out)}; DR-5 ¶1 gives the resumed run the thread's tool results",
            at=where,
        )
        ctx.expect(
            prompt is not None and names_call(prompt.note, tool, args),
            f"in the continuation's prompt {unnamed(prompt, f'the completed {tool} {show(args)}')}"
            "; DR-5 ¶1 gives the resumed run the journal note",
            at=where,
            reading="right-after-the-nudge",
            # where the note is and what it names are DR-2's: a continuation given a note
            # before the nudge, or one that leaves a call out, was still given the note
            through=(NOTE_AFTER_THE_NUDGE, NOTE_NAMES_COMPLETED),
        )


STOPPED: dict[str, tuple[int, bool]] = {
    "after-the-first-cut": (1, False),
    "after-the-third-cut": (3, False),
    "after-a-restart": (1, True),
}


@check("DR-5#c2", "DR-5#c5", variants=STOPPED, through=(CONTINUES_ON_ITS_OWN,))
def check_reports_resuming_and_stop_works(ctx: CheckContext, variant: tuple[int, bool]) -> None:
    """While it waits to continue, the turn reports that it is resuming; Stop is accepted,
    no automatic continuation follows it, and the turn waits with Continue available
    (¶5's words: "after ... a stop ... the turn ends with Continue available")."""
    cuts, restart = variant
    steps: list[Step] = [*_model_cuts(cuts), StartTurn("t1")]
    if cuts > 1:
        steps.append(Wait(rounds=cuts - 1))
    if restart:
        steps.append(Restart())
    waiting_step = len(steps) - 1
    steps += [Stop("t1"), Wait()]
    trace = one_turn(ctx, "dr5-c2-resuming", tools=tools(), model=[say("done")], steps=steps)
    _reached(trace, {**_bounded(steps), waiting_step: cuts - 1})
    waiting = turn(trace, "t1", step=waiting_step)
    resuming = ctx.expect(
        in_state(ctx.handshake, waiting, "resuming"),
        f"cut by its time limit {plural(cuts, 'time')}, the turn waiting to continue is "
        f"{describe(ctx.handshake, waiting)}; DR-5 ¶2: while it waits, the turn reports that "
        "it is resuming",
        at=turn_pointer(trace, "t1", step=waiting_step),
        reading="turn-states",
        clause="DR-5#c2",
    )
    if not resuming:
        return  # Stop is judged on a turn that waits to continue; this one did not
    stop = trace.steps[waiting_step + 1]
    works = "DR-5 ¶2: stopping a turn that waits to continue still works"
    ctx.expect(
        stop.outcome == "ok",
        f"Stop on the resuming turn was {stop.outcome} ({show(stop.error)}); {works}",
        at=f"/steps/{waiting_step + 1}/outcome",
        clause="DR-5#c2",
    )
    after = [at for at in _automatic(trace) if int(at.split("/")[2]) > waiting_step]
    ctx.expect(
        not after,
        f"after Stop the turn continued on its own anyway (at {', '.join(after)}); {works}",
        at=after[0] if after else None,
        clause="DR-5#c2",
    )
    stopped = turn(trace, "t1")
    ctx.expect(
        stopped_with_continue(ctx.handshake, stopped),
        f"after Stop the turn is {describe(ctx.handshake, stopped)}: it does not wait with "
        "Continue available; DR-5 ¶5: after a stop the turn ends with Continue available",
        at=turn_pointer(trace, "t1"),
        reading="stopped-with-continue",
        clause="DR-5#c5",
    )


def _capped(ctx: CheckContext, trace: Trace, label: str, clause: str, step: int = -1) -> None:
    """Turn ``label`` continued on its own three times, then (after ``step``) waits with
    Continue.  More than three breaks ¶3's "at most three times"; fewer, cut by its time
    limit with continuations to spare, breaks ¶1's "it continues on its own"."""
    found = _automatic(trace, label)
    listed = f"{': ' + ', '.join(found[:5]) if found else ''}"
    ctx.expect(
        len(found) <= 3,
        f"turn {label} continued on its own {plural(len(found), 'time')} (runs of cause "
        f"auto_continue{listed}), expected 3; {clause}",
        at=found[3] if len(found) > 3 else turn_pointer(trace, label),
        clause="DR-5#c3",
    )
    ctx.expect(
        len(found) >= 3,
        f"cut by its time limit more than three times, turn {label} continued on its own "
        f"only {plural(len(found), 'time')} (runs of cause auto_continue{listed}), expected "
        "3; DR-5 ¶1: when a turn is stopped at its run time limit, it continues on its own "
        "(until ¶3's three are used)",
        at=turn_pointer(trace, label),
        clause="DR-5#c1",
    )
    final = turn(trace, label, step=step)
    ctx.expect(
        stopped_with_continue(ctx.handshake, final),
        f"cut by its time limit once more than it may continue, turn {label} ends "
        f"{describe(ctx.handshake, final)}, not waiting with Continue available; DR-5 ¶5: "
        "after the third automatic continuation the turn ends with Continue available",
        at=turn_pointer(trace, label, step=step),
        reading="stopped-with-continue",
        clause="DR-5#c3",
    )


def _own_causes(ctx: CheckContext) -> list[str]:
    return [
        c
        for c in ("time_limit", "gateway_timeout", "transport_error")
        if resumes_by_itself(ctx, c) and c in ctx.handshake.capabilities.interrupt_causes
    ]


CAPS = (
    "four-cuts",
    "six-cuts",
    "every-cause-that-resumes",
    "continue-in-between",
    "two-turns",
    "after-an-answer",
)


@check(
    "DR-5#c3",
    "DR-5#c1",
    variants={name: name for name in CAPS},
    # ¶1's count after a Continue chosen in between reads through the Continue accepted
    through=(CONTINUE_ACCEPTED.judging("DR-5#c1"),),
)
def check_at_most_three_automatic_continuations(ctx: CheckContext, variant: str) -> None:
    """A turn cut again and again continues on its own three times, whatever the resumable
    cause; a Continue chosen in between does not reset the count, each turn has its own,
    and the run an answer started is no automatic continuation."""
    clause = "DR-5 ¶3: a turn continues automatically at most three times"
    steps: list[Step]
    if variant in ("four-cuts", "six-cuts"):
        steps = [*_model_cuts(4 if variant == "four-cuts" else 6), StartTurn("t1"), Wait()]
    elif variant == "every-cause-that-resumes":
        causes = _own_causes(ctx)
        if not causes:
            raise Untested(
                "the handshake declares no interruption cause it offers after which a turn "
                "continues on its own"
            )
        steps = [cut("during_model_call", causes[i % len(causes)]) for i in range(4)]
        steps += [StartTurn("t1"), Wait()]
    elif variant == "after-an-answer":
        steps = [StartTurn("t1"), *_model_cuts(4), Answer("t1"), Wait()]
    elif variant == "continue-in-between":
        steps = [*_model_cuts(2), cut("during_model_call", "error"), *_model_cuts(2)]
        steps += [StartTurn("t1"), Wait(), Continue("t1"), Wait()]
    else:
        steps = [*_model_cuts(4), StartTurn("t1"), Wait(), *_model_cuts(4)]
        steps += [StartTurn("t2"), Wait()]
    model = [ask("Go on?"), say("done")] if variant == "after-an-answer" else [say("done")]
    trace = one_turn(ctx, "dr5-c3-three", tools=tools(), model=model, steps=steps)
    # t1 is judged once it waits, before t2 (a newer stop) takes its Continue.
    _capped(ctx, trace, "t1", clause, 5 if variant == "two-turns" else -1)
    if variant == "two-turns":
        _capped(ctx, trace, "t2", f"{clause}; the count is the turn's own")


@dataclass(frozen=True)
class Count:
    """A turn cut ``cuts`` times in its model calls, waited on by ``steps``; it must
    continue on its own ``expected`` times."""

    cuts: int
    steps: tuple[Step, ...]
    expected: int


COUNTS: dict[str, Count] = {
    "reload-after-the-first": Count(4, (Wait(rounds=1), Restart(), Wait()), 3),
    "reload-after-each": Count(
        4,
        (Wait(rounds=1), Restart(), Wait(rounds=1), Restart(), Wait(rounds=1), Restart(), Wait()),
        3,
    ),
    "two-clients-at-the-first": Count(1, (Wait(clients=2),), 1),
    "two-clients-at-the-last": Count(3, (Wait(rounds=2), Wait(clients=2)), 3),
}


@check("DR-5#c4", variants=COUNTS)
def check_count_survives_reload_and_clients(ctx: CheckContext, variant: Count) -> None:
    """The count is stored with the turn: reloads do not reset it, and two clients waiting
    at once do not double a continuation."""
    if any(isinstance(step, Wait) and step.clients > 1 for step in variant.steps):
        ctx.require("concurrent_clients")
    if variant.cuts > 3:
        # The control: the same cuts waited on by one client, with no reload.  A turn that
        # continues more than three times there breaks ¶3's "at most three times", and
        # what the reload then shows is that, not a count the reload reset.
        control = one_turn(
            ctx,
            "dr5-c4-control",
            tools=tools(),
            model=[say("done")],
            steps=[*_model_cuts(variant.cuts), StartTurn("t1"), Wait()],
        )
        made = _automatic(control)
        ctx.prerequisite(
            "DR-5#c3",
            len(made) <= 3,
            f"with no reload and one client, the turn cut {plural(variant.cuts, 'time')} "
            f"continued on its own {plural(len(made), 'time')} (at {', '.join(made[3:5])}): "
            "more than three, so what a reload shows of the count is DR-5 ¶3's",
        )
    steps = [*_model_cuts(variant.cuts), StartTurn("t1"), *variant.steps]
    trace = one_turn(ctx, "dr5-c4-count", tools=tools(), model=[say("done")], steps=steps)
    _reached(trace, _bounded(steps))
    found = _automatic(trace)
    ctx.expect(
        len(found) == variant.expected,
        f"cut by its time limit {plural(variant.cuts, 'time')}, the turn continued on its "
        f"own {plural(len(found), 'time')} (runs of cause auto_continue"
        f"{': ' + ', '.join(found[:5]) if found else ''}), expected {variant.expected}; DR-5 "
        "¶4: the count is stored with the turn's runs, so a reload does not reset it and a "
        "second client cannot double it",
        at=found[variant.expected] if len(found) > variant.expected else turn_pointer(trace, "t1"),
    )


@dataclass(frozen=True)
class FailedWriteBack:
    """An error no interruption makes: the write-back of a run that did not start at a
    pause fails, in the turn's first run, or in the run of a Continue chosen after a
    cancellation.  (A run that started at a pause may instead go back to it, so that the
    same answer can be given again: docs/interpretations.md, failed-write-back.)"""

    on_continue: bool = False


@dataclass(frozen=True)
class OwnError:
    """An error no interruption makes and no harness arms: a tool's result holds a value
    JSON cannot encode (the scenario's unencodable marker).  A runtime that carries on
    (it stores the value another way, or answers the call with an error) never reaches
    the situation, and the case is untested."""


ENDINGS: dict[str, tuple[str, str] | FailedWriteBack | OwnError] = {
    "error": ("error", "during_model_call"),
    "stop": ("stop", "during_model_call"),
    "cancel": ("cancel", "during_model_call"),
    "credential": ("credential", "during_model_call"),
    "rate-limit": ("rate_limit", "during_model_call"),
    "error-after-a-tool-returned": ("error", "after_tool_done"),
    "fourth-time-limit": ("time_limit", "during_model_call"),
    "failed-write-back": FailedWriteBack(),
    "failed-write-back-on-continue": FailedWriteBack(on_continue=True),
    "error-of-its-own": OwnError(),
}
ENDS = (
    "DR-5 ¶5: after the third automatic continuation, or after an error, a stop, a "
    "cancellation, or a credential or rate-limit failure, the turn ends with Continue "
    "available"
)


def _judge_failed_write_back(ctx: CheckContext, variant: FailedWriteBack) -> None:
    """The run whose write-back failed ended in an error: after it the turn does not
    continue on its own, and waits with Continue available (Continue is accepted)."""
    steps: list[Step] = [FailWriteBack(), StartTurn("t1"), Wait()]
    if variant.on_continue:
        steps = [cut("during_model_call", "cancel"), StartTurn("t1"), Wait(), *steps[:1]]
        steps += [Continue("t1"), Wait()]
    armed = next(i for i, step in enumerate(steps) if isinstance(step, FailWriteBack))
    run = "the Continue run" if variant.on_continue else "the turn's first run"
    _waits_after_an_error(
        ctx,
        "dr5-c5-write-back",
        steps,
        armed,
        (
            "with a write-back armed to fail, no step reported a failure (outcome failed, "
            "or a run that ended failed): the run made no write-back that could fail"
        ),
        f"the write-back of {run} failed",
    )


def _judge_own_error(ctx: CheckContext) -> None:
    """A run that fails on an error of its own (a tool result holding a value JSON cannot
    encode, no interruption armed): after it the turn waits with Continue available."""
    _waits_after_an_error(
        ctx,
        "dr5-c5-own-error",
        [StartTurn("t1"), Wait()],
        -1,
        (
            "the run did not fail on a tool result JSON cannot encode (it completed, or "
            "answered the call otherwise): no error ended it"
        ),
        "the run failed on a tool result JSON cannot encode",
        lookups=(output({"result": dict(UNENCODABLE)}),),
    )


def _waits_after_an_error(
    ctx: CheckContext,
    name: str,
    steps: list[Step],
    armed: int,
    unreached: str,
    what: str,
    lookups: tuple[Return, ...] = (),
) -> None:
    """Play ``steps`` then Continue: the first failure after step ``armed`` must leave
    the turn without a continuation of its own, waiting with Continue available, and
    the Continue must be accepted (``unreached``: why the case is untested otherwise)."""
    steps = [*steps, Continue("t1"), Wait()]
    trace = one_turn(
        ctx,
        name,
        tools=tools(lookups=lookups),
        model=[calls(call("lookup", LOOKUP, "c1")), say("done")] if lookups else [say("done")],
        steps=steps,
    )
    failed = next(
        (
            i
            for i, step in enumerate(trace.steps[: len(steps) - 2])
            if i > armed and (step.outcome == "failed" or any(r.end == "failed" for r in step.runs))
        ),
        None,
    )
    if failed is None:
        raise Untested(unreached)
    after = [at for at in _automatic(trace) if int(at.split("/")[2]) > failed]
    ctx.expect(
        not after,
        f"after {what}, the turn continued on its own (at {', '.join(after)}); {ENDS}",
        at=after[0] if after else None,
    )
    settled = len(steps) - 3  # the wait after the failure, before Continue is chosen
    ended = turn(trace, "t1", step=settled)
    if not ctx.expect(
        stopped_with_continue(ctx.handshake, ended),
        f"after {what} (at /steps/{failed}), the turn is {describe(ctx.handshake, ended)}, "
        f"not waiting with Continue available; {ENDS}",
        at=turn_pointer(trace, "t1", step=settled),
        reading="stopped-with-continue",
    ):
        return
    chosen = trace.steps[settled + 1]
    ctx.expect(
        chosen.outcome == "ok",
        f"Continue, offered after {what}, was {chosen.outcome} ({show(chosen.error)}); {ENDS}",
        at=f"/steps/{settled + 1}/outcome",
    )


@check("DR-5#c5", variants=ENDINGS)
def check_other_stops_wait_for_continue(
    ctx: CheckContext, variant: tuple[str, str] | FailedWriteBack | OwnError
) -> None:
    """After the third automatic continuation, or an error, a stop, a cancellation, or a
    credential or rate-limit failure, the turn does not continue on its own: it waits
    with Continue available."""
    if isinstance(variant, FailedWriteBack):
        _judge_failed_write_back(ctx, variant)
        return
    if isinstance(variant, OwnError):
        _judge_own_error(ctx)
        return
    cause, point = variant
    clause = ENDS
    # A handshake that declares such a cause resumable says the turn will not wait: the
    # declaration itself breaks ¶5, whether or not the harness can cut by that cause.
    ctx.expect(
        cause == "time_limit" or not resumes_by_itself(ctx, cause),
        f"the handshake declares that a turn cut by {cause} continues on its own "
        f"(durable_resume.resumes_on_its_own); {clause}",
    )
    if cause == "time_limit":
        steps: list[Step] = [*_model_cuts(4), StartTurn("t1"), Wait()]
        allowed = 3
    else:
        steps = [cut(point, cause, "lookup" if point != "during_model_call" else None)]
        steps += [StartTurn("t1"), Wait()]
        allowed = 0
    trace = one_turn(
        ctx,
        "dr5-c5-ends",
        tools=tools(),
        model=[calls(call("lookup", LOOKUP, "c1")), say("done")]
        if point != "during_model_call"
        else [say("done")],
        steps=steps,
    )
    found = _automatic(trace)
    after = "a fourth cut by its time limit" if allowed else f"a cut by {cause}"
    ctx.expect(
        len(found) <= allowed,
        f"after {after} the turn continued on its own (at {', '.join(found[allowed:])}); {clause}",
        at=found[allowed] if len(found) > allowed else None,
    )
    final = turn(trace, "t1")
    ctx.expect(
        stopped_with_continue(ctx.handshake, final),
        f"after {after} the turn is {describe(ctx.handshake, final)}, not waiting with "
        f"Continue available; {clause}",
        at=turn_pointer(trace, "t1"),
        reading="stopped-with-continue",
    )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_continues_in_same_turn_with_thread,
    check_reports_resuming_and_stop_works,
    check_at_most_three_automatic_continuations,
    check_count_survives_reload_and_clients,
    check_other_stops_wait_for_continue,
)
