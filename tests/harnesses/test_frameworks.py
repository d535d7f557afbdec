"""The shipped harnesses drive their frameworks and report what the frameworks do.

Each harness runs in-process through the suite's own driver.  Where the frameworks
differ the expectation says which does what: LangGraph runs a call of a batch again when
the run resumes after another call of the batch paused, and PydanticAI and ADK do not;
ADK's rejection of a declined call carries no reason, and ADK keeps artifacts in its
artifact service, off the message rows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping

import pytest

from adapters import Driver, Trace, Unsupported, connect
from adapters.scenario import (
    Answer,
    Approve,
    Decline,
    Poll,
    Reply,
    Restart,
    Return,
    Scenario,
    StartTurn,
    Tool,
    call,
)
from tests._standings import FreshStanding, group
from tests.adapters.conftest import stdio_spec

SPECS = {
    "langgraph": "python:harnesses.langgraph:create",
    "pydantic-ai": "python:harnesses.pydanticai:create",
    "google-adk": "python:harnesses.adk:create",
}
#: How often the call that returned before the pause ran, once the run was approved.
SIBLING_RUNS = {"langgraph": 2, "pydantic-ai": 1, "google-adk": 1}
#: Whether the declined call's result carries the operator's reason.
REASON_KEPT = {"langgraph": True, "pydantic-ai": True, "google-adk": False}
#: Whether a tool's artifacts show in the message rows (ADK keeps them in its artifact
#: service, and a row names them only in the event's ``artifact_delta``).
ARTIFACTS_IN_ROWS = {"langgraph": True, "pydantic-ai": True, "google-adk": False}
LINK = {"type": "link", "payload": {"url": "https://example.com/r/1"}}

GATED = Scenario(
    id="frameworks/gate",
    tools=(Tool(name="do_thing"), Tool(name="gated_thing", gate=True)),
    model=(
        Reply(tool_calls=(call("do_thing", [], "call_a"), call("gated_thing", [], "call_gate"))),
        Reply(text="done"),
    ),
    steps=(StartTurn(turn="t1"), Approve(turn="t1")),
)


@pytest.fixture(params=sorted(SPECS))
def framework(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def driver(framework: str) -> Iterator[Driver]:
    driver = Driver(connect(SPECS[framework], timeout=60), timeout=60)
    yield driver
    driver.close()


def run(driver: Driver, scenario: Scenario) -> Trace:
    trace = driver.run(scenario)
    assert isinstance(trace, Trace), trace
    return trace


def effects(trace: Trace, tool: str) -> list[str]:
    """The causes of the runs in which ``tool``'s body ran, once per run of the body."""
    return [run.cause for run in trace.runs() for one in run.side_effects if one["tool"] == tool]  # type: ignore[index]


def test_the_handshake_claims_only_what_the_framework_does(driver: Driver, framework: str) -> None:
    shake = driver.handshake()
    assert shake.implementation.name == framework
    assert shake.profiles == ("runtime",) and shake.collects_artifacts is False
    assert shake.capabilities.gates and shake.capabilities.restart
    assert not shake.capabilities.ledger and not shake.capabilities.interrupt_points


def test_a_resumed_batch_reports_which_calls_really_ran(driver: Driver, framework: str) -> None:
    start, approve = run(driver, GATED).steps
    (paused,) = start.runs
    assert paused.end == "paused" and start.wire["main"]["t1"].status == "paused"
    assert "gated_thing" in json.dumps(start.wire["main"]["t1"].pending)
    (resumed,) = approve.runs
    assert resumed.cause == "approve" and resumed.end == "completed"
    trace = Trace(scenario=GATED.id, steps=(start, approve))
    assert effects(trace, "gated_thing") == ["approve"]
    assert len(effects(trace, "do_thing")) == SIBLING_RUNS[framework]
    assert effects(trace, "do_thing")[0] == "start"
    assert approve.wire["main"]["t1"].status == "completed"


def test_a_declined_call_never_runs(driver: Driver, framework: str) -> None:
    declined = Scenario(
        id="frameworks/decline",
        tools=GATED.tools,
        model=(Reply(tool_calls=(call("gated_thing", {}, "g1"),)), Reply(text="ok")),
        steps=(StartTurn(turn="t1"), Decline(turn="t1", reason="not today")),
    )
    trace = run(driver, declined)
    assert effects(trace, "gated_thing") == []
    results = [result for _, one in trace.passes() for result in one.results]
    assert [(r.tool_call_id, r.disposition) for r in results] == [("g1", "declined")]
    assert ("not today" in json.dumps(results[0].result)) is REASON_KEPT[framework]


