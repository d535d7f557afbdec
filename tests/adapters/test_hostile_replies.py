"""Replies built to break the suite, over every transport: nested past the limit, keys
given twice, records that do not echo their step, whatever an in-process harness can
raise, and network replies that trickle in.  Each is the implementation's fault, said in
one line; none is a traceback, a hang or a fault of the suite."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

import httpx
import pytest

from adapters import (
    Driver,
    ImplementationError,
    SchemaViolation,
    TimedOut,
)
from adapters._turn_api import TurnApiReader
from adapters.http import HttpConnection
from adapters.inprocess import InProcessConnection, load_harness
from adapters.stdio import StdioConnection
from tests.adapters.conftest import MISBEHAVING, stdio_spec
from tests.adapters.trickle import endless_body, endless_headers, run_bounded, trickling

HELLO = {"cmd": "hello", "protocol": "rttool-adapter/1"}
DEEP = "[" * 100_000 + "]" * 100_000
DUPLICATE = '{"n": 1, "echo": {"cmd": "a", "cmd": "b"}}'


def _nested(depth: int) -> object:
    value: object = 0
    for _ in range(depth):
        value = [value]
    return value


class Replying:
    """An in-process harness answering every request with ``reply``."""

    def __init__(self, reply: object) -> None:
        self.reply = reply

    def request(self, message: Mapping[str, object]) -> object:
        return self.reply


class Raising:
    """An in-process harness raising ``error`` on every request."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def request(self, message: Mapping[str, object]) -> object:
        raise self.error


class Unwound(BaseException):
    """What a harness on another framework might raise to unwind."""


class BrokenMapping(dict[str, object]):
    """A reply whose own code fails while it is read."""

    def items(self) -> Iterator[tuple[str, object]]:  # type: ignore[override]
        raise RuntimeError("items() exploded")


@pytest.fixture
def closing() -> Iterator[list[object]]:
    opened: list[object] = []
    yield opened
    for connection in opened:
        connection.close()  # type: ignore[attr-defined]


def _stdio(closing: list[object], mode: str) -> StdioConnection:
    command = stdio_spec(str(MISBEHAVING), mode).removeprefix("stdio:")
    connection = StdioConnection(f"stdio:misbehaving {mode}", command, timeout=30)
    closing.append(connection)
    return connection


def _http(closing: list[object], body: str) -> HttpConnection:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body.encode(), headers={"Content-Type": "x/json"})

    connection = HttpConnection(
        "http://impl.test", timeout=30, transport=httpx.MockTransport(handler)
    )
    closing.append(connection)
    return connection


@pytest.mark.parametrize("transport", ["inprocess", "stdio", "http"])
@pytest.mark.parametrize("kind", ["deep", "duplicate"])
def test_deep_and_duplicate_replies_break_the_protocol(
    closing: list[object], transport: str, kind: str
) -> None:
    key = "1" if transport == "inprocess" else "cmd"
    pointer, complaint = {
        "deep": ("/n/0/0/0", "nested deeper than the limit of 128"),
        "duplicate": (f"/echo/{key}", f"key '{key}' given twice in one object"),
    }[kind]
    if transport == "stdio":
        connection: object = _stdio(closing, kind)
    elif transport == "http":
        connection = _http(closing, '{"n": ' + DEEP + "}" if kind == "deep" else DUPLICATE)
    elif kind == "deep":
        connection = InProcessConnection("python:x", Replying({"n": _nested(100_000)}))
    else:  # a Python dict cannot repeat a key; its JSON can, once keys are made strings
        connection = InProcessConnection("python:x", Replying({"n": 1, "echo": {1: "a", "1": "b"}}))
    with pytest.raises(SchemaViolation) as caught:
        connection.request(HELLO)  # type: ignore[attr-defined]
    assert caught.value.pointer.startswith(pointer) and caught.value.kind == "schema"
    assert complaint in str(caught.value)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 600


class _Key(str):
    """A key that is text to the encoder, but not a plain ``str``."""

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return other is self


@pytest.mark.parametrize(
    ("echo", "key"),
    [
        ({None: "a", "null": "b"}, "null"),
        ({True: "a", "true": "b"}, "true"),
        ({1.5: "a", "1.5": "b"}, "1.5"),
        ({_Key("k"): "a", _Key("k"): "b"}, "k"),
    ],
    ids=["none", "true", "float", "text-subclass"],
)
def test_keys_repeated_only_once_written_break_the_protocol(
    echo: dict[object, str], key: str
) -> None:
    """However a Python harness's keys come to be written alike, their JSON repeats a key
    and the in-process transport refuses it, as the other transports do."""
    connection = InProcessConnection("python:x", Replying({"n": 1, "echo": echo}))
    with pytest.raises(SchemaViolation) as caught:
        connection.request(HELLO)
    assert caught.value.pointer == f"/echo/{key}"


@pytest.mark.parametrize(
    "raised",
    [SystemExit(0), SystemExit("bye"), Unwound("framework"), RecursionError("deep"), ValueError()],
    ids=repr,
)
def test_whatever_an_in_process_harness_raises_is_its_fault(raised: BaseException) -> None:
    connection = InProcessConnection("python:x", Raising(raised))
    with pytest.raises(ImplementationError) as caught:
        connection.request(HELLO)
    assert type(raised).__name__ in str(caught.value)
    connection.close()  # says bye; what it raises then is ignored too


