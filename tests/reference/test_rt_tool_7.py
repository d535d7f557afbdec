"""RT-TOOL-7: a pause does not destroy artifacts, and does not deliver them twice."""

from __future__ import annotations

import pytest

from reference_impl.artifacts import Bounds
from reference_impl.runtime import RunFailed
from reference_impl.workflow import ModelReply, ToolOutcome, ToolSpec
from tests.reference._support import Record, Rig, assistant_rows, call, calls, examples, say
from tests.reference.conftest import MakeRig

(HELD,) = examples("RT-TOOL-7")
QUESTION = ModelReply(question="Which format?")


def _rig(make_rig: MakeRig, bounds: Bounds | None = None) -> Rig:
    rig = make_rig(ToolSpec("emit", input_schema={}), bounds=bounds)

    def emit(args: object) -> ToolOutcome:
        assert isinstance(args, dict)
        return ToolOutcome(
            output={"ok": True, "artifacts": [{"type": "link", "payload": {"url": args["url"]}}]}
        )

    rig.world.behaviours["emit"] = emit
    return rig


def _link(url: str, call_id: str) -> Record:
    return {"type": "link", "payload": {"url": url}, "tool_call_id": call_id}


def _never_on_the_wire(rig: Rig, turn: str) -> None:
    view = rig.view(turn)
    assert view["toolArtifacts"] == []
    assert all("toolArtifacts" not in row for row in view["messages"])
    polled = rig.poll()["data"]
    assert all("toolArtifacts" not in row for row in polled)


def test_example_held_against_the_paused_turn_and_delivered_once(make_rig: MakeRig) -> None:
    assert isinstance(HELD, dict)
    rig = _rig(make_rig)
    rig.model.push(
        calls(call("emit", {"url": HELD["payload"]["url"]}, HELD["tool_call_id"])), QUESTION
    )
    turn = rig.start()
    assert rig.status(turn) == "paused"
    assert rig.runtime.held(turn) == [HELD]
    _never_on_the_wire(rig, turn)
    rig.model.push(say("Here you go."))
    rig.runtime.answer(turn, "pdf")
    (row,) = [r for r in assistant_rows(rig.view(turn)) if r["content"] == "Here you go."]
    assert row["toolArtifacts"] == [HELD]
    assert rig.runtime.held(turn) == []
    # Asking again finds nothing left to deliver.
    rig.model.push(QUESTION)
    again = rig.start("again", rig.conversation_id)
    rig.model.push(say("Nothing new."))
    rig.runtime.answer(again, "pdf")
    assert rig.view(again)["toolArtifacts"] == []
    assert rig.view(turn)["toolArtifacts"] == [HELD]


def test_held_artifacts_are_prepended_to_what_the_resume_collected(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("emit", {"url": "a"}, "c1")), QUESTION)
    turn = rig.start()
    rig.model.push(calls(call("emit", {"url": "b"}, "c2")), say("Done."))
    rig.runtime.answer(turn, "pdf")
    assert rig.view(turn)["toolArtifacts"] == [_link("a", "c1"), _link("b", "c2")]


def test_a_resume_that_pauses_again_holds_everything(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("emit", {"url": "a"}, "c1")), QUESTION)
    turn = rig.start()
    rig.model.push(calls(call("emit", {"url": "b"}, "c2")), QUESTION)
    rig.runtime.answer(turn, "pdf")
    assert rig.runtime.held(turn) == [_link("a", "c1"), _link("b", "c2")]
    _never_on_the_wire(rig, turn)
    rig.model.push(calls(call("emit", {"url": "c"}, "c3")), say("Done."))
    rig.runtime.answer(turn, "pdf")
    assert rig.view(turn)["toolArtifacts"] == [_link("a", "c1"), _link("b", "c2"), _link("c", "c3")]
    assert rig.runtime.held(turn) == []


def test_a_failed_write_back_puts_them_back(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("emit", {"url": "a"}, "c1")), QUESTION)
    turn = rig.start()
    rig.seams.fail_write_backs(1)
    rig.model.push(calls(call("emit", {"url": "b"}, "c2")), say("Done."))
    with pytest.raises(RunFailed) as failure:
        rig.runtime.answer(turn, "pdf")
    assert failure.value.code == "write_back_failed"
    # The taken list is back, with the failed run's own artifacts after it.
    assert rig.runtime.held(turn) == [_link("a", "c1"), _link("b", "c2")]
    assert rig.status(turn) == "paused"
    _never_on_the_wire(rig, turn)
    rig.model.push(say("Done at last."))
    rig.runtime.answer(turn, "pdf")
    assert rig.view(turn)["toolArtifacts"] == [_link("a", "c1"), _link("b", "c2")]
    assert rig.runtime.held(turn) == []


def test_the_held_list_is_bounded_and_drops_the_newest(make_rig: MakeRig) -> None:
    rig = _rig(make_rig, bounds=Bounds(held_artifacts=2))
    rig.model.push(
        calls(
            call("emit", {"url": "a"}, "c1"),
            call("emit", {"url": "b"}, "c2"),
            call("emit", {"url": "c"}, "c3"),
        ),
        QUESTION,
    )
    turn = rig.start()
    assert rig.runtime.held(turn) == [_link("a", "c1"), _link("b", "c2")]
    (warning,) = rig.warnings
    assert warning["code"] == "held_artifact_dropped"
    assert warning["tool_call_id"] == "c3" and warning["tool"] == "emit"
    assert warning["type"] == "link"


def test_held_artifacts_belong_to_their_own_turn_and_survive_a_restart(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("emit", {"url": "a"}, "c1")), QUESTION)
    turn = rig.start()
    rig.restart()
    assert rig.runtime.held(turn) == [_link("a", "c1")]
    rig.model.push(say("Another topic."))
    other = rig.start("something else", rig.conversation_id)
    assert rig.view(other)["toolArtifacts"] == []
    assert rig.runtime.held(turn) == [_link("a", "c1")]
    rig.model.push(say("Back to it."))
    rig.runtime.answer(turn, "pdf")
    assert rig.view(turn)["toolArtifacts"] == [_link("a", "c1")]
