"""The hunt's situations are counted: a hunt case that found nothing records the situations
of its clauses that the examples it judged reached, as a counterexample records its own.

Before, a passing hunt case recorded none (it keeps no trace of its own), so the
standing's ``reached`` said nothing of what thousands of judged examples met.  The count
is kept cheap: each situation is tested on an example only until some example reaches
it.  And a case that read no trace at all (a check judging what the handshake declares)
records no situations: its failure stands where a clause names situations."""

from __future__ import annotations

from dataclasses import replace

from adapters.handshake import Handshake
from adapters.scenario import Scenario, StartTurn
from adapters.trace import Trace
from conformance.engine import Case, RunOptions, Selection, Session, charged, load_suite
from conformance.hunt import Budget, hunt
from conformance.hunt._reached import ReachedSituations
from conformance.toolkit import CheckContext, Situation, situation
from tests.conformance._support import reference_driver


def test_a_situation_is_tested_only_until_an_example_reaches_it() -> None:
    calls: list[str] = []

    def test(name: str, reaches: bool) -> Situation:
        def reached(scenario: Scenario, trace: Trace, handshake: Handshake) -> bool:
            calls.append(name)
            return reaches

        return reached

    counted = ReachedSituations(
        {
            "R-1#c1": (
                situation("R-1#c1", "met", test("met", True)),
                situation("R-1#c1", "never met", test("never", False)),
            )
        }
    )
    handshake = reference_driver().handshake()
    example = (Scenario(id="x", steps=(StartTurn("t1"),)), Trace(scenario="x", steps=()))
    for _ in range(3):
        counted.note(["R-1#c1", "R-2#c1"], *example, handshake)
    assert calls == ["met", "never", "never", "never"]
    assert counted.tests == 4
    assert counted.of(["R-1#c1", "R-2#c1"]) == {"R-1#c1": ("met",)}


def test_the_search_counts_what_its_examples_reached() -> None:
    suite = load_suite()
    driver = reference_driver()
    budget = Budget(examples=25, seconds=3, derandomize=True, limit=25)
    counted = hunt(
        driver, driver.handshake(), suite.invariants, budget, situations=suite.situations
    )
    clauses = {clause for one in suite.invariants for clause in one.clauses}
    assert counted.reached and set(counted.reached) <= clauses
    for clause, words in counted.reached.items():
        named = [one.words for one in suite.situations[clause]]
        assert [word for word in named if word in words] == list(words), clause
    # Every generated example calls a tool: each has its result reported.
    assert counted.reached["RT-TOOL-1#c1"] == ("a call whose result is reported",)
    # Without situations to count, nothing is counted.
    plain = hunt(driver, driver.handshake(), suite.invariants[:1], replace(budget, limit=5))
    assert plain.reached == {}


def test_a_passing_hunt_case_records_what_the_examples_it_judged_reached() -> None:
    suite = load_suite()
    options = replace(
        RunOptions.quiet_reference(), no_hunt=False, examples=25, hunt_seconds=3, ci=True
    )
    cases = suite.cases(Selection(kinds=("hunt",)), hunt=options)
    case = next(one for one in cases if one.id == "HUNT/result-shape")
    session = Session(options, suite.corpus, suite.situations)
    try:
        outcome = session.execute(case)
    finally:
        session.close()
    assert outcome.outcome == "passed", outcome.message
    assert outcome.reached["RT-TOOL-1#c1"] == ("a call whose result is reported",)
    assert set(outcome.reached) == set(case.clauses) & set(suite.situations)


def test_a_case_that_read_no_trace_records_no_situation_and_its_failure_stands() -> None:
    def declared_only(ctx: CheckContext) -> None:
        ctx.fail("the handshake declares no bound at all; RT-TOOL-6 ¶1")

    case = Case(
        id="X/declared",
        name="declared",
        kind="check",
        clauses=("RT-TOOL-6#c1",),
        summary="",
        run=declared_only,
    )
    suite = load_suite()
    session = Session(RunOptions.quiet_reference(), suite.corpus, suite.situations)
    try:
        outcome = session.execute(case)
    finally:
        session.close()
    assert outcome.outcome == "failed"
    assert outcome.reached == {}
    named = tuple(one.words for one in suite.situations["RT-TOOL-6#c1"])
    assert charged(outcome, "RT-TOOL-6#c1", named).outcome == "failed"
