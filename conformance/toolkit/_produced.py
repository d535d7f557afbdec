"""What a trace says was produced and delivered, traced by canary.

Artifacts are traced by canary: every artifact the hunt's tools produce carries a string
unique to it (:data:`CANARY_PREFIX` and a number), so a canary seen twice was delivered
twice, and one seen where it does not belong leaked there.  The hunt's invariants of
RT-TOOL-1 … RT-TOOL-7 share these walkers, and :func:`no_loss` is the judge RT-TOOL-4 ¶1
and RT-TOOL-7 ¶1, ¶4 share.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import RunRecord, ToolResultRecord, Trace, TurnWire
from conformance.toolkit._json import mapping
from conformance.toolkit._shown import show, whereabouts
from conformance.toolkit._states import in_state
from conformance.toolkit._traces import delivered

__all__ = [
    "CANARY_PREFIX",
    "Produced",
    "Selector",
    "canaries_in",
    "canary_of",
    "canary_phrase",
    "emitting_tools",
    "message_canaries",
    "no_loss",
    "produced",
    "produced_counts",
    "produced_then_completed",
    "scripted_entries",
    "wire_canaries",
    "wires",
]

#: What every canary starts with.
CANARY_PREFIX = "cn-"


@dataclass(frozen=True)
class Produced:
    """An artifact a completed call produced."""

    canary: str
    conversation: str
    turn: str
    run_end: str
    seq: int
    tool: str
    tool_call_id: str | None
    type: str


def canary_of(entry: object) -> str | None:
    """The canary an artifact entry carries, if any."""
    found = mapping(mapping(entry).get("payload")).get("canary")
    return found if isinstance(found, str) and found.startswith(CANARY_PREFIX) else None


_CANARY = re.compile(re.escape(CANARY_PREFIX) + r"[0-9]+-[0-9]+-[0-9]+\.")


def canaries_in(value: object) -> list[str]:
    """Every canary mentioned anywhere in ``value``, keys and longer text included."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return _CANARY.findall(text) if CANARY_PREFIX in text else []


