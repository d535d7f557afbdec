"""Helpers the checks of RT-TOOL-5, RT-TOOL-6 and RT-TOOL-7 share: payload sizes under
every reading of "once JSON-encoded", the warnings a trace holds, where a run's
artifacts went.

RT-TOOL-6 measures payloads "once JSON-encoded" without saying how: compact or spaced
separators, non-ASCII characters as UTF-8 or as ``\\uXXXX`` escapes, ``/`` escaped or not
(docs/interpretations.md, payload-size).  What every reading must keep is measured with
the largest of those encodings (:func:`largest_size`); what every reading must drop, with
the smallest (:func:`smallest_size`, compact UTF-8).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adapters.trace import Trace, WarningRecord
from conformance.toolkit._context import CheckContext
from conformance.toolkit._json import mapping
from conformance.toolkit._outcomes import NotApplicable
from conformance.toolkit._shown import listing, show
from conformance.toolkit._traces import contains, delivered, located_passes, turn, turn_pointer

__all__ = [
    "Warned",
    "brief",
    "collects",
    "count_on_wire",
    "largest_size",
    "located_warnings",
    "marked",
    "names",
    "over_by_one_utf8_byte",
    "over_payload",
    "pointers_of",
    "run_of_call",
    "sized_payload",
    "smallest_size",
    "warnings_text",
    "wire_pointer",
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


def collects(ctx: CheckContext) -> None:
    """End the check as not applicable for an implementation that declares it collects no
    artifacts (RT-TOOL-5 ¶1 allows it; bounds and held lists are then moot)."""
    if not ctx.handshake.collects_artifacts:
        raise NotApplicable("the implementation does not collect tool artifacts")


def wire_pointer(
    trace: Trace, label: str = "t1", *, step: int = -1, conversation: str = "main"
) -> str:
    """The pointer of a turn's message rows on the wire after ``step``."""
    return turn_pointer(trace, label, step=step, conversation=conversation) + "/messages"


def marked(entries: Sequence[object], mark: str) -> int:
    """How many of ``entries`` carry ``mark`` anywhere."""
    return sum(1 for entry in entries if contains(entry, mark))


def count_on_wire(
    trace: Trace, mark: str, *, label: str = "t1", step: int = -1, conversation: str = "main"
) -> int:
    """How many entries the turn's messages deliver that carry ``mark``."""
    return marked(delivered(turn(trace, label, step=step, conversation=conversation)), mark)


@dataclass(frozen=True)
class Warned:
    """A warning with its pointer in the trace and the index of its step."""

    at: str
    step: int
    warning: WarningRecord


def located_warnings(trace: Trace, steps: Sequence[int] | None = None) -> list[Warned]:
    """Every warning (of ``steps`` only, when given), with its pointer
    (``/steps/2/warnings/0``)."""
    return [
        Warned(f"/steps/{index}/warnings/{number}", index, warning)
        for index, step in enumerate(trace.steps)
        if steps is None or index in steps
        for number, warning in enumerate(step.warnings)
    ]


def names(warning: WarningRecord, field: str, value: str) -> bool:
    """Whether ``warning`` names ``value``: in its own field ``field`` (``tool``, ``run``,
    ``type``, ``tool_call_id``) when it reports that field, else in its message text (the
    protocol lets a harness leave the fields out; docs/interpretations.md, drop-warnings)."""
    given = getattr(warning, field, None)
    if given is not None:
        return bool(given == value)
    return bool(value) and value in warning.message


def run_of_call(trace: Trace, call_id: str) -> tuple[str, str] | None:
    """``(run id, run pointer)`` of the run whose pass reports a result for ``call_id``."""
    for at, run, one in located_passes(trace):
        if any(result.tool_call_id == call_id for result in one.results):
            return run.id, at.rsplit("/passes/", 1)[0]
    return None


def warnings_text(found: Sequence[Warned]) -> str:
    """The warnings observed, for a failure message: ``none`` or their pointers and text."""
    if not found:
        return "none"
    shown = [f"{w.at}: {show(mapping(_as_json(w.warning)), 160)}" for w in found[:3]]
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    return "; ".join(shown) + more


def _as_json(warning: WarningRecord) -> dict[str, object]:
    return {key: value for key, value in vars(warning).items() if value is not None}


def pointers_of(found: Sequence[Warned]) -> str:
    """The pointers of some warnings, for a failure message."""
    return listing([w.at for w in found]) or "nowhere"
