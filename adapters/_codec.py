"""Frozen dataclasses to and from JSON, with JSON pointers in every complaint.

The protocol's messages are modelled as frozen dataclasses whose field names are the
JSON keys.  Leaves that carry behaviour under test (tool outputs, payloads, message
rows) are typed :data:`Json`: they cross the codec untouched, because a check must see
exactly what an implementation sent.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
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
        self._path = pointer

    def _within(self, prefix: str) -> CodecError:
        """The same complaint, about the value at ``prefix`` followed by this pointer."""
        return CodecError(prefix + self._path, self.complaint)


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
    kind = type(value)
    if kind in _PLAIN:
        return value
    try:
        fields = _written[kind]
    except KeyError:
        fields = _written[kind] = _written_fields(kind)
    if fields is not None:
        out: dict[str, object] = {}
        for name, omitted_when_none in fields:
            item = getattr(value, name)
            if item is None and omitted_when_none:
                continue
            out[name] = to_json(item)
        return out
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if kind is dict or isinstance(value, Mapping):
        return {str(key): to_json(item) for key, item in value.items()}  # type: ignore[attr-defined]
    return value


#: Values :func:`to_json` returns as they are (their exact types, not subclasses).
_PLAIN = frozenset({str, int, float, bool, type(None)})
_Fields = tuple[tuple[str, bool], ...] | None
#: :func:`_written_fields` of every type met, worked out once per type: a trace holds
#: thousands of values.
_written: dict[type, _Fields] = {}


def _written_fields(kind: type) -> _Fields:
    """For a dataclass, its fields in the order :func:`to_json` writes them, each with
    whether a ``None`` value is left out; ``None`` for any other type."""
    if not dataclasses.is_dataclass(kind):
        return None
    # A step's discriminator reads best first, although the dataclass declares it last.
    fields = sorted(dataclasses.fields(kind), key=lambda field: field.name != "op")
    return tuple((field.name, field.default is None) for field in fields)


def from_json(cls: type[T], value: object, pointer: str = "") -> T:
    """Build ``cls`` from a parsed JSON value; raise :class:`CodecError` naming the pointer."""
    try:
        return typing.cast(T, _converter(typing.cast(Any, cls))(value))
    except CodecError as err:
        if not pointer:
            raise
        raise err._within(pointer) from None


#: Converts a JSON value, raising :class:`CodecError` with a pointer relative to it: the
#: pointer is built on the way out of a failure, never for the values that fit.
Converter = Callable[[object], object]


@functools.cache
def _converter(tp: Any) -> Converter:
    """A function converting a JSON value to ``tp``, built once per type: a trace holds
    thousands of values, and working out a type's shape each time costs more than the
    conversion itself."""
    if _is_raw(tp) or tp is object or tp is Any:
        return lambda value: value
    origin = get_origin(tp)
    if origin is Annotated:
        return _converter(get_args(tp)[0])
    if origin is Literal:
        return _literal(get_args(tp))
    if origin in (Union, types.UnionType):
        return _union(tp)
    if origin is tuple:
        return _sequence(_converter(get_args(tp)[0]))
    if origin in (dict, Mapping) or tp is dict:
        args = get_args(tp)
        return _mapping(_converter(args[1] if args else object))
    if dataclasses.is_dataclass(tp):
        return _dataclass(tp)
    if tp in _SCALARS:
        return _SCALARS[tp]
    raise TypeError(f"codec cannot convert to {tp!r}")  # a modelling bug, not bad input


def _literal(allowed: tuple[object, ...]) -> Converter:
    def convert(value: object) -> object:
        if value not in allowed:
            raise CodecError("", f"expected one of {list(allowed)}, got {value!r}")
        return value

    return convert


def _sequence(item: Converter) -> Converter:
    def convert(value: object) -> object:
        if not isinstance(value, list):
            raise CodecError("", f"expected an array, got {type(value).__name__}")
        try:
            return tuple([item(element) for element in value])
        except CodecError:
            # Conversion is pure: converting again finds the same element, to name it.
            for index, element in enumerate(value):
                try:
                    item(element)
                except CodecError as err:
                    raise err._within(f"/{index}") from None
            raise

    return convert


def _mapping(item: Converter) -> Converter:
    def convert(value: object) -> object:
        if not isinstance(value, dict):
            raise CodecError("", f"expected an object, got {type(value).__name__}")
        try:
            return types.MappingProxyType({k: item(v) for k, v in value.items()})
        except CodecError:
            for key, element in value.items():  # again, to name the key
                try:
                    item(element)
                except CodecError as err:
                    raise err._within(f"/{_escape(key)}") from None
            raise

    return convert


def _scalar(kind: type, name: str) -> Converter:
    def convert(value: object) -> object:
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise CodecError("", f"expected {name}, got {value!r}")
        return float(value) if kind is float else value  # type: ignore[arg-type]

    return convert


def _none(value: object) -> object:
    if value is not None:
        raise CodecError("", f"expected null, got {value!r}")
    return None


_SCALARS: dict[object, Converter] = {
    bool: _scalar(bool, "a boolean"),
    int: _scalar(int, "an integer"),
    float: _scalar(int | float, "a number"),  # type: ignore[arg-type]
    str: _scalar(str, "a string"),
    type(None): _none,
}


def _union(tp: Any) -> Converter:
    members = get_args(tp)
    by_op = {
        op: _converter(m)
        for m in members
        if isinstance(m, type) and dataclasses.is_dataclass(m) and "op" in _hints(m)
        for op in get_args(_hints(m)["op"])
    }
    alternatives = [_converter(m) for m in members if m is not type(None)]
    nullable = type(None) in members

    def convert(value: object) -> object:
        if by_op and isinstance(value, dict):
            wanted = value.get("op")
            # an op that is not a string (a list, a map) names no step: not a key to look up
            chosen = by_op.get(wanted) if isinstance(wanted, str) else None
            if chosen is None:
                raise CodecError("/op", f"unknown op {wanted!r}")
            return chosen(value)
        if value is None and nullable:
            return None
        errors: list[CodecError] = []
        for alternative in alternatives:
            try:
                return alternative(value)
            except CodecError as err:
                errors.append(err)
        raise errors[0] if errors else CodecError("", "no alternative matched")

    return convert


def _dataclass(cls: Any) -> Converter:
    hints = _hints(cls)
    fields = [
        (
            f.name,
            f"/{_escape(f.name)}",
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
    ]
    names = {name for name, _, _ in fields}
    # Resolved lazily: a dataclass may refer to one defined after it.
    converters: dict[str, Converter] = {}

    def convert(value: object) -> object:
        if not isinstance(value, dict):
            raise CodecError("", f"expected an object, got {type(value).__name__}")
        if not names.issuperset(value):
            unknown = sorted(set(value) - names)
            raise CodecError(f"/{_escape(unknown[0])}", "unknown key")
        kwargs: dict[str, object] = {}
        for name, suffix, required in fields:
            if name in value:
                field_converter = converters.get(name)
                if field_converter is None:
                    field_converter = converters[name] = _converter(hints[name])
                try:
                    kwargs[name] = field_converter(value[name])
                except CodecError as err:
                    raise err._within(suffix) from None
            elif required:
                raise CodecError("", f"missing required key {name!r}")
        return cls(**kwargs)

    return convert


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
