"""The situations DR-3's clauses name, and the reading of a run's calls that DR-4's
situations share (:func:`dispatched`, :func:`writes`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.checks.dr_2.situations import RESUMING
from conformance.toolkit import ClauseSituation, mapping, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS", "Dispatched", "dispatched", "writes"]


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


def _completed_writes(scenario: Scenario, runs: list[RunRecord]) -> list[Dispatched]:
    chosen = writes(scenario)
    return [
        one
        for run in runs
        for one in dispatched(run)
        if one.tool in chosen and one.disposition == "executed"
    ]


def _resumed_with_prior(trace: Trace) -> Iterator[tuple[RunRecord, list[RunRecord]]]:
    """Each resumed run, with the earlier runs of its own turn."""
    runs = list(trace.runs())
    for position, run in enumerate(runs):
        if run.cause in RESUMING:
            yield (
                run,
                [
                    r
                    for r in runs[:position]
                    if (r.conversation, r.turn) == (run.conversation, run.turn)
                ],
            )


def _made_again_in_the_chunk(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A resumed chunk completed a write, then dispatched it again itself."""
    chosen = writes(scenario)
    for run, _ in _resumed_with_prior(trace):
        calls = list(dispatched(run))
        if any(
            first.tool in chosen
            and first.disposition == "executed"
            and any((c.tool, c.input) == (first.tool, first.input) for c in calls[at + 1 :])
            for at, first in enumerate(calls)
        ):
            return True
    return False


def _made_again_in_another_turn(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A resumed chunk dispatched a write that an earlier turn completed."""
    runs = list(trace.runs())
    for position, run in enumerate(runs):
        if run.cause not in RESUMING:
            continue
        elsewhere = [
            r for r in runs[:position] if (r.conversation, r.turn) != (run.conversation, run.turn)
        ]
        done = {(c.tool, c.input) for c in _completed_writes(scenario, elsewhere)}
        if any((c.tool, c.input) in done for c in dispatched(run)):
            return True
    return False


def _at_another_position(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A resumed chunk dispatched a write its turn completed earlier, at another place in
    its batch than the completed call had."""
    for run, prior in _resumed_with_prior(trace):
        done = {(c.tool, c.input): c.place[1] for c in _completed_writes(scenario, prior)}
        if any(
            (c.tool, c.input) in done and done[(c.tool, c.input)] != c.place[1]
            for c in dispatched(run)
        ):
            return True
    return False


def _other_arguments(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A resumed chunk called a write tool its turn completed earlier with arguments no
    completed call of that tool had."""
    for run, prior in _resumed_with_prior(trace):
        done = _completed_writes(scenario, prior)
        for c in dispatched(run):
            same_tool = [d for d in done if d.tool == c.tool]
            if same_tool and all(d.input != c.input for d in same_tool):
                return True
    return False


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "capturing only the prior chunks of the same logical turn"
    situation(
        "DR-3#c1",
        "a write the resumed chunk completed, dispatched again in that chunk",
        _made_again_in_the_chunk,
    ),
    situation(
        "DR-3#c1",
        "a write another turn completed, dispatched in a resumed chunk",
        _made_again_in_another_turn,
    ),
    # ¶4: "a matching call at another position in the turn still matches, and a call with
    # different arguments is fresh"
    situation(
        "DR-3#c4", "a completed write dispatched again at another position", _at_another_position
    ),
    situation("DR-3#c4", "a completed write's tool called with other arguments", _other_arguments),
)

WITHOUT_SITUATIONS: dict[str, str] = {
    "DR-3#c2": (
        "one behaviour in one circumstance, a completed write dispatched again in a resumed "
        "chunk, which every case of the clause plays"
    ),
    "DR-3#c3": (
        "one behaviour in one circumstance, a read-only call dispatched again in a resumed "
        "chunk, which every case of the clause plays"
    ),
    "DR-3#c5": (
        "one behaviour in one circumstance, two identical calls matching one completed "
        "entry, which every case of the clause plays"
    ),
    "DR-3#c6": (
        "one circumstance, a run no interruption came before (a first turn's call sees an "
        "empty journal, so nothing changes), which every case of the clause plays"
    ),
}
