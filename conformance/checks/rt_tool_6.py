"""RT-TOOL-6: artifacts are bounded once, at the point they are collected.

"KB" and "MB" are not defined by the rule; the floors are checked with 512,000 bytes per
payload and 2,000,000 bytes in aggregate (encoded compactly), which every reading of the
units must accept.
"""

from __future__ import annotations

from adapters.scenario import UNENCODABLE, Answer, Bounds, StartTurn
from conformance.checks import CheckContext, Untested, check
from conformance.checks._common import (
    first_missing,
    misplaced,
    one_turn,
    port,
    show,
    whereabouts,
)
from conformance.checks._states import describe, in_state
from conformance.scenarios import artifact, ask, call, calls, canary, output, say, tool
from conformance.traces import all_passes, contains, delivered, locate, turn

#: The URL of clause 5's well-formed artifact, looked for on the wire when not delivered.
NEIGHBOUR = "https://e.x"
PAYLOAD_FLOOR = 512_000
RUN_ARTIFACT_FLOOR = 50
RUN_BYTES_FLOOR = 2_000_000


def blob(size: int, tag: str) -> dict[str, object]:
    """A payload whose compact JSON encoding is exactly ``size`` bytes."""
    overhead = len('{"tag":"","blob":""}') + len(tag)
    return {"tag": tag, "blob": "x" * (size - overhead)}


def _entries(count: int, prefix: str) -> list[dict[str, object]]:
    return [artifact("citation", {"ref": f"{prefix}-{i}"}) for i in range(count)]


#: The default-bounds variant of clause 1 fills two runs to their bound; beyond this many
#: artifacts per run it is skipped (the scaled-down variant still runs).
DEFAULT_RUN_BOUND_CAP = 1_000


@check("RT-TOOL-6#c1")
def check_nothing_downstream_rechecks(ctx: CheckContext) -> None:
    """What each run collected within its bound is delivered in full, even when the merged
    list of a resume exceeds what one run may collect: with scaled-down bounds, and with
    the implementation's own default bounds (a re-check against a default bound that a
    scenario's bounds replace would otherwise go unseen)."""
    caps, limits = ctx.handshake.capabilities, ctx.handshake.limits
    variants: list[tuple[str, int, Bounds | None]] = []
    if caps.configurable_bounds:
        variants.append(("rt6-c1-no-recheck", 3, Bounds(run_artifacts=3, held_artifacts=16)))
    default = limits.run_artifacts
    if (
        default is not None
        and default <= DEFAULT_RUN_BOUND_CAP
        and (limits.held_artifacts is None or limits.held_artifacts >= default)
    ):
        variants.append(("rt6-c1-no-recheck-default-bounds", default, None))
    if not variants:
        raise Untested("needs configurable bounds, or a held bound at least the run bound")
    for name, per_run, bounds in variants:
        first, second = _entries(per_run, "first"), _entries(per_run, "second")
        trace = one_turn(
            ctx,
            name,
            bounds=bounds,
            tools=[tool("make", output({"ok": True}, *first), output({"ok": True}, *second))],
            model=[
                calls(call("make", {}, "c1")),
                ask(),
                calls(call("make", {}, "c2")),
                say("done"),
            ],
            steps=[StartTurn("t1"), Answer("t1")],
        )
        wire = turn(trace, "t1")
        on_wire = delivered(wire)
        if len(on_wire) != 2 * per_run:
            said = (
                f"{2 * per_run} artifacts were collected within each run's bound of {per_run}, "
                f"but the messages' toolArtifacts delivered {len(on_wire)}"
            )
            missing = first_missing(wire, [*first, *second])
            # An entry that is elsewhere on the wire was misplaced, not re-checked.
            if missing is not None and locate(wire, missing):
                ctx.fail(f"{said}{misplaced(wire, [missing])}")
            ctx.fail(f"{said}: something downstream re-checked them")


