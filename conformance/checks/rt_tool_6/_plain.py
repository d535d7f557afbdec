"""RT-TOOL-6 ¶5 and ¶6: the empty type, and payloads as plain text.  The rule's overview
(:mod:`conformance.checks.rt_tool_6`) lists what the checks vary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adapters.scenario import Answer, Bounds, Reply, StartTurn, Step
from conformance.toolkit import (
    DELIVERY,
    CheckContext,
    artifact,
    ask,
    call,
    calls,
    canary,
    check,
    collects,
    contains,
    delivered,
    escape_token,
    link,
    listing,
    locate,
    mapping,
    misplaced,
    one_turn,
    output,
    say,
    show,
    tool,
    turn,
    turn_pointer,
    wire_pointer,
)

__all__ = ["EMPTY_TYPES", "PLAIN_TEXT"]

TOOL = "emit_artifacts"


@dataclass(frozen=True)
class EmptyType:
    """Empty-typed artifacts (``empty`` of them) among ``neighbours`` well-formed ones, all
    from call c1 unless ``alone`` (then the neighbours come from call c2); ``pause``: the
    run pauses after the call; ``bound``: the run's count bound."""

    empty: int = 1
    neighbours: int = 1
    alone: bool = False
    pause: bool = False
    bound: int | None = None


EMPTY_TYPES = {
    "beside-a-neighbour": EmptyType(),
    "alone-in-its-call": EmptyType(alone=True),
    "twice": EmptyType(empty=2),
    "before-a-pause": EmptyType(pause=True),
    "at-the-count-bound": EmptyType(neighbours=2, bound=2),
}


@check(
    "RT-TOOL-6#c5",
    variants=EMPTY_TYPES,
    through=DELIVERY,
)
def check_empty_type_refused(ctx: CheckContext, variant: EmptyType) -> None:
    """An artifact whose `type` is empty is refused outright where the run collects it:
    never held, never delivered, and it takes no share of the run's bounds."""
    collects(ctx)
    marks = [canary(f"rt6-c5-empty-{i}") for i in range(variant.empty)]
    empty = [artifact("", {"note": mark}) for mark in marks]
    neighbours = [link(f"https://e.x/neighbour/{i}") for i in range(variant.neighbours)]
    if variant.alone:
        batch = {"c1": empty, "c2": neighbours}
    else:
        batch = {"c1": [*empty[:1], *neighbours[:1], *empty[1:], *neighbours[1:]]}
    model: list[Reply] = [calls(*(call(TOOL, {}, call_id) for call_id in batch))]
    steps: list[Step] = [StartTurn("t1")]
    if variant.pause:
        model.append(ask())
        steps.append(Answer("t1"))
    trace = one_turn(
        ctx,
        "rt6-c5-empty-type",
        bounds=None if variant.bound is None else Bounds(run_artifacts=variant.bound),
        tools=[tool(TOOL, *(output({"ok": True}, *entries) for entries in batch.values()))],
        model=[*model, say("done")],
        steps=steps,
    )
    for index, step in enumerate(trace.steps):
        wire = step.wire.get("main", {}).get("t1")
        for mark in marks:
            ctx.expect(
                not contains(delivered(wire), mark),
                f"after step {index} an artifact with an empty type was delivered, at "
                f"{listing(locate(wire, mark))}; RT-TOOL-6 ¶5 refuses it outright",
                at=f"/steps/{index}/wire/main/t1/messages",
                reading="empty-type",
            )
            held = None if step.held is None else step.held.get("t1")
            ctx.expect(
                not contains(held, mark),
                f"after step {index} an artifact with an empty type is held against the "
                "paused turn; RT-TOOL-6 ¶5 refuses it where the run collects it",
                at=f"/steps/{index}/held/t1",
                reading="empty-type",
            )
    owner = {id(e): call_id for call_id, entries in batch.items() for e in entries}
    expected = [{**e, "tool_call_id": owner[id(e)]} for e in neighbours]
    wire = turn(trace, "t1")
    bound = (
        ""
        if variant.bound is None
        else f" (the run's bound is {variant.bound}, and the refused artifact takes no share of it)"
    )
    ctx.expect(
        delivered(wire) == expected,
        f"the messages' toolArtifacts delivered {show(delivered(wire))}; expected exactly the "
        f"well-formed neighbours {show(expected)}{bound}{misplaced(wire, expected)}",
        at=wire_pointer(trace),
        reading="empty-type",
    )


