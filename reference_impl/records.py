"""Rows of the reference runtime's tables, read and written inside a caller's transaction.

Every function takes the connection of the transaction it belongs to, and every query
is keyed by the turn or conversation that owns the rows.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace

from reference_impl.journal import LedgerEvent, closed_starts
from reference_impl.store import dumps, new_id, now

__all__ = [
    "MessageRow",
    "RunRow",
    "TurnRow",
    "add_held",
    "append_ledger",
    "append_thread",
    "count_held",
    "create_conversation",
    "create_run",
    "create_turn",
    "end_run",
    "executed_call",
    "get_turn",
    "insert_message",
    "ledger_events",
    "list_runs",
    "list_turns",
    "load_workflow",
    "messages_of_conversation",
    "messages_of_turn",
    "peek_held",
    "put_consent",
    "record_call",
    "set_artifacts",
    "set_turn",
    "take_consent",
    "take_held",
    "thread_entries",
]


@dataclass(frozen=True)
class TurnRow:
    """A turn as stored."""

    id: str
    conversation_id: str
    seq: int
    entry_point: str
    status: str
    pending: object
    error: str | None


@dataclass(frozen=True)
class RunRow:
    """A run as stored."""

    id: str
    turn_id: str
    seq: int
    cause: str
    status: str
    interruption: object


@dataclass(frozen=True)
class MessageRow:
    """A message as stored."""

    seq: int
    id: str
    conversation_id: str
    turn_id: str
    role: str
    content: str
    node_id: str | None
    tool_artifacts: list[object] | None
    created_at: str


def _json(text: str | None) -> object:
    return None if text is None else json.loads(text)


# -- conversations and turns ------------------------------------------------------------


def create_conversation(conn: sqlite3.Connection, workflow: dict[str, object]) -> str:
    """A new conversation running ``workflow``."""
    conversation_id = new_id()
    conn.execute(
        "INSERT INTO conversations (id, workflow, created_at) VALUES (?, ?, ?)",
        (conversation_id, dumps(workflow), now()),
    )
    return conversation_id


def load_workflow(conn: sqlite3.Connection, conversation_id: str) -> dict[str, object] | None:
    """The stored workflow of a conversation, or ``None`` when there is no such conversation."""
    row = conn.execute(
        "SELECT workflow FROM conversations WHERE id = ?", (conversation_id,)
    ).fetchone()
    return None if row is None else dict(json.loads(row["workflow"]))


def create_turn(conn: sqlite3.Connection, conversation_id: str, entry_point: str) -> str:
    """A new running turn, last in its conversation."""
    turn_id = new_id()
    seq = conn.execute(
        "SELECT COALESCE(MAX(seq), 0) + 1 FROM turns WHERE conversation_id = ?", (conversation_id,)
    ).fetchone()[0]
    stamp = now()
    conn.execute(
        "INSERT INTO turns (id, conversation_id, seq, entry_point, status, created_at,"
        " updated_at) VALUES (?, ?, ?, ?, 'running', ?, ?)",
        (turn_id, conversation_id, seq, entry_point, stamp, stamp),
    )
    return turn_id


def _turn(row: sqlite3.Row) -> TurnRow:
    return TurnRow(
        row["id"],
        row["conversation_id"],
        row["seq"],
        row["entry_point"],
        row["status"],
        _json(row["pending"]),
        row["error"],
    )


def get_turn(
    conn: sqlite3.Connection, turn_id: str, conversation_id: str | None = None
) -> TurnRow | None:
    """The turn, if it exists (and belongs to ``conversation_id`` when given)."""
    if conversation_id is None:
        row = conn.execute("SELECT * FROM turns WHERE id = ?", (turn_id,)).fetchone()
    else:
        row = conn.execute(
            "SELECT * FROM turns WHERE id = ? AND conversation_id = ?", (turn_id, conversation_id)
        ).fetchone()
    return None if row is None else _turn(row)


def list_turns(conn: sqlite3.Connection, conversation_id: str) -> list[TurnRow]:
    """The conversation's turns, oldest first."""
    rows = conn.execute(
        "SELECT * FROM turns WHERE conversation_id = ? ORDER BY seq", (conversation_id,)
    ).fetchall()
    return [_turn(row) for row in rows]


def set_turn(
    conn: sqlite3.Connection,
    turn_id: str,
    *,
    status: str,
    pending: object = None,
    error: str | None = None,
    expect: tuple[str, ...] | None = None,
) -> bool:
    """Change a turn's status; with ``expect``, only from one of those statuses (a claim)."""
    sql = "UPDATE turns SET status = ?, pending = ?, error = ?, updated_at = ? WHERE id = ?"
    params: list[object] = [
        status,
        None if pending is None else dumps(pending),
        error,
        now(),
        turn_id,
    ]
    if expect:
        sql += f" AND status IN ({','.join('?' * len(expect))})"
        params += list(expect)
    return conn.execute(sql, params).rowcount == 1


