"""Questions a check asks of a trace.

Everything an implementation produced is untrusted JSON: these helpers never assume a
shape they have not checked, and return empty answers where a shape is wrong, so that
the check (not a crash) reports the problem.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from adapters.trace import PassRecord, RunRecord, ToolResultRecord, Trace, TurnWire

__all__ = [
    "all_passes",
    "assistant_rows",
    "contains",
    "delivered",
    "model_text",
    "results",
    "rows_with_artifacts",
    "side_effects",
    "strings",
    "turn",
]


def strings(value: object) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def contains(value: object, needle: str) -> bool:
    """Whether any string in ``value`` contains ``needle``."""
    return any(needle in text for text in strings(value))


def all_passes(trace: Trace) -> list[tuple[RunRecord, PassRecord]]:
    """Every tool pass, with its run, in order."""
    return list(trace.passes())


def results(trace: Trace, tool_call_id: str | None = None) -> list[ToolResultRecord]:
    """Every tool result (for one call id, when given), in order."""
    return [
        result
        for _, one in trace.passes()
        for result in one.results
        if tool_call_id is None or result.tool_call_id == tool_call_id
    ]


def side_effects(trace: Trace, tool: str | None = None) -> list[Mapping[str, object]]:
    """Every tool body that really ran (for one tool, when given), in order."""
    out: list[Mapping[str, object]] = []
    for run in trace.runs():
        for effect in run.side_effects:
            if isinstance(effect, Mapping) and (tool is None or effect.get("tool") == tool):
                out.append(effect)
    return out


def model_text(trace: Trace) -> list[str]:
    """Every string the model was ever given."""
    return [
        text
        for run in trace.runs()
        for given in run.model_inputs
        for text in strings(list(given.messages))
    ]


def turn(
    trace: Trace, label: str, *, step: int = -1, conversation: str = "main"
) -> TurnWire | None:
    """The turn ``label`` as the wire reported it after ``step`` (default: the last)."""
    if not trace.steps:
        return None
    return trace.steps[step].wire.get(conversation, {}).get(label)


def assistant_rows(wire: TurnWire | None) -> list[Mapping[str, object]]:
    """The turn's assistant message rows."""
    if wire is None:
        return []
    return [
        row for row in wire.messages if isinstance(row, Mapping) and row.get("role") == "assistant"
    ]


def rows_with_artifacts(wire: TurnWire | None) -> list[Mapping[str, object]]:
    """The turn's message rows that carry a non-empty ``toolArtifacts``."""
    if wire is None:
        return []
    return [
        row
        for row in wire.messages
        if isinstance(row, Mapping)
        and isinstance(row.get("toolArtifacts"), list)
        and row.get("toolArtifacts")
    ]


def delivered(wire: TurnWire | None) -> list[object]:
    """Every artifact entry carried by the turn's message rows, in order."""
    out: list[object] = []
    for row in rows_with_artifacts(wire):
        carried = row.get("toolArtifacts")
        assert isinstance(carried, list)
        out.extend(carried)
    return out
