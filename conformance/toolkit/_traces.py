"""Questions a check asks of a trace.

Everything an implementation produced is untrusted JSON: these helpers never assume a
shape they have not checked, and return empty answers where a shape is wrong, so that
the check (not a crash) reports the problem.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from adapters.codec import to_json
from adapters.trace import PassRecord, RunRecord, ToolResultRecord, Trace, TurnWire

__all__ = [
    "assistant_rows",
    "contains",
    "delivered",
    "escape_token",
    "locate",
    "located_passes",
    "located_results",
    "located_runs",
    "located_side_effects",
    "pointers",
    "resolves",
    "strings",
    "turn",
    "turn_pointer",
]


def strings(value: object) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def contains(value: object, needle: str) -> bool:
    """Whether any string in ``value`` contains ``needle``."""
    return any(needle in text for text in strings(value))


def turn(
    trace: Trace, label: str, *, step: int = -1, conversation: str = "main"
) -> TurnWire | None:
    """The turn ``label`` as the wire reported it after ``step`` (default: the last)."""
    if not trace.steps:
        return None
    return trace.steps[step].wire.get(conversation, {}).get(label)


def assistant_rows(wire: TurnWire | None) -> list[Mapping[str, object]]:
    """The turn's assistant message rows."""
    if wire is None:
        return []
    return [
        row for row in wire.messages if isinstance(row, Mapping) and row.get("role") == "assistant"
    ]


def _rows_with_artifacts(wire: TurnWire | None) -> list[Mapping[str, object]]:
    """The turn's message rows that carry a non-empty ``toolArtifacts``."""
    if wire is None:
        return []
    return [
        row
        for row in wire.messages
        if isinstance(row, Mapping)
        and isinstance(row.get("toolArtifacts"), list)
        and row.get("toolArtifacts")
    ]


def delivered(wire: TurnWire | None) -> list[object]:
    """Every artifact entry carried by the turn's message rows, in order."""
    out: list[object] = []
    for row in _rows_with_artifacts(wire):
        carried = row.get("toolArtifacts")
        assert isinstance(carried, list)
        out.extend(carried)
    return out


def _escape(token: str) -> str:
    """One reference token of a JSON pointer (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def _is_entry(value: object) -> bool:
    """Whether ``value`` has the shape of an artifact entry (a map with `type` and `payload`)."""
    return isinstance(value, Mapping) and "type" in value and "payload" in value


def _matches(value: object, needle: object) -> bool:
    """Whether ``value`` is what a non-string ``needle`` looks for: a map holding every
    item of a map needle, else an equal value of the same type."""
    if isinstance(needle, Mapping) and isinstance(value, Mapping):
        return all(key in value and value[key] == item for key, item in needle.items())
    return type(value) is type(needle) and value == needle


def pointers(value: object, needle: object, base: str = "") -> list[str]:
    """JSON pointers (under ``base``) to where ``needle`` appears in the JSON ``value``.

    A string needle is found in any string or key that contains it; any other needle where
    a value matches it (a map needle: a map holding all of its items, since a delivered
    entry gains a `tool_call_id`).  A match inside an artifact entry (a map with `type`
    and `payload`) is reported at the smallest entry that holds it
    (``/messages/1/metadata/toolArtifacts/0``), so that the pointer names the misplaced
    entry rather than a field deep in its payload.  Each pointer is given once, in
    document order.
    """
    found: dict[str, None] = {}

    def walk(node: object, path: str, entry: str | None) -> None:
        here = path if _is_entry(node) else entry
        if not isinstance(needle, str):
            if _matches(node, needle):
                found[path if here is None else here] = None
                return
        elif isinstance(node, str):
            if needle in node:
                found[path if here is None else here] = None
            return
        if isinstance(node, Mapping):
            for key, item in node.items():
                child = f"{path}/{_escape(str(key))}"
                if isinstance(needle, str) and needle in str(key):
                    found[child if here is None else here] = None
                walk(item, child, here)
        elif isinstance(node, list | tuple):
            for index, item in enumerate(node):
                walk(item, f"{path}/{index}", here)

    walk(value, base, None)
    return list(found)


def locate(wire: TurnWire | None, needle: object) -> list[str]:
    """Where ``needle`` (an artifact entry, a payload, or a string such as a canary) really
    is in the turn's wire form, as JSON pointers into the turn read
    (``/messages/1/metadata/toolArtifacts/0``, ``/toolArtifacts/0``).  Used to say where
    an artifact went when it is not where a clause wants it."""
    return [] if wire is None else pointers(to_json(wire), needle)


def escape_token(token: object) -> str:
    """One reference token of a JSON pointer (RFC 6901)."""
    return _escape(str(token))


def located_runs(trace: Trace) -> list[tuple[str, RunRecord]]:
    """Every run with its JSON pointer in the trace (``/steps/1/runs/0``), in order."""
    return [
        (f"/steps/{index}/runs/{number}", run)
        for index, step in enumerate(trace.steps)
        for number, run in enumerate(step.runs)
    ]


def located_passes(trace: Trace) -> list[tuple[str, RunRecord, PassRecord]]:
    """Every tool pass with its pointer (``/steps/1/runs/0/passes/2``) and its run."""
    return [
        (f"{at}/passes/{number}", run, one)
        for at, run in located_runs(trace)
        for number, one in enumerate(run.passes)
    ]


def located_results(
    trace: Trace, tool_call_id: str | None = None
) -> list[tuple[str, ToolResultRecord]]:
    """Every tool result (for one call id, when given) with its pointer
    (``/steps/0/runs/0/passes/0/results/1``)."""
    return [
        (f"{at}/results/{number}", result)
        for at, _, one in located_passes(trace)
        for number, result in enumerate(one.results)
        if tool_call_id is None or result.tool_call_id == tool_call_id
    ]


def located_side_effects(
    trace: Trace, tool: str | None = None
) -> list[tuple[str, Mapping[str, object]]]:
    """Every tool body that really ran (for one tool, when given), with its pointer
    (``/steps/2/runs/1/side_effects/0``)."""
    return [
        (f"{at}/side_effects/{number}", effect)
        for at, run in located_runs(trace)
        for number, effect in enumerate(run.side_effects)
        if isinstance(effect, Mapping) and (tool is None or effect.get("tool") == tool)
    ]


def turn_pointer(trace: Trace, label: str, *, step: int = -1, conversation: str = "main") -> str:
    """The pointer of turn ``label`` on the wire after ``step`` (default: the last)."""
    index = step if step >= 0 else len(trace.steps) + step
    return f"/steps/{index}/wire/{escape_token(conversation)}/{escape_token(label)}"


def resolves(document: object, pointer: str) -> bool:
    """Whether the JSON ``pointer`` names a value of ``document``, or a key absent from a
    map that exists (a failure may point at the key it found missing)."""
    if pointer in ("", "/"):
        return True
    node = document
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    for index, token in enumerate(tokens):
        last = index == len(tokens) - 1
        if isinstance(node, Mapping):
            if token not in node:
                return last
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return last and isinstance(node, list) and token.isdigit()
    return True
