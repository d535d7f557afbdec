"""SQLite storage for the reference runtime.

WAL mode, one transaction per state change (``BEGIN IMMEDIATE``, so concurrent writers
queue instead of failing), a schema version with forward migrations, and every query
keyed by the turn or conversation it belongs to, so that one turn's data can never be
read through another's id.  Connections are per thread; the store itself holds no
state beyond the path.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from adapters.errors import RttoolError
from reference_impl._schema import MIGRATIONS, SCHEMA_VERSION

__all__ = ["StorageError", "Store", "dumps", "new_id", "now"]


class StorageError(RttoolError):
    """The database cannot be used (newer schema, corrupt file)."""


def now() -> str:
    """The current time as an ISO 8601 UTC string."""
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def new_id() -> str:
    """A fresh unguessable identifier."""
    return uuid.uuid4().hex


def dumps(value: object) -> str:
    """Compact JSON for storage."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class Store:
    """Transactions over one SQLite database: a file, or, named by a ``file:`` URI given
    as a string, whatever SQLite opens by that URI (such as an in-memory database the
    connections of one process share)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._uri = isinstance(path, str) and path.startswith("file:")
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        try:
            self._migrate()
        except sqlite3.DatabaseError as err:
            # A file that is not a database, or a damaged one, is refused like a newer
            # schema: as a StorageError, with nothing left open behind the refusal.
            self.close()
            raise StorageError("database cannot be opened", path=self.path, error=str(err)) from err
        except BaseException:
            self.close()
            raise

    # -- connections and transactions -------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self.path,
                timeout=30.0,
                isolation_level=None,
                check_same_thread=False,
                uri=self._uri,
            )
            # Registered before the first statement, so that close() reaches it even when
            # the file turns out not to be a database.
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=30000")
            # A write-back of a large held list touches more pages than the default 2 MiB
            # cache holds; 32 MiB keeps delivery linear well past 100k held artifacts.
            conn.execute("PRAGMA cache_size=-32768")
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic state change: committed on success, rolled back on any exception
        (including a simulated process death, which is a ``BaseException``)."""
        conn = self._connection()
        if conn.in_transaction:  # nested use joins the outer transaction
            yield conn
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def read(self) -> sqlite3.Connection:
        """A connection for reads outside a transaction (each statement sees committed data)."""
        return self._connection()

    def close(self) -> None:
        """Close every connection this store opened."""
        with self._all_lock:
            for conn in self._all:
                with contextlib.suppress(sqlite3.Error):  # closing is best effort
                    conn.close()
            self._all.clear()
        self._local = threading.local()

    def _migrate(self) -> None:
        conn = self._connection()
        try:
            if self._version(conn) == SCHEMA_VERSION:
                return  # a restart on a migrated database writes nothing
        except sqlite3.OperationalError:  # no version table yet: a new database
            pass
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            version = self._version(conn)
            for script in MIGRATIONS[version:]:
                for statement in filter(str.strip, script.split(";")):
                    conn.execute(statement)
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _version(self, conn: sqlite3.Connection) -> int:
        """The database's schema version (0 before the first migration); a version newer
        than this runtime's is refused."""
        row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = int(row["value"]) if row else 0
        if version > SCHEMA_VERSION:
            raise StorageError(
                "database was written by a newer reference runtime",
                path=self.path,
                version=version,
                supported=SCHEMA_VERSION,
            )
        return version

    def schema_version(self) -> int:
        """The database's schema version."""
        row = self.read().execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return int(row["value"])
