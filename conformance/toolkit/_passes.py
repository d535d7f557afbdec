"""A pass's calls as the guard sees them: which reach it, which carry an identifier, and
which result answers which call (the hunt's invariants of RT-TOOL-1, 2, 8, 9, 10 and of
durable resume walk passes this way)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from adapters.trace import PassRecord, RunRecord, ToolResultRecord, Trace
from conformance.toolkit._traces import located_passes

__all__ = [
    "Seen",
    "doubtful_ids",
    "guarded_results",
    "identifier",
    "paired",
    "seen_passes",
    "well_formed",
]


def well_formed(batch: tuple[object, ...]) -> list[Mapping[str, object]]:
    """The calls of a batch that reach the guard (RT-TOOL-10 ¶4: a map whose name is a
    non-blank string or a number), in order."""
    out: list[Mapping[str, object]] = []
    for call in batch:
        name = call.get("name") if isinstance(call, Mapping) else None
        if isinstance(name, str | int | float) and not isinstance(name, bool) and str(name).strip():
            assert isinstance(call, Mapping)
            out.append(call)
    return out


def identifier(call: Mapping[str, object]) -> str | bool | None:
    """A call's identifier: the id when it is a non-blank string, ``None`` when it has
    none (absent or null), ``False`` when it is of a doubtful kind (an empty or blank
    string, a number, a boolean) that a runtime may read either way."""
    raw = call.get("tool_call_id")
    if raw is None:
        return None
    if isinstance(raw, str) and raw.strip():
        return raw
    return False


def paired(one: PassRecord) -> list[tuple[ToolResultRecord, Mapping[str, object]]]:
    """Each result of a pass with the call it answers: by identifier where the result
    names one the batch sent, else the next unanswered call of its tool in batch order
    (a call without an identifier, or with a doubtful one: a result whose id the runtime
    generated pairs with the call the model sent without one).  A result no call matches is left
    out (a harness that reports more results than calls is judged elsewhere)."""
    calls = well_formed(one.batch)
    used = [False] * len(calls)
    out: list[tuple[ToolResultRecord, Mapping[str, object]]] = []
    for result in one.results:
        match = next(
            (
                i
                for i, call in enumerate(calls)
                if not used[i]
                and isinstance(identifier(call), str)
                and call.get("tool_call_id") == result.model_call_id
            ),
            None,
        )
        if match is None:
            match = next(
                (
                    i
                    for i, call in enumerate(calls)
                    if not used[i]
                    and not isinstance(identifier(call), str)
                    and str(call.get("name")) == str(result.tool)
                ),
                None,
            )
        if match is not None:
            used[match] = True
            out.append((result, calls[match]))
    return out


def doubtful_ids(one: PassRecord) -> set[str]:
    """The identifiers of a batch that may or may not count as identifiers, as strings."""
    return {
        str(call.get("tool_call_id"))
        for call in well_formed(one.batch)
        if identifier(call) is False
    }


@dataclass(frozen=True)
class Seen:
    """A pass, with where it is, its run, and its place in the trace."""

    at: str
    run: RunRecord
    one: PassRecord
    order: int


def seen_passes(trace: Trace) -> Iterator[Seen]:
    """Every pass of the trace, in order, as :class:`Seen`."""
    for order, (at, run, one) in enumerate(located_passes(trace)):
        yield Seen(at, run, one, order)


def guarded_results(seen: Seen) -> Iterator[tuple[int, ToolResultRecord, str]]:
    """The pass's results whose identifier is certainly one: ``(index, result, id)``."""
    doubtful = doubtful_ids(seen.one)
    for index, result in enumerate(seen.one.results):
        call_id = result.model_call_id
        if call_id is not None and call_id.strip() and call_id not in doubtful:
            yield index, result, call_id
