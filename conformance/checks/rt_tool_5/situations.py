"""The situations RT-TOOL-5's clauses name.  What a call produced is read from the
scenario (:func:`conformance.toolkit.node_outputs`), never from what the implementation
collected of it."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import EmitLateArtifact, Scenario, StartTurn
from adapters.trace import Trace
from conformance.toolkit import ClauseSituation, Situation, mapping, node_outputs, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _attaching(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call's node attached an artifact (read from the scenario, whatever the
    implementation then collected of it)."""
    return any(made.attached for made in node_outputs(scenario, trace))


def _later_call_collects(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call of a run's pass after its first attached artifacts (read from the scenario):
    what the first pass collected had been drained by then."""
    return any(
        made.attached and made.one is not made.run.passes[0]
        for made in node_outputs(scenario, trace)
    )


def _late_arrival(target: str) -> Situation:
    """An artifact was delivered out of band, accepted, for a turn's run that had already
    ended (``ended``: a run of that turn is reported before it) or that had not opened
    collection yet (``unopened``), on a harness that can deliver one (``late_artifacts``)."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        if not handshake.capabilities.late_artifacts:
            return False
        for index, (step, record) in enumerate(zip(scenario.steps, trace.steps, strict=False)):
            if not isinstance(step, EmitLateArtifact) or step.target != target:
                continue
            ran_before = any(
                run.turn == step.turn for earlier in trace.steps[:index] for run in earlier.runs
            )
            if record.outcome == "ok" and (ran_before or target == "unopened"):
                return True
        return False

    return reached


def _ended(*ends: str) -> Situation:
    """A run of the trace ended in one of ``ends``."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(run.end in ends for run in trace.runs())

    return reached


#: Interruption causes that are someone's choice to end a run, not the run failing.
_CHOSEN = ("stop", "cancel")


def _failed(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run ended failed or crashed, or was cut off by anything but a choice to end it
    (an error, a time limit): neither returned nor paused, it failed its way out."""
    return any(
        run.end in ("failed", "crashed")
        or (run.end == "interrupted" and mapping(run.interruption).get("cause") not in _CHOSEN)
        for run in trace.runs()
    )


def _launched_from_a_second_entry_point(
    scenario: Scenario, trace: Trace, handshake: Handshake
) -> bool:
    """A run was started from an entry point the harness offers besides its first one:
    the clause compares entry points, and a harness offering one has nothing to compare."""
    offered = handshake.capabilities.entry_points
    return any(
        isinstance(step, StartTurn)
        and step.entry_point in offered[1:]
        and record.outcome == "ok"
        and bool(record.runs)
        for step, record in zip(scenario.steps, trace.steps, strict=False)
    )


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "An implementation need not collect tool artifacts at all": whichever it does,
    # the circumstance is a call that produced one
    situation("RT-TOOL-5#c1", "a call that attached an artifact", _attaching),
    # ¶2: "an artifact arriving for a run whose collection was never opened"
    situation(
        "RT-TOOL-5#c2",
        "an artifact arriving for a run that never opened collection",
        _late_arrival("unopened"),
    ),
    # ¶3: "a later tool call in the same run still collects"
    situation(
        "RT-TOOL-5#c3", "a later tool call in the same run, after a drain", _later_call_collects
    ),
    # ¶3: "an artifact arriving after release is dropped"
    situation("RT-TOOL-5#c3", "an artifact arriving after release", _late_arrival("ended")),
    # ¶4: "a run that returns, pauses or fails releases it either way"
    situation("RT-TOOL-5#c4", "a run that returns", _ended("completed")),
    situation("RT-TOOL-5#c4", "a run that pauses", _ended("paused")),
    # (a run cut off by an error or a time limit fails its way out as much as one that
    # ends failed)
    situation("RT-TOOL-5#c4", "a run that fails", _failed),
    # ¶5: "must not depend on which entry point launched the run"
    situation(
        "RT-TOOL-5#c5",
        "a run launched from a second entry point",
        _launched_from_a_second_entry_point,
    ),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
