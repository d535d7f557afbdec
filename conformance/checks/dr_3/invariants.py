"""DR-3's invariants: the hard-block: a completed write is not run again in a resumed
chunk, a read-only tool is never blocked, a fresh run is never short-circuited."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from adapters.handshake import Handshake
from adapters.scenario import FailLedgerRead, Scenario
from adapters.trace import RunRecord, Trace
from conformance.toolkit import (
    RESUMING,
    Breach,
    Invariant,
    call_signature,
    completed_calls,
    interrupted_calls,
    invariant,
    paired,
    show,
    unreported_calls,
    well_formed,
)

__all__ = ["INVARIANTS"]


class _Ledger:
    """A turn's completions as the journal may read them: pairing each completion with
    its own start, or with the oldest still-open start of its tool (DR-1 ¶4 read
    literally).  Both readings are legal (docs/interpretations.md), and they differ when
    a start is left open by a cut and a later call of the same tool completes."""

    def __init__(self) -> None:
        self.own: Counter[str] = Counter()
        self.oldest: Counter[str] = Counter()
        self.open: dict[str, list[str]] = {}
        #: calls a failed run ran and never reported: completed, or not (a journal may
        #: answer a repeat from one, and need not)
        self.maybe: Counter[str] = Counter()

    def started(self, name: str, arguments: object) -> None:
        self.open.setdefault(name, []).append(call_signature(name, arguments))

    def completed(self, name: str, arguments: object) -> None:
        self.own[call_signature(name, arguments)] += 1
        waiting = self.open.get(name, [])
        self.oldest[waiting.pop(0) if waiting else call_signature(name, arguments)] += 1

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
    wired = {tool.name for tool in scenario.tools}
    ledgers: dict[str, _Ledger] = {}
    carried: dict[str, tuple[Counter[str], Counter[str]]] = {}
    doubtful = False
    found: list[tuple[str, str]] = []
    for index, step in enumerate(trace.steps):
        armed = scenario.steps[index] if index < len(scenario.steps) else None
        doubtful = doubtful or isinstance(armed, FailLedgerRead)
        for run in step.runs:
            found += _chunk(run, (writes, wired), ledgers, carried, doubtful)
    return found


def _chunk(
    run: RunRecord,
    tools: tuple[set[str], set[str]],
    ledgers: dict[str, _Ledger],
    carried: dict[str, tuple[Counter[str], Counter[str]]],
    doubtful: bool,
) -> list[tuple[str, str]]:
    """Judge one run against what its turn completed before it (``tools``: the names of
    the scenario's write tools, and of all its tools)."""
    writes, wired = tools
    turn_key = f"{run.conversation}/{run.turn}"
    ledger = ledgers.setdefault(turn_key, _Ledger())
    strict = not doubtful
    if run.cause in RESUMING:
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
            sig = call_signature(name, arguments)
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
                if not any(left[sig] > 0 for left in unclaimed) and ledger.maybe[sig] > 0:
                    ledger.maybe[sig] -= 1
                elif not any(left[sig] > 0 for left in unclaimed):
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
    for name, arguments in interrupted_calls(run, wired):
        ledger.cut(name, arguments)
    for name, arguments in unreported_calls(run):
        ledger.maybe[call_signature(name, arguments)] += 1
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
                # Charged to the clause whose words the finding breaks, not to every
                # clause the invariant is bound to: a write run again is ¶2's, a
                # completion answering two repeats ¶5's.
                return Breach(message, (clause,))
        return None

    judge.__doc__ = hard_block_findings.__doc__
    return judge


def _read_only_redispatched(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    reads = {tool.name for tool in scenario.tools if tool.read_only}
    return any(
        run.cause in RESUMING and any(str(c.get("name")) in reads for c in well_formed(one.batch))
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
        if run.cause in RESUMING:
            for one in run.passes:
                for call in well_formed(one.batch):
                    name = str(call.get("name"))
                    if name in writes and call_signature(name, call.get("args")) in done.get(
                        key, ()
                    ):
                        return True
        done.setdefault(key, set()).update(
            call_signature(name, args) for name, args in completed_calls(run) if name in writes
        )
    return False


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "hard-block",
        ("DR-3#c2", "DR-3#c5"),
        _clause_of("DR-3#c2", "DR-3#c5"),
        "a resumed chunk re-dispatching a write completed earlier in its turn",
        _write_redispatched,
        profile="durable-resume",
        rank=260,
    ),
    invariant(
        "read-only-never-blocked",
        ("DR-3#c3",),
        _clause_of("DR-3#c3"),
        "a resumed chunk calling a read-only tool",
        _read_only_redispatched,
        profile="durable-resume",
        rank=270,
    ),
    invariant(
        "fresh-runs-untouched",
        ("DR-3#c6",),
        _clause_of("DR-3#c6"),
        "a first run of a turn calling a write tool",
        _first_run_writes,
        profile="durable-resume",
        rank=280,
    ),
)
