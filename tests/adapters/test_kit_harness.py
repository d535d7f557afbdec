"""KitHarness speaks the whole conversation, and Script plays the scenario in order."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from adapters.codec import to_json, validator
from adapters.kit import (
    DONE,
    BuildError,
    KitHarness,
    Script,
    Session,
    StepRecord,
    UnsupportedScenario,
    handshake,
)
from adapters.scenario import (
    Poll,
    Reply,
    Restart,
    Return,
    Scenario,
    StartTurn,
    Step,
    Tool,
    Wait,
)

SCENARIO = Scenario(id="kit/one", steps=(StartTurn(turn="t1", message="hi"), Wait()))


class Recording(Session):
    """A session that records what it was given and does as its scenario's id says."""

    def __init__(self, scenario: Scenario, log: list[object]) -> None:
        super().__init__(scenario)
        self.log = log

    def step(self, index: int, step: Step) -> StepRecord:
        self.log.append(step)
        if self.scenario.id == "kit/raises":
            raise ValueError("the runtime fell over")
        record = StepRecord(index, step.op)
        if self.scenario.id == "kit/bad-value":
            record.refused("nope", 42)  # type: ignore[arg-type]
        return record

    def finish(self) -> list[object] | None:
        if self.scenario.id == "kit/ledger":
            return [{"turn": "t1", "event": "clear"}]
        return None

    def close(self) -> None:
        self.log.append("closed")


class Harness(KitHarness):
    def __init__(self) -> None:
        super().__init__()
        self.log: list[object] = []

    def describe(self) -> dict[str, object]:
        return handshake("kit-test", "1")

    def open(self, scenario: Scenario) -> Session:
        if any(isinstance(step, Poll) for step in scenario.steps):
            raise UnsupportedScenario("poll", "no message poll")
        return Recording(scenario, self.log)


def start(harness: KitHarness, scenario: Scenario = SCENARIO) -> dict[str, Any]:
    return harness.request({"cmd": "start", "scenario": to_json(scenario)})


def test_hello_is_the_handshake() -> None:
    reply = Harness().request({"cmd": "hello", "protocol": "rttool-adapter/1"})
    assert reply["implementation"] == {"name": "kit-test", "version": "1"}
    assert list(validator("messages#/$defs/handshake").iter_errors(reply)) == []


def test_a_scenario_runs_with_typed_steps_in_order() -> None:
    harness = Harness()
    session = start(harness)["session"]
    first = harness.request({"cmd": "step", "session": session, "index": 0})
    assert first == {
        "index": 0,
        "op": "start_turn",
        "outcome": "ok",
        "warnings": [],
        "runs": [],
        "wire": {},
    }
    harness.request({"cmd": "step", "session": session, "index": 1})
    assert harness.log == [StartTurn(turn="t1", message="hi"), Wait()]
    assert harness.request({"cmd": "finish", "session": session}) == {}
    assert harness.log[-1] == "closed"
    assert (
        harness.request({"cmd": "step", "session": session, "index": 0})["error"]["code"]
        == "unknown_session"
    )


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"cmd": "step", "session": "s-9", "index": 0}, "unknown_session"),
        ({"cmd": "dance"}, "bad_request"),
        ({"session": "s-1"}, "bad_request"),
        ({"cmd": "step", "session": "s-1", "index": -1}, "bad_request"),
        ({"cmd": "start", "scenario": {"id": "x"}}, "bad_request"),
    ],
)
def test_a_request_it_cannot_answer_gets_an_error_reply(message: dict[str, Any], code: str) -> None:
    reply = Harness().request(message)
    assert set(reply) == {"error"} and reply["error"]["code"] == code
    assert list(validator("messages#/$defs/error_reply").iter_errors(reply)) == []


def test_steps_out_of_order_are_refused() -> None:
    harness = Harness()
    session = start(harness)["session"]
    reply = harness.request({"cmd": "step", "session": session, "index": 1})
    assert reply["error"]["code"] == "bad_step"
    assert harness.log == []