def test_a_real_ctrl_c_still_stops_the_run() -> None:
    with pytest.raises(KeyboardInterrupt):
        InProcessConnection("python:x", Raising(KeyboardInterrupt())).request(HELLO)


@pytest.mark.parametrize(
    "reply",
    [BrokenMapping(a=1), {"s": {1, 2}}, {"x": float("nan")}, [1, 2]],
    ids=["raises-while-read", "a-set", "nan", "a-list"],
)
def test_a_reply_that_cannot_be_converted_is_bad_json(reply: object) -> None:
    with pytest.raises(ImplementationError) as caught:
        InProcessConnection("python:x", Replying(reply)).request(HELLO)
    assert caught.value.kind == "bad-json"


def test_a_factory_or_module_that_exits_cannot_end_the_suite(tmp_path: object) -> None:
    with pytest.raises(ImplementationError, match="SystemExit: 0"):
        load_harness("tests.conformance.hostile:create?mode=exit-in-factory")


class EchoBreaker:
    """The reference harness, with every step record's ``key`` set to ``value``."""

    def __init__(self, key: str, value: object) -> None:
        from reference_impl.harness import create

        self._inner = create()
        self._key, self._value = key, value

    def request(self, message: Mapping[str, object]) -> Mapping[str, object]:
        reply = dict(self._inner.request(message))
        if message.get("cmd") == "step":
            reply[self._key] = self._value
        return reply


@pytest.mark.parametrize(("key", "value"), [("index", 7), ("index", 1), ("op", "restart")], ids=str)
def test_a_step_record_must_echo_its_step(key: str, value: object) -> None:
    from adapters.scenario import StartTurn
    from conformance.toolkit import say, scenario

    driver = Driver(InProcessConnection("python:x", EchoBreaker(key, value)))
    try:
        with pytest.raises(SchemaViolation) as caught:
            driver.run(scenario("echo", steps=[StartTurn("t1")], model=[say("hi")]))
    finally:
        driver.close()
    assert caught.value.pointer == f"/{key}" and caught.value.kind == "schema"
    assert "does not echo" in str(caught.value)


@pytest.mark.parametrize("response", [endless_headers(), endless_body()], ids=["headers", "body"])
def test_a_harness_reply_that_trickles_in_is_cut_at_the_timeout(response: bytes) -> None:
    with trickling(response) as url:
        connection = HttpConnection(url, timeout=1.0)
        try:
            raised = run_bounded(lambda: connection.request(HELLO))
        finally:
            connection.close()
    assert isinstance(raised, TimedOut), raised


def _reader(template: str, timeout: float = 30.0) -> TurnApiReader:
    return TurnApiReader(timeout=timeout, spec="http://impl.test").session(
        {"turn": template, "messages": template}
    )


def _read(reader: TurnApiReader) -> object:
    record = {
        "index": 0,
        "ids": {"conversations": {"main": "c 1"}, "turns": {"t1": "t/1"}},
        "wire": {"main": {"t1": {}}},
    }
    try:
        return reader.replace_wire(record)
    finally:
        reader.close()


@pytest.mark.parametrize("response", [endless_headers(), endless_body()], ids=["headers", "body"])
def test_a_turn_read_that_trickles_in_is_cut_at_the_timeout(response: bytes) -> None:
    with trickling(response) as url:
        reader = _reader(url + "/c/{conversation}/t/{turn}", timeout=1.0)
        raised = run_bounded(lambda: _read(reader))
    assert isinstance(raised, TimedOut), raised


@pytest.mark.parametrize(
    "template",
    [
        "http://h/{conversation.__class__}/{turn}",
        "http://h/{0}",
        "http://h/{conversation!r}/{turn:>{turn}}",
        "http://h/{",
        "http://h/}{turn}",
        "http://h/{nope}",
        "http://[::1/{turn}",
        "ftp://h/{turn}",
        "/relative/{turn}",
    ],
)
def test_a_malformed_turn_api_template_is_the_implementations_fault(template: str) -> None:
    with pytest.raises(ImplementationError) as caught:
        _read(_reader(template))
    assert "\n" not in str(caught.value)


def test_a_template_fills_only_its_own_placeholders() -> None:
    from adapters._turn_api import fill_template

    filled = fill_template("http://h/{{x}}/{conversation}/{turn}", conversation="c%201", turn="t")
    assert filled == "http://h/{x}/c%201/t"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('{"status": ' + DEEP + "}", "nested deeper than the limit"),
        ('{"status": "a", "status": "b"}', "given twice"),
        ('{"status": "' + "x" * 70_000_000 + '"}', "too large"),
    ],
    ids=["deep", "duplicate", "too-large"],
)
def test_turn_api_bodies_are_held_to_what_replies_are(body: str, said: str) -> None:
    from adapters import _turn_api

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body.encode())

    reader = _reader("http://impl.test/{conversation}/{turn}")
    reader._client = _turn_api.deadline_client(  # the network replaced, as tests do
        timeout=httpx.Timeout(30.0), transport=httpx.MockTransport(handler)
    )
    with pytest.raises(ImplementationError, match=said):
        _read(reader)


def test_the_request_that_failed_is_named() -> None:
    connection = InProcessConnection("python:x", Replying({"n": _nested(500)}))
    with pytest.raises(SchemaViolation) as caught:
        connection.request({"cmd": "start"})
    assert json.dumps(caught.value.details["request"]) == '"start"'
