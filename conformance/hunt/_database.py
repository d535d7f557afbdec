"""The hunt's example database: hypothesis's own classes, opened from ``--example-db``.

* ``dir:PATH`` — a directory (shared storage, or a CI cache), hypothesis's
  ``DirectoryBasedExampleDatabase``;
* ``redis://HOST:PORT/DB`` — a Redis server every runner reaches, hypothesis's
  ``RedisExampleDatabase`` (``redis`` is imported only then);
* ``github-artifact:OWNER/REPO`` — the example database a GitHub Actions workflow of
  that repository uploaded as an artifact, read-only (``ReadOnlyDatabase`` over
  ``GitHubArtifactDatabase``, its downloads bounded in time); what this run finds goes
  to the local directory, which the workflow uploads in turn.

Every key is scoped by a digest of the implementation's handshake and by the rule
corpus (:func:`example_scope`), so a runtime's counterexample is replayed first by
every runner and every later run of that runtime, and never by another runtime's run,
even one that calls itself by the same name; nothing of ``--impl`` is in a key.
Deletions never reach a shared database: a shard that has set an invariant aside no
longer finds its saved counterexample interesting, and hypothesis would erase it where
the other shards look for it (saved examples expire as the store decides; Redis's after
eight days unused).

A shared store is a courtesy to the hunt, never its master.  It may spend a share of
the hunt's time budget (:data:`STORE_SHARE`, each request bounded by what is left of
it); a store that goes away, answers what is not a reply (an error, the wrong type,
bytes that are not the protocol) or spends its share is replaced for good by the local
directory at once, and the hunt goes on with what it found; the standing says why in
one warning (:data:`LOSSES`).
"""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from hypothesis.database import ExampleDatabase

from conformance._redact import redacted

if TYPE_CHECKING:
    from adapters.handshake import Handshake
    from conformance.hunt._stores import Deadline

__all__ = [
    "LOSSES",
    "STORE_SHARE",
    "ScopedDatabase",
    "example_scope",
    "open_database",
    "store_seconds",
]

#: hypothesis's own sub-keys: what is under them was never a bug found, only on the way
_SUB_KEYS = (b".secondary", b".pareto")
_T = TypeVar("_T")

#: The share of the hunt's time budget a shared store may spend, and the least it gets.
STORE_SHARE = 0.25
_LEAST_SECONDS = 1.0
#: No one request waits longer than this, whatever is left of the store's share.
_REQUEST_SECONDS = 5.0

#: Why a store was given up, by the code ``ScopedDatabase.loss`` holds (0: it was not).
LOSSES = {
    1: "went away (it could not be reached, or stopped answering)",
    2: "answered what is not a reply (an error, a reply of the wrong type, or bytes "
    "that are not its protocol)",
    3: "answered too slowly: it spent its share of the hunt's time budget",
}
_GONE, _ERRED, _SLOW = 1, 2, 3


def store_seconds(hunt_seconds: float) -> float:
    """The time a shared store may spend within a hunt of ``hunt_seconds``."""
    return max(_LEAST_SECONDS, hunt_seconds * STORE_SHARE)


