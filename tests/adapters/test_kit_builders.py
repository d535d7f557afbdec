"""The kit's builders fill in the protocol's frame and refuse a wrong value where it is set."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from adapters.codec import validator
from adapters.handshake import Capabilities, Limits
from adapters.kit import (
    MAX_FAILURE_CHARS,
    BuildError,
    Pass,
    Run,
    StepRecord,
    WireTurn,
    handshake,
    note,
)


def _valid(ref: str, value: object) -> None:
    assert [error.message for error in validator(ref).iter_errors(value)] == []


def test_a_bare_step_record_is_a_complete_ok_step() -> None:
    record = StepRecord(3, "wait").to_json()
    assert record == {
        "index": 3,
        "op": "wait",
        "outcome": "ok",
        "warnings": [],
        "runs": [],
        "wire": {},
    }
    _valid("messages#/$defs/step_reply", record)


def test_a_full_record_renders_what_was_built() -> None:
    record = StepRecord(0, "start_turn")
    run = record.add_run(Run("r1", turn="t1", conversation="main", cause="start"))
    run.model_input([{"role": "user", "content": "hi"}])
    one = run.add_pass(Pass([{"name": "x", "args": {}, "tool_call_id": "c1"}], exposed={"p": True}))
    one.result("x", "c1", "executed", {"success": True, "data": 1, "error": None})
    one.tool_message({"role": "tool", "tool_call_id": "c1", "content": "1"})
    one.port("executed", ["c1"]).outcome({"succeeded": 1, "failed": 0})
    run.side_effect("x", {}, "c1")
    run.resumed("Go on.", note(completed=[{"tool": "x", "input": {}, "result": 1}]))
    record.warn("dropped", "too big", tool="x", type="link")
    record.wire("main", "t1", WireTurn("completed", messages=[{"role": "user"}], id="turn-1"))
    record.held({"t1": []}).open_collections([]).ids(conversations={"main": "c"}, turns={})
    rendered = record.to_json()
    _valid("messages#/$defs/step_reply", rendered)
    (built,) = rendered["runs"]  # type: ignore[misc]
    assert built["end"] == "completed"
    assert built["passes"][0]["ports"] == {"executed": ["c1"]}
    assert built["resume"]["note"] == {
        "completed": [{"tool": "x", "input": {}, "result": 1}],
        "interrupted": [],
    }
    assert rendered["warnings"] == [
        {"code": "dropped", "message": "too big", "tool": "x", "type": "link"}
    ]
    assert rendered["wire"]["main"]["t1"]["continueOffered"] is False  # type: ignore[index]


def _record_with_run() -> tuple[StepRecord, Run]:
    record = StepRecord(0, "start_turn")
    return record, record.add_run(Run("r1", turn="t1", conversation="main", cause="start"))


def _bad_cause() -> None:
    Run("r1", turn="t1", conversation="main", cause="resumed")  # type: ignore[arg-type]


def _bad_end() -> None:
    _, run = _record_with_run()
    run.ended("done")  # type: ignore[arg-type]


def _bad_disposition() -> None:
    _, run = _record_with_run()
    run.add_pass(Pass([], exposed={})).result("x", "c1", "ran", {})  # type: ignore[arg-type]


def _bad_call_id() -> None:
    _, run = _record_with_run()
    run.add_pass(Pass([], exposed={}))
    run.add_pass(Pass([], exposed={})).result("x", 7, "executed", {})  # type: ignore[arg-type]


def _bad_status() -> None:
    StepRecord(0, "wait").wire("main", "t/1", WireTurn(5))  # type: ignore[arg-type]


def _bad_outcome() -> None:
    StepRecord(0, "wait").failed(3, "no")  # type: ignore[arg-type]


def _bad_model_input() -> None:
    _, run = _record_with_run()
    run.model_input([{"role": "user"}])
    run.model_input("not a list")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("build", "pointer"),
    [
        (_bad_cause, "/cause"),
        (_bad_end, "/runs/0/end"),
        (_bad_disposition, "/runs/0/passes/0/results/0/disposition"),
        (_bad_call_id, "/runs/0/passes/1/results/0/tool_call_id"),
        (_bad_status, "/status"),  # the turn is refused where it is built, before it is placed
        (_bad_outcome, "/error/code"),
        (_bad_model_input, "/runs/0/model_inputs/1/messages"),
    ],
)
def test_a_wrong_value_fails_where_it_is_set(build: Callable[[], None], pointer: str) -> None:
    with pytest.raises(BuildError) as caught:
        build()
    assert caught.value.pointer == pointer
    assert caught.value.complaint
    assert f"pointer={pointer}" in str(caught.value)


def test_a_string_or_a_map_is_not_taken_for_a_list() -> None:
    with pytest.raises(BuildError) as caught:
        Pass("call_a", exposed={})
    assert caught.value.pointer == "/batch"
    with pytest.raises(BuildError) as caught:
        WireTurn("completed", messages={"role": "user"})
    assert caught.value.pointer == "/messages"


@pytest.mark.parametrize("value", [object(), math.nan, {"k": {1, 2}}])
def test_a_value_that_is_not_json_is_refused(value: object) -> None:
    _, run = _record_with_run()
    with pytest.raises(BuildError) as caught:
        run.side_effect("x", value, "c1")
    assert caught.value.pointer == "/runs/0/side_effects/0"


def test_values_are_copied_when_they_are_set() -> None:
    record, run = _record_with_run()
    history: list[object] = [{"role": "user", "content": "one"}]
    run.model_input(history)
    history.append({"role": "assistant", "content": "two"})
    row = {"role": "assistant", "toolArtifacts": []}
    record.wire("main", "t1", WireTurn("completed", messages=[row]))
    row["toolArtifacts"] = ["late"]
    rendered = record.to_json()
    assert rendered["runs"][0]["model_inputs"] == [
        {"messages": [{"role": "user", "content": "one"}]}
    ]  # type: ignore[index]
    assert rendered["wire"]["main"]["t1"]["messages"] == [
        {"role": "assistant", "toolArtifacts": []}
    ]  # type: ignore[index]


@pytest.mark.parametrize(
    ("failure", "said"),
    [
        (ValueError("bad value"), "ValueError: bad value"),
        ("error_code: the model refused", "error_code: the model refused"),
        (RuntimeError("x" * 600), "RuntimeError: " + "x" * (MAX_FAILURE_CHARS - 14)),
    ],
)
def test_a_failed_run_fails_its_step(failure: BaseException | str, said: str) -> None:
    record, run = _record_with_run()
    assert record.run_failed(run, "agent_error", failure) is record
    rendered = record.to_json()
    assert rendered["outcome"] == "failed"
    assert rendered["error"] == {"code": "agent_error", "message": said}
    assert rendered["runs"][0]["end"] == "failed"  # type: ignore[index]
    _valid("messages#/$defs/step_reply", rendered)


def test_a_paused_or_cut_pass_says_so() -> None:
    one = Pass([1], exposed={}).mark_paused().mark_cut()
    assert one.to_json()["paused"] is True and one.to_json()["cut"] is True


def test_the_handshake_fills_in_the_frame() -> None:
    built = handshake("acme", "1.0", capabilities={"gates": True, "entry_points": ("chat", "api")})
    assert built["protocol"] == "rttool-adapter/1"
    assert built["profiles"] == ["runtime"] and built["collects_artifacts"] is True
    assert built["capabilities"] == {"gates": True, "entry_points": ["chat", "api"]}
    assert built["limits"] == {}
    _valid("messages#/$defs/handshake", built)


def test_the_handshake_takes_the_dataclasses() -> None:
    built = handshake(
        "acme",
        "1.0",
        profiles=["runtime", "durable-resume"],
        capabilities=Capabilities(restart=True),
        limits=Limits(payload_bytes=10),
        nudge="Go on.",
        levels=["core"],
        homepage="https://acme.example",
    )
    _valid("messages#/$defs/handshake", built)
    assert built["capabilities"]["restart"] is True  # type: ignore[index]
    assert built["limits"]["payload_bytes"] == 10  # type: ignore[index]
    assert built["durable_resume"] == {"nudge": "Go on."}


@pytest.mark.parametrize(
    ("kwargs", "pointer"),
    [
        ({"capabilities": {"interrupt_points": ["nowhere"]}}, "/capabilities/interrupt_points/0"),
        ({"capabilities": {"teleport": True}}, "/capabilities"),
        ({"limits": {"payload_bytes": 0}}, "/limits/payload_bytes"),
        ({"levels": ["gold"]}, "/levels/0"),
    ],
)
def test_a_wrong_handshake_names_the_pointer(kwargs: dict[str, object], pointer: str) -> None:
    with pytest.raises(BuildError) as caught:
        handshake("acme", "1.0", **kwargs)  # type: ignore[arg-type]
    assert caught.value.pointer == pointer


def test_a_too_long_implementation_name_is_refused() -> None:
    with pytest.raises(BuildError) as caught:
        handshake("x" * 101, "1.0")
    assert caught.value.pointer == "/implementation/name"
