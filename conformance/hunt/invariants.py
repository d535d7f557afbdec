"""Invariants the hunt holds every generated scenario to, each bound to its clauses.

A failure lands on the clauses of the invariant that caught it.  Each returns ``None``
when the trace satisfies it, else a one-line reason.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from adapters.handshake import Handshake
from adapters.scenario import FailLedgerRead, Scenario
from adapters.trace import RunRecord, Trace
from conformance.checks._common import listing, show, whereabouts
from conformance.checks._states import in_state
from conformance.hunt._produced import canaries_in, canary_of, produced, wires
from conformance.traces import delivered, locate, pointers

__all__ = ["INVARIANTS", "Invariant", "Violation"]

Verdict = Callable[[Scenario, Trace, Handshake], str | None]


class Violation(AssertionError):
    """An invariant does not hold; ``scenario`` and ``trace`` are the evidence."""

    invariant: str = ""

    def __init__(self, message: str, scenario: Scenario, trace: Trace) -> None:
        super().__init__(message)
        self.message = message
        self.scenario = scenario
        self.trace = trace


@dataclass(frozen=True)
class Invariant:
    """A named property, the clauses it enforces, and what it needs to be judged."""

    name: str
    clauses: tuple[str, ...]
    judge: Verdict
    needs: tuple[str, ...] = ()
    profile: str = "runtime"
    violation: type[Violation] = Violation


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _canary(canary: str | None) -> str:
    """A canary as a message names it: ``canary "cn-1-0-0."`` (the dot is part of it)."""
    return f"canary {show(canary)}"


def no_loss(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
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
        if (made.tool_call_id, made.type) in warned:
            continue
        if canary not in [canary_of(e) for e in delivered(wire)]:
            return (
                f"{_canary(canary)} ({made.type} from {made.tool} {_call(made.tool_call_id)}) "
                f"was produced in turn {made.turn}, which completed without delivering it in "
                f"any message's toolArtifacts and without a warning; it "
                f"{whereabouts(wire, canary)}"
            )
    return None


def no_double_delivery(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """No canary is delivered on two messages, or twice on one."""
    for index, _conversation, turn, wire in wires(trace):
        seen = Counter(canary_of(e) for step_wire in [wire] for e in delivered(step_wire))
        del seen[None]
        twice = [c for c, n in seen.items() if n > 1]
        if twice:
            return (
                f"after step {index}, turn {turn} carries {_canary(twice[0])} "
                f"{seen[twice[0]]} times"
            )
    if trace.steps:
        everywhere = Counter(canary_of(e) for _, _, _, w in wires(trace, -1) for e in delivered(w))
        del everywhere[None]
        twice = [c for c, n in everywhere.items() if n > 1]
        if twice:
            return f"{_canary(twice[0])} is delivered on {everywhere[twice[0]]} messages"
    return None


def held_off_wire(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Nothing produced before a turn paused is on the wire while the turn is paused.

    Only a pause holds artifacts (RT-TOOL-7): a run cut by a time limit or an error may
    persist what it collected on the last message it wrote (RT-TOOL-4 ¶1), so a turn that
    is resuming or stopped is not held to this."""
    for index, _conversation, turn, wire in wires(trace):
        if not in_state(handshake, wire, "paused"):
            continue
        shown = canaries_in([wire.messages, wire.toolArtifacts])
        if shown:
            return (
                f"after step {index}, turn {turn} is paused but its wire shows "
                f"{_canary(shown[0])} at {listing(locate(wire, shown[0]))}"
            )
    return None


