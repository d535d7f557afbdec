"""The situations DR-3's clauses name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    RESUMING,
    ClauseSituation,
    Dispatched,
    Situation,
    dispatched,
    runs_by_turn,
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


#: The causes of a run that carries a paused chunk on: its answer, approval or decline.
CARRYING_ON = ("answer", "approve", "decline")


def _chunks(trace: Trace) -> Iterator[tuple[list[RunRecord], list[RunRecord]]]:
    """Each resumed chunk of a turn (the run that resumed it after an interruption, and
    the runs that carried it on after its pauses), with the runs of its turn before it."""
    for runs in runs_by_turn(trace).values():
        start: int | None = None
        for position, run in enumerate([*runs, None]):
            carried_on = run is not None and run.cause in CARRYING_ON
            if start is not None and not carried_on:
                yield runs[start:position], runs[:start]
                start = None
            if run is not None and run.cause in RESUMING:
                start = position


def _sent_again(holds: Callable[[Scenario, list[Dispatched], list[Dispatched]], bool]) -> Situation:
    """Reached where ``holds`` of the calls some resumed chunk dispatched and those its
    turn dispatched before it."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(
            holds(
                scenario,
                [one for run in chunk for one in dispatched(run)],
                [one for run in prior for one in dispatched(run)],
            )
            for chunk, prior in _chunks(trace)
        )

    return reached


def _completed(scenario: Scenario, calls: list[Dispatched]) -> Counter[tuple[object, str]]:
    """How many times each write (by tool and input) completed among ``calls``."""
    chosen = writes(scenario)
    return Counter(
        (one.tool, one.input)
        for one in calls
        if one.tool in chosen and one.disposition == "executed"
    )


def _completed_chunks_before(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A resumed chunk dispatched a write its turn completed two chunks or more before it
    (each cut ends a chunk): every prior chunk is in the snapshot, not the last alone."""
    for chunk, prior in _chunks(trace):
        cuts, older = 0, []
        for run in reversed(prior):
            if run.end in ("interrupted", "crashed"):
                cuts += 1
            if cuts >= 2:
                older.append(run)
        done = _completed(scenario, [one for run in older for one in dispatched(run)])
        if any(done[(one.tool, one.input)] for run in chunk for one in dispatched(run)):
            return True
    return False


def _write_again(scenario: Scenario, chunk: list[Dispatched], prior: list[Dispatched]) -> bool:
    """A write the turn completed before the chunk, dispatched in it."""
    done = _completed(scenario, prior)
    return any(done[(one.tool, one.input)] for one in chunk)


def _read_again(scenario: Scenario, chunk: list[Dispatched], prior: list[Dispatched]) -> bool:
    """A read-only call the turn dispatched before the chunk (completed or not), dispatched
    in it with the same input."""
    reads = {tool.name for tool in scenario.tools if tool.read_only}
    before = {(one.tool, one.input) for one in prior if one.tool in reads}
    return any((one.tool, one.input) in before for one in chunk)


def _more_than_completed(
    scenario: Scenario, chunk: list[Dispatched], prior: list[Dispatched]
) -> bool:
    """A write dispatched in the chunk more times than the turn completed it before."""
    done = _completed(scenario, prior)
    again = Counter((one.tool, one.input) for one in chunk if done[(one.tool, one.input)])
    return any(count > done[key] for key, count in again.items())


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶2: "When the model re-dispatches a write tool whose name and input match a completed
    # entry of that snapshot"
    situation(
        "DR-3#c2",
        "a completed write dispatched again in a resumed chunk",
        _sent_again(_write_again),
    ),
    # ¶3: "Read-only tools are never blocked"
    situation(
        "DR-3#c3", "a read-only call dispatched again in a resumed chunk", _sent_again(_read_again)
    ),
    # ¶5: "two identical fresh calls in the same turn do not both short-circuit on one
    # journaled completion"
    situation(
        "DR-3#c5",
        "a completed write dispatched again more times than it completed",
        _sent_again(_more_than_completed),
    ),
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
    # ¶1: "capturing only the prior chunks": all of them, not the last alone
    situation(
        "DR-3#c1",
        "a write completed two chunks before, dispatched again",
        _completed_chunks_before,
    ),
    # ¶4: "The match is on the tool name and a signature of its input"
    situation(
        "DR-3#c4",
        "a completed write dispatched again in a resumed chunk",
        _sent_again(_write_again),
    ),
    # ¶4: "a matching call at another position in the turn still matches, and a call with
    # different arguments is fresh"
    situation(
        "DR-3#c4", "a completed write dispatched again at another position", _at_another_position
    ),
    situation("DR-3#c4", "a completed write's tool called with other arguments", _other_arguments),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
