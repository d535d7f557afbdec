"""What the ADK harness does where ADK differs from the other frameworks: several gated
calls pending at once, ids ADK generates, a paused turn a newer turn superseded, and an
invocation that never comes to rest."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from adapters import Driver, Trace, connect
from adapters.scenario import Approve, Decline, Reply, Scenario, StartTurn, Tool, call

pytest.importorskip("google.adk")

GATED = (Tool(name="do_thing"), Tool(name="gated_thing", gate=True))


@pytest.fixture
def driver() -> Iterator[Driver]:
    driver = Driver(connect("python:harnesses.adk:create", timeout=60), timeout=60)
    yield driver
    driver.close()


def run(driver: Driver, scenario: Scenario) -> Trace:
    trace = driver.run(scenario)
    assert isinstance(trace, Trace), trace
    return trace


def test_each_approval_answers_one_of_the_gated_calls_pending_at_once(driver: Driver) -> None:
    both = Scenario(
        id="adk/two-gates",
        tools=GATED,
        model=(
            Reply(tool_calls=(call("gated_thing", {}, "g1"), call("gated_thing", {}, "g2"))),
            Reply(text="done"),
        ),
        steps=(StartTurn(turn="t1"), Approve(turn="t1"), Decline(turn="t1")),
    )
    start, approve, decline = run(driver, both).steps
    pending = start.wire["main"]["t1"].pending
    assert isinstance(pending, list) and [p["gate"]["tool_call_id"] for p in pending] == [
        "g1",
        "g2",
    ]
    assert [r.tool_call_id for r in approve.runs[0].passes[0].results] == ["g1"]
    assert approve.runs[0].end == "paused"
    assert approve.wire["main"]["t1"].pending["gate"]["tool_call_id"] == "g2"  # type: ignore[index]
    (declined,) = decline.runs[0].passes[0].results
    assert (declined.tool_call_id, declined.disposition) == ("g2", "declined")
    assert decline.wire["main"]["t1"].status == "completed"


def test_a_call_without_an_id_keeps_the_id_adk_gives_it(driver: Driver) -> None:
    anonymous = Scenario(
        id="adk/no-id",
        tools=(Tool(name="do_thing"),),
        model=(Reply(tool_calls=(call("do_thing", {}),)), Reply(text="done")),
        steps=(StartTurn(turn="t1"),),
    )
    (only,) = run(driver, anonymous).runs()
    (result,) = only.passes[0].results
    assert result.tool_call_id is not None and result.tool_call_id.startswith("adk-")
    assert only.side_effects[0]["tool_call_id"] == result.tool_call_id  # type: ignore[index]
    assert result.tool_call_id not in json.dumps([m.messages for m in only.model_inputs])


def test_a_superseded_paused_turn_stays_paused_and_can_be_approved(driver: Driver) -> None:
    superseded = Scenario(
        id="adk/superseded",
        tools=GATED,
        model=(Reply(tool_calls=(call("gated_thing", {}, "g1"),)), Reply(text="two"), Reply()),
        steps=(StartTurn(turn="t1"), StartTurn(turn="t2"), Approve(turn="t1")),
    )
    _, second, approve = run(driver, superseded).steps
    assert second.wire["main"]["t1"].status == "paused"
    assert second.wire["main"]["t2"].status == "completed"
    assert approve.outcome == "ok" and approve.runs[0].side_effects[0]["tool"] == "gated_thing"  # type: ignore[index]
    assert approve.wire["main"]["t1"].status == "completed"


def test_an_invocation_that_never_comes_to_rest_is_stopped_and_failed(driver: Driver) -> None:
    restless = Scenario(
        id="adk/restless",
        tools=(Tool(name="do_thing"),),
        model=(Reply(tool_calls=(call("do_thing", {}, "c1"), call("", {}, "m1"))),),
        steps=(StartTurn(turn="t1"),),
    )
    (step,) = run(driver, restless).steps
    assert step.outcome == "failed" and "did not come to rest" in str(step.error)
    (stopped,) = step.runs
    assert (
        stopped.end == "failed" and len(stopped.passes) > 2
    )  # one batch, answered again and again
    assert [one["tool"] for one in stopped.side_effects] == ["do_thing"]  # type: ignore[index]
