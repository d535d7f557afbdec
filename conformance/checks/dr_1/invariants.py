"""DR-1's invariant: the ledger records what really ran and returned."""

from __future__ import annotations

from collections import Counter

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit import (
    Breach,
    Invariant,
    completed_calls,
    invariant,
    mapping,
    unreported_calls,
)

__all__ = ["INVARIANTS"]


def ledger_matches_work(scenario: Scenario, trace: Trace, handshake: Handshake) -> str | None:
    """The ledger holds a `tool_done` for every call that returned and for nothing else
    (the journal adds no recording of its own), and a `tool_start` for every body that
    ran.  A body a failed run ran and never reported may have returned: its done is
    neither required nor held against the ledger (:func:`unreported_calls`)."""
    if trace.ledger is None:
        return None
    dones: Counter[tuple[str, str]] = Counter()
    starts: Counter[tuple[str, str]] = Counter()
    for event in trace.ledger:
        item = mapping(event)
        key = (str(item.get("turn")), str(item.get("tool")))
        if item.get("event") == "tool_done":
            dones[key] += 1
        elif item.get("event") == "tool_start":
            starts[key] += 1
    returned: Counter[tuple[str, str]] = Counter()
    ran: Counter[tuple[str, str]] = Counter()
    unreported: Counter[tuple[str, str]] = Counter()
    answered = _answered_from_the_journal(trace)
    for run in trace.runs():
        for name, _ in completed_calls(run):
            returned[(run.turn, name)] += 1
        for effect in run.side_effects:
            ran[(run.turn, str(mapping(effect).get("tool")))] += 1
        unreported.update((run.turn, name) for name, _ in unreported_calls(run))
    for key in sorted(set(dones) | set(returned)):
        if not returned[key] <= dones[key] <= returned[key] + unreported[key]:
            # A call that returned with no done breaks ¶1's recording alone.  A done with
            # no returned call behind it is the journal recording its own answer (¶2)
            # where calls of that tool the journal answered (reused, refused) account for
            # it; otherwise it may as well be a done recorded wrongly (¶1): both charged.
            extra = dones[key] - returned[key] - unreported[key]
            charged = (
                ("DR-1#c1",)
                if dones[key] < returned[key]
                else ("DR-1#c2",)
                if extra <= answered[key]
                else ("DR-1#c1", "DR-1#c2")
            )
            return Breach(
                f"the ledger holds {dones[key]} tool_done events of {key[1]} in turn {key[0]}, "
                f"but {returned[key]} calls of it returned",
                charged,
            )
    for key in sorted(ran):
        if starts[key] < ran[key]:
            return Breach(
                f"the ledger holds {starts[key]} tool_start events of {key[1]} in turn "
                f"{key[0]}, but its body ran {ran[key]} times",
                ("DR-1#c1",),
            )
    return None


def _answered_from_the_journal(trace: Trace) -> Counter[tuple[str, str]]:
    """The calls of each turn and tool the journal answered instead of running them: a
    completed write reused (DR-3 ¶2), an interrupted one's retry refused (DR-4 ¶2)."""
    answered: Counter[tuple[str, str]] = Counter()
    for run, one in trace.passes():
        for result in one.results:
            if result.disposition in ("reused", "refused"):
                answered[(run.turn, str(result.tool))] += 1
    return answered


def _reused(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
    return any(r.disposition == "reused" for _, one in trace.passes() for r in one.results)


INVARIANTS: tuple[Invariant, ...] = (
    invariant(
        "ledger-matches-work",
        ("DR-1#c1", "DR-1#c2"),
        ledger_matches_work,
        "a write answered from the journal",
        _reused,
        needs=("ledger",),
        profile="durable-resume",
        rank=340,
    ),
)