class _Same:
    """A cache key for a value that cannot be hashed (a trace, a wire): equal only to a
    key for the very same value, which it keeps alive so that no other value can take
    its identity.  Traces are never changed once made, so what was worked out from one
    holds for as long as it lives."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


def wire_canaries(wire: TurnWire) -> tuple[str, ...]:
    """Every canary a turn's wire mentions: ``canaries_in([wire.messages,
    wire.toolArtifacts])``, worked out once per wire (several invariants read every wire
    of a trace)."""
    messages, artifacts = _wire_canaries(_Same(wire))
    return messages + artifacts


def message_canaries(wire: TurnWire) -> tuple[str, ...]:
    """Every canary a turn's messages mention: ``canaries_in(wire.messages)``, worked out
    once per wire."""
    return _wire_canaries(_Same(wire))[0]


# A canary is one unbroken token, so the canaries of the two parts, one after the other,
# are those of the pair.  Enough entries for every wire of the largest generated trace:
# a cycle over more wires than the memo holds would miss every time.
@functools.lru_cache(maxsize=256)
def _wire_canaries(key: _Same) -> tuple[tuple[str, ...], tuple[str, ...]]:
    wire = key.value
    assert isinstance(wire, TurnWire)
    return tuple(canaries_in(wire.messages)), tuple(canaries_in(wire.toolArtifacts))


def produced(trace: Trace) -> dict[str, Produced]:
    """Every canary a call produced and returned successfully, in production order
    (worked out once per trace; each caller gets a dictionary of its own)."""
    return dict(_produced(_Same(trace)))


def _owed(trace: Trace) -> Iterator[tuple[RunRecord, ToolResultRecord, str, object]]:
    """``(run, result, canary, entry)`` of every artifact entry carrying a canary on the
    result of a call that ran and succeeded, in production order."""
    for run in trace.runs():
        for one in run.passes:
            for result in one.results:
                body = mapping(result.result)
                if result.disposition != "executed" or body.get("success") is not True:
                    continue
                attached = body.get("artifacts")
                for entry in attached if isinstance(attached, list) else ():
                    canary = canary_of(entry)
                    # An empty type may ride on the result and be refused at collection
                    # (docs/interpretations.md#empty-type): it is never owed a delivery.
                    if canary is not None and mapping(entry).get("type") != "":
                        yield run, result, canary, entry


@functools.lru_cache(maxsize=4)
def _produced(key: _Same) -> dict[str, Produced]:
    trace = key.value
    assert isinstance(trace, Trace)
    out: dict[str, Produced] = {}
    for run, result, canary, entry in _owed(trace):
        if canary not in out:
            out[canary] = Produced(
                canary,
                run.conversation,
                run.turn,
                run.end,
                len(out),
                str(result.tool),
                result.tool_call_id,
                str(mapping(entry).get("type")),
            )
    return out


def produced_counts(trace: Trace) -> Counter[str]:
    """How many artifacts carrying each canary the calls produced (a tool may emit the
    same artifact twice, and both are owed a delivery)."""
    return Counter(canary for _, _, canary, _ in _owed(trace))


def wires(trace: Trace, step: int | None = None) -> Iterator[tuple[int, str, str, TurnWire]]:
    """``(step index, conversation, turn, wire)`` of every turn after every step (or one)."""
    chosen = trace.steps if step is None else (trace.steps[step],)
    for record in chosen:
        for conversation, turns in record.wire.items():
            for label, wire in turns.items():
                yield record.index, conversation, label, wire


def scripted_entries(output: object) -> list[object]:
    """What a scripted tool output carries on its reserved key, as a list."""
    found = mapping(output).get("artifacts")
    return found if isinstance(found, list) else []


def emitting_tools(scenario: Scenario) -> set[str]:
    """The tools whose scripted output ever carries the reserved key."""
    return {
        tool.name
        for tool in scenario.tools
        if any("artifacts" in mapping(ret.output) for ret in tool.returns)
    }


def canary_phrase(canary: str | None) -> str:
    """A canary as a message names it: ``canary "cn-1-0-0."`` (the dot is part of it)."""
    return f"canary {show(canary)}"


def _call(tool_call_id: object) -> str:
    """``call c1``, or ``a call without an id``."""
    return f"call {tool_call_id}" if tool_call_id is not None else "a call without an id"


#: Which of the produced artifacts an invariant speaks of.
Selector = Callable[[Trace, Produced], bool]


def _completed_turns(trace: Trace, handshake: Handshake) -> dict[tuple[str, str], TurnWire]:
    """The turns completed after the last step, by ``(conversation, turn)``."""
    return {(c, t): w for _, c, t, w in wires(trace, -1) if in_state(handshake, w, "completed")}


def no_loss(selector: Selector) -> Callable[[Scenario, Trace, Handshake], str | None]:
    """The judge that every artifact ``selector`` picks is delivered once its turn
    completes."""

    def judge(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
        """Every artifact a completed call produced is delivered once its turn completes,
        unless a bound dropped it with a warning naming its call."""
        if not trace.steps:
            return None
        final = {(c, t): w for _, c, t, w in wires(trace, -1)}
        warned = {(w.tool_call_id, w.type) for w in trace.warnings()}
        for canary, made in produced(trace).items():
            wire = final.get((made.conversation, made.turn))
            if not in_state(handshake, wire, "completed") or made.run_end == "crashed":
                continue
            if not selector(trace, made) or (made.tool_call_id, made.type) in warned:
                continue
            if canary not in [canary_of(e) for e in delivered(wire)]:
                return (
                    f"{canary_phrase(canary)} ({made.type} from {made.tool} "
                    f"{_call(made.tool_call_id)}) was produced in turn {made.turn}, which "
                    "completed without delivering it in any message's toolArtifacts and "
                    f"without a warning; it {whereabouts(wire, canary)}"
                )
        return None

    return judge


def produced_then_completed(
    selector: Selector,
) -> Callable[[Scenario, Trace, Handshake], bool]:
    """Whether an artifact ``selector`` picks was produced in a turn that completed."""

    def exercised(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
        if not trace.steps:
            return False
        done = _completed_turns(trace, handshake)
        return any(
            (made.conversation, made.turn) in done and selector(trace, made)
            for made in produced(trace).values()
        )

    return exercised
