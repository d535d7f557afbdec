"""The situations DR-1's clauses name.  The ledgers read as a journal are the ones the
scenario hands the journal probe (a ``classify_ledger`` step the harness answered) and the
trace's own run-event ledger where a run resumed its turn, read as DR-1 pairs them."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence

from adapters.handshake import Handshake
from adapters.scenario import ClassifyLedger, Scenario
from adapters.trace import Trace
from conformance.checks.dr_1._ledger import tally
from conformance.toolkit import RESUMING, ClauseSituation, Situation, mapping, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]

Events = Sequence[Mapping[str, object]]


def _classified(scenario: Scenario, trace: Trace, handshake: Handshake) -> Iterator[Events]:
    """The ledgers the journal probe classified, on a harness that offers it."""
    if not handshake.capabilities.journal_probe:
        return
    for step in trace.steps:
        if not 0 <= step.index < len(scenario.steps) or step.outcome != "ok":
            continue
        played = scenario.steps[step.index]
        if isinstance(played, ClassifyLedger) and step.journal is not None:
            yield [mapping(event) for event in played.events]


def _ledgers(scenario: Scenario, trace: Trace, handshake: Handshake) -> Iterator[Events]:
    """The ledgers read as a journal: those the journal probe classified, and the trace's
    own run-event ledger where a run resumed its turn (a resume reads the journal)."""
    yield from _classified(scenario, trace, handshake)
    if trace.ledger is not None and any(run.cause in RESUMING for run in trace.runs()):
        yield [mapping(event) for event in trace.ledger]


def _completed(events: Events) -> bool:
    return bool(tally(events).pairs)


def _interrupted(events: Events) -> bool:
    return bool(tally(events).open)


def _open_at_each_done(events: Events) -> Iterator[tuple[object, dict[object, int]]]:
    """At each ``tool_done``: its tool name, and how many starts of each tool were open."""
    waiting: dict[object, deque[int]] = {}
    for position, event in enumerate(events):
        kind, tool = event.get("event"), event.get("tool")
        if kind == "tool_start":
            waiting.setdefault(tool, deque()).append(position)
        elif kind == "tool_done":
            yield tool, {name: len(queue) for name, queue in waiting.items()}
            if waiting.get(tool):
                waiting[tool].popleft()
        elif kind == "clear":
            waiting.clear()


def _two_of_its_tool_open(events: Events) -> bool:
    return any(open_.get(tool, 0) >= 2 for tool, open_ in _open_at_each_done(events))


def _another_tool_open(events: Events) -> bool:
    return any(
        open_.get(tool, 0) >= 1 and any(n for name, n in open_.items() if name != tool)
        for tool, open_ in _open_at_each_done(events)
    )


def _recorded_before_a_restart(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call's body ran, the implementation was restarted after it, and the ledger it
    reported holds a tool_start: "durable" is what survives a restart."""
    restarts = [
        i for i, step in enumerate(trace.steps) if step.op == "restart" and step.outcome == "ok"
    ]
    if not restarts or not trace.ledger:
        return False
    ran_before = any(run.side_effects for step in trace.steps[: restarts[-1]] for run in step.runs)
    return ran_before and any(mapping(e).get("event") == "tool_start" for e in trace.ledger)


def _clear_while_open(events: Events) -> bool:
    """A ``clear`` recorded while a ``tool_start`` is open."""
    waiting: dict[object, int] = {}
    for event in events:
        kind, tool = event.get("event"), event.get("tool")
        if kind == "tool_start":
            waiting[tool] = waiting.get(tool, 0) + 1
        elif kind == "tool_done" and waiting.get(tool):
            waiting[tool] -= 1
        elif kind == "clear":
            if any(waiting.values()):
                return True
            waiting.clear()
    return False


def _other_event_while_open(events: Events) -> bool:
    """While a ``tool_start`` is open, an event that is not a ``clear`` and closes none of
    the open calls (a start or a done of another tool, one naming no tool): what leaves
    the tally as it was."""
    waiting: dict[object, int] = {}
    for event in events:
        kind, tool = event.get("event"), event.get("tool")
        if kind == "clear":
            waiting.clear()
            continue
        if any(waiting.values()) and not waiting.get(tool):
            return True
        if kind == "tool_start":
            waiting[tool] = waiting.get(tool, 0) + 1
        elif kind == "tool_done" and waiting.get(tool):
            waiting[tool] -= 1
    return False


def _journal_read(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """The journal was read over a ledger."""
    return any(True for _ in _ledgers(scenario, trace, handshake))


def _in_a_ledger_read(holds: Callable[[Events], bool]) -> Situation:
    """Some ledger read as a journal has what ``holds`` looks for."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(holds(events) for events in _ledgers(scenario, trace, handshake))

    return reached


def _dispatched_with_its_ledger(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run dispatched a tool call, and the trace reports the run-event ledger."""
    return trace.ledger is not None and any(one.batch for _, one in trace.passes())


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "A runtime records a turn's tool calls in a durable run-event ledger"
    situation(
        "DR-1#c1", "a tool call dispatched, its ledger reported", _dispatched_with_its_ledger
    ),
    # ¶1: "in a durable run-event ledger" (as RT-TOOL-7 ¶1's "held durably")
    situation("DR-1#c1", "calls recorded before a restart", _recorded_before_a_restart),
    # ¶2: "The tool-call journal is a pure read over that ledger"
    situation("DR-1#c2", "the journal read over a ledger", _journal_read),
    # ¶3: "a call with a tool_start and a matching tool_done is completed; a call with a
    # tool_start and no matching tool_done is interrupted"
    situation(
        "DR-1#c3",
        "a call with a tool_start and a matching tool_done",
        _in_a_ledger_read(_completed),
    ),
    situation(
        "DR-1#c3",
        "a call with a tool_start and no matching tool_done",
        _in_a_ledger_read(_interrupted),
    ),
    # ¶4: "pairs with the oldest still-open tool_start of the same tool name"
    situation(
        "DR-1#c4",
        "a tool_done while two starts of its tool are open",
        _in_a_ledger_read(_two_of_its_tool_open),
    ),
    situation(
        "DR-1#c4",
        "a tool_done while a start of another tool is open",
        _in_a_ledger_read(_another_tool_open),
    ),
    # ¶5: "A `clear` event, recorded when partial output is abandoned, resets the per-turn
    # tally of open calls"
    situation(
        "DR-1#c5",
        "a clear recorded while a call is open",
        _in_a_ledger_read(_clear_while_open),
    ),
    # ¶5: only a clear resets the tally: any other event recorded while a call is open
    # leaves it open
    situation(
        "DR-1#c5",
        "an event closing no open call, recorded while one is open",
        _in_a_ledger_read(_other_event_while_open),
    ),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
