"""The hunt's example database: hypothesis's own classes, opened from ``--example-db``.

* ``dir:PATH`` — a directory (shared storage, or a CI cache), hypothesis's
  ``DirectoryBasedExampleDatabase``;
* ``redis://HOST:PORT/DB`` — a Redis server every runner reaches, hypothesis's
  ``RedisExampleDatabase`` (``redis`` is imported only then);
* ``github-artifact:OWNER/REPO`` — the example database a GitHub Actions workflow of
  that repository uploaded as an artifact, read-only (``ReadOnlyDatabase`` over
  ``GitHubArtifactDatabase``); what this run finds goes to the local directory, which
  the workflow uploads in turn.

Every key is scoped by the implementation and the rule corpus, so a runtime's
counterexample is replayed first by every runner and every later run of that runtime,
and never by another runtime's run.  Deletions never reach a shared database: a shard
that has set an invariant aside no longer finds its saved counterexample interesting,
and hypothesis would erase it where the other shards look for it (saved examples expire
as the store decides; Redis's after eight days unused).  A Redis that goes away falls
back to the local directory, and the hunt goes on; the standing warns of it once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from hypothesis.database import ExampleDatabase

from conformance._arguments import shown_url

__all__ = ["ScopedDatabase", "open_database"]

#: hypothesis's own sub-keys: what is under them was never a bug found, only on the way
_SUB_KEYS = (b".secondary", b".pareto")
_T = TypeVar("_T")


def open_database(url: str, scope: bytes, local: Path | None) -> ScopedDatabase:
    """The database ``url`` names, its keys under ``scope``; ``local`` is the directory
    a Redis that went away is replaced by, and where a read-only one's findings go."""
    from hypothesis.database import (
        DirectoryBasedExampleDatabase,
        GitHubArtifactDatabase,
        InMemoryExampleDatabase,
        MultiplexedDatabase,
        ReadOnlyDatabase,
    )

    fallback: ExampleDatabase = (
        InMemoryExampleDatabase() if local is None else DirectoryBasedExampleDatabase(str(local))
    )
    if url.startswith("dir:"):
        return ScopedDatabase(DirectoryBasedExampleDatabase(url[len("dir:") :]), scope, url)
    if url.startswith("github-artifact:"):
        owner, _, repo = url.removeprefix("github-artifact:").partition("/")
        shared = ReadOnlyDatabase(GitHubArtifactDatabase(owner, repo))
        return ScopedDatabase(MultiplexedDatabase(fallback, shared), scope, url)
    from hypothesis.extra.redis import RedisExampleDatabase
    from redis import Redis

    client = Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=5.0)
    return ScopedDatabase(RedisExampleDatabase(client), scope, url, fallback=fallback)


class ScopedDatabase(ExampleDatabase):
    """A database whose keys all start with ``scope``; it counts the saved examples the
    hunt fetched to replay, forwards no deletion, and, given a ``fallback``, moves to it
    for good at the first error of the store (one warning line)."""

    def __init__(
        self,
        store: ExampleDatabase,
        scope: bytes,
        url: str,
        *,
        fallback: ExampleDatabase | None = None,
    ) -> None:
        super().__init__()
        self._store, self._scope, self._url = store, scope, shown_url(url)
        self._fallback = fallback
        #: saved examples fetched to be replayed (hypothesis's own sub-keys excepted)
        self.replayed = 0
        #: the store went away, and the fallback took its place
        self.lost = False

    def __repr__(self) -> str:
        return f"ScopedDatabase({self._url})"

    def _guarded(self, action: Callable[[ExampleDatabase], _T]) -> _T:
        try:
            return action(self._store)
        except Exception as err:
            if self._fallback is None or not _is_store_error(err):
                raise
            self._give_up(err)
            return action(self._store)

    def _give_up(self, err: Exception) -> None:
        # Said once, in the standing's warnings (the hunt runs inside a test, whose
        # output is not the user's terminal): see ``lost``.
        assert self._fallback is not None
        self.lost = True
        self._store, self._fallback = self._fallback, None

    def fetch(self, key: bytes) -> Iterable[bytes]:
        found = self._guarded(lambda store: list(store.fetch(self._scope + key)))
        if not key.endswith(_SUB_KEYS):
            self.replayed += len(found)
        yield from found

    def save(self, key: bytes, value: bytes) -> None:
        self._guarded(lambda store: store.save(self._scope + key, value))

    def delete(self, key: bytes, value: bytes) -> None:
        """Not forwarded: another shard may still be looking for it."""

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        """Saved under ``dest`` and, as with :meth:`delete`, kept under ``src``."""
        self.save(dest, value)


def _is_store_error(err: Exception) -> bool:
    """A connection or timeout error of the store (Redis's, or the socket's)."""
    if isinstance(err, OSError | TimeoutError):
        return True
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:
        return False
    return isinstance(err, RedisConnectionError | RedisTimeoutError)
