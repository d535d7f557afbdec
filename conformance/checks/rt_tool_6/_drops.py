"""RT-TOOL-6 ¶3 and ¶4: what a drop at a bound leaves behind.  The rule's overview
(:mod:`conformance.checks.rt_tool_6`) lists what the checks vary."""

from __future__ import annotations

from dataclasses import dataclass, field

from adapters.scenario import UNENCODABLE, Answer, Bounds, Reply, StartTurn, Step
from adapters.trace import Trace
from conformance.checks.rt_tool_6._sizes import (
    brief,
    over_by_one_utf8_byte,
    over_payload,
    sized_payload,
)
from conformance.checks.rt_tool_6._warning_names import names, run_of_call
from conformance.toolkit import (
    DELIVERY,
    CheckContext,
    Untested,
    artifact,
    ask,
    call,
    calls,
    check,
    collects,
    delivered,
    describe,
    in_state,
    listing,
    locate,
    located_runs,
    located_warnings,
    mapping,
    misplaced,
    one_turn,
    output,
    say,
    show,
    tool,
    turn,
    turn_pointer,
    warnings_text,
    whereabouts,
    wire_pointer,
)

__all__ = ["DROPS", "PER_ARTIFACT", "Budget", "Over"]

TOOL = "emit_artifacts"
Entries = list[dict[str, object]]


@dataclass(frozen=True)
class Over:
    """An artifact crossing the bound ``over`` ("payload", "payload-utf8", "count",
    "bytes", "unencodable"), dropped in one call, in each of two calls of one batch, or in
    a run resumed after a question; or ("edge") empty payloads, two bytes in every
    encoding, each exactly at a payload bound of two, filling an aggregate bound of
    ``bound`` bytes to the byte (even) or to one byte short (odd) before one more crosses
    it.  ``bound`` is also the scaled count bound (odd, even)."""

    over: str
    placement: str = "one-call"
    bound: int = 2


DROPS = {
    "payload-bound": Over("payload"),
    "payload-bound-by-one-utf8-byte": Over("payload-utf8"),
    "count-bound": Over("count"),
    "odd-count-bound": Over("count", bound=3),
    "aggregate-bound-filled-exactly": Over("edge", bound=6),
    "aggregate-bound-by-one-byte": Over("edge", bound=5),
    "aggregate-bound": Over("bytes"),
    "unencodable-payload": Over("unencodable"),
    "two-calls-in-one-batch": Over("payload", "two-calls"),
    "in-a-resumed-run": Over("payload", "resumed-run"),
}


@dataclass
class _Plan:
    """The calls of a scenario (call id -> entries), what is kept, what is dropped."""

    bounds: Bounds | None
    calls: dict[str, Entries] = field(default_factory=dict)
    kept: list[tuple[str, dict[str, object]]] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (call id, type)

    def add(self, call_id: str, entry: dict[str, object], *, kept: bool) -> None:
        self.calls.setdefault(call_id, []).append(entry)
        if kept:
            self.kept.append((call_id, entry))
        else:
            self.dropped.append((call_id, str(entry["type"])))


def _bound(ctx: CheckContext, name: str, scaled: int) -> tuple[int, Bounds | None]:
    """The bound ``name`` to cross: ``scaled`` with configurable bounds, else declared."""
    if ctx.handshake.capabilities.configurable_bounds:
        return scaled, Bounds(**{name: scaled})
    declared = getattr(ctx.handshake.limits, name)
    if declared is None:
        raise Untested(f"needs configurable bounds or a declared {name} limit")
    return declared, None


