"""A conversation runs one turn at a time: a new message while a turn runs is refused."""

from __future__ import annotations

import pytest

from reference_impl import records
from reference_impl.errors import Refusal
from reference_impl.workflow import ToolSpec
from tests.reference._support import call, calls, say
from tests.reference.conftest import MakeRig


def test_a_message_while_the_last_turn_runs_is_refused(make_rig: MakeRig) -> None:
    rig = make_rig(ToolSpec("lookup", read_only=True))
    rig.model.push(calls(call("lookup", {}, "c1")), say("done"))
    first = rig.start()
    with rig.runtime.store.transaction() as conn:  # as if its run were still going
        records.set_turn(conn, first, status="running")
    with pytest.raises(Refusal) as refused:
        rig.runtime.start_turn(rig.conversation_id, "again")
    assert refused.value.details["code"] == "turn_running"
    assert refused.value.status == 409
    assert rig.runtime.turns(rig.conversation_id) == [first]  # nothing was started


def test_a_turn_started_meanwhile_is_seen_under_the_write_lock(
    make_rig: MakeRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The read before the write sees a finished turn; another client then starts one
    # before this one takes the write lock: the second start must be refused.
    rig = make_rig(ToolSpec("lookup", read_only=True))
    rig.model.push(say("first"))
    rig.start()
    conversation = rig.conversation_id
    real = records.list_turns
    raced: list[bool] = []

    def list_turns(conn: object, conversation_id: str) -> object:
        found = real(conn, conversation_id)  # type: ignore[arg-type]
        if not raced:
            raced.append(True)
            with rig.runtime.store.transaction() as write:
                turn = records.create_turn(write, conversation_id, "chat")
                records.set_turn(write, turn, status="running")
        return found

    monkeypatch.setattr(records, "list_turns", list_turns)
    with pytest.raises(Refusal) as refused:
        rig.runtime.start_turn(conversation, "again")
    assert refused.value.details["code"] == "conversation_changed"
    assert len(rig.runtime.turns(conversation)) == 2  # the racer's, not a third
