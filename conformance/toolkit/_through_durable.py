"""The channels of durable resume: what a DR case's observation goes through, and the
clause that makes it hold.

A case of DR-2, DR-3 or DR-4 plays a turn cut by its time limit and waits: what it then
judges (the resume prompt, the hard-block, the refusal) is the work of the run that
continues the turn on its own.  That continuation is DR-5 ¶1's promise, "When a turn is
stopped at its run time limit, it continues on its own in the same turn"; where a trace
shows the turn did not continue, what the case sees is DR-5 ¶1's failure, and DR-5 ¶1's
own cases fail it.

What a resumed run is told of a call, and what the hard-block answers it with, is the
journal's, and the journal is a read over the ledger (DR-1 ¶2): a call that returned is
completed only where the ledger holds its ``tool_done``, and its journaled result is the
one that ``tool_done`` carries.  Where the ledger holds no ``tool_done`` for a call that
returned, or one without its result, what a DR-2 or DR-3 case then sees (the call named
as interrupted, a null result reused) is DR-1 ¶1's failure, and DR-1 ¶1's own cases fail
it.
"""

from __future__ import annotations

from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Continue, Scenario, StartTurn, Stop, Wait
from adapters.trace import RunRecord, Trace
from conformance.toolkit._channels import Channel
from conformance.toolkit._json import mapping
from conformance.toolkit._resumed import completed_calls
from conformance.toolkit._resuming import cut_by
from conformance.toolkit._shown import show

__all__ = ["CONTINUES_ON_ITS_OWN", "LEDGER_RECORDS_RETURNS"]

#: DR-5 ¶3: "A turn continues automatically at most three times"; a cut after the third
#: automatic continuation ends the turn (¶5), and owes no continuation.
_AUTOMATIC_AT_MOST = 3


@dataclass(frozen=True)
class _Owed:
    """A time-limit cut a turn owes a continuation for: where it was, in which
    conversation."""

    at: str
    conversation: str


def _cut_by_its_time_limit(scenario: Scenario, run: RunRecord) -> bool:
    return run.end == "interrupted" and cut_by(scenario, run) == "time_limit"


def _continues_on_its_own(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Why the trace shows a turn cut by its time limit, with automatic continuations to
    spare, that did not continue on its own: the handshake declares a time limit does not
    resume a turn, or a wait that followed the cut (with no Stop or Continue of the turn
    carried out before it, nor a new message to its conversation) continued nothing at
    all."""
    declared = handshake.durable_resume
    refuses = declared is not None and "time_limit" not in declared.resumes_on_its_own
    automatic: dict[str, int] = {}
    owed: dict[str, _Owed] = {}
    for index, step in enumerate(trace.steps):
        armed = scenario.steps[index] if index < len(scenario.steps) else None
        if isinstance(armed, Stop | Continue) and step.outcome == "ok":
            owed.pop(armed.turn, None)  # stopped or continued by hand: nothing is owed now
        if isinstance(armed, StartTurn):
            # A new message may supersede a turn waiting to continue (DR-6 ¶4).
            for label in [k for k, v in owed.items() if v.conversation == armed.conversation]:
                owed.pop(label)
        continued = any(run.cause == "auto_continue" for run in step.runs)
        if isinstance(armed, Wait) and owed and step.outcome == "ok" and not continued:
            label, cut = next(iter(owed.items()))
            return (
                f"turn {label} was cut by its time limit (at {cut.at}) and the wait at "
                f"/steps/{index} continued no turn on its own"
            )
        for number, run in enumerate(step.runs):
            if run.cause == "auto_continue":
                automatic[run.turn] = automatic.get(run.turn, 0) + 1
                owed.pop(run.turn, None)
            if _cut_by_its_time_limit(scenario, run):
                if automatic.get(run.turn, 0) >= _AUTOMATIC_AT_MOST:
                    continue
                at = f"/steps/{index}/runs/{number}"
                if refuses:
                    return (
                        f"turn {run.turn} was cut by its time limit (at {at}), and the "
                        "handshake's durable_resume.resumes_on_its_own leaves time_limit out: "
                        "the turn does not continue on its own"
                    )
                owed[run.turn] = _Owed(at, run.conversation)
    return None


#: DR-5 ¶1: a turn stopped at its run time limit continues on its own, in the same turn.
CONTINUES_ON_ITS_OWN = Channel(
    "the turn continuing on its own after its time limit", "DR-5#c1", _continues_on_its_own
)


def _returns_unrecorded(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Why the ledger (where the harness reports one) does not record every call that
    returned: a ``tool_done`` carrying no result, or fewer ``tool_done`` events of a tool
    in a turn than calls of it returned there."""
    if trace.ledger is None:
        return None
    dones: dict[tuple[str, str], int] = {}
    for index, raw in enumerate(trace.ledger):
        event = mapping(raw)
        if event.get("event") != "tool_done":
            continue
        key = (str(event.get("turn")), str(event.get("tool")))
        dones[key] = dones.get(key, 0) + 1
        if event.get("result") is None:
            named = show(event.get("tool"))
            return f"the tool_done of {named} carries no result (at /ledger/{index})"
    returned: dict[tuple[str, str], int] = {}
    for run in trace.runs():
        for name, _ in completed_calls(run):
            returned[(run.turn, name)] = returned.get((run.turn, name), 0) + 1
    for (turn, name), count in sorted(returned.items()):
        if dones.get((turn, name), 0) < count:
            return (
                f"{count} calls of {show(name)} returned in turn {turn}, and the ledger holds "
                f"{dones.get((turn, name), 0)} tool_done events of it"
            )
    return None


#: DR-1 ¶1: a ``tool_done`` "carrying the tool name, the input and the result" is recorded
#: once a call "has returned".  A note's short result and a reused result are read
#: through it.
LEDGER_RECORDS_RETURNS = Channel(
    "the ledger's tool_done, with its result, of every call that returned",
    "DR-1#c1",
    _returns_unrecorded,
)