def no_metadata_leak(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """No canary anywhere under any message's metadata."""
    for index, _conversation, turn, wire in wires(trace):
        for number, row in enumerate(wire.messages):
            metadata = _mapping(row).get("metadata")
            leaked = canaries_in(metadata)
            if leaked:
                at = pointers(metadata, leaked[0], f"/messages/{number}/metadata")
                return (
                    f"after step {index}, message {number} of turn {turn} has "
                    f"{_canary(leaked[0])} in its metadata, at {listing(at)}"
                )
    return None


def no_prose_leak(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A canary that lives only in an artifact's payload never reaches the model."""
    for run in trace.runs():
        for given in run.model_inputs:
            leaked = canaries_in(list(given.messages))
            if leaked:
                return (
                    f"{_canary(leaked[0])} reached the model's input in run {run.id} of {run.turn}"
                )
    return None


def shape_and_pairing(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Every delivered entry is exactly `{type, payload, tool_call_id}`, paired with the
    call that produced it."""
    made = produced(trace)
    for index, _conversation, turn, wire in wires(trace):
        for entry in delivered(wire):
            keys = sorted(_mapping(entry))
            if keys != ["payload", "tool_call_id", "type"]:
                return f"after step {index}, turn {turn} carries an entry with keys {show(keys)}"
            canary = canary_of(entry)
            if canary in made and _mapping(entry).get("tool_call_id") != made[canary].tool_call_id:
                return (
                    f"{_canary(canary)} is paired with call "
                    f"{show(_mapping(entry).get('tool_call_id'))}, but call "
                    f"{show(made[canary].tool_call_id)} produced it"
                )
    return None


def held_first(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """On every message, artifacts come in the order they were produced: what was held
    comes before what the resumed run collected."""
    made = produced(trace)
    for index, _conversation, turn, wire in wires(trace):
        for row in wire.messages:
            carried = _mapping(row).get("toolArtifacts")
            order = (
                [made[c].seq for c in (canary_of(e) for e in carried or []) if c in made]
                if isinstance(carried, list)
                else []
            )
            if order != sorted(order):
                return (
                    f"after step {index}, a message of turn {turn} delivers artifacts out "
                    "of the order they were produced"
                )
    return None


def held_within_bound(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """The held list never exceeds its bound."""
    bound = (
        scenario.bounds.held_artifacts if scenario.bounds else None
    ) or handshake.limits.held_artifacts
    if bound is None:
        return None
    for step in trace.steps:
        for turn, held in (step.held or {}).items():
            if isinstance(held, list) and len(held) > bound:
                return (
                    f"after step {step.index}, {len(held)} artifacts are held against "
                    f"{turn}, over the bound of {bound}"
                )
    return None


def isolation(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Nothing of one turn or conversation appears in another."""
    made = produced(trace)
    for index, conversation, turn, wire in wires(trace):
        for canary in canaries_in([wire.messages, wire.toolArtifacts]):
            source = made.get(canary)
            if source is not None and (source.conversation, source.turn) != (conversation, turn):
                return (
                    f"after step {index}, {_canary(canary)} from turn {source.turn} "
                    f"({source.conversation}) appears in turn {turn} ({conversation}), at "
                    f"{listing(locate(wire, canary))}"
                )
    return None


def aggregation(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A turn's result is the concatenation of its messages' artifacts, after every step
    (restarts included)."""
    for index, _conversation, turn, wire in wires(trace):
        if wire.toolArtifacts != delivered(wire):
            return (
                f"after step {index}, turn {turn}'s result does not equal what its messages carry"
            )
    return None


def side_effects(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """In a resumed run, a write whose identical call completed earlier in the turn is
    answered from the journal (once per completion) and never run again; fresh calls,
    first runs and read-only tools are never short-circuited.

    The rule does not say whether a pause inside a resumed chunk ends the chunk: the run
    that answers (approves, declines) may carry the chunk's snapshot on or not, so there
    a completed write may be answered from what is left unclaimed, but running it is not
    held against the implementation.  Nor is it where a ledger read was made to fail
    (``fail_ledger_read``): the journal is best-effort, and the chunk that could not read
    it has nothing to block with.  A run whose write-back failed is retried from the state
    before it, so what it claimed from the journal is not counted as claimed."""
    writes = {tool.name for tool in scenario.tools if not tool.read_only}
    completed: dict[str, Counter[str]] = {}
    carried: dict[str, Counter[str]] = {}
    unreadable = 0
    for index, step in enumerate(trace.steps):
        armed = scenario.steps[index] if index < len(scenario.steps) else None
        if isinstance(armed, FailLedgerRead):
            unreadable += armed.count
        found = _step_side_effects(step.runs, writes, completed, carried, unreadable)
        if isinstance(found, str):
            return found
        unreadable = found
    return None


def _step_side_effects(
    runs: tuple[RunRecord, ...],
    writes: set[str],
    completed: dict[str, Counter[str]],
    carried: dict[str, Counter[str]],
    unreadable: int,
) -> str | int:
    """Judge the runs of one step; the number of ledger reads still armed to fail."""
    for run in runs:
        turn_key = f"{run.conversation}/{run.turn}"
        done = completed.setdefault(turn_key, Counter())
        strict = True
        if run.cause in ("auto_continue", "continue"):
            unclaimed = Counter(done)
            if unreadable > 0:  # this chunk's journal read was the one made to fail
                unreadable -= 1
                unclaimed, strict = Counter(), False
            carried[turn_key] = unclaimed
        elif run.cause in ("answer", "approve", "decline") and turn_key in carried:
            unclaimed, strict = carried[turn_key], False
        else:
            unclaimed = Counter()
            carried.pop(turn_key, None)
        before = Counter(unclaimed)
        for one in run.passes:
            for result, sent in zip(one.results, _well_formed(one.batch), strict=False):
                name = str(result.tool)
                if result.disposition in ("reused", "refused") and name not in writes:
                    return f"read-only {name} was {result.disposition} in run {run.id}"
                if name not in writes:
                    continue
                # The reconciled arguments, else the call as sent: the hunt's tools accept
                # any arguments and its values carry no character references, so the two
                # agree wherever both are reported.
                arguments = result.arguments if result.arguments is not None else sent.get("args")
                sig = name + "\x00" + json.dumps(arguments, sort_keys=True, default=str)
                if result.disposition == "executed":
                    if strict and unclaimed[sig] > 0:
                        return (
                            f"{name} {show(arguments)} completed earlier in turn "
                            f"{run.turn} and ran again in resumed run {run.id}"
                        )
                    done[sig] += 1
                elif result.disposition == "reused":
                    if unclaimed[sig] <= 0:
                        return (
                            f"{name} {show(arguments)} was answered from the journal in "
                            f"run {run.id} with no unclaimed completion to answer it"
                        )
                    unclaimed[sig] -= 1
        if run.end == "failed":
            # A failed write-back leaves the turn as the step found it, and the step is
            # retried from there: what that attempt claimed may be claimed again.
            unclaimed.clear()
            unclaimed.update(before)
    return unreadable


def _well_formed(batch: tuple[object, ...]) -> list[Mapping[str, object]]:
    """The calls of a batch that reach the guard, in order (the results line up with them:
    a malformed call is dropped before the guard and gets none)."""
    out: list[Mapping[str, object]] = []
    for call in batch:
        name = call.get("name") if isinstance(call, Mapping) else None
        if isinstance(name, str | int | float) and not isinstance(name, bool) and str(name).strip():
            assert isinstance(call, Mapping)
            out.append(call)
    return out


def _invariant(name: str, clauses: tuple[str, ...], judge: Verdict, **extra: object) -> Invariant:
    violation = type(
        f"{name.title().replace('-', '')}Violated",
        (Violation,),
        {"invariant": name, "__module__": __name__},
    )
    return Invariant(name, clauses, judge, violation=violation, **extra)  # type: ignore[arg-type]


#: The search holds each example to these in order and reports the first that fails, so
#: an invariant that names a cause comes before those that only see its effect: artifacts
#: moved under `metadata` are also "lost" from the messages' toolArtifacts, and the turn
#: result no longer aggregates them, but the finding belongs to no-metadata-leak.
INVARIANTS: tuple[Invariant, ...] = (
    _invariant("no-metadata-leak", ("RT-TOOL-4#c3",), no_metadata_leak),
    _invariant("no-loss", ("RT-TOOL-4#c1", "RT-TOOL-7#c1", "RT-TOOL-7#c4"), no_loss),
    _invariant("no-double-delivery", ("RT-TOOL-7#c3",), no_double_delivery),
    _invariant("held-off-wire", ("RT-TOOL-7#c1",), held_off_wire),
    _invariant("no-prose-leak", ("RT-TOOL-3#c3", "RT-TOOL-2#c4"), no_prose_leak),
    _invariant("shape-and-pairing", ("RT-TOOL-3#c1",), shape_and_pairing),
    _invariant("held-first", ("RT-TOOL-7#c2",), held_first),
    _invariant(
        "held-within-bound", ("RT-TOOL-7#c5",), held_within_bound, needs=("held_observation",)
    ),
    _invariant("isolation", ("RT-TOOL-7#c1", "RT-TOOL-4#c2"), isolation),
    _invariant("aggregation", ("RT-TOOL-4#c2",), aggregation),
    _invariant(
        "side-effects",
        ("DR-3#c2", "DR-3#c3", "DR-3#c5", "DR-3#c6"),
        side_effects,
        profile="durable-resume",
    ),
)


def _call(tool_call_id: object) -> str:
    """``call c1``, or ``a call without an id``."""
    return f"call {tool_call_id}" if tool_call_id is not None else "a call without an id"
