"""How a trace's runs resume their turns, read the same way by every DR rule's
situations: the causes of a resuming run, the cause that cut a run, each turn's runs,
and the calls a run dispatched."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from adapters.scenario import Interrupt, Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit._json import mapping

__all__ = ["RESUMING", "Dispatched", "cut_by", "dispatched", "runs_by_turn", "writes"]

#: The run causes of a run that resumed its turn after an interruption.
RESUMING = ("auto_continue", "continue")


def cut_by(scenario: Scenario, run: RunRecord) -> str | None:
    """The cause that cut ``run`` short, of those the scenario armed: the one its
    interruption names, else, where the scenario armed cuts of one cause only, that one;
    ``None`` for a run not cut, or cut by a cause the scenario never armed."""
    if run.end not in ("interrupted", "crashed"):
        return None
    armed = {step.cause for step in scenario.steps if isinstance(step, Interrupt)}
    named = mapping(run.interruption).get("cause")
    if isinstance(named, str):
        return named if named in armed else None
    return armed.pop() if len(armed) == 1 else None


def runs_by_turn(trace: Trace) -> dict[tuple[str, str], list[RunRecord]]:
    """Each turn's runs in order, by (conversation, turn label)."""
    found: dict[tuple[str, str], list[RunRecord]] = {}
    for run in trace.runs():
        found.setdefault((run.conversation, run.turn), []).append(run)
    return found


@dataclass(frozen=True)
class Dispatched:
    """One call a run dispatched: where (``place``: the pass, and its place in the
    batch), the tool, its arguments and a canonical form of them, its id, and how its
    result was disposed of (``None``: the run recorded no result for it)."""

    place: tuple[int, int]
    tool: object
    arguments: object
    input: str
    call_id: object
    disposition: str | None


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def dispatched(run: RunRecord) -> Iterator[Dispatched]:
    """Every call ``run`` dispatched, in order."""
    for number, one in enumerate(run.passes):
        disposed = {result.tool_call_id: result.disposition for result in one.results}
        for index, raw in enumerate(one.batch):
            fields = mapping(raw)
            call_id = fields.get("tool_call_id")
            yield Dispatched(
                (number, index),
                fields.get("name"),
                fields.get("args"),
                _canonical(fields.get("args")),
                call_id,
                disposed.get(call_id) if isinstance(call_id, str) else None,
            )


def writes(scenario: Scenario) -> set[str]:
    """The names of the scenario's write tools (every tool not read-only)."""
    return {tool.name for tool in scenario.tools if not tool.read_only}
