"""What RT-TOOL-9's checks observe through, beside the toolkit's guard: a repeat's
tool message re-emitted (¶3), and one decision per approve step (an assumption).

A repeat's stored message that is dropped instead of re-emitted is ¶3's gap ("Re-emitting
rather than dropping is required"): ¶2's check, which compares the re-emitted message
with the stored one, has nothing to compare then.

The assumption the gated checks make: each approve step decides one gated call.

A batch with two gated calls is approved by two approve steps, one for each pause.  A
runtime may instead decide every pending gate at once (one decision for the batch): no
clause says what one consent covers.  Its second approve step then finds nothing left
to decide, and is refused or ignored.  Where that happens, what the checks expected of
the second approval (that the call it approved ran) rests on a decision the trace does
not show: the case is untested, the assumption named, never failed.
"""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import Channel, located_passes, mapping, port, show

__all__ = ["EXECUTED_LISTS_NEW_CALLS", "ONE_DECISION_PER_APPROVAL", "REPEATS_RE_EMITTED"]


def _approval_decided_nothing(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for step in trace.steps:
        if step.op != "approve":
            continue
        if step.outcome == "refused":
            how = "was refused"
        elif step.outcome == "ok" and not step.runs:
            how = "started no run"
        else:
            continue  # it decided something (or the runtime failed: not this assumption)
        why = f" ({step.error.code or step.error.message})" if step.error is not None else ""
        return (
            f"the approve step at /steps/{step.index} {how}{why}: an earlier approval decided "
            "more than the one gated call it was given for"
        )
    return None


#: No clause promises it: one decision per approve step.
ONE_DECISION_PER_APPROVAL = Channel(
    "one decision per approve step (each approval decides one gated call)",
    None,
    _approval_decided_nothing,
)


def _repeat_dropped(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for at, _, one in located_passes(trace):
        if one.cut or one.paused:
            continue
        emitted = {mapping(m).get("tool_call_id") for m in one.tool_messages}
        for index, result in enumerate(one.results):
            if result.disposition == "skipped" and result.tool_call_id not in emitted:
                return (
                    f"the repeat of call {show(result.tool_call_id, 60)} is reported (at "
                    f"{at}/results/{index}) and its pass emits no tool message for it"
                )
    return None


#: RT-TOOL-9 ¶3: "Re-emitting rather than dropping is required".
REPEATS_RE_EMITTED = Channel(
    "the repeat's tool message, re-emitted rather than dropped", "RT-TOOL-9#c3", _repeat_dropped
)


def _repeat_listed(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    for at, _, one in located_passes(trace):
        listed = port(one, "executed")
        if one.cut or one.paused or not isinstance(listed, list):
            continue
        skipped = {r.tool_call_id for r in one.results if r.disposition == "skipped"}
        both = [call_id for call_id in listed if call_id in skipped]
        if both:
            return (
                f"the pass lists {show(both, 80)} on executed (at {at}/ports/executed), whose "
                "results say they were skipped"
            )
    return None


#: RT-TOOL-10 ¶1: ``executed`` is "the complement of the `skipped` list".  RT-TOOL-9's
#: example names what the executed output of a resumed run holds: it reads that port.
EXECUTED_LISTS_NEW_CALLS = Channel(
    "the executed output, the complement of skipped", "RT-TOOL-10#c1", _repeat_listed
)
