"""The timeout breaker: after three cases in a row time out, the rest are not waited on."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adapters.errors import TimedOut
from conformance.engine import Case, RunOptions, Session, load_suite
from conformance.rules import load_corpus
from conformance.toolkit import CheckContext, Untested


def _case(name: str, run: Callable[[CheckContext], None]) -> Case:
    return Case(f"RT-TOOL-1#c1/{name}", name, "check", ("RT-TOOL-1#c1",), name, run)


def _state(cases: list[Case]) -> Session:
    options = RunOptions.quiet_reference(timeout=5.0)
    return Session(options, load_corpus(), load_suite().situations)


def _times_out(ctx: CheckContext) -> None:
    raise TimedOut("harness did not answer in time", timeout=5.0)


def _untested(ctx: CheckContext) -> None:
    raise Untested("needs capability ledger")


def _passes(ctx: CheckContext) -> None:
    return None


def _asks(ctx: CheckContext) -> None:
    from adapters.scenario import StartTurn
    from conformance.toolkit import say, scenario

    ctx.run(scenario("asks", steps=[StartTurn("t1")], model=[say("hi")]))


def _run(kinds: list[Callable[[CheckContext], None]]) -> list[str]:
    cases = [_case(f"c{i}", kind) for i, kind in enumerate(kinds)]
    state = _state(cases)
    try:
        return [
            "not-run" if "not run" in (o := state.execute(case)).message else o.outcome
            for case in cases
        ]
    finally:
        state.close()


def test_three_timeouts_in_a_row_stop_the_waiting() -> None:
    got = _run([_times_out, _times_out, _times_out, _asks, _asks])
    assert got == ["error", "error", "error", "not-run", "not-run"]


def test_after_the_breaker_what_cannot_be_tried_is_still_untested() -> None:
    # A case that needs a capability the implementation lacks says so before it sends
    # anything: the breaker must not turn that into an error.
    got = _run([_times_out, _times_out, _times_out, _untested, _asks])
    assert got == ["error", "error", "error", "skipped", "not-run"]


def test_a_halted_runner_still_tells_unsupported_from_not_run() -> None:
    from dataclasses import replace

    from adapters.driver import Unsupported
    from adapters.scenario import Restart, StartTurn
    from conformance.engine._session import _Halted, _NotRun
    from conformance.toolkit import scenario

    state = _state([])
    try:
        real = state.handshake()
    finally:
        state.close()
    lacking = replace(real, capabilities=replace(real.capabilities, restart=False))
    halted = _Halted(lacking, "not run: hanging")
    needs_restart = scenario("r", steps=[StartTurn("t1"), Restart()])
    assert halted.run(needs_restart) == Unsupported("restart", "the handshake does not offer it")
    with pytest.raises(_NotRun):
        halted.run(scenario("s", steps=[StartTurn("t1")]))


def test_only_an_answered_scenario_resets_the_count() -> None:
    # A case judged without a request (here: one that passes at once) proves nothing.
    got = _run([_times_out, _times_out, _passes, _untested, _times_out, _asks])
    assert got == ["error", "error", "passed", "skipped", "error", "not-run"]
    got = _run([_times_out, _times_out, _asks, _times_out, _times_out, _asks])
    assert got == ["error", "error", "passed", "error", "error", "passed"]


def test_one_shared_failure_counts_once() -> None:
    shared = TimedOut("the hunt's search timed out", timeout=5.0)

    def hunt(ctx: CheckContext) -> None:
        raise shared

    got = _run([hunt, hunt, hunt, hunt, _asks])
    assert got == ["error", "error", "error", "error", "passed"]
