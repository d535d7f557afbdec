"""Invariants of durable resume: the ledger, the note, the hard-block, the refusal of an
interrupted write, automatic continuation and Continue (DR-1 … DR-6).

The journal a resumed run is owed is worked out from the trace itself: a call that
returned in an earlier run of the turn is completed; a call whose run was cut before
its body returned (``before_tool_body``, ``after_tool_body``) is interrupted.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping

from adapters.handshake import Handshake
from adapters.scenario import FailLedgerRead, Scenario, StartTurn
from adapters.trace import RunRecord, Trace
from conformance.checks._common import show
from conformance.checks._states import describe, state_of, stopped_with_continue
from conformance.hunt._calls import paired, well_formed
from conformance.hunt._invariant import Invariant, invariant

__all__ = ["DURABLE_INVARIANTS", "interrupted_calls"]

RESUMED = ("auto_continue", "continue")
#: Causes after which a turn waits for Continue in every reading (a crash may be taken up
#: by a background run, so it is left out).
_STOPPING = frozenset({"error", "stop", "cancel", "credential", "rate_limit"})


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _signature(name: str, arguments: object) -> str:
    return name + "\x00" + json.dumps(arguments, sort_keys=True, default=str)


def interrupted_calls(run: RunRecord) -> list[tuple[str, object]]:
    """The calls ``run`` was cut in the middle of: its cut pass's first well-formed call
    with no result, when the cut came before that call's body returned."""
    point = _mapping(run.interruption).get("point")
    if run.end not in ("interrupted", "crashed") or point not in (
        "before_tool_body",
        "after_tool_body",
    ):
        return []
    cut = [one for one in run.passes if one.cut] or list(run.passes[-1:])
    if not cut:
        return []
    calls = well_formed(cut[-1].batch)
    waiting = calls[len(cut[-1].results) :]
    return [(str(waiting[0].get("name")), waiting[0].get("args"))] if waiting else []


def _completed(run: RunRecord) -> list[tuple[str, object]]:
    """The calls that returned in ``run``, as ``(tool, arguments)``."""
    out: list[tuple[str, object]] = []
    for one in run.passes:
        for result, call in paired(one):
            if result.disposition == "executed":
                arguments = result.arguments if result.arguments is not None else call.get("args")
                out.append((str(result.tool), arguments))
    return out


# -- DR-3: the hard-block ------------------------------------------------------------


class _Ledger:
    """A turn's completions as the journal may read them: pairing each completion with
    its own start, or with the oldest still-open start of its tool (DR-1 ¶4 read
    literally).  Both readings are legal (docs/interpretations.md), and they differ when
    a start is left open by a cut and a later call of the same tool completes."""

    def __init__(self) -> None:
        self.own: Counter[str] = Counter()
        self.oldest: Counter[str] = Counter()
        self.open: dict[str, list[str]] = {}

    def started(self, name: str, arguments: object) -> None:
        self.open.setdefault(name, []).append(_signature(name, arguments))

    def completed(self, name: str, arguments: object) -> None:
        self.own[_signature(name, arguments)] += 1
        waiting = self.open.get(name, [])
        self.oldest[waiting.pop(0) if waiting else _signature(name, arguments)] += 1

    def cut(self, name: str, arguments: object) -> None:
        self.started(name, arguments)


def hard_block_findings(
    scenario: Scenario, trace: Trace, handshake: Handshake
) -> list[tuple[str, str]]:
    """What the hard-block got wrong, as ``(clause, message)``: a completed write run
    again in a resumed chunk, or one completion answering two repeats (DR-3 ¶2, ¶5); a
    read-only tool blocked (¶3); a fresh run short-circuited (¶6).

    The rule does not say whether a pause inside a resumed chunk ends the chunk: the run
    that answers (approves, declines) may carry the chunk's snapshot on or not, so there
    a completed write may be answered from what is left unclaimed, but running it is not
    held against the implementation.  Nor is it once a ledger read was made to fail
    (``fail_ledger_read``): the journal is best-effort (DR-2 ¶5), and which of the later
    reads the failure hit is the runtime's business.  A run whose write-back failed is
    retried from the state before it, so what it claimed is not counted as claimed."""
    writes = {tool.name for tool in scenario.tools if not tool.read_only}
    ledgers: dict[str, _Ledger] = {}
    carried: dict[str, tuple[Counter[str], Counter[str]]] = {}
    doubtful = False
    found: list[tuple[str, str]] = []
    for index, step in enumerate(trace.steps):
        armed = scenario.steps[index] if index < len(scenario.steps) else None
        doubtful = doubtful or isinstance(armed, FailLedgerRead)
        for run in step.runs:
            found += _chunk(run, writes, ledgers, carried, doubtful)
    return found


