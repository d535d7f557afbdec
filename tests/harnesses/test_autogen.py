"""What the AutoGen harness does where AutoGen differs from the other frameworks: a
question is a handoff to the user, artifacts are events a stream tool emits, a result is
the text AutoGen made of the tool's return value, arguments are validated by the pydantic
model AutoGen builds from the schema, and a call without an id keeps the one the model
client gave it.  The whole suite, run against the harness, fails exactly the clauses its
README explains (slow)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from adapters import Driver, Trace, Unsupported, connect
from adapters.scenario import (
    Answer,
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
from tests.harnesses.test_failing_clause_tables import failing_in_readme

pytest.importorskip("autogen_agentchat", reason="the autogen extra is not installed")

ROOT = Path(__file__).resolve().parents[2]
LINK = {"type": "link", "payload": {"url": "https://example.com/r/1"}}


@pytest.fixture
def driver() -> Iterator[Driver]:
    driver = Driver(connect("python:harnesses.autogen:create", timeout=60), timeout=60)
    yield driver
    driver.close()


def run(driver: Driver, scenario: Scenario) -> Trace:
    trace = driver.run(scenario)
    assert isinstance(trace, Trace), trace
    return trace


def test_the_handshake_offers_restart_and_no_gates(driver: Driver) -> None:
    shake = driver.handshake()
    assert shake.implementation.name == "autogen-agentchat"
    assert shake.profiles == ("runtime",) and shake.collects_artifacts is False
    assert shake.capabilities.restart and not shake.capabilities.gates


def test_a_question_is_a_handoff_to_the_user_answered_by_the_next_run(driver: Driver) -> None:
    asked = Scenario(
        id="autogen/question",
        model=(Reply(question="Which quarter?"), Reply(text="Q3 it is.")),
        steps=(StartTurn(turn="t1"), Answer(turn="t1", value="Q3"), Answer(turn="t1")),
    )
    start, answer, again = run(driver, asked).steps
    (paused,) = start.runs
    assert paused.end == "paused" and paused.passes == ()  # the handoff is not a pass
    wire = start.wire["main"]["t1"]
    assert wire.status == "paused" and wire.pending["question"] == "Which quarter?"  # type: ignore[index]
    assert wire.messages[-1]["type"] == "HandoffMessage"  # type: ignore[index]
    assert answer.runs[0].end == "completed"
    assert {"role": "user", "content": "Q3"} in answer.runs[0].model_inputs[0].messages
    assert again.outcome == "refused" and again.runs == ()


def test_artifacts_are_stream_events_and_the_result_is_autogens_text(driver: Driver) -> None:
    made = Scenario(
        id="autogen/artifact",
        tools=(Tool(name="make_report", returns=(Return(output={"n": 3, "artifacts": [LINK]}),)),),
        model=(Reply(tool_calls=(call("make_report", {}, "c1"),)), Reply(text="here")),
        steps=(StartTurn(turn="t1"),),
    )
    trace = run(driver, made)
    ((_, one),) = list(trace.passes())
    (result,) = one.results
    # AutoGen keeps a return value only as text: a map becomes its Python repr.
    assert result.result == {
        "success": True,
        "data": "{'n': 3}",
        "error": None,
        "artifacts": [LINK],
    }
    given = json.dumps([m.messages for r in trace.runs() for m in r.model_inputs])
    assert "example.com" not in given and "{'n': 3}" in given
    assert isinstance(one.ports, dict)
    (event,) = one.ports["tool_events"]
    assert event["content"] == LINK and event["tool_call_id"] == "c1"
    rows = trace.final_wire()["main"]["t1"].messages
    assert [row["type"] for row in rows if row["role"] == "tool"] == [  # type: ignore[index]
        "ToolArtifactEvent",
        "ToolCallExecutionEvent",
    ]


def test_a_failing_stream_tool_still_delivers_what_it_emitted(driver: Driver) -> None:
    failing = Scenario(
        id="autogen/failed-artifact",
        tools=(
            Tool(name="make_report", returns=(Return(output={"artifacts": [LINK]}, fail="down"),)),
        ),
        model=(Reply(tool_calls=(call("make_report", {}, "c1"),)), Reply(text="sorry")),
        steps=(StartTurn(turn="t1"),),
    )
    ((_, one),) = list(run(driver, failing).passes())
    (result,) = one.results
    assert result.disposition == "executed"
    assert result.result == {"success": False, "data": None, "error": "down", "artifacts": [LINK]}


def test_arguments_are_validated_by_the_model_autogen_builds_from_the_schema(
    driver: Driver,
) -> None:
    schema = {
        "type": "object",
        "properties": {"flag": {"type": "boolean"}, "rows": {"type": "array"}},
    }
    typed = Scenario(
        id="autogen/arguments",
        tools=(Tool(name="target", input_schema=schema),),
        model=(
            Reply(
                tool_calls=(
                    call("target", {"flag": "true", "extra": 1}, "c1"),
                    call("target", {"rows": "[1, 2]"}, "c2"),
                )
            ),
            Reply(text="done"),
        ),
        steps=(StartTurn(turn="t1"),),
    )
    (only,) = run(driver, typed).runs()
    # "true" is coerced to a boolean, and a key the schema does not declare is dropped.
    assert only.side_effects == ({"tool": "target", "input": {"flag": True}, "tool_call_id": "c1"},)
    first, second = only.passes[0].results
    assert first.disposition == "executed"
    assert (second.disposition, second.result["success"]) == ("invalid", False)  # type: ignore[index]
    assert second.arguments == {"rows": "[1, 2]"}  # no JSON text is decoded


def test_a_call_without_an_id_keeps_the_one_the_client_gave_it(driver: Driver) -> None:
    anonymous = Scenario(
        id="autogen/no-id",
        tools=(Tool(name="do_thing"),),
        model=(Reply(tool_calls=(call("do_thing", {}),)), Reply(text="done")),
        steps=(StartTurn(turn="t1"),),
    )
    (only,) = run(driver, anonymous).runs()
    (result,) = only.passes[0].results
    assert result.generated_id and result.tool_call_id is not None
    assert only.side_effects[0]["tool_call_id"] == result.tool_call_id  # type: ignore[index]


def test_an_empty_batch_is_a_pass_over_no_calls(driver: Driver) -> None:
    empty = Scenario(
        id="autogen/empty-batch",
        model=(Reply(tool_calls=()), Reply(text="done")),
        steps=(StartTurn(turn="t1"),),
    )
    (only,) = run(driver, empty).runs()
    (one,) = only.passes
    assert one.batch == () and one.results == () and len(only.model_inputs) == 2


def test_a_restart_loads_the_saved_team_state(driver: Driver) -> None:
    kept = Scenario(
        id="autogen/restart",
        model=(Reply(question="Sure?"), Reply(text="second")),
        steps=(StartTurn(turn="t1", message="one"), Restart(), Answer(turn="t1", value="yes")),
    )
    before, restart, answer = run(driver, kept).steps
    assert restart.wire["main"]["t1"].messages == before.wire["main"]["t1"].messages
    assert restart.wire["main"]["t1"].status == "paused"
    given = json.dumps(answer.runs[0].model_inputs[0].messages)
    assert "one" in given and "Sure?" in given and answer.runs[0].end == "completed"


def test_what_autogen_cannot_run_is_unsupported(driver: Driver) -> None:
    polled = driver.run(Scenario(id="autogen/poll", steps=(StartTurn(turn="t1"), Poll())))
    assert isinstance(polled, Unsupported) and polled.capability == "poll"
    union = {"type": "object", "properties": {"u": {"type": ["string", "array"]}}}
    refused = driver.run(
        Scenario(
            id="autogen/union",
            tools=(Tool(name="target", input_schema=union),),
            steps=(StartTurn(turn="t1"),),
        )
    )
    assert isinstance(refused, Unsupported) and refused.capability == "tool"


@pytest.mark.slow
def test_the_harness_serves_over_stdio() -> None:
    driver = Driver(connect(stdio_spec("-m", "harnesses.autogen"), timeout=60), timeout=60)
    try:
        trace = run(driver, Scenario(id="autogen/stdio", steps=(StartTurn(turn="t1"),)))
    finally:
        driver.close()
    assert [step.outcome for step in trace.steps] == ["ok"]


@pytest.mark.slow
@group("autogen")
def test_the_suite_fails_exactly_the_clauses_the_readme_explains(
    fresh_standing: Callable[[str], FreshStanding],
) -> None:
    """The README's Failing clauses table names exactly the clauses a whole run fails (the
    run that remakes the committed standing, shared with the other tests that read it)."""
    made = fresh_standing("autogen")
    assert made.done.returncode == 1, made.done.stdout[-2000:] + made.done.stderr[-2000:]
    standing = json.loads((made.folder / "standing.json").read_text("utf-8"))
    failing = {
        clause["citation"]
        for rule in standing["rules"]
        for clause in rule["clauses"]
        if clause["standing"] == "does-not-conform"
    }
    readme = (ROOT / "harnesses" / "autogen" / "README.md").read_text("utf-8")
    assert set(failing_in_readme(readme)) == failing
