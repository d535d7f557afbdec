"""The Driver end to end against the guide's toy harness, over every transport."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from adapters import Connection, Driver, ProtocolMismatch, SchemaViolation, Trace, Unsupported
from adapters.codec import to_json, validator
from adapters.errors import BrokenOffer
from adapters.http import HttpConnection
from adapters.protocol import Message
from adapters.scenario import Reply, Restart, Return, Scenario, StartTurn, Tool, Wait, call
from tests.adapters import toy
from tests.adapters.conftest import OpenToy, serve

LINK = {"type": "link", "payload": {"url": "https://example.com/r/1"}}
REPORT = Scenario(
    id="toy/artifact",
    tools=(
        Tool(
            name="make_report",
            returns=(Return(output={"summary": "3 findings", "artifacts": [LINK]}),),
        ),
    ),
    model=(
        Reply(tool_calls=(call("make_report", {"topic": "q3"}, "call_1"),)),
        Reply(text="Here is your report."),
    ),
    steps=(StartTurn(turn="t1", message="Q3 report, please"), Wait()),
)
DELIVERED = [{**LINK, "tool_call_id": "call_1"}]


class Counting:
    """A connection that remembers which commands the suite sent through it."""

    def __init__(self, inner: Connection) -> None:
        self.inner = inner
        self.spec = inner.spec
        self.sent: list[str] = []

    def request(self, message: Message, *, timeout: float | None = None) -> Message:
        self.sent.append(str(message.get("cmd")))
        return self.inner.request(message, timeout=timeout)

    def close(self) -> None:
        self.inner.close()


def check_report_trace(trace: Trace | Unsupported) -> None:
    assert isinstance(trace, Trace)
    assert not list(validator("trace").iter_errors(to_json(trace)))
    assert [step.op for step in trace.steps] == ["start_turn", "wait"]
    ((run, one),) = list(trace.passes())
    assert run.cause == "start" and run.end == "completed"
    assert one.ports["tool_artifacts"] == DELIVERED  # type: ignore[index]
    (result,) = one.results
    assert result.disposition == "executed"
    assert result.result == {
        "success": True,
        "data": {"summary": "3 findings"},
        "error": None,
        "artifacts": [LINK],
    }
    wire = trace.final_wire()["main"]["t1"]
    assert wire.status == "completed"
    assert wire.messages[-1]["toolArtifacts"] == DELIVERED  # type: ignore[index]
    assert wire.toolArtifacts == DELIVERED


def test_handshake(open_toy: OpenToy) -> None:
    driver = Driver(open_toy(), timeout=60)
    handshake = driver.handshake()
    assert handshake.implementation.name == "toy-runtime"
    assert handshake.profiles == ("runtime",)
    assert handshake.capabilities.entry_points == ("chat",)
    assert handshake.capabilities.restart is False
    assert driver.handshake() is handshake  # asked once


def test_runs_scenarios_one_after_another(open_toy: OpenToy) -> None:
    driver = Driver(open_toy(), timeout=60)
    check_report_trace(driver.run(REPORT))
    check_report_trace(driver.run(REPORT))  # a fresh session: nothing shows through


def test_another_protocol_version_is_refused(open_toy: OpenToy) -> None:
    driver = Driver(open_toy(protocol="rttool-adapter/2"), timeout=60)
    with pytest.raises(ProtocolMismatch) as caught:
        driver.handshake()
    assert caught.value.details["spoken"] == "rttool-adapter/2"
    assert caught.value.details["expected"] == "rttool-adapter/1"


def test_another_version_is_refused_before_its_shape_is_judged(open_toy: OpenToy) -> None:
    driver = Driver(open_toy(protocol="rttool-adapter/2", v2_field="streams"), timeout=60)
    with pytest.raises(ProtocolMismatch):
        driver.handshake()


def test_same_version_with_an_unknown_field_breaks_the_schema(open_toy: OpenToy) -> None:
    driver = Driver(open_toy(v2_field="streams"), timeout=60)
    with pytest.raises(SchemaViolation) as caught:
        driver.handshake()
    assert caught.value.pointer == "/"
    assert "streams" in caught.value.complaint


def test_harness_answers_unsupported(open_toy: OpenToy) -> None:
    driver = Driver(open_toy(unsupported="gates"), timeout=60)
    assert driver.run(REPORT) == Unsupported("gates", "bent on purpose")


def test_capability_missing_from_handshake_is_never_sent(open_toy: OpenToy) -> None:
    counting = Counting(open_toy())
    driver = Driver(counting, timeout=60)
    needs_restart = Scenario(id="toy/restart", steps=(StartTurn(turn="t1"), Restart()))
    outcome = driver.run(needs_restart)
    assert isinstance(outcome, Unsupported)
    assert outcome.capability == "restart"
    assert counting.sent == ["hello"]  # the harness never saw the scenario


@pytest.mark.parametrize(
    "pointer",
    [
        "/outcome",
        "/runs/0/end",
        "/wire/main/t1/continueOffered",
        "/runs/0/passes/0/results/0/disposition",
    ],
)
def test_step_record_breaking_the_schema_names_the_pointer(open_toy: OpenToy, pointer: str) -> None:
    driver = Driver(open_toy(break_step=pointer), timeout=60)
    with pytest.raises(SchemaViolation) as caught:
        driver.run(REPORT)
    assert caught.value.pointer == pointer
    assert caught.value.details["request"] == "step"
    assert caught.value.kind == "schema"


@pytest.mark.slow
def test_turn_api_is_where_the_wire_is_read(toy_path: Path) -> None:
    harnesses: dict[str, object] = {}
    with serve(toy.starlette_app(harnesses)) as base:
        bent = toy.create(str(toy_path), turn_api=f"{base}/turnapi")
        harnesses["turnapi"] = bent
        driver = Driver(HttpConnection(f"{base}/turnapi/rttool", timeout=60), timeout=60)
        try:
            trace = driver.run(REPORT)
        finally:
            driver.close()
    check_report_trace(trace)
    assert isinstance(trace, Trace)
    for step in trace.steps:
        assert isinstance(step.ids, Mapping)
        assert step.wire["main"]["t1"].status != toy.STALE
    assert bent.requests[-1] == "bye"


def test_unsupported_for_what_the_handshake_offers_is_an_error(open_toy: OpenToy) -> None:
    """The toy offers the chat entry point; a harness refusing it broke its own offer:
    the case is an error naming the capability, never untested."""
    driver = Driver(open_toy(unsupported="entry_points:chat"), timeout=60)
    assert "chat" in driver.handshake().capabilities.entry_points
    with pytest.raises(BrokenOffer) as caught:
        driver.run(REPORT)
    said = str(caught.value)
    assert "entry_points:chat" in said and "its handshake offered" in said
