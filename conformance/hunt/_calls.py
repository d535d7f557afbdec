"""Invariants about tool calls: the at-most-once guard, what a pass reports, and the shape
of every tool result (RT-TOOL-1, RT-TOOL-2 ¶3-¶5, RT-TOOL-9, RT-TOOL-10).

The guard's scope is the turn: every protocol run of a turn is one run in RT-TOOL-9's
sense (docs/interpretations.md#guard-scope).  What the rules leave open is never judged:
a call id repeated inside one batch, a repeat of an unwired or declined call, an id
reused in a later turn, and identifiers of a doubtful kind (an empty or blank string, a
number), which a runtime may treat as identifiers or as none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import PassRecord, RunRecord, ToolResultRecord, Trace
from conformance.checks._common import show
from conformance.hunt._invariant import Invariant, invariant
from conformance.hunt._produced import canaries_in
from conformance.hunt._reconcile import readings
from conformance.traces import located_passes

__all__ = ["CALL_INVARIANTS", "identifier", "paired", "well_formed"]

#: The dispositions of a call handled for the first time that did not run its tool body
#: by the RT-TOOL rules' choice (durable resume answers or refuses some calls instead).
_DURABLE = frozenset({"reused", "refused"})
_PLAIN = frozenset({"success", "data", "error"})


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def well_formed(batch: tuple[object, ...]) -> list[Mapping[str, object]]:
    """The calls of a batch that reach the guard (RT-TOOL-10 ¶4: a map whose name is a
    non-blank string or a number), in order."""
    out: list[Mapping[str, object]] = []
    for call in batch:
        name = call.get("name") if isinstance(call, Mapping) else None
        if isinstance(name, str | int | float) and not isinstance(name, bool) and str(name).strip():
            assert isinstance(call, Mapping)
            out.append(call)
    return out


def identifier(call: Mapping[str, object]) -> str | bool | None:
    """A call's identifier: the id when it is a non-blank string, ``None`` when it has
    none (absent or null), ``False`` when it is of a doubtful kind (an empty or blank
    string, a number, a boolean) that a runtime may read either way."""
    raw = call.get("tool_call_id")
    if raw is None:
        return None
    if isinstance(raw, str) and raw.strip():
        return raw
    return False


def paired(one: PassRecord) -> list[tuple[ToolResultRecord, Mapping[str, object]]]:
    """Each result of a pass with the call it answers: by identifier where the result
    names one the batch sent, else the next unanswered call in batch order (a call
    without an identifier, or with a doubtful one).  A result no call matches is left
    out (a harness that reports more results than calls is judged elsewhere)."""
    calls = well_formed(one.batch)
    used = [False] * len(calls)
    out: list[tuple[ToolResultRecord, Mapping[str, object]]] = []
    for result in one.results:
        match = next(
            (
                i
                for i, call in enumerate(calls)
                if not used[i]
                and isinstance(identifier(call), str)
                and call.get("tool_call_id") == result.tool_call_id
            ),
            None,
        )
        if match is None:
            match = next(
                (
                    i
                    for i, call in enumerate(calls)
                    if not used[i]
                    and not isinstance(identifier(call), str)
                    and str(call.get("name")) == str(result.tool)
                ),
                None,
            )
        if match is not None:
            used[match] = True
            out.append((result, calls[match]))
    return out


def _doubtful(one: PassRecord) -> set[str]:
    """The identifiers of a batch that may or may not count as identifiers, as strings."""
    return {
        str(call.get("tool_call_id"))
        for call in well_formed(one.batch)
        if identifier(call) is False
    }


@dataclass(frozen=True)
class _Seen:
    """A pass, with where it is, its run, and its place in the trace."""

    at: str
    run: RunRecord
    one: PassRecord
    order: int


def _passes(trace: Trace) -> Iterator[_Seen]:
    for order, (at, run, one) in enumerate(located_passes(trace)):
        yield _Seen(at, run, one, order)


def _guarded_results(seen: _Seen) -> Iterator[tuple[int, ToolResultRecord, str]]:
    """The pass's results whose identifier is certainly one: ``(index, result, id)``."""
    doubtful = _doubtful(seen.one)
    for index, result in enumerate(seen.one.results):
        call_id = result.tool_call_id
        if call_id is not None and call_id.strip() and call_id not in doubtful:
            yield index, result, call_id


# -- RT-TOOL-9 ---------------------------------------------------------------------------


