"""What a trace says was produced and delivered, traced by canary."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from adapters.trace import Trace, TurnWire
from conformance.hunt.strategies import CANARY_PREFIX

__all__ = ["Produced", "canaries_in", "canary_of", "produced", "produced_counts", "wires"]


@dataclass(frozen=True)
class Produced:
    """An artifact a completed call produced."""

    canary: str
    conversation: str
    turn: str
    run_end: str
    seq: int
    tool: str
    tool_call_id: str | None
    type: str


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def canary_of(entry: object) -> str | None:
    """The canary an artifact entry carries, if any."""
    found = _mapping(_mapping(entry).get("payload")).get("canary")
    return found if isinstance(found, str) and found.startswith(CANARY_PREFIX) else None


_CANARY = re.compile(re.escape(CANARY_PREFIX) + r"[0-9]+-[0-9]+-[0-9]+\.")


def canaries_in(value: object) -> list[str]:
    """Every canary mentioned anywhere in ``value``, keys and longer text included."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return _CANARY.findall(text) if CANARY_PREFIX in text else []


def produced(trace: Trace) -> dict[str, Produced]:
    """Every canary a call produced and returned successfully, in production order."""
    out: dict[str, Produced] = {}
    for run in trace.runs():
        for one in run.passes:
            for result in one.results:
                body = _mapping(result.result)
                if result.disposition != "executed" or body.get("success") is not True:
                    continue
                attached = body.get("artifacts")
                for entry in attached if isinstance(attached, list) else ():
                    canary = canary_of(entry)
                    # An empty type may ride on the result and be refused at collection
                    # (docs/interpretations.md#empty-type): it is never owed a delivery.
                    if _mapping(entry).get("type") == "":
                        continue
                    if canary is not None and canary not in out:
                        out[canary] = Produced(
                            canary,
                            run.conversation,
                            run.turn,
                            run.end,
                            len(out),
                            str(result.tool),
                            result.tool_call_id,
                            str(_mapping(entry).get("type")),
                        )
    return out


def produced_counts(trace: Trace) -> Counter[str]:
    """How many artifacts carrying each canary the calls produced (a tool may emit the
    same artifact twice, and both are owed a delivery)."""
    counts: Counter[str] = Counter()
    for run in trace.runs():
        for one in run.passes:
            for result in one.results:
                body = _mapping(result.result)
                if result.disposition != "executed" or body.get("success") is not True:
                    continue
                attached = body.get("artifacts")
                for entry in attached if isinstance(attached, list) else ():
                    canary = canary_of(entry)
                    if canary is not None and _mapping(entry).get("type") != "":
                        counts[canary] += 1
    return counts


def wires(trace: Trace, step: int | None = None) -> Iterator[tuple[int, str, str, TurnWire]]:
    """``(step index, conversation, turn, wire)`` of every turn after every step (or one)."""
    chosen = trace.steps if step is None else (trace.steps[step],)
    for record in chosen:
        for conversation, turns in record.wire.items():
            for label, wire in turns.items():
                yield record.index, conversation, label, wire
