"""The SQLite schema of the reference runtime, as forward migrations.

``MIGRATIONS[n]`` brings a database from version ``n`` to ``n + 1``.  A database is
never migrated backwards; one newer than this code is refused.
"""

from __future__ import annotations

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]

_V1 = """
CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    workflow TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE turns (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    seq INTEGER NOT NULL,
    entry_point TEXT NOT NULL,
    status TEXT NOT NULL,
    pending TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (conversation_id, seq)
);
CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    turn_id TEXT NOT NULL REFERENCES turns(id),
    seq INTEGER NOT NULL,
    cause TEXT NOT NULL,
    status TEXT NOT NULL,
    interruption TEXT,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    UNIQUE (turn_id, seq)
);
CREATE TABLE messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    turn_id TEXT NOT NULL REFERENCES turns(id),
    run_id TEXT,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    node_id TEXT,
    tool_artifacts TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX messages_by_turn ON messages (turn_id, seq);
CREATE INDEX messages_by_conversation ON messages (conversation_id, seq);
CREATE TABLE held_artifacts (
    turn_id TEXT NOT NULL REFERENCES turns(id),
    position INTEGER NOT NULL,
    artifact TEXT NOT NULL,
    PRIMARY KEY (turn_id, position)
);
CREATE TABLE executed_calls (
    turn_id TEXT NOT NULL REFERENCES turns(id),
    tool_call_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    message TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (turn_id, tool_call_id)
);
CREATE TABLE thread (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    turn_id TEXT NOT NULL REFERENCES turns(id),
    entry TEXT NOT NULL
);
CREATE INDEX thread_by_conversation ON thread (conversation_id, seq);
CREATE TABLE consents (
    turn_id TEXT NOT NULL REFERENCES turns(id),
    call_key TEXT NOT NULL,
    decision TEXT NOT NULL,
    reason TEXT,
    PRIMARY KEY (turn_id, call_key)
);
"""

_V2 = """
CREATE TABLE ledger (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id TEXT NOT NULL REFERENCES turns(id),
    run_id TEXT NOT NULL,
    event TEXT NOT NULL,
    tool TEXT,
    input TEXT,
    result TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX ledger_by_turn ON ledger (turn_id, seq);
"""

MIGRATIONS: tuple[str, ...] = (_V1, _V2)
SCHEMA_VERSION = len(MIGRATIONS)
