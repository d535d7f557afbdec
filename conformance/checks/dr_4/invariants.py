"""DR-4's invariant: a write is refused only as an identical retry of one a cut may have
interrupted."""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    RESUMING,
    Invariant,
    call_signature,
    interrupted_calls,
    invariant,
    paired,
    show,
    well_formed,
)

__all__ = ["INVARIANTS"]


def write_refusal(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A write is refused only as an identical retry of a write that may have been
    interrupted earlier in its turn (DR-4 ¶2's "and only then"), and a completed call is
    never taken for an interrupted one.  Whether a retry that is owed a refusal got one
    depends on how the runtime's history shows the interruption, which is the runtime's
    to choose: the hand-written checks of DR-4 judge that."""
    writes = {tool.name for tool in scenario.tools if not tool.read_only}
    unanswered: dict[tuple[str, str], set[str]] = {}
    for run in trace.runs():
        key = (run.conversation, run.turn)
        for one in run.passes:
            for result, call in paired(one):
                name = str(result.tool)
                sig = call_signature(name, call.get("args"))
                if result.disposition == "refused" and (
                    name not in writes or sig not in unanswered.get(key, set())
                ):
                    return (
                        f"{name} {show(call.get('args'))} was refused in run {run.id}, though "
                        "no identical write was left unanswered by a cut earlier in the turn"
                    )
        unanswered.setdefault(key, set()).update(
            call_signature(name, args) for name, args in _unanswered(run) if name in writes
        )
    return None


def _unanswered(run: RunRecord) -> list[tuple[str, object]]:
    """Every call a cut left without a result (a lenient superset of the interrupted
    ones: a runtime may count the calls after the one it cut as interrupted too)."""
    if run.end not in ("interrupted", "crashed"):
        return []
    cut = [one for one in run.passes if one.cut] or list(run.passes[-1:])
    if not cut:
        return []
    answered = {id(call) for _, call in paired(cut[-1])}
    return [
        (str(call.get("name")), call.get("args"))
        for call in well_formed(cut[-1].batch)
        if id(call) not in answered
    ]


def _interrupted_then_resumed(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    cut: set[tuple[str, str]] = set()
    wired = {tool.name for tool in scenario.tools}
    for run in trace.runs():
        key = (run.conversation, run.turn)
        if key in cut and run.cause in RESUMING:
            return True
        if interrupted_calls(run, wired):
            cut.add(key)
    return False


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "write-refusal",
        ("DR-4#c2",),
        write_refusal,
        "a turn resumed after a write was interrupted",
        _interrupted_then_resumed,
        profile="durable-resume",
        rank=290,
    ),
)
