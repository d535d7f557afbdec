"""What the LlamaIndex harness reports of LlamaIndex's agent workflow: a gate's sibling not
run again on approval, several gates pending at once, identical gated calls decided
together, questions, restarts through the serialised workflow context, a tool's whole
output in its result and its prose, the id LlamaIndex gives a call without one, and a
blank-named call answered as a missing tool.  The whole-suite run, slow, holds the
README's table of failing clauses to what the suite says."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from adapters import Driver, Trace, connect
from adapters.scenario import (
    Answer,
    Approve,
    Decline,
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

pytest.importorskip("llama_index.core", reason="the llamaindex extra is not installed")

SPEC = "python:harnesses.llamaindex:create"
ROOT = Path(__file__).resolve().parents[2]
GATED = (Tool(name="do_thing"), Tool(name="gated_thing", gate=True))
LINK = {"type": "link", "payload": {"url": "https://example.com/r/1"}}


@pytest.fixture
def driver() -> Iterator[Driver]:
    driver = Driver(connect(SPEC, timeout=60), timeout=60)
    yield driver
    driver.close()


def run(driver: Driver, scenario: Scenario) -> Trace:
    trace = driver.run(scenario)
    assert isinstance(trace, Trace), trace
    return trace


def ran(trace: Trace, tool: str) -> list[tuple[str, str | None]]:
    """(run cause, call id) for each time ``tool``'s body ran."""
    return [
        (one.cause, effect["tool_call_id"])  # type: ignore[index]
        for one in trace.runs()
        for effect in one.side_effects
        if effect["tool"] == tool  # type: ignore[index]
    ]


def test_the_handshake_claims_gates_and_restart_and_no_collection(driver: Driver) -> None:
    shake = driver.handshake()
    assert shake.implementation.name == "llama-index-core"
    assert shake.profiles == ("runtime",) and shake.collects_artifacts is False
    assert shake.capabilities.gates and shake.capabilities.restart
    assert not shake.capabilities.port_exposure and not shake.capabilities.ledger


def test_an_approval_runs_the_gated_call_and_not_its_sibling_again(driver: Driver) -> None:
    gated = Scenario(
        id="llamaindex/gate",
        tools=GATED,
        model=(
            Reply(
                tool_calls=(call("do_thing", [], "call_a"), call("gated_thing", [], "call_gate"))
            ),
            Reply(text="done"),
        ),
        steps=(StartTurn(turn="t1"), Approve(turn="t1")),
    )
    trace = run(driver, gated)
    start, approve = trace.steps
    assert start.runs[0].end == "paused" and start.runs[0].passes[0].paused
    pending = start.wire["main"]["t1"].pending
    assert pending == {"gate": {"tool": "gated_thing", "tool_call_id": "call_gate"}}
    assert ran(trace, "do_thing") == [("start", "call_a")]
    assert ran(trace, "gated_thing") == [("approve", "call_gate")]
    (resumed,) = approve.runs[0].passes
    assert [(r.tool_call_id, r.disposition) for r in resumed.results] == [("call_gate", "executed")]
    assert approve.wire["main"]["t1"].status == "completed"


def test_each_decision_answers_one_of_the_gates_pending_at_once(driver: Driver) -> None:
    both = Scenario(
        id="llamaindex/two-gates",
        tools=GATED,
        model=(
            Reply(tool_calls=(call("gated_thing", {"n": 1}, "g1"), call("gated_thing", {}, "g2"))),
            Reply(text="done"),
        ),
        steps=(StartTurn(turn="t1"), Approve(turn="t1"), Decline(turn="t1", reason="no")),
    )
    start, approve, decline = run(driver, both).steps
    pending = start.wire["main"]["t1"].pending
    assert isinstance(pending, list)
    assert [p["gate"]["tool_call_id"] for p in pending] == ["g1", "g2"]
    assert [r.tool_call_id for r in approve.runs[0].passes[0].results] == ["g1"]
    assert approve.runs[0].end == "paused"
    (declined,) = decline.runs[0].passes[0].results
    assert (declined.tool_call_id, declined.disposition) == ("g2", "declined")
    assert declined.result == {"success": False, "data": None, "error": "no"}
    assert decline.wire["main"]["t1"].status == "completed"


