"""DR-1's examples as vectors: a ledger, and the journal the implementation derives from
it (a journal's lists in any order)."""

from __future__ import annotations

from adapters.scenario import ClassifyLedger
from conformance.checks.dr_1._ledger import expect_journal
from conformance.toolkit import (
    Binding,
    CheckContext,
    Stage,
    VectorRun,
    array,
    mapping,
    scenario,
    show,
)

__all__ = ["BINDINGS", "STAGES"]

#: The stage each verdict of DR-1's examples is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("DR-1", "ledger"): "input",
    ("DR-1", "journal"): "outcome",
}


#: Each difference from the example's journal is charged to the clause it breaks.
_CHARGED = {
    "paired": "DR-1#c4",
    "cleared": "DR-1#c5",
    "unlisted": "DR-1#c3",
    "classified": "DR-1#c3",
}


def _journal(ctx: CheckContext, run: VectorRun) -> None:
    """DR-1: a ledger -> the journal the implementation derives from it."""
    events = tuple(array(run.value("ledger")))
    trace = ctx.run(scenario("vector-ledger-journal", steps=[ClassifyLedger(events)]))
    expected = mapping(run.value("journal"))
    completed = [mapping(e) for e in array(expected.get("completed"))]
    interrupted = [mapping(e) for e in array(expected.get("interrupted"))]
    expect_journal(
        ctx,
        trace.steps[0].journal,
        [(str(e.get("tool")), e.get("input"), e.get("result")) for e in completed],
        [(str(e.get("tool")), e.get("input")) for e in interrupted],
        at="/steps/0/journal",
        clause=f"the example's journal is {show(run.value('journal'))} (DR-1 ¶3-¶5)",
        ledger=[mapping(e) for e in events],
        charged=_CHARGED,
    )


BINDINGS = (Binding("DR-1", ("ledger", "journal"), ("DR-1#c3", "DR-1#c4", "DR-1#c5"), _journal),)
