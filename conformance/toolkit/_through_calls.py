"""The channels of the tool-call rules: the at-most-once guard (RT-TOOL-9 ¶1), a call
recorded only once it returned (¶4), a call without an identifier run every time (¶5),
the answer a call naming an unwired tool gets (RT-TOOL-10 ¶2), the answer a call without
an identifier gets (RT-TOOL-10 ¶4), and the tool body handed the reconciled arguments
(RT-TOOL-8 ¶1).

A check of another clause that sends a repeat, an unwired call or a call without an
identifier observes through these: a runtime that runs a recorded call again reports
that call as executed and runs its tool twice, one that drops an unwired call reports no
result for it, one that fails the run on a call without an identifier never finishes
the pass.  What the check then sees is the governing clause's failure.  Each test says
a channel is broken only where the trace shows it broken.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit._channels import Channel
from conformance.toolkit._json import mapping
from conformance.toolkit._passes import (
    Seen,
    doubtful_ids,
    guarded_results,
    identifier,
    paired,
    seen_passes,
    well_formed,
)
from conformance.toolkit._shown import show
from conformance.toolkit._situations import stretches

__all__ = [
    "BODY_GETS_THE_RECONCILIATION",
    "GUARD_HOLDS",
    "RECORDED_ONCE_RETURNED",
    "UNIDENTIFIED_CALLS_ANSWERED",
    "UNIDENTIFIED_CALLS_RUN",
    "UNWIRED_CALLS_ANSWERED",
    "ran_again",
    "ran_unidentified",
    "skipped_unrecorded",
]


def ran_again(trace: Trace) -> str | None:
    """Where a call whose execution returned was executed again in its turn's stretch
    (RT-TOOL-9 ¶1's words broken), or ``None``: a later pass reports it executed again, or
    its body ran in two runs of the stretch, the first having returned it.  A body cut
    before it returned was never recorded, and may run again; so may a call whose run's
    write-back failed (the run is retried from the state before it), a call of an earlier
    stretch, before a cut, and an identifier repeated inside one batch
    (docs/interpretations.md, guard-scope and same-batch-repeats)."""
    stretch = stretches(trace)
    returned: dict[tuple[object, ...], Seen] = {}
    for seen in seen_passes(trace):
        now: list[tuple[object, ...]] = []
        for index, result, call_id in guarded_results(seen):
            key: tuple[object, ...] = (*stretch[seen.run.id], call_id)
            first = returned.get(key)
            if result.disposition == "executed" and first is not None:
                return (
                    f"call {show(call_id, 60)} returned in run {first.run.id} ({first.run.cause}, "
                    f"at {first.at}) and was executed again in run {seen.run.id} "
                    f"({seen.run.cause}, at {seen.at}/results/{index}) of turn {seen.run.turn}"
                )
            if result.disposition in ("executed", "reused") and seen.run.end != "failed":
                now.append(key)  # it returned a result (its body's, or the journal's)
        for key in now:
            returned.setdefault(key, seen)
    return _body_ran_again(trace, stretch)


def _body_ran_again(trace: Trace, stretch: Mapping[str, tuple[str, str, int]]) -> str | None:
    """A body that ran in two runs of one stretch of a turn, its first run having
    returned it (the side effects say so even where a pass under-reports its results)."""
    first_run: dict[tuple[object, ...], RunRecord] = {}
    returned = {
        (seen.run.id, call_id)
        for seen in seen_passes(trace)
        for _, result, call_id in guarded_results(seen)
        if result.disposition == "executed" and seen.run.end != "failed"
    }
    doubtful = {i for seen in seen_passes(trace) for i in doubtful_ids(seen.one)}
    for run in trace.runs():
        for effect in run.side_effects:
            call_id = mapping(effect).get("tool_call_id")
            if not isinstance(call_id, str) or not call_id.strip() or call_id in doubtful:
                continue
            key = (*stretch[run.id], call_id)
            earlier = first_run.get(key)
            if earlier is None:
                first_run[key] = run
            elif earlier.id != run.id and (earlier.id, call_id) in returned:
                return (
                    f"the body of call {show(call_id, 60)} ran in run {earlier.id} "
                    f"({earlier.cause}), where it returned, and again in run {run.id} "
                    f"({run.cause}) of turn {run.turn}"
                )
    return None


def asked_again(scenario: Scenario, trace: Trace) -> str | None:
    """Where a gated call that returned was put to the operator again in its turn's
    stretch (RT-TOOL-9 ¶1: a recorded call is not invoked, and a gate is asked only of a
    call being invoked, ¶4), or ``None``: a run started by a decision paused once more
    although every gated call of its batch had had a decision by then, and a call of that
    batch that returned earlier was not among the results it reported.  Nothing but a
    returned call is left to ask about, so the runtime took it for one not recorded."""
    gated = {tool.name for tool in scenario.tools if tool.gate}
    stretch = stretches(trace)
    returned: dict[tuple[object, ...], str] = {}
    decisions: dict[tuple[object, ...], int] = {}
    for seen in seen_passes(trace):
        place = stretch[seen.run.id]
        if seen.run.cause in ("approve", "decline") and seen.order == _first_order(trace, seen):
            decisions[place] = decisions.get(place, 0) + 1
        calls = well_formed(seen.one.batch)
        asked = [c for c in calls if c.get("name") in gated and isinstance(identifier(c), str)]
        reported = {call_id for _, _, call_id in guarded_results(seen)}
        left = [
            str(identifier(c))
            for c in calls
            if (*place, identifier(c)) in returned and identifier(c) not in reported
        ]
        if (
            seen.one.paused
            and seen.run.cause in ("approve", "decline")
            and decisions.get(place, 0) >= len(asked)
            and left
        ):
            first = returned[(*place, left[0])]
            return (
                f"gated call {show(left[0], 60)} returned in run {first} and run "
                f"{seen.run.id} ({seen.run.cause}, at {seen.at}) paused once more, every "
                f"gated call of its batch decided, without reporting it"
            )
        for _, result, call_id in guarded_results(seen):
            if result.disposition in ("executed", "reused") and seen.run.end != "failed":
                returned.setdefault((*place, call_id), seen.run.id)
    return None


def _first_order(trace: Trace, seen: Seen) -> int:
    """The order of the first pass of ``seen``'s run (a decision is counted once a run)."""
    return next(other.order for other in seen_passes(trace) if other.run.id == seen.run.id)


def _guard_broken(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    return ran_again(trace) or asked_again(scenario, trace)


#: RT-TOOL-9 ¶1: "does not invoke a call whose identifier it has already recorded".  A
#: check that sends a repeat (to see it skipped, re-emitted, counted as no work) sees
#: through the guard: where the repeat ran again there is no repeat to judge.
GUARD_HOLDS = Channel(
    "the at-most-once guard (a call that returned is not run again in its turn)",
    "RT-TOOL-9#c1",
    _guard_broken,
)


def _finished(seen: Seen) -> bool | None:
    """Whether the pass ran to its end (``True``), the run failed in it (``False``), or
    neither can be said (paused, or cut by a time limit or a crash: ``None``)."""
    if seen.run.end == "failed" and (seen.one.cut or seen.one is seen.run.passes[-1]):
        return False
    if seen.one.cut or seen.one.paused:
        return None
    return True


def _unwired_unanswered(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    wired = {tool.name for tool in scenario.tools}
    for seen in seen_passes(trace):
        finished = _finished(seen)
        if finished is None:
            continue
        answered = {r.model_call_id for r in seen.one.results}
        for call in well_formed(seen.one.batch):
            name, call_id = call.get("name"), identifier(call)
            if not isinstance(name, str) or name in wired or not isinstance(call_id, str):
                continue
            if call_id not in answered:
                how = "the pass ended" if finished else "the run failed in the pass"
                return (
                    f"call {show(call_id, 60)} names {show(name, 60)}, a tool that is not "
                    f"wired, and {how} without a result for it (at {seen.at}/results)"
                )
    return None


#: RT-TOOL-10 ¶2: a call naming a tool that is not wired is handled, its recoverable "not
#: an available tool" result new.  A check that sends one beside what it judges sees
#: through that result: where the call is dropped, or fails the run, the pass it reports
#: is not the one the clause's words describe.
UNWIRED_CALLS_ANSWERED = Channel(
    "the result a call naming an unwired tool gets", "RT-TOOL-10#c2", _unwired_unanswered
)


def _unidentified_unanswered(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for seen in seen_passes(trace):
        if _finished(seen) is not False:
            continue
        sent = [call for call in well_formed(seen.one.batch) if identifier(call) is None]
        answered = [r for r, call in paired(seen.one) if identifier(call) is None]
        if len(answered) < len(sent):
            return (
                f"run {seen.run.id} failed in a pass with {len(sent)} calls without an "
                f"identifier, {len(answered)} of them answered (at {seen.at}/results)"
            )
    return _failed_unreported(trace)


def _failed_unreported(trace: Trace) -> str | None:
    """A run that failed having run the body of a call without an identifier, where no
    pass of it was reported: the pass failed before it could report the call."""
    for index, run in enumerate(trace.runs()):
        ran = [e for e in run.side_effects if mapping(e).get("tool_call_id", "") is None]
        if run.end == "failed" and ran and not run.passes:
            return (
                f"run {run.id} ran the body of a call without an identifier and failed "
                f"before any pass of it was reported (run {index} of the trace)"
            )
    return None


def ran_unidentified(trace: Trace) -> bool:
    """Whether the body of a call without an identifier ran in some run (a side effect
    under no identifier): such a call reached the runtime, whatever its pass reported."""
    return any(
        mapping(effect).get("tool_call_id", "") is None
        for run in trace.runs()
        for effect in run.side_effects
    )


#: RT-TOOL-10 ¶4: "a call with no identifier always runs and appears in neither while
#: setting `executed_any`".  A check that sends one sees through the pass that answers
#: it: where the run fails instead, nothing after that call was ever handled.
UNIDENTIFIED_CALLS_ANSWERED = Channel(
    "the pass that answers a call without an identifier", "RT-TOOL-10#c4", _unidentified_unanswered
)


def skipped_unrecorded(trace: Trace) -> str | None:
    """Where a call was reported skipped though no execution of its identifier had
    returned before (RT-TOOL-9 ¶4's words broken: "recorded only once it has returned a
    result ... never before it is invoked"), or ``None``.  Which first handlings are
    recorded (an unwired tool's, a declined call's) the rules leave open: any result
    counts as one."""
    returned: set[tuple[str, str]] = set()
    for seen in seen_passes(trace):
        conversation = seen.run.conversation
        for index, result, call_id in guarded_results(seen):
            key = (conversation, call_id)
            if result.disposition == "skipped" and key not in returned:
                return (
                    f"call {show(call_id, 60)} was skipped in run {seen.run.id} "
                    f"({seen.run.cause}, at {seen.at}/results/{index}), though no call with "
                    "its identifier had returned a result"
                )
            if result.disposition != "skipped":
                returned.add(key)
    return None


def _recorded_early(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    return skipped_unrecorded(trace)


#: RT-TOOL-9 ¶4: a call that paused for approval was never recorded, so it never looks
#: already executed.  A check of what a declined or approved call is reported as (work,
#: on ``executed``) sees through it.
RECORDED_ONCE_RETURNED = Channel(
    "a call recorded only once it returned", "RT-TOOL-9#c4", _recorded_early
)


def _unidentified_skipped(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for seen in seen_passes(trace):
        for result, call in paired(seen.one):
            if identifier(call) is None and result.disposition == "skipped":
                index = next(i for i, one in enumerate(seen.one.results) if one is result)
                return (
                    f"a call without an identifier was skipped in run {seen.run.id} (at "
                    f"{seen.at}/results/{index})"
                )
    return None


#: RT-TOOL-9 ¶5: "A call that carries no identifier cannot be guarded and always runs".
#: A check of the work such a call is (RT-TOOL-10 ¶4) sees through it: a call skipped as
#: a repeat did no work.
UNIDENTIFIED_CALLS_RUN = Channel(
    "a call without an identifier, run every time", "RT-TOOL-9#c5", _unidentified_skipped
)


def _body_differs(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for seen in seen_passes(trace):
        bodies = Counter(mapping(e).get("tool_call_id") for e in seen.run.side_effects)
        received = {
            mapping(e).get("tool_call_id"): mapping(e).get("input")
            for e in seen.run.side_effects
            if bodies[mapping(e).get("tool_call_id")] == 1
        }
        sent = Counter(mapping(call).get("tool_call_id") for call in well_formed(seen.one.batch))
        for index, result in enumerate(seen.one.results):
            call_id = result.model_call_id
            if result.arguments is None or call_id is None or sent[call_id] != 1:
                continue
            if call_id in received and received[call_id] != result.arguments:
                return (
                    f"call {show(call_id, 60)}'s result reports the reconciled arguments "
                    f"{show(result.arguments, 120)} and its body received "
                    f"{show(received[call_id], 120)} (at {seen.at}/results/{index})"
                )
    return None


#: RT-TOOL-8 ¶1: "Before a tool is invoked, the arguments a model supplied are
#: reconciled": the body receives the reconciliation.  A check that reads what a body
#: received (a repair of RT-TOOL-8, an identical retry of durable resume) sees through
#: it: where the body got other arguments than the reconciliation its result reports,
#: that is ¶1's.
BODY_GETS_THE_RECONCILIATION = Channel(
    "the tool body handed the reconciled arguments", "RT-TOOL-8#c1", _body_differs
)