#: Markup, template and query syntax, entities and format strings: each must come back as
#: the exact text the tool produced.
HOSTILE = {
    "script": "<script>alert(1)</script>",
    "img": "<img src=x onerror=alert(1)>",
    "template": "{{7*7}} ${7*7} #{7*7}",
    "entity": "&lt;b&gt;bold&lt;/b&gt; &amp;amp; &#60;",
    "sql": "'; DROP TABLE messages; --",
    "format": "%s%n%d {0} %(x)s",
    "markdown": "[click](javascript:alert(1)) ![x](x)",
}
PLAIN_TEXT: dict[str, dict[str, object]] = {
    "flat": dict(HOSTILE),
    "nested-and-keys": {
        "<b>key</b>": {"list": [HOSTILE["script"], [HOSTILE["entity"], {"deep": "&quot;"}]]},
        "&amp;": [HOSTILE["template"], HOSTILE["template"]],
        "empty": {"": "", "list": [], "map": {}},
    },
    "escapes-and-unicode": {
        "quotes": 'say "hi" \\ back\\slash \\u003c not an escape &gt;',
        "controls": "line\nbreak\ttab\rreturn\u0007bell\u001b[31mred",
        "bidi": "\u202eevil\u202c \u200bzero\u200dwidth",
        "combining": "e\u0301 vs \u00e9, 调用, 😀, \U0001f468\u200d\U0001f469",
    },
    "numbers-in-strings": {
        "numbers": ["1", "-0", "1e309", "0x10", "007", "1.0", "NaN", "Infinity"],
        "words": ["true", "null", "&#49;"],
        "scalars": [0, -1, 1.5, True, False, None],
    },
    "long-value": {"long": ("&lt;tag&gt;" + "x" * 97 + " ") * 100},
}


def _difference(want: object, got: object, path: str = "") -> tuple[str, object, object] | None:
    """The first place (a JSON pointer into the payload) where ``got`` differs from
    ``want``, with the two values there."""
    if isinstance(want, Mapping) and isinstance(got, Mapping):
        for key in want:
            if key not in got:
                return f"{path}/{escape_token(key)}", want[key], "(absent)"
            found = _difference(want[key], got[key], f"{path}/{escape_token(key)}")
            if found is not None:
                return found
        extra = [key for key in got if key not in want]
        return (
            None if not extra else (f"{path}/{escape_token(extra[0])}", "(absent)", got[extra[0]])
        )
    if (
        isinstance(want, Sequence)
        and not isinstance(want, str)
        and isinstance(got, Sequence)
        and not isinstance(got, str)
        and len(want) == len(got)
    ):
        for index, (one, other) in enumerate(zip(want, got, strict=True)):
            found = _difference(one, other, f"{path}/{index}")
            if found is not None:
                return found
        return None
    return None if type(want) is type(got) and want == got else (path, want, got)


@check(
    "RT-TOOL-6#c6",
    variants=PLAIN_TEXT,
    through=DELIVERY,
)
def check_payload_is_plain_text(ctx: CheckContext, variant: dict[str, object]) -> None:
    """Payload values are untrusted plain text: they come back exactly as produced, never
    decoded, rendered, expanded, coerced or executed."""
    collects(ctx)
    trace = one_turn(
        ctx,
        "rt6-c6-plain-text",
        tools=[tool(TOOL, output({"ok": True}, artifact("note", variant)))],
        model=[calls(call(TOOL, {}, "c1")), say("done")],
    )
    expected = {"type": "note", "payload": variant, "tool_call_id": "c1"}
    wire = turn(trace, "t1")
    on_wire = delivered(wire)
    if not ctx.expect(
        len(on_wire) == 1,
        f"the messages' toolArtifacts delivered {len(on_wire)} entries, expected the one the "
        f"tool produced{misplaced(wire, [expected])}",
        at=wire_pointer(trace),
    ):
        return
    entry = mapping(on_wire[0])
    found = _difference(variant, entry.get("payload"))
    entry_at = turn_pointer(trace, "t1") + next(iter(locate(wire, {"type": "note"})), "/messages")
    if found is not None:
        where, want, got = found
        ctx.expect(
            False,
            f"the delivered payload's value at {where or '/'} is {show(got, 120)}, the tool "
            f"produced {show(want, 120)}; RT-TOOL-6 ¶6: every payload value is plain text, "
            "passed on exactly as produced",
            at=f"{entry_at}/payload{where}",
        )
    ctx.expect(
        found is not None or entry == expected,
        f"the delivered entry is {show(entry)}, expected {show(expected)}",
        at=entry_at,
    )
