"""What the smolagents harness reports where smolagents differs from the other frameworks:
a run ends only on ``final_answer``, a question stands inside ``user_input`` until it is
answered, a failed call takes its siblings' outputs with it, a step keys its calls by id,
a tool's inputs are closed, and the reserved ``artifacts`` key stays in the output the
model reads.  The last tests run the harness as a process and the whole suite against it
(slow), and hold the README's table of failing clauses to that run's standing."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from adapters import Driver, Trace, Unsupported, connect
from adapters.scenario import Answer, Poll, Reply, Return, Scenario, StartTurn, Tool, call
from tests._standings import FreshStanding, group
from tests.adapters.conftest import stdio_spec
from tests.harnesses.test_failing_clause_tables import failing_in_readme

pytest.importorskip(
    "smolagents", reason="the smolagents extra is not installed: pip install -e '.[smolagents]'"
)

ROOT = Path(__file__).resolve().parents[2]
SPEC = "python:harnesses.smol:create"
LINK = {"type": "link", "payload": {"url": "https://example.com/r/1"}}
DO = Tool(name="do_thing")
FAILING = Tool(name="failing_thing", returns=(Return(fail="the service is down"),))


@pytest.fixture
def driver() -> Iterator[Driver]:
    driver = Driver(connect(SPEC, timeout=60), timeout=60)
    yield driver
    driver.close()


def run(driver: Driver, scenario: Scenario) -> Trace:
    trace = driver.run(scenario)
    assert isinstance(trace, Trace), trace
    return trace


def given(trace: Trace) -> str:
    """Everything the model was given in the trace, as one text."""
    return json.dumps([m.messages for r in trace.runs() for m in r.model_inputs])


def test_the_handshake_offers_nothing_smolagents_lacks(driver: Driver) -> None:
    shake = driver.handshake()
    assert shake.implementation.name == "smolagents"
    assert shake.profiles == ("runtime",) and shake.collects_artifacts is False
    assert not shake.capabilities.gates and not shake.capabilities.restart
    outcome = driver.run(Scenario(id="smol/poll", steps=(StartTurn(turn="t1"), Poll())))
    assert isinstance(outcome, Unsupported) and outcome.capability == "poll"


def test_a_reply_ends_the_run_as_a_final_answer_outside_every_pass(driver: Driver) -> None:
    ends = Scenario(
        id="smol/final",
        tools=(DO,),
        model=(Reply(tool_calls=(call("do_thing", {}, "c1"),)), Reply(text="All done.")),
        steps=(StartTurn(turn="t1"),),
    )
    trace = run(driver, ends)
    (only,) = trace.runs()
    assert only.end == "completed" and len(only.model_inputs) == 2
    ((_, one),) = list(trace.passes())
    assert [r.tool_call_id for r in one.results] == ["c1"]
    last = trace.final_wire()["main"]["t1"].messages[-1]
    assert isinstance(last, dict) and last["is_final_answer"] is True
    assert last["tool_calls"][0]["function"]["name"] == "final_answer"


def test_a_question_stands_in_user_input_until_it_is_answered(driver: Driver) -> None:
    asked = Scenario(
        id="smol/question",
        model=(Reply(question="Which quarter?"), Reply(text="Q3 it is.")),
        steps=(StartTurn(turn="t1"), StartTurn(turn="t2"), Answer(turn="t1", value="Q3")),
    )
    start, newer, answer = run(driver, asked).steps
    assert start.runs[0].end == "paused"
    assert start.wire["main"]["t1"].pending == {"question": "Which quarter?"}
    assert newer.outcome == "refused" and newer.error is not None
    assert newer.error.code == "busy"  # the agent is still inside its run
    (resumed,) = answer.runs
    assert resumed.cause == "answer" and resumed.end == "completed"
    assert "Observation:\\nQ3" in json.dumps(resumed.model_inputs[0].messages)


def test_a_failed_call_takes_the_outputs_of_its_batch_with_it(driver: Driver) -> None:
    batch = Scenario(
        id="smol/failure",
        tools=(DO, FAILING),
        model=(
            Reply(tool_calls=(call("failing_thing", {}, "f1"), call("do_thing", {}, "c1"))),
            Reply(text="ok"),
        ),
        steps=(StartTurn(turn="t1"),),
    )
    trace = run(driver, batch)
    ((run_, one),) = list(trace.passes())
    (failed,) = one.results  # smolagents keeps the error and discards every other output
    assert (failed.tool_call_id, failed.disposition) == ("f1", "executed")
    assert failed.result["success"] is False and "the service is down" in failed.result["error"]  # type: ignore[index]
    assert [effect["tool_call_id"] for effect in run_.side_effects] == ["f1", "c1"]  # type: ignore[index]
    assert "'ok': True" not in given(trace)  # the model never read do_thing's output


def test_calls_without_an_id_are_one_call_of_the_step(driver: Driver) -> None:
    twice = Scenario(
        id="smol/no-ids",
        tools=(DO,),
        model=(Reply(tool_calls=(call("do_thing", {}), call("do_thing", {}))), Reply(text="ok")),
        steps=(StartTurn(turn="t1"),),
    )
    (only,) = run(driver, twice).runs()
    assert [effect["tool_call_id"] for effect in only.side_effects] == [None]  # type: ignore[index]


def test_a_batch_mixing_ids_and_no_id_fails_the_run(driver: Driver) -> None:
    mixed = Scenario(
        id="smol/mixed-ids",
        tools=(DO,),
        model=(Reply(tool_calls=(call("do_thing", {}, "c1"), call("do_thing", {}))),),
        steps=(StartTurn(turn="t1"),),
    )
    (step,) = run(driver, mixed).steps
    assert step.outcome == "failed" and "TypeError" in str(step.error)
    assert step.runs[0].end == "failed" and len(step.runs[0].side_effects) == 2


def test_an_argument_the_inputs_do_not_name_is_refused_before_the_body(driver: Driver) -> None:
    closed = Scenario(
        id="smol/closed-inputs",
        tools=(DO,),
        model=(Reply(tool_calls=(call("do_thing", {"topic": "q3"}, "c1"),)), Reply(text="ok")),
        steps=(StartTurn(turn="t1"),),
    )
    trace = run(driver, closed)
    ((run_, one),) = list(trace.passes())
    (refused,) = one.results
    assert refused.disposition == "invalid" and refused.arguments == {"topic": "q3"}
    assert run_.side_effects == ()


def test_the_reserved_key_stays_in_the_output_the_model_reads(driver: Driver) -> None:
    made = Scenario(
        id="smol/artifact",
        tools=(Tool(name="make_report", returns=(Return(output={"n": 3, "artifacts": [LINK]}),)),),
        model=(Reply(tool_calls=(call("make_report", {}, "c1"),)), Reply(text="here")),
        steps=(StartTurn(turn="t1"),),
    )
    trace = run(driver, made)
    ((_, one),) = list(trace.passes())
    (result,) = one.results
    assert result.result == {"success": True, "data": {"n": 3, "artifacts": [LINK]}, "error": None}
    assert "example.com/r/1" in given(trace)
    assert trace.final_wire()["main"]["t1"].toolArtifacts is None


@pytest.mark.slow
def test_the_harness_serves_over_stdio() -> None:
    driver = Driver(connect(stdio_spec("-m", "harnesses.smol"), timeout=60), timeout=60)
    try:
        asked = Scenario(
            id="smol/stdio", model=(Reply(question="Sure?"),), steps=(StartTurn(turn="t1"),)
        )
        trace = run(driver, asked)
    finally:
        driver.close()
    assert trace.steps[0].runs[0].end == "paused"


@pytest.mark.slow
@group("smolagents")
def test_the_readme_explains_exactly_the_clauses_a_fresh_run_fails(
    fresh_standing: Callable[[str], FreshStanding],
) -> None:
    """The README's Failing clauses table names exactly the clauses a whole run fails (the
    run that remakes the committed standing, shared with the other tests that read it)."""
    made = fresh_standing("smolagents")
    assert made.done.returncode == 1, made.done.stdout[-2000:] + made.done.stderr[-2000:]
    standing = json.loads((made.folder / "standing.json").read_text("utf-8"))
    failing = {
        clause["citation"]
        for rule in standing["rules"]
        for clause in rule["clauses"]
        if clause["standing"] == "does-not-conform"
    }
    errors = [
        clause["citation"]
        for rule in standing["rules"]
        for clause in rule["clauses"]
        if clause["standing"] == "error"
    ]
    assert errors == []
    readme = (ROOT / "harnesses" / "smol" / "README.md").read_text("utf-8")
    assert set(failing_in_readme(readme)) == failing
