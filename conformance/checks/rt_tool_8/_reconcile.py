"""What RT-TOOL-8 makes of a model's arguments, computed independently of any runtime:
the oracle the hunt holds reconciled arguments to.

Two repairs: a string argument for a parameter the schema declares ``array`` or
``object`` is decoded when it parses to that shape, and every string leaf has its HTML
character references decoded until it stops changing.  The rule does not order the two,
so :func:`readings` returns what each order gives, and either is accepted
(``docs/running-the-suite.md``: the order of the repairs is not judged).
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping

__all__ = ["declared_types", "readings"]

#: Decoding passes for a string leaf when the implementation declares no bound.
UNBOUNDED = 50


def declared_types(schema: object) -> dict[str, object]:
    """Each declared parameter's ``type``, by name."""
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return {}
    return {
        str(name): spec.get("type")
        for name, spec in properties.items()
        if isinstance(spec, Mapping)
    }


def _entities(value: object, passes: int) -> object:
    if isinstance(value, str):
        for _ in range(passes):
            decoded = html.unescape(value)
            if decoded == value:
                break
            value = decoded
        return value
    if isinstance(value, Mapping):
        return {key: _entities(item, passes) for key, item in value.items()}
    if isinstance(value, list):
        return [_entities(item, passes) for item in value]
    return value


def _json(args: object, declared: Mapping[str, object]) -> object:
    if not isinstance(args, Mapping):
        return args
    out: dict[str, object] = {}
    for key, value in args.items():
        shape = declared.get(str(key))
        if isinstance(value, str) and shape in ("array", "object"):
            try:
                parsed = json.loads(value)
            except ValueError:
                parsed = None
            if (shape == "array" and isinstance(parsed, list)) or (
                shape == "object" and isinstance(parsed, dict)
            ):
                out[key] = parsed
                continue
        out[key] = value
    return out


def readings(args: object, schema: object, passes: int | None = None) -> list[object]:
    """The reconciled arguments, once with JSON decoded first and once with character
    references decoded first (equal for most arguments)."""
    bound = passes or UNBOUNDED
    declared = declared_types(schema)
    json_first = _entities(_json(args, declared), bound)
    entities_first = _json(_entities(args, bound), declared)
    return [json_first] if json_first == entities_first else [json_first, entities_first]
