"""RT-TOOL-1: a tool result carries artifacts alongside its data, never inside it."""

from __future__ import annotations

from reference_impl.workflow import ToolSpec
from tests.reference._support import Record, call, calls, examples, results, say
from tests.reference.conftest import MakeRig

PLAIN, ATTACHED = examples("RT-TOOL-1")


def _result_of(make_rig: MakeRig, output: object, error: str | None = None) -> Record:
    rig = make_rig(ToolSpec("make_thing"))
    rig.world.returns("make_thing", output, error)
    rig.model.push(calls(call("make_thing", {}, "c1")), say("Made."))
    rig.runtime.start_turn(rig.conversation(), "make it")
    (only,) = results(rig.runs())
    result = only["result"]
    assert isinstance(result, dict)
    return result


def test_example_plain_result_keeps_the_three_key_shape(make_rig: MakeRig) -> None:
    assert isinstance(PLAIN, dict)
    assert _result_of(make_rig, PLAIN["data"]) == PLAIN


def test_example_attached_artifact_rides_beside_data(make_rig: MakeRig) -> None:
    assert isinstance(ATTACHED, dict)
    output = {**ATTACHED["data"], "artifacts": ATTACHED["artifacts"]}
    assert _result_of(make_rig, output) == ATTACHED


def test_attaching_an_artifact_never_changes_data(make_rig: MakeRig) -> None:
    data = {"ok": True, "count": 3, "nested": {"a": [1, 2]}}
    plain = _result_of(make_rig, data)
    attached = _result_of(make_rig, {**data, "artifacts": [{"type": "t", "payload": {}}]})
    assert plain["data"] == attached["data"] == data
    assert list(plain) == ["success", "data", "error"]
    assert list(attached) == ["success", "data", "error", "artifacts"]


def test_data_and_artifacts_are_disjoint(make_rig: MakeRig) -> None:
    entry = {"type": "chart", "payload": {"series": [1, 2, 3]}}
    result = _result_of(make_rig, {"summary": "three points", "artifacts": [entry]})
    assert result["data"] == {"summary": "three points"}
    assert result["artifacts"] == [entry]
    assert "artifacts" not in str(result["data"])


def test_no_artifacts_key_when_nothing_was_attached(make_rig: MakeRig) -> None:
    # Only malformed entries on the reserved key: nothing is attached, so no key.
    result = _result_of(make_rig, {"ok": True, "artifacts": ["junk", {"type": 1}]})
    assert result == {"success": True, "data": {"ok": True}, "error": None}
    # An empty list attaches nothing either.
    assert "artifacts" not in _result_of(make_rig, {"ok": True, "artifacts": []})


def test_failed_result_keeps_the_plain_shape(make_rig: MakeRig) -> None:
    result = _result_of(make_rig, {"artifacts": [{"type": "t", "payload": {}}]}, error="boom")
    assert result == {"success": False, "data": None, "error": "boom"}
