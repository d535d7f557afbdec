"""RT-TOOL-5: artifact collection is opened and released per run."""

from __future__ import annotations

import pytest

from reference_impl.runtime import RunFailed
from reference_impl.workflow import ModelReply, ToolOutcome, ToolSpec
from tests.reference._support import Record, Rig, call, calls, examples, say
from tests.reference.conftest import MakeRig

PRODUCED, HELD_BY_COLLECTION = examples("RT-TOOL-5")
LINK = {"type": "link", "payload": {"u": 1}}


def _emitting(make_rig: MakeRig) -> Rig:
    rig = make_rig(ToolSpec("emit"))
    rig.world.returns("emit", {"artifacts": [LINK]})
    return rig


def _drops(rig: Rig) -> list[Record]:
    return [w for w in rig.warnings if w["code"] == "artifact_dropped"]


def test_example_artifact_for_an_unopened_run_is_dropped(make_rig: MakeRig) -> None:
    assert isinstance(PRODUCED, dict)
    rig = make_rig(ToolSpec("emit"))
    rig.model.push(ModelReply(question="Proceed?"))
    turn = rig.start()
    # The run that will answer the question does not exist yet: nobody opened its collection.
    rig.runtime.emit_late(
        turn,
        "unopened",
        {"type": PRODUCED["type"], "payload": PRODUCED["payload"]},
        PRODUCED["tool_call_id"],
    )
    (drop,) = _drops(rig)
    assert drop["tool_call_id"] == PRODUCED["tool_call_id"] and drop["type"] == "citation"
    rig.model.push(say("Proceeding."))
    rig.runtime.answer(turn, "yes")  # opening collection now does not reach back for it
    answered = rig.runs()[-1]
    assert answered["id"] == drop["run"]
    assert rig.view(turn)["toolArtifacts"] == HELD_BY_COLLECTION
    assert rig.runtime.held(turn) == HELD_BY_COLLECTION


def test_draining_does_not_end_collection(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    seen_open: list[list[str]] = []

    def emit(_args: object) -> ToolOutcome:
        seen_open.append(rig.runtime.open_collections())
        return ToolOutcome(output={"artifacts": [LINK]})

    rig.world.behaviours["emit"] = emit
    rig.model.push(
        calls(call("emit", {"n": 1}, "c1")), calls(call("emit", {"n": 2}, "c2")), say("Both.")
    )
    turn = rig.start()
    (run,) = rig.runs()
    # The first pass drained its artifact; the second call of the same run still collects.
    assert seen_open == [[run["id"]], [run["id"]]]
    assert [p["ports"]["tool_artifacts"] for p in run["passes"]] == [
        [{**LINK, "tool_call_id": "c1"}],
        [{**LINK, "tool_call_id": "c2"}],
    ]
    assert [a["tool_call_id"] for a in rig.view(turn)["toolArtifacts"]] == ["c1", "c2"]


def test_released_when_the_run_returns_and_late_arrivals_are_dropped(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    rig.model.push(calls(call("emit", {}, "c1")), say("Done."))
    turn = rig.start()
    assert rig.runtime.open_collections() == []
    before = rig.view(turn)
    rig.runtime.emit_late(turn, "ended", {"type": "late", "payload": {}}, "c-late")
    (drop,) = _drops(rig)
    assert drop["type"] == "late" and drop["tool_call_id"] == "c-late"
    assert rig.view(turn) == before


def test_released_when_the_run_pauses(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    rig.model.push(calls(call("emit", {}, "c1")), ModelReply(question="More?"))
    turn = rig.start()
    assert rig.status(turn) == "paused"
    assert rig.runtime.open_collections() == []
    rig.runtime.emit_late(turn, "ended", {"type": "late", "payload": {}}, "c-late")
    assert len(_drops(rig)) == 1
    assert rig.runtime.held(turn) == [{**LINK, "tool_call_id": "c1"}]


def test_released_when_the_run_is_cut_off_or_fails(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    rig.model.push(calls(call("emit", {}, "c1")))
    rig.seams.arm("after_tool_done", "error", "emit")
    turn = rig.start()
    assert rig.status(turn) == "stopped"
    assert rig.runtime.open_collections() == []
    rig.seams.fail_write_backs(1)
    with pytest.raises(RunFailed):
        rig.runtime.continue_turn(turn)
    assert rig.runtime.open_collections() == []


def test_collection_does_not_depend_on_the_entry_point(make_rig: MakeRig) -> None:
    delivered = {}
    for entry_point in ("chat", "api", "trigger"):
        rig = _emitting(make_rig)
        rig.model.push(calls(call("emit", {}, "c1")), say("Done."))
        turn = rig.start(entry_point=entry_point)
        delivered[entry_point] = rig.view(turn)["toolArtifacts"]
    assert (
        delivered["chat"]
        == delivered["api"]
        == delivered["trigger"]
        == [{**LINK, "tool_call_id": "c1"}]
    )
