"""RT-TOOL-4's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_4`)."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.scenario import (
    Answer,
    Continue,
    Interrupt,
    Poll,
    Restart,
    StartTurn,
    Step,
    Wait,
)
from adapters.trace import Trace, TurnWire
from conformance.checks.rt_tool_4._messages import assistant_indexes, carrying
from conformance.checks.rt_tool_4._persistence_cases import (
    AGGREGATING,
    MARK3,
    PERSISTING,
    WIRE_FORMS,
    Aggregating,
    Persisting,
    WireForm,
)
from conformance.toolkit import (
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    ARTIFACTS_ON_MESSAGES,
    COLLECTION_STAYS_OPEN,
    DELIVERY,
    HELD_ACROSS_A_PAUSE,
    HELD_PUT_BACK,
    HELD_TAKEN_BY_THEIR_TURN,
    TOOL_ARTIFACTS_FIELD,
    CheckContext,
    Untested,
    artifact,
    call,
    calls,
    check,
    collects,
    delivered_at,
    entries,
    escape_token,
    in_state,
    listing,
    mapping,
    one_turn,
    output,
    pointers,
    projection,
    same_json,
    say,
    show,
    tool,
    whereabouts,
)

CLAUSE_1 = (
    "RT-TOOL-4 ¶1: the artifacts a run collected are persisted on the last assistant "
    "message that run wrote, once per run"
)
CUT = "cut-is-not-a-pause"


def _wire(trace: Trace, step: int, label: str) -> tuple[str, TurnWire | None]:
    pointer = f"/steps/{step}/wire/main/{escape_token(label)}"
    return pointer, trace.steps[step].wire.get("main", {}).get(label)


def _written(trace: Trace, step: int, label: str) -> list[int]:
    """The indexes of the assistant messages of turn ``label`` that appeared during
    ``step`` (written by the runs of that step)."""
    _, before = _wire(trace, step - 1, label) if step > 0 else ("", None)
    known = len(before.messages) if before is not None else 0
    _, after = _wire(trace, step, label)
    return [index for index in assistant_indexes(after) if index >= known]


def _resume_step(ctx: CheckContext, cause: str) -> Step:
    """How the suite resumes a turn cut by ``cause``: it waits where the handshake says the
    turn resumes by itself, and chooses Continue otherwise."""
    declared = ctx.handshake.durable_resume
    by_itself = declared is None or cause in declared.resumes_on_its_own
    return Wait() if by_itself else Continue("t1")


# Which field of the message holds them is ¶3's: a message carrying them under its
# metadata has them persisted on it.
@check(
    "RT-TOOL-4#c1",
    variants=PERSISTING,
    through=(
        ARTIFACTS_ATTACHED,
        ARTIFACTS_LISTED,
        TOOL_ARTIFACTS_FIELD,
        COLLECTION_STAYS_OPEN,
        HELD_ACROSS_A_PAUSE,
        HELD_PUT_BACK,
        HELD_TAKEN_BY_THEIR_TURN,
    ),
)
def check_persisted_on_last_assistant_message(ctx: CheckContext, variant: Persisting) -> None:
    """What a run collected is persisted once, on the last assistant message that run
    wrote; a run cut by a time limit or an error may instead leave it to the run that
    completes the turn."""
    collects(ctx)
    steps = list(variant.steps)
    if variant.cut and isinstance(steps[0], Interrupt):
        steps.append(_resume_step(ctx, steps[0].cause))
    if variant.then_a_question:
        steps.append(Answer("t1"))
    trace = one_turn(
        ctx, "rt4-c1-last-message", tools=variant.tools, model=[*variant.model], steps=steps
    )
    last = len(trace.steps) - 1
    labels = sorted({label for _, label, _ in variant.collected})
    finals = {label: _wire(trace, last, label) for label in labels}
    places: dict[int, set[tuple[str, int]]] = {}
    for mark, label, step in variant.collected:
        base, wire = finals[label]
        here = [(label, index) for index in carrying(wire, mark)]
        elsewhere = [
            (other, index)
            for other in labels
            if other != label
            for index in carrying(finals[other][1], mark)
        ]
        count = sum(
            1
            for other in labels
            for _, _, entry in delivered_at(finals[other][1], "")
            if pointers(entry, mark)
        )
        candidates = _written(trace, step, label)[-1:]
        if variant.cut and step < last:  # or the run that completed the turn
            candidates += _written(trace, last, label)[-1:]
        if not here and not elsewhere:
            if variant.cut and not in_state(ctx.handshake, wire, "completed"):
                raise Untested(
                    "the cut turn did not complete after it was resumed, and its artifacts "
                    "are on no message yet: where they land cannot be seen"
                )
            ctx.expect(
                False,
                f"the artifact {show(mark)}, collected by the run of step {step}, is carried "
                f"by no message of turn {label}: it {whereabouts(wire, mark)}; {CLAUSE_1}",
                at=base,
                reading=CUT if variant.cut else None,
            )
            continue
        ctx.expect(
            count == 1 and not elsewhere,
            f"the artifact {show(mark)} is carried {count} times, by messages "
            f"{show([f'{t}#{i}' for t, i in here + elsewhere])}; {CLAUSE_1}",
            at=f"{base}/messages/{here[0][1]}/toolArtifacts" if here else base,
        )
        wanted = [f"{base}/messages/{index}" for index in candidates]
        ctx.expect(
            all(index in candidates for _, index in here),
            f"the artifact {show(mark)}, collected by the run of step {step}, is on message(s) "
            f"{listing([f'{base}/messages/{i}' for _, i in here])}; the last assistant "
            f"message that run wrote is {listing(wanted[:1]) or 'none'}"
            + (
                f" and the run that completed the turn wrote {listing(wanted[1:])}"
                if variant.cut and len(wanted) > 1
                else ""
            )
            + f"; {CLAUSE_1}",
            at=f"{base}/messages/{here[0][1]}" if here else base,
            reading=CUT if variant.cut else None,
        )
        places.setdefault(step, set()).update(here)
    for step, found in places.items():
        ctx.expect(
            len(found) <= 1,
            f"what the run of step {step} collected is spread over messages "
            f"{show(sorted(f'{t}#{i}' for t, i in found))}; {CLAUSE_1}",
            reading=CUT if variant.cut else None,
        )


CLAUSE_2 = (
    "RT-TOOL-4 ¶2: a turn's result aggregates the persisted artifacts of every assistant "
    "message in the turn, so they survive a reload"
)


# ¶2 aggregates "the persisted artifacts of every assistant message": where a turn's result
# reports what its runs collected and no message carries, the persistence ¶1 makes did not
# happen, and what the result should equal is not there to compare.
@check(
    "RT-TOOL-4#c2",
    variants=AGGREGATING,
    through=DELIVERY,
)
def check_turn_result_aggregates_and_survives_reload(
    ctx: CheckContext, variant: Aggregating
) -> None:
    """The turn read reports what its messages carry, every artifact its runs produced,
    before and after a reload."""
    collects(ctx)
    trace = one_turn(
        ctx,
        "rt4-c2-aggregate",
        tools=variant.tools,
        model=[*variant.model],
        steps=[*variant.steps],
    )
    for step in range(variant.judged, len(trace.steps)):
        when = f"after step {step} ({trace.steps[step].op})"
        for label, produced in variant.produced:
            base, wire = _wire(trace, step, label)
            if not ctx.expect(
                wire is not None, f"turn {label} is missing from the wire {when}", at=base
            ):
                continue
            assert wire is not None
            on_messages = [entry for _, _, entry in delivered_at(wire, base)]
            reported = wire.toolArtifacts
            ctx.expect(
                isinstance(reported, list)
                and sorted(map(show, reported)) == sorted(map(show, on_messages)),
                f"{when}, turn {label}'s result reports {show(reported, 160)}, and its "
                f"messages carry {show(on_messages, 160)}; {CLAUSE_2}",
                at=f"{base}/toolArtifacts",
            )
            got = [projection(entry) for entry in entries(reported)]
            for entry in produced:
                ctx.expect(
                    any(same_json(entry, seen) for seen in got),
                    f"{when}, turn {label}'s result does not report the artifact "
                    f"{show(entry, 120)} its run produced (it reports {show(got, 160)}); "
                    f"{CLAUSE_2}",
                    at=f"{base}/toolArtifacts",
                )


CLAUSE_3 = (
    "RT-TOOL-4 ¶3: on the wire a message carries its artifacts as a top-level "
    "`toolArtifacts` field rather than as raw message metadata"
)


def _rows(trace: Trace, variant: WireForm) -> tuple[str, list[object]]:
    """The message rows the variant reads, with the pointer of the list holding them."""
    last = len(trace.steps) - 1
    if variant.poll:
        data = mapping(trace.steps[last].poll).get("data")
        return f"/steps/{last}/poll/data", entries(data)
    base, wire = _wire(trace, last, "t1")
    return f"{base}/messages", list(wire.messages) if wire is not None else []


# Which field of a message carries the artifacts is ¶3's own; that no message carries them,
# and the turn's result does, is ¶1's, and that nothing was attached, RT-TOOL-2 ¶3's.
@check(
    "RT-TOOL-4#c3",
    variants=WIRE_FORMS,
    through=(ARTIFACTS_ATTACHED, ARTIFACTS_LISTED, ARTIFACTS_ON_MESSAGES),
)
def check_top_level_field_not_metadata(ctx: CheckContext, variant: WireForm) -> None:
    """On the wire (the turn read, after a reload, the message poll) the artifacts are a
    top-level `toolArtifacts` list, never inside `metadata`."""
    collects(ctx)
    payload = {"url": f"https://e.x/{MARK3}", **dict(variant.payload)}
    steps: list[Step] = [StartTurn("t1")]
    if variant.restart:
        steps.append(Restart())
    if variant.poll:
        steps.append(Poll())
    trace = one_turn(
        ctx,
        "rt4-c3-wire",
        tools=[tool("make", output({"ok": True}, artifact("link", payload)))],
        model=[calls(call("make", {}, "c1")), say("done")],
        steps=steps,
    )
    at, rows = _rows(trace, variant)
    ctx.need(bool(rows), f"no message rows were found at {at}; {CLAUSE_3}", at=at)
    for index, row in enumerate(rows):
        if not ctx.expect(
            isinstance(row, Mapping), f"message {index} is {show(row, 80)}, not a JSON object"
        ):
            continue
        leaked = pointers(mapping(row).get("metadata"), MARK3, f"{at}/{index}/metadata")
        ctx.expect(
            not leaked,
            f"message {index}'s metadata carries the artifact, at {listing(leaked)}; {CLAUSE_3}",
            at=leaked[0] if leaked else None,
        )
        carried = mapping(row).get("toolArtifacts")
        ctx.expect(
            carried is None or isinstance(carried, list),
            f"message {index}'s toolArtifacts is {show(carried, 120)}, not a list; {CLAUSE_3}",
            at=f"{at}/{index}/toolArtifacts",
        )
    top = [
        f"{at}/{index}/toolArtifacts"
        for index, row in enumerate(rows)
        if any(pointers(entry, MARK3) for entry in entries(mapping(row).get("toolArtifacts")))
    ]
    ctx.expect(
        bool(top),
        f"no message carries the artifact in a top-level toolArtifacts list; it is at "
        f"{listing(pointers(rows, MARK3, at)) or 'no place in the rows'}; {CLAUSE_3}",
        at=at,
    )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_persisted_on_last_assistant_message,
    check_turn_result_aggregates_and_survives_reload,
    check_top_level_field_not_metadata,
)
