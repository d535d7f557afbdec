"""What happens to artifacts on each kind of interruption (RT-TOOL-7 meets durable resume).

A run cut off by any cause holds what it collected, like a pause; the continuation's
write-back delivers it once.  A crash loses only what the crashed run had collected in
memory: whatever was already held survives, because the held list is in the database.
"""

from __future__ import annotations

import pytest

from reference_impl.seams import ProcessKilled
from reference_impl.workflow import ModelReply, ToolOutcome, ToolSpec
from tests.reference._support import Record, Rig, call, calls, say
from tests.reference.conftest import MakeRig

QUESTION = ModelReply(question="Which one?")


def _rig(make_rig: MakeRig) -> Rig:
    rig = make_rig(ToolSpec("emit", input_schema={}))

    def emit(args: object) -> ToolOutcome:
        assert isinstance(args, dict)
        return ToolOutcome(
            output={"ok": True, "artifacts": [{"type": "note", "payload": {"n": args["n"]}}]}
        )

    rig.world.behaviours["emit"] = emit
    return rig


def _note(n: int, call_id: str) -> Record:
    return {"type": "note", "payload": {"n": n}, "tool_call_id": call_id}


def _off_the_wire(rig: Rig, turn: str) -> None:
    assert rig.view(turn)["toolArtifacts"] == []


def _paused_holding_one(rig: Rig) -> str:
    """A turn that emitted note 1 and paused on a question: note 1 is held."""
    rig.model.push(calls(call("emit", {"n": 1}, "c1")), QUESTION)
    turn = rig.start()
    assert rig.runtime.held(turn) == [_note(1, "c1")]
    return turn


@pytest.mark.parametrize("cause", ["time_limit", "gateway_timeout", "transport_error"])
def test_a_resumable_cut_holds_and_the_continuation_delivers_once(
    make_rig: MakeRig, cause: str
) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("emit", {"n": 1}, "c1")))
    rig.seams.arm("after_tool_done", cause)
    turn = rig.start()
    assert rig.status(turn) == "resuming"
    assert rig.runtime.held(turn) == [_note(1, "c1")]
    _off_the_wire(rig, turn)
    rig.model.push(say("Done."))
    rig.runtime.settle()
    assert rig.view(turn)["toolArtifacts"] == [_note(1, "c1")]
    assert rig.runtime.held(turn) == []


@pytest.mark.parametrize("cause", ["error", "stop", "cancel", "credential", "rate_limit"])
def test_a_cut_that_stops_the_turn_holds_until_continue(make_rig: MakeRig, cause: str) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("emit", {"n": 1}, "c1")))
    rig.seams.arm("after_tool_done", cause)
    turn = rig.start()
    assert rig.status(turn) == "stopped"
    assert rig.runtime.held(turn) == [_note(1, "c1")]
    rig.restart()
    assert rig.runtime.held(turn) == [_note(1, "c1")]
    rig.model.push(calls(call("emit", {"n": 2}, "c2")), say("Done."))
    rig.runtime.continue_turn(turn)
    assert rig.view(turn)["toolArtifacts"] == [_note(1, "c1"), _note(2, "c2")]


def test_a_cut_during_write_back_puts_the_taken_list_back(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    turn = _paused_holding_one(rig)
    rig.model.push(calls(call("emit", {"n": 2}, "c2")), say("Done."))
    rig.seams.arm("during_write_back", "time_limit")
    rig.runtime.answer(turn, "both")
    assert rig.status(turn) == "resuming"
    assert rig.runtime.held(turn) == [_note(1, "c1"), _note(2, "c2")]
    _off_the_wire(rig, turn)
    rig.runtime.settle()
    assert rig.view(turn)["toolArtifacts"] == [_note(1, "c1"), _note(2, "c2")]
    assert rig.runtime.held(turn) == []


def test_a_stop_while_resuming_keeps_what_is_held(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("emit", {"n": 1}, "c1")))
    rig.seams.arm("after_tool_done", "time_limit")
    turn = rig.start()
    rig.runtime.stop(turn)
    assert rig.runtime.held(turn) == [_note(1, "c1")]
    rig.model.push(say("Done."))
    rig.runtime.continue_turn(turn)
    assert rig.view(turn)["toolArtifacts"] == [_note(1, "c1")]


@pytest.mark.parametrize("point", ["after_tool_done", "during_write_back"])
def test_a_crash_loses_only_what_the_crashed_run_collected(make_rig: MakeRig, point: str) -> None:
    rig = _rig(make_rig)
    turn = _paused_holding_one(rig)
    rig.model.push(calls(call("emit", {"n": 2}, "c2")), say("Done."))
    rig.seams.arm(point, "crash")
    with pytest.raises(ProcessKilled):
        rig.runtime.answer(turn, "both")
    rig.restart()
    assert rig.status(turn) == "stopped"
    assert rig.runtime.held(turn) == [_note(1, "c1")]  # note 2 was only in memory
    rig.model.push(say("Done after the crash."))
    rig.runtime.continue_turn(turn)
    assert rig.view(turn)["toolArtifacts"] == [_note(1, "c1")]
    # The crashed call did complete, so its re-dispatch is answered from the journal
    # (and brings no artifact with it).
    assert rig.world.of("emit") == [{"n": 1}, {"n": 2}]


def test_a_new_message_leaves_the_held_list_with_the_unfinished_turn(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("emit", {"n": 1}, "c1")))
    rig.seams.arm("after_tool_done", "error")
    old = rig.start()
    rig.model.push(say("Something else."))
    new = rig.start("another thing", rig.conversation_id)
    assert rig.view(new)["toolArtifacts"] == []
    assert rig.runtime.held(old) == [_note(1, "c1")]
