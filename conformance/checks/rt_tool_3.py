"""RT-TOOL-3: artifacts leave a tool call on their own port, apart from the model's prose."""

from __future__ import annotations

from adapters.trace import TurnWire
from conformance.checks import CheckContext, check
from conformance.checks._common import mapping, misplaced, one_turn, port, show, whereabouts
from conformance.scenarios import artifact, call, calls, canary, output, say, tool
from conformance.traces import all_passes, delivered, model_text, turn

#: The URL of clause 4's artifact, looked for on the wire when it is not delivered.
URL = "https://e.x/1"


@check("RT-TOOL-3#c1")
def check_port_entries_built_key_by_key(ctx: CheckContext) -> None:
    """Each port entry is exactly `{type, payload, tool_call_id}`, paired with the real call:
    a tool can neither forge the call id nor smuggle keys through."""
    forged = {
        "type": "link",
        "payload": {"url": "https://example.com/x"},
        "tool_call_id": "forged-id",
        "smuggled": "extra",
    }
    trace = one_turn(
        ctx,
        "rt3-c1-key-by-key",
        tools=[
            tool("forger", output({"ok": True}, forged)),
            tool("honest", output({"ok": True}, artifact("citation", {"ref": "r"}))),
        ],
        model=[calls(call("forger", {}, "c1"), call("honest", {}, "c2")), say("done")],
    )
    expected = [
        {"type": "link", "payload": {"url": "https://example.com/x"}, "tool_call_id": "c1"},
        {"type": "citation", "payload": {"ref": "r"}, "tool_call_id": "c2"},
    ]
    passes = all_passes(trace)
    ctx.need(bool(passes), "no tool pass was reported")
    surfaced = port(passes[0][1], "tool_artifacts")
    ctx.need(
        surfaced == expected,
        f"tool_artifacts carried {show(surfaced)}, expected {show(expected)}",
    )
    wire = turn(trace, "t1")
    on_wire = delivered(wire)
    if on_wire != expected:
        ctx.fail(
            f"the messages' toolArtifacts carried {show(on_wire)}, expected {show(expected)}"
            f"{misplaced(wire, expected)}"
        )


@check("RT-TOOL-3#c2")
def check_port_not_exposed_by_default(ctx: CheckContext) -> None:
    """With no exposure choice made, `tool_artifacts` is not exposed."""
    trace = one_turn(
        ctx,
        "rt3-c2-default-exposure",
        tools=[tool("make", output({"ok": True}, artifact("link", {"u": 1})))],
        model=[calls(call("make", {}, "c1")), say("done")],
    )
    passes = all_passes(trace)
    ctx.need(bool(passes), "no tool pass was reported")
    exposed = mapping(passes[0][1].exposed)
    ctx.need(
        "tool_artifacts" in exposed,
        "the implementation did not report whether tool_artifacts is exposed",
    )
    ctx.need(
        exposed.get("tool_artifacts") is False,
        f"tool_artifacts is exposed by default ({show(exposed.get('tool_artifacts'))})",
    )


@check("RT-TOOL-3#c3")
def check_prose_built_from_data_alone(ctx: CheckContext) -> None:
    """The prose fed back to the model comes from `data` alone: the artifact never leaks
    into it, even when its payload names things `data` does not."""
    mark = canary("rt3-c3")
    trace = one_turn(
        ctx,
        "rt3-c3-prose",
        tools=[
            tool(
                "create_node",
                output(
                    {"result": "Created node 5 (draft)."},
                    artifact("link", {"url": f"https://example.com/{mark}", "title": mark}),
                ),
            )
        ],
        model=[calls(call("create_node", {}, "c1")), say("done")],
    )
    texts = model_text(trace)
    ctx.need(
        any("Created node 5 (draft)." in text for text in texts),
        "the tool's data never reached the model",
    )
    leaked = [text for text in texts if mark in text]
    ctx.need(
        not leaked,
        f"the artifact leaked into the model's input: {show(leaked[0], 120)}" if leaked else "",
    )
    for _, one in all_passes(trace):
        for message in one.tool_messages:
            ctx.need(mark not in str(message), "a tool message carries the artifact")


@check("RT-TOOL-3#c4")
def check_delivery_does_not_depend_on_exposure(ctx: CheckContext) -> None:
    """A run's artifacts are delivered whether or not the author exposed the port."""
    seen: dict[str, list[object]] = {}
    wires: dict[str, TurnWire | None] = {}
    choices = [None, True] if ctx.handshake.capabilities.port_exposure else [None]
    for choice in choices:
        name = "default" if choice is None else "exposed"
        trace = one_turn(
            ctx,
            f"rt3-c4-{name}",
            tools=[tool("make", output({"ok": True}, artifact("link", {"url": URL})))],
            model=[calls(call("make", {}, "c1")), say("done")],
            expose=None if choice is None else {"tool_artifacts": choice},
        )
        wires[name] = turn(trace, "t1")
        seen[name] = delivered(wires[name])
    if not seen["default"]:
        ctx.fail(
            "with tool_artifacts not exposed (the default), nothing was delivered in any "
            f"message's toolArtifacts; the artifact {whereabouts(wires['default'], URL)}"
        )
    if "exposed" in seen and seen["exposed"] != seen["default"]:
        ctx.fail(
            f"delivery changed with exposure: {show(seen['default'])} vs {show(seen['exposed'])}"
            f"{misplaced(wires['exposed'], seen['default'])}"
        )
