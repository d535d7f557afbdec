"""The channel of DR-5 ¶1: what breaks it in a trace, and what does not."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from adapters import Driver, connect
from adapters.scenario import StartTurn, Step, Stop, Wait
from adapters.trace import Trace
from conformance.toolkit import CONTINUES_ON_ITS_OWN, cut, say, scenario, tools
from tests.conformance._support import REFERENCE

#: a turn cut by its time limit in its model call, then waited on
CUT_AND_WAIT = (cut("during_model_call"), StartTurn("t1"), Wait())


@pytest.fixture(scope="module")
def drivers() -> Iterator[dict[str, Driver]]:
    made: dict[str, Driver] = {}
    yield made
    for driver in made.values():
        driver.close()


def _broken(drivers: dict[str, Driver], choice: str, steps: Sequence[Step]) -> str | None:
    if choice not in drivers:
        drivers[choice] = Driver(connect(f"{REFERENCE}?{choice}" if choice else REFERENCE))
    runner = drivers[choice]
    made = scenario("channel", tools=tools(), model=[say("done")], steps=steps)
    trace = runner.run(made)
    assert isinstance(trace, Trace)
    return CONTINUES_ON_ITS_OWN.broken(made, trace, runner.handshake())


def test_a_turn_that_continued_keeps_the_channel(drivers: dict[str, Driver]) -> None:
    assert _broken(drivers, "", CUT_AND_WAIT) is None


def test_a_handshake_without_time_limits_breaks_it(drivers: dict[str, Driver]) -> None:
    why = _broken(drivers, "shape=no-automatic-continuation", CUT_AND_WAIT)
    assert why is not None and "resumes_on_its_own leaves time_limit out" in why


def test_a_wait_that_continued_nothing_breaks_it(drivers: dict[str, Driver]) -> None:
    why = _broken(drivers, "mutant=time-limit-ends-turn", CUT_AND_WAIT)
    assert why is not None and "the wait at /steps/2 continued no turn on its own" in why


@pytest.mark.parametrize(
    "steps",
    [
        # Stopped while it waited: nothing is owed (DR-5 ¶2)
        (cut("during_model_call"), StartTurn("t1"), Stop("t1"), Wait()),
        # A new message supersedes the waiting turn (DR-6 ¶4)
        (cut("during_model_call"), StartTurn("t1"), StartTurn("t2"), Wait()),
        # A fourth time limit ends the turn (DR-5 ¶3, ¶5)
        (*(cut("during_model_call") for _ in range(4)), StartTurn("t1"), Wait(), Wait()),
    ],
    ids=["stopped", "superseded", "fourth-cut"],
)
def test_what_owes_no_continuation_keeps_it(
    drivers: dict[str, Driver], steps: Sequence[Step]
) -> None:
    assert _broken(drivers, "", steps) is None
