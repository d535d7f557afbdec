"""The catalogue of runtime shapes: well formed, built on demand, declared honestly, and
the policy points it added doing what the shapes say."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Mapping

import pytest

from conformance.rules import load_corpus
from reference_impl.behaviour import Components
from reference_impl.harness import create
from reference_impl.shapes import KINDS, UnknownShape, catalogue, components_for, find

KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
Record = dict[str, object]


def test_names_are_unique_and_kebab_case() -> None:
    names = [shape.name for shape in catalogue()]
    assert len(catalogue()) >= 15
    assert len(names) == len(set(names))
    assert [name for name in names if not KEBAB.match(name)] == []


def test_every_shape_names_real_clauses_and_says_why() -> None:
    clauses = {clause.id for clause in load_corpus().clauses}
    for shape in catalogue():
        assert shape.kind in KINDS, shape.name
        assert shape.clauses, shape.name
        assert set(shape.clauses) <= clauses, (shape.name, set(shape.clauses) - clauses)
        assert len(set(shape.clauses)) == len(shape.clauses), shape.name
        assert shape.summary.strip() and "\n" not in shape.summary, shape.name
        assert '"' in shape.reason, f"{shape.name}: the reason quotes no rule words"


def test_every_gap_breaks_a_clause_and_both_kinds_are_there() -> None:
    assert {shape.kind for shape in catalogue()} == set(KINDS)
    for shape in catalogue():
        assert (shape.breaks == shape.clauses) if shape.kind == "gap" else shape.breaks == ()


def test_every_shape_builds_fresh_components_that_differ_from_the_reference() -> None:
    production = Components()
    for shape in catalogue():
        first, second = components_for(shape.name), components_for(shape.name)
        assert isinstance(first, Components), shape.name
        assert first is not second and first.node is not second.node, shape.name
        replaced = [
            type(first.behaviour) is not type(production.behaviour),
            type(first.node) is not type(production.node),
            type(first.node.policy) is not type(production.node.policy),
            type(first.node.normalizer) is not type(production.node.normalizer),
            type(first.wire) is not type(production.wire),
            first.collector_class is not production.collector_class,
        ]
        assert any(replaced), shape.name


def test_an_unknown_name_fails_on_one_line_naming_the_list() -> None:
    with pytest.raises(UnknownShape) as caught:
        find("no-such-shape")
    assert "\n" not in str(caught.value)
    assert "reference_impl.shapes --list" in str(caught.value)


def test_the_listing_prints_every_shape_as_json() -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "reference_impl.shapes", "--list", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    entries = json.loads(listed.stdout)
    assert [entry["name"] for entry in entries] == [shape.name for shape in catalogue()]
    assert set(entries[0]) == {"name", "kind", "clauses", "frameworks", "summary", "reason"}


def test_the_stdio_harness_refuses_an_unknown_shape_on_one_line() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "reference_impl.harness", "--shape", "no-such-shape"],
        capture_output=True,
        text=True,
        input="",
        check=False,
    )
    assert ran.returncode == 2
    assert "no such shape" in ran.stderr and "Traceback" not in ran.stderr


def test_a_shape_says_what_it_is_and_declares_what_it_decides() -> None:
    def hello(**choice: str) -> Mapping[str, object]:
        return create(**choice).request({"cmd": "hello"})

    version = hello(shape="question-as-a-stopping-tool")["implementation"]
    assert isinstance(version, dict)
    assert str(version["version"]).endswith("+shape.question-as-a-stopping-tool")
    waits = hello(shape="no-automatic-continuation")["durable_resume"]
    assert isinstance(waits, dict) and waits["resumes_on_its_own"] == []
    assert hello(shape="collects-no-artifacts")["collects_artifacts"] is False
    assert hello()["collects_artifacts"] is True
    with pytest.raises(ValueError):
        create(variant="status-words-of-its-own", shape="collects-no-artifacts")


# -- the policy points the shapes use, played through the harness -----------------------


def _play(shape: str | None, scenario: Mapping[str, object]) -> list[Record]:
    """Every step record of ``scenario`` played on the reference runtime or a shape."""
    harness = create(shape=shape)
    started = harness.request({"cmd": "start", "scenario": {"id": "shape-test", **scenario}})
    session = started["session"]
    steps = scenario["steps"]
    assert isinstance(steps, list)
    records = [
        harness.request({"cmd": "step", "session": session, "index": index})
        for index in range(len(steps))
    ]
    harness.request({"cmd": "bye"})
    return records


def _runs(record: Record) -> list[Record]:
    runs = record["runs"]
    assert isinstance(runs, list)
    return runs


def _last_input(run: Record) -> list[Record]:
    inputs = run["model_inputs"]
    assert isinstance(inputs, list) and inputs
    messages = inputs[-1]["messages"]
    assert isinstance(messages, list)
    return messages


_TOOL = {"name": "note", "input_schema": {}}
_QUESTION = {
    "tools": [_TOOL],
    "model": [{"question": "Which one?"}, {"text": "done"}],
    "steps": [{"op": "start_turn", "turn": "t1"}, {"op": "answer", "turn": "t1", "value": "B"}],
}


def test_a_question_asked_through_a_stopping_tool_is_answered_by_its_result() -> None:
    plain = _last_input(_runs(_play(None, _QUESTION)[1])[0])
    assert plain[-1] == {"role": "user", "content": "B"}
    asked = _last_input(_runs(_play("question-as-a-stopping-tool", _QUESTION)[1])[0])
    declared = asked[-2]["tool_calls"]
    assert isinstance(declared, list) and declared[0]["name"] == "ask_user"
    assert asked[-1] == {
        "role": "tool",
        "tool_call_id": declared[0]["tool_call_id"],
        "content": "B",
    }


def test_a_superseded_paused_turn_is_refused_only_by_the_shape_that_says_so() -> None:
    scenario = {
        "tools": [_TOOL],
        "model": [{"question": "Which one?"}, {"text": "t2 done"}, {"text": "t1 done"}],
        "steps": [
            {"op": "start_turn", "turn": "t1"},
            {"op": "start_turn", "turn": "t2"},
            {"op": "answer", "turn": "t1"},
        ],
    }
    assert _play(None, scenario)[2]["outcome"] == "ok"
    refused = _play("superseded-paused-turn-refused", scenario)[2]
    assert refused["outcome"] == "refused" and refused["runs"] == []


def test_a_batch_without_a_well_formed_call_gets_no_pass_in_the_shape_that_says_so() -> None:
    scenario = {
        "tools": [_TOOL],
        "model": [{"tool_calls": []}, {"tool_calls": ["junk", {"name": " "}]}, {"text": "x"}],
        "steps": [{"op": "start_turn", "turn": "t1"}, {"op": "start_turn", "turn": "t2"}],
    }
    assert [len(_runs(r)[0]["passes"]) for r in _play(None, scenario)] == [2, 0]
    ended = _play("no-pass-without-well-formed-calls", scenario)
    assert [len(_runs(r)[0]["passes"]) for r in ended] == [0, 0]
    assert [_runs(r)[0]["end"] for r in ended] == ["completed", "completed"]


def test_an_interrupted_call_is_left_out_of_the_history_by_the_shape_that_says_so() -> None:
    scenario = {
        "tools": [{"name": "send_email", "input_schema": {}}],
        "model": [
            {"tool_calls": [{"name": "send_email", "args": {"to": "a"}, "tool_call_id": "c1"}]},
            {"text": "done"},
        ],
        "steps": [
            {"op": "interrupt", "point": "after_tool_body", "cause": "error"},
            {"op": "start_turn", "turn": "t1"},
            {"op": "continue", "turn": "t1"},
        ],
    }

    def resumed_history(shape: str | None) -> str:
        return json.dumps(_last_input(_runs(_play(shape, scenario)[2])[0])[:-1])

    assert '"c1"' in resumed_history(None)
    assert '"c1"' not in resumed_history("unanswered-calls-left-out-of-history")


def test_continue_is_offered_for_the_stop_that_happened_last_in_the_shape_that_says_so() -> None:
    scenario = {
        "tools": [_TOOL],
        "model": [{"question": "Which one?"}, {"text": "t2 done"}],
        "steps": [
            {"op": "start_turn", "turn": "t1"},
            {"op": "interrupt", "point": "during_model_call", "cause": "error"},
            {"op": "start_turn", "turn": "t2"},
            {"op": "stop", "turn": "t1"},
        ],
    }

    def offered(shape: str | None) -> dict[str, object]:
        wire = _play(shape, scenario)[-1]["wire"]
        assert isinstance(wire, dict)
        return {label: turn["continueOffered"] for label, turn in wire["main"].items()}

    assert offered(None) == {"t1": False, "t2": True}  # the latest stopped turn
    assert offered("newest-stop-in-time") == {"t1": True, "t2": False}  # the latest stop
