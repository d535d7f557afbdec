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


def _union_read_as_its_shape(declared: Mapping[str, object]) -> dict[str, object]:
    """The declared types with a union that names one of ``array`` and ``object`` read as
    declaring that shape (docs/interpretations.md, union-types and union-with-string)."""
    out: dict[str, object] = {}
    for name, kind in declared.items():
        if isinstance(kind, list):
            shapes = [shape for shape in ("array", "object") if shape in kind]
            out[name] = shapes[0] if len(shapes) == 1 else kind
        else:
            out[name] = kind
    return out


def readings(args: object, schema: object, passes: int | None = None) -> list[object]:
    """The reconciled arguments under every reading the text allows: JSON decoded first or
    character references decoded first, and a union type naming ``array`` or ``object``
    read as declaring that shape or not (equal for most arguments)."""
    bound = passes or UNBOUNDED
    declared = declared_types(schema)
    found: list[object] = []
    for types in (declared, _union_read_as_its_shape(declared)):
        for reading in (
            _entities(_json(args, types), bound),
            _json(_entities(args, bound), types),
        ):
            if reading not in found:
                found.append(reading)
    return found
