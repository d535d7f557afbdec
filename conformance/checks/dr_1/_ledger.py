"""The run-event ledger and the journal, as DR-1 reads them (the checks and the vectors).

A ledger is judged as DR-1 defines it, whatever else a runtime does: a ``tool_done``
pairs with the oldest still-open ``tool_start`` of its tool name (¶4), and a ``clear``
resets every open start (¶5).  A ``clear`` may sit anywhere in a recorded ledger: when a
runtime records one is its own choice (docs/interpretations.md#when-clear-is-recorded).
"""

from __future__ import annotations

import json
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from adapters.trace import Trace
from conformance.toolkit import CheckContext, mapping, show

__all__ = [
    "DIFFERENCES",
    "Tally",
    "done",
    "expect_journal",
    "start",
    "tally",
    "turn_ledger",
]


def start(tool: str, args: object) -> dict[str, object]:
    """A ``tool_start`` ledger event."""
    return {"event": "tool_start", "tool": tool, "input": args}


def done(tool: str, result: object) -> dict[str, object]:
    """A ``tool_done`` ledger event for the journal probe.  It carries no input on purpose:
    the probes test pairing by tool name alone, which a done that repeated its start's
    input would let a journal fake by matching inputs."""
    return {"event": "tool_done", "tool": tool, "result": result}


def turn_ledger(
    ctx: CheckContext, trace: Trace, turn: str = "t1"
) -> list[tuple[str, dict[str, object]]]:
    """The events of ``turn``'s ledger with their pointers (``/ledger/3``); the check ends
    untested where the harness reports no ledger."""
    ctx.require("ledger")
    return [
        (f"/ledger/{index}", dict(mapping(event)))
        for index, event in enumerate(trace.ledger or ())
        if mapping(event).get("turn", turn) == turn
    ]


@dataclass
class Tally:
    """A ledger paired as DR-1 pairs it: ``pairs`` maps a start's position to the done that
    closes it, ``open`` lists the starts left open, ``cleared`` those a ``clear`` reset,
    ``stray`` the dones that closed nothing (positions index the events given)."""

    pairs: dict[int, int] = field(default_factory=dict)
    open: list[int] = field(default_factory=list)
    cleared: list[int] = field(default_factory=list)
    stray: list[int] = field(default_factory=list)


def tally(events: Sequence[Mapping[str, object]]) -> Tally:
    """Pair ``events`` first in, first out per tool name, a ``clear`` resetting every open
    start."""
    out = Tally()
    waiting: dict[object, deque[int]] = {}
    for position, event in enumerate(events):
        kind, tool = event.get("event"), event.get("tool")
        if kind == "tool_start":
            waiting.setdefault(tool, deque()).append(position)
        elif kind == "tool_done":
            queue = waiting.get(tool)
            if queue and tool is not None:
                out.pairs[queue.popleft()] = position
            else:
                out.stray.append(position)
        elif kind == "clear":
            out.cleared += sorted(p for queue in waiting.values() for p in queue)
            waiting.clear()
    out.open = sorted(p for queue in waiting.values() for p in queue)
    return out