# -- runs -------------------------------------------------------------------------------


def create_run(conn: sqlite3.Connection, turn_id: str, cause: str) -> str:
    """A new running run of ``turn_id``."""
    run_id = new_id()
    seq = conn.execute(
        "SELECT COALESCE(MAX(seq), 0) + 1 FROM runs WHERE turn_id = ?", (turn_id,)
    ).fetchone()[0]
    conn.execute(
        "INSERT INTO runs (id, turn_id, seq, cause, status, started_at)"
        " VALUES (?, ?, ?, ?, 'running', ?)",
        (run_id, turn_id, seq, cause, now()),
    )
    return run_id


def end_run(
    conn: sqlite3.Connection,
    run_id: str,
    status: str,
    interruption: dict[str, object] | None = None,
) -> None:
    """Record how a run ended."""
    conn.execute(
        "UPDATE runs SET status = ?, interruption = ?, ended_at = ? WHERE id = ?",
        (status, None if interruption is None else dumps(interruption), now(), run_id),
    )


def list_runs(conn: sqlite3.Connection, turn_id: str) -> list[RunRow]:
    """The turn's runs, oldest first."""
    rows = conn.execute("SELECT * FROM runs WHERE turn_id = ? ORDER BY seq", (turn_id,))
    return [
        RunRow(r["id"], r["turn_id"], r["seq"], r["cause"], r["status"], _json(r["interruption"]))
        for r in rows
    ]


# -- messages ---------------------------------------------------------------------------


def insert_message(
    conn: sqlite3.Connection,
    *,
    conversation_id: str,
    turn_id: str,
    run_id: str | None,
    role: str,
    content: str,
    node_id: str | None,
) -> str:
    """Append a message row; returns its id."""
    message_id = new_id()
    conn.execute(
        "INSERT INTO messages (id, conversation_id, turn_id, run_id, role, content,"
        " node_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (message_id, conversation_id, turn_id, run_id, role, content, node_id, now()),
    )
    return message_id


def set_artifacts(
    conn: sqlite3.Connection, turn_id: str, message_id: str, artifacts: list[object]
) -> None:
    """Persist ``artifacts`` on one message of ``turn_id``."""
    conn.execute(
        "UPDATE messages SET tool_artifacts = ? WHERE id = ? AND turn_id = ?",
        (dumps(artifacts), message_id, turn_id),
    )


def _message(row: sqlite3.Row) -> MessageRow:
    artifacts = _json(row["tool_artifacts"])
    return MessageRow(
        row["seq"],
        row["id"],
        row["conversation_id"],
        row["turn_id"],
        row["role"],
        row["content"],
        row["node_id"],
        artifacts if isinstance(artifacts, list) else None,
        row["created_at"],
    )


def messages_of_turn(conn: sqlite3.Connection, turn_id: str) -> list[MessageRow]:
    """The turn's messages in order."""
    rows = conn.execute("SELECT * FROM messages WHERE turn_id = ? ORDER BY seq", (turn_id,))
    return [_message(row) for row in rows]


def messages_of_conversation(conn: sqlite3.Connection, conversation_id: str) -> list[MessageRow]:
    """The conversation's messages in order."""
    rows = conn.execute(
        "SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq", (conversation_id,)
    )
    return [_message(row) for row in rows]


# -- held artifacts (RT-TOOL-7) ---------------------------------------------------------


def peek_held(conn: sqlite3.Connection, turn_id: str) -> list[object]:
    """What is held against the turn, without taking it."""
    rows = conn.execute(
        "SELECT artifact FROM held_artifacts WHERE turn_id = ? ORDER BY position", (turn_id,)
    )
    # One parse of the joined rows, not one per row: a resume may take a long list.
    held = json.loads("[" + ",".join(row[0] for row in rows) + "]")
    assert isinstance(held, list)
    return held


def count_held(conn: sqlite3.Connection, turn_id: str) -> int:
    """How many artifacts are held against the turn."""
    return int(
        conn.execute(
            "SELECT COUNT(*) FROM held_artifacts WHERE turn_id = ?", (turn_id,)
        ).fetchone()[0]
    )


def take_held(conn: sqlite3.Connection, turn_id: str) -> list[object]:
    """Take (destructively) what is held against the turn."""
    held = peek_held(conn, turn_id)
    conn.execute("DELETE FROM held_artifacts WHERE turn_id = ?", (turn_id,))
    return held


def add_held(conn: sqlite3.Connection, turn_id: str, artifacts: list[object]) -> None:
    """Append ``artifacts`` after what is already held."""
    start = conn.execute(
        "SELECT COALESCE(MAX(position), 0) FROM held_artifacts WHERE turn_id = ?", (turn_id,)
    ).fetchone()[0]
    conn.executemany(
        "INSERT INTO held_artifacts (turn_id, position, artifact) VALUES (?, ?, ?)",
        [(turn_id, start + i + 1, dumps(a)) for i, a in enumerate(artifacts)],
    )


