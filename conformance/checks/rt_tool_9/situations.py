"""The situations RT-TOOL-9's clauses name.

A repeat is a call the batch of a pass carries under an identifier that an earlier pass
of the same stretch of its turn executed (the guard's scope: every run of a turn, across
its pauses; docs/interpretations.md, guard-scope).  Each test reads the batches, results
and runs a trace reports: a call a harness never lets reach the runtime's tool node
again reaches no repeat.  How the first execution ended (a success, a recoverable
failure) is what its tool's node played, read from the scenario
(:func:`conformance.toolkit.node_outputs`), never the result the implementation made of
it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from adapters.handshake import Handshake
from adapters.scenario import Return, Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    ClauseSituation,
    Situation,
    guarded_results,
    identifier,
    mapping,
    node_outputs,
    ran_unidentified,
    seen_passes,
    situation,
    stretches,
    well_formed,
)

__all__ = ["SITUATIONS", "WITHOUT_SITUATIONS"]


def _repeats(scenario: Scenario, trace: Trace) -> Iterator[Return | None]:
    """For each call sent again, what its tool's node did on the execution that recorded
    its identifier (read from the scenario: whatever result the implementation made of
    it; ``None`` where the scenario does not say)."""
    stretch = stretches(trace)
    played = {id(made.result): made.returned for made in node_outputs(scenario, trace)}
    returned: dict[tuple[object, ...], Return | None] = {}
    for seen in seen_passes(trace):
        for call in well_formed(seen.one.batch):
            call_id = identifier(call)
            key = (*stretch[seen.run.id], call_id)
            if isinstance(call_id, str) and key in returned:
                yield returned[key]
        for _, result, call_id in guarded_results(seen):
            if result.disposition == "executed":
                returned.setdefault((*stretch[seen.run.id], call_id), played.get(id(result)))


def _repeat(holds: Callable[[Return | None], bool] = lambda _: True) -> Situation:
    """Reached where some repeat of the trace is one ``holds`` of."""

    def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        return any(holds(one) for one in _repeats(scenario, trace))

    return reached


def _stored(success: bool) -> Callable[[Return | None], bool]:
    """A repeat of a call whose first execution succeeded, or failed recoverably, as its
    tool's node played it (not as the result reports it)."""
    return lambda played: played is not None and (played.fail is None) is success


def _recorded_elsewhere(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call sent under an identifier that a run of another turn (of any conversation)
    executed before: a run records the calls *it* executed."""
    executed: dict[str, set[tuple[str, str]]] = {}
    for seen in seen_passes(trace):
        key = (seen.run.conversation, seen.run.turn)
        for call in well_formed(seen.one.batch):
            call_id = identifier(call)
            if isinstance(call_id, str) and executed.get(call_id, set()) - {key}:
                return True
        for _, result, call_id in guarded_results(seen):
            if result.disposition == "executed":
                executed.setdefault(call_id, set()).add(key)
    return False


def _paused_batch_sent_again(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call of a batch that paused midway, executed before the pause, is sent again in a
    later pass of the stretch.  Executed: its result says so, or its body ran in the run
    (a node that pauses may report no result for what ran before the pause)."""
    stretch = stretches(trace)
    before_a_pause: set[tuple[object, ...]] = set()
    for seen in seen_passes(trace):
        key = stretch[seen.run.id]
        sent = {identifier(call) for call in well_formed(seen.one.batch)}
        if any(isinstance(call_id, str) and (*key, call_id) in before_a_pause for call_id in sent):
            return True
        if seen.one.paused:
            ran: set[object] = {
                r.model_call_id for r in seen.one.results if r.disposition == "executed"
            }
            ran |= {mapping(effect).get("tool_call_id") for effect in seen.run.side_effects}
            before_a_pause |= {
                (*key, call_id) for call_id in sent & ran if isinstance(call_id, str)
            }
    return False


def _approved(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call of a gated tool was sent in a pass, and a run of its turn was then started by
    the operator's approval (whatever that run did with the call)."""
    gated = {tool.name for tool in scenario.tools if tool.gate}
    sent: set[tuple[str, str]] = set()
    for run in trace.runs():
        key = (run.conversation, run.turn)
        if run.cause == "approve" and key in sent:
            return True
        if any(call.get("name") in gated for one in run.passes for call in well_formed(one.batch)):
            sent.add(key)
    return False


def _unguarded(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call sent without an identifier (or with one of a doubtful kind, a number, say,
    which some readings take for none: docs/interpretations.md, malformed-calls), as a
    pass's batch shows it or, where the run failed before reporting its pass, as the
    body that ran under no identifier does."""
    return ran_unidentified(trace) or any(
        not isinstance(identifier(call), str)
        for _, one in trace.passes()
        for call in well_formed(one.batch)
    )


def _unguarded_again(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """Two calls without an identifier sent in one stretch of a turn."""
    stretch = stretches(trace)
    sent: dict[tuple[object, ...], int] = {}
    for seen in seen_passes(trace):
        key = stretch[seen.run.id]
        sent[key] = sent.get(key, 0) + sum(
            1 for call in well_formed(seen.one.batch) if identifier(call) is None
        )
    return any(count >= 2 for count in sent.values())


SITUATIONS: tuple[ClauseSituation, ...] = (
    # ¶1: "does not invoke a call whose identifier it has already recorded"
    situation("RT-TOOL-9#c1", "a call sent again under an identifier the run recorded", _repeat()),
    # ¶1: "A run records each tool call it has executed": another turn's record is not its
    situation(
        "RT-TOOL-9#c1",
        "a call sent under an identifier another turn recorded",
        _recorded_elsewhere,
    ),
    # ¶2: "the stored result of its first execution (the tool-role message and whether
    # it succeeded)"
    situation("RT-TOOL-9#c2", "a repeat of a call that succeeded", _repeat(_stored(True))),
    situation("RT-TOOL-9#c2", "a repeat of a call that failed", _repeat(_stored(False))),
    # ¶3: "a batch that paused midway never delivered the already-executed call's message"
    situation(
        "RT-TOOL-9#c3",
        "a batch that paused midway, sent again with a call it had executed",
        _paused_batch_sent_again,
    ),
    # ¶4: "recorded only once it has returned a result, success or a recoverable error"
    situation("RT-TOOL-9#c4", "a call that returned success, sent again", _repeat(_stored(True))),
    situation(
        "RT-TOOL-9#c4",
        "a call that returned a recoverable error, sent again",
        _repeat(_stored(False)),
    ),
    # ¶4: "a call that interrupts the node for human approval is re-asked and executed
    # once approved"
    situation("RT-TOOL-9#c4", "a call that paused for approval, approved", _approved),
    # ¶5: "A call that carries no identifier cannot be guarded and always runs"
    situation("RT-TOOL-9#c5", "a call sent without an identifier", _unguarded),
    situation("RT-TOOL-9#c5", "a call without an identifier sent more than once", _unguarded_again),
)

WITHOUT_SITUATIONS: dict[str, str] = {}
