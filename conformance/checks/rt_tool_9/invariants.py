"""RT-TOOL-9's invariants: the at-most-once guard.

The guard's scope is the turn: every protocol run of a turn is one run in RT-TOOL-9's
sense (docs/interpretations.md#guard-scope).  What the rules leave open is never judged:
a call id repeated inside one batch, a repeat of an unwired or declined call or of one
whose arguments were refused, an id reused in a later turn, and identifiers of a
doubtful kind (an empty or blank string, a number), which a runtime may treat as
identifiers or as none.
"""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    UNIDENTIFIED_CALLS_ANSWERED,
    Breach,
    Invariant,
    Seen,
    guarded_results,
    identifier,
    invariant,
    mapping,
    paired,
    ran_again,
    seen_passes,
    show,
    skipped_unrecorded,
    stretches,
    well_formed,
)

__all__ = ["INVARIANTS", "stretches"]


#: The clauses of RT-TOOL-9 ¶2 and ¶3, which a repeat's re-emission is charged to.
C2, C3 = "RT-TOOL-9#c2", "RT-TOOL-9#c3"


def at_most_once(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A call whose execution returned is never executed again in its turn: a later pass
    (after an answer, an approval, a decline, or a restart during the pause) skips it.
    A body cut before it returned was never recorded, and may run again; so may a call
    whose run's write-back failed (the run is retried from the state before it), and a
    call of an earlier stretch of the turn, before a cut (docs/interpretations.md).  The
    same test is the channel :data:`~conformance.toolkit.GUARD_HOLDS` other clauses'
    cases observe repeats through."""
    return ran_again(trace)


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
    that paused for approval, or was cut before it returned, was never recorded.  The
    same test is the channel :data:`~conformance.toolkit.RECORDED_ONCE_RETURNED`."""
    return skipped_unrecorded(trace)


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
                    return Breach(
                        f"the repeat of call {show(call_id, 60)} re-emits success "
                        f"{show(success)} (at {seen.at}/results/{index}), but its first "
                        f"execution's was {show(candidates[0][0])}",
                        (C2,),
                    )
                stored_messages = {m for _, m in candidates} - {None}
                # A pass cut or paused midway may not have fed its messages back yet, and
                # a paused pass may have stored none: nothing to compare with then.
                complete = not seen.one.paused and not seen.one.cut
                if complete and stored_messages and not any(c in stored_messages for c in sent):
                    # None at all is the repeat dropped (¶3: "Re-emitting rather than
                    # dropping is required"); another message, the stored one not
                    # re-emitted (¶2).
                    return Breach(
                        f"the repeat of call {show(call_id, 60)} emits the tool messages "
                        f"{show(sent)} (at {seen.at}/tool_messages), not the stored "
                        f"{show(candidates[0][1])}",
                        (C2,) if sent else (C3,),
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
        # ¶2: the stored result is "counted in the batch's outcome".
        return Breach(
            f"a pass with a repeat reports the outcome {show(got)} (at {seen.at}/outcome); "
            f"its results count {show(expected)}",
            (C2,),
        )
    return None


def _repeat_skipped(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(r.disposition == "skipped" for _, one in trace.passes() for r in one.results)


def unguarded_always_runs(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A call without an identifier is never skipped, and is handled every time it is sent
    to a wired tool without a gate: its body runs, or its arguments are refused by
    validation, or durable resume answers or refuses it; what it never is, is guarded.
    A call the model sent without an identifier stays one when the runtime gives it an id
    of its own: its result is paired with the call it answers, not read by its id.  Where
    a pass reports no result for such a call, the run's side effects are read: a body that
    ran was not guarded, whatever became of its output.  A pass the run failed in is not
    judged: what it never handled is RT-TOOL-10 ¶4's (the channel
    :data:`~conformance.toolkit.UNIDENTIFIED_CALLS_ANSWERED`)."""
    plain = {tool.name for tool in scenario.tools if not tool.gate}
    earlier: list[tuple[object, ...]] = []
    sent: dict[str, int] = {}
    answered: dict[str, tuple[int, str]] = {}
    for seen in seen_passes(trace):
        results = paired(seen.one)
        unguarded = [result for result, call in results if identifier(call) is None]
        for result in unguarded:
            if result.disposition == "skipped":
                index = next(i for i, one in enumerate(seen.one.results) if one is result)
                return (
                    f"a call without an identifier was skipped in run {seen.run.id} "
                    f"(at {seen.at}/results/{index})"
                )
        again = seen.one.batch in earlier
        earlier.append(seen.one.batch)
        if seen.one.cut or seen.one.paused or _failed_in(seen):
            continue
        if again and len(results) < len(well_formed(seen.one.batch)):
            # A later pass over the same reply that handled only part of it (the approved
            # call alone, a framework answering one call again): the batch was not sent
            # again, and its calls without an id ran where it was handled first.
            continue
        run_id = seen.run.id
        sent[run_id] = sent.get(run_id, 0) + sum(
            1
            for call in well_formed(seen.one.batch)
            if identifier(call) is None and str(call.get("name")) in plain
        )
        handled = sum(1 for result in unguarded if str(result.tool) in plain)
        before, _ = answered.get(run_id, (0, ""))
        answered[run_id] = (before + handled, f"{seen.at}/results")
    for run in trace.runs():
        count = sent.get(run.id, 0)
        handled, at = answered.get(run.id, (0, ""))
        if handled >= count or _bodies_without_an_id(run, plain) >= count:
            continue
        return (
            f"{count} calls without an identifier were sent to wired tools in run {run.id}, "
            f"{handled} were answered (last at {at}) and {_bodies_without_an_id(run, plain)} "
            "tool bodies ran for calls without one"
        )
    return None


def _failed_in(seen: Seen) -> bool:
    """Whether the run failed in this pass (it never finished it)."""
    return seen.run.end == "failed" and (seen.one.cut or seen.one is seen.run.passes[-1])


def _bodies_without_an_id(run: RunRecord, plain: set[str]) -> int:
    """How many bodies of ``plain`` tools ran in ``run`` for calls the model sent without
    an identifier: every body not named by an identifier the run's batches sent (a
    runtime may give such a call an id of its own)."""
    named = {
        identifier(call)
        for one in run.passes
        for call in well_formed(one.batch)
        if isinstance(identifier(call), str)
    }
    return sum(
        1
        for effect in run.side_effects
        if str(mapping(effect).get("tool")) in plain
        and mapping(effect).get("tool_call_id") not in named
    )


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
        (C2, C3),
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
        through=(UNIDENTIFIED_CALLS_ANSWERED,),
    ),
)