def example_scope(handshake: Handshake, corpus_digest: str) -> bytes:
    """The prefix of every key of an implementation's saved examples: a digest of its
    whole handshake (its name, version, capabilities, bounds), and the corpus's."""
    from adapters.codec import to_json

    stated = json.dumps(to_json(handshake), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(stated.encode("utf-8")).hexdigest()[:32]
    return f"rttool:{digest}:{corpus_digest}:".encode()


def open_database(
    url: str, scope: bytes, local: Path | None, *, seconds: float = 5.0
) -> ScopedDatabase:
    """The database ``url`` names, its keys under ``scope``; ``local`` is the directory
    a shared store that fails is replaced by, and where a read-only one's findings go;
    ``seconds`` is the time the shared store may spend (:func:`store_seconds`)."""
    from hypothesis.database import (
        DirectoryBasedExampleDatabase,
        InMemoryExampleDatabase,
        MultiplexedDatabase,
        ReadOnlyDatabase,
    )

    from conformance.hunt._stores import Deadline, github_artifact, redis_store

    fallback: ExampleDatabase = (
        InMemoryExampleDatabase() if local is None else DirectoryBasedExampleDatabase(str(local))
    )
    deadline = Deadline()
    request = min(_REQUEST_SECONDS, seconds)
    store: ExampleDatabase
    if url.startswith("dir:"):
        store = DirectoryBasedExampleDatabase(url[len("dir:") :])
    elif url.startswith("github-artifact:"):
        owner, _, repo = url.removeprefix("github-artifact:").partition("/")
        shared = ReadOnlyDatabase(github_artifact(owner, repo, request, deadline))
        store = MultiplexedDatabase(fallback, shared)
    else:
        store = redis_store(url, request, deadline)
    return ScopedDatabase(store, scope, url, fallback=fallback, seconds=seconds, deadline=deadline)


class ScopedDatabase(ExampleDatabase):
    """A database whose keys all start with ``scope``; it counts the saved examples the
    hunt fetched to replay, forwards no deletion, and, given a ``fallback``, moves to it
    for good at the first failure of the store, or once the store has spent ``seconds``
    (``loss`` says why, one of :data:`LOSSES`)."""

    def __init__(
        self,
        store: ExampleDatabase,
        scope: bytes,
        url: str,
        *,
        fallback: ExampleDatabase | None = None,
        seconds: float = float("inf"),
        clock: Callable[[], float] = time.monotonic,
        deadline: Deadline | None = None,
    ) -> None:
        super().__init__()
        self._store, self._scope, self._url = store, scope, redacted(url)
        self._fallback = fallback
        self._seconds, self._clock, self._spent = seconds, clock, 0.0
        #: the end of the request under way, which the store's reads keep to
        self._deadline = deadline
        #: saved examples fetched to be replayed (hypothesis's own sub-keys excepted)
        self.replayed = 0
        #: why the store was replaced by the fallback (a key of :data:`LOSSES`), or 0
        self.loss = 0

    def __repr__(self) -> str:
        return f"ScopedDatabase({self._url})"

    @property
    def lost(self) -> bool:
        """The store failed, and the fallback took its place."""
        return self.loss != 0

    def _guarded(self, action: Callable[[ExampleDatabase], _T]) -> _T:
        if self._fallback is None:  # a store of its own (dir:), or one already replaced
            return action(self._store)
        started = self._clock()
        if self._deadline is not None:
            self._deadline.at = time.monotonic() + max(0.0, self._seconds - self._spent)
        try:
            with warnings.catch_warnings():
                # A store's complaints are said once, in the standing (see ``loss``).
                warnings.simplefilter("ignore")
                done = action(self._store)
        except Exception as err:  # anything the store raised is the store's failure
            self._give_up(_SLOW if _timed_out(err) else _GONE if _gone(err) else _ERRED)
            return action(self._store)
        self._spent += self._clock() - started
        if self._spent > self._seconds:
            self._give_up(_SLOW)  # what it answered stands; it is asked no more
        return done

    def _give_up(self, loss: int) -> None:
        # Said once, in the standing's warnings (the hunt runs inside a case, whose
        # output is not the user's terminal): see ``loss``.
        assert self._fallback is not None
        self.loss = loss
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


def _timed_out(err: Exception) -> bool:
    """A request that waited its whole time (the socket's, or Redis's, time-out)."""
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return isinstance(err, TimeoutError | RedisTimeoutError) or getattr(err, "timed_out", False)


def _gone(err: Exception) -> bool:
    """A store that could not be reached or hung up (not one that answered, wrongly:
    a refused password is an answer)."""
    from redis.exceptions import AuthenticationError
    from redis.exceptions import ConnectionError as RedisConnectionError

    if isinstance(err, AuthenticationError):
        return False
    return isinstance(err, OSError | RedisConnectionError)