def test_identical_gated_calls_are_decided_by_one_response(driver: Driver) -> None:
    """A body does not know its call id, so a wait is keyed by the tool and its
    arguments: one response resolves both waits of two identical calls."""
    twins = Scenario(
        id="llamaindex/twins",
        tools=GATED,
        model=(
            Reply(tool_calls=(call("gated_thing", {}, "g1"), call("gated_thing", {}, "g2"))),
            Reply(text="done"),
        ),
        steps=(StartTurn(turn="t1"), Approve(turn="t1"), Approve(turn="t1")),
    )
    trace = run(driver, twins)
    _, approve, again = trace.steps
    assert [r.tool_call_id for r in approve.runs[0].passes[0].results] == ["g1", "g2"]
    assert ran(trace, "gated_thing") == [("approve", "g1"), ("approve", "g2")]
    assert again.outcome == "refused"


def test_a_question_pauses_until_it_is_answered(driver: Driver) -> None:
    asked = Scenario(
        id="llamaindex/question",
        model=(Reply(question="Which quarter?"), Reply(text="Q3 it is.")),
        steps=(StartTurn(turn="t1"), Answer(turn="t1", value="Q3"), Answer(turn="t1")),
    )
    start, answer, again = run(driver, asked).steps
    assert start.runs[0].end == "paused" and start.runs[0].passes == ()
    assert start.wire["main"]["t1"].pending == {"question": "Which quarter?"}
    assert answer.runs[0].end == "completed" and answer.runs[0].passes == ()
    (given,) = answer.runs[0].model_inputs
    assert given.messages[-1] == {"role": "tool", "content": "Q3", "tool_call_id": "ask_1"}
    assert again.outcome == "refused"


def test_a_restart_restores_a_paused_workflow_and_keeps_the_conversation(
    driver: Driver,
) -> None:
    restarted = Scenario(
        id="llamaindex/restart",
        tools=GATED,
        model=(
            Reply(text="first"),
            Reply(tool_calls=(call("gated_thing", {"n": 1}, "g1"), call("gated_thing", {}, "g2"))),
            Reply(text="second"),
        ),
        steps=(
            StartTurn(turn="t1", message="one"),
            StartTurn(turn="t2", message="two"),
            Restart(),
            Approve(turn="t2"),
            Approve(turn="t2"),
        ),
    )
    trace = run(driver, restarted)
    _, paused, restart, first, second = trace.steps
    assert restart.wire["main"]["t2"].pending == paused.wire["main"]["t2"].pending
    assert [r.tool_call_id for r in first.runs[0].passes[0].results] == ["g1"]
    assert first.runs[0].end == "paused"
    assert [r.tool_call_id for r in second.runs[0].passes[0].results] == ["g2"]
    given = json.dumps(second.runs[0].model_inputs[0].messages)
    assert "one" in given and "first" in given and "two" in given
    rows = second.wire["main"]["t2"].messages
    assert [row["role"] for row in rows] == ["user", "assistant", "tool", "tool", "assistant"]  # type: ignore[index]


def test_a_tool_output_is_its_result_and_its_prose_whole(driver: Driver) -> None:
    """LlamaIndex has no artifact channel: the reserved key stays in the output, which
    the agent gives the model as Python's ``str`` of it."""
    made = Scenario(
        id="llamaindex/artifact",
        tools=(Tool(name="make_report", returns=(Return(output={"n": 3, "artifacts": [LINK]}),)),),
        model=(Reply(tool_calls=(call("make_report", {"topic": "q3"}, "c1"),)), Reply(text="ok")),
        steps=(StartTurn(turn="t1"),),
    )
    ((_, one),) = list(run(driver, made).passes())
    (result,) = one.results
    assert result.result == {"success": True, "data": {"n": 3, "artifacts": [LINK]}, "error": None}
    assert one.tool_messages[0]["content"] == str({"n": 3, "artifacts": [LINK]})  # type: ignore[index]


