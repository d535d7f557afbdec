"""Payload sizes under every reading of "once JSON-encoded", for RT-TOOL-6's bounds.

RT-TOOL-6 measures payloads "once JSON-encoded" without saying how: compact or spaced
separators, non-ASCII characters as UTF-8 or as ``\\uXXXX`` escapes, ``/`` escaped or not
(docs/interpretations.md, payload-size).  What every reading must keep is measured with
the largest of those encodings (:func:`largest_size`); what every reading must drop, with
the smallest (:func:`smallest_size`, compact UTF-8).  A payload sized to a bound is long:
:func:`brief` shows its shape in a failure message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

__all__ = [
    "brief",
    "largest_size",
    "over_by_one_utf8_byte",
    "over_payload",
    "sized_payload",
    "smallest_size",
]


def smallest_size(payload: object) -> int:
    """Bytes of the smallest encoding any reading uses: compact, UTF-8, ``/`` raw."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return len(text.encode("utf-8"))


def largest_size(payload: object) -> int:
    """Bytes of the largest encoding any reading uses: spaced separators, every non-ASCII
    character escaped, ``/`` escaped."""
    text = json.dumps(payload, ensure_ascii=True, allow_nan=False).replace("/", "\\/")
    return len(text.encode("ascii"))


def sized_payload(
    size: int, tag: str, *, unit: str = "x", units: int | None = None
) -> dict[str, object]:
    """A payload ``{"tag": tag, "blob": ...}`` whose **largest** encoding is exactly
    ``size`` bytes: ``units`` copies of ``unit`` (as many as fit, when not given), padded
    with ASCII ``x`` (one byte in every encoding)."""
    base = largest_size({"tag": tag, "blob": ""})
    cost = largest_size({"tag": tag, "blob": unit}) - base
    count = (size - base) // cost if units is None else units
    padding = size - base - count * cost
    if padding < 0:
        raise ValueError(f"{count} copies of {unit!r} do not fit in {size} bytes")
    payload: dict[str, object] = {"tag": tag, "blob": unit * count + "x" * padding}
    assert largest_size(payload) == size
    return payload


def over_payload(bound: int, tag: str, *, by: int = 100) -> dict[str, object]:
    """A payload whose **smallest** encoding is ``bound + by`` bytes (every reading measures
    it over ``bound``)."""
    base = smallest_size({"tag": tag, "blob": ""})
    payload: dict[str, object] = {"tag": tag, "blob": "x" * (bound + by - base)}
    assert smallest_size(payload) == bound + by
    return payload


def over_by_one_utf8_byte(bound: int, tag: str) -> dict[str, object]:
    """A payload whose compact UTF-8 encoding is ``bound + 1`` bytes while it has far fewer
    characters: two-byte characters, so that measuring characters keeps it."""
    base = smallest_size({"tag": tag, "blob": ""})
    wide, padding = divmod(bound + 1 - base, 2)
    payload: dict[str, object] = {"tag": tag, "blob": "é" * wide + "x" * padding}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    assert smallest_size(payload) == bound + 1 and len(text) <= bound
    return payload


def brief(value: object, keep: int = 24) -> object:
    """``value`` for a failure message, with every string longer than ``keep`` characters
    cut, saying how long it was: a payload sized to a bound reads as its shape."""
    if isinstance(value, str):
        return value if len(value) <= keep else f"{value[:keep]}…({len(value)} characters)"
    if isinstance(value, Mapping):
        return {key: brief(item, keep) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [brief(item, keep) for item in value]
    return value
