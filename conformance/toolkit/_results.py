"""Helpers for the checks of tool results and their artifacts (RT-TOOL-1 … RT-TOOL-4, 8).

Everything a trace holds is untrusted JSON: these helpers check every shape before using
it, and say where (a JSON pointer into the trace) each thing they find was observed.
"""

from __future__ import annotations

from collections.abc import Mapping

from adapters.codec import to_json
from adapters.trace import Trace, TurnWire
from conformance.toolkit._context import CheckContext
from conformance.toolkit._shown import listing, show
from conformance.toolkit._traces import located_runs, pointers, turn_pointer

__all__ = [
    "delivered_at",
    "entries",
    "expect_withheld_from_the_model",
    "in_model_inputs",
    "in_tool_messages",
    "kept_entry",
    "projection",
    "same_json",
    "shown_key",
    "wire_at",
]


def kept_entry(entry: object) -> bool:
    """Whether an artifact entry is one RT-TOOL-2 ¶3 keeps: a map with a string ``type``
    and a map ``payload`` (any other entry is dropped)."""
    return (
        isinstance(entry, Mapping)
        and isinstance(entry.get("type"), str)
        and isinstance(entry.get("payload"), Mapping)
    )


def same_json(left: object, right: object) -> bool:
    """Whether two JSON values are equal as JSON: ``false`` is not ``0``, ``1`` is ``1.0``,
    and the order of a map's keys does not matter."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        return set(left) == set(right) and all(same_json(left[k], right[k]) for k in left)
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        return len(left) == len(right) and all(
            same_json(a, b) for a, b in zip(left, right, strict=True)
        )
    return type(left) is type(right) and left == right


def shown_key(value: object, key: str, limit: int = 200) -> str:
    """For a failure message: a map's ``key`` as JSON, or ``absent`` when the map has no
    such key (never ``null`` for a key that is not there)."""
    if not isinstance(value, Mapping) or key not in value:
        return "absent"
    return show(value[key], limit)


def entries(value: object) -> list[object]:
    """The items of a JSON list (empty for anything else)."""
    return list(value) if isinstance(value, list | tuple) else []


def projection(entry: object) -> dict[str, object]:
    """An artifact entry's ``type`` and ``payload`` (what every stage keeps of it)."""
    found = entry if isinstance(entry, Mapping) else {}
    return {"type": found.get("type"), "payload": found.get("payload")}


def in_model_inputs(trace: Trace, needle: str) -> list[str]:
    """JSON pointers to where ``needle`` appears in what the model was given
    (``/steps/0/runs/0/model_inputs/1/messages/2/content``)."""
    found: list[str] = []
    for at, run in located_runs(trace):
        for number, given in enumerate(run.model_inputs):
            found += pointers(
                to_json(list(given.messages)), needle, f"{at}/model_inputs/{number}/messages"
            )
    return found


def in_tool_messages(trace: Trace, needle: str) -> list[str]:
    """JSON pointers to where ``needle`` appears in the tool messages the passes fed back
    towards the model (``/steps/0/runs/0/passes/0/tool_messages/1/content``)."""
    found: list[str] = []
    for at, run in located_runs(trace):
        for number, one in enumerate(run.passes):
            found += pointers(
                to_json(list(one.tool_messages)), needle, f"{at}/passes/{number}/tool_messages"
            )
    return found


def expect_withheld_from_the_model(
    ctx: CheckContext,
    trace: Trace,
    text: str,
    what: str,
    *,
    given: str,
    fed: str,
    tool_message: str = "a tool message",
) -> None:
    """Expect ``text`` nowhere in what the model was given and in no tool message fed
    back towards it.  ``what`` names the text in a failure's message (``"x", from the
    reserved key,``), ``tool_message`` the tool message where it was found, and ``given``
    and ``fed`` end the two messages (the clause each failure breaks)."""
    shown = in_model_inputs(trace, text)
    ctx.expect(
        not shown,
        f"{what} reached what the model was given, at {listing(shown)}; {given}",
        at=shown[0] if shown else None,
    )
    fed_back = in_tool_messages(trace, text)
    ctx.expect(
        not fed_back,
        f"{what} is in {tool_message}, at {listing(fed_back)}; {fed}",
        at=fed_back[0] if fed_back else None,
    )


def wire_at(trace: Trace, label: str = "t1", *, step: int = -1) -> tuple[str, TurnWire | None]:
    """The turn ``label`` on the wire after ``step`` (default: the last), with its pointer."""
    if not trace.steps:
        return "/steps", None
    index = step if step >= 0 else len(trace.steps) + step
    return turn_pointer(trace, label, step=index), trace.steps[index].wire.get("main", {}).get(
        label
    )


def delivered_at(wire: TurnWire | None, base: str) -> list[tuple[str, int, object]]:
    """Every entry the turn's messages carry in ``toolArtifacts``, with its pointer under
    ``base`` (the turn's pointer) and the index of the message carrying it."""
    if wire is None:
        return []
    out: list[tuple[str, int, object]] = []
    for index, row in enumerate(wire.messages):
        carried = row.get("toolArtifacts") if isinstance(row, Mapping) else None
        for number, entry in enumerate(entries(carried)):
            out.append((f"{base}/messages/{index}/toolArtifacts/{number}", index, entry))
    return out
