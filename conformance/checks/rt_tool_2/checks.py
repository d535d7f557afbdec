"""RT-TOOL-2's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_2`)."""

from __future__ import annotations

from collections.abc import Sequence

from adapters.scenario import Answer, Approve, Decline, Restart, Return, StartTurn, Step
from adapters.trace import Trace
from conformance.checks.rt_tool_2._reserved_key_cases import (
    DECLINES,
    ENTRY_SETS,
    EXPOSURE,
    FAILURES,
    MALFORMED,
    REMOVALS,
    Accepted,
    Declining,
    Failing,
    Removal,
)
from conformance.toolkit import (
    ANY_ARTIFACT_ATTACHED,
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    DATA_DISJOINT,
    DELIVERY,
    GUARD_HOLDS,
    RECORDED_ONCE_RETURNED,
    RESULTS_SHAPED,
    CheckContext,
    call,
    calls,
    canary,
    check,
    delivered_at,
    entries,
    expect_withheld_from_the_model,
    failure,
    link,
    listing,
    located_passes,
    located_results,
    mapping,
    one_turn,
    output,
    pointers,
    projection,
    say,
    show,
    shown_key,
    tool,
    whereabouts,
    wire_at,
)

READING_KEYS = "kept-entry-keys"


def _projections(value: object) -> list[dict[str, object]]:
    """The ``type`` and ``payload`` of every entry of a JSON list (what every stage keeps
    of it)."""
    return [projection(entry) for entry in entries(value)]


def _kept(
    ctx: CheckContext, trace: Trace, call_id: str, good: Sequence[object], clause: str
) -> None:
    """Call ``call_id`` succeeded and attached exactly ``good`` (type and payload, in order)."""
    found = located_results(trace, call_id)
    ctx.expect(bool(found), f"no tool result was reported for call {call_id}; {clause}")
    want = _projections(list(good))
    for at, record in found:
        result = mapping(record.result)
        ctx.expect(
            result.get("success") is True,
            f"call {call_id}'s tool returned normally, its output carrying the reserved key, "
            f"but its result has success {shown_key(result, 'success')}; {clause}",
            at=f"{at}/result/success",
        )
        got = _projections(result.get("artifacts"))
        extra = [entry for entry in got if entry not in want]
        lost = [entry for entry in want if entry not in got]
        ctx.expect(
            got == want,
            f"call {call_id}'s result attaches {show(got)} (type and payload), expected "
            f"{show(want)}"
            + (f"; kept although malformed: {show(extra, 120)}" if extra else "")
            + (f"; lost although well formed: {show(lost, 120)}" if lost else "")
            + f"; {clause}",
            at=f"{at}/result/artifacts" if "artifacts" in result else f"{at}/result",
            reading=READING_KEYS,
        )


CLAUSE_1 = (
    "RT-TOOL-2 ¶1, ¶3: a node output may carry the reserved `artifacts` key, whose "
    "well-formed entries are attached to the successful call's result"
)


