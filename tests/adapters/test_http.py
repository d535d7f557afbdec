"""The HTTP transport: every failure mapped, through ``httpx.MockTransport``; one real server."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator

import httpx
import pytest

from adapters import (
    BadJson,
    ImplementationError,
    SpecError,
    SuiteError,
    TimedOut,
    Unreachable,
)
from adapters import connect as open_spec
from adapters.http import CONNECT_TIMEOUT, TOKEN_ENV, HttpConnection
from tests.adapters import toy
from tests.adapters.conftest import serve

HELLO = {"cmd": "hello", "protocol": "rttool-adapter/1"}
Handler = Callable[[httpx.Request], httpx.Response]


@pytest.fixture
def opened() -> Iterator[list[HttpConnection]]:
    connections: list[HttpConnection] = []
    yield connections
    for connection in connections:
        connection.close()


@pytest.fixture
def seen() -> list[httpx.Request]:
    return []


def mocked(
    opened: list[HttpConnection],
    handler: Handler,
    spec: str = "http://impl.test:8765",
    **options: int,
) -> HttpConnection:
    connection = HttpConnection(spec, timeout=7, transport=httpx.MockTransport(handler), **options)
    opened.append(connection)
    return connection


def echo(seen: list[httpx.Request]) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"echo": json.loads(request.content)})

    return handler


def raising(error: Exception) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        raise error

    return handler


def test_posts_json_to_rttool_when_the_url_has_no_path(
    opened: list[HttpConnection], seen: list[httpx.Request]
) -> None:
    connection = mocked(opened, echo(seen))
    assert connection.request(HELLO) == {"echo": HELLO}
    (request,) = seen
    assert request.method == "POST"
    assert str(request.url) == "http://impl.test:8765/rttool"
    assert request.headers["content-type"] == "application/json"
    assert json.loads(request.content) == HELLO
    assert "authorization" not in request.headers


@pytest.mark.parametrize(
    ("spec", "url"),
    [
        ("http://impl.test/", "http://impl.test/rttool"),
        ("https://impl.test/qa/harness", "https://impl.test/qa/harness"),
        ("http://impl.test:8080/h?tenant=a", "http://impl.test:8080/h?tenant=a"),
    ],
)
def test_a_given_path_is_kept(
    opened: list[HttpConnection], seen: list[httpx.Request], spec: str, url: str
) -> None:
    mocked(opened, echo(seen), spec).request(HELLO)
    assert str(seen[0].url) == url


def test_bearer_token_from_the_environment(
    opened: list[HttpConnection], seen: list[httpx.Request], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TOKEN_ENV, "s3cret-token")
    mocked(opened, echo(seen)).request(HELLO)
    assert seen[0].headers["authorization"] == "Bearer s3cret-token"


def test_timeouts_connect_capped_read_per_request(
    opened: list[HttpConnection], seen: list[httpx.Request]
) -> None:
    connection = mocked(opened, echo(seen))
    connection.request(HELLO)
    connection.request(HELLO, timeout=42.5)
    connection.request(HELLO, timeout=2)
    default, overridden, short = (request.extensions["timeout"] for request in seen)
    assert default["read"] == 7 and default["connect"] == CONNECT_TIMEOUT
    assert overridden["read"] == 42.5 and overridden["connect"] == CONNECT_TIMEOUT
    assert short["read"] == 2 and short["connect"] == 2


def test_server_error_names_status_and_body_start(opened: list[HttpConnection]) -> None:
    body = "Internal Server Error: " + "x" * 1000
    connection = mocked(opened, lambda request: httpx.Response(500, text=body))
    with pytest.raises(ImplementationError) as caught:
        connection.request(HELLO)
    err = caught.value
    assert type(err) is ImplementationError
    assert "HTTP 500" in str(err)
    assert err.details["status"] == 500
    assert err.details["body"] == body[:200]
    assert err.details["url"] == "http://impl.test:8765/rttool"
    assert err.details["impl"] == "http://impl.test:8765"


def test_redirects_are_not_followed(opened: list[HttpConnection]) -> None:
    connection = mocked(
        opened,
        lambda request: httpx.Response(307, headers={"Location": "http://elsewhere.test/rttool"}),
    )
    with pytest.raises(ImplementationError, match="HTTP 307"):
        connection.request(HELLO)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"<html>Bad Gateway</html>", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"x": NaN}', "not JSON"),
        (b"\xff\xfe\x00garbage", "not JSON"),
    ],
)
def test_non_json_replies_are_bad_json(
    opened: list[HttpConnection], content: bytes, said: str
) -> None:
    connection = mocked(opened, lambda request: httpx.Response(200, content=content))
    with pytest.raises(BadJson, match=said) as caught:
        connection.request(HELLO)
    assert caught.value.details["start"]


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (httpx.ReadTimeout("read timed out"), TimedOut),
        (httpx.WriteTimeout("write timed out"), TimedOut),
        (httpx.PoolTimeout("no connection free"), TimedOut),
        (httpx.ConnectError("[Errno 111] Connection refused"), Unreachable),
        (httpx.ConnectError("[Errno -2] Name or service not known"), Unreachable),
        (httpx.ConnectTimeout("connect timed out"), Unreachable),
        (
            httpx.RemoteProtocolError("Server disconnected without sending a response."),
            ImplementationError,
        ),
        (httpx.ReadError("connection reset by peer"), ImplementationError),
    ],
)
def test_transport_failures_are_mapped_with_their_cause(
    opened: list[HttpConnection], error: Exception, kind: type[ImplementationError]
) -> None:
    connection = mocked(opened, raising(error))
    with pytest.raises(ImplementationError) as caught:
        connection.request(HELLO)
    assert type(caught.value) is kind
    assert caught.value.__cause__ is error
    assert caught.value.details["url"] == "http://impl.test:8765/rttool"
    assert caught.value.details["request"] == "hello"


def test_reply_too_large_by_its_declared_length(opened: list[HttpConnection]) -> None:
    connection = mocked(
        opened,
        lambda request: httpx.Response(200, content=b"{}" + b" " * 5000),
        max_reply_bytes=1000,
    )
    with pytest.raises(ImplementationError, match="reply too large") as caught:
        connection.request(HELLO)
    assert caught.value.details["limit"] == 1000


def test_reply_too_large_while_streaming(opened: list[HttpConnection]) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"blob": "'
        while True:  # never ends: the limit must stop the reading
            yield b"x" * 4096

    connection = mocked(
        opened, lambda request: httpx.Response(200, content=chunks()), max_reply_bytes=64 * 1024
    )
    with pytest.raises(ImplementationError, match="reply too large"):
        connection.request(HELLO)


def test_close_says_bye_only_to_a_harness_it_reached(
    opened: list[HttpConnection], seen: list[httpx.Request]
) -> None:
    never = mocked(opened, echo(seen))
    never.close()
    assert seen == []
    reached = mocked(opened, echo(seen))
    reached.request(HELLO)
    reached.close()
    reached.close()
    assert [json.loads(request.content)["cmd"] for request in seen] == ["hello", "bye"]


def test_close_never_fails(opened: list[HttpConnection]) -> None:
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(json.loads(request.content)["cmd"])
        if calls[-1] == "bye":
            raise httpx.ReadTimeout("gone")
        return httpx.Response(200, json={})

    connection = mocked(opened, handler)
    connection.request(HELLO)
    connection.close()
    assert calls == ["hello", "bye"]


@pytest.mark.parametrize("spec", ["http://", "http://impl.test:notaport", "https:///rttool"])
def test_bad_urls_are_spec_errors(spec: str) -> None:
    with pytest.raises(SpecError):
        open_spec(spec)


def test_connection_refused_on_a_real_socket(opened: list[HttpConnection]) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago, and is closed now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    connection = HttpConnection(f"http://127.0.0.1:{port}", timeout=5)
    opened.append(connection)
    with pytest.raises(Unreachable) as caught:
        connection.request(HELLO)
    assert isinstance(caught.value.__cause__, httpx.ConnectError)


class _Raising:
    """A harness with a bug its web framework turns into HTTP 500."""

    def request(self, message: dict[str, object]) -> dict[str, object]:
        raise KeyError(message.get("session"))


def test_through_a_wsgi_app(opened: list[HttpConnection], toy_path: object) -> None:
    app = toy.wsgi_app({"": toy.create(str(toy_path)), "broken": _Raising()})
    transport = httpx.WSGITransport(app=app)
    connection = HttpConnection("http://toy.test", timeout=5, transport=transport)
    broken = HttpConnection(
        "http://toy.test/broken/rttool", timeout=5, transport=httpx.WSGITransport(app=app)
    )
    opened += [connection, broken]
    reply = connection.request(HELLO)
    assert reply["protocol"] == "rttool-adapter/1"
    unknown = connection.request({"cmd": "step", "session": "no-such-session", "index": 0})
    assert unknown["error"]["code"] == "unknown_session"  # type: ignore[index]
    with pytest.raises(ImplementationError, match="HTTP 500") as caught:
        broken.request({"cmd": "step", "session": "no-such-session", "index": 0})
    assert "KeyError" in caught.value.details["body"]


@pytest.mark.slow
def test_against_a_real_server(opened: list[HttpConnection], toy_path: object) -> None:
    harnesses: dict[str, object] = {"": toy.create(str(toy_path))}
    with serve(toy.starlette_app(harnesses)) as base:
        connection = open_spec(base, timeout=10)
        assert isinstance(connection, HttpConnection)
        opened.append(connection)
        reply = connection.request(HELLO)
        assert reply["implementation"] == {"name": "toy-runtime", "version": "0.1"}
        with (
            HttpConnection(base + "/nowhere", timeout=10) as nowhere,
            pytest.raises(ImplementationError, match="HTTP 404"),
        ):
            nowhere.request(HELLO)
        connection.close()


def test_a_message_that_is_not_json_is_the_suites_fault(
    opened: list[HttpConnection], seen: list[httpx.Request]
) -> None:
    connection = mocked(opened, echo(seen))
    with pytest.raises(SuiteError):
        connection.request({"cmd": "step", "value": float("nan")})
    assert seen == []
