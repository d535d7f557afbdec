"""An assumption RT-TOOL-9's gated checks make of a trace: each approve step decides one
gated call.

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
from conformance.toolkit import Channel

__all__ = ["ONE_DECISION_PER_APPROVAL"]


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
