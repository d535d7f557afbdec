"""The kit's request loops: JSON lines on stdio, and HTTP."""

from __future__ import annotations

import io
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from adapters import Driver, connect
from adapters.kit import MAX_REQUEST_BYTES, http_server, main, serve_stdio
from adapters.scenario import Scenario, StartTurn, Wait
from tests.adapters.conftest import stdio_spec
from tests.adapters.test_kit_harness import Harness

HERE = Path(__file__).parent
HELLO = {"cmd": "hello", "protocol": "rttool-adapter/1"}


def _replies(text: str) -> list[dict[str, object]]:
    out = io.StringIO()
    serve_stdio(Harness(), io.StringIO(text), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_one_reply_per_request_line_until_bye() -> None:
    lines = [json.dumps(HELLO), "   ", "not json", "[1, 2]", '{"cmd": "bye"}', json.dumps(HELLO)]
    replies = _replies("\n".join(lines) + "\n")
    assert len(replies) == 4  # the blank line is skipped, nothing is read after bye
    assert replies[0]["protocol"] == "rttool-adapter/1"
    assert replies[1]["error"]["code"] == "bad_json"  # type: ignore[index]
    assert replies[2]["error"]["message"] == "request is not a JSON object"  # type: ignore[index]
    assert replies[3] == {}


def test_a_harness_that_raises_still_gets_a_reply() -> None:
    class Raising:
        def request(self, message: object) -> dict[str, object]:
            raise RuntimeError("boom")

    out = io.StringIO()
    serve_stdio(Raising(), io.StringIO(json.dumps(HELLO) + "\n"), out)
    assert json.loads(out.getvalue())["error"] == {
        "message": "RuntimeError: boom",
        "code": "harness",
    }


def test_what_the_runtime_prints_stays_off_the_protocol() -> None:
    driver = Driver(connect(stdio_spec(str(HERE / "kit_noisy.py")), timeout=20), timeout=20)
    try:
        trace = driver.run(Scenario(id="kit/noisy", steps=(StartTurn(turn="t1"), Wait())))
    finally:
        driver.close()
    assert [step.op for step in trace.steps] == ["start_turn", "wait"]  # type: ignore[union-attr]


@pytest.fixture
def served() -> Iterator[str]:
    server = http_server(Harness(), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(30)


def test_the_http_loop_serves_the_protocol(served: str) -> None:
    driver = Driver(connect(served, timeout=20), timeout=20)
    try:
        trace = driver.run(Scenario(id="kit/http", steps=(StartTurn(turn="t1"),)))
    finally:
        driver.close()
    assert driver.handshake().implementation.name == "kit-test"
    assert [step.op for step in trace.steps] == ["start_turn"]  # type: ignore[union-attr]


def test_the_http_loop_answers_bad_requests(served: str) -> None:
    with httpx.Client(timeout=20) as client:
        elsewhere = client.post(served + "/elsewhere", json=HELLO)
        assert elsewhere.status_code == 404
        garbled = client.post(served + "/rttool", content=b"{not json")
        assert garbled.status_code == 200 and garbled.json()["error"]["code"] == "bad_json"


def _status_of_raw_post(base: str, length: str) -> int:
    """The status line's code for a POST declaring ``length`` (which a client won't send)."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as sock:
        sock.sendall(
            f"POST /rttool HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n{{}}".encode()
        )
        return int(sock.recv(200).split(b" ")[1])


@pytest.mark.parametrize(
    ("length", "status"), [("-5", 400), ("ten", 400), (str(MAX_REQUEST_BYTES + 1), 413)]
)
def test_the_http_loop_refuses_a_bad_length(served: str, length: str, status: int) -> None:
    assert _status_of_raw_post(served, length) == status


def test_main_refuses_a_bad_address(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(Harness, ["--http", "localhost"])
    assert caught.value.code == 2
    assert "--http takes HOST:PORT" in capsys.readouterr().err


def test_a_client_sending_half_a_body_holds_up_no_one(served: str) -> None:
    """One client declares a body and stops halfway; another is still answered."""
    host, port = served.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as stalled:
        stalled.sendall(b'POST /rttool HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"cmd"')
        driver = Driver(connect(served, timeout=20), timeout=20)
        try:
            assert driver.handshake().implementation.name == "kit-test"
        finally:
            driver.close()


def test_the_http_loop_honours_the_token_the_suite_sends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = http_server(Harness(), "127.0.0.1", 0, token="s3cret")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with httpx.Client(timeout=20) as client:
            assert client.post(base + "/rttool", json=HELLO).status_code == 401
            wrong = {"Authorization": "Bearer nope"}
            assert client.post(base + "/rttool", json=HELLO, headers=wrong).status_code == 401
        monkeypatch.setenv("RTTOOL_IMPL_TOKEN", "s3cret")
        driver = Driver(connect(base, timeout=20), timeout=20)
        try:
            assert driver.handshake().implementation.name == "kit-test"
        finally:
            driver.close()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(30)


def test_a_request_giving_a_key_twice_is_refused_naming_it() -> None:
    (reply,) = _replies('{"cmd": "hello", "cmd": "bye"}\n')
    assert reply["error"]["code"] == "bad_json"  # type: ignore[index]
    assert "given twice" in reply["error"]["message"]  # type: ignore[index]


def test_a_reply_whose_keys_collide_in_json_is_an_error_not_a_merge() -> None:
    class Colliding:
        def request(self, message: object) -> dict[object, object]:
            return {"ledger": {1: "one", "1": "another"}}

    out = io.StringIO()
    serve_stdio(Colliding(), io.StringIO('{"cmd": "finish"}\n'), out)  # type: ignore[arg-type]
    reply = json.loads(out.getvalue())
    assert "two keys of one object are both" in reply["error"]["message"]


class _GoneClient(io.BytesIO):
    """A connection whose client hung up: every write fails as a closed socket does."""

    def write(self, data: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_client_gone_before_its_reply_is_no_traceback() -> None:
    # The reply to a client that already hung up has nobody to reach: the handler ends
    # that connection quietly, and the server goes on serving the next.
    server = http_server(Harness(), "127.0.0.1", 0)
    try:
        kind = server.RequestHandlerClass
        assert isinstance(kind, type)
        handler: Any = object.__new__(kind)  # its state set by hand, not by a connection
        handler.wfile = _GoneClient()
        handler.request_version = "HTTP/1.1"
        handler.requestline = "POST / HTTP/1.1"
        handler.command = "POST"
        handler.client_address = ("127.0.0.1", 0)
        handler.close_connection = False
        handler._send(200, {"ok": True})
        assert handler.close_connection is True
    finally:
        server.server_close()
