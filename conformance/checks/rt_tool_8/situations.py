"""The situations RT-TOOL-8's clauses name.

Each is read from the calls a pass received (its batch): what the suite sent, with the
types the tool's schema declares, whatever the runtime then made of it (a run that fails
on an argument it cannot parse met the argument all the same).  ¶1 alone speaks of the
arguments a tool is invoked with: its situation is a call whose reconciled arguments the
trace shows (the tool body ran for it, its side effect recording its input, or its
result reports the reconciled ``arguments``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping

from adapters.handshake import Handshake
from adapters.limits import TooDeep, check_depth
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.checks.rt_tool_8._reconcile import declared_types
from conformance.checks.rt_tool_8._references import (
    Arguments,
    escaped_twice,
    key_with_reference,
    plain_text,
    reference_at,
)
from conformance.toolkit import (
    ClauseSituation,
    Situation,
    mapping,
    paired,
    seen_passes,
    situation,
    well_formed,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _kinds(schema: object) -> dict[str, object]:
    """Each declared parameter's type, a union read as the one of ``array`` and
    ``object`` it holds beside no ``string`` (as the checks read it; a union with
    ``string`` is left open, docs/interpretations.md, union-with-string)."""
    return {name: _one_kind(kind) for name, kind in declared_types(schema).items()}


def _one_kind(kind: object) -> object:
    if not isinstance(kind, list):
        return kind
    if "string" in kind:
        return "string"
    shapes = [one for one in kind if one in ("array", "object")]
    return shapes[0] if len(shapes) == 1 else None


def _sent_calls(scenario: Scenario, trace: Trace) -> Iterator[Arguments]:
    """``(declared types, sent arguments)`` of every call a pass was sent for a tool the
    scenario declares: what the suite sent, whatever the runtime then made of it."""
    schemas = {tool.name: tool.input_schema for tool in scenario.tools}
    for _, one in trace.passes():
        for call in well_formed(one.batch):
            name, args = str(call.get("name")), call.get("args")
            if name in schemas and isinstance(args, Mapping):
                yield _kinds(schemas[name]), args


def _reconciled_calls(scenario: Scenario, trace: Trace) -> Iterator[Arguments]:
    """``(declared types, sent arguments)`` of every call whose reconciled arguments the
    trace shows: the tool body ran for it, or its result reports them."""
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
                yield _kinds(schemas[name]), args


def _sent(holds: Callable[[Arguments], bool]) -> Situation:
    """Reached where ``holds`` of some call the suite sent."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(holds(one) for one in _sent_calls(scenario, trace))

    return reached


def _invoked(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call whose reconciled arguments the trace shows: ¶1 speaks of the arguments a
    tool is invoked with."""
    return any(True for _ in _reconciled_calls(scenario, trace))


def _parsed(text: str) -> tuple[bool, object]:
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
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


def _json_for_no_shape(one: Arguments) -> bool:
    """A JSON list or map, as text, for a parameter declared neither array, object nor
    string (another type, or none: an undeclared parameter)."""
    declared, args = one
    return any(
        declared.get(key) not in ("array", "object", "string")
        and isinstance(value, str)
        and isinstance(_parsed(value)[1], list | dict)
        for key, value in args.items()
    )


def _not_a_string(one: Arguments) -> bool:
    """A value already a list or map (not a string) for a parameter declared array or
    object: the first of the three, a string argument, fails."""
    declared, args = one
    return any(
        declared.get(key) in ("array", "object") and isinstance(value, list | Mapping)
        for key, value in args.items()
    )


def _nested_too_deep(text: str) -> bool:
    """Whether ``text`` parses to a value nested past the nesting limit (no harness can
    report it decoded, and a runtime's parser may refuse it)."""
    ok, parsed = _parsed(text)
    if not ok:
        return False
    try:
        check_depth(parsed)
    except TooDeep:
        return True
    return False


def _too_deep(one: Arguments) -> bool:
    """JSON text nested past the nesting limit, for a parameter declared array or object."""
    declared, args = one
    return any(
        declared.get(key) in ("array", "object")
        and isinstance(value, str)
        and _nested_too_deep(value)
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


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "Before a tool is invoked, the arguments a model supplied are reconciled"
    situation("RT-TOOL-8#c1", "a call whose reconciled arguments the trace shows", _invoked),
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
    # ¶3: "an argument that fails any of the three": the schema declares no array or object
    situation(
        "RT-TOOL-8#c3",
        "JSON text for a parameter declared neither array, object nor string",
        _sent(_json_for_no_shape),
    ),
    # ¶3: "an argument that fails any of the three": it is a string
    situation(
        "RT-TOOL-8#c3",
        "a list or map, not text, for a parameter declared array or object",
        _sent(_not_a_string),
    ),
    # ¶3: the string parses as JSON, past the nesting limit no harness reports beyond
    situation(
        "RT-TOOL-8#c3",
        "JSON text nested past the nesting limit for a parameter declared array or object",
        _sent(_too_deep),
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
        _sent(reference_at(False)),
    ),
    situation(
        "RT-TOOL-8#c4",
        "a string nested in an argument's list or map holding a character reference",
        _sent(reference_at(True)),
    ),
    # ¶4: "so that a doubly-escaped value resolves fully"
    situation("RT-TOOL-8#c4", "a value escaped twice over", _sent(escaped_twice)),
    # ¶5: "Keys are never modified": a key the decoding of ¶4 would change
    situation("RT-TOOL-8#c5", "a key holding a character reference", _sent(key_with_reference)),
    # ¶5: "text containing no character reference is returned unchanged"
    situation("RT-TOOL-8#c5", "text holding no character reference", _sent(plain_text)),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
