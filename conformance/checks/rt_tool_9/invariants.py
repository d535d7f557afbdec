"""RT-TOOL-9's invariants: the at-most-once guard.

The guard's scope is the turn: every protocol run of a turn is one run in RT-TOOL-9's
sense (docs/interpretations.md#guard-scope).  What the rules leave open is never judged:
a call id repeated inside one batch, a repeat of an unwired or declined call or of one
whose arguments were refused, an id reused in a later turn, and identifiers of a
doubtful kind (an empty or blank string, a number), which a runtime may treat as
identifiers or as none.
"""

from __future__ import annotations

from collections.abc import Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    Invariant,
    Seen,
    doubtful_ids,
    guarded_results,
    identifier,
    invariant,
    mapping,
    paired,
    seen_passes,
    show,
    well_formed,
)

__all__ = ["INVARIANTS", "stretches"]

#: The dispositions of a call handled for the first time that did not run its tool body
#: by the RT-TOOL rules' choice (durable resume answers or refuses some calls instead).
_DURABLE = frozenset({"reused", "refused"})


def stretches(trace: Trace) -> dict[str, tuple[str, str, int]]:
    """Each run's stretch of its turn: ``(conversation, turn, cuts before it)``.  The
    guard's record must last across pauses; whether it lasts across a cut and the run
    that resumes it, the rules leave open (docs/interpretations.md#guard-scope)."""
    cuts: dict[tuple[str, str], int] = {}
    out: dict[str, tuple[str, str, int]] = {}
    for run in trace.runs():
        key = (run.conversation, run.turn)
        out[run.id] = (*key, cuts.get(key, 0))
        if run.end in ("interrupted", "crashed"):
            cuts[key] = cuts.get(key, 0) + 1
    return out


