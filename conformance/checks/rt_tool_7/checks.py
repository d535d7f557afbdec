"""RT-TOOL-7's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_7`).

¶4 and ¶5 (a failed write-back, the held list's bound) are checked in ``_held``, imported
here first.
"""

from __future__ import annotations

from dataclasses import dataclass

from adapters.scenario import (
    Answer,
    Approve,
    Continue,
    FailWriteBack,
    Reply,
    Restart,
    StartTurn,
    Step,
)
from adapters.trace import Trace
from conformance.checks.rt_tool_7._held import (
    check_failed_write_back_puts_back,
    check_held_list_bounded_newest_dropped,
    delivered_once,
    never_on_wire_while_paused,
)
from conformance.checks.rt_tool_7._other_turns import (
    check_held_not_taken_by_another_turn,
    check_held_taken_only_by_their_own_turn,
)
from conformance.toolkit import (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    COLLECTION_STAYS_OPEN,
    DELIVERY,
    GUARD_HOLDS,
    HELD_PUT_BACK,
    TOOL_ARTIFACTS_FIELD,
    CheckContext,
    ask,
    assistant_rows,
    call,
    calls,
    canary,
    check,
    collects,
    contains,
    count_on_wire,
    describe,
    in_state,
    link,
    listing,
    locate,
    misplaced,
    one_turn,
    output,
    say,
    show,
    tool,
    turn,
    turn_pointer,
    whereabouts,
    wire_pointer,
)

__all__ = [
    "check_failed_write_back_puts_back",
    "check_held_durably_off_the_wire",
    "check_held_list_bounded_newest_dropped",
    "check_held_prepended_on_resumed_message",
    "check_pausing_again_holds_everything",
    "check_taking_is_destructive",
]

TOOL = "emit_artifacts"


def _conversation(label: str) -> str:
    """The conversation of a turn of ¶1's scenario: t1 in main, t2 in other."""
    return "main" if label == "t1" else "other"


@dataclass(frozen=True)
class Pause:
    """How the run pauses after producing its artifacts: ``on`` "question" or "gate";
    ``restart`` while paused; ``several``: two calls, then a second pass, before the
    pause; ``conversations``: the same, paused in two conversations at once."""

    on: str = "question"
    restart: bool = False
    several: bool = False
    conversations: int = 1


PAUSES = {
    "question": Pause(),
    "gate": Pause(on="gate"),
    "restart-while-paused": Pause(restart=True),
    "several-artifacts": Pause(several=True),
    "two-conversations": Pause(conversations=2),
}


def _held_scenario(ctx: CheckContext, variant: Pause) -> tuple[Trace, dict[str, list[str]]]:
    """The scenario of ¶1, and the marks each turn (``t1``, ``t2``) produced."""
    made: dict[str, list[str]] = {}
    model: list[Reply] = []
    returns = []
    steps: list[Step] = []
    for number in range(1, variant.conversations + 1):
        label, conversation = f"t{number}", "main" if number == 1 else "other"
        marks = [canary(f"rt7-c1-{label}-{i}") for i in range(3 if variant.several else 1)]
        made[label] = marks
        returns += [output({"ok": True}, link(mark)) for mark in marks]
        if variant.several:
            model += [calls(call(TOOL, {}, f"{label}a"), call(TOOL, {}, f"{label}b"))]
            model += [calls(call(TOOL, {}, f"{label}c"))]
        else:
            model.append(calls(call(TOOL, {}, f"{label}a")))
        if variant.on == "gate":
            model[-1] = calls(call(TOOL, {}, f"{label}a"), call("gated_thing", {}, f"{label}g"))
        else:
            model.append(ask("Which format?"))
        steps.append(StartTurn(label, conversation=conversation))
    if variant.restart:
        steps.append(Restart())
    for number in range(1, variant.conversations + 1):
        steps.append(Approve(f"t{number}") if variant.on == "gate" else Answer(f"t{number}"))
        model.append(say("done"))
    tools = [tool(TOOL, *returns)]
    if variant.on == "gate":  # a gated tool needs the `gates` capability: only where used
        tools.append(tool("gated_thing", output({"ok": True}), gate=True))
    trace = one_turn(ctx, f"rt7-c1-{variant.on}", tools=tools, model=model, steps=steps)
    return trace, made


