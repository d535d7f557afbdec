"""The toy harness published in docs/writing-an-adapter.md runs, and does what the guide says."""

from __future__ import annotations

import ast
import dataclasses
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from adapters import Driver, Trace, Unsupported, connect
from adapters.codec import schema, to_json, validator
from adapters.handshake import Capabilities
from adapters.scenario import (
    Answer,
    Poll,
    Reply,
    Restart,
    Return,
    Scenario,
    StartTurn,
    Stop,
    Tool,
    Wait,
    call,
)
from conformance.publish import MARKER
from tests.adapters import toy
from tests.adapters.conftest import stdio_spec

LINK = {"type": "link", "payload": {"url": "https://example.com/r/1"}}
CHART = {"type": "chart", "payload": {"points": [1, 2, 3]}}

WITH_ARTIFACT = Scenario(
    id="guide/artifact",
    tools=(
        Tool(
            name="make_report",
            returns=(
                Return(
                    output={
                        "summary": "3 findings",
                        "artifacts": [LINK, {"type": 7, "payload": {}}, {"type": "x"}],
                    }
                ),
            ),
        ),
    ),
    model=(
        Reply(tool_calls=(call("make_report", {"topic": "q3"}, "call_1"),)),
        Reply(text="Here is your report."),
    ),
    steps=(StartTurn(turn="t1", message="Q3 report, please"), Wait()),
)
TEXT_ONLY = Scenario(
    id="guide/text-only",
    model=(Reply(text="Hello to you too."),),
    steps=(StartTurn(turn="t1"),),
)
GUARDED = Scenario(
    id="guide/guard",
    tools=(Tool(name="lookup", returns=(Return(output={"n": 1}), Return(fail="quota hit"))),),
    model=(
        Reply(
            tool_calls=(
                call("lookup", {}, "c1"),
                call("lookup", {}, "c1"),
                call("nowhere", {}, "c2"),
                call("lookup"),
                42,
                {"name": " "},
            )
        ),
        Reply(text="done"),
    ),
    steps=(StartTurn(turn="t1"),),
)
PAUSED = Scenario(
    id="guide/pause",
    tools=(Tool(name="draw", returns=(Return(output={"artifacts": [CHART]}),)),),
    model=(
        Reply(tool_calls=(call("draw", {}, "d1"),), question="Shall I go on?"),
        Reply(text="Here it is."),
    ),
    steps=(StartTurn(turn="t1"), Answer(turn="t1"), Stop(turn="t1")),
)


@pytest.fixture(scope="module")
def source() -> str:
    return toy.toy_source()


@pytest.fixture
def driver(tmp_path: Path, source: str) -> Iterator[Driver]:
    path = tmp_path / "toy_harness.py"
    path.write_text(source, "utf-8")
    driver = Driver(connect(stdio_spec(str(path)), timeout=60), timeout=60)
    yield driver
    driver.close()


def traced(driver: Driver, scenario: Scenario) -> Trace:
    trace = driver.run(scenario)
    assert isinstance(trace, Trace)
    assert list(validator("trace").iter_errors(to_json(trace))) == []
    return trace


def test_the_guide_has_one_short_harness_on_the_kit(source: str) -> None:
    assert source.startswith(MARKER)
    assert len(source.splitlines()) < 160
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    # The standard library, the kit and the scenario model: nothing else of the project.
    outside = {name for name in imported if name.split(".")[0] not in sys.stdlib_module_names}
    assert outside == {"adapters.kit", "adapters.scenario"}


def test_a_tool_call_with_an_artifact(driver: Driver) -> None:
    trace = traced(driver, WITH_ARTIFACT)
    ((run, one),) = list(trace.passes())
    delivered = [{**LINK, "tool_call_id": "call_1"}]
    (result,) = one.results
    # Lifted off the reserved key: only the well-formed entry, never folded into data.
    assert result.result == {
        "success": True,
        "data": {"summary": "3 findings"},
        "error": None,
        "artifacts": [LINK],
    }
    assert one.ports == {
        "tool_artifacts": delivered,
        "executed_any": True,
        "executed": ["call_1"],
        "skipped": [],
    }
    assert one.exposed == {
        "tool_artifacts": False,
        "executed_any": True,
        "executed": False,
        "skipped": False,
    }
    assert run.side_effects == (
        {"tool": "make_report", "input": {"topic": "q3"}, "tool_call_id": "call_1"},
    )
    for step in trace.steps:  # after the start and after the wait
        wire = step.wire["main"]["t1"]
        last = wire.messages[-1]
        assert isinstance(last, Mapping)
        assert last["role"] == "assistant" and last["content"] == "Here is your report."
        assert last["toolArtifacts"] == delivered
        assert "toolArtifacts" not in last["metadata"]  # type: ignore[operator]
        assert wire.toolArtifacts == delivered
    prose = [str(message) for given in run.model_inputs for message in given.messages]
    assert not any("example.com" in text for text in prose)  # artifacts never reach the model


