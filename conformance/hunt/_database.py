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

__all__ = [
    "LOSSES",
    "STORE_SHARE",
    "ScopedDatabase",
    "StoreUnavailable",
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


class StoreUnavailable(OSError):
    """A shared store that could not be read: unreachable, refusing, or (``timed_out``)
    not done within its time."""

    def __init__(self, reason: str, *, timed_out: bool = False) -> None:
        super().__init__(reason)
        self.timed_out = timed_out


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

    fallback: ExampleDatabase = (
        InMemoryExampleDatabase() if local is None else DirectoryBasedExampleDatabase(str(local))
    )
    if url.startswith("dir:"):
        return ScopedDatabase(DirectoryBasedExampleDatabase(url[len("dir:") :]), scope, url)
    request = min(_REQUEST_SECONDS, seconds)
    if url.startswith("github-artifact:"):
        owner, _, repo = url.removeprefix("github-artifact:").partition("/")
        shared = ReadOnlyDatabase(_github_artifact(owner, repo, request))
        return ScopedDatabase(
            MultiplexedDatabase(fallback, shared), scope, url, fallback=fallback, seconds=seconds
        )
    return ScopedDatabase(_redis(url, request), scope, url, fallback=fallback, seconds=seconds)


def _redis(url: str, request: float) -> ExampleDatabase:
    from hypothesis.extra.redis import RedisExampleDatabase
    from redis import Redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # No retries: a request that failed is the store failing, and the hunt moves on.
    client = Redis.from_url(
        url, socket_timeout=request, socket_connect_timeout=request, retry=Retry(NoBackoff(), 0)
    )
    return RedisExampleDatabase(client)


def _github_artifact(owner: str, repo: str, request: float) -> ExampleDatabase:
    """hypothesis's ``GitHubArtifactDatabase``, its downloads bounded: each read waits at
    most ``request`` seconds (hypothesis's own waits for ever: a proxy that never answers
    hung the hunt), and a download that fails raises instead of warning."""
    from hypothesis.database import GitHubArtifactDatabase

    class Bounded(GitHubArtifactDatabase):
        def _get_bytes(self, url: str) -> bytes | None:
            return _download(url, self.token, request)

    return Bounded(owner, repo)


#: An artifact larger than this is not an example database.
_MAX_ARTIFACT_BYTES = 256 * 1024 * 1024


def _download(url: str, token: str | None, request: float) -> bytes:
    from urllib.request import Request, urlopen

    headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
    asked = Request(url, headers=headers)  # noqa: S310 (an https URL of GitHub's API)
    if token:
        asked.add_unredirected_header("Authorization", f"Bearer {token}")
    deadline = time.monotonic() + request * 4  # a whole download, not one read
    chunks: list[bytes] = []
    size = 0
    try:
        with urlopen(asked, timeout=request) as response:  # noqa: S310
            while chunk := response.read(1024 * 1024):
                chunks.append(chunk)
                size += len(chunk)
                if size > _MAX_ARTIFACT_BYTES:
                    raise StoreUnavailable("the artifact is too large to be an example database")
                if time.monotonic() > deadline:
                    raise StoreUnavailable("the download was too slow", timed_out=True)
    except StoreUnavailable:
        raise
    except OSError as err:  # URLError, HTTPError and time-outs are all OSErrors
        waited = isinstance(err, TimeoutError) or isinstance(
            getattr(err, "reason", None), TimeoutError
        )
        said = f"GitHub could not be read: {type(err).__name__}"
        raise StoreUnavailable(said, timed_out=waited) from err
    return b"".join(chunks)


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
    ) -> None:
        super().__init__()
        self._store, self._scope, self._url = store, scope, redacted(url)
        self._fallback = fallback
        self._seconds, self._clock, self._spent = seconds, clock, 0.0
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