# Delivery is read on the messages: a runtime that keeps it elsewhere (RT-TOOL-4 ¶1) shows
# nothing of whether what a pause held was lost.  ¶2's own words name the resumed turn's
# assistant message, so its checks read that message whatever else holds.
@check(
    "RT-TOOL-7#c1",
    variants=PAUSES,
    through=(*DELIVERY, GUARD_HOLDS),
)
def check_held_durably_off_the_wire(ctx: CheckContext, variant: Pause) -> None:
    """Artifacts produced before a pause are held against their turn (they survive a
    restart), stay off the wire while held, and are delivered by the resume."""
    collects(ctx)
    trace, made = _held_scenario(ctx, variant)
    paused_at = variant.conversations - 1 + (1 if variant.restart else 0)
    for label in made:
        conversation = _conversation(label)
        wire = turn(trace, label, step=paused_at, conversation=conversation)
        ctx.need(
            in_state(ctx.handshake, wire, "paused"),
            f"after step {paused_at} turn {label} is {describe(ctx.handshake, wire)}; the "
            f"check needs it paused on its {variant.on}",
            at=turn_pointer(trace, label, step=paused_at, conversation=conversation) + "/status",
            reading="turn-states",
        )
    every = [mark for marks in made.values() for mark in marks]
    never_on_wire_while_paused(ctx, trace, every, "RT-TOOL-7 ¶1")
    held = trace.steps[paused_at].held
    for label, marks in made.items():
        for mark in marks:
            if held is not None:
                ctx.expect(
                    contains(held.get(label), mark),
                    f"after step {paused_at} ({trace.steps[paused_at].op}) turn {label} holds "
                    f"{show(held.get(label))}, without its artifact {show(mark)}; RT-TOOL-7 ¶1 "
                    "holds it durably against the turn that produced it",
                    at=f"/steps/{paused_at}/held/{label}",
                )
            delivered_once(
                ctx,
                trace,
                mark,
                f"turn {label}'s held artifact",
                "RT-TOOL-7 ¶1: held rather than discarded, and delivered by the resume",
                label,
                _conversation(label),
            )
            for other in (o for o in made if o != label):
                on_other = _conversation(other)
                stray = count_on_wire(trace, mark, label=other, conversation=on_other)
                ctx.expect(
                    stray == 0,
                    f"turn {label}'s held artifact was delivered on turn {other}; RT-TOOL-7 "
                    "¶1 holds it against the turn that produced it",
                    at=wire_pointer(trace, other, conversation=on_other),
                )


@dataclass(frozen=True)
class Merge:
    """Artifacts held over ``pauses`` pauses (``held`` per pause), then the resumed run's
    own (``own``); ``approval``: the run paused on a gate, and the approval resumes it;
    ``narrated``: the resumed run says something as it calls the tool, so it writes two
    assistant messages, and the merged list goes on one of them (RT-TOOL-4 ¶1: the last)."""

    held: int = 1
    own: int = 1
    pauses: int = 1
    approval: bool = False
    narrated: bool = False


MERGES = {
    "one-held-one-own": Merge(),
    "held-only": Merge(own=0),
    "several-of-each": Merge(held=2, own=2),
    "held-over-two-pauses": Merge(pauses=2),
    "resumed-by-an-approval": Merge(approval=True),
    "resumed-run-writes-two-messages": Merge(narrated=True),
}


