"""A hunt invariant bound to several clauses charges a counterexample to the clause whose
words it breaks: DR-1's ``ledger-matches-work`` (¶1, ¶2), DR-2's ``resume-note``
(¶2–¶4), DR-3's ``hard-block`` (¶2, ¶5) and RT-TOOL-7's ``isolation`` (RT-TOOL-7 ¶1,
RT-TOOL-4 ¶2) used to fail every clause they are bound to for one gap."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from adapters.handshake import Handshake
from adapters.scenario import Reply, Scenario, StartTurn, Step, Wait
from adapters.trace import Trace
from conformance.checks.dr_1.invariants import INVARIANTS as DR1_INVARIANTS
from conformance.checks.dr_2.invariants import INVARIANTS as DR2_INVARIANTS
from conformance.checks.dr_3.invariants import INVARIANTS as DR3_INVARIANTS
from conformance.checks.rt_tool_7.invariants import INVARIANTS as RT7_INVARIANTS
from conformance.hunt import breached
from conformance.toolkit import (
    Breach,
    Invariant,
    artifact,
    ask,
    call,
    calls,
    cut,
    failure,
    output,
    say,
    scenario,
    send,
    ticket,
    tool,
    tools,
)
from conformance.toolkit.machinery import CANARY_PREFIX
from tests.conformance._dr import ANA, TICKET
from tests.conformance.gaps import Rewritten

(LEDGER,) = DR1_INVARIANTS
(RESUME_NOTE,) = DR2_INVARIANTS
HARD_BLOCK = next(one for one in DR3_INVARIANTS if one.name == "hard-block")
ISOLATION = next(one for one in RT7_INVARIANTS if one.name == "isolation")

#: a send completed and a ticket cut after its body: the resumed run owes both to its note
BOTH = (cut("after_tool_body", on="create_ticket"), StartTurn("t1"), Wait())
#: a cut while the model answers, before any call: the journal is empty
NOTHING = (cut("during_model_call"), StartTurn("t1"), Wait())
#: a send completed, then the turn cut once it is done: the resumed chunk sends again
SENT = (cut("after_tool_done", on="send_email"), StartTurn("t1"), Wait())
#: a turn pauses holding an artifact, and a new message starts another turn beside it
BESIDE = (StartTurn("t1"), StartTurn("t2", message="Something else"))
# a canary in the hunt's own form, which the invariants trace back to the call that made it
HUNTED_CANARY = artifact("note", {"canary": f"{CANARY_PREFIX}0-0-1."})
EMITS = [tool("emit_artifacts", output({"ok": True}, HUNTED_CANARY))]


#: the tools a scenario needs, where not the two writes of every durable case
TOOLS = {
    "isolation": EMITS,
    # a send that fails recoverably: it returned, and its done must be in the ledger
    "ledger-matches-work": tools(sends=(failure("no such address"),)),
}

#: mutants whose scenario here is no instance of the situation its invariant counts
NOT_EXERCISED = (
    "empty-journal-note-appended",
    "held-shared-by-conversation",
    "tool-done-only-on-success",  # a failed send, no write answered from the journal
)


def _judged(
    mutant: str, model: Sequence[Reply], steps: Sequence[Step], one: Invariant
) -> tuple[bool, str | None]:
    """Play the scenario against ``mutant``: whether ``one`` was exercised, and its verdict."""
    runner = Rewritten(mutant=mutant)
    try:
        made: Scenario = scenario(
            "charged",
            tools=TOOLS.get(one.name, tools()),
            model=[*model, say("done")],
            steps=steps,
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
        pytest.param(
            "tool-done-only-on-success",
            [calls(send(ANA, "c1"))],
            (StartTurn("t1"),),
            LEDGER,
            ("DR-1#c1",),
            id="returned-call-without-its-done",
        ),
        pytest.param(
            "held-shared-by-conversation",
            [calls(call("emit_artifacts", {}, "h0")), ask("Which format?")],
            BESIDE,
            ISOLATION,
            ("RT-TOOL-7#c1",),
            id="held-artifact-on-another-turns-message",
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
    # the situation the invariant counts was played, but for the empty journal (no "turn
    # resumed after calls completed or were interrupted") and the artifact of one turn
    # only (no "artifacts produced in two turns"): a finding stands either way
    assert exercised is (mutant not in NOT_EXERCISED)
