"""The hunt's counterexamples are minimal: every poll, restart, batch and call the
failure does not need is taken out after hypothesis's shrink
(``conformance/hunt/_minimise.py``), within a count of runs, and only where the verdict
stays the one the longer scenario had."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import strategies as st

from adapters import Driver, connect
from adapters.errors import ImplementationError
from adapters.handshake import Handshake
from adapters.scenario import (
    Answer,
    Decline,
    Poll,
    Reply,
    Restart,
    Return,
    Scenario,
    StartTurn,
    Step,
    Tool,
    call,
)
from adapters.trace import Trace
from conformance.engine import load_suite
from conformance.hunt import Budget, hunt, steps_summary
from conformance.hunt._minimise import minimise
from conformance.toolkit import invariant
from conformance.toolkit.machinery import Breach, Channel, Invariant
from tests.conformance._support import reference_driver

FULL = reference_driver().handshake()

#: A combination bug the hunt catches (at-most-once): when the gated call of a batch is
#: declined, its sibling that had returned runs again as the batch is re-issued.
MUTANT = "python:reference_impl.harness:create?mutant=batch-sibling-re-runs-on-resume"

#: The bug in its smallest form: one batch of a call and a gated call, declined.
BATCH = Reply(
    text="Working.",
    tool_calls=(call("alpha", {"to": "ana"}, "c2"), call("gamma", {}, "g1")),
)
#: The same, with what the failure does not need around it: polls and restarts before,
#: between and after, an earlier batch and a later one, a third call in the batch.
PLANTED = Scenario(
    id="hunt",
    steps=(
        Poll(),
        Restart(),
        StartTurn(turn="t1"),
        Poll(),
        Restart(),
        Decline(turn="t1"),
        Restart(),
        Poll(),
    ),
    tools=(
        Tool(name="alpha", returns=(Return(output={"ok": 1}), Return(output={"n": "again"}))),
        Tool(name="beta", returns=(Return(output={"ok": 2}), Return(output={"n": "again"}))),
        Tool(name="gamma", returns=(Return(output={"n": "again"}),), gate=True),
    ),
    model=(
        Reply(tool_calls=(call("beta", {}, "c1"),)),
        Reply(text=BATCH.text, tool_calls=(*(BATCH.tool_calls or ()), call("beta", {}, "c3"))),
        Reply(text="Here you are."),
        Reply(tool_calls=(call("beta", {}, "c4"),)),
    ),
)


def _planted_hunt(monkeypatch: pytest.MonkeyPatch, runs: int) -> tuple[Scenario, int]:
    """The hunt against the mutant, its search given the planted scenario alone (which
    hypothesis cannot shrink: it drew nothing): the counterexample it reports, and the
    shrinks it counted."""
    from conformance.hunt import strategies

    monkeypatch.setattr(strategies, "scenarios", lambda handshake: st.just(PLANTED))
    driver = Driver(connect(MUTANT))
    handshake = driver.handshake()
    invariants = [i for i in load_suite().invariants if i.profile in handshake.profiles]
    budget = Budget(seed=0, limit=5, seconds=600, shrinks=200, minimise=runs)
    outcome = hunt(driver, handshake, invariants, budget)
    found = outcome.findings["at-most-once"]
    return found.scenario, outcome.shrinks


def test_a_planted_counterexample_comes_back_minimal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No poll, no restart, no batch and no call that can go: a start, the decline, one
    batch of the two calls the bug needs; and without any of these it passes."""
    found, shrinks = _planted_hunt(monkeypatch, 100)
    assert steps_summary(found) == "start_turn(t1) -> decline(t1)"
    assert found.model == (BATCH,)
    as_found, hypothesis_shrinks = _planted_hunt(monkeypatch, 0)
    assert as_found == PLANTED  # hypothesis alone leaves it as it was planted
    assert 0 < shrinks - hypothesis_shrinks <= 100  # the pass's runs, counted as shrinks
    driver = Driver(connect(MUTANT))
    handshake = driver.handshake()
    at_most_once = next(i for i in load_suite().invariants if i.name == "at-most-once")
    for fewer in (
        _replaced(found, steps=found.steps[:1]),
        _replaced(found, model=()),
        _replaced(found, model=(Reply(BATCH.text, (BATCH.tool_calls or ())[:1]),)),
        _replaced(found, model=(Reply(BATCH.text, (BATCH.tool_calls or ())[1:]),)),
    ):
        trace = driver.run(fewer)
        assert isinstance(trace, Trace)
        assert at_most_once.judge(fewer, trace, handshake) is None, steps_summary(fewer)


def _replaced(scenario: Scenario, **changes: object) -> Scenario:
    import dataclasses

    return dataclasses.replace(scenario, **changes)  # type: ignore[arg-type]


class _Scripted:
    """A runner that runs nothing: every scenario's trace is empty, and ``raising``
    scenarios (by their steps) raise as an implementation that cannot run them."""

    def __init__(self, raising: Callable[[Scenario], bool] = lambda made: False) -> None:
        self.raising = raising
        self.ran: list[Scenario] = []

    def handshake(self) -> Handshake:
        return reference_driver().handshake()

    def run(self, scenario: Scenario) -> Trace:
        self.ran.append(scenario)
        if self.raising(scenario):
            raise ImplementationError("could not run it")
        return Trace(scenario=scenario.id, steps=())


