"""DR-5: a turn cut off by its time limit continues on its own, at most three times."""

from __future__ import annotations

import threading

import pytest

from reference_impl.durable import NUDGE
from reference_impl.errors import Refusal
from reference_impl.runtime import Runtime
from reference_impl.seams import ProcessKilled
from reference_impl.workflow import ToolSpec
from tests.reference._support import (
    Rig,
    call,
    calls,
    causes,
    cut_model_calls,
    ending,
    examples,
    say,
)
from tests.reference.conftest import MakeRig

CUT, CAPPED = examples("DR-5")
NOT_RESUMABLE = ["error", "stop", "cancel", "credential", "rate_limit"]


def _rig(make_rig: MakeRig) -> Rig:
    rig = make_rig(ToolSpec("send_email"), ToolSpec("create_ticket"))
    rig.world.returns("send_email", "sent")
    return rig


def test_example_four_time_limits_three_continuations(make_rig: MakeRig) -> None:
    assert isinstance(CUT, dict)
    rig = _rig(make_rig)
    cut_model_calls(rig, CUT["time_limits"])
    turn = rig.start()
    assert rig.runtime.settle() == 3
    assert ending(rig, turn) == CAPPED
    assert rig.status(turn) == "stopped"
    assert rig.runtime.settle() == 0


def test_never_more_than_three(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    cut_model_calls(rig, 10)
    turn = rig.start()
    rig.runtime.settle()
    assert ending(rig, turn) == {"automatic_continuations": 3, "continue_available": True}


def test_continues_in_the_same_turn_with_the_thread_and_the_note(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("after_tool_done", "time_limit")
    turn = rig.start()
    assert rig.status(turn) == "resuming"
    rig.model.push(say("All sent."))
    assert rig.runtime.settle() == 1
    assert rig.runtime.turns(rig.conversation_id) == [turn]
    assert causes(rig, turn) == ["start", "auto_continue"]
    assert rig.status(turn) == "completed"
    seen = rig.model.inputs[-1]
    assert seen[-3:] == [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"name": "send_email", "args": {"to": "ana"}, "tool_call_id": "c1"}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "sent"},
        {
            "role": "user",
            "content": NUDGE + "\n\nJournal of this turn's earlier attempts:\n"
            "Already completed (reuse these results; do not run them again):\n"
            '- send_email {"to": "ana"} -> sent',
        },
    ]


def test_a_waiting_turn_reports_resuming_and_can_be_stopped(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    cut_model_calls(rig, 1)
    turn = rig.start()
    view = rig.view(turn)
    assert (view["status"], view["continueOffered"]) == ("resuming", False)
    assert rig.poll()["sessionStatus"] == "resuming"
    rig.runtime.stop(turn)
    assert rig.runtime.settle() == 0
    view = rig.view(turn)
    assert (view["status"], view["continueOffered"]) == ("stopped", True)
    with pytest.raises(Refusal) as refused:
        rig.runtime.stop(turn)
    assert refused.value.code == "not_stoppable"


@pytest.mark.parametrize("cause", ["gateway_timeout", "transport_error"])
def test_other_resumable_causes_continue_and_share_the_count(make_rig: MakeRig, cause: str) -> None:
    rig = _rig(make_rig)
    cut_model_calls(rig, 2, cause)
    cut_model_calls(rig, 2, "time_limit")
    turn = rig.start()
    rig.runtime.settle()
    assert ending(rig, turn) == {"automatic_continuations": 3, "continue_available": True}


@pytest.mark.parametrize("cause", NOT_RESUMABLE)
def test_other_causes_end_the_turn_with_continue(make_rig: MakeRig, cause: str) -> None:
    rig = _rig(make_rig)
    cut_model_calls(rig, 1, cause)
    turn = rig.start()
    assert rig.runtime.settle() == 0
    assert rig.status(turn) == "stopped"
    assert ending(rig, turn) == {"automatic_continuations": 0, "continue_available": True}


def test_a_crash_ends_the_turn_with_continue(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    cut_model_calls(rig, 1, "crash")
    with pytest.raises(ProcessKilled):
        rig.start()
    rig.restart()
    assert rig.runtime.settle() == 0
    assert ending(rig, rig.turn) == {"automatic_continuations": 0, "continue_available": True}


def test_the_count_survives_a_restart(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    cut_model_calls(rig, 2)  # the first run, then the first automatic continuation
    rig.seams.arm("during_model_call", "crash")  # the process dies in the second one
    turn = rig.start()
    with pytest.raises(ProcessKilled):
        rig.runtime.settle()
    rig.restart()
    assert ending(rig, turn) == {"automatic_continuations": 2, "continue_available": True}
    # The new process reads the count back: one automatic continuation is left.
    cut_model_calls(rig, 3)
    rig.runtime.continue_turn(turn)
    assert rig.status(turn) == "resuming"
    assert rig.runtime.settle() == 1
    assert ending(rig, turn) == {"automatic_continuations": 3, "continue_available": True}
    assert causes(rig, turn) == [
        "start",
        "auto_continue",
        "auto_continue",
        "continue",
        "auto_continue",
    ]


def test_a_second_client_cannot_double_the_count(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    second = rig.boot()  # another client (another process) on the same file
    try:
        for _ in range(3):
            cut_model_calls(rig, 4)  # exactly what one turn uses up: 1 + 3 cuts
            turn = rig.start()
            barrier = threading.Barrier(2)
            errors: list[BaseException] = []

            def settle(
                runtime: Runtime,
                barrier: threading.Barrier = barrier,
                errors: list[BaseException] = errors,
            ) -> None:
                try:
                    barrier.wait()
                    runtime.settle()
                except BaseException as err:  # reported after the join
                    errors.append(err)

            threads = [
                threading.Thread(target=settle, args=(runtime,))
                for runtime in (rig.runtime, second)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert errors == []
            assert ending(rig, turn) == {"automatic_continuations": 3, "continue_available": True}
    finally:
        second.close()


def test_a_waiter_that_comes_late_finds_nothing_to_claim(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    cut_model_calls(rig, 1)
    turn = rig.start()
    late = rig.boot()  # another client, started while the turn was waiting
    try:
        assert rig.runtime.settle() == 1
        assert late.settle() == 0
    finally:
        late.close()
    assert causes(rig, turn) == ["start", "auto_continue"]
