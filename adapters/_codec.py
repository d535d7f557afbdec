"""Frozen dataclasses to and from JSON, with JSON pointers in every complaint.

The protocol's messages are modelled as frozen dataclasses whose field names are the
JSON keys.  Leaves that carry behaviour under test (tool outputs, payloads, message
rows) are typed :data:`Json`: they cross the codec untouched, because a check must see
exactly what an implementation sent.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

__all__ = ["CodecError", "Json", "from_json", "to_json"]

_RAW = "rttool:raw-json"
Json = Annotated[object, _RAW]
"""A raw JSON value, passed through as parsed (dict, list, str, int, float, bool, None)."""

T = TypeVar("T")
_hints_cache: dict[type, dict[str, Any]] = {}


class CodecError(ValueError):
    """A JSON value that does not fit the dataclass; ``pointer`` says where."""

    def __init__(self, pointer: str, complaint: str) -> None:
        super().__init__(f"{pointer or '/'}: {complaint}")
        self.pointer = pointer or "/"
        self.complaint = complaint


def _hints(cls: type) -> dict[str, Any]:
    found = _hints_cache.get(cls)
    if found is None:
        found = typing.get_type_hints(cls, include_extras=True)
        _hints_cache[cls] = found
    return found


def _is_raw(tp: object) -> bool:
    return get_origin(tp) is Annotated and _RAW in getattr(tp, "__metadata__", ())


def to_json(value: object) -> object:
    """Render a dataclass tree as plain JSON values; ``None`` optional fields are omitted."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, object] = {}
        # A step's discriminator reads best first, although the dataclass declares it last.
        fields = sorted(dataclasses.fields(value), key=lambda field: field.name != "op")
        for field in fields:
            item = getattr(value, field.name)
            if item is None and field.default is None:
                continue
            out[field.name] = to_json(item)
        return out
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): to_json(item) for key, item in value.items()}
    return value


def from_json(cls: type[T], value: object, pointer: str = "") -> T:
    """Build ``cls`` from a parsed JSON value; raise :class:`CodecError` naming the pointer."""
    return typing.cast(T, _convert(cls, value, pointer))


def _convert(tp: Any, value: object, pointer: str) -> object:
    if _is_raw(tp) or tp is object or tp is Any:
        return value
    origin = get_origin(tp)
    if origin is Annotated:
        return _convert(get_args(tp)[0], value, pointer)
    if origin is Literal:
        if value not in get_args(tp):
            raise CodecError(pointer, f"expected one of {list(get_args(tp))}, got {value!r}")
        return value
    if origin in (Union, types.UnionType):
        return _convert_union(tp, value, pointer)
    if origin is tuple:
        if not isinstance(value, list):
            raise CodecError(pointer, f"expected an array, got {type(value).__name__}")
        (item_tp, _ellipsis) = get_args(tp)
        return tuple(_convert(item_tp, item, f"{pointer}/{i}") for i, item in enumerate(value))
    if origin in (dict, Mapping) or tp is dict:
        if not isinstance(value, dict):
            raise CodecError(pointer, f"expected an object, got {type(value).__name__}")
        args = get_args(tp)
        item_tp = args[1] if args else object
        return types.MappingProxyType(
            {k: _convert(item_tp, v, f"{pointer}/{_escape(k)}") for k, v in value.items()}
        )
    if dataclasses.is_dataclass(tp):
        return _convert_dataclass(tp, value, pointer)
    if tp is bool:
        if not isinstance(value, bool):
            raise CodecError(pointer, f"expected a boolean, got {value!r}")
        return value
    if tp is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise CodecError(pointer, f"expected an integer, got {value!r}")
        return value
    if tp is float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise CodecError(pointer, f"expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise CodecError(pointer, f"expected a string, got {value!r}")
        return value
    if tp is type(None):
        if value is not None:
            raise CodecError(pointer, f"expected null, got {value!r}")
        return None
    raise TypeError(f"codec cannot convert to {tp!r}")  # a modelling bug, not bad input


def _convert_union(tp: Any, value: object, pointer: str) -> object:
    members = get_args(tp)
    discriminated = [m for m in members
                     if isinstance(m, type) and dataclasses.is_dataclass(m) and "op" in _hints(m)]
    if discriminated and isinstance(value, dict):
        wanted = value.get("op")
        for member in discriminated:
            if wanted in get_args(_hints(member)["op"]):
                return _convert_dataclass(member, value, pointer)
        raise CodecError(f"{pointer}/op", f"unknown op {wanted!r}")
    if value is None and type(None) in members:
        return None
    errors: list[CodecError] = []
    for member in members:
        if member is type(None):
            continue
        try:
            return _convert(member, value, pointer)
        except CodecError as err:
            errors.append(err)
    raise errors[0] if errors else CodecError(pointer, "no alternative matched")


def _convert_dataclass(cls: Any, value: object, pointer: str) -> object:
    if not isinstance(value, dict):
        raise CodecError(pointer, f"expected an object, got {type(value).__name__}")
    hints = _hints(cls)
    names = {field.name for field in dataclasses.fields(cls)}
    unknown = sorted(set(value) - names)
    if unknown:
        raise CodecError(f"{pointer}/{_escape(unknown[0])}", "unknown key")
    kwargs: dict[str, object] = {}
    for field in dataclasses.fields(cls):
        if field.name in value:
            kwargs[field.name] = _convert(hints[field.name], value[field.name],
                                          f"{pointer}/{_escape(field.name)}")
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise CodecError(pointer, f"missing required key {field.name!r}")
    return cls(**kwargs)


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