def _chunks(trace: Trace) -> dict[str, tuple[str, str, int]]:
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
    stretch = _chunks(trace)
    returned: dict[tuple[object, ...], _Seen] = {}
    for seen in _passes(trace):
        now: list[tuple[object, ...]] = []
        for index, result, call_id in _guarded_results(seen):
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
        for seen in _passes(trace)
        for _, result, call_id in _guarded_results(seen)
        if result.disposition == "executed" and seen.run.end != "failed"
    }
    doubtful = {i for seen in _passes(trace) for i in _doubtful(seen.one)}
    for run in trace.runs():
        for effect in run.side_effects:
            call_id = _mapping(effect).get("tool_call_id")
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
    stretch = _chunks(trace)
    returned: set[tuple[object, ...]] = set()
    for seen in _passes(trace):
        for call in well_formed(seen.one.batch):
            call_id = identifier(call)
            if isinstance(call_id, str) and (*stretch[seen.run.id], call_id) in returned:
                return True
        for _, result, call_id in _guarded_results(seen):
            if result.disposition == "executed":
                returned.add((*stretch[seen.run.id], call_id))
    return False


def skipped_only_when_recorded(
    scenario: Scenario, trace: Trace, handshake: Handshake
) -> str | None:
    """A call is skipped only when an execution of its identifier returned before: a call
    that paused for approval, or was cut before it returned, was never recorded."""
    returned: set[tuple[str, str]] = set()
    for seen in _passes(trace):
        conversation = seen.run.conversation
        for index, result, call_id in _guarded_results(seen):
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
    for seen in _passes(trace):
        messages = [
            (_mapping(m).get("tool_call_id"), _mapping(m).get("content"))
            for m in seen.one.tool_messages
        ]
        fresh: dict[tuple[str, ...], list[tuple[object, object]]] = {}
        repeats = 0
        for index, result, call_id in _guarded_results(seen):
            # Stored per turn, and per conversation for a guard that spans it
            # (docs/interpretations.md#guard-scope).
            keys = (
                (seen.run.conversation, seen.run.turn, call_id),
                (seen.run.conversation, call_id),
            )
            success = _mapping(result.result).get("success")
            sent = [content for owner, content in messages if owner == call_id]
            if result.disposition == "executed":
                for key in keys:
                    fresh.setdefault(key, []).extend((success, c) for c in sent or [None])
            elif result.disposition == "skipped" and any(k in stored or k in fresh for k in keys):
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


def _outcome_problem(seen: _Seen) -> str | None:
    succeeded = sum(1 for r in seen.one.results if _mapping(r.result).get("success") is True)
    expected = {"succeeded": succeeded, "failed": len(seen.one.results) - succeeded}
    got = {key: _mapping(seen.one.outcome).get(key) for key in expected}
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
    wired tool without a gate (durable resume may answer or refuse it instead)."""
    plain = {tool.name for tool in scenario.tools if not tool.gate}
    for seen in _passes(trace):
        for index, result in enumerate(seen.one.results):
            if result.tool_call_id is None and result.disposition == "skipped":
                return (
                    f"a call without an identifier was skipped in run {seen.run.id} "
                    f"(at {seen.at}/results/{index})"
                )
        if seen.one.cut or seen.one.paused:
            continue
        sent = sum(
            1
            for call in well_formed(seen.one.batch)
            if identifier(call) is None and str(call.get("name")) in plain
        )
        ran = sum(
            1
            for result in seen.one.results
            if result.tool_call_id is None
            and str(result.tool) in plain
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


# -- RT-TOOL-10 --------------------------------------------------------------------------


def work_reported(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Every pass reports `executed_any` (true exactly when a call was handled for the
    first time), and `executed` and `skipped`, which partition the identified calls that
    reached the guard; a call without an identifier is in neither, a malformed call
    produces no result."""
    for seen in _passes(trace):
        one, at = seen.one, seen.at
        if one.cut:
            continue  # a partial pass reports what it did before the cut, nothing more
        ports = _mapping(one.ports)
        if len(one.results) > len(well_formed(one.batch)):
            return (
                f"a pass of run {seen.run.id} reports {len(one.results)} results for "
                f"{len(well_formed(one.batch))} well-formed calls (at {at}/results): a "
                "malformed call is dropped before the guard"
            )
        flag = ports.get("executed_any")
        if not isinstance(flag, bool):
            return f"a pass reports executed_any {show(flag)} (at {at}/ports/executed_any)"
        if not one.paused:
            handled = any(r.disposition != "skipped" for r in one.results)
            if flag is not handled:
                return (
                    f"a pass of run {seen.run.id} reports executed_any {show(flag)} (at "
                    f"{at}/ports/executed_any), but {_handled_phrase(one, handled)}"
                )
        problem = _partition_problem(seen, ports)
        if problem:
            return problem
    return None