# Not yet through the held list itself (RT-TOOL-7 ¶1): its held-only variant is proven
# by no mutant of ¶2's own, only by one that discards what a pause holds.
@check(
    "RT-TOOL-7#c2",
    variants=MERGES,
    through=(
        ARTIFACTS_ATTACHED,
        ARTIFACTS_LISTED,
        TOOL_ARTIFACTS_FIELD,
        GUARD_HOLDS,
        COLLECTION_STAYS_OPEN,
        HELD_PUT_BACK,
    ),
)
def check_held_prepended_on_resumed_message(ctx: CheckContext, variant: Merge) -> None:
    """The resume's write-back delivers the held artifacts first, then the resumed run's own,
    on the resumed turn's last assistant message."""
    collects(ctx)
    held = [
        [canary(f"rt7-c2-held-{p}-{i}") for i in range(variant.held)] for p in range(variant.pauses)
    ]
    own = [canary(f"rt7-c2-own-{i}") for i in range(variant.own)]
    returns = [output({"ok": True}, *(link(m) for m in marks)) for marks in held]
    model: list[Reply] = []
    steps: list[Step] = [StartTurn("t1")]
    for number in range(variant.pauses):
        if variant.approval:
            model.append(calls(call(TOOL, {}, f"h{number}"), call("gated_thing", {}, "g")))
        else:
            model += [calls(call(TOOL, {}, f"h{number}")), ask(f"Question {number + 1}?")]
        steps.append(Approve("t1") if variant.approval else Answer("t1"))
    if own:
        returns.append(output({"ok": True}, *(link(m) for m in own)))
        narration = "Working on it." if variant.narrated else None
        model.append(calls(call(TOOL, {}, "own"), text=narration))
    tools = [tool(TOOL, *returns)]
    if variant.approval:
        tools.append(tool("gated_thing", output({"ok": True}), gate=True))
    trace = one_turn(ctx, "rt7-c2-merged", tools=tools, model=[*model, say("done")], steps=steps)
    wire = turn(trace, "t1")
    rows = assistant_rows(wire)
    ctx.need(bool(rows), "the resumed turn has no assistant message", at=wire_pointer(trace))
    carried = rows[-1].get("toolArtifacts")
    expected = [*(m for marks in held for m in marks), *own]
    got = carried if isinstance(carried, list) else []
    in_order = len(got) == len(expected) and all(
        contains(e, m) for e, m in zip(got, expected, strict=False)
    )
    ctx.expect(
        in_order,
        f"the resumed turn's last assistant message carries toolArtifacts {show(carried)}; "
        f"expected the {len(expected) - len(own)} held artifact(s) followed by the resumed "
        f"run's {len(own)} own, in the order produced{misplaced(wire, expected)}; RT-TOOL-7 ¶2",
        at=wire_pointer(trace) + f"/{list(wire.messages).index(rows[-1]) if wire else 0}",
    )
    for mark in expected:
        delivered_once(
            ctx, trace, mark, "an artifact of the merged list", "RT-TOOL-7 ¶2 delivers it once"
        )


@dataclass(frozen=True)
class Again:
    """A turn that pauses ``pauses`` times, collecting before each pause unless
    ``idle_resume`` (the resumed run pauses again without collecting); ``restart`` before
    the last answer; then one more answer, after the turn completed."""

    pauses: int = 2
    idle_resume: bool = False
    restart: bool = False


AGAINS = {
    "pauses-twice": Again(),
    "pauses-three-times": Again(pauses=3),
    "pauses-again-collecting-nothing": Again(idle_resume=True),
    "restart-before-the-last-answer": Again(restart=True),
}


@check(
    "RT-TOOL-7#c3",
    variants=AGAINS,
    through=(*DELIVERY, GUARD_HOLDS),
)
def check_pausing_again_holds_everything(ctx: CheckContext, variant: Again) -> None:
    """A resume that pauses again holds everything for the next one; the final delivery
    carries each artifact once, and nothing is delivered a second time afterwards."""
    collects(ctx)
    collecting = 1 if variant.idle_resume else variant.pauses
    marks = [canary(f"rt7-c3-{i}") for i in range(collecting)]
    returns = [output({"ok": True}, link(mark)) for mark in marks]
    model: list[Reply] = []
    for number in range(variant.pauses):
        if number < collecting:
            model.append(calls(call(TOOL, {}, f"c{number}")))
        model.append(ask(f"Question {number + 1}?"))
    steps: list[Step] = [StartTurn("t1"), *(Answer("t1") for _ in range(variant.pauses - 1))]
    if variant.restart:
        steps.append(Restart())
    # The last answer completes the turn; the one after it answers a completed turn, which
    # the implementation may refuse or ignore (docs/interpretations.md).
    steps += [Answer("t1"), Answer("t1")]
    trace = one_turn(
        ctx,
        "rt7-c3-destructive",
        tools=[tool(TOOL, *returns)],
        model=[*model, say("done"), say("answered again")],
        steps=steps,
    )
    never_on_wire_while_paused(
        ctx, trace, marks, "RT-TOOL-7 ¶3: a resume that pauses again holds everything"
    )
    for index in range(len(trace.steps)):
        for mark in marks:
            count = count_on_wire(trace, mark, step=index)
            ctx.expect(
                count <= 1,
                f"after step {index} ({trace.steps[index].op}) an artifact is delivered {count} "
                f"times, at {listing(_where(trace, mark, index))}; RT-TOOL-7 ¶3: a delivered "
                "artifact is never delivered a second time",
                at=wire_pointer(trace, step=index),
                reading="unrequired-refusals" if index == len(trace.steps) - 1 else None,
            )
    for number, mark in enumerate(marks):
        delivered_once(
            ctx,
            trace,
            mark,
            f"the artifact held at pause {number + 1}",
            "RT-TOOL-7 ¶3: a resume that pauses again holds everything for the next one",
        )


