"""Is an answer sound as a harness's answer?  Not whether the runtime conforms.

The doctor does not judge any rule: that is ``rttool run``'s work.  It looks for what a
harness gets wrong in the plumbing: a step record for another step, a started turn its
wire does not list, a run on a turn the scenario never named, an observation offered
in the handshake and then not reported, and a call whose ``"args": []`` the harness
took for malformed, and a status word on the wire that the handshake's ``turn_states``
does not give a state.
"""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario, StartTurn
from adapters.trace import Trace
from conformance.doctor._findings import ARGS_HINT, Diagnosis

__all__ = ["check_trace", "empty_list_calls"]

# Observations: the step record's field each fills, and what the harness reports there.
_OBSERVED = {
    "held_observation": ("held", "the artifacts held against each turn"),
    "collection_observation": ("open_collections", "the runs whose collection is open"),
}


def empty_list_calls(scenario: Scenario) -> list[tuple[str, str]]:
    """``(pointer, call id)`` of every call in the model's replies whose ``args`` is ``[]``
    and whose identifier is a plain string (a call with a number for an identifier is a
    case of its own, RT-TOOL-9 ¶5's, not a probe of how ``[]`` is read)."""
    found = []
    for r, reply in enumerate(scenario.model):
        for k, call in enumerate(reply.tool_calls or ()):
            if not isinstance(call, dict) or call.get("args") != []:
                continue
            ident = call.get("tool_call_id")
            if isinstance(ident, str) and ident:
                found.append((f"/model/{r}/tool_calls/{k}/args", ident))
    return found


def _steps(scenario: Scenario, trace: Trace, where: str, diagnosis: Diagnosis) -> None:
    labels = {step.turn for step in scenario.steps if isinstance(step, StartTurn)}
    for index, (step, record) in enumerate(zip(scenario.steps, trace.steps, strict=False)):
        # A record that does not echo its step never gets here: the driver refuses it.
        at = f"{where} /steps/{index}"
        for number, run in enumerate(record.runs):
            if run.turn not in labels:
                diagnosis.problem(
                    f"a run names turn {run.turn!r}, which the scenario never started",
                    f"{at}/runs/{number}/turn",
                    "name turns by the scenario's labels (t1, t2...), not the runtime's ids",
                )
        if isinstance(step, StartTurn) and record.outcome == "ok":
            turns = record.wire.get(step.conversation, {})
            if step.turn not in turns:
                diagnosis.problem(
                    f"turn {step.turn!r} was started, but the wire lists no such turn under "
                    f"conversation {step.conversation!r}",
                    f"{at}/wire",
                    "list every turn under its conversation label, both keyed by the "
                    "scenario's labels",
                )


def _observations(trace: Trace, handshake: Handshake, where: str, diagnosis: Diagnosis) -> None:
    caps = handshake.capabilities
    for capability, (field, meaning) in _OBSERVED.items():
        if getattr(caps, capability) is not True:
            continue
        silent = [record.index for record in trace.steps if getattr(record, field) is None]
        if silent:
            diagnosis.problem(
                f"the handshake offers {capability}, but step {silent[0]} reports no {field}",
                f"{where} /steps/{silent[0]}/{field}",
                f"report {meaning} in every step record, or leave {capability} out",
            )
    if caps.ledger and trace.ledger is None:
        diagnosis.problem(
            "the handshake offers ledger, but the finish reply carries none",
            f"{where} finish /ledger",
            "answer finish with the run-event ledger, or leave ledger out",
        )


def _probes(scenario: Scenario, trace: Trace, where: str, diagnosis: Diagnosis) -> None:
    for index, record in enumerate(trace.steps):
        asked = index < len(scenario.steps) and scenario.steps[index].op == "classify_ledger"
        if asked and record.journal is None and record.outcome == "ok":
            diagnosis.problem(
                "a classify_ledger step was answered without a journal",
                f"{where} /steps/{index}/journal",
                "answer classify_ledger with the journal's classification, or leave "
                "journal_probe out",
            )


def _empty_args(scenario: Scenario, trace: Trace, where: str, diagnosis: Diagnosis) -> None:
    seen: set[str] = set()
    for pointer, call_id in empty_list_calls(scenario):
        if call_id in seen:  # the same call sent again (a repeat the runtime skips)
            continue
        seen.add(call_id)
        results = [
            (f"/steps/{s}/runs/{r}/passes/{p}/results/{n}", result)
            for s, step in enumerate(trace.steps)
            for r, run in enumerate(step.runs)
            for p, one in enumerate(run.passes)
            for n, result in enumerate(one.results)
            if result.tool_call_id == call_id
        ]
        if any(result.disposition == "executed" for _, result in results):
            continue
        if results:
            at, told = results[0][0], f"reported it as {results[0][1].disposition}"
        else:  # nothing in the trace to point at: point at the call
            at, told = pointer, "reported no result for it"
        diagnosis.problem(
            f'call {call_id} sends "args": [] (scenario {pointer}) and the harness {told}',
            f"{where} {at}",
            ARGS_HINT,
        )


def _vocabulary(trace: Trace, handshake: Handshake, where: str, diagnosis: Diagnosis) -> None:
    """A status word that no declared state owns: the checks see that turn in no state."""
    for record in trace.steps:
        for conversation, turns in record.wire.items():
            for label, turn in turns.items():
                if handshake.turn_states.state(turn.status) is not None:
                    continue
                word = turn.status[:60]
                diagnosis.note(
                    f"turn {label[:60]!r} has the status {word!r}, which turn_states gives no "
                    "state: the checks that ask whether it is paused, stopped or done see "
                    "it as none of them",
                    f"{where} /steps/{record.index}/wire/{conversation[:60]}/{label[:60]}/status",
                    f"declare {word!r} under the state it means in the hello's turn_states",
                )
                return  # one note says it; every later step would repeat it


def check_trace(
    scenario: Scenario, trace: Trace, handshake: Handshake, diagnosis: Diagnosis
) -> int:
    """Record every unsound part of ``trace``; returns how many problems were found."""
    before = len(diagnosis.problems)
    where = f"scenario {scenario.id}"
    _steps(scenario, trace, where, diagnosis)
    _observations(trace, handshake, where, diagnosis)
    _probes(scenario, trace, where, diagnosis)
    _empty_args(scenario, trace, where, diagnosis)
    _vocabulary(trace, handshake, where, diagnosis)
    return len(diagnosis.problems) - before
