"""The shared stores behind ``--example-db``, each bounded in time.

hypothesis's Redis and GitHub databases wait as long as their store makes them: a
Redis that trickles its answer a byte at a time is read for as long as it trickles, and
a GitHub download through a proxy that never answers waits for ever.  Here every
request of a shared store is bounded twice: by a time-out on each read (``request``
seconds), and by a :class:`Deadline` the caller sets before each request (what is left
of the store's share of the hunt).  A request past either raises ``TimeoutError`` (for
Redis, redis-py's own); a GitHub download that fails raises :class:`StoreUnavailable`
instead of warning, so the caller can replace the store.
"""

from __future__ import annotations

import math
import socket
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase

__all__ = ["Deadline", "StoreUnavailable", "github_artifact", "redis_store"]

#: An artifact larger than this is not an example database.
_MAX_ARTIFACT_BYTES = 256 * 1024 * 1024


class Deadline:
    """When the store's request under way must be done (``time.monotonic()`` seconds);
    the caller moves it before each request."""

    def __init__(self) -> None:
        self.at = math.inf

    def left(self) -> float:
        """Seconds left; ``TimeoutError`` when none are."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the example database's share of the hunt is spent")
        return left


class StoreUnavailable(OSError):
    """A shared store that could not be read: unreachable, refusing, or (``timed_out``)
    not done within its time."""

    def __init__(self, reason: str, *, timed_out: bool = False) -> None:
        super().__init__(reason)
        self.timed_out = timed_out


class _BoundedSocket:
    """A connected socket whose every read ends by the deadline (and, as the socket's
    own time-out says, within its time)."""

    def __init__(self, sock: socket.socket, deadline: Deadline) -> None:
        self._sock, self._deadline = sock, deadline

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def _bounded(self, read: Any, *args: Any) -> Any:
        own = self._sock.gettimeout()
        left = self._deadline.left()
        self._sock.settimeout(left if own is None else min(own, left))
        try:
            return read(*args)
        finally:
            self._sock.settimeout(own)

    def recv(self, *args: Any) -> bytes:
        return self._bounded(self._sock.recv, *args)  # type: ignore[no-any-return]

    def recv_into(self, *args: Any) -> int:
        return self._bounded(self._sock.recv_into, *args)  # type: ignore[no-any-return]


def redis_store(url: str, request: float, deadline: Deadline) -> ExampleDatabase:
    """hypothesis's ``RedisExampleDatabase`` on ``url``, each read bounded."""
    from hypothesis.extra.redis import RedisExampleDatabase
    from redis import Redis
    from redis.backoff import NoBackoff
    from redis.connection import Connection
    from redis.retry import Retry

    class BoundedConnection(Connection):
        def _connect(self) -> Any:
            return _BoundedSocket(super()._connect(), deadline)  # type: ignore[no-untyped-call]

    # No retries: a request that failed is the store failing, and the hunt moves on.
    client = Redis.from_url(
        url,
        socket_timeout=request,
        socket_connect_timeout=request,
        retry=Retry(NoBackoff(), 0),
        connection_class=BoundedConnection,
    )
    return RedisExampleDatabase(client)


def github_artifact(owner: str, repo: str, request: float, deadline: Deadline) -> ExampleDatabase:
    """hypothesis's ``GitHubArtifactDatabase``, its downloads bounded, a failed one
    raising :class:`StoreUnavailable` instead of warning."""
    from hypothesis.database import GitHubArtifactDatabase

    class Bounded(GitHubArtifactDatabase):
        def _get_bytes(self, url: str) -> bytes | None:
            return _download(url, self.token, request, deadline)

    return Bounded(owner, repo)


def _download(url: str, token: str | None, request: float, deadline: Deadline) -> bytes:
    from urllib.request import Request, urlopen

    headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
    asked = Request(url, headers=headers)  # noqa: S310 (an https URL of GitHub's API)
    if token:
        asked.add_unredirected_header("Authorization", f"Bearer {token}")
    chunks: list[bytes] = []
    size = 0
    try:
        with urlopen(asked, timeout=min(request, deadline.left())) as response:  # noqa: S310
            while chunk := response.read1(1024 * 1024):  # what one read brought
                chunks.append(chunk)
                size += len(chunk)
                if size > _MAX_ARTIFACT_BYTES:
                    raise StoreUnavailable("the artifact is too large to be an example database")
                deadline.left()  # a download that trickles ends with the store's time
    except StoreUnavailable:
        raise
    except OSError as err:  # URLError, HTTPError and time-outs are all OSErrors
        reason = getattr(err, "reason", None)
        waited = isinstance(err, TimeoutError) or isinstance(reason, TimeoutError)
        said = f"GitHub could not be read: {type(err).__name__}"
        raise StoreUnavailable(said, timed_out=waited) from err
    return b"".join(chunks)