def test_artifacts_stay_off_the_model_and_on_the_tool_result(
    driver: Driver, framework: str
) -> None:
    made = Scenario(
        id="frameworks/artifact",
        tools=(Tool(name="make_report", returns=(Return(output={"n": 3, "artifacts": [LINK]}),)),),
        model=(Reply(tool_calls=(call("make_report", {"topic": "q3"}, "c1"),)), Reply(text="here")),
        steps=(StartTurn(turn="t1"),),
    )
    trace = run(driver, made)
    ((_, one),) = list(trace.passes())
    (result,) = one.results
    assert result.disposition == "executed"
    assert result.result == {"success": True, "data": {"n": 3}, "error": None, "artifacts": [LINK]}
    given = json.dumps([message.messages for run in trace.runs() for message in run.model_inputs])
    assert "example.com" not in given
    rows = trace.final_wire()["main"]["t1"].messages
    assert ("example.com" in json.dumps(rows)) is ARTIFACTS_IN_ROWS[framework]
    assert not any(isinstance(row, Mapping) and "toolArtifacts" in row for row in rows)


#: A model reply each framework raises on while it runs (LangGraph's message refuses a
#: call id that is a number; PydanticAI's tool body is handed arguments that are a string).
RAISES = {
    "langgraph": Reply(tool_calls=({"name": "do_thing", "args": {}, "tool_call_id": 5},)),
    "pydantic-ai": Reply(tool_calls=(call("do_thing", "not an object", "c1"),)),
}
FAILURE_CODES = {"langgraph": "graph_error", "pydantic-ai": "agent_error"}


@pytest.mark.parametrize("name", sorted(RAISES))
def test_a_framework_error_fails_the_run_and_its_step(name: str) -> None:
    raising = Scenario(
        id="frameworks/raises",
        tools=(Tool(name="do_thing"),),
        model=(RAISES[name], Reply(text="done")),
        steps=(StartTurn(turn="t1"),),
    )
    driver = Driver(connect(SPECS[name], timeout=60), timeout=60)
    try:
        (step,) = run(driver, raising).steps
    finally:
        driver.close()
    (failed,) = step.runs
    assert step.outcome == "failed" and failed.end == "failed"
    assert step.error is not None and step.error.code == FAILURE_CODES[name]
    assert re.fullmatch(r"[A-Za-z]+Error: .+", step.error.message, re.DOTALL)
    assert step.wire["main"]["t1"].status == "failed"


def test_a_question_pauses_until_it_is_answered(driver: Driver) -> None:
    asked = Scenario(
        id="frameworks/question",
        model=(Reply(question="Which quarter?"), Reply(text="Q3 it is.")),
        steps=(StartTurn(turn="t1"), Answer(turn="t1", value="Q3"), Answer(turn="t1")),
    )
    start, answer, again = run(driver, asked).steps
    assert start.runs[0].end == "paused"
    assert "Which quarter?" in json.dumps(start.wire["main"]["t1"].pending)
    assert answer.runs[0].cause == "answer" and answer.runs[0].end == "completed"
    assert "Q3" in json.dumps(answer.runs[0].model_inputs[0].messages)
    assert again.outcome == "refused" and again.runs == ()


def test_a_restart_keeps_the_conversation(driver: Driver) -> None:
    kept = Scenario(
        id="frameworks/restart",
        model=(Reply(text="first"), Reply(text="second")),
        steps=(StartTurn(turn="t1", message="one"), Restart(), StartTurn(turn="t2", message="two")),
    )
    before, restart, after = run(driver, kept).steps
    assert restart.outcome == "ok"
    assert restart.wire["main"]["t1"].messages == before.wire["main"]["t1"].messages
    given = json.dumps(after.runs[0].model_inputs[0].messages)
    assert "one" in given and "first" in given and "two" in given


def test_a_message_poll_is_untested(driver: Driver) -> None:
    outcome = driver.run(Scenario(id="frameworks/poll", steps=(StartTurn(turn="t1"), Poll())))
    assert isinstance(outcome, Unsupported) and outcome.capability == "poll"


@pytest.mark.slow
@pytest.mark.parametrize("module", ["harnesses.langgraph", "harnesses.pydanticai", "harnesses.adk"])
def test_each_harness_serves_over_stdio(module: str) -> None:
    driver = Driver(connect(stdio_spec("-m", module), timeout=60), timeout=60)
    try:
        trace = run(driver, GATED)
    finally:
        driver.close()
    assert [step.outcome for step in trace.steps] == ["ok", "ok"]


@pytest.mark.slow
@group("langgraph")
def test_the_suite_says_langgraph_runs_a_returned_call_again(
    fresh_standing: Callable[[str], FreshStanding],
) -> None:
    """RT-TOOL-9 ¶4 names the behaviour itself, not only the ports LangGraph lacks (read
    from the run that remakes LangGraph's committed standing)."""
    made = fresh_standing("langgraph")
    assert made.done.returncode == 1, made.done.stdout + made.done.stderr
    tmp_path = made.folder
    standing = json.loads((tmp_path / "standing.json").read_text("utf-8"))
    (clause,) = [
        clause
        for rule in standing["rules"]
        for clause in rule["clauses"]
        if clause["id"] == "RT-TOOL-9#c4"
    ]
    messages = {check["name"]: check["message"] for check in clause["checks"]}
    said = messages["recorded-only-once-returned[gate-last]"]
    assert said.startswith("do_thing ran 2 times (at /steps/0/runs/0/side_effects/0, "), said
    assert "a call that returned before the pause is recorded" in said, said