# ¶1 is a permission: an output carrying the key is a normal successful one.  A result that
# is not `{success, data, error}` (RT-TOOL-1 ¶1), or a runtime that attaches no entry at all
# (¶3's lifting), shows nothing of it.
@check(
    "RT-TOOL-2#c1",
    variants=ENTRY_SETS,
    through=(RESULTS_SHAPED, ARTIFACTS_LISTED, ANY_ARTIFACT_ATTACHED),
)
def check_reserved_key_is_accepted(ctx: CheckContext, variant: Accepted) -> None:
    """A node output carrying a list of `{type, payload}` maps is a normal successful output
    whose entries are attached, every one, in order."""
    trace = one_turn(
        ctx,
        "rt2-c1-reserved-key",
        tools=[tool("make", output(dict(variant.data), *variant.entries))],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    _kept(ctx, trace, "c1", variant.entries, CLAUSE_1)


def _delivered(ctx: CheckContext, trace: Trace, mark: str) -> list[str]:
    """Pointers to where ``mark`` is carried by the turn's messages (``[]`` when the
    implementation collects nothing, and so delivers nothing)."""
    base, wire = wire_at(trace)
    return [at for at, _, entry in delivered_at(wire, base) if pointers(entry, mark)]


# The scenario sets an exposure choice, so it needs `port_exposure`.  Beside the judged
# tool a twin makes the other choice: where neither attaches, nothing depends on exposure
# and the missing attachment is ¶3's (no channel at all); where the turn's result shows
# what no message carries, delivery is RT-TOOL-4 ¶1's.
@check(
    "RT-TOOL-2#c2",
    variants=EXPOSURE,
    through=DELIVERY,
)
def check_channel_survives_unexposed_port(ctx: CheckContext, variant: bool) -> None:
    """The reserved key survives whether or not the author exposed the tool's port: its
    entries reach the tool result and the turn's messages."""
    mark = canary(f"rt2-c2-{'exposed' if variant else 'hidden'}")
    twin = canary(f"rt2-c2-{'hidden' if variant else 'exposed'}-twin")
    choice = "exposed" if variant else "not exposed"
    trace = one_turn(
        ctx,
        "rt2-c2-exposure",
        tools=[
            tool("make", output({"ok": True}, link(mark)), expose_artifacts_port=variant),
            tool("twin", output({"ok": True}, link(twin)), expose_artifacts_port=not variant),
        ],
        model=[calls(call("make", {}, "c1"), call("twin", {}, "c2")), say("done")],
    )
    clause = "RT-TOOL-2 ¶2: the reserved key is a system channel that survives either way"
    found = located_results(trace, "c1")
    ctx.expect(bool(found), f"no tool result was reported for call c1; {clause}")
    for at, record in found:
        attached = mapping(record.result).get("artifacts")
        ctx.expect(
            bool(pointers(attached, mark)),
            f"with the tool's `artifacts` port {choice}, the entry {show(link(mark))} is not "
            f"attached to the call's result (its `artifacts` is "
            f"{shown_key(record.result, 'artifacts')}); {clause}",
            at=f"{at}/result",
        )
    if ctx.handshake.collects_artifacts:
        base, wire = wire_at(trace)
        ctx.expect(
            bool(_delivered(ctx, trace, mark)),
            f"with the tool's `artifacts` port {choice}, the entry is carried by no message's "
            f"toolArtifacts: it {whereabouts(wire, mark)}; {clause}",
            at=base,
        )


CLAUSE_3 = (
    "RT-TOOL-2 ¶3: an entry with a string `type` and a map `payload` is kept, any other "
    "is dropped without failing the call"
)


# Entries attached in another form than a list (RT-TOOL-1 ¶2) cannot be told kept or not.
@check("RT-TOOL-2#c3", variants=MALFORMED, through=(RESULTS_SHAPED, ARTIFACTS_LISTED))
def check_malformed_entries_dropped_alone(
    ctx: CheckContext, variant: tuple[list[object], list[object]]
) -> None:
    """Only entries with a string `type` and a map `payload` are kept; the others are
    dropped, each on its own, without failing the call."""
    sent, good = variant
    # The empty type is left out: RT-TOOL-2's normative text keeps it, its narrative
    # drops it, and RT-TOOL-6 ¶5 refuses it at collection (docs/rules.md).
    trace = one_turn(
        ctx,
        "rt2-c3-mixed",
        tools=[tool("make", output({"ok": True}, *sent))],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    _kept(ctx, trace, "c1", good, CLAUSE_3)


@check("RT-TOOL-2#c3", name="reserved-key-not-a-list", through=(RESULTS_SHAPED,))
def check_reserved_key_not_a_list(ctx: CheckContext) -> None:
    """A reserved key that holds no list (a string, null, a number, a boolean) attaches
    nothing and fails nothing."""
    values: list[object] = ["junk", None, 7, True]
    trace = one_turn(
        ctx,
        "rt2-c3-not-a-list",
        tools=[
            tool(f"make_{i}", Return(output={"ok": True, "artifacts": v}))
            for i, v in enumerate(values)
        ],
        model=[calls(*(call(f"make_{i}", {}, f"c{i}") for i in range(len(values)))), say("done")],
    )
    for i in range(len(values)):
        _kept(ctx, trace, f"c{i}", [], CLAUSE_3)


CLAUSE_4 = "RT-TOOL-2 ¶4: the reserved key is always removed from the result's `data`"


# The reserved key's entries copied into `data` under another key were folded there
# (RT-TOOL-1 ¶3), the key itself removed: the check observes through data disjoint from
# the artifacts.
@check("RT-TOOL-2#c4", variants=REMOVALS, through=(DATA_DISJOINT,))
def check_reserved_key_removed_from_data(ctx: CheckContext, variant: Removal) -> None:
    """The reserved key never stays in `data`, whatever it held and whether the call
    succeeded, and nothing on it reaches the model."""
    names = [f"make_{i}" for i in range(len(variant.returns))]
    trace = one_turn(
        ctx,
        "rt2-c4-removed",
        tools=[tool(n, r) for n, r in zip(names, variant.returns, strict=True)],
        model=[calls(*(call(n, {}, f"c{i}") for i, n in enumerate(names))), say("done")],
    )
    marks = sorted({text for r in variant.returns for text in _marks_in(r.output)})
    for i in range(len(names)):
        found = located_results(trace, f"c{i}")
        ctx.expect(bool(found), f"no tool result was reported for call c{i}; {CLAUSE_4}")
        for at, record in found:
            data = mapping(record.result).get("data")
            ctx.expect(
                not (isinstance(data, dict) and "artifacts" in data),
                f"call c{i}'s result keeps the reserved key in its data: {show(data)}; {CLAUSE_4}",
                at=f"{at}/result/data/artifacts",
            )
            for mark in marks:
                inside = pointers(data, mark, f"{at}/result/data")
                ctx.expect(
                    not inside,
                    f"call c{i}'s data holds {show(mark)} from the reserved key, at "
                    f"{listing(inside)}; {CLAUSE_4}",
                    at=inside[0] if inside else None,
                )
    for mark in marks:
        expect_withheld_from_the_model(
            ctx,
            trace,
            mark,
            f"{show(mark)}, from the reserved key,",
            given="RT-TOOL-2 ¶4: it never reaches the prose fed to the model",
            fed="RT-TOOL-2 ¶4",
            tool_message="a tool message fed back towards the model",
        )


def _marks_in(value: object) -> list[str]:
    prefix = canary("rt2-c4-")
    found: list[str] = []
    if isinstance(value, str):
        found += [word for word in value.split() if word.startswith(prefix)]
    elif isinstance(value, dict):
        for item in value.values():
            found += _marks_in(item)
    elif isinstance(value, list):
        for item in value:
            found += _marks_in(item)
    return found


def _carries_none(ctx: CheckContext, trace: Trace, call_id: str, mark: str, what: str) -> None:
    """Call ``call_id`` (which failed or was declined) carries no artifacts: none on its
    result, none on the port, none delivered."""
    clause = "RT-TOOL-2 ¶5: a call that failed or was declined carries no artifacts"
    found = located_results(trace, call_id)
    ctx.expect(bool(found), f"no tool result was reported for the {what} call {call_id}; {clause}")
    for at, record in found:
        attached = mapping(record.result).get("artifacts")
        ctx.expect(
            not entries(attached),
            f"the {what} call {call_id}'s result carries artifacts {show(attached)}; {clause}",
            at=f"{at}/result/artifacts",
        )
    for at, _, one in located_passes(trace):
        surfaced = pointers(
            mapping(one.ports).get("tool_artifacts"), mark, f"{at}/ports/tool_artifacts"
        )
        ctx.expect(
            not surfaced,
            f"the {what} call {call_id}'s artifact was surfaced on tool_artifacts, at "
            f"{listing(surfaced)}; {clause}",
            at=surfaced[0] if surfaced else None,
        )
    delivered = _delivered(ctx, trace, mark)
    ctx.expect(
        not delivered,
        f"the {what} call {call_id}'s artifact was delivered, at {listing(delivered)}; {clause}",
        at=delivered[0] if delivered else None,
    )


# Which call carries what is told apart by the artifacts a successful call attaches
# (RT-TOOL-2 ¶3): a runtime that attaches none shows nothing of ¶5.
@check(
    "RT-TOOL-2#c5",
    name="failed-call-carries-no-artifacts",
    variants=FAILURES,
    through=(ARTIFACTS_ATTACHED,),
)
def check_failed_call_carries_none(ctx: CheckContext, variant: Failing) -> None:
    """A call that failed carries no artifacts, even if its node emitted some, wherever it
    comes in the turn."""
    mark = canary("rt2-c5-failed")
    fails = failure("upstream refused", link(mark))
    if variant.same_tool_first:
        flaky = tool("flaky", output({"ok": True}, link(canary("rt2-c5-ok"))), fails)
        batch = calls(call("flaky", {}, "c_ok"), call("flaky", {}, "c_fail"))
    else:
        flaky = tool("flaky", fails)
        batch = calls(call("flaky", {}, "c_fail"))
    steps: list[Step] = [StartTurn("t1"), *(Answer("t1") for _ in range(variant.answers))]
    trace = one_turn(
        ctx,
        "rt2-c5-failed",
        tools=[flaky, tool("other", output({"ok": True}))],
        model=[*variant.before, batch, say("done")],
        steps=steps,
    )
    _carries_none(ctx, trace, "c_fail", mark, "failed")


@check(
    "RT-TOOL-2#c5",
    name="declined-call-carries-no-artifacts",
    variants=DECLINES,
    # the approved call is told from the declined one by what its result carries, and it
    # runs once approved only where the gated call was not recorded before (RT-TOOL-9 ¶4)
    through=(RESULTS_SHAPED, ARTIFACTS_ATTACHED, GUARD_HOLDS, RECORDED_ONCE_RETURNED),
)
def check_declined_call_carries_none(ctx: CheckContext, variant: Declining) -> None:
    """A gated call the operator declined carries no artifacts (whatever its result says
    about success; and an approved one beside it keeps its own)."""
    mark, kept = canary("rt2-c5-declined"), canary("rt2-c5-approved")
    tools = [
        tool("send", output({"sent": True}, link(mark)), gate=True),
        tool("post", output({"posted": True}, link(kept)), gate=True),
    ]
    batch = [call("send", {}, "c_declined")]
    steps: list[Step] = [StartTurn("t1")]
    if variant.restart:
        steps.append(Restart())
    if variant.approved_first:
        batch.insert(0, call("post", {}, "c_approved"))
        steps.append(Approve("t1"))
    steps.append(Decline("t1"))
    trace = one_turn(
        ctx, "rt2-c5-declined", tools=tools, model=[calls(*batch), say("done")], steps=steps
    )
    _carries_none(ctx, trace, "c_declined", mark, "declined")
    if variant.approved_first:
        approved = located_results(trace, "c_approved")
        ctx.expect(
            any(pointers(mapping(r.result).get("artifacts"), kept) for _, r in approved),
            f"the approved gated call c_approved does not carry its artifact (its results: "
            f"{show([r.result for _, r in approved], 160)}); RT-TOOL-2 ¶3 attaches a "
            "successful call's entries, which this check relies on to tell the two calls apart",
            at=approved[0][0] if approved else None,
        )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_reserved_key_is_accepted,
    check_channel_survives_unexposed_port,
    check_malformed_entries_dropped_alone,
    check_reserved_key_not_a_list,
    check_reserved_key_removed_from_data,
    check_failed_call_carries_none,
    check_declined_call_carries_none,
)
