"""A counterexample as small as its verdict allows: after hypothesis has shrunk a
finding, every driver step, every model reply and every call of a batch that the
failure does not need is taken out, one at a time.

Hypothesis shrinks the choices a scenario was drawn from, not the scenario, and several
of the hunt's scenarios are drawn in ways it cannot take apart one step at a time: a
coherent story has two runs at least, and each run draws its batches, its ending and the
step that resumes it together (so a story never shrinks below three steps and four
replies, where one run often shows the bug); a storm draws its cuts in counted loops,
which shrink from the end only; every tool's scripted returns are drawn after the model,
so taking out a call shifts every draw after it and makes another scenario.  And a
search stops shrinking on purpose: outside CI after a few seconds, in CI after a count
of successful shrinks (most of which simplify values rather than take steps out), in the
self-test as soon as a counterexample has ten steps or fewer.  What was left behind
were polls, restarts and batches the failure never needed.

So the hunt runs one more pass of its own over the scenario, deterministic and bounded
by a count of runs (the same on any machine): the steps from the last to the first, then
the model's replies, then the calls of batches of several; a removal is kept where the
scenario without it still breaks the same invariant, charged to the same clauses, with
the same channels holding or broken (the case's verdict is then the one the longer
scenario had); passes repeat until one removes nothing.  Each run counts as a shrink.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from adapters.driver import Unsupported
from adapters.errors import ImplementationError
from adapters.handshake import Handshake
from adapters.scenario import Reply, Scenario, StartTurn
from adapters.trace import Trace
from conformance.hunt._charged import breached
from conformance.stopping import stop_requested
from conformance.toolkit.machinery import Invariant, ScenarioRunner, broken_channels

__all__ = ["MINIMISE_RUNS", "Minimised", "minimise"]

#: At most this many runs to minimise one counterexample.  A pass costs a run per step,
#: reply and call of a batch of several; the self-test's 47 findings took 23 runs each on
#: average and 44 at most, so the bound only guards against a very long scenario.
MINIMISE_RUNS = 100


@dataclass(frozen=True)
class Minimised:
    """A counterexample after the pass: the scenario, its failure and trace, the runs it
    cost, and whether a stop signal ended it early (what was kept so far stands)."""

    scenario: Scenario
    message: str
    trace: Trace
    runs: int
    interrupted: bool = False


@dataclass(frozen=True)
class _Verdict:
    """What a removal must leave as it was: the clauses charged, the channels broken."""

    clauses: tuple[str, ...]
    channels: frozenset[tuple[str, str | None]]


def minimise(
    scenario: Scenario,
    message: str,
    trace: Trace,
    invariant: Invariant,
    runner: ScenarioRunner,
    handshake: Handshake,
    runs: int = MINIMISE_RUNS,
) -> Minimised:
    """``scenario`` (which breaks ``invariant`` with ``message`` in ``trace``) with every
    step, reply and call taken out whose removal leaves the verdict as it was, trying at
    most ``runs`` removals.  An implementation that cannot run a candidate ends the pass
    there: what was kept so far stands."""
    wanted = _verdict(invariant, message, scenario, trace, handshake)
    kept = _Kept(Minimised(scenario, message, trace, 0))
    spent = 0
    try:
        progress = True
        while progress:
            progress = False
            for candidate in _candidates(kept):
                if spent >= runs:
                    return replace(kept.best, runs=spent)
                if stop_requested():
                    raise KeyboardInterrupt
                spent += 1
                failed = _still_fails(candidate, invariant, wanted, runner, handshake)
                if failed is not None:
                    kept.best, progress = Minimised(candidate, *failed, spent), True
    except ImplementationError:
        pass
    except KeyboardInterrupt:
        return replace(kept.best, runs=spent, interrupted=True)
    return replace(kept.best, runs=spent)


@dataclass
class _Kept:
    """The smallest failing scenario so far (the pass's candidates are made from it)."""

    best: Minimised


def _verdict(
    invariant: Invariant, message: str, scenario: Scenario, trace: Trace, handshake: Handshake
) -> _Verdict:
    broken = broken_channels(
        invariant.through, scenario, trace, handshake, judging=invariant.clauses
    )
    return _Verdict(
        breached(invariant, message),
        frozenset((one.channel.name, one.channel.clause) for one in broken),
    )


def _still_fails(
    candidate: Scenario,
    invariant: Invariant,
    wanted: _Verdict,
    runner: ScenarioRunner,
    handshake: Handshake,
) -> tuple[str, Trace] | None:
    """The failure and trace of ``candidate`` where its verdict is ``wanted``."""
    trace = runner.run(candidate)
    if isinstance(trace, Unsupported):
        return None
    message = invariant.judge(candidate, trace, handshake)
    if message is None:
        return None
    if _verdict(invariant, message, candidate, trace, handshake) != wanted:
        return None
    return message, trace


def _candidates(kept: _Kept) -> Iterator[Scenario]:
    """One pass of removals over the smallest scenario ``kept`` so far (it changes as
    removals are kept): each step from the last to the first, each reply likewise, then
    each call of a batch of several.  Going from the end, a kept removal leaves the
    places still to try where they were."""

    def current() -> Scenario:
        return kept.best.scenario

    for index in reversed(range(len(current().steps))):
        fewer = _without_step(current(), index)
        if fewer is not None:
            yield fewer
    for index in reversed(range(len(current().model))):
        scenario = current()
        yield replace(scenario, model=scenario.model[:index] + scenario.model[index + 1 :])
    for index in reversed(range(len(current().model))):
        calls = current().model[index].tool_calls or ()
        for position in reversed(range(len(calls))):
            fewer = _without_call(current(), index, position)
            if fewer is not None:
                yield fewer


def _without_step(scenario: Scenario, index: int) -> Scenario | None:
    """``scenario`` without its step ``index``; ``None`` for its only step (a scenario
    has one at least) and for the start of a turn a later step names (without it the
    step would name no turn)."""
    if index >= len(scenario.steps) or len(scenario.steps) == 1:
        return None
    step = scenario.steps[index]
    if isinstance(step, StartTurn) and any(
        getattr(later, "turn", None) == step.turn for later in scenario.steps[index + 1 :]
    ):
        return None
    return replace(scenario, steps=scenario.steps[:index] + scenario.steps[index + 1 :])


def _without_call(scenario: Scenario, index: int, position: int) -> Scenario | None:
    """``scenario`` with call ``position`` taken out of reply ``index``'s batch, where
    the batch keeps one at least (a batch emptied is another situation, an empty pass;
    the whole reply's removal was tried before)."""
    if index >= len(scenario.model):
        return None
    reply = scenario.model[index]
    calls = reply.tool_calls or ()
    if len(calls) < 2 or position >= len(calls):
        return None
    fewer = Reply(reply.text, calls[:position] + calls[position + 1 :], reply.question)
    return replace(scenario, model=(*scenario.model[:index], fewer, *scenario.model[index + 1 :]))