# -- executed calls (RT-TOOL-9) and consents --------------------------------------------


def executed_call(
    conn: sqlite3.Connection, turn_id: str, tool_call_id: str
) -> tuple[str, str, dict[str, object]] | None:
    """``(tool, message, result)`` of a call this turn already executed."""
    row = conn.execute(
        "SELECT tool, message, result FROM executed_calls WHERE turn_id = ? AND tool_call_id = ?",
        (turn_id, tool_call_id),
    ).fetchone()
    return None if row is None else (row["tool"], row["message"], json.loads(row["result"]))


def record_call(
    conn: sqlite3.Connection,
    turn_id: str,
    tool_call_id: str,
    tool: str,
    message: str,
    result: dict[str, object],
) -> None:
    """Record a call that has returned a result."""
    conn.execute(
        "INSERT OR IGNORE INTO executed_calls (turn_id, tool_call_id, tool, message,"
        " result) VALUES (?, ?, ?, ?, ?)",
        (turn_id, tool_call_id, tool, message, dumps(result)),
    )


def put_consent(
    conn: sqlite3.Connection, turn_id: str, call_key: str, decision: str, reason: str | None
) -> None:
    """Record the operator's decision on one gated call."""
    conn.execute(
        "INSERT OR REPLACE INTO consents (turn_id, call_key, decision, reason) VALUES (?, ?, ?, ?)",
        (turn_id, call_key, decision, reason),
    )


def take_consent(
    conn: sqlite3.Connection, turn_id: str, call_key: str
) -> tuple[str, str | None] | None:
    """Consume the decision on one gated call (each decision authorises one execution)."""
    row = conn.execute(
        "SELECT decision, reason FROM consents WHERE turn_id = ? AND call_key = ?",
        (turn_id, call_key),
    ).fetchone()
    if row is None:
        return None
    conn.execute("DELETE FROM consents WHERE turn_id = ? AND call_key = ?", (turn_id, call_key))
    return row["decision"], row["reason"]


# -- the model-facing thread and the run-event ledger -----------------------------------


def append_thread(
    conn: sqlite3.Connection, conversation_id: str, turn_id: str, entry: dict[str, object]
) -> None:
    """Append one entry to the conversation's model-facing thread."""
    conn.execute(
        "INSERT INTO thread (conversation_id, turn_id, entry) VALUES (?, ?, ?)",
        (conversation_id, turn_id, dumps(entry)),
    )


def thread_entries(
    conn: sqlite3.Connection, conversation_id: str
) -> list[tuple[str, dict[str, object]]]:
    """``(turn_id, entry)`` of the conversation's thread, in order."""
    rows = conn.execute(
        "SELECT turn_id, entry FROM thread WHERE conversation_id = ? ORDER BY seq",
        (conversation_id,),
    )
    return [(row["turn_id"], dict(json.loads(row["entry"]))) for row in rows]


def append_ledger(
    conn: sqlite3.Connection,
    turn_id: str,
    run_id: str,
    event: str,
    tool: str | None = None,
    tool_input: object = None,
    result: object = None,
) -> None:
    """Append one run-event to the turn's ledger: a ``tool_start`` with its call's input, a
    ``tool_done`` with its call's input and result (DR-1 ¶1)."""
    conn.execute(
        "INSERT INTO ledger (turn_id, run_id, event, tool, input, result, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            turn_id,
            run_id,
            event,
            tool,
            dumps(tool_input) if event in ("tool_start", "tool_done") else None,
            None if event != "tool_done" else dumps(result),
            now(),
        ),
    )


def ledger_events(conn: sqlite3.Connection, turn_id: str) -> list[LedgerEvent]:
    """The turn's ledger, in recording order."""
    rows = conn.execute(
        "SELECT seq, run_id, event, tool, input, result FROM ledger WHERE turn_id = ? ORDER BY seq",
        (turn_id,),
    ).fetchall()
    events = [
        LedgerEvent(
            row["event"],
            row["tool"],
            _json(row["input"]),
            _json(row["result"]),
            row["seq"],
            row["run_id"],
        )
        for row in rows
    ]
    # Every tool_done is now stored with its input (JSON text, "null" for a null input);
    # one whose input column is SQL NULL was recorded before tool_done carried it, and
    # gets the input of the start it closes, which the ledger has always held.  The
    # schema is unchanged (the column existed), so no migration rewrites old rows.
    legacy = [
        i for i, row in enumerate(rows) if row["event"] == "tool_done" and row["input"] is None
    ]
    if legacy:
        closed = closed_starts(events)
        for position in legacy:
            if position in closed:
                events[position] = replace(events[position], input=events[closed[position]].input)
    return events