def test_a_text_only_turn(driver: Driver) -> None:
    trace = traced(driver, TEXT_ONLY)
    (step,) = trace.steps
    (run,) = step.runs
    assert run.passes == () and run.side_effects == ()
    assert run.end == "completed"
    wire = step.wire["main"]["t1"]
    assert [row["role"] for row in wire.messages] == ["user", "assistant"]  # type: ignore[index]
    assert all("toolArtifacts" not in row for row in wire.messages)  # type: ignore[operator]
    assert wire.toolArtifacts == []


def test_call_guard_unknown_tools_and_malformed_calls(driver: Driver) -> None:
    trace = traced(driver, GUARDED)
    ((_, one),) = list(trace.passes())
    assert [(r.tool_call_id, r.disposition) for r in one.results] == [
        ("c1", "executed"),
        ("c1", "skipped"),
        ("c2", "unknown_tool"),
        (None, "executed"),
    ]
    assert one.results[1].result == one.results[0].result  # the stored result, re-emitted
    assert one.results[3].result == {"success": False, "data": None, "error": "quota hit"}
    assert one.ports == {
        "tool_artifacts": [],
        "executed_any": True,
        "executed": ["c1", "c2"],
        "skipped": ["c1"],
    }
    assert one.outcome == {"succeeded": 2, "failed": 2}
    # The first result is artifact-free, so it keeps the plain three-key shape.
    assert set(one.results[0].result) == {"success", "data", "error"}  # type: ignore[arg-type]


def test_artifacts_are_held_across_a_pause_then_delivered(driver: Driver) -> None:
    trace = traced(driver, PAUSED)
    start, answer, stop = trace.steps
    paused = start.wire["main"]["t1"]
    assert start.runs[0].end == "paused"
    assert paused.status == "paused" and paused.pending == {"question": "Shall I go on?"}
    assert paused.toolArtifacts == []  # held, not shown
    resumed = answer.wire["main"]["t1"]
    assert answer.runs[0].cause == "answer"
    assert resumed.toolArtifacts == [{**CHART, "tool_call_id": "d1"}]
    assert stop.outcome == "refused" and stop.error is not None
    assert stop.wire["main"]["t1"].toolArtifacts == resumed.toolArtifacts  # delivered once


def test_what_the_toy_cannot_do_is_untested(driver: Driver) -> None:
    polls = Scenario(id="guide/poll", steps=(StartTurn(turn="t1"), Poll()))
    assert driver.run(polls) == Unsupported("poll", "no message poll")
    restarts = Scenario(id="guide/restart", steps=(StartTurn(turn="t1"), Restart()))
    outcome = driver.run(restarts)
    assert isinstance(outcome, Unsupported) and outcome.capability == "restart"
    traced(driver, TEXT_ONLY)  # and the harness goes on serving


def test_the_same_file_works_in_process(
    tmp_path: Path, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "toy_harness.py").write_text(source, "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "toy_harness", raising=False)
    driver = Driver(connect("python:toy_harness:ToyHarness"), timeout=60)
    try:
        trace = traced(driver, WITH_ARTIFACT)
    finally:
        driver.close()
        sys.modules.pop("toy_harness", None)
    assert trace.final_wire()["main"]["t1"].toolArtifacts == [{**LINK, "tool_call_id": "call_1"}]


# ----------------------------------------------------------------- the guide's examples

EXAMPLE_REFS = (
    "messages#/$defs/request",
    "messages#/$defs/handshake",
    "messages#/$defs/started",
    "messages#/$defs/unsupported",
    "messages#/$defs/step_reply",
    "messages#/$defs/finished",
    "messages#/$defs/error_reply",
    "messages#/$defs/bye_reply",
    "scenario",
)


def guide_blocks(language: str) -> list[str]:
    from markdown_it import MarkdownIt

    tokens = MarkdownIt().parse(toy.GUIDE.read_text("utf-8"))
    return [
        token.content
        for token in tokens
        if token.type == "fence" and token.info.strip() == language
    ]


def test_every_json_example_in_the_guide_is_valid() -> None:
    blocks = guide_blocks("json")
    assert len(blocks) >= 10
    for block in blocks:
        if "..." in block:  # an elided example
            with pytest.raises(json.JSONDecodeError):
                json.loads(block)
            continue
        value = json.loads(block)
        matches = [ref for ref in EXAMPLE_REFS if not list(validator(ref).iter_errors(value))]
        assert matches, block


def test_the_guide_names_every_capability_and_step_op() -> None:
    text = toy.GUIDE.read_text("utf-8")
    (handshake,) = [
        json.loads(block) for block in guide_blocks("json") if '"capabilities"' in block
    ]
    fields = {field.name for field in dataclasses.fields(Capabilities)}
    assert set(handshake["capabilities"]) == fields
    for name in fields:
        assert f"| `{name}` |" in text, name
    ops = schema("scenario")["$defs"]["step"]["properties"]["op"]["enum"]  # type: ignore[index]
    for op in ops:
        assert f"| `{op}` |" in text, op