def _where(trace: Trace, mark: str, step: int) -> list[str]:
    return locate(turn(trace, "t1", step=step), mark)


TAKES = {"one-pause": 1, "two-pauses": 2, "after-a-failed-write-back": 0}


@check(
    "RT-TOOL-7#c3",
    variants=TAKES,
    through=(*DELIVERY, GUARD_HOLDS),
)
def check_taking_is_destructive(ctx: CheckContext, variant: int) -> None:
    """The write-back takes the held list: once delivered, nothing is left held to be
    delivered again."""
    collects(ctx)
    # A copy left behind is invisible on the wire of a completed turn: only the held list
    # itself shows it.
    ctx.require("held_observation")
    pauses = max(variant, 1)
    marks = [canary(f"rt7-c3-taken-{i}") for i in range(pauses)]
    model: list[Reply] = []
    for number in range(pauses):
        model += [calls(call(TOOL, {}, f"c{number}")), ask(f"Question {number + 1}?")]
    steps: list[Step] = [StartTurn("t1"), *(Answer("t1") for _ in range(pauses))]
    if variant == 0:
        # The retry answers again, or chooses Continue (docs/interpretations.md).
        steps = [StartTurn("t1"), FailWriteBack(), Answer("t1"), Answer("t1"), Continue("t1")]
    trace = one_turn(
        ctx,
        "rt7-c3-taken",
        tools=[tool(TOOL, *(output({"ok": True}, link(mark)) for mark in marks))],
        model=[*model, say("done"), say("done again")],
        steps=steps,
    )
    first = next(
        (i for i, _ in enumerate(trace.steps) if count_on_wire(trace, marks[0], step=i)), None
    )
    # Never delivered, the artifact was lost or kept back: that breaks the clause that
    # delivers it (¶2, or ¶4 after a failed write-back), and taking, ¶3's subject, never
    # happened to be judged.
    ctx.prerequisite(
        "RT-TOOL-7#c4" if variant == 0 else "RT-TOOL-7#c2",
        first is not None,
        f"the held artifact was never delivered; it {whereabouts(turn(trace, 't1'), marks[0])}",
    )
    assert first is not None
    for index in range(first, len(trace.steps)):
        after = trace.steps[index].held
        ctx.expect(
            after is not None and not after.get("t1"),
            f"after step {index} ({trace.steps[index].op}), once the write-back delivered "
            f"them, turn t1 still holds {show(None if after is None else after.get('t1'))}; "
            "RT-TOOL-7 ¶3: taking is destructive",
            at=f"/steps/{index}/held/t1",
            reading="failed-write-back" if variant == 0 else None,
        )
    for mark in marks:
        delivered_once(ctx, trace, mark, "the held artifact", "RT-TOOL-7 ¶3")


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_failed_write_back_puts_back,
    check_held_list_bounded_newest_dropped,
    check_held_durably_off_the_wire,
    check_held_prepended_on_resumed_message,
    check_pausing_again_holds_everything,
    check_taking_is_destructive,
    check_held_not_taken_by_another_turn,
    check_held_taken_only_by_their_own_turn,
)
