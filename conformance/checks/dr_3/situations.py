"""The situations DR-3's clauses name."""

from __future__ import annotations

from collections.abc import Iterator

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    RESUMING,
    ClauseSituation,
    Dispatched,
    dispatched,
    situation,
    writes,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


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


def _turns_in_order(trace: Trace) -> dict[str, list[list[RunRecord]]]:
    """Each conversation's turns, in the order they first ran, each with its runs."""
    found: dict[str, dict[str, list[RunRecord]]] = {}
    for run in trace.runs():
        found.setdefault(run.conversation, {}).setdefault(run.turn, []).append(run)
    return {conversation: list(turns.values()) for conversation, turns in found.items()}


def _first_turn_call(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call was dispatched in a conversation's first turn."""
    return any(
        any(True for run in turns[0] for _ in dispatched(run))
        for turns in _turns_in_order(trace).values()
    )


def _later_uninterrupted_turn_repeats_a_write(
    scenario: Scenario, trace: Trace, handshake: Handshake
) -> bool:
    """A later turn that no interruption came before (none of its runs resumed it)
    dispatched a write whose tool and input a write an earlier turn completed had: the
    journal holds that completion, and nothing may change for this run."""
    chosen = writes(scenario)
    for turns in _turns_in_order(trace).values():
        done: set[tuple[object, str]] = set()
        for runs in turns:
            fresh = not any(run.cause in RESUMING for run in runs)
            mine = [one for run in runs for one in dispatched(run) if one.tool in chosen]
            if fresh and done and any((one.tool, one.input) in done for one in mine):
                return True
            done |= {(one.tool, one.input) for one in mine if one.disposition == "executed"}
    return False


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶6: "A first-turn call sees an empty journal, and nothing changes for a run that was
    # never interrupted"
    situation("DR-3#c6", "a call in a conversation's first turn", _first_turn_call),
    situation(
        "DR-3#c6",
        "a later turn, never interrupted, dispatching a write an earlier turn completed",
        _later_uninterrupted_turn_repeats_a_write,
    ),
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
}
