"""Validation for the kit's builders: every value is checked where it is set.

A builder holds one object of the protocol (a step record, a run, a pass, a turn as the
wire reports it) and checks each value against that object's part of the published
schema the moment it is set, so a harness bug fails at the line that built the value,
with the JSON pointer of the value inside the object it was built into.  Values under
test (tool results, port values, message rows) are only required to be JSON; they are
copied as they are set, so a runtime that later changes its own objects cannot change
what was reported.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from adapters._schemas import validator
from adapters.errors import RttoolError

__all__ = ["BuildError", "Frame", "as_list", "checked", "escape_pointer", "json_copy"]


class BuildError(RttoolError):
    """A harness built a protocol value that breaks the published schema.

    ``pointer`` is the JSON pointer of the offending value inside the object under
    construction (a step record, a handshake); ``complaint`` says what is wrong.
    """

    def __init__(self, message: str, *, pointer: str, complaint: str, **details: object) -> None:
        super().__init__(message, pointer=pointer or "/", complaint=complaint, **details)
        self.pointer = pointer or "/"
        self.complaint = complaint


def escape_pointer(part: object) -> str:
    """One JSON pointer segment (``~`` and ``/`` escaped)."""
    return "/" + str(part).replace("~", "~0").replace("/", "~1")


def json_copy(value: object, pointer: str) -> Any:
    """A deep copy of ``value`` through JSON; :class:`BuildError` if it is not JSON.

    ``NaN`` and infinities are refused: they are not JSON, and the suite refuses them.
    """
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as err:
        raise BuildError(
            "value is not JSON", pointer=pointer, complaint=str(err)[:200] or type(err).__name__
        ) from err


def _schema_of(ref: str) -> dict[str, Any]:
    schema = validator(ref).schema
    assert isinstance(schema, dict)  # every definition the kit builds is an object schema
    return schema


def as_list(values: Iterable[object], pointer: str) -> list[object]:
    """``values`` as a list; a string or a map is refused rather than split into items."""
    if isinstance(values, str | bytes | Mapping):
        raise BuildError(
            "expected a list", pointer=pointer, complaint=f"got {type(values).__name__}"
        )
    return list(values)


@cache
def _part(ref: str, field: str, item: bool) -> Draft202012Validator | None:
    """A validator for one property of ``ref`` (its items, when ``item``); ``None`` when
    the schema accepts any value there."""
    schema: object = _schema_of(ref).get("properties", {}).get(field, True)
    if item and isinstance(schema, dict):
        schema = schema.get("items", True)
    if schema is True:
        return None
    assert isinstance(schema, dict)
    return Draft202012Validator(schema)


def checked(ref: str, value: object, pointer: str = "") -> Any:
    """``value`` copied and validated against the whole of ``ref``."""
    copied = json_copy(value, pointer)
    _raise_first(validator(ref), copied, pointer)
    return copied


def _raise_first(found: Draft202012Validator, value: object, pointer: str) -> None:
    error = best_match(found.iter_errors(value))
    if error is not None:
        inner = "".join(escape_pointer(part) for part in error.absolute_path)
        raise BuildError(
            "value breaks the protocol schema",
            pointer=pointer + inner,
            complaint=error.message[:300],
        )


class Frame:
    """Base of the builders: an object of schema ``ref`` that validates each value set.

    ``at`` is the builder's own JSON pointer inside the object it was added to (empty
    for a root), so that a complaint names the place in what the suite will receive.
    """

    ref: str = ""

    def __init__(self) -> None:
        self._data: dict[str, object] = {}
        self.at = ""

    def place(self, at: str) -> None:
        """Say where this builder sits inside its parent (and so its children)."""
        self.at = at

    def _set(self, field: str, value: object) -> None:
        pointer = f"{self.at}/{field}"
        copied = json_copy(value, pointer)
        part = _part(self.ref, field, item=False)
        if part is not None:
            _raise_first(part, copied, pointer)
        self._data[field] = copied

    def _append(self, field: str, value: object) -> None:
        items = self._data.setdefault(field, [])
        assert isinstance(items, list)
        pointer = f"{self.at}/{field}/{len(items)}"
        copied = json_copy(value, pointer)
        part = _part(self.ref, field, item=True)
        if part is not None:
            _raise_first(part, copied, pointer)
        items.append(copied)

    def _render(self, children: Mapping[str, object] | None = None) -> dict[str, object]:
        """The JSON form: the values set, plus the rendered children, checked whole."""
        out = {**self._data, **(children or {})}
        _raise_first(validator(self.ref), out, self.at)
        return out
