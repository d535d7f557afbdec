"""RT-TOOL-7 ¶4 and ¶5 (a failed write-back, the held list's bound), and what every check
of RT-TOOL-7 asks of a trace.  The rule's overview (:mod:`conformance.checks.rt_tool_7`)
lists what the checks vary."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.scenario import (
    Answer,
    Bounds,
    Continue,
    FailWriteBack,
    Reply,
    Restart,
    StartTurn,
    Step,
)
from adapters.trace import StepRecord, Trace, TurnWire
from conformance.toolkit import (
    DELIVERY,
    GUARD_HOLDS,
    NOT_COMPARED,
    CheckContext,
    Untested,
    ask,
    call,
    calls,
    canary,
    check,
    collects,
    contains,
    count_on_wire,
    delivered,
    in_state,
    link,
    listing,
    locate,
    located_warnings,
    mapping,
    misplaced,
    one_turn,
    output,
    say,
    show,
    strings,
    tool,
    turn,
    turn_pointer,
    warnings_text,
    whereabouts,
    wire_pointer,
)

__all__ = [
    "FAILURES",
    "OVERFLOWS",
    "Failure",
    "Overflow",
    "check_failed_write_back_puts_back",
    "check_held_list_bounded_newest_dropped",
    "delivered_once",
    "never_on_wire_while_paused",
]

TOOL = "emit_artifacts"


def delivered_once(
    ctx: CheckContext,
    trace: Trace,
    mark: str,
    what: str,
    clause: str,
    label: str = "t1",
    conversation: str = "main",
) -> None:
    """Expect the turn, after the last step, to deliver ``mark`` exactly once; when it does
    not deliver it at all, say where on the wire it went.  ``clause`` ends the message."""
    count = count_on_wire(trace, mark, label=label, conversation=conversation)
    wire = turn(trace, label, conversation=conversation)
    where = (
        f"; it {whereabouts(wire, mark)}" if count == 0 else f", at {listing(locate(wire, mark))}"
    )
    ctx.expect(
        count == 1,
        f"after the last step, {what} was delivered {count} times in the messages' "
        f"toolArtifacts of turn {label}, expected once{where}; {clause}",
        at=wire_pointer(trace, label, conversation=conversation),
        expected=1,
        got=count,
    )


def never_on_wire_while_paused(
    ctx: CheckContext, trace: Trace, marks: list[str], clause: str
) -> None:
    """Expect no turn to show any of ``marks`` on its wire while it is paused."""
    for index, step in enumerate(trace.steps):
        for conversation, turns in step.wire.items():
            for label, wire in turns.items():
                # Held artifacts are those of a pause: a turn that is not paused holds none.
                if not in_state(ctx.handshake, wire, "paused"):
                    continue
                shown = [m for m in marks if any(m in text for text in _texts(wire))]
                ctx.expect(
                    not shown,
                    f"after step {index} ({step.op}) turn {label} is paused and its wire "
                    "already shows a held artifact, at "
                    f"{listing(locate(wire, shown[0]) if shown else [])}; "
                    f"{clause}: never exposed on the wire while held",
                    at=turn_pointer(trace, label, step=index, conversation=conversation),
                    reading="turn-states",
                )


def _texts(wire: TurnWire | None) -> list[str]:
    return [] if wire is None else list(strings([wire.messages, wire.toolArtifacts]))


def _failed(step: StepRecord) -> bool:
    """Whether a step reports a failed write-back: its outcome, or a run that ended failed
    (docs/interpretations.md, failed-write-back)."""
    return step.outcome == "failed" or any(run.end == "failed" for run in step.runs)


@dataclass(frozen=True)
class Failure:
    """What ``pauses`` pauses held; the write-back fails ``failures`` times; ``restart``
    after the first failure."""

    failures: int = 1
    pauses: int = 1
    restart: bool = False


FAILURES = {
    "fails-once": Failure(),
    "fails-twice": Failure(failures=2),
    "held-over-two-pauses": Failure(pauses=2),
    "restart-before-the-retry": Failure(restart=True),
}


@check(
    "RT-TOOL-7#c4",
    variants=FAILURES,
    through=(*DELIVERY, GUARD_HOLDS),
)
def check_failed_write_back_puts_back(ctx: CheckContext, variant: Failure) -> None:
    """A write-back that fails after taking the held list puts it back: the failure only
    postpones delivery, to the retry (an answer given again, or Continue)."""
    collects(ctx)
    marks = [canary(f"rt7-c4-{i}") for i in range(variant.pauses)]
    model: list[Reply] = []
    for number in range(variant.pauses):
        model += [calls(call(TOOL, {}, f"c{number}")), ask(f"Question {number + 1}?")]
    model += [say(f"try {i + 1}") for i in range(variant.failures + 1)]
    steps: list[Step] = [StartTurn("t1"), *(Answer("t1") for _ in range(variant.pauses - 1))]
    steps += [FailWriteBack(variant.failures), Answer("t1")]
    first = len(steps) - 1
    if variant.restart:
        steps.append(Restart())
    # The retry: answering again, else Continue; whichever the implementation refuses is
    # reported refused, and the suite reads on (docs/interpretations.md, failed-write-back).
    steps += [Answer("t1") for _ in range(variant.failures)]
    steps += [Continue("t1") for _ in range(variant.failures)]
    trace = one_turn(
        ctx,
        "rt7-c4-put-back",
        tools=[tool(TOOL, *(output({"ok": True}, link(mark)) for mark in marks))],
        model=model,
        steps=steps,
    )
    failed = trace.steps[first]
    ctx.need(
        _failed(failed),
        f"the answer given with a write-back armed to fail reported outcome "
        f"{show(failed.outcome)} and runs ending {show([r.end for r in failed.runs])}: no "
        "failure was reported, and RT-TOOL-7 ¶4 cannot be judged",
        at=f"/steps/{first}",
        reading="failed-write-back",
    )
    before = trace.steps[first - 1].held
    if before is not None:
        ctx.need(
            all(contains(before.get("t1"), m) for m in marks),
            f"before the write-back that fails, turn t1 holds {show(before.get('t1'))}, not "
            f"the {len(marks)} artifact(s) produced before its pause(s): RT-TOOL-7 ¶4 cannot be "
            "judged (RT-TOOL-7 ¶1 holds them)",
            at=f"/steps/{first - 1}/held/t1",
        )
    failures = [i for i, step in enumerate(trace.steps) if i >= first and _failed(step)]
    for index in failures:
        # Only what shows for the first time after the failed step is what it delivered.
        shown = [
            m
            for m in marks
            if count_on_wire(trace, m, step=index) > count_on_wire(trace, m, step=index - 1)
        ]
        ctx.expect(
            not shown,
            f"the write-back that failed at step {index} delivered what it took, at "
            f"{listing(locate(turn(trace, 't1', step=index), shown[0]) if shown else [])}; "
            "RT-TOOL-7 ¶4: a failed write postpones delivery",
            at=wire_pointer(trace, step=index),
        )
        held = trace.steps[index].held
        if held is not None:
            lost = [m for m in marks if not contains(held.get("t1"), m)]
            ctx.expect(
                not lost,
                f"after the write-back failed at step {index}, turn t1 holds "
                f"{show(held.get('t1'))}, without {len(lost)} of the {len(marks)} artifact(s) "
                "held before it; RT-TOOL-7 ¶4 puts back what it took before it reports the "
                "failure",
                at=f"/steps/{index}/held/t1",
                reading="failed-write-back",
                expected=NOT_COMPARED if before is None else before.get("t1"),
                got=held.get("t1"),
            )
    if not any(count_on_wire(trace, m) for m in marks):
        if trace.steps[-1].held is None:
            raise Untested(
                "no retry delivered (neither an answer given again nor Continue succeeded), "
                "and held artifacts are not observable"
            )
        if all(contains(trace.steps[-1].held.get("t1"), m) for m in marks):
            return  # still held: delivery is postponed, not destroyed
    for mark in marks:
        delivered_once(
            ctx,
            trace,
            mark,
            "an artifact the failed write-back had taken",
            "RT-TOOL-7 ¶4: a failed write postpones delivery rather than destroying it",
        )


@dataclass(frozen=True)
class Overflow:
    """``per_pause`` artifacts collected before each pause, against a held bound of
    ``bound``."""

    per_pause: tuple[int, ...]
    bound: int


OVERFLOWS = {
    "in-one-pause": Overflow((3,), 2),
    "across-two-pauses": Overflow((2, 2), 3),
    "by-several": Overflow((5,), 2),
}


def _overflow_plan(ctx: CheckContext, variant: Overflow) -> tuple[Overflow, Bounds | None]:
    caps, limits = ctx.handshake.capabilities, ctx.handshake.limits
    if caps.configurable_bounds:
        return variant, Bounds(held_artifacts=variant.bound, run_artifacts=8)
    if limits.held_artifacts is None or limits.run_artifacts is None:
        raise Untested("needs configurable bounds or declared held and run bounds")
    bound, per_run = limits.held_artifacts, limits.run_artifacts
    total = bound + sum(variant.per_pause) - variant.bound
    chunks = tuple(min(per_run, total - i) for i in range(0, total, per_run))
    return Overflow(chunks, bound), None


@check(
    "RT-TOOL-7#c5",
    variants=OVERFLOWS,
    through=(*DELIVERY, GUARD_HOLDS),
)
def check_held_list_bounded_newest_dropped(ctx: CheckContext, variant: Overflow) -> None:
    """Where the held list would exceed its bound, the newest entries are dropped, with a
    warning."""
    collects(ctx)
    plan, bounds = _overflow_plan(ctx, variant)
    urls = [[f"https://e.x/held/{p}/{i}" for i in range(n)] for p, n in enumerate(plan.per_pause)]
    model: list[Reply] = []
    for number in range(len(urls)):
        model += [calls(call(TOOL, {}, f"c{number}")), ask(f"Question {number + 1}?")]
    steps: list[Step] = [StartTurn("t1"), *(Answer("t1") for _ in urls)]
    trace = one_turn(
        ctx,
        "rt7-c5-bounded",
        bounds=bounds,
        tools=[tool(TOOL, *(output({"ok": True}, *(link(u) for u in chunk)) for chunk in urls))],
        model=[*model, say("done")],
        steps=steps,
    )
    produced = [u for chunk in urls for u in chunk]
    kept = produced[: plan.bound]
    wire = turn(trace, "t1")
    on_wire = [str(mapping(mapping(e).get("payload")).get("url")) for e in delivered(wire)]
    ctx.expect(
        on_wire == kept,
        f"with a held bound of {plan.bound} and {len(produced)} artifacts held over "
        f"{len(urls)} pause(s), the messages' toolArtifacts delivered {show(on_wire)}; "
        f"expected the oldest {plan.bound}, {show(kept)}{misplaced(wire, kept)}; RT-TOOL-7 ¶5: "
        "the newest are dropped",
        at=wire_pointer(trace),
    )
    overflowing = next(i for i in range(len(urls)) if sum(plan.per_pause[: i + 1]) > plan.bound)
    for index in range(len(urls)):
        held = trace.steps[index].held
        if held is None:
            continue
        expected = produced[: min(plan.bound, sum(plan.per_pause[: index + 1]))]
        listed = held.get("t1")
        count = len(listed) if isinstance(listed, list) else 0
        got = [u for u in produced if contains(listed, u)]
        ctx.expect(
            got == expected and count <= plan.bound,
            f"after pause {index + 1} turn t1 holds {count} artifacts, "
            f"{show(got)}; expected the oldest {len(expected)} within the bound of "
            f"{plan.bound}; RT-TOOL-7 ¶5",
            at=f"/steps/{index}/held/t1",
        )
    window = list(range(overflowing, len(trace.steps)))
    ctx.expect(
        bool(located_warnings(trace, window)),
        f"the held list overflowed at pause {overflowing + 1} (step {overflowing}), and no "
        f"warning was raised from then to the delivery (steps {window[0]}-{window[-1]}; all "
        f"warnings: {warnings_text(located_warnings(trace))}); RT-TOOL-7 ¶5 drops the newest "
        "with a warning",
        at=f"/steps/{overflowing}/warnings",
        reading="drop-warnings",
    )
