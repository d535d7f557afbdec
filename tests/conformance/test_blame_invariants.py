"""A hunt invariant bound to several clauses charges a counterexample to the clause whose
words it breaks: DR-2's ``resume-note`` (¶2–¶4) and DR-3's ``hard-block`` (¶2, ¶5) used
to fail every clause they are bound to for one gap."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from adapters.handshake import Handshake
from adapters.scenario import Reply, Scenario, StartTurn, Step, Wait
from adapters.trace import Trace
from conformance.checks.dr_2.invariants import INVARIANTS as DR2_INVARIANTS
from conformance.checks.dr_3.invariants import INVARIANTS as DR3_INVARIANTS
from conformance.hunt import breached
from conformance.toolkit import (
    ANA,
    TICKET,
    Breach,
    Invariant,
    calls,
    cut,
    say,
    scenario,
    send,
    ticket,
    tools,
)
from tests.conformance.gaps import Rewritten

(RESUME_NOTE,) = DR2_INVARIANTS
HARD_BLOCK = next(one for one in DR3_INVARIANTS if one.name == "hard-block")

#: a send completed and a ticket cut after its body: the resumed run owes both to its note
BOTH = (cut("after_tool_body", on="create_ticket"), StartTurn("t1"), Wait())
#: a cut while the model answers, before any call: the journal is empty
NOTHING = (cut("during_model_call"), StartTurn("t1"), Wait())
#: a send completed, then the turn cut once it is done: the resumed chunk sends again
SENT = (cut("after_tool_done", on="send_email"), StartTurn("t1"), Wait())


def _judged(
    mutant: str, model: Sequence[Reply], steps: Sequence[Step], one: Invariant
) -> tuple[bool, str | None]:
    """Play the scenario against ``mutant``: whether ``one`` was exercised, and its verdict."""
    runner = Rewritten(mutant=mutant)
    try:
        made: Scenario = scenario(
            "charged", tools=tools(), model=[*model, say("done")], steps=steps
        )
        trace = runner.run(made)
        handshake: Handshake = runner.handshake()
        assert isinstance(trace, Trace)
        return one.exercised(made, trace, handshake), one.judge(made, trace, handshake)
    finally:
        runner.close()


@pytest.mark.parametrize(
    ("mutant", "model", "steps", "invariant", "broken"),
    [
        pytest.param(
            "note-omits-interrupted-calls",
            [calls(send(ANA, "c1"), ticket(TICKET, "c2"))],
            BOTH,
            RESUME_NOTE,
            ("DR-2#c3",),
            id="note-leaves-out-an-interrupted-call",
        ),
        pytest.param(
            "empty-journal-note-appended",
            [],
            NOTHING,
            RESUME_NOTE,
            ("DR-2#c4",),
            id="note-on-an-empty-journal",
        ),
        pytest.param(
            "completed-write-repeated",
            [calls(send(ANA, "c1")), calls(send(ANA, "c2"))],
            SENT,
            HARD_BLOCK,
            ("DR-3#c2",),
            id="completed-write-run-again",
        ),
        pytest.param(
            "journal-entry-claimed-repeatedly",
            [calls(send(ANA, "c1")), calls(send(ANA, "c2"), send(ANA, "c3"))],
            SENT,
            HARD_BLOCK,
            ("DR-3#c5",),
            id="one-completion-answers-two-repeats",
        ),
    ],
)
def test_a_finding_lands_on_the_clause_it_breaks(
    mutant: str,
    model: Sequence[Reply],
    steps: Sequence[Step],
    invariant: Invariant,
    broken: tuple[str, ...],
) -> None:
    exercised, reason = _judged(mutant, model, steps, invariant)
    assert isinstance(reason, Breach), reason
    assert breached(invariant, reason) == broken
    assert set(broken) < set(invariant.clauses)  # one of several, not all of them
    # the situation the invariant counts was played, but for the empty journal, which by
    # design is no "turn resumed after calls completed or were interrupted"
    assert exercised is (mutant != "empty-journal-note-appended")