def _key(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _entries(listed: object, *, with_result: bool) -> list[tuple[str, str, str]]:
    """A journal list as comparable ``(tool, input, result)`` keys; extra keys ignored."""
    out = []
    for raw in listed if isinstance(listed, list) else []:
        entry = mapping(raw)
        result = _key(entry.get("result")) if with_result else ""
        out.append((_key(entry.get("tool")), _key(entry.get("input")), result))
    return out


def _call(key: tuple[str, str, str]) -> str:
    tool, args, result = key
    text = f"{json.loads(tool)} {args}"
    return f"{text} -> {result}" if result else text


def _take(
    pool: Counter[tuple[str, str, str]], like: tuple[str, str, str]
) -> tuple[str, str, str] | None:
    """Remove and return an entry of ``pool`` for the same call (tool and input) as
    ``like``, if there is one."""
    found = next((key for key, n in pool.items() if n > 0 and key[:2] == like[:2]), None)
    if found is not None:
        pool[found] -= 1
    return found


#: The kinds of difference :func:`expect_journal` finds, each the clause it breaks: a call
#: put in the other list or given another call's result where the ledger holds other
#: starts of its tool for a done to close instead (``paired``, ¶4), a call listed
#: interrupted whose start a ``clear`` reset (``cleared``, ¶5), an interrupted call left
#: out of both lists (``unlisted``, ¶3), anything else (``classified``, ¶3).
DIFFERENCES = ("paired", "cleared", "unlisted", "classified")


def _other_results(ledger: Sequence[Mapping[str, object]]) -> set[str]:
    return {_key(e.get("result")) for e in ledger if e.get("event") == "tool_done"}


def _starts_of(ledger: Sequence[Mapping[str, object]], tool: str) -> int:
    return sum(1 for e in ledger if e.get("event") == "tool_start" and _key(e.get("tool")) == tool)


def _cleared(ledger: Sequence[Mapping[str, object]]) -> set[tuple[str, str]]:
    counted = tally(ledger)
    return {(_key(ledger[p].get("tool")), _key(ledger[p].get("input"))) for p in counted.cleared}


def expect_journal(
    ctx: CheckContext,
    journal: object,
    completed: Sequence[tuple[str, object, object]],
    interrupted: Sequence[tuple[str, object]],
    *,
    at: str,
    clause: str,
    ledger: Sequence[Mapping[str, object]] = (),
    charged: Mapping[str, str | None] | None = None,
) -> None:
    """Expect ``journal`` (a journal probe's answer to ``ledger``) to list exactly
    ``completed`` (tool, input, result) and ``interrupted`` (tool, input), in any order
    (docs/interpretations.md#journal-order).  Every difference is its own failure: calls
    the journal put in the wrong list or gave the wrong result first, then those it left
    out, then those it made up.  ``charged`` maps each kind of difference
    (:data:`DIFFERENCES`) to the clause it is charged to; a kind it leaves out is another
    clause's, judged by that clause's own check (``None``: every difference is the
    case's)."""
    got = mapping(journal)
    ctx.need(
        isinstance(got.get("completed"), list) and isinstance(got.get("interrupted"), list),
        f"the journal probe answered {show(journal)}: not two lists `completed` and `interrupted`",
        at=at,
    )
    events = [mapping(e) for e in ledger]
    results, cleared = _other_results(events), _cleared(events)

    def fail(kind: str, message: str, where: str) -> None:
        if charged is None:
            ctx.expect(False, message, at=where)
        elif kind in charged:
            ctx.expect(False, message, at=where, clause=charged[kind])

    def paired_or(key: tuple[str, str, str]) -> str:
        return "paired" if _starts_of(events, key[0]) > 1 else "classified"

    have_done = Counter(_entries(got.get("completed"), with_result=True))
    have_open = Counter(_entries(got.get("interrupted"), with_result=False))
    want_done = Counter((_key(t), _key(i), _key(r)) for t, i, r in completed)
    want_open = Counter((_key(t), _key(i), "") for t, i in interrupted)
    missing_done, extra_done = want_done - have_done, have_done - want_done
    missing_open, extra_open = want_open - have_open, have_open - want_open
    for key in list(missing_done.elements()):
        if _take(extra_open, key) is not None:
            missing_done[key] -= 1
            fail(
                paired_or(key),
                f"{_call(key)} has a matching tool_done, and the journal lists it as "
                f"interrupted; {clause}",
                f"{at}/interrupted",
            )
    for key in list(missing_open.elements()):
        wrongly = _take(extra_done, key)
        if wrongly is not None:
            missing_open[key] -= 1
            fail(
                paired_or(key),
                f"{_call(key)} has no matching tool_done, and the journal lists it as "
                f"completed ({_call(wrongly)}); {clause}",
                f"{at}/completed",
            )
    for key in list(missing_done.elements()):
        other = _take(extra_done, key)
        if other is not None:
            fail(
                "paired" if other[2] in results else "classified",
                f"the journal lists {_call(other)} as completed, where its tool_done carried "
                f"the result {key[2]}; {clause}",
                f"{at}/completed",
            )
        else:
            fail(
                "classified",
                f"the journal's completed calls {show(got.get('completed'))} leave out "
                f"{_call(key)}; {clause}",
                f"{at}/completed",
            )
    for key in missing_open.elements():
        fail(
            "unlisted",
            f"the journal's interrupted calls {show(got.get('interrupted'))} leave out "
            f"{_call(key)}; {clause}",
            f"{at}/interrupted",
        )
    for kind, extra in (("completed", extra_done), ("interrupted", extra_open)):
        for key in extra.elements():
            fail(
                "cleared" if kind == "interrupted" and key[:2] in cleared else "classified",
                f"the journal lists {_call(key)} as {kind}, which the ledger does not show; "
                f"{clause}",
                f"{at}/{kind}",
            )