@check("RT-TOOL-6#c2")
def check_floors_accepted(ctx: CheckContext) -> None:
    """With its default bounds, a run keeps a 512 KB payload, 50 artifacts, and 2 MB in
    aggregate."""
    cases = {
        "payload": [artifact("blob", blob(PAYLOAD_FLOOR, "big"))],
        "count": _entries(RUN_ARTIFACT_FLOOR, "n"),
        "aggregate": [artifact("blob", blob(RUN_BYTES_FLOOR // 4, f"part{i}")) for i in range(4)],
    }
    for name, entries in cases.items():
        trace = one_turn(
            ctx,
            f"rt6-c2-{name}",
            tools=[tool("make", output({"ok": True}, *entries))],
            model=[calls(call("make", {}, "c1")), say("done")],
        )
        wire = turn(trace, "t1")
        on_wire = delivered(wire)
        if len(on_wire) != len(entries):
            ctx.fail(
                f"floor {show(name)}: {len(entries)} artifacts within the floors were produced, "
                f"{len(on_wire)} delivered in the messages' toolArtifacts"
                f"{misplaced(wire, entries)}"
            )


@check("RT-TOOL-6#c3")
def check_drop_warns_and_leaves_no_placeholder(ctx: CheckContext) -> None:
    """An artifact over a bound (or one that does not encode) is dropped with a warning that
    names the tool, the run, the type and the call; the run goes on; no placeholder."""
    caps, limits = ctx.handshake.capabilities, ctx.handshake.limits
    if caps.configurable_bounds:
        bound, bounds = 400, Bounds(payload_bytes=400)
    elif limits.payload_bytes is not None:
        bound, bounds = limits.payload_bytes, None
    else:
        raise Untested("needs configurable bounds or a declared payload bound")
    kept = [artifact("first", {"n": 1}), artifact("last", {"n": 2})]
    bad = [artifact("oversize", blob(bound + 100, "over"))]
    if caps.unencodable_payloads:
        bad.append(artifact("broken", dict(UNENCODABLE)))
    trace = one_turn(
        ctx,
        "rt6-c3-drop",
        bounds=bounds,
        tools=[tool("make", output({"ok": True}, kept[0], *bad, kept[1]))],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    final = turn(trace, "t1")
    ctx.need(
        in_state(ctx.handshake, final, "completed"),
        f"the run did not complete after a drop: {describe(ctx.handshake, final)}",
    )
    expected = [{**entry, "tool_call_id": "c1"} for entry in kept]
    if delivered(final) != expected:
        ctx.fail(
            f"the messages' toolArtifacts delivered {show(delivered(final))}, expected exactly "
            f"{show(expected)}{misplaced(final, expected)}"
        )
    run_ids = {run.id for run in trace.runs()}
    for entry in bad:
        kind = entry["type"]
        matching = [w for w in trace.warnings() if w.type == kind]
        ctx.need(bool(matching), f"the {show(kind)} artifact was dropped without a warning")
        warning = matching[0]
        ctx.need(
            warning.tool == "make" and warning.tool_call_id == "c1" and warning.run in run_ids,
            f"the warning for {show(kind)} does not name tool, run and call: {show(warning)}",
        )


@check("RT-TOOL-6#c4")
def check_drop_is_per_artifact(ctx: CheckContext) -> None:
    """An artifact that would cross the aggregate budget is dropped, and a later, smaller
    one that still fits is kept."""
    caps, limits = ctx.handshake.capabilities, ctx.handshake.limits
    if caps.configurable_bounds:
        budget, per_payload, bounds = 1_000, 1_000, Bounds(run_bytes=1_000, payload_bytes=1_000)
    elif limits.run_bytes is not None and limits.payload_bytes is not None:
        budget, per_payload, bounds = limits.run_bytes, limits.payload_bytes, None
    else:
        raise Untested("needs configurable bounds or declared run and payload bounds")
    small = {"ref": "kept"}
    fill: list[dict[str, object]] = []
    remaining = budget - 200
    while remaining > 0:
        size = min(per_payload, remaining)
        if size < 40:
            break
        fill.append(artifact("fill", blob(size, f"f{len(fill)}")))
        remaining -= size
    crossing = artifact("crossing", blob(min(per_payload, 400), "cross"))
    last = artifact("citation", small)
    trace = one_turn(
        ctx,
        "rt6-c4-per-artifact",
        bounds=bounds,
        tools=[tool("make", output({"ok": True}, *fill, crossing, last))],
        model=[calls(call("make", {}, "call_last")), say("done")],
    )
    wire = turn(trace, "t1")
    on_wire = delivered(wire)
    if {**last, "tool_call_id": "call_last"} not in on_wire:
        ctx.fail(
            "a small artifact after a dropped one was not delivered in any message's "
            f"toolArtifacts, though it fit the budget; it {whereabouts(wire, last)}"
        )
    ctx.need(
        not any(isinstance(e, dict) and e.get("type") == "crossing" for e in on_wire),
        "the artifact that crossed the aggregate budget was kept",
    )
    if len(on_wire) != len(fill) + 1:
        ctx.fail(
            f"expected {len(fill) + 1} artifacts (the fill and the small one), the messages' "
            f"toolArtifacts delivered {len(on_wire)}{misplaced(wire, [*fill, last])}"
        )


@check("RT-TOOL-6#c5")
def check_empty_type_refused(ctx: CheckContext) -> None:
    """An artifact whose `type` is empty is refused outright: never surfaced, never delivered."""
    mark = canary("rt6-c5")
    trace = one_turn(
        ctx,
        "rt6-c5-empty-type",
        tools=[
            tool(
                "make",
                output(
                    {"ok": True},
                    artifact("", {"note": mark}),
                    artifact("link", {"url": NEIGHBOUR}),
                ),
            )
        ],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    wire = turn(trace, "t1")
    on_wire = delivered(wire)
    ctx.need(not contains(on_wire, mark), "an artifact with an empty type was delivered")
    ctx.need(
        not any(contains(port(one, "tool_artifacts"), mark) for _, one in all_passes(trace)),
        "an artifact with an empty type was surfaced on tool_artifacts",
    )
    if not contains(on_wire, NEIGHBOUR):
        ctx.fail(
            "the well-formed neighbour was not delivered in any message's toolArtifacts; it "
            f"{whereabouts(wire, NEIGHBOUR)}"
        )


HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "{{7*7}}",
    "${7*7}",
    "&lt;b&gt;bold&lt;/b&gt;",
    "&amp;amp;",
    "'; DROP TABLE messages; --",
    "\u202eevil",
    "line\nbreak",
    "%s%n",
]


@check("RT-TOOL-6#c6")
def check_payload_is_plain_text(ctx: CheckContext) -> None:
    """Payload values are untrusted plain text: they come back exactly as produced, never
    decoded, rendered, expanded or executed."""
    payload = {f"v{i}": value for i, value in enumerate(HOSTILE)}
    trace = one_turn(
        ctx,
        "rt6-c6-plain-text",
        tools=[tool("make", output({"ok": True}, artifact("note", payload)))],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    expected = [{"type": "note", "payload": payload, "tool_call_id": "c1"}]
    wire = turn(trace, "t1")
    if delivered(wire) != expected:
        ctx.fail(
            "a payload did not come back in the messages' toolArtifacts as the exact text the "
            f"tool produced: {show(delivered(wire))}{misplaced(wire, expected)}"
        )