def _chunk(
    run: RunRecord,
    writes: set[str],
    ledgers: dict[str, _Ledger],
    carried: dict[str, tuple[Counter[str], Counter[str]]],
    doubtful: bool,
) -> list[tuple[str, str]]:
    """Judge one run against what its turn completed before it."""
    turn_key = f"{run.conversation}/{run.turn}"
    ledger = ledgers.setdefault(turn_key, _Ledger())
    strict = not doubtful
    if run.cause in RESUMED:
        unclaimed = (Counter(ledger.own), Counter(ledger.oldest))
        carried[turn_key] = unclaimed
    elif run.cause in ("answer", "approve", "decline") and turn_key in carried:
        unclaimed, strict = carried[turn_key], False
    else:
        unclaimed = (Counter(), Counter())
        carried.pop(turn_key, None)
    before = (Counter(unclaimed[0]), Counter(unclaimed[1]))
    found: list[tuple[str, str]] = []
    for one in run.passes:
        for result, call in paired(one):
            name = str(result.tool)
            arguments = result.arguments if result.arguments is not None else call.get("args")
            sig = _signature(name, arguments)
            if result.disposition in ("reused", "refused"):
                what = f"{name} was {result.disposition} in run {run.id}"
                if name not in writes:
                    found.append(("DR-3#c3", f"read-only {what}"))
                if run.cause == "start":
                    found.append(("DR-3#c6", f"{what}, the first run of turn {run.turn}"))
            if name not in writes:
                if result.disposition == "executed":
                    ledger.completed(name, arguments)
                continue
            if result.disposition == "executed":
                if strict and all(left[sig] > 0 for left in unclaimed):
                    found.append(
                        (
                            "DR-3#c2",
                            f"{name} {show(arguments)} completed earlier in turn {run.turn} "
                            f"and ran again in resumed run {run.id}",
                        )
                    )
                ledger.completed(name, arguments)
            elif result.disposition == "reused":
                if not any(left[sig] > 0 for left in unclaimed):
                    found.append(
                        (
                            "DR-3#c5",
                            f"{name} {show(arguments)} was answered from the journal in run "
                            f"{run.id} with no unclaimed completion to answer it",
                        )
                    )
                for left in unclaimed:
                    if left[sig] > 0:
                        left[sig] -= 1
    for name, arguments in interrupted_calls(run):
        ledger.cut(name, arguments)
    if run.end == "failed":
        # A failed write-back leaves the turn as the step found it, and the step is
        # retried from there: what that attempt claimed may be claimed again.
        for left, saved in zip(unclaimed, before, strict=True):
            left.clear()
            left.update(saved)
    return found


