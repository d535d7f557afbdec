"""DR-4: an interrupted write is not blindly retried."""

from __future__ import annotations

import pytest

from reference_impl.durable import INTERRUPTED_PLACEHOLDER
from reference_impl.passes import REFUSED_MESSAGE
from reference_impl.seams import ProcessKilled
from reference_impl.workflow import ToolSpec
from tests.reference._support import (
    Rig,
    call,
    calls,
    interrupted_after,
    results,
    resumed_runs,
    say,
)
from tests.reference.conftest import MakeRig


def _rig(make_rig: MakeRig) -> Rig:
    rig = make_rig(ToolSpec("send_email"), ToolSpec("lookup_order", read_only=True))
    rig.world.returns("send_email", "sent")
    return rig


def test_a_crash_after_the_side_effect_is_not_answered_from_the_journal(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("after_tool_body", "crash", "send_email")
    with pytest.raises(ProcessKilled):
        rig.start()
    rig.restart()
    assert rig.status(rig.turn) == "stopped"
    rig.runs()
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c2")), say("Checked."))
    rig.runtime.continue_turn(rig.turn)
    (resumed,) = resumed_runs(rig)
    assert resumed["resume"]["note"] == {
        "completed": [],
        "interrupted": [{"tool": "send_email", "input": {"to": "ana"}}],
    }
    (retry,) = results([resumed])
    assert retry["disposition"] == "refused"  # not "reused": it never completed
    assert rig.world.of("send_email") == [{"to": "ana"}]


@pytest.mark.parametrize("point", ["before_tool_body", "after_tool_body"])
def test_an_identical_retry_is_refused_when_the_history_shows_it(
    make_rig: MakeRig, point: str
) -> None:
    rig = _rig(make_rig)
    interrupted_after(rig, calls(call("send_email", {"to": "ana"}, "c1")), point=point)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c2")), say("Will verify."))
    rig.runtime.settle()
    (resumed,) = resumed_runs(rig)
    history = resumed["model_inputs"][0]["messages"]
    assert {"role": "tool", "tool_call_id": "c1", "content": INTERRUPTED_PLACEHOLDER} in history
    (retry,) = results([resumed])
    assert retry["disposition"] == "refused"
    assert retry["result"] == {"success": False, "data": None, "error": REFUSED_MESSAGE}
    assert len(rig.world.of("send_email")) == (1 if point == "after_tool_body" else 0)


def test_a_retry_is_not_refused_when_the_history_cannot_show_it(make_rig: MakeRig) -> None:
    # Without a call id nothing in the history answers the call, so nothing shows it.
    rig = _rig(make_rig)
    interrupted_after(rig, calls(call("send_email", {"to": "ana"})), point="after_tool_body")
    rig.model.push(calls(call("send_email", {"to": "ana"})), say("Sent."))
    rig.runtime.settle()
    (resumed,) = resumed_runs(rig)
    assert resumed["resume"]["note"]["interrupted"] == [
        {"tool": "send_email", "input": {"to": "ana"}}
    ]
    assert [r["disposition"] for r in results([resumed])] == ["executed"]
    assert rig.world.of("send_email") == [{"to": "ana"}, {"to": "ana"}]


def test_a_different_retry_of_an_interrupted_write_runs(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    interrupted_after(rig, calls(call("send_email", {"to": "ana"}, "c1")), point="after_tool_body")
    rig.model.push(calls(call("send_email", {"to": "ana", "body": "reworded"}, "c2")), say("Sent."))
    rig.runtime.settle()
    assert rig.world.of("send_email") == [{"to": "ana"}, {"to": "ana", "body": "reworded"}]


def test_an_interruption_stays_shown_across_a_later_model_call_cut(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    interrupted_after(rig, calls(call("send_email", {"to": "ana"}, "c1")), point="after_tool_body")
    rig.seams.arm("during_model_call", "gateway_timeout")  # the next chunk is cut at once
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c2")), say("Will verify."))
    rig.runtime.settle()
    first, second = resumed_runs(rig)
    assert first["end"] == "interrupted" and second["end"] == "completed"
    assert second["resume"]["note"]["interrupted"] == [
        {"tool": "send_email", "input": {"to": "ana"}}
    ]
    assert [r["disposition"] for r in results([second])] == ["refused"]
    assert rig.world.of("send_email") == [{"to": "ana"}]


def test_a_refused_retry_under_the_same_id_keeps_the_interruption_shown(
    make_rig: MakeRig,
) -> None:
    # The model retries under the interrupted call's own id and is refused; the refusal
    # now answers c1 in the history and still names the interruption, so a later
    # identical retry under a new id is refused too, and ana gets one email.
    rig = _rig(make_rig)
    interrupted_after(rig, calls(call("send_email", {"to": "ana"}, "c1")), point="after_tool_body")
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("during_model_call", "gateway_timeout", occurrence=2)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c9")), say("Will verify."))
    rig.runtime.settle()
    runs = resumed_runs(rig)
    dispositions = [r["disposition"] for r in results(runs)]
    assert dispositions == ["refused", "refused"]
    assert rig.world.of("send_email") == [{"to": "ana"}]


def test_a_failed_ledger_read_leaves_the_refusal_to_the_history(make_rig: MakeRig) -> None:
    # The journal could not be read, so it knows nothing; the history still answers the
    # interrupted call with the placeholder, and DR-4 ¶2 refuses from the history.
    rig = _rig(make_rig)
    interrupted_after(rig, calls(call("send_email", {"to": "ana"}, "c1")), point="after_tool_body")
    rig.seams.fail_ledger_reads(1)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c2")), say("Will verify."))
    rig.runtime.settle()
    (resumed,) = resumed_runs(rig)
    assert "note" not in resumed["resume"]  # the read failed: no note (DR-2 ¶5)
    (retry,) = results([resumed])
    assert retry["disposition"] == "refused"
    assert rig.world.of("send_email") == [{"to": "ana"}]
