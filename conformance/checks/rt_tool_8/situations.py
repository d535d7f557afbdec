"""The situations RT-TOOL-8's clauses name.

Each is read from the calls a pass received (its batch) whose reconciled arguments the
trace shows: the tool body ran for the call (its side effect records its input), or
its result reports the reconciled ``arguments``.  A call the suite cannot see reconciled
reaches nothing of what the clauses speak of."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator, Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks.rt_tool_8._reconcile import declared_types
from conformance.toolkit import ClauseSituation, Situation, mapping, paired, seen_passes, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

#: A named, decimal or hexadecimal character reference, with its semicolon.
_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")

Arguments = tuple[Mapping[str, object], Mapping[str, object]]


def _reconciled_calls(scenario: Scenario, trace: Trace) -> Iterator[Arguments]:
    """``(declared types, sent arguments)`` of every call whose reconciled arguments the
    trace shows."""
    schemas = {tool.name: tool.input_schema for tool in scenario.tools}
    for seen in seen_passes(trace):
        bodies = {mapping(effect).get("tool_call_id") for effect in seen.run.side_effects}
        for result, call in paired(seen.one):
            name = str(result.tool)
            if result.disposition not in ("executed", "invalid") or name not in schemas:
                continue
            if result.arguments is None and result.tool_call_id not in bodies:
                continue
            args = call.get("args")
            if isinstance(args, Mapping):
                yield declared_types(schemas[name]), args


def _sent(holds: Callable[[Arguments], bool]) -> Situation:
    """Reached where ``holds`` of some call whose reconciled arguments the trace shows."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(holds(one) for one in _reconciled_calls(scenario, trace))

    return reached


def _parsed(text: str) -> tuple[bool, object]:
    try:
        return True, json.loads(text)
    except ValueError:
        return False, None


def _shape(kind: object, value: object) -> bool:
    return (kind == "array" and isinstance(value, list)) or (
        kind == "object" and isinstance(value, dict)
    )


def _decodable(kind: str) -> Callable[[Arguments], bool]:
    """A string for a parameter declared ``kind`` that parses to that shape."""

    def holds(one: Arguments) -> bool:
        declared, args = one
        return any(
            declared.get(key) == kind and isinstance(value, str) and _shape(kind, _parsed(value)[1])
            for key, value in args.items()
        )

    return holds


def _json_for_a_string(one: Arguments) -> bool:
    """A JSON list or map, as text, for a parameter declared ``string``."""
    declared, args = one
    return any(
        declared.get(key) == "string"
        and isinstance(value, str)
        and isinstance(_parsed(value)[1], list | dict)
        for key, value in args.items()
    )


def _not_json(one: Arguments) -> bool:
    """A string that does not parse as JSON, for a parameter declared array or object."""
    declared, args = one
    return any(
        declared.get(key) in ("array", "object")
        and isinstance(value, str)
        and not _parsed(value)[0]
        for key, value in args.items()
    )


def _wrong_shape(one: Arguments) -> bool:
    """JSON text that parses to another shape than the parameter's declared array or object."""
    declared, args = one
    for key, value in args.items():
        kind = declared.get(key)
        if kind in ("array", "object") and isinstance(value, str):
            ok, parsed = _parsed(value)
            if ok and not _shape(kind, parsed):
                return True
    return False


def _referenced(text: str) -> bool:
    """Whether ``text`` holds a character reference that decodes to something else."""
    return any(html.unescape(found) != found for found in _REFERENCE.findall(text))


def _leaves(value: object, depth: int = 0) -> Iterator[tuple[str, int]]:
    """Every string leaf below an argument, with its depth (0: the argument itself)."""
    if isinstance(value, str):
        yield value, depth
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _leaves(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, depth + 1)


def _keys(value: object) -> Iterator[str]:
    """Every key of every map in an argument."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _reference_at(nested: bool) -> Callable[[Arguments], bool]:
    """A string leaf holding a character reference: an argument's own value, or a leaf
    nested in a list or map below it."""

    def holds(one: Arguments) -> bool:
        return any(
            (depth > 0) is nested and _referenced(text)
            for value in one[1].values()
            for text, depth in _leaves(value)
        )

    return holds


def _escaped_twice(one: Arguments) -> bool:
    """A string leaf that still holds a reference once its references are decoded once."""
    return any(
        _referenced(text) and _referenced(html.unescape(text))
        for value in one[1].values()
        for text, _ in _leaves(value)
    )


def _key_with_reference(one: Arguments) -> bool:
    return any(_referenced(key) for key in _keys(dict(one[1])))


def _plain_text(one: Arguments) -> bool:
    return any(not _referenced(text) for value in one[1].values() for text, _ in _leaves(value))


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶2: "the schema declares that parameter `array` or `object` [...]: a list for
    # `array`, a map for `object`"
    situation(
        "RT-TOOL-8#c2",
        "a JSON list as text for a parameter declared array",
        _sent(_decodable("array")),
    ),
    situation(
        "RT-TOOL-8#c2",
        "a JSON map as text for a parameter declared object",
        _sent(_decodable("object")),
    ),
    # ¶3: "A parameter declared `string` is never decoded"
    situation(
        "RT-TOOL-8#c3", "JSON text for a parameter declared string", _sent(_json_for_a_string)
    ),
    # ¶3: "an argument that fails any of the three": the string parses as JSON
    situation(
        "RT-TOOL-8#c3",
        "text that is not JSON for a parameter declared array or object",
        _sent(_not_json),
    ),
    # ¶3: "a parsed value of the wrong shape is never substituted"
    situation(
        "RT-TOOL-8#c3",
        "JSON of the wrong shape for a parameter declared array or object",
        _sent(_wrong_shape),
    ),
    # ¶4: "every string leaf of an argument has its HTML character references decoded"
    situation(
        "RT-TOOL-8#c4",
        "a string argument holding a character reference",
        _sent(_reference_at(False)),
    ),
    situation(
        "RT-TOOL-8#c4",
        "a string nested in an argument's list or map holding a character reference",
        _sent(_reference_at(True)),
    ),
    # ¶4: "so that a doubly-escaped value resolves fully"
    situation("RT-TOOL-8#c4", "a value escaped twice over", _sent(_escaped_twice)),
    # ¶5: "Keys are never modified": a key the decoding of ¶4 would change
    situation("RT-TOOL-8#c5", "a key holding a character reference", _sent(_key_with_reference)),
    # ¶5: "text containing no character reference is returned unchanged"
    situation("RT-TOOL-8#c5", "text holding no character reference", _sent(_plain_text)),
)

WITHOUT_SITUATIONS: dict[str, str] = {
    "RT-TOOL-8#c1": (
        "one behaviour in one circumstance: a model's arguments are reconciled with the "
        "tool's schema before the tool is invoked; what the reconciling does in each "
        "circumstance is named by ¶2 to ¶5"
    ),
}