def _clause_of(*clauses: str) -> Callable[[Scenario, Trace, Handshake], str | None]:
    def judge(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
        for clause, message in hard_block_findings(scenario, trace, handshake):
            if clause in clauses:
                return message
        return None

    judge.__doc__ = hard_block_findings.__doc__
    return judge


def _read_only_redispatched(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    reads = {tool.name for tool in scenario.tools if tool.read_only}
    return any(
        run.cause in RESUMED and any(str(c.get("name")) in reads for c in well_formed(one.batch))
        for run in trace.runs()
        for one in run.passes
    )


def _first_run_writes(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    writes = {tool.name for tool in scenario.tools if not tool.read_only}
    return any(
        run.cause == "start" and any(str(r.tool) in writes for r in one.results)
        for run in trace.runs()
        for one in run.passes
    )


def _write_redispatched(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    """A resumed chunk re-dispatched a write that completed earlier in its turn."""
    writes = {tool.name for tool in scenario.tools if not tool.read_only}
    done: dict[tuple[str, str], set[str]] = {}
    for run in trace.runs():
        key = (run.conversation, run.turn)
        if run.cause in RESUMED:
            for one in run.passes:
                for call in well_formed(one.batch):
                    name = str(call.get("name"))
                    if name in writes and _signature(name, call.get("args")) in done.get(key, ()):
                        return True
        done.setdefault(key, set()).update(
            _signature(name, args) for name, args in _completed(run) if name in writes
        )
    return False


# -- DR-4: an interrupted write is not blindly retried --------------------------------


def write_refusal(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A write is refused only as an identical retry of a write that may have been
    interrupted earlier in its turn (DR-4 ¶2's "and only then"), and a completed call is
    never taken for an interrupted one.  Whether a retry that is owed a refusal got one
    depends on how the runtime's history shows the interruption, which is the runtime's
    to choose: the hand-written checks of DR-4 judge that."""
    writes = {tool.name for tool in scenario.tools if not tool.read_only}
    unanswered: dict[tuple[str, str], set[str]] = {}
    for run in trace.runs():
        key = (run.conversation, run.turn)
        for one in run.passes:
            for result, call in paired(one):
                name = str(result.tool)
                sig = _signature(name, call.get("args"))
                if result.disposition == "refused" and (
                    name not in writes or sig not in unanswered.get(key, set())
                ):
                    return (
                        f"{name} {show(call.get('args'))} was refused in run {run.id}, though "
                        "no identical write was left unanswered by a cut earlier in the turn"
                    )
        unanswered.setdefault(key, set()).update(
            _signature(name, args) for name, args in _unanswered(run) if name in writes
        )
    return None


def _unanswered(run: RunRecord) -> list[tuple[str, object]]:
    """Every call a cut left without a result (a lenient superset of the interrupted
    ones: a runtime may count the calls after the one it cut as interrupted too)."""
    if run.end not in ("interrupted", "crashed"):
        return []
    cut = [one for one in run.passes if one.cut] or list(run.passes[-1:])
    if not cut:
        return []
    answered = {id(call) for _, call in paired(cut[-1])}
    return [
        (str(call.get("name")), call.get("args"))
        for call in well_formed(cut[-1].batch)
        if id(call) not in answered
    ]


def _interrupted_then_resumed(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    cut: set[tuple[str, str]] = set()
    for run in trace.runs():
        key = (run.conversation, run.turn)
        if key in cut and run.cause in RESUMED:
            return True
        if interrupted_calls(run):
            cut.add(key)
    return False


# -- DR-5, DR-6: continuing --------------------------------------------------------------


def continuation_count(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """No turn continues on its own more than three times, whatever else happened to it."""
    counted = Counter((r.conversation, r.turn) for r in trace.runs() if r.cause == "auto_continue")
    over = [(key, n) for key, n in counted.items() if n > 3]
    if over:
        (conversation, turn), times = over[0]
        return f"turn {turn} ({conversation}) continued on its own {times} times"
    return None


def _continued_on_its_own(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(run.cause == "auto_continue" for run in trace.runs())


def _order(scenario: Scenario) -> dict[str, list[str]]:
    """Each conversation's turn labels, in the order they were started."""
    out: dict[str, list[str]] = {}
    for step in scenario.steps:
        if isinstance(step, StartTurn):
            out.setdefault(step.conversation, []).append(step.turn)
    return out


def continue_offer(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """Continue is offered only for the conversation's newest stop."""
    order = _order(scenario)
    for step in trace.steps:
        for conversation, turns in step.wire.items():
            labels = [t for t in order.get(conversation, []) if t in turns]
            stops = [
                t
                for t in labels
                if turns[t].continueOffered
                or state_of(handshake, turns[t]) in ("stopped", "failed")
            ]
            offering = [t for t in labels if turns[t].continueOffered is True]
            if offering and (len(offering) > 1 or offering[0] != stops[-1]):
                return (
                    f"after step {step.index} ({step.op}), Continue is offered for "
                    f"{show(offering)} in conversation {conversation}, whose newest stop is "
                    f"{show(stops[-1])}"
                )
    return None


def _two_stops(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    if not trace.steps:
        return False
    for turns in trace.steps[-1].wire.values():
        stops = [w for w in turns.values() if state_of(handshake, w) in ("stopped", "failed")]
        if len(stops) >= 2:
            return True
    return False


def stop_offers_continue(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """After an error, a stop, a cancellation, or a credential or rate-limit failure, the
    turn ends with Continue available."""
    for step in trace.steps:
        for run in step.runs:
            cause = _mapping(run.interruption).get("cause")
            if run.end != "interrupted" or cause not in _STOPPING:
                continue
            wire = step.wire.get(run.conversation, {}).get(run.turn)
            later = [r for r in step.runs if r.turn == run.turn and r is not run]
            if later:
                continue  # the turn went on within the step (it was continued again)
            if not stopped_with_continue(handshake, wire):
                return (
                    f"after step {step.index} ({step.op}), run {run.id} was cut by {cause} and "
                    f"turn {run.turn} does not wait with Continue offered: "
                    f"{describe(handshake, wire)}"
                )
    return None


def _stopping_cut(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(
        run.end == "interrupted" and _mapping(run.interruption).get("cause") in _STOPPING
        for run in trace.runs()
    )


# -- DR-2: the note ----------------------------------------------------------------------


def resume_note(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """A resumed run is prompted with the nudge and, right after it, a note naming every
    call its turn completed and every call it interrupted; with nothing to say, the
    prompt is the nudge alone, byte for byte.  Where a ledger read was made to fail, the
    note may be missing (DR-2 ¶5)."""
    declared = handshake.durable_resume
    if declared is None:
        return None
    completed: dict[tuple[str, str], list[str]] = {}
    interrupted: dict[tuple[str, str], list[str]] = {}
    cleared: dict[tuple[str, str], list[str]] = {}  # may or may not still be reported
    unreadable = 0
    for index, step in enumerate(trace.steps):
        armed = scenario.steps[index] if index < len(scenario.steps) else None
        if isinstance(armed, FailLedgerRead):
            unreadable += armed.count
        for run in step.runs:
            key = (run.conversation, run.turn)
            if run.cause in RESUMED:
                if unreadable > 0:
                    unreadable -= 1
                else:
                    owed = completed.get(key, []) + interrupted.get(key, [])
                    problem = _note_problem(run, declared.nudge, owed, bool(cleared.get(key)))
                    if problem:
                        return problem
            completed.setdefault(key, []).extend(name for name, _ in _completed(run))
            completed[key].extend(_receipts(run))
            interrupted.setdefault(key, []).extend(name for name, _ in interrupted_calls(run))
            if _mapping(run.interruption).get("point") == "during_model_call":
                # A cut in flight abandons partial output, which a runtime may mark with a
                # `clear`: the calls left open before it are then no longer interrupted
                # (DR-1 ¶5; docs/interpretations.md#when-clear-is-recorded).
                cleared.setdefault(key, []).extend(interrupted.get(key, []))
                interrupted[key] = []
    return None


def _receipts(run: RunRecord) -> list[str]:
    """The receipts in the data of the run's completed calls, where the data is short
    enough that a short result has no reason to cut it (the hunt's tools put one in)."""
    found: list[str] = []
    for one in run.passes:
        for result in one.results:
            data = _mapping(result.result).get("data")
            receipt = _mapping(data).get("receipt")
            short = len(json.dumps(data, separators=(",", ":"), default=str)) <= 60
            if result.disposition == "executed" and isinstance(receipt, str) and short:
                found.append(receipt)
    return found


def _note_problem(run: RunRecord, nudge: str, owed: list[str], maybe: bool) -> str | None:
    if not run.model_inputs:
        return None
    messages = [_mapping(m) for m in run.model_inputs[0].messages]
    found = [i for i, m in enumerate(messages) if str(m.get("content") or "").startswith(nudge)]
    if not found:
        return f"resumed run {run.id} ({run.cause}) is not prompted with the nudge {show(nudge)}"
    at = found[-1]
    prompt = str(messages[at].get("content"))
    if not owed:
        if prompt != nudge and not maybe:
            return (
                f"resumed run {run.id} had nothing in its journal, yet its prompt is "
                f"{show(prompt)}, not the nudge alone"
            )
        return None
    # The note follows the nudge, in its message or the next (docs/interpretations.md).
    following = messages[at + 1] if at + 1 < len(messages) else {}
    note = prompt[len(nudge) :] + " " + str(following.get("content") or "")
    missing = sorted({name for name in owed if name not in note})
    if missing:
        return (
            f"resumed run {run.id} ({run.cause}) is not told of {show(missing)} after the "
            f"nudge (tools its turn already ran, and the results they returned): "
            f"{show(note.strip(), 160)}"
        )
    return None


def _resumed_with_journal(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    done: set[tuple[str, str]] = set()
    for run in trace.runs():
        key = (run.conversation, run.turn)
        if key in done and run.cause in RESUMED:
            return True
        if _completed(run) or interrupted_calls(run):
            done.add(key)
    return False


# -- DR-1: the ledger --------------------------------------------------------------------


def ledger_matches_work(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """The ledger holds a `tool_done` for every call that returned and for nothing else
    (the journal adds no recording of its own), and a `tool_start` for every body that
    ran."""
    if trace.ledger is None:
        return None
    dones: Counter[tuple[str, str]] = Counter()
    starts: Counter[tuple[str, str]] = Counter()
    for event in trace.ledger:
        item = _mapping(event)
        key = (str(item.get("turn")), str(item.get("tool")))
        if item.get("event") == "tool_done":
            dones[key] += 1
        elif item.get("event") == "tool_start":
            starts[key] += 1
    returned: Counter[tuple[str, str]] = Counter()
    ran: Counter[tuple[str, str]] = Counter()
    for run in trace.runs():
        for name, _ in _completed(run):
            returned[(run.turn, name)] += 1
        for effect in run.side_effects:
            ran[(run.turn, str(_mapping(effect).get("tool")))] += 1
    for key in sorted(set(dones) | set(returned)):
        if dones[key] != returned[key]:
            return (
                f"the ledger holds {dones[key]} tool_done events of {key[1]} in turn {key[0]}, "
                f"but {returned[key]} calls of it returned"
            )
    for key in sorted(ran):
        if starts[key] < ran[key]:
            return (
                f"the ledger holds {starts[key]} tool_start events of {key[1]} in turn "
                f"{key[0]}, but its body ran {ran[key]} times"
            )
    return None


def _reused(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(r.disposition == "reused" for _, one in trace.passes() for r in one.results)


DURABLE_INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "hard-block",
        ("DR-3#c2", "DR-3#c5"),
        _clause_of("DR-3#c2", "DR-3#c5"),
        "a resumed chunk re-dispatching a write completed earlier in its turn",
        _write_redispatched,
        profile="durable-resume",
    ),
    invariant(
        "read-only-never-blocked",
        ("DR-3#c3",),
        _clause_of("DR-3#c3"),
        "a resumed chunk calling a read-only tool",
        _read_only_redispatched,
        profile="durable-resume",
    ),
    invariant(
        "fresh-runs-untouched",
        ("DR-3#c6",),
        _clause_of("DR-3#c6"),
        "a first run of a turn calling a write tool",
        _first_run_writes,
        profile="durable-resume",
    ),
    invariant(
        "write-refusal",
        ("DR-4#c2",),
        write_refusal,
        "a turn resumed after a write was interrupted",
        _interrupted_then_resumed,
        profile="durable-resume",
    ),
    invariant(
        "resume-note",
        ("DR-2#c2", "DR-2#c3", "DR-2#c4"),
        resume_note,
        "a turn resumed after calls completed or were interrupted",
        _resumed_with_journal,
        profile="durable-resume",
    ),
    invariant(
        "continuation-count",
        ("DR-5#c3", "DR-5#c4"),
        continuation_count,
        "a turn that continued on its own",
        _continued_on_its_own,
        profile="durable-resume",
    ),
    invariant(
        "stop-offers-continue",
        ("DR-5#c5",),
        stop_offers_continue,
        "a run cut by an error, a stop, a cancellation or a credential or rate-limit failure",
        _stopping_cut,
        profile="durable-resume",
    ),
    invariant(
        "continue-offer",
        ("DR-6#c3",),
        continue_offer,
        "a conversation with two stopped turns",
        _two_stops,
        profile="durable-resume",
    ),
    invariant(
        "ledger-matches-work",
        ("DR-1#c1", "DR-1#c2"),
        ledger_matches_work,
        "a write answered from the journal",
        _reused,
        needs=("ledger",),
        profile="durable-resume",
    ),
)