def test_a_call_without_an_id_gets_the_empty_id(driver: Driver) -> None:
    anonymous = Scenario(
        id="llamaindex/no-id",
        tools=(Tool(name="do_thing"),),
        model=(Reply(tool_calls=(call("do_thing", {}),)), Reply(text="done")),
        steps=(StartTurn(turn="t1"),),
    )
    (only,) = run(driver, anonymous).runs()
    (result,) = only.passes[0].results
    assert (result.tool_call_id, result.generated_id) == ("", True)
    assert only.side_effects[0]["tool_call_id"] == ""  # type: ignore[index]


def test_a_blank_named_call_is_answered_as_a_missing_tool(driver: Driver) -> None:
    blank = Scenario(
        id="llamaindex/blank",
        tools=(Tool(name="do_thing"),),
        model=(Reply(tool_calls=(call(" ", {}, "m1"), 7, {"name": 42})), Reply(text="done")),
        steps=(StartTurn(turn="t1"),),
    )
    (only,) = run(driver, blank).runs()
    (result,) = only.passes[0].results  # what no provider can send is not sent at all
    assert (result.tool_call_id, result.disposition) == ("m1", "unknown_tool")
    assert "not found" in str(result.result["error"])  # type: ignore[index]


def test_a_superseded_paused_turn_can_still_be_answered(driver: Driver) -> None:
    superseded = Scenario(
        id="llamaindex/superseded",
        tools=GATED,
        model=(Reply(tool_calls=(call("gated_thing", {}, "g1"),)), Reply(text="two"), Reply()),
        steps=(StartTurn(turn="t1"), StartTurn(turn="t2"), Approve(turn="t1")),
    )
    trace = run(driver, superseded)
    _, second, approve = trace.steps
    assert second.wire["main"]["t1"].status == "paused"
    assert second.wire["main"]["t2"].status == "completed"
    assert ran(trace, "gated_thing") == [("approve", "g1")]
    assert approve.wire["main"]["t1"].status == "completed"


@pytest.mark.slow
def test_the_harness_serves_over_stdio() -> None:
    driver = Driver(connect(stdio_spec("-m", "harnesses.llamaindex"), timeout=60), timeout=60)
    try:
        trace = driver.run(
            Scenario(
                id="llamaindex/stdio",
                tools=GATED,
                model=(Reply(tool_calls=(call("gated_thing", {}, "g1"),)),),
                steps=(StartTurn(turn="t1"), Approve(turn="t1")),
            )
        )
    finally:
        driver.close()
    assert isinstance(trace, Trace) and [s.outcome for s in trace.steps] == ["ok", "ok"]


@pytest.mark.slow
@group("llamaindex")
def test_the_readme_explains_exactly_the_clauses_a_whole_run_fails(
    fresh_standing: Callable[[str], FreshStanding],
) -> None:
    """The README's Failing clauses table names exactly the clauses a whole run fails (the
    run that remakes the committed standing, shared with the other tests that read it)."""
    made = fresh_standing("llamaindex")
    assert made.done.returncode == 1, made.done.stdout[-2000:] + made.done.stderr[-2000:]
    standing = json.loads((made.folder / "standing.json").read_text("utf-8"))
    failing = {
        clause["citation"]
        for rule in standing["rules"]
        for clause in rule["clauses"]
        if clause["standing"] == "does-not-conform"
    }
    readme = (ROOT / "harnesses" / "llamaindex" / "README.md").read_text("utf-8")
    assert set(failing_in_readme(readme)) == failing
