"""RT-TOOL-10's invariant: what every pass reports of the work it did."""

from __future__ import annotations

from collections.abc import Mapping

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import PassRecord, Trace
from conformance.checks.rt_tool_10._work import repeats_reported_as_work
from conformance.toolkit import (
    GUARD_HOLDS,
    RECORDED_ONCE_RETURNED,
    UNIDENTIFIED_CALLS_RUN,
    Breach,
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

__all__ = ["INVARIANTS"]

#: The clauses of RT-TOOL-10 the invariant judges, each charged with what breaks its words.
C1, C2, C3, C4 = (f"RT-TOOL-10#c{number}" for number in range(1, 5))


def work_reported(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Every pass reports `executed_any` (true exactly when a call was handled for the
    first time), and `executed` and `skipped`, which partition the identified calls that
    reached the guard; a call without an identifier is in neither, a malformed call
    produces no result."""
    for seen in seen_passes(trace):
        one, at = seen.one, seen.at
        if one.cut:
            continue  # a partial pass reports what it did before the cut, nothing more
        ports = mapping(one.ports)
        if len(one.results) > len(well_formed(one.batch)):
            return Breach(
                f"a pass of run {seen.run.id} reports {len(one.results)} results for "
                f"{len(well_formed(one.batch))} well-formed calls (at {at}/results): a "
                "malformed call is dropped before the guard",
                (C4,),
                through=(),
            )
        flag = ports.get("executed_any")
        if not isinstance(flag, bool):
            return Breach(
                f"a pass reports executed_any {show(flag)} (at {at}/ports/executed_any)",
                (C1,),
                through=(),
            )
        if not one.paused:
            handled = any(r.disposition != "skipped" for r in one.results)
            if flag is not handled:
                return Breach(
                    f"a pass of run {seen.run.id} reports executed_any {show(flag)} (at "
                    f"{at}/ports/executed_any), but {_handled_phrase(one, handled)}",
                    (_work_clause(trace, one, handled),),
                )
        problem = _partition_problem(seen, ports)
        if problem:
            return problem
    return None


def _work_clause(trace: Trace, one: PassRecord, handled: bool) -> str:
    """Whose words an ``executed_any`` at odds with the pass's results breaks: an empty
    batch's ¶3; work left unreported where the only new calls carry no identifier ("a
    call with no identifier ... setting executed_any"), or reported where malformed calls
    were sent ("a malformed call ... leaves executed_any false"), ¶4's, unless a pass of
    nothing but repeats reports work too (the repeats', then); otherwise ¶2's
    (first-time handling is work, a repeat is not)."""
    if not one.batch:
        return C3
    if handled:
        fresh = [call for result, call in paired(one) if result.disposition != "skipped"]
        return C4 if fresh and all(identifier(call) is None for call in fresh) else C2
    malformed = len(well_formed(one.batch)) < len(one.batch)
    return C4 if malformed and repeats_reported_as_work(trace) is None else C2


def _handled_phrase(one: PassRecord, handled: bool) -> str:
    dispositions = [r.disposition for r in one.results]
    if handled:
        return f"its results show calls handled for the first time ({show(dispositions)})"
    return f"no call was handled for the first time (results: {show(dispositions)})"


def _partition_problem(seen: Seen, ports: Mapping[str, object]) -> str | None:
    doubtful = doubtful_ids(seen.one)
    executed, skipped = ports.get("executed"), ports.get("skipped")
    for name, value in (("executed", executed), ("skipped", skipped)):
        if not isinstance(value, list):
            return Breach(
                f"a pass reports {name} {show(value)} (at {seen.at}/ports/{name}), not a list",
                (C1,),
            )
    assert isinstance(executed, list) and isinstance(skipped, list)
    want_executed = sorted(
        call_id for _, r, call_id in guarded_results(seen) if r.disposition != "skipped"
    )
    want_skipped = sorted(
        call_id for _, r, call_id in guarded_results(seen) if r.disposition == "skipped"
    )
    got_executed = sorted(str(i) for i in executed if str(i) not in doubtful)
    got_skipped = sorted(str(i) for i in skipped if str(i) not in doubtful)
    if got_executed != want_executed or got_skipped != want_skipped:
        # An id the model never sent is a call without one that was listed: ¶4's words.
        sent = {str(mapping(call).get("tool_call_id")) for call in well_formed(seen.one.batch)}
        listed = set(got_executed) | set(got_skipped)
        return Breach(
            f"a pass of run {seen.run.id} reports executed {show(executed)} and skipped "
            f"{show(skipped)} (at {seen.at}/ports); its results say executed "
            f"{show(want_executed)} and skipped {show(want_skipped)}",
            (C4,) if listed - sent else (C1,),
        )
    return None


def _interesting_pass(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A pass of nothing new: empty, all malformed, or all repeats."""
    for _, one in trace.passes():
        if not one.cut and not any(r.disposition != "skipped" for r in one.results):
            return True
    return False


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "work-reported",
        (C1, C2, C3, C4),
        work_reported,
        "a pass that handled nothing for the first time",
        _interesting_pass,
        rank=210,
        # Which calls are repeats is the guard's (RT-TOOL-9 ¶1, ¶4, ¶5).
        through=(GUARD_HOLDS, RECORDED_ONCE_RETURNED, UNIDENTIFIED_CALLS_RUN),
    ),
)
