"""The situations a clause's text names, and whether a trace reached them.

A clause speaks of situations ("whether or not the author exposed the port", "so they
survive a reload"): a check that passed without reaching one of them shows nothing
about it.  Each rule package declares its clauses' situations in its ``situations``
module with :func:`situation`, using the same test the hunt uses for an invariant's
situation (:data:`conformance.toolkit.Situation`); every case records which situations
of its clauses its traces reached, and a clause conforms only when passing cases
reached them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import StepRecord, Trace
from conformance.toolkit._invariant import Situation
from conformance.toolkit._json import mapping
from conformance.toolkit._traces import delivered

__all__ = [
    "ClauseSituation",
    "delivered_steps",
    "reached_by_case",
    "reached_situations",
    "read_from_the_implementation",
    "situation",
    "stretches",
]


@dataclass(frozen=True)
class ClauseSituation:
    """One situation ``clause``'s text names, in ``words`` (as a report says it: "the
    tool's artifacts port not exposed"), and the test of whether a trace reached it."""

    clause: str
    words: str
    reached: Situation


def situation(clause: str, words: str, reached: Situation) -> ClauseSituation:
    """Declare that ``clause`` names the situation ``words``, reached where ``reached``
    holds of a scenario's trace."""
    return ClauseSituation(clause, words, reached)


def reached_situations(
    situations: Iterable[ClauseSituation],
    runs: Iterable[tuple[Scenario, Trace | None]],
    handshake: Handshake,
) -> tuple[str, ...]:
    """The words of each of ``situations`` some complete trace of ``runs`` reached (a run
    that ended in an error reached nothing it can be judged on)."""
    runs = tuple(runs)
    return tuple(
        one.words
        for one in situations
        if any(trace is not None and _holds(one, s, trace, handshake) for s, trace in runs)
    )


def reached_by_case(
    situations: Mapping[str, tuple[ClauseSituation, ...]],
    clauses: Iterable[str],
    runs: Iterable[tuple[Scenario, Trace | None]],
    handshake: Handshake,
    judged: Mapping[str, tuple[str, ...]],
) -> dict[str, tuple[str, ...]]:
    """The situations of each of a case's ``clauses`` that it reached: those its ``runs``
    reached, with those the examples it judged reached (``judged``, words by clause: a
    hunt case that found nothing keeps no trace of its own), in the order each clause
    names them.  A case that read no complete trace and judged no example (it judged what
    the handshake declares) records nothing: it reached no situation, and left none
    unreached."""
    runs = tuple(runs)
    if not judged and not any(trace is not None for _, trace in runs):
        return {}
    found: dict[str, tuple[str, ...]] = {}
    for clause in clauses:
        named = situations.get(clause)
        if named is None:
            continue
        seen = set(reached_situations(named, runs, handshake)) | set(judged.get(clause, ()))
        found[clause] = tuple(one.words for one in named if one.words in seen)
    return found


def _holds(one: ClauseSituation, scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Whether ``one`` was reached; a test that cannot read the trace (it is untrusted)
    says not, which can only keep a clause from conforming."""
    try:
        return bool(one.reached(scenario, trace, handshake))
    except Exception:
        return False


def delivered_steps(trace: Trace) -> list[tuple[int, list[object]]]:
    """``(index, artifacts)`` of every step after which some turn's messages carry
    artifacts on the wire, with every artifact carried then."""
    found: list[tuple[int, list[object]]] = []
    for index, step in enumerate(trace.steps):
        carried = [
            entry
            for turns in step.wire.values()
            for wire in turns.values()
            for entry in delivered(wire)
        ]
        if carried:
            found.append((index, carried))
    return found


def read_from_the_implementation(step: StepRecord, handshake: Handshake) -> bool:
    """Whether the wire of ``step`` is the implementation's own turn read: the driver read
    it from its turn API, or the step names the implementation's own ids of its turns
    (the ids its turn API answers to).  A harness that builds the wire itself, for a
    runtime with no turn API, reaches neither."""
    return handshake.capabilities.turn_api or bool(mapping(mapping(step.ids).get("turns")))


def stretches(trace: Trace) -> dict[str, tuple[str, str, int]]:
    """Each run's stretch of its turn, by run id: ``(conversation, turn, cuts before
    it)``.  A call's identifier is guarded across the runs of a turn, through its pauses
    (RT-TOOL-9 ¶1); whether the record lasts across a cut and the run that resumes it,
    the rules leave open (docs/interpretations.md#guard-scope), so a cut starts a new
    stretch."""
    cuts: dict[tuple[str, str], int] = {}
    out: dict[str, tuple[str, str, int]] = {}
    for run in trace.runs():
        key = (run.conversation, run.turn)
        out[run.id] = (*key, cuts.get(key, 0))
        if run.end in ("interrupted", "crashed"):
            cuts[key] = cuts.get(key, 0) + 1
    return out
