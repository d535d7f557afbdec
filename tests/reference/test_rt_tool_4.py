"""RT-TOOL-4: a turn's artifacts are persisted on its message and reported on its result."""

from __future__ import annotations

from reference_impl.workflow import ModelReply, ToolSpec
from tests.reference._support import assistant_rows, call, calls, examples, say
from tests.reference.conftest import MakeRig

PRODUCED, REPORTED = examples("RT-TOOL-4")


def test_example_message_carries_artifacts_top_level(make_rig: MakeRig) -> None:
    assert isinstance(PRODUCED, dict)
    rig = make_rig(ToolSpec("report"))
    rig.world.returns(
        "report",
        {"ok": True, "artifacts": [{"type": PRODUCED["type"], "payload": PRODUCED["payload"]}]},
    )
    rig.model.push(calls(call("report", {}, PRODUCED["tool_call_id"])), say("Here it is."))
    turn = rig.start()
    (row,) = assistant_rows(rig.view(turn))
    assert isinstance(REPORTED, dict)
    assert {key: row[key] for key in REPORTED} == REPORTED
    assert row["toolArtifacts"] == [PRODUCED]


def test_persisted_once_per_run_on_the_last_assistant_message(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("report"))
    rig.world.returns("report", {"artifacts": [{"type": "t", "payload": {}}]})
    rig.model.push(
        calls(call("report", {"n": 1}, "c1"), text="Working on it."),
        calls(call("report", {"n": 2}, "c2"), text="Still working."),
        say("All done."),
    )
    turn = rig.start()
    rows = assistant_rows(rig.view(turn))
    assert [row["content"] for row in rows] == ["Working on it.", "Still working.", "All done."]
    assert ["toolArtifacts" in row for row in rows] == [False, False, True]
    assert rows[-1]["toolArtifacts"] == [
        {"type": "t", "payload": {}, "tool_call_id": "c1"},
        {"type": "t", "payload": {}, "tool_call_id": "c2"},
    ]


def test_turn_result_aggregates_and_survives_a_reload(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("report"))
    rig.world.returns("report", {"artifacts": [{"type": "t", "payload": {"k": "v"}}]})
    rig.model.push(calls(call("report", {}, "c1")), ModelReply(question="Which format?"))
    turn = rig.start()
    rig.model.push(calls(call("report", {"f": "pdf"}, "c2")), say("Sent."))
    rig.runtime.answer(turn, "pdf")
    before = rig.view(turn)
    aggregate = [a for row in before["messages"] for a in row.get("toolArtifacts", [])]
    assert before["toolArtifacts"] == aggregate
    assert [a["tool_call_id"] for a in aggregate] == ["c1", "c2"]
    rig.restart()
    assert rig.view(turn) == before


def test_turn_result_holds_only_its_own_turn(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("report"))
    rig.world.returns("report", {"artifacts": [{"type": "t", "payload": {}}]})
    rig.model.push(
        calls(call("report", {}, "first")),
        say("One."),
        calls(call("report", {}, "second")),
        say("Two."),
    )
    first = rig.start("one")
    second = rig.start("two", rig.conversation_id)
    assert [a["tool_call_id"] for a in rig.view(first)["toolArtifacts"]] == ["first"]
    assert [a["tool_call_id"] for a in rig.view(second)["toolArtifacts"]] == ["second"]


def test_poll_reports_the_same_rows(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("report"))
    rig.world.returns("report", {"artifacts": [{"type": "t", "payload": {}}]})
    rig.model.push(calls(call("report", {}, "c1")), say("Done."))
    turn = rig.start()
    polled = rig.poll()["data"]
    assert polled == rig.view(turn)["messages"]


def test_wire_never_shows_the_storage_key_or_null_artifacts(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("report"))
    rig.world.returns("report", {"artifacts": [{"type": "t", "payload": {}}]})
    rig.model.push(calls(call("report", {}, "c1"), text="Calling."), say("Done."))
    turn = rig.start()
    view = rig.view(turn)
    for row in view["messages"]:
        assert "tool_artifacts" not in row
        assert row["metadata"] == {}
        assert row.get("toolArtifacts", "absent") != []
        assert row.get("toolArtifacts", "absent") is not None
