"""The situations RT-TOOL-5's clauses name, and why the others name none."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import EmitLateArtifact, Scenario, StartTurn
from adapters.trace import RunRecord, Trace
from conformance.toolkit import ClauseSituation, Situation, mapping, situation

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _carries_artifacts(run: RunRecord, passes: slice) -> bool:
    """Whether a call of ``run``'s passes (those ``passes`` selects) ran and returned
    artifacts."""
    for one in run.passes[passes]:
        for result in one.results:
            attached = mapping(result.result).get("artifacts")
            if result.disposition == "executed" and isinstance(attached, list) and attached:
                return True
    return False


def _later_call_collects(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A run's call in a pass after its first returned artifacts: what the first pass
    collected had been drained by then."""
    return any(_carries_artifacts(run, slice(1, None)) for run in trace.runs())


def _arrived_after_release(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """An artifact was delivered out of band for a turn's run that had already ended: the
    step was accepted, and a run of that turn is reported before it."""
    if not handshake.capabilities.late_artifacts:
        return False
    for index, (step, record) in enumerate(zip(scenario.steps, trace.steps, strict=False)):
        if not isinstance(step, EmitLateArtifact) or step.target != "ended":
            continue
        if record.outcome == "ok" and any(
            run.turn == step.turn for earlier in trace.steps[:index] for run in earlier.runs
        ):
            return True
    return False


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
    # ¶3: "a later tool call in the same run still collects"
    situation(
        "RT-TOOL-5#c3", "a later tool call in the same run, after a drain", _later_call_collects
    ),
    # ¶3: "an artifact arriving after release is dropped"
    situation("RT-TOOL-5#c3", "an artifact arriving after release", _arrived_after_release),
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

WITHOUT_SITUATIONS: dict[str, str] = {
    "RT-TOOL-5#c1": "a permission: an implementation need not collect at all, and whichever "
    "it declares is checked in one way",
    "RT-TOOL-5#c2": "one behaviour in one circumstance: an artifact arriving for a run that "
    "never opened collection is dropped, and every case of it plays that arrival",
}