def _drop_plan(ctx: CheckContext, variant: Over) -> _Plan:
    first, last = artifact("first", {"n": 1}), artifact("last", {"n": 2})
    if variant.over in ("payload", "payload-utf8", "unencodable"):
        bound, bounds = _bound(ctx, "payload_bytes", 400)
        plan = _Plan(bounds)
        calls_ = ("call_one", "call_two")
        if variant.placement != "two-calls":
            calls_ = ("call_one", "call_one")
        plan.add(calls_[0], first, kept=True)
        for number, call_id in enumerate(dict.fromkeys(calls_), start=1):
            if variant.over == "unencodable":
                bad = artifact("broken", dict(UNENCODABLE))
            elif variant.over == "payload-utf8":
                bad = artifact("oversize", over_by_one_utf8_byte(bound, "o"))
            else:
                bad = artifact(f"oversize-{number}", over_payload(bound, f"o{number}"))
            plan.add(call_id, bad, kept=False)
        plan.add(calls_[1], last, kept=True)
        return plan
    if variant.over == "count":
        bound, bounds = _bound(ctx, "run_artifacts", variant.bound)
        if bound > 1_000:
            raise Untested(f"the declared run bound ({bound}) is over 1000 artifacts")
        plan = _Plan(bounds)
        for index in range(bound):
            plan.add("call_one", artifact("citation", {"ref": f"n{index}"}), kept=True)
        plan.add("call_one", artifact("one-too-many", {"ref": "extra"}), kept=False)
        return plan
    if variant.over == "edge":
        return _edge_plan(ctx, variant.bound)
    bound, bounds = _bound(ctx, "run_bytes", 600)
    if bounds is not None:
        bounds = Bounds(run_bytes=bound, payload_bytes=bound)
    plan = _Plan(bounds)
    per_payload = bound if bounds is not None else ctx.handshake.limits.payload_bytes or bound
    remaining = bound
    while remaining > 140:  # fill the budget to within 100-140 bytes, payload by payload
        size = min(per_payload, remaining - 100)
        plan.add("call_one", artifact("fill", sized_payload(size, f"f{remaining}")), kept=True)
        remaining -= size
    plan.add("call_one", artifact("crossing", over_payload(remaining, "cross", by=50)), kept=False)
    plan.add("call_one", artifact("small", {"n": 3}), kept=True)
    return plan