def test_what_cannot_run_is_answered_unsupported() -> None:
    harness = Harness()
    polls = Scenario(id="kit/poll", steps=(Poll(),))
    assert start(harness, polls) == {
        "unsupported": {"capability": "poll", "message": "no message poll"}
    }
    restarts = Scenario(id="kit/restart", steps=(Restart(),))  # the handshake offers no restart
    assert start(harness, restarts)["unsupported"]["capability"] == "restart"


def test_a_session_that_raises_is_an_error_reply_and_a_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    harness = Harness()
    session = start(harness, Scenario(id="kit/raises", steps=(Wait(),)))["session"]
    with caplog.at_level(logging.ERROR, logger="adapters.kit"):
        reply = harness.request({"cmd": "step", "session": session, "index": 0})
    detail = reply["error"].pop("detail")
    assert reply == {"error": {"message": "ValueError: the runtime fell over", "code": "harness"}}
    assert "the runtime fell over" in caplog.text
    # The traceback travels with the reply, over any transport: the suite keeps it.
    assert detail.startswith("Traceback (most recent call last)") and "ValueError" in detail
    validator("messages#/$defs/error_reply").validate(
        {"error": {**reply["error"], "detail": detail}}
    )


def test_a_harness_fault_keeps_its_traceback_in_the_errors_record() -> None:
    from adapters import Driver
    from adapters.errors import ImplementationError
    from adapters.inprocess import InProcessConnection
    from conformance._errored import error_record

    scenario = Scenario(id="kit/raises", steps=(Wait(),))
    driver = Driver(InProcessConnection("stdio:kit-harness", Harness()))
    with pytest.raises(ImplementationError) as raised:
        driver.run(scenario)
    record = error_record(raised.value, scenario, case="RT-TOOL-1#c1/probe")
    assert record["traceback"] is not None and "the runtime fell over" in record["traceback"]


def test_a_bad_value_names_its_pointer_in_the_error_reply() -> None:
    harness = Harness()
    session = start(harness, Scenario(id="kit/bad-value", steps=(Wait(),)))["session"]
    reply = harness.request({"cmd": "step", "session": session, "index": 0})
    assert reply["error"]["code"] == "build"
    assert "pointer=/error/message" in reply["error"]["message"]


def test_finish_reports_the_ledger_when_there_is_one() -> None:
    harness = Harness()
    session = start(harness, Scenario(id="kit/ledger", steps=(Wait(),)))["session"]
    assert harness.request({"cmd": "finish", "session": session}) == {
        "ledger": [{"turn": "t1", "event": "clear"}]
    }


def test_bye_closes_every_session() -> None:
    harness = Harness()
    start(harness)
    start(harness)
    assert harness.request({"cmd": "bye"}) == {}
    assert harness.log == ["closed", "closed"]


def test_a_handshake_that_breaks_the_schema_is_an_error_reply() -> None:
    class Broken(Harness):
        def describe(self) -> dict[str, object]:
            return {"protocol": "rttool-adapter/1"}

    reply = Broken().request({"cmd": "hello", "protocol": "rttool-adapter/1"})
    assert reply["error"]["code"] == "build"
    with pytest.raises(BuildError):
        Broken().handshake()


def test_the_script_plays_replies_in_order_then_done() -> None:
    scenario = Scenario(id="kit/s", steps=(), model=(Reply(text="a"), Reply(question="b?")))
    script = Script(scenario)
    assert [script.next_reply(), script.next_reply(), script.next_reply()] == [
        Reply(text="a"),
        Reply(question="b?"),
        DONE,
    ]
    assert script.replies_left == 0


def test_the_script_plays_returns_in_order_and_repeats_the_last() -> None:
    tool = Tool(name="t", returns=(Return(output=1), Return(fail="no")))
    script = Script(Scenario(id="kit/t", steps=(), tools=(tool,)))
    assert [script.invoke("t") for _ in range(3)] == [
        Return(output=1),
        Return(fail="no"),
        Return(fail="no"),
    ]
    assert script.invocations("t") == 3 and script.invocations("other") == 0
    assert script.tool("t") is tool and script.tool("other") is None and script.tool(7) is None
    with pytest.raises(KeyError):
        script.invoke("other")