def at_most_once(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A call whose execution returned is never executed again in its turn: a later pass
    (after an answer, an approval, a decline, or a restart during the pause) skips it.
    A body cut before it returned was never recorded, and may run again; so may a call
    whose run's write-back failed (the run is retried from the state before it), and a
    call of an earlier stretch of the turn, before a cut (docs/interpretations.md)."""
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
    return _ran_again(trace, stretch)


def _ran_again(trace: Trace, stretch: Mapping[str, tuple[str, str, int]]) -> str | None:
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


def _repeated_later(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A call id that returned is sent again in a later pass of its turn's stretch."""
    stretch = stretches(trace)
    returned: set[tuple[object, ...]] = set()
    for seen in seen_passes(trace):
        for call in well_formed(seen.one.batch):
            call_id = identifier(call)
            if isinstance(call_id, str) and (*stretch[seen.run.id], call_id) in returned:
                return True
        for _, result, call_id in guarded_results(seen):
            if result.disposition == "executed":
                returned.add((*stretch[seen.run.id], call_id))
    return False


def skipped_only_when_recorded(
    scenario: Scenario, trace: Trace, handshake: Handshake
) -> str | None:
    """A call is skipped only when an execution of its identifier returned before: a call
    that paused for approval, or was cut before it returned, was never recorded."""
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
                # Which first handlings are recorded (an unwired tool's, a declined call's)
                # the rules leave open: any result may have been.
                returned.add(key)
    return None


def _approved(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(run.cause == "approve" and run.passes for run in trace.runs())


def repeat_re_emitted(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A skipped repeat re-emits what was stored of its first execution, the tool message
    and whether it succeeded, and the pass's outcome counts it as that execution came
    out.  (What else its result holds is not the guard's: artifacts were delivered once
    and are not re-attached.)"""
    # Per call id, what its latest execution stored: several candidates where one batch
    # executed it twice, since which of them the record keeps is the runtime's
    # (docs/interpretations.md#same-batch-repeats).
    stored: dict[tuple[str, ...], list[tuple[object, object]]] = {}
    # Per turn, the call ids whose first handling there did not run the tool (an unwired
    # tool, arguments refused, a declined call, a journal's answer).  Whether that
    # handling is recorded is the runtime's choice, so a repeat of it is not judged, even
    # where an earlier turn executed the id: a guard kept per turn re-emits its own turn's
    # record, not the earlier turn's (docs/interpretations.md#guard-scope).
    unexecuted: set[tuple[str, ...]] = set()
    for seen in seen_passes(trace):
        messages = [
            (mapping(m).get("tool_call_id"), mapping(m).get("content"))
            for m in seen.one.tool_messages
        ]
        fresh: dict[tuple[str, ...], list[tuple[object, object]]] = {}
        repeats = 0
        for index, result, call_id in guarded_results(seen):
            # Stored per turn, and per conversation for a guard that spans it
            # (docs/interpretations.md#guard-scope).
            keys = (
                (seen.run.conversation, seen.run.turn, call_id),
                (seen.run.conversation, call_id),
            )
            success = mapping(result.result).get("success")
            sent = [content for owner, content in messages if owner == call_id]
            if result.disposition == "executed":
                for key in keys:
                    fresh.setdefault(key, []).extend((success, c) for c in sent or [None])
            elif result.disposition != "skipped":
                unexecuted.add(keys[0])
            elif keys[0] in unexecuted and keys[0] not in stored and keys[0] not in fresh:
                continue
            elif any(k in stored or k in fresh for k in keys):
                repeats += 1
                # A repeat inside the batch re-emits what this pass just stored.
                candidates = [c for k in keys for c in fresh.get(k, []) + stored.get(k, [])]
                if success not in {first for first, _ in candidates}:
                    return (
                        f"the repeat of call {show(call_id, 60)} re-emits success "
                        f"{show(success)} (at {seen.at}/results/{index}), but its first "
                        f"execution's was {show(candidates[0][0])}"
                    )
                stored_messages = {m for _, m in candidates} - {None}
                # A pass cut or paused midway may not have fed its messages back yet, and
                # a paused pass may have stored none: nothing to compare with then.
                complete = not seen.one.paused and not seen.one.cut
                if complete and stored_messages and not any(c in stored_messages for c in sent):
                    return (
                        f"the repeat of call {show(call_id, 60)} emits the tool messages "
                        f"{show(sent)} (at {seen.at}/tool_messages), not the stored "
                        f"{show(candidates[0][1])}"
                    )
        stored.update(fresh)
        if repeats and not seen.one.cut:
            problem = _outcome_problem(seen)
            if problem:
                return problem
    return None


def _outcome_problem(seen: Seen) -> str | None:
    succeeded = sum(1 for r in seen.one.results if mapping(r.result).get("success") is True)
    expected = {"succeeded": succeeded, "failed": len(seen.one.results) - succeeded}
    got = {key: mapping(seen.one.outcome).get(key) for key in expected}
    if got != expected:
        return (
            f"a pass with a repeat reports the outcome {show(got)} (at {seen.at}/outcome); "
            f"its results count {show(expected)}"
        )
    return None


def _repeat_skipped(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(r.disposition == "skipped" for _, one in trace.passes() for r in one.results)


def unguarded_always_runs(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A call without an identifier is never skipped, and runs every time it is sent to a
    wired tool without a gate (durable resume may answer or refuse it instead).  A call
    the model sent without an identifier stays one when the runtime gives it an id of
    its own: its result is paired with the call it answers, not read by its id."""
    plain = {tool.name for tool in scenario.tools if not tool.gate}
    earlier: list[tuple[object, ...]] = []
    for seen in seen_passes(trace):
        answered = paired(seen.one)
        unguarded = [result for result, call in answered if identifier(call) is None]
        for result in unguarded:
            if result.disposition == "skipped":
                index = next(i for i, one in enumerate(seen.one.results) if one is result)
                return (
                    f"a call without an identifier was skipped in run {seen.run.id} "
                    f"(at {seen.at}/results/{index})"
                )
        again = seen.one.batch in earlier
        earlier.append(seen.one.batch)
        if seen.one.cut or seen.one.paused:
            continue
        if again and len(answered) < len(well_formed(seen.one.batch)):
            # A later pass over the same reply that handled only part of it (the approved
            # call alone, a framework answering one call again): the batch was not sent
            # again, and its calls without an id ran where it was handled first.
            continue
        sent = sum(
            1
            for call in well_formed(seen.one.batch)
            if identifier(call) is None and str(call.get("name")) in plain
        )
        ran = sum(
            1
            for result in unguarded
            if str(result.tool) in plain
            and (result.disposition == "executed" or result.disposition in _DURABLE)
        )
        if ran < sent:
            return (
                f"{sent} calls without an identifier were sent to wired tools in one pass of "
                f"run {seen.run.id}, {ran} ran (at {seen.at}/results)"
            )
    return None


def _unguarded_sent_again(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    sent = 0
    for _, one in trace.passes():
        sent += sum(1 for call in well_formed(one.batch) if identifier(call) is None)
        if sent >= 2:
            return True
    return False


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "at-most-once",
        ("RT-TOOL-9#c1",),
        at_most_once,
        "a call sent again in a later pass of its turn after it returned",
        _repeated_later,
        rank=170,
    ),
    invariant(
        "skipped-only-when-recorded",
        ("RT-TOOL-9#c4",),
        skipped_only_when_recorded,
        "a batch re-issued after an approval",
        _approved,
        rank=180,
    ),
    invariant(
        "repeat-re-emitted",
        ("RT-TOOL-9#c2", "RT-TOOL-9#c3"),
        repeat_re_emitted,
        "a repeat skipped",
        _repeat_skipped,
        rank=190,
    ),
    invariant(
        "unguarded-always-runs",
        ("RT-TOOL-9#c5",),
        unguarded_always_runs,
        "a call without an identifier sent a second time",
        _unguarded_sent_again,
        rank=200,
    ),
)