def _polls(made: Scenario) -> int:
    return sum(isinstance(step, Poll) for step in made.steps)


def _made(*steps: Step) -> Scenario:
    return Scenario(id="hunt", steps=steps, model=(Reply(text="a"), Reply(text="b")))


def _judged_by(
    judge: Callable[[Scenario], str | None], through: tuple[Channel, ...] = ()
) -> Invariant:
    made = invariant(
        "scripted",
        ("RT-TOOL-1#c1", "RT-TOOL-1#c2"),
        lambda scenario, trace, handshake: judge(scenario),
        "any",
        lambda scenario, trace, handshake: True,
        through=through,
    )
    return made


def _minimised(made: Scenario, judged: Invariant, runner: _Scripted, runs: int = 100) -> Scenario:
    message = judged.judge(made, Trace(scenario="hunt", steps=()), runner.handshake())
    assert message is not None
    done = minimise(
        made, message, Trace(scenario="hunt", steps=()), judged, runner, runner.handshake(), runs
    )
    assert done.runs == len(runner.ran) <= runs
    return done.scenario


LONG = _made(StartTurn("t1"), Poll(), Restart(), Poll(), Answer("t1"), Poll(), Restart())


def test_only_what_the_failure_needs_is_kept() -> None:
    """Failing wherever two polls are left: two polls, nothing else (the replies go too)."""
    judged = _judged_by(lambda made: "two polls" if _polls(made) >= 2 else None)
    kept = _minimised(LONG, judged, _Scripted())
    assert kept.steps == (Poll(), Poll()) and kept.model == ()


def test_a_scenario_keeps_one_step() -> None:
    """Failing whatever the steps: one is left, as a scenario has one at least."""
    kept = _minimised(LONG, _judged_by(lambda made: "always"), _Scripted())
    assert kept.steps == (StartTurn("t1"),) and kept.model == ()


def test_a_start_is_kept_while_a_later_step_names_its_turn() -> None:
    judged = _judged_by(lambda made: "an answer" if Answer("t1") in made.steps else None)
    kept = _minimised(LONG, judged, _Scripted())
    assert kept.steps == (StartTurn("t1"), Answer("t1"))


def test_a_removal_that_changes_the_clauses_charged_is_not_kept() -> None:
    """With one poll left the failure is charged to ¶1 alone: not the same verdict."""

    def judge(made: Scenario) -> str | None:
        polls = _polls(made)
        if polls == 0:
            return None
        return "polls" if polls >= 2 else Breach("one poll", ("RT-TOOL-1#c1",))

    kept = _minimised(LONG, _judged_by(judge), _Scripted())
    assert _polls(kept) == 2


def test_a_removal_that_breaks_a_channel_is_not_kept() -> None:
    """A channel holding in the longer scenario must hold in the shorter one: the case's
    verdict would be blocked there, not failed."""
    restarted = Channel(
        "a restart",
        "RT-TOOL-2#c1",
        lambda made, trace, handshake: None if Restart() in made.steps else "no restart",
    )
    judged = _judged_by(lambda made: "a poll" if _polls(made) else None, (restarted,))
    kept = _minimised(LONG, judged, _Scripted())
    assert kept.steps == (Poll(), Restart())


def test_the_pass_stops_at_its_count_of_runs() -> None:
    judged = _judged_by(lambda made: "a poll" if _polls(made) else None)
    runner = _Scripted()
    kept = _minimised(LONG, judged, runner, runs=3)
    assert len(runner.ran) == 3
    assert len(kept.steps) == len(LONG.steps) - 3  # the last three steps went, one a run


def test_the_pass_ends_where_the_implementation_cannot_run_a_candidate() -> None:
    """What was kept before stands; nothing more is tried."""
    judged = _judged_by(lambda made: "a poll" if _polls(made) else None)
    runner = _Scripted(raising=lambda made: len(made.steps) < 6)
    kept = _minimised(LONG, judged, runner)
    assert len(kept.steps) == 6 and len(runner.ran) == 2


def test_a_stop_during_the_pass_keeps_what_was_taken_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stop signal ends the pass at the next run: what was removed before stands, and
    the pass says it was interrupted (the hunt then reports itself interrupted)."""
    from conformance.hunt import _minimise

    asked: list[int] = []

    def stop_after_two() -> bool:
        asked.append(1)
        return len(asked) > 2

    monkeypatch.setattr(_minimise, "stop_requested", stop_after_two)
    judged = _judged_by(lambda made: "a poll" if _polls(made) else None)
    message = judged.judge(LONG, Trace(scenario="hunt", steps=()), FULL)
    assert message is not None
    runner = _Scripted()
    done = minimise(LONG, message, Trace(scenario="hunt", steps=()), judged, runner, FULL)
    assert done.interrupted and done.runs == len(runner.ran) == 2
    assert len(done.scenario.steps) == len(LONG.steps) - 2
