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


def expect_journal(
    ctx: CheckContext,
    journal: object,
    completed: Sequence[tuple[str, object, object]],
    interrupted: Sequence[tuple[str, object]],
    *,
    at: str,
    clause: str,
) -> None:
    """Expect ``journal`` (a journal probe's answer) to list exactly ``completed``
    (tool, input, result) and ``interrupted`` (tool, input), in any order
    (docs/interpretations.md#journal-order).  Every difference is its own failure: calls
    the journal put in the wrong list or gave the wrong result first, then those it left
    out, then those it made up."""
    got = mapping(journal)
    ctx.need(
        isinstance(got.get("completed"), list) and isinstance(got.get("interrupted"), list),
        f"the journal probe answered {show(journal)}: not two lists `completed` and `interrupted`",
        at=at,
    )
    have_done = Counter(_entries(got.get("completed"), with_result=True))
    have_open = Counter(_entries(got.get("interrupted"), with_result=False))
    want_done = Counter((_key(t), _key(i), _key(r)) for t, i, r in completed)
    want_open = Counter((_key(t), _key(i), "") for t, i in interrupted)
    missing_done, extra_done = want_done - have_done, have_done - want_done
    missing_open, extra_open = want_open - have_open, have_open - want_open
    for key in list(missing_done.elements()):
        if _take(extra_open, key) is not None:
            missing_done[key] -= 1
            ctx.expect(
                False,
                f"{_call(key)} has a matching tool_done, and the journal lists it as "
                f"interrupted; {clause}",
                at=f"{at}/interrupted",
            )
    for key in list(missing_open.elements()):
        wrongly = _take(extra_done, key)
        if wrongly is not None:
            missing_open[key] -= 1
            ctx.expect(
                False,
                f"{_call(key)} has no matching tool_done, and the journal lists it as "
                f"completed ({_call(wrongly)}); {clause}",
                at=f"{at}/completed",
            )
    for key in list(missing_done.elements()):
        other = _take(extra_done, key)
        ctx.expect(
            False,
            f"the journal lists {_call(other)} as completed, where its tool_done carried the "
            f"result {key[2]}; {clause}"
            if other is not None
            else f"the journal's completed calls {show(got.get('completed'))} leave out "
            f"{_call(key)}; {clause}",
            at=f"{at}/completed",
        )
    for key in missing_open.elements():
        ctx.expect(
            False,
            f"the journal's interrupted calls {show(got.get('interrupted'))} leave out "
            f"{_call(key)}; {clause}",
            at=f"{at}/interrupted",
        )
    for kind, extra in (("completed", extra_done), ("interrupted", extra_open)):
        for key in extra.elements():
            ctx.expect(
                False,
                f"the journal lists {_call(key)} as {kind}, which the ledger does not show; "
                f"{clause}",
                at=f"{at}/{kind}",
            )
