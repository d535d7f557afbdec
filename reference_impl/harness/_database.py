"""Scenario databases: one SQLite database per scenario, kept in this process's memory.

A scenario's database lives for milliseconds and is never needed again, so it is not a
file: SQLite's ``memdb`` VFS keeps it in memory, shared by every connection this process
opens on its name (the runtime opens one per thread).  A connection of the database's
own keeps it alive while the runtime is dropped and booted again, as a file outlives the
process that died on it; closing that connection frees it, and every row with it.  Each
database starts as a copy of one empty, migrated :class:`Template` (SQLite's backup API
copies its pages), so no scenario pays for the schema's DDL, and none starts from
another's rows.

Where SQLite offers no ``memdb`` VFS (SQLite before 3.36), each database is a file in a
folder of its own (see :func:`scratch`), written from the template's bytes.
"""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import tempfile
import uuid
from pathlib import Path

from adapters.files import write_file
from reference_impl.store import Store

__all__ = ["SCRATCH_ENV", "ScenarioDatabase", "Template", "scratch"]

#: names a folder for scenario database files, overriding the default choice
SCRATCH_ENV = "RTTOOL_SCRATCH_DIR"


class ScenarioDatabase:
    """One scenario's database: the runtime opens ``location`` (a SQLite URI, or a file
    path); :meth:`close` frees it."""

    def __init__(self, location: str | Path, keeper: sqlite3.Connection | None) -> None:
        self.location = location
        self._keeper = keeper

    def close(self) -> None:
        """Free the database: its memory, or its file's folder."""
        if self._keeper is not None:
            self._keeper.close()
        elif isinstance(self.location, Path):
            shutil.rmtree(self.location.parent, ignore_errors=True)


class Template:
    """An empty database at the runtime's current schema version, which every scenario
    database starts as a copy of."""

    def __init__(self) -> None:
        self._source: sqlite3.Connection | None = None
        self._bytes = b""
        if _in_memory():
            blank = _in_memory_database()
            Store(blank.location).close()
            self._source = blank._keeper
            return
        folder = Path(tempfile.mkdtemp(prefix="rttool-template-", dir=scratch()))
        try:
            Store(folder / "template.db").close()
            self._bytes = (folder / "template.db").read_bytes()
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def copy(self) -> ScenarioDatabase:
        """A new database, as the template is."""
        if self._source is not None:
            database = _in_memory_database()
            assert database._keeper is not None
            self._source.backup(database._keeper)
            return database
        folder = Path(tempfile.mkdtemp(prefix="rttool-ref-", dir=scratch()))
        return ScenarioDatabase(write_file(folder, "runtime.db", self._bytes), None)


def _in_memory_database() -> ScenarioDatabase:
    location = f"file:/rttool-{uuid.uuid4().hex}?vfs=memdb"
    return ScenarioDatabase(location, sqlite3.connect(location, uri=True, check_same_thread=False))


@functools.cache
def _in_memory() -> bool:
    """Whether this SQLite shares named in-memory databases between connections."""
    try:
        _in_memory_database().close()
    except sqlite3.Error:
        return False
    return True


def scratch() -> str | None:
    """Where scenario database files go (without the ``memdb`` VFS): the folder named by
    ``RTTOOL_SCRATCH_DIR`` when it is set (a caller that must keep every file it causes
    in one place), else memory-backed storage when the machine offers it, else the
    system's temporary folder."""
    chosen = os.environ.get(SCRATCH_ENV)
    if chosen:
        return chosen
    shm = Path("/dev/shm")  # noqa: S108 - a scratch location, not a shared secret
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