def _edge_plan(ctx: CheckContext, run_bytes: int) -> _Plan:
    """Empty payloads (two bytes, whatever the encoding) at a payload bound of two: as many
    as ``run_bytes`` holds are kept, each within every bound, the next one is dropped."""
    if not ctx.handshake.capabilities.configurable_bounds:
        raise Untested("needs configurable bounds: the edge is a bound of a few bytes")
    plan = _Plan(Bounds(payload_bytes=2, run_bytes=run_bytes, run_artifacts=10))
    for index in range(run_bytes // 2):
        plan.add("call_one", artifact(f"fill-{index + 1}", {}), kept=True)
    plan.add("call_one", artifact("one-too-many", {}), kept=False)
    return plan


def _play(ctx: CheckContext, name: str, plan: _Plan, resumed: bool) -> Trace:
    """Each call of ``plan`` once, in one batch (or, ``resumed``, the last call in a run
    resumed after a question)."""
    ids = list(plan.calls)
    returns = [output({"ok": True}, *plan.calls[call_id]) for call_id in ids]
    if resumed:
        model: list[Reply] = [calls(call(TOOL, {}, ids[0])), ask()]
        model += [calls(*(call(TOOL, {}, i) for i in ids[1:])), say("done")]
        steps: list[Step] = [StartTurn("t1"), Answer("t1")]
    else:
        model, steps = [calls(*(call(TOOL, {}, i) for i in ids)), say("done")], [StartTurn("t1")]
    return one_turn(
        ctx, name, bounds=plan.bounds, tools=[tool(TOOL, *returns)], model=model, steps=steps
    )


@check(
    "RT-TOOL-6#c3",
    variants=DROPS,
    through=DELIVERY,
)
def check_drop_warns_and_leaves_no_placeholder(ctx: CheckContext, variant: Over) -> None:
    """An artifact over a bound (or one that does not encode) is dropped with a warning that
    names the tool, the run, the type and the call; the run goes on; no placeholder."""
    collects(ctx)
    plan = _drop_plan(ctx, variant)
    if variant.placement == "resumed-run":
        plan.calls = {"call_zero": [artifact("before", {"n": 0})], **plan.calls}
        plan.kept.insert(0, ("call_zero", artifact("before", {"n": 0})))
    trace = _play(
        ctx, f"rt6-c3-{variant.over}-{variant.placement}", plan, variant.placement == "resumed-run"
    )
    final = turn(trace, "t1")
    ctx.expect(
        in_state(ctx.handshake, final, "completed"),
        f"after the drop the turn is {describe(ctx.handshake, final)}; RT-TOOL-6 ¶3: the "
        "run is not failed",
        at=turn_pointer(trace, "t1") + "/status",
    )
    for at, run in located_runs(trace):
        ctx.expect(
            run.end != "failed",
            f"run {show(run.id)} ended {show(run.end)}; RT-TOOL-6 ¶3: a drop does not fail it",
            at=at + "/end",
        )
    on_wire = delivered(final)
    kept_anyway = {
        (call_id, kind)
        for call_id, kind in plan.dropped
        if any(mapping(e).get("type") == kind for e in on_wire)
    }
    for call_id, kind in sorted(kept_anyway):
        ctx.expect(
            False,
            f"the {show(kind)} artifact of call {call_id}, {_why(variant, plan)}, was delivered, "
            f"at {listing(locate(final, {'type': kind}))}; RT-TOOL-6 ¶3 drops it",
            at=wire_pointer(trace),
            reading="payload-size",
        )
    expected = [{**entry, "tool_call_id": call_id} for call_id, entry in plan.kept]
    if variant.over == "edge":
        _judge_kept_at_the_edge(ctx, trace, plan, expected)
    # In any order: where the held artifacts go in the merged list is RT-TOOL-7 ¶2's,
    # and the order of a run's own RT-TOOL-4's; ¶3 asks that nothing stand in for a drop.
    ctx.expect(
        len(on_wire) == len(expected)
        and all(on_wire.count(e) == expected.count(e) for e in expected),
        f"the messages' toolArtifacts delivered {show(brief(on_wire))}, expected exactly "
        f"{show(brief(expected))} in any order{misplaced(final, expected)}; RT-TOOL-6 ¶3: "
        "the dropped artifacts leave no placeholder",
        at=wire_pointer(trace),
    )
    for call_id, kind in plan.dropped:
        if (call_id, kind) not in kept_anyway:
            _judge_warning(ctx, trace, call_id, kind)


def _judge_kept_at_the_edge(
    ctx: CheckContext, trace: Trace, plan: _Plan, expected: Entries
) -> None:
    """Each artifact within every bound (its payload at the payload bound, the aggregate at
    most the run's bound) was delivered: a bound the scenario sets is the one enforced."""
    final = turn(trace, "t1")
    on_wire = delivered(final)
    bounds = plan.bounds
    assert bounds is not None
    for entry in expected:
        ctx.expect(
            entry in on_wire,
            f"the {show(entry['type'])} artifact, its two-byte payload at the payload bound of "
            f"{bounds.payload_bytes} and the run's aggregate within its bound of "
            f"{bounds.run_bytes} bytes, was not delivered: it {whereabouts(final, entry)}; "
            "RT-TOOL-6 ¶1 and ¶3: the run enforces the bound it was given, and drops only an "
            "artifact which exceeds it",
            at=wire_pointer(trace),
        )


def _why(variant: Over, plan: _Plan) -> str:
    """Why ``variant``'s artifact must be dropped, for a failure message."""
    bounds = plan.bounds
    if variant.over == "unencodable":
        return "whose payload does not encode"
    if variant.over == "count":
        bound = bounds.run_artifacts if bounds is not None else None
        return f"one more than the run's bound of {bound or 'its declared'} artifacts"
    if variant.over == "bytes":
        return "over the run's aggregate bound in every encoding"
    if variant.over == "edge":
        run_bytes = bounds.run_bytes if bounds is not None else None
        return f"whose two bytes the run's aggregate bound of {run_bytes} no longer held"
    if variant.over == "payload-utf8":
        return "one byte over the payload bound in compact UTF-8 (fewer characters than bytes)"
    return "over the payload bound in every encoding"


def _judge_warning(ctx: CheckContext, trace: Trace, call_id: str, kind: str) -> None:
    """The warning for the ``kind`` artifact of ``call_id`` names all four."""
    found = run_of_call(trace, call_id)
    ctx.need(found is not None, f"no tool result was reported for call {call_id}")
    assert found is not None
    run_id, run_at = found
    step_at = run_at.split("/runs/")[0]
    warned = [
        w
        for w in located_warnings(trace)
        if names(w.warning, "type", kind) or names(w.warning, "tool_call_id", call_id)
    ]
    if not ctx.expect(
        bool(warned),
        f"the {show(kind)} artifact of call {call_id} was dropped with no warning naming its "
        f"type or its call (warnings raised: {warnings_text(located_warnings(trace))}); "
        "RT-TOOL-6 ¶3 drops it with a warning naming the tool, the run, the type and the call",
        at=step_at + "/warnings",
        reading="drop-warnings",
    ):
        return
    one = warned[0]
    for field_name, what, value in (
        ("tool", "tool", TOOL),
        ("run", "run", run_id),
        ("type", "type", kind),
        ("tool_call_id", "call", call_id),
    ):
        ctx.expect(
            names(one.warning, field_name, value),
            f"the warning for the {show(kind)} artifact of call {call_id} does not name the "
            f"{what} {show(value)}: its {field_name} is {show(getattr(one.warning, field_name))} "
            f"and its message {show(one.warning.message)}; RT-TOOL-6 ¶3",
            at=one.at,
            reading="drop-warnings",
        )


@dataclass(frozen=True)
class Budget:
    """An artifact dropped (``drops`` times) at the aggregate or the payload bound, then a
    smaller one: in the same call, a later call, or a later pass; ``exact``: the smaller
    one fills exactly what remains of the aggregate budget."""

    placement: str = "same-call"
    cause: str = "aggregate"
    drops: int = 1
    exact: bool = False


PER_ARTIFACT = {
    "same-call": Budget(),
    "later-call": Budget(placement="later-call"),
    "later-pass": Budget(placement="later-pass"),
    "after-two-drops": Budget(drops=2),
    "fills-what-remains": Budget(exact=True),
    "after-a-payload-drop": Budget(cause="payload"),
}


def _budget(
    ctx: CheckContext, variant: Budget
) -> tuple[Bounds | None, Entries, Entries, dict[str, object], int]:
    """``(bounds, fill, crossing, small, what remains)``, sizes in every encoding."""
    caps, limits = ctx.handshake.capabilities, ctx.handshake.limits
    if caps.configurable_bounds:
        budget, per_payload = (100_000, 300) if variant.cause == "payload" else (1_000, 1_000)
        bounds: Bounds | None = Bounds(run_bytes=budget, payload_bytes=per_payload)
    elif limits.run_bytes is not None and limits.payload_bytes is not None:
        budget, per_payload, bounds = limits.run_bytes, limits.payload_bytes, None
    else:
        raise Untested("needs configurable bounds or declared run and payload bounds")
    if variant.cause == "payload":
        fill = [artifact("fill", {"n": 0})]
        crossing = [
            artifact(f"crossing-{i}", over_payload(per_payload, f"x{i}"))
            for i in range(variant.drops)
        ]
        return bounds, fill, crossing, artifact("citation", {"ref": "kept"}), per_payload
    fill, used = [], 0
    while budget - used - 300 >= 40:
        size = min(per_payload, budget - used - 300)
        fill.append(artifact("fill", sized_payload(size, f"f{len(fill)}")))
        used += size
    remaining = budget - used
    crossing = [
        artifact(f"crossing-{i}", over_payload(remaining, f"x{i}", by=50 + 50 * i))
        for i in range(variant.drops)
    ]
    small = artifact(
        "citation", sized_payload(remaining, "kept") if variant.exact else {"ref": "kept"}
    )
    return bounds, fill, crossing, small, remaining


@check(
    "RT-TOOL-6#c4",
    variants=PER_ARTIFACT,
    through=DELIVERY,
)
def check_drop_is_per_artifact(ctx: CheckContext, variant: Budget) -> None:
    """After an artifact is dropped at a bound, a later, smaller one that still fits the
    remaining budget is kept."""
    collects(ctx)
    bounds, fill, crossing, small, remaining = _budget(ctx, variant)
    if variant.placement == "same-call":
        batches = [[("c1", [*fill, *crossing, small])]]
    elif variant.placement == "later-call":
        batches = [[("call_first", fill), ("call_big", crossing), ("call_last", [small])]]
    else:
        batches = [[("call_first", fill), ("call_big", crossing)], [("call_last", [small])]]
    returns = [output({"ok": True}, *entries) for batch in batches for _, entries in batch]
    model: list[Reply] = [calls(*(call(TOOL, {}, i) for i, _ in batch)) for batch in batches]
    trace = one_turn(
        ctx,
        f"rt6-c4-{variant.placement}-{variant.cause}-{variant.drops}",
        bounds=bounds,
        tools=[tool(TOOL, *returns)],
        model=[*model, say("done")],
    )
    owner = {id(e): call_id for batch in batches for call_id, entries in batch for e in entries}
    expected = [{**e, "tool_call_id": owner[id(e)]} for e in [*fill, small]]
    wire = turn(trace, "t1")
    on_wire = delivered(wire)
    later = expected[-1]
    fits = (
        f"the payload bound of {remaining} bytes"
        if variant.cause == "payload"
        else f"the {remaining} bytes left of the run's budget, in every encoding"
    )
    ctx.expect(
        later in on_wire,
        f"after {len(crossing)} artifact(s) crossed the {variant.cause} bound, the later "
        f"{show(brief(later), 160)} fit {fits} but "
        f"was not delivered; it {whereabouts(wire, later)}; RT-TOOL-6 ¶4: a drop is per "
        "artifact",
        at=wire_pointer(trace),
        reading="payload-size",
    )
    ctx.expect(
        on_wire == expected,
        f"the messages' toolArtifacts delivered {show(brief(on_wire))}, expected exactly the "
        f"fill and the later artifact {show(brief(expected))}{misplaced(wire, expected)}",
        at=wire_pointer(trace),
        reading="payload-size",
    )
