"""DR-6: Continue resumes the stopped turn; a new message starts afresh."""

from __future__ import annotations

import pytest

from reference_impl.durable import NUDGE
from reference_impl.errors import Refusal
from reference_impl.workflow import ToolSpec
from tests.reference._support import (
    Rig,
    call,
    calls,
    causes,
    cut_model_calls,
    results,
    say,
)
from tests.reference.conftest import MakeRig


def _rig(make_rig: MakeRig) -> Rig:
    rig = make_rig(ToolSpec("send_email"), ToolSpec("create_ticket"))
    rig.world.returns("send_email", "sent")
    return rig


def _stopped_after_work(rig: Rig, conversation: str | None = None) -> str:
    """A turn that completed one email, was cut in the middle of a ticket, and stopped."""
    rig.model.push(
        calls(
            call("send_email", {"to": "ana"}, "c1"), call("create_ticket", {"title": "jam"}, "c2")
        )
    )
    rig.seams.arm("after_tool_body", "error", "create_ticket")
    turn = rig.start("do both", conversation)
    assert rig.status(turn) == "stopped"
    rig.runs()
    return turn


def test_continue_resumes_the_same_turn_with_both_layers(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    turn = _stopped_after_work(rig)
    rig.model.push(
        calls(
            call("send_email", {"to": "ana"}, "c3"), call("create_ticket", {"title": "jam"}, "c4")
        ),
        say("Checked."),
    )
    rig.runtime.continue_turn(turn)
    (run,) = rig.runs()
    assert (run["turn"], run["cause"]) == (turn, "continue")
    assert run["resume"] == {
        "nudge": NUDGE,
        "note": {
            "completed": [{"tool": "send_email", "input": {"to": "ana"}, "result": "sent"}],
            "interrupted": [{"tool": "create_ticket", "input": {"title": "jam"}}],
        },
    }
    assert [r["disposition"] for r in results([run])] == ["reused", "refused"]
    assert len(rig.world.invocations) == 2
    assert rig.status(turn) == "completed"


def test_continue_can_be_chosen_any_number_of_times(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    cut_model_calls(rig, 4)  # first the three automatic continuations are used up
    turn = rig.start()
    rig.runtime.settle()
    for _ in range(6):
        assert rig.view(turn)["continueOffered"] is True
        cut_model_calls(rig, 1, "time_limit")
        rig.runtime.continue_turn(turn)
        assert rig.status(turn) == "stopped"  # the three are spent: no fourth on its own
        assert rig.runtime.settle() == 0
    rig.runtime.continue_turn(turn)
    assert rig.status(turn) == "completed"
    assert causes(rig, turn).count("continue") == 7


def test_continue_is_offered_only_for_the_newest_stop(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    older = _stopped_after_work(rig)
    newer = _stopped_after_work(rig, rig.conversation_id)
    assert rig.view(older)["continueOffered"] is False
    assert rig.view(newer)["continueOffered"] is True
    with pytest.raises(Refusal) as refused:
        rig.runtime.continue_turn(older)
    assert (refused.value.code, refused.value.status) == ("continue_not_offered", 409)
    rig.model.push(say("Done."))
    rig.runtime.continue_turn(newer)
    # The newer stop is gone: the older one is now the conversation's newest stop.
    assert rig.view(older)["continueOffered"] is True


def test_continue_is_not_offered_for_a_turn_that_did_not_stop(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    turn = rig.start()
    assert rig.status(turn) == "completed"
    with pytest.raises(Refusal) as refused:
        rig.runtime.continue_turn(turn)
    assert refused.value.code == "continue_not_offered"


def test_a_new_message_starts_a_new_turn_told_what_the_old_one_did(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    old = _stopped_after_work(rig)
    rig.model.push(say("Starting over."))
    new = rig.start("never mind, something else", rig.conversation_id)
    assert new != old
    (run,) = rig.runs()
    assert run["prior_turn_note"] == {
        "completed": [{"tool": "send_email", "input": {"to": "ana"}, "result": "sent"}],
        "interrupted": [{"tool": "create_ticket", "input": {"title": "jam"}}],
    }
    assert "resume" not in run
    told, asked = rig.model.inputs[-1][-2:]
    assert told == {
        "role": "system",
        "content": (
            "The previous turn stopped before it finished. What it already did:\n"
            "Already completed (reuse these results; do not run them again):\n"
            '- send_email {"to": "ana"} -> sent\n'
            "Interrupted, outcome unknown (verify the current state before assuming success or "
            "failure):\n"
            '- create_ticket {"title": "jam"}'
        ),
    }
    assert asked == {"role": "user", "content": "never mind, something else"}


def test_a_new_message_supersedes_a_waiting_continuation(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    cut_model_calls(rig, 1)
    old = rig.start()
    assert rig.status(old) == "resuming"
    rig.start("new question", rig.conversation_id)
    assert rig.status(old) == "stopped"
    assert rig.runtime.settle() == 0


def test_neither_layer_blocks_a_repeat_in_the_new_turn(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    _stopped_after_work(rig)
    rig.model.push(
        calls(
            call("send_email", {"to": "ana"}, "c1"), call("create_ticket", {"title": "jam"}, "c2")
        ),
        say("Redone."),
    )
    rig.start("do both again", rig.conversation_id)
    (run,) = rig.runs()
    assert [r["disposition"] for r in results([run])] == ["executed", "executed"]
    assert rig.world.of("send_email") == [{"to": "ana"}, {"to": "ana"}]
    assert rig.world.of("create_ticket") == [{"title": "jam"}, {"title": "jam"}]
