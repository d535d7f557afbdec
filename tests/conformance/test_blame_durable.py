"""Durable resume's failures belong to the clause whose words they break.

Each test plays a runtime shape a real framework has (``reference_impl/shapes/``) or the
reference runtime against the cases and invariants of DR-1 … DR-6, and holds the suite to
the verdict the clauses' own words give: a turn that never continues on its own is DR-5
¶1's gap alone, a batch whose unknown or blank-named calls are answered first leaves the
hunt's reading of the journal intact, and so on.  Each failed on the code before it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from adapters import Driver, connect
from adapters.scenario import Answer, Continue, Reply, StartTurn, Step, Wait
from adapters.trace import Trace
from conformance.checks.dr_1.invariants import INVARIANTS as DR1_INVARIANTS
from conformance.checks.dr_2.invariants import INVARIANTS as DR2_INVARIANTS
from conformance.checks.dr_3.invariants import INVARIANTS as DR3_INVARIANTS
from conformance.checks.dr_6.invariants import INVARIANTS as DR6_INVARIANTS
from conformance.engine import Case, CaseOutcome, Suite, charged, judge
from conformance.rules import load_corpus
from conformance.toolkit import ask, call, calls, cut, output, say, scenario, tool
from tests.conformance._support import REFERENCE, reference_driver

CORPUS = load_corpus()
CASES = {case.id: case for case in Suite.over(CORPUS).cases() if case.id.startswith("DR-")}
(RESUME_NOTE,) = DR2_INVARIANTS
INVARIANTS = (*DR1_INVARIANTS, *DR2_INVARIANTS, *DR3_INVARIANTS)
#: a call naming a tool by a number: well formed (a scalar name), and not wired
NUMBERED = {"name": 7, "args": {}, "tool_call_id": "c7"}


@pytest.fixture(scope="module")
def shapes() -> Iterator[dict[str, Driver]]:
    """One driver per shape, made as a test first asks for it."""
    made: dict[str, Driver] = {}
    yield made
    for driver in made.values():
        driver.close()


def _shape(shapes: dict[str, Driver], name: str) -> Driver:
    if name not in shapes:
        shapes[name] = Driver(connect(f"{REFERENCE}?shape={name}"))
    return shapes[name]


def _outcome(case: Case, runner: Driver, clause: str) -> CaseOutcome:
    """How ``case`` ends against ``runner``, as it lands on ``clause``."""
    judged = judge(case, runner)
    assert judged.verdict in ("passed", "failed", "untested"), judged.message
    return charged(judged.outcome, clause)


# --- the hunt reads a batch's calls by identifier, not by place ---------------------------------


def _resume_note(runner: Driver, model: Sequence[Reply], steps: Sequence[Step]) -> str | None:
    made = scenario(
        "hunt-like",
        tools=[tool("alpha", output({"ok": True}), schema={}), tool("delta", schema={})],
        model=[*model, say("done")],
        steps=steps,
    )
    trace = runner.run(made)
    assert isinstance(trace, Trace)
    return RESUME_NOTE.judge(made, trace, runner.handshake())


@pytest.mark.parametrize("point", ["after_tool_body", "before_tool_body"])
def test_unknown_tools_answered_first_are_neither_completed_nor_interrupted(
    shapes: dict[str, Driver], point: str
) -> None:
    """The Vercel AI SDK answers a batch's unknown tools before any body runs.  The hunt
    read the cut pass's results by place, so the call named ``7`` (answered first, never
    run) was taken for the interrupted one: "is not told of ["7"]" (DR-2 ¶3)."""
    runner = _shape(shapes, "unknown-and-blank-names-answered-first")
    verdict = _resume_note(
        runner,
        [calls(call("alpha", {}, "c1"), NUMBERED), calls(call("alpha", {}, "c1"))],
        [cut(point, on="alpha"), StartTurn("t1"), Wait()],
    )
    assert verdict is None, verdict


@pytest.mark.parametrize("point", ["after_tool_body", "before_tool_body"])
def test_a_blank_named_call_answered_leaves_the_journal_as_it_is(
    shapes: dict[str, Driver], point: str
) -> None:
    """A blank-named call answered (RT-TOOL-10 ¶4's gap) took the interrupted call's
    place among the results: the hunt then read an empty journal and a note of something
    (DR-2 ¶4), or took a call after the cut for the interrupted one (DR-2 ¶3)."""
    runner = _shape(shapes, "blank-names-answered")
    batch = ({"name": ""}, call("alpha", {"n": 1}, "c1"), call("delta", {}, "d5"))
    verdict = _resume_note(
        runner,
        [calls(*batch), ask("Go on?")],
        [cut(point, on="alpha"), StartTurn("t1"), Wait(), Answer("t1")],
    )
    assert verdict is None, verdict


# --- a turn that never continues on its own is DR-5 ¶1's gap alone ------------------------------

#: cases that wait for a turn cut by its time limit to continue by itself, and the clause
#: each judges
WAITING = (
    ("DR-2#e3/journaled-bare", "DR-2#c4"),
    ("DR-3#c2/completed-write-not-repeated[string-result]", "DR-3#c2"),
    ("DR-3#c3/read-only-never-blocked[re-dispatched]", "DR-3#c3"),
    ("DR-3#c5/claim-outlasts-a-pause[after-a-question]", "DR-3#c5"),
    ("DR-5#c2/reports-resuming-and-stop-works[after-the-first-cut]", "DR-5#c2"),
    ("DR-6#c1/continue-applies-both-layers[after-the-third-continuation]", "DR-6#c1"),
)


@pytest.mark.parametrize(("case_id", "clause"), WAITING)
def test_no_automatic_continuation_blocks_what_waits_for_one(
    shapes: dict[str, Driver], case_id: str, clause: str
) -> None:
    """A runtime that declares ``resumes_on_its_own: []`` failed DR-2 ¶4, DR-3 ¶2 … ¶5,
    DR-5 ¶2 and DR-6 ¶1 beside DR-5 ¶1: the prerequisite ``continued_on_its_own`` stood
    aside whenever the handshake said a time limit does not resume."""
    runner = _shape(shapes, "no-automatic-continuation")
    landed = _outcome(_find(case_id), runner, clause)
    assert landed.outcome == "skipped", landed.message
    assert landed.message.startswith("untested: blocked by DR-5 ¶1: "), landed.message


def test_no_automatic_continuation_still_fails_its_own_clause(shapes: dict[str, Driver]) -> None:
    runner = _shape(shapes, "no-automatic-continuation")
    case = _find("DR-5#c1/continues-in-same-turn-with-thread[cut-after-a-tool-returned]")
    assert _outcome(case, runner, "DR-5#c1").outcome == "failed"


def _find(case_id: str) -> Case:
    assert case_id in CASES, case_id
    return CASES[case_id]


# --- a retry that repeats a completed call as well as the interrupted one ---------------------


def test_a_retry_answered_from_the_journal_is_not_a_refused_retry_reported_succeeded(
    shapes: dict[str, Driver],
) -> None:
    """A history that leaves a declared call without a result out (the Vercel AI SDK's)
    lets the first retry of an interrupted send run, and it completes; the next chunk's
    identical retry matches that completion too, and DR-3 ¶2 answers it with the journaled
    result.  DR-4 ¶2's case said "the refused retry r1 is reported as succeeded"."""
    runner = _shape(shapes, "unanswered-calls-left-out-of-history")
    case = CASES["DR-4#c2/guard-only-when-history-shows[after-a-refusal-under-its-own-id]"]
    landed = _outcome(case, runner, "DR-4#c2")
    assert landed.outcome == "passed", landed.message


# --- a failed ledger read costs the note, not the refusal --------------------------------------

UNREADABLE = (
    "DR-4#c2/guard-only-when-history-shows[after-a-failed-ledger-read]",
    "DR-4#c2/refusal-outlasts-a-pause[after-a-question-the-ledger-unreadable]",
)


@pytest.mark.parametrize("case_id", UNREADABLE)
def test_a_retry_after_a_failed_ledger_read_is_refused_from_the_history(
    shapes: dict[str, Driver], case_id: str
) -> None:
    """The reference runtime refused only from its journal: after a failed ledger read it
    sent an interrupted email a second time, though the history showed the interruption
    (DR-4 ¶2), and no case played it.  It refuses from the history now, and the shape that
    keeps the old behaviour fails the clause."""
    case = CASES[case_id]
    passed = _outcome(case, reference_driver(), "DR-4#c2")
    assert passed.outcome == "passed", passed.message
    landed = _outcome(case, _shape(shapes, "retry-after-a-failed-ledger-read"), "DR-4#c2")
    assert landed.outcome == "failed", landed.message
    assert "ran (at " in landed.message, landed.message


# --- "the conversation's newest stop": the stop made last, or the latest stopped turn ----------

NEWEST_STOP = "DR-6#c3/offered-for-the-newest-stop-either-way"
#: which turn offers Continue, by runtime: the reference takes the latest stopped turn in
#: conversation order, the variant the stop that happened last
OFFERED = {
    "": "t2",
    "variant=continue-offered-for-the-stop-made-last": "t1",
    "shape=newest-stop-in-time": "t1",
}


@pytest.mark.parametrize("choice", list(OFFERED))
def test_the_newest_stop_is_the_stop_made_last_or_the_latest_stopped_turn(
    shapes: dict[str, Driver], choice: str
) -> None:
    """The suite held "the conversation's newest stop" (DR-6 ¶3) to the latest stopped turn
    in conversation order, and no case played an older turn stopped after a newer one: a
    runtime offering Continue for the stop that happened last passed only for that.  Both
    readings now conform, on a case where they differ, checks and hunt alike."""
    if choice not in shapes:
        shapes[choice] = Driver(connect(f"{REFERENCE}?{choice}" if choice else REFERENCE))
    runner = shapes[choice]
    judged = judge(CASES[NEWEST_STOP], runner)
    assert judged.verdict == "passed", judged.message
    assert judged.context is not None
    (made, trace), *_ = judged.context.evidence.runs
    assert trace is not None
    wire = trace.steps[-1].wire["main"]
    offering = [label for label in ("t1", "t2") if wire[label].continueOffered]
    assert offering == [OFFERED[choice]]
    (continue_offer,) = DR6_INVARIANTS
    assert continue_offer.judge(made, trace, runner.handshake()) is None


def test_continue_offered_for_both_stops_is_still_caught(shapes: dict[str, Driver]) -> None:
    """Offering Continue for both stops is no reading of \"only for the newest stop\"."""
    runner = Driver(connect(f"{REFERENCE}?mutant=continue-offered-for-older-stops"))
    shapes["mutant=continue-offered-for-older-stops"] = runner
    judged = judge(CASES[NEWEST_STOP], runner)
    assert judged.verdict == "failed", judged.message
    assert judged.context is not None
    (made, trace), *_ = judged.context.evidence.runs
    assert trace is not None
    (continue_offer,) = DR6_INVARIANTS
    assert continue_offer.judge(made, trace, runner.handshake()) is not None


def test_an_unknown_tool_left_unanswered_is_not_the_interrupted_call(
    shapes: dict[str, Driver],
) -> None:
    """A runtime that drops an unknown tool's result (RT-TOOL-10 ¶2's gap) leaves the
    unknown call without a result ahead of the cut one: the hunt took it for the
    interrupted call ("is not told of ["nosuch"]", DR-2 ¶3).  It never ran."""
    runner = _shape(shapes, "unknown-tool-dropped")
    verdict = _resume_note(
        runner,
        [calls(call("nosuch", {}, "c0"), call("alpha", {}, "c1")), calls(call("alpha", {}, "c2"))],
        [cut("after_tool_body", on="alpha"), StartTurn("t1"), Wait()],
    )
    assert verdict is None, verdict


# --- a run that fails after a body returned: the call may be completed, or not -----------------


@pytest.mark.parametrize("name", ["ledger-matches-work", "resume-note", "hard-block"])
def test_a_body_a_failed_run_never_reported_may_have_returned(
    shapes: dict[str, Driver], name: str
) -> None:
    """A runtime that refuses the output of a call without an identifier fails the run
    after the body returned (LangGraph; RT-TOOL-10 ¶4's gap): its ``tool_done`` is in the
    ledger, rightly, and a Continue's journal holds it.  The hunt counted returned calls
    from results alone, and failed DR-1 ¶1/¶2 ("holds 1 tool_done ..., but 0 calls of it
    returned"), DR-2 ¶4 ("had nothing in its journal") and DR-3 ¶5 ("no unclaimed
    completion to answer it")."""
    runner = _shape(shapes, "unidentified-call-fails-the-run")
    made = scenario(
        "failed-after-a-body",
        tools=[tool("alpha", output("sent"), schema={})],
        model=[calls(call("alpha", {"to": "ana"})), calls(call("alpha", {"to": "ana"}, "r1"))],
        steps=[StartTurn("t1"), Continue("t1")],
    )
    trace = runner.run(made)
    assert isinstance(trace, Trace)
    assert [run.end for run in trace.runs()] == ["failed", "completed"]  # the situation
    judged = next(one for one in INVARIANTS if one.name == name)
    assert judged.judge(made, trace, runner.handshake()) is None


def test_a_time_limit_that_never_cut_the_turn_leaves_dr5_1_untested(
    shapes: dict[str, Driver],
) -> None:
    """The run failed on its call without an identifier before the armed time limit
    fired: DR-5 ¶1 said "cut by its time limit 1 time and continued on its own 0 times"."""
    runner = _shape(shapes, "unidentified-call-fails-the-run")
    case = CASES["DR-5#c1/continues-in-same-turn-with-thread[cut-after-a-call-without-an-id]"]
    landed = _outcome(case, runner, "DR-5#c1")
    assert landed.outcome == "skipped", landed.message
    assert "never stopped at its time limit" in landed.message, landed.message


def test_a_recovery_that_would_not_otherwise_succeed_is_not_dr2_5s(
    shapes: dict[str, Driver],
) -> None:
    """DR-2 ¶5 speaks of "a recovery that would otherwise succeed".  A runtime whose time
    limit ends the turn recovers with or without a failed ledger read never: ¶5 failed
    "resumed 0 times" there, DR-5 ¶1's gap.  The case now plays the turn without the
    failed read first."""
    shapes.setdefault(
        "mutant=time-limit-ends-turn",
        Driver(connect(f"{REFERENCE}?mutant=time-limit-ends-turn")),
    )
    runner = shapes["mutant=time-limit-ends-turn"]
    case = CASES["DR-2#c5/failed-ledger-read-does-not-block[one-failed-read]"]
    landed = _outcome(case, runner, "DR-2#c5")
    assert landed.outcome == "skipped", landed.message
    assert "would otherwise succeed" in landed.message, landed.message
    stops = _shape(shapes, "no-automatic-continuation")  # a recovery Continue makes: judged
    assert _outcome(case, stops, "DR-2#c5").outcome == "passed"
