"""HTTP under a deadline for the whole exchange, not only for each read.

``httpx`` bounds each wait on the network (connect, write, every read) but not their
sum: a server that sends its headers or body a byte at a time, each byte in time, keeps
a request going for ever.  :func:`deadline_client` builds a client whose every network
wait is cut to what is left of the deadline set by :func:`deadline`, so a request ends
at the deadline whatever the server does (``httpx.TimeoutException``).

The client's transport is this module's own: an ``httpcore`` connection pool (plain, or
through the proxy the standard environment variables name for the URL) on a network
backend that applies the deadline.  Only public ``httpx``, ``httpcore`` and ``urllib``
interfaces are used.  :func:`read_capped` reads a response body under the same deadline
and a size cap.
"""

from __future__ import annotations

import contextlib
import time
import urllib.request
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from typing import Any

import httpcore
import httpx

__all__ = ["BodyTooLarge", "body_chunks", "deadline", "deadline_client", "read_capped"]

#: The moment (``time.monotonic()``) the exchange under way must be over, if any.
_DEADLINE: ContextVar[float | None] = ContextVar("rttool_http_deadline", default=None)

# httpcore's exceptions as httpx raises them (most specific first).
_ERRORS: tuple[tuple[type[Exception], type[httpx.HTTPError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)

_CORE_ERRORS = tuple(theirs for theirs, _ in _ERRORS)


class BodyTooLarge(Exception):
    """A response body grew past the cap; ``declared`` is its Content-Length, if given."""

    def __init__(self, declared: int | None = None) -> None:
        super().__init__("body too large")
        self.declared = declared


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[float]:
    """Every network wait of a :func:`deadline_client` inside ends ``seconds`` from now
    at the latest; yields the deadline (a ``time.monotonic()`` value)."""
    at = time.monotonic() + seconds
    token = _DEADLINE.set(at)
    try:
        yield at
    finally:
        _DEADLINE.reset(token)


def _left(timeout: float | None, late: type[Exception]) -> float | None:
    at = _DEADLINE.get()
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise late("the exchange's deadline passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    """A connection whose every wait ends by the deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        left = _left(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, left))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    """The standard blocking sockets, with the deadline applied to every wait."""

    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        left = _left(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.connect_tcp(host, port, left, local_address, socket_options))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        left = _left(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.connect_unix_socket(path, left, socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


@contextlib.contextmanager
def _as_httpx(request: httpx.Request) -> Iterator[None]:
    try:
        yield
    except _CORE_ERRORS as err:
        raise _mapped(err, request) from err


def _mapped(err: Exception, request: httpx.Request) -> httpx.HTTPError:
    kind = next((ours for theirs, ours in _ERRORS if isinstance(err, theirs)), httpx.HTTPError)
    if issubclass(kind, httpx.RequestError):
        return kind(str(err), request=request)
    return kind(str(err))


class _Body(httpx.SyncByteStream):
    def __init__(self, inner: Iterable[bytes], request: httpx.Request) -> None:
        self._inner = inner
        self._request = request

    def __iter__(self) -> Iterator[bytes]:
        with _as_httpx(self._request):
            yield from self._inner

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if close is not None:
            close()


class _DeadlineTransport(httpx.BaseTransport):
    """Connection pools on the deadline backend: one direct, one per proxy in use."""

    def __init__(self) -> None:
        self._ssl = httpx.create_ssl_context()
        self._pools: dict[str, httpcore.ConnectionPool] = {}

    def _pool(self, url: httpx.URL) -> httpcore.ConnectionPool:
        proxy = None
        if not urllib.request.proxy_bypass(url.host):
            proxies = urllib.request.getproxies()
            proxy = proxies.get(url.scheme) or proxies.get("all")
        pool = self._pools.get(proxy or "")
        if pool is None:
            backend = _Backend()
            if proxy:
                parsed = httpx.URL(proxy)
                pool = httpcore.HTTPProxy(
                    proxy_url=httpcore.URL(
                        scheme=parsed.raw_scheme,
                        host=parsed.raw_host,
                        port=parsed.port,
                        target=parsed.raw_path,
                    ),
                    proxy_auth=(parsed.username, parsed.password) if parsed.username else None,
                    ssl_context=self._ssl,
                    network_backend=backend,
                )
            else:
                pool = httpcore.ConnectionPool(ssl_context=self._ssl, network_backend=backend)
            self._pools[proxy or ""] = pool
        return pool

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, Iterable)
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _as_httpx(request):
            response = self._pool(request.url).handle_request(core)
        assert isinstance(response.stream, Iterable)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_Body(response.stream, request),
            extensions=response.extensions,
        )

    def close(self) -> None:
        for pool in self._pools.values():
            pool.close()


def deadline_client(
    *,
    timeout: httpx.Timeout,
    headers: Mapping[str, str] | None = None,
    transport: httpx.BaseTransport | None = None,
) -> httpx.Client:
    """A client whose requests end by the :func:`deadline` they are made under.

    ``transport`` replaces the network (tests); the deadline then holds only between
    the chunks :func:`read_capped` reads.
    """
    return httpx.Client(
        transport=transport if transport is not None else _DeadlineTransport(),
        headers=headers,
        timeout=timeout,
        follow_redirects=False,
        trust_env=False,  # proxies are the transport's to choose, and it honours the same
    )


def read_capped(response: httpx.Response, *, limit: int, at: float) -> bytes:
    """The body of ``response``: :class:`BodyTooLarge` past ``limit`` bytes (never held
    whole, nor decompressed past it), ``httpx.ReadTimeout`` once the deadline ``at`` has
    passed, ``httpx.DecodingError`` for a body that does not decompress or an encoding
    other than one layer of gzip or deflate."""
    declared = response.headers.get("Content-Length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(int(declared))
    data = bytearray()
    for chunk in body_chunks(response, limit - len(data) + 1):
        data += chunk
        if len(data) > limit:
            raise BodyTooLarge()
        if time.monotonic() > at:
            raise httpx.ReadTimeout("the exchange's deadline passed", request=response.request)
    return bytes(data)


#: What a reply's ``Content-Encoding`` may name: one layer, decompressed a bounded
#: piece at a time (``zlib``'s window bits: 47 reads a gzip or a zlib header alike).
_DECOMPRESSED = {"gzip": 47, "x-gzip": 47, "deflate": 47}


def body_chunks(response: httpx.Response, most: int) -> Iterator[bytes]:
    """The body of ``response`` a chunk at a time, decompressed (one layer of gzip or
    deflate) at most ``most`` bytes beyond what the chunks before gave: a reply of a few
    kilobytes that decompresses to gigabytes is never expanded whole (httpx's own
    decoding inflates each network read in one piece)."""
    import zlib

    if response.is_stream_consumed:  # a response built whole (a test's transport)
        yield response.content
        return
    encodings = [
        name.strip().lower()
        for name in response.headers.get("Content-Encoding", "").split(",")
        if name.strip() and name.strip().lower() != "identity"
    ]
    if not encodings:
        yield from response.iter_raw()
        return
    if len(encodings) > 1 or encodings[0] not in _DECOMPRESSED:
        raise httpx.DecodingError(
            f"a reply encoded as {', '.join(encodings)[:60]}: rttool reads one layer of gzip "
            "or deflate",
            request=response.request,
        )
    decoder = zlib.decompressobj(_DECOMPRESSED[encodings[0]])
    given = 0
    try:
        for raw in response.iter_raw():
            pending = raw
            while pending:
                piece = decoder.decompress(pending, max(1, most - given))
                given += len(piece)
                yield piece
                pending = decoder.unconsumed_tail
                if given > most:
                    return
        yield decoder.flush(max(1, most - given))
    except zlib.error as err:
        raise httpx.DecodingError(
            "a reply's body does not decompress", request=response.request
        ) from err