def _handled_phrase(one: PassRecord, handled: bool) -> str:
    dispositions = [r.disposition for r in one.results]
    if handled:
        return f"its results show calls handled for the first time ({show(dispositions)})"
    return f"no call was handled for the first time (results: {show(dispositions)})"


def _partition_problem(seen: _Seen, ports: Mapping[str, object]) -> str | None:
    doubtful = _doubtful(seen.one)
    executed, skipped = ports.get("executed"), ports.get("skipped")
    for name, value in (("executed", executed), ("skipped", skipped)):
        if not isinstance(value, list):
            return f"a pass reports {name} {show(value)} (at {seen.at}/ports/{name}), not a list"
    assert isinstance(executed, list) and isinstance(skipped, list)
    want_executed = sorted(
        call_id for _, r, call_id in _guarded_results(seen) if r.disposition != "skipped"
    )
    want_skipped = sorted(
        call_id for _, r, call_id in _guarded_results(seen) if r.disposition == "skipped"
    )
    got_executed = sorted(str(i) for i in executed if str(i) not in doubtful)
    got_skipped = sorted(str(i) for i in skipped if str(i) not in doubtful)
    if got_executed != want_executed or got_skipped != want_skipped:
        return (
            f"a pass of run {seen.run.id} reports executed {show(executed)} and skipped "
            f"{show(skipped)} (at {seen.at}/ports); its results say executed "
            f"{show(want_executed)} and skipped {show(want_skipped)}"
        )
    return None


