"""The reference runtime's storage: restarts, schema migration, and isolation."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from reference_impl._schema import MIGRATIONS, SCHEMA_VERSION
from reference_impl.errors import Refusal
from reference_impl.runtime import Runtime
from reference_impl.store import StorageError
from reference_impl.workflow import ModelReply, ToolSpec
from tests.reference._support import FakeModel, FakeWorld, Record, Rig, call, calls, say
from tests.reference.conftest import MakeRig

QUESTION = ModelReply(question="Go on?")
LINK = {"type": "link", "payload": {"u": 1}}


def _emitting(make_rig: MakeRig) -> Rig:
    rig = make_rig(ToolSpec("emit"))
    rig.world.returns("emit", {"ok": True, "artifacts": [LINK]})
    return rig


def _rows(poll: dict[str, object]) -> list[Record]:
    data = poll["data"]
    assert isinstance(data, list)
    return data


# -- restarts ---------------------------------------------------------------------------


def test_a_restart_keeps_held_artifacts_records_and_the_ledger(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    rig.model.push(calls(call("emit", {}, "c1")), QUESTION)
    turn = rig.start()
    ledger = rig.runtime.ledger(turn)
    rig.restart()
    assert rig.status(turn) == "paused"
    assert rig.runtime.held(turn) == [{**LINK, "tool_call_id": "c1"}]
    assert rig.runtime.ledger(turn) == ledger
    rig.runs()
    rig.model.push(calls(call("emit", {}, "c1")), say("Done."))
    rig.runtime.answer(turn, "yes")
    (run,) = rig.runs()
    assert run["passes"][0]["ports"]["skipped"] == ["c1"]
    assert len(rig.world.invocations) == 1


def test_a_restart_keeps_turn_results(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    rig.model.push(calls(call("emit", {}, "c1")), say("Done."))
    turn = rig.start()
    view, polled = rig.view(turn), rig.poll()
    rig.restart()
    assert rig.view(turn) == view
    assert rig.poll() == polled
    assert view["toolArtifacts"] == [{**LINK, "tool_call_id": "c1"}]


# -- schema versions --------------------------------------------------------------------


def _v1_database(path: Path) -> str:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.executescript(MIGRATIONS[0])
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
        conn.execute("INSERT INTO conversations VALUES ('conv-1', '{\"tools\": []}', 'now')")
        conn.execute(
            "INSERT INTO turns (id, conversation_id, seq, entry_point, status,"
            " created_at, updated_at) VALUES ('turn-1', 'conv-1', 1, 'chat',"
            " 'completed', 'now', 'now')"
        )
    finally:
        conn.close()
    return "conv-1"


def _open(path: Path) -> Runtime:
    return Runtime(path, model=FakeModel(), world=FakeWorld())


def test_an_older_database_is_migrated_forward(tmp_path: Path) -> None:
    assert SCHEMA_VERSION > 1
    path = tmp_path / "old.db"
    conversation = _v1_database(path)
    runtime = _open(path)
    try:
        assert runtime.store.schema_version() == SCHEMA_VERSION
        assert runtime.turns(conversation) == ["turn-1"]
        assert runtime.ledger("turn-1") == []
        tables = {
            row[0]
            for row in runtime.store.read().execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
            )
        }
        assert "ledger" in tables
    finally:
        runtime.close()
    reopened = _open(path)  # a second open is a no-op migration
    try:
        assert reopened.store.schema_version() == SCHEMA_VERSION
        assert reopened.turns(conversation) == ["turn-1"]
    finally:
        reopened.close()


def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    _open(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),)
    )
    conn.close()
    with pytest.raises(StorageError) as refused:
        _open(path)
    assert refused.value.details["version"] == SCHEMA_VERSION + 1
    assert refused.value.details["supported"] == SCHEMA_VERSION
    conn = sqlite3.connect(path)  # untouched: still the newer version
    assert conn.execute("SELECT value FROM meta").fetchone() == (str(SCHEMA_VERSION + 1),)
    conn.close()


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not an SQLite database, just some bytes" * 4)
    with pytest.raises(StorageError):
        _open(path)


def test_a_done_stored_without_its_input_reads_back_with_its_starts(make_rig: MakeRig) -> None:
    # Before tool_done carried its input, the column was left NULL on done rows; the
    # schema is unchanged, so such rows are read back with the input of their start.
    rig = _emitting(make_rig)
    rig.model.push(calls(call("emit", {"n": 1}, "c1"), call("emit", {"n": 2}, "c2")), say("Done."))
    turn = rig.start()
    recorded = rig.runtime.ledger(turn)
    with rig.runtime.store.transaction() as conn:
        conn.execute("UPDATE ledger SET input = NULL WHERE event = 'tool_done'")
    rig.restart()
    assert rig.runtime.ledger(turn) == recorded
    assert [(e.event, e.input) for e in recorded] == [
        ("tool_start", {"n": 1}),
        ("tool_done", {"n": 1}),
        ("tool_start", {"n": 2}),
        ("tool_done", {"n": 2}),
    ]
    # A done recorded with a null input (JSON null, not a missing value) is left as it is.
    with rig.runtime.store.transaction() as conn:
        conn.execute("UPDATE ledger SET input = 'null' WHERE event = 'tool_done'")
    assert [e.input for e in rig.runtime.ledger(turn) if e.event == "tool_done"] == [None, None]


# -- isolation --------------------------------------------------------------------------


def test_a_turn_is_unreadable_through_another_conversation(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    rig.model.push(calls(call("emit", {}, "c1")), QUESTION, say("Other."))
    turn = rig.start("mine")
    mine = rig.conversation_id
    other_turn = rig.start("theirs")
    other = rig.conversation_id
    assert rig.runtime.turn_view(turn, mine)["id"] == turn
    for action in (
        lambda: rig.runtime.turn_view(turn, other),
        lambda: rig.runtime.answer(turn, "x", other),
        lambda: rig.runtime.approve(turn, other),
        lambda: rig.runtime.decline(turn, "no", other),
        lambda: rig.runtime.continue_turn(turn, other),
        lambda: rig.runtime.stop(turn, other),
    ):
        with pytest.raises(Refusal) as refused:
            action()
        assert (refused.value.code, refused.value.status) == ("unknown_turn", 404)
    assert rig.status(turn) == "paused"
    assert rig.runtime.held(turn) == [{**LINK, "tool_call_id": "c1"}]
    assert rig.runtime.turns(other) == [other_turn]
    assert all(row["executionId"] == other_turn for row in _rows(rig.runtime.poll(other)))


def test_unknown_ids_are_refused(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    with pytest.raises(Refusal) as no_turn:
        rig.view("no-such-turn")
    assert no_turn.value.status == 404
    for action in (
        lambda: rig.runtime.poll("no-such-conversation"),
        lambda: rig.runtime.turns("no-such-conversation"),
        lambda: rig.runtime.start_turn("no-such-conversation", "hi"),
    ):
        with pytest.raises(Refusal) as refused:
            action()
        assert (refused.value.code, refused.value.status) == ("unknown_conversation", 404)


def test_a_conversation_never_sees_another_ones_thread(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    rig.model.push(calls(call("emit", {"secret": "alpha"}, "c1")), say("First."))
    rig.start("tell nobody about alpha")
    rig.model.push(say("Second."))
    rig.start("hello")
    assert "alpha" not in str(rig.model.inputs[-1])
    assert "tell nobody" in str(rig.model.inputs[0])


def test_ledgers_and_records_are_kept_per_turn(make_rig: MakeRig) -> None:
    rig = _emitting(make_rig)
    rig.model.push(
        calls(call("emit", {"n": 1}, "same-id")),
        say("A."),
        calls(call("emit", {"n": 2}, "same-id")),
        say("B."),
    )
    first = rig.start("a")
    second = rig.start("b")
    assert [e.input for e in rig.runtime.ledger(first) if e.event == "tool_start"] == [{"n": 1}]
    assert [e.input for e in rig.runtime.ledger(second) if e.event == "tool_start"] == [{"n": 2}]
    assert rig.world.of("emit") == [{"n": 1}, {"n": 2}]
