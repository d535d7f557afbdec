"""HTTP transport: ``http://HOST:PORT[/PATH]`` (or ``https://``).

Every request is one ``POST`` of the JSON message to the harness URL (``/rttool`` when
the spec names no path); the reply is the JSON body of a 2xx response.  A bearer token
is sent when the environment variable ``RTTOOL_IMPL_TOKEN`` is set.  Requests are not
retried: ``step`` is not idempotent, so a retry could run a step twice.

The request timeout is a deadline for the whole exchange (connecting, sending, the
headers and the body): a reply that trickles in is cut when it passes, however steadily
its bytes arrive (see ``adapters._deadline``).
"""

from __future__ import annotations

import os
import secrets

import httpx

from adapters._deadline import (
    BodyTooLarge,
    body_chunks,
    deadline,
    deadline_client,
    read_capped,
)
from adapters._messages import decode_reply, encode_request, excerpt
from adapters.errors import ImplementationError, SpecError, TimedOut, Unreachable
from adapters.protocol import Message

__all__ = [
    "CLIENT_HEADER",
    "CONNECT_TIMEOUT",
    "DEFAULT_PATH",
    "MAX_REPLY_BYTES",
    "TOKEN_ENV",
    "HttpConnection",
    "harness_url",
]

DEFAULT_PATH = "/rttool"
#: The environment variable holding a bearer token for the harness (never logged).
#: The header naming the client a request comes from: random, one per connection.
CLIENT_HEADER = "X-Rttool-Client"
TOKEN_ENV = "RTTOOL_IMPL_TOKEN"  # noqa: S105 - the name of a variable, not a secret
#: Connecting never waits longer than this, whatever the request timeout.
CONNECT_TIMEOUT = 5.0
#: A reply larger than this is refused (and never held in memory whole).
MAX_REPLY_BYTES = 64 * 1024 * 1024
#: ``bye`` at close is a courtesy; it never holds up the end of a run for long.
_BYE_TIMEOUT = 2.0
#: How much of an error body a non-2xx report quotes.
_BODY_EXCERPT = 200


def harness_url(spec: str) -> httpx.URL:
    """The URL to POST to for ``spec``; :class:`SpecError` when it is not a usable URL."""
    try:
        url = httpx.URL(spec)
    except (httpx.InvalidURL, TypeError) as err:
        raise SpecError("not a usable HTTP URL", spec=spec, reason=str(err)[:200]) from err
    if url.scheme not in ("http", "https") or not url.host:
        raise SpecError("HTTP spec needs http:// or https:// and a host", spec=spec)
    if url.path in ("", "/"):
        url = url.copy_with(path=DEFAULT_PATH)
    return url


class HttpConnection:
    """A connection to a harness behind HTTP.

    ``timeout`` is the default deadline of a request, from sending it to the last byte
    of its reply; a request's own ``timeout=`` replaces it.  Connecting waits at most
    ``min(timeout, 5s)``.  ``transport`` replaces the network (tests pass
    ``httpx.MockTransport`` or ``httpx.WSGITransport``).
    """

    def __init__(
        self,
        spec: str,
        *,
        timeout: float,
        transport: httpx.BaseTransport | None = None,
        max_reply_bytes: int = MAX_REPLY_BYTES,
    ) -> None:
        self.spec = spec
        self.url = harness_url(spec)
        self._timeout = timeout
        self._max_reply = max_reply_bytes
        self._contacted = False
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        # Which client this is, so that a server shared by several runs ends only this
        # one's sessions at its bye.
        headers[CLIENT_HEADER] = secrets.token_urlsafe(16)
        token = os.environ.get(TOKEN_ENV)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._client = deadline_client(
            transport=transport, headers=headers, timeout=self._timeouts(timeout)
        )

    def request(self, message: Message, *, timeout: float | None = None) -> Message:
        """POST ``message`` and return the reply object (raises an ImplementationError)."""
        body = encode_request(message)
        limit = self._timeout if timeout is None else timeout
        where: dict[str, object] = {
            "impl": self.spec,
            "url": str(self.url),
            "request": str(message.get("cmd")),
        }
        try:
            with (
                deadline(limit) as at,
                self._client.stream(
                    "POST", self.url, content=body, timeout=self._timeouts(limit)
                ) as response,
            ):
                self._contacted = True
                if not response.is_success:
                    raise ImplementationError(
                        f"harness answered HTTP {response.status_code}",
                        **where,
                        status=response.status_code,
                        body=self._error_excerpt(response),
                    )
                data = read_capped(response, limit=self._max_reply, at=at)
        except BodyTooLarge as err:
            raise ImplementationError(
                "reply too large",
                **where,
                limit=self._max_reply,
                **({} if err.declared is None else {"declared": err.declared}),
            ) from err
        except httpx.ConnectTimeout as err:
            # Nothing answered at all: the implementation is not reachable, it is not slow.
            raise Unreachable(
                "could not connect to the harness in time",
                **where,
                connect_timeout=min(limit, CONNECT_TIMEOUT),
            ) from err
        except httpx.TimeoutException as err:
            raise TimedOut("harness did not answer in time", **where, timeout=limit) from err
        except httpx.ConnectError as err:
            # Refused, no route, or a name that does not resolve.
            raise Unreachable(
                "could not connect to the harness", **where, reason=str(err)[:200]
            ) from err
        except httpx.HTTPError as err:
            # The connection broke mid-exchange, or the server spoke broken HTTP.
            raise ImplementationError(
                "HTTP exchange with the harness failed",
                **where,
                error=type(err).__name__,
                reason=str(err)[:200],
            ) from err
        return decode_reply(data, impl=self.spec, url=str(self.url), request=where["request"])

    def close(self) -> None:
        """Say ``bye`` (best effort, only if the harness was ever reached), then close."""
        if self._client.is_closed:
            return
        try:
            if self._contacted:
                self.request({"cmd": "bye"}, timeout=min(self._timeout, _BYE_TIMEOUT))
        except ImplementationError:  # closing must never fail a run
            pass
        finally:
            self._client.close()

    def __enter__(self) -> HttpConnection:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @staticmethod
    def _timeouts(read: float) -> httpx.Timeout:
        return httpx.Timeout(read, connect=min(read, CONNECT_TIMEOUT))

    @staticmethod
    def _error_excerpt(response: httpx.Response) -> str:
        start = bytearray()
        for chunk in body_chunks(response, _BODY_EXCERPT * 4):
            start += chunk
            if len(start) >= _BODY_EXCERPT * 4:
                break
        return excerpt(bytes(start), _BODY_EXCERPT)