def _interesting_pass(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A pass of nothing new: empty, all malformed, or all repeats."""
    for _, one in trace.passes():
        if not one.cut and not any(r.disposition != "skipped" for r in one.results):
            return True
    return False


# -- RT-TOOL-1, RT-TOOL-2 ----------------------------------------------------------------


def result_shape(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Every tool result is `{success, data, error}`, plus `artifacts` only when at least
    one well-formed entry (a string `type`, a map `payload`) was attached."""
    for seen in _passes(trace):
        for index, result in enumerate(seen.one.results):
            at = f"{seen.at}/results/{index}/result"
            body = result.result
            if not isinstance(body, Mapping):
                return f"a tool result is {show(body)} (at {at}), not a map"
            keys = set(body)
            if keys not in (
                {"success", "data", "error"},
                {"success", "data", "error", "artifacts"},
            ):
                return f"a tool result has keys {show(sorted(keys))} (at {at})"
            if not isinstance(body.get("success"), bool):
                return f"a tool result's success is {show(body.get('success'))} (at {at})"
            if "artifacts" in body:
                attached = body["artifacts"]
                if not isinstance(attached, list) or not attached:
                    return f"a tool result carries artifacts {show(attached)} (at {at})"
                for number, entry in enumerate(attached):
                    if not (
                        isinstance(entry, Mapping)
                        and isinstance(entry.get("type"), str)
                        and isinstance(entry.get("payload"), Mapping)
                    ):
                        return (
                            f"a tool result attaches {show(entry)} (at {at}/artifacts/{number}),"
                            " which has no string type or no map payload"
                        )
    return None


def _any_result(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(one.results for _, one in trace.passes())


def _emitting(scenario: Scenario) -> set[str]:
    """The tools whose scripted output ever carries the reserved key."""
    return {
        tool.name
        for tool in scenario.tools
        if any("artifacts" in _mapping(ret.output) for ret in tool.returns)
    }


def artifacts_beside_data(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """The reserved key is removed from `data`, and no artifact is folded into it."""
    for seen in _passes(trace):
        for index, result in enumerate(seen.one.results):
            body = _mapping(result.result)
            if body.get("success") is not True:
                continue
            data, at = body.get("data"), f"{seen.at}/results/{index}/result/data"
            if isinstance(data, Mapping) and "artifacts" in data:
                return f"a result's data keeps the reserved artifacts key (at {at})"
            if canaries_in(data):
                return f"a result's data holds an artifact's payload {show(data)} (at {at})"
    return None


def _success_of_an_emitter(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    emitting = _emitting(scenario)
    return any(
        str(r.tool) in emitting and _mapping(r.result).get("success") is True
        for _, one in trace.passes()
        for r in one.results
    )


def failed_carries_none(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A call that failed or was declined carries no artifacts."""
    for seen in _passes(trace):
        for index, result in enumerate(seen.one.results):
            body = _mapping(result.result)
            failed = body.get("success") is False or result.disposition == "declined"
            if failed and "artifacts" in body:
                return (
                    f"a {result.disposition} call that did not succeed carries artifacts "
                    f"(at {seen.at}/results/{index}/result/artifacts)"
                )
    return None


def _failure_of_an_emitter(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    emitting = _emitting(scenario)
    return any(
        str(r.tool) in emitting
        and (_mapping(r.result).get("success") is False or r.disposition == "declined")
        for _, one in trace.passes()
        for r in one.results
    )


# -- RT-TOOL-8 ---------------------------------------------------------------------------


def arguments_reconciled(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """What a tool body receives, and what a result reports as the reconciled arguments,
    is the model's arguments reconciled with the tool's schema: JSON strings decoded for
    declared array and object parameters when the shape matches, character references
    decoded until stable, keys and plain text untouched (RT-TOOL-8)."""
    schemas = {tool.name: tool.input_schema for tool in scenario.tools}
    bound = handshake.limits.normalize_passes
    for seen in _passes(trace):
        # What a body received, where one body ran for the id (a batch may send an id
        # twice, and which body got which arguments is then not known).
        bodies = Counter(_mapping(e).get("tool_call_id") for e in seen.run.side_effects)
        received = {
            _mapping(e).get("tool_call_id"): _mapping(e).get("input")
            for e in seen.run.side_effects
            if bodies[_mapping(e).get("tool_call_id")] == 1
        }
        for index, (result, call) in enumerate(paired(seen.one)):
            name = str(result.tool)
            # Reported arguments are judged even where validation then refused the call.
            if result.disposition not in ("executed", "invalid") or name not in schemas:
                continue
            expected = readings(call.get("args"), schemas[name], bound)
            call_id = result.tool_call_id
            got = [result.arguments] if result.arguments is not None else []
            sent = sum(1 for c in well_formed(seen.one.batch) if c.get("tool_call_id") == call_id)
            if call_id is not None and call_id in received and sent == 1:
                got.append(received[call_id])
            for value in got:
                if value not in expected:
                    return (
                        f"{name} was sent {show(call.get('args'))} and received or reported "
                        f"{show(value)} (at {seen.at}/results/{index}); reconciled with its "
                        f"schema it is {show(expected[0])}"
                    )
    return None


def _reconciling_call(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    declared = {t.name for t in scenario.tools if _mapping(t.input_schema).get("properties")}
    return any(
        r.disposition in ("executed", "invalid") and str(r.tool) in declared
        for _, one in trace.passes()
        for r in one.results
    )


CALL_INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "at-most-once",
        ("RT-TOOL-9#c1",),
        at_most_once,
        "a call sent again in a later pass of its turn after it returned",
        _repeated_later,
    ),
    invariant(
        "skipped-only-when-recorded",
        ("RT-TOOL-9#c4",),
        skipped_only_when_recorded,
        "a batch re-issued after an approval",
        _approved,
    ),
    invariant(
        "repeat-re-emitted",
        ("RT-TOOL-9#c2", "RT-TOOL-9#c3"),
        repeat_re_emitted,
        "a repeat skipped",
        _repeat_skipped,
    ),
    invariant(
        "unguarded-always-runs",
        ("RT-TOOL-9#c5",),
        unguarded_always_runs,
        "a call without an identifier sent a second time",
        _unguarded_sent_again,
    ),
    invariant(
        "work-reported",
        ("RT-TOOL-10#c1", "RT-TOOL-10#c2", "RT-TOOL-10#c3", "RT-TOOL-10#c4"),
        work_reported,
        "a pass that handled nothing for the first time",
        _interesting_pass,
    ),
    invariant(
        "result-shape",
        ("RT-TOOL-1#c1", "RT-TOOL-1#c2", "RT-TOOL-2#c3"),
        result_shape,
        "a tool result",
        _any_result,
    ),
    invariant(
        "artifacts-beside-data",
        ("RT-TOOL-1#c3", "RT-TOOL-2#c4"),
        artifacts_beside_data,
        "a successful call of a tool that emits artifacts",
        _success_of_an_emitter,
    ),
    invariant(
        "arguments-reconciled",
        ("RT-TOOL-8#c1", "RT-TOOL-8#c2", "RT-TOOL-8#c3", "RT-TOOL-8#c4", "RT-TOOL-8#c5"),
        arguments_reconciled,
        "a call whose tool declares array, object and string parameters",
        _reconciling_call,
    ),
    invariant(
        "failed-carries-none",
        ("RT-TOOL-2#c5",),
        failed_carries_none,
        "a failed or declined call of a tool that emits artifacts",
        _failure_of_an_emitter,
    ),
)
