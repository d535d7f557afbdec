"""How a failure message shows what a check found: values as one line of JSON, JSON
pointers, and where a missing artifact really went."""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from adapters.codec import to_json
from adapters.trace import TurnWire
from conformance.toolkit._traces import delivered, locate, pointers

__all__ = ["listing", "misplaced", "show", "whereabouts"]

#: How many characters of a value a failure message shows.
SHOWN = 200
#: How many JSON pointers a failure message lists.
POINTERS = 3
#: Characters escaped in a message although JSON leaves them raw: line and paragraph
#: separators, bidi and other format controls, C1 controls, lone surrogates.  They would
#: break the message's single line, or disguise what it says, wherever it is shown.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _visible(text: str) -> str:
    """``text`` with every hidden character written as a ``\\uXXXX`` escape."""
    return "".join(
        f"\\u{ord(char):04x}" if unicodedata.category(char) in _HIDDEN else char for char in text
    )


def show(value: object, limit: int = SHOWN) -> str:
    """``value`` as one line of JSON for a failure message.

    Vendors read these messages whatever language their implementation is written in, so
    values are JSON (``null``, ``true``, double quotes), never Python's repr; keys are
    sorted so that two renderings compare by eye; non-ASCII text stays readable; the
    result is cut to ``limit`` characters, ending in ``…`` when cut.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = to_json(value)
    try:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # keys of mixed types cannot be sorted
        text = json.dumps(value, ensure_ascii=False, default=str)
    cut = len(text) > limit
    return _visible(text[: limit - 1] if cut else text) + ("…" if cut else "")


def whereabouts(wire: TurnWire | None, needle: object) -> str:
    """Where ``needle`` really is on the turn's wire form, as the end of a sentence whose
    subject is the artifact: ``was found at /messages/1/metadata/toolArtifacts/0`` (see
    :func:`conformance.toolkit.locate`), or ``appears nowhere in the turn's wire form``.

    An entry not found whole may be there changed: its payload under another call id,
    or an entry of its type and call with a payload the runtime rewrote.  Saying it
    "appears nowhere" would then be false, so the nearest of those is named instead."""
    found = locate(wire, needle)
    if found:
        return f"was found at {listing(found)}"
    if isinstance(needle, Mapping) and "payload" in needle:
        payload = needle["payload"]
        near = locate(wire, payload) if isinstance(payload, Mapping) and payload else []
        if near:
            return f"was not found whole, but its payload was, at {listing(near)}"
        kind = {key: needle[key] for key in ("type", "tool_call_id") if key in needle}
        near = locate(wire, kind) if len(kind) == 2 else []
        if near:
            return (
                f"was not found whole, but an entry of its type and call, its payload "
                f"changed, was, at {listing(near)}"
            )
    return "appears nowhere in the turn's wire form"


def listing(found: Sequence[str]) -> str:
    """JSON pointers for a failure message: the first few, then how many more.  A pointer
    is built from an implementation's keys, so it is shortened and its hidden characters
    escaped like any other value it sent."""
    listed = ", ".join(_visible(pointer[:SHOWN]) for pointer in found[:POINTERS])
    more = f" and {len(found) - POINTERS} more" if len(found) > POINTERS else ""
    return listed + more


def misplaced(wire: TurnWire | None, expected: Iterable[object]) -> str:
    """For a failure message about entries a turn should deliver: ``""`` when each of
    ``expected`` (entries, payloads or strings) is carried by some message's
    ``toolArtifacts``, else ``"; the first missing one, {...}, was found at ..."``."""
    missing = _first_missing(wire, expected)
    if missing is None:
        return ""
    return f"; the first missing one, {show(missing, 120)}, {whereabouts(wire, missing)}"


def _first_missing(wire: TurnWire | None, expected: Iterable[object]) -> object | None:
    """The first of ``expected`` (entries, payloads or strings) that no message's
    ``toolArtifacts`` carries, else ``None``."""
    carried = delivered(wire)
    return next((entry for entry in expected if not pointers(carried, entry)), None)
