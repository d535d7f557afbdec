"""RT-TOOL-3's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_3`)."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.scenario import Answer, Reply, StartTurn, Step
from adapters.trace import Trace
from conformance.checks.rt_tool_3._port_cases import (
    DEFAULTS,
    EXPOSURES,
    PAIRINGS,
    PROSES,
    Defaults,
    Exposure,
    Pairing,
    Prose,
    marked_artifact,
)
from conformance.toolkit import (
    DATA_DISJOINT,
    DELIVERY,
    RESERVED_KEY_REMOVED,
    RESULTS_SHAPED,
    TOOL_ARTIFACTS_PORT,
    CheckContext,
    artifact,
    ask,
    call,
    calls,
    check,
    collects,
    delivered_at,
    expect_withheld_from_the_model,
    in_model_inputs,
    in_tool_messages,
    link,
    located_passes,
    located_runs,
    mapping,
    misplaced,
    one_turn,
    output,
    port,
    projection,
    say,
    show,
    shown_key,
    tool,
    whereabouts,
    wire_at,
)

ENTRY_KEYS = frozenset({"type", "payload", "tool_call_id"})
CLAUSE_1 = (
    "RT-TOOL-3 ¶1: every call's artifacts are on tool_artifacts as exactly "
    "{type, payload, tool_call_id} entries, paired with the real call"
)


# What reaches the messages is read there: a runtime that keeps it elsewhere (RT-TOOL-4 ¶1)
# shows nothing of how the port's entries travel on.
@check(
    "RT-TOOL-3#c1",
    variants=PAIRINGS,
    through=DELIVERY,
)
def check_port_entries_built_key_by_key(ctx: CheckContext, variant: Pairing) -> None:
    """Each port entry is exactly `{type, payload, tool_call_id}`, paired with the real call:
    a tool can neither forge the call id nor smuggle keys through."""
    batches = [calls(*(call(m.tool, {}, m.call_id) for m in batch)) for batch in variant.passes]
    trace = one_turn(ctx, "rt3-c1-key-by-key", tools=variant.tools(), model=[*batches, say("done")])
    passes = located_passes(trace)
    ctx.need(
        len(passes) >= len(variant.passes),
        f"{len(variant.passes)} batches were sent, {len(passes)} tool passes reported",
    )
    for (at, _, one), batch in zip(passes, variant.passes, strict=False):
        surfaced = port(one, "tool_artifacts")
        if not ctx.expect(
            isinstance(surfaced, list),
            f"the pass reports tool_artifacts {show(surfaced)}, not a list; {CLAUSE_1}",
            at=f"{at}/ports/tool_artifacts",
            # the port the pass reports, or not: no other clause's channel makes it
            through=(),
        ):
            continue
        assert isinstance(surfaced, list)
        ids = {m.call_id for m in batch}
        for number, entry in enumerate(surfaced):
            keys = sorted(entry) if isinstance(entry, Mapping) else None
            ctx.expect(
                keys == sorted(ENTRY_KEYS),
                f"an entry on tool_artifacts is {show(entry, 160)}; {CLAUSE_1}",
                at=f"{at}/ports/tool_artifacts/{number}",
                reading="key-order",
                through=(),
            )
            paired = mapping(entry).get("tool_call_id")
            ctx.expect(
                paired in ids,
                "an entry on tool_artifacts has tool_call_id "
                f"{shown_key(entry, 'tool_call_id', 60)}, which is not the identifier of any "
                "call of the pass "
                f"({show(sorted(ids), 80)}); {CLAUSE_1}",
                at=f"{at}/ports/tool_artifacts/{number}/tool_call_id",
                through=(),
            )
        for made in batch:
            got = [
                projection(e) for e in surfaced if mapping(e).get("tool_call_id") == made.call_id
            ]
            ctx.expect(
                got == made.expected,
                f"call {show(made.call_id, 40)}'s entries on tool_artifacts are {show(got)} "
                f"(type and payload), its node emitted {show(made.expected)}; {CLAUSE_1}",
                at=f"{at}/ports/tool_artifacts",
            )
    if ctx.handshake.collects_artifacts:
        _delivered_as_surfaced(ctx, trace, variant)


def _delivered_as_surfaced(ctx: CheckContext, trace: Trace, variant: Pairing) -> None:
    """What reaches the messages is built from the port: every entry exactly
    ``{type, payload, tool_call_id}``, paired with the call that produced it, all of them."""
    base, wire = wire_at(trace)
    real = {m.call_id for batch in variant.passes for m in batch}
    carried = delivered_at(wire, base)
    for pointer, _, entry in carried:
        keys = sorted(entry) if isinstance(entry, Mapping) else None
        paired = mapping(entry).get("tool_call_id")
        ctx.expect(
            keys == sorted(ENTRY_KEYS) and paired in real,
            f"a message carries the entry {show(entry, 160)}, built from the port; {CLAUSE_1}",
            at=pointer,
            reading="key-order",
        )
    expected = [
        {**entry, "tool_call_id": m.call_id}
        for batch in variant.passes
        for m in batch
        for entry in m.expected
    ]
    on_wire = [entry for _, _, entry in carried]
    ctx.expect(
        sorted(map(show, on_wire)) == sorted(map(show, expected)),
        f"the messages' toolArtifacts carry {show(on_wire, 160)}, the port's entries were "
        f"{show(expected, 160)}{misplaced(wire, expected)}; {CLAUSE_1}, and they travel on "
        "to the turn's messages as they are",
        at=base,
    )


# A port that no pass has does not exist (¶1's failure): whether it is exposed says nothing.
@check("RT-TOOL-3#c2", variants=DEFAULTS, through=(TOOL_ARTIFACTS_PORT,))
def check_port_not_exposed_by_default(ctx: CheckContext, variant: Defaults) -> None:
    """Unless the author exposes `tool_artifacts` itself, every pass reports it not
    exposed."""
    model: list[Reply] = [calls(call("make", {}, "c1"))]
    steps: list[Step] = [StartTurn("t1")]
    if variant.pause:
        model += [calls(call("make", {}, "c2")), ask(), calls(call("make", {}, "c3"))]
        steps.append(Answer("t1"))
    trace = one_turn(
        ctx,
        "rt3-c2-default-exposure",
        tools=[tool("make", output({"ok": True}, artifact("link", {"u": 1})))],
        model=[*model, say("done")],
        steps=steps,
        expose=variant.expose,
    )
    passes = located_passes(trace)
    ctx.need(bool(passes), "no tool pass was reported; RT-TOOL-3 ¶2 is judged on each pass")
    for at, _, one in passes:
        exposed = mapping(one.exposed)
        ctx.expect(
            exposed.get("tool_artifacts") is False,
            "the pass reports tool_artifacts "
            + (
                f"exposed {show(exposed.get('tool_artifacts'))}"
                if "tool_artifacts" in exposed
                else "nowhere in `exposed`"
            )
            + f", with the author's choices {show(variant.expose)}; RT-TOOL-3 ¶2: the port "
            "is not exposed by default",
            at=f"{at}/exposed/tool_artifacts" if "tool_artifacts" in exposed else f"{at}/exposed",
        )


CLAUSE_3 = "RT-TOOL-3 ¶3: the prose fed back to the model is built from `data` alone"


#: The prose is built from a result's data: a runtime whose results have no data
#: (RT-TOOL-1 ¶1) shows that gap here, and the reserved key left in `data` (RT-TOOL-2 ¶4:
#: "so it never reaches the prose") brings the artifacts into a prose still built from
#: `data` alone; so do artifacts folded into `data` (RT-TOOL-1 ¶3).
PROSE_FROM_DATA = (RESULTS_SHAPED, RESERVED_KEY_REMOVED, DATA_DISJOINT)


@check("RT-TOOL-3#c3", variants=PROSES, through=PROSE_FROM_DATA)
def check_prose_built_from_data_alone(ctx: CheckContext, variant: Prose) -> None:
    """The prose fed back to the model comes from `data` alone: nothing of an artifact
    reaches the model or its tool messages, while `data` does."""
    trace = one_turn(
        ctx,
        "rt3-c3-prose",
        tools=variant.tools,
        model=[*variant.model, say("done")],
        steps=list(variant.steps),
    )
    for mark in variant.marks:
        expect_withheld_from_the_model(
            ctx,
            trace,
            mark,
            f"{show(mark)}, which only an artifact holds,",
            given=CLAUSE_3,
            fed=CLAUSE_3,
        )
    for call_id, text in variant.data:
        fed = [at for at in in_tool_messages(trace, text) if _for_call(trace, at, call_id)]
        ctx.expect(
            bool(fed),
            f"no tool message for call {call_id} holds its data's {show(text)} "
            f"(tool messages: {show(_tool_messages(trace), 160)}); {CLAUSE_3}",
            at=located_passes(trace)[0][0] + "/tool_messages" if located_passes(trace) else None,
            reading="prose-format",
        )
        given = in_model_inputs(trace, text)
        ctx.expect(
            bool(given),
            f"the model was never given call {call_id}'s data {show(text)}; {CLAUSE_3}",
            at=f"{located_runs(trace)[0][0]}/model_inputs" if located_runs(trace) else None,
            reading="prose-format",
        )


def _for_call(trace: Trace, pointer: str, call_id: str) -> bool:
    """Whether the tool message at ``pointer`` (or inside it) answers ``call_id``."""
    for at, _, one in located_passes(trace):
        for number, message in enumerate(one.tool_messages):
            here = f"{at}/tool_messages/{number}"
            if (pointer == here or pointer.startswith(here + "/")) and mapping(message).get(
                "tool_call_id"
            ) == call_id:
                return True
    return False


def _tool_messages(trace: Trace) -> list[object]:
    return [m for _, _, one in located_passes(trace) for m in one.tool_messages]


def _prose_by_call(trace: Trace) -> dict[str, list[object]]:
    """Each call's tool-message contents, in order, and the tool-role messages the model
    was given for it."""
    out: dict[str, list[object]] = {}
    for _, _, one in located_passes(trace):
        for message in one.tool_messages:
            body = mapping(message)
            out.setdefault(f"pass {body.get('tool_call_id')}", []).append(body.get("content"))
    for run in trace.runs():
        for given in run.model_inputs:
            for message in given.messages:
                body = mapping(message)
                if body.get("role") == "tool":
                    out.setdefault(f"model {body.get('tool_call_id')}", []).append(
                        body.get("content")
                    )
    return out


def _some(prose: Mapping[str, list[object]], keys: list[str]) -> str:
    """The prose of the first two differing calls, for a message."""
    return show({key: prose[key] for key in keys[:2] if key in prose}, 160)


@check("RT-TOOL-3#c3", name="prose-unchanged-by-artifacts", through=PROSE_FROM_DATA)
def check_prose_unchanged_by_artifacts(ctx: CheckContext) -> None:
    """Whatever its format, the prose of a call is the same with and without the artifacts
    its node emitted: two calls of one tool, the first with artifacts, give the same
    tool messages (and the model the same tool results) as the same calls without any."""
    data = ({"result": "First made."}, {"result": "Second made."})

    def run(name: str, attach: bool) -> tuple[dict[str, list[object]], str]:
        first = output(data[0], marked_artifact("twin"), link("https://e.x/twin"))
        trace = one_turn(
            ctx,
            name,
            tools=[tool("make", first if attach else output(data[0]), output(data[1]))],
            model=[calls(call("make", {}, "c1"), call("make", {}, "c2")), say("done")],
        )
        passes = located_passes(trace)
        return _prose_by_call(trace), f"{passes[0][0]}/tool_messages" if passes else "/steps"

    plain, _ = run("rt3-c3-without-artifacts", attach=False)
    attached, at = run("rt3-c3-with-artifacts", attach=True)
    differ = sorted(key for key in {*plain, *attached} if plain.get(key) != attached.get(key))
    ctx.expect(
        not differ,
        f"with artifacts the prose is {_some(attached, differ)}, without them "
        f"{_some(plain, differ)}; {CLAUSE_3}, so the artifacts change nothing in it",
        at=at,
        reading="prose-format",
    )


def _delivery(
    ctx: CheckContext, name: str, variant: Exposure, choice: bool | None
) -> tuple[list[object], str, str]:
    """What the turn's messages deliver, as ``[call, {type, payload}]`` pairs, the turn's
    pointer, and where the first artifact really is."""
    tools = [
        tool(f"make_{i}", output({"ok": True}, link(f"https://e.x/{i}"), artifact("n", {"i": i})))
        for i in range(variant.calls)
    ]
    model: list[Reply] = [calls(*(call(f"make_{i}", {}, f"c{i}") for i in range(variant.calls)))]
    steps: list[Step] = [StartTurn("t1")]
    if variant.pause:
        model.append(ask())
        steps.append(Answer("t1"))
    trace = one_turn(
        ctx,
        name,
        tools=tools,
        model=[*model, say("done")],
        steps=steps,
        expose=None if choice is None else {"tool_artifacts": choice},
    )
    base, wire = wire_at(trace)
    found: list[object] = [
        [mapping(entry).get("tool_call_id"), projection(entry)]
        for _, _, entry in delivered_at(wire, base)
    ]
    return found, base, f"the first one {whereabouts(wire, link('https://e.x/0'))}"


CLAUSE_4 = "RT-TOOL-3 ¶4: delivery of a run's artifacts must not depend on exposure"


@check(
    "RT-TOOL-3#c4",
    variants=EXPOSURES,
    through=DELIVERY,
)
def check_delivery_does_not_depend_on_exposure(ctx: CheckContext, variant: Exposure) -> None:
    """A run's artifacts are delivered the same whether the author exposed the port, did
    not, or made no choice."""
    collects(ctx)
    default, at, where = _delivery(ctx, "rt3-c4-no-choice", variant, None)
    ctx.need(
        bool(default),
        f"with no exposure choice made, none of the run's {2 * variant.calls} artifacts is "
        f"carried by any message's toolArtifacts: {where}; {CLAUSE_4} (and RT-TOOL-4 ¶1 "
        "persists them)",
        at=at,
    )
    said = "exposed" if variant.choice else "explicitly not exposed"
    chosen, at, where = _delivery(ctx, f"rt3-c4-{said.replace(' ', '-')}", variant, variant.choice)
    ctx.expect(
        sorted(map(show, chosen)) == sorted(map(show, default)),
        f"with tool_artifacts {said}, the turn's messages deliver {show(chosen, 160)}"
        + ("" if chosen else f" ({where})")
        + f"; with no choice made, {show(default, 160)}; {CLAUSE_4}",
        at=at,
    )


#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_port_entries_built_key_by_key,
    check_port_not_exposed_by_default,
    check_prose_built_from_data_alone,
    check_prose_unchanged_by_artifacts,
    check_delivery_does_not_depend_on_exposure,
)
