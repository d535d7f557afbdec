"""The reference server answers every bad request with a 4xx and a JSON error, never a
500; its harness sessions are capped and expire; it ends with ``rttool serve-reference``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from adapters import scenario as sc
from adapters.codec import to_json
from reference_impl.harness import ReferenceHarness
from tests.server._client import error_of, new_conversation

pytestmark = pytest.mark.anyio

DEEP = "[" * 100_000 + "]" * 100_000


def _nested_schema(levels: int) -> dict[str, object]:
    schema: dict[str, object] = {}
    for _ in range(levels):
        schema = {"items": schema}
    return schema


@pytest.mark.parametrize(
    "query", ["limit=%C2%B2", "limit=%D9%A3", "after=%C2%B2", "before=%C2%B2", "after=%F0%9D%9F%9C"]
)
async def test_non_ascii_digits_in_the_poll_are_never_a_500(
    client: httpx.AsyncClient, query: str
) -> None:
    conversation = await new_conversation(client)
    response = await client.get(f"/api/conversations/{conversation}/messages?{query}")
    if query.startswith("limit"):
        assert error_of(response, 400, "invalid_field")["field"] == "limit"
    else:  # a cursor that is not ASCII digits is ignored, as any other non-digit cursor
        assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("turns", '{"message": "\\ud800 lone"}', "message"),
        ("turns", '{"message": "ok", "entryPoint": "\\udfff"}', "entryPoint"),
        (
            "conversations",
            '{"workflow": {"tools": [{"name": "\\ud83d"}]}}',
            "workflow.tools[0].name",
        ),
        ("conversations", '{"workflow": {"\\udc00": 1}}', "workflow"),
    ],
)
async def test_lone_surrogates_are_400_naming_the_field(
    client: httpx.AsyncClient, path: str, body: str, field: str
) -> None:
    url = "/api/conversations"
    if path == "turns":
        url = f"/api/conversations/{await new_conversation(client)}/turns"
    response = await client.post(url, content=body, headers={"Content-Type": "application/json"})
    assert error_of(response, 400, "invalid_text")["field"] == field


def _workflow(schema: object) -> str:
    return json.dumps({"workflow": {"tools": [{"name": "t", "input_schema": schema}]}})


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ('{"message": ' + DEEP + "}", "too_deep"),
        (_workflow(_nested_schema(150)), "too_deep"),
        # Within the limit, yet deeper than the schema checker itself can recurse.
        (_workflow(_nested_schema(122)), "invalid_field"),
    ],
    ids=["deep-body", "schema-past-the-limit", "schema-too-deep-to-check"],
)
async def test_bodies_nested_too_deep_are_400(
    client: httpx.AsyncClient, body: str, code: str
) -> None:
    response = await client.post(
        "/api/conversations", content=body, headers={"Content-Type": "application/json"}
    )
    error = error_of(response, 400, code)
    assert len(str(error.get("field", ""))) <= 300


async def test_the_harness_endpoint_refuses_deep_and_broken_text(
    client: httpx.AsyncClient,
) -> None:
    for body in ('{"cmd": ' + DEEP + "}", '{"cmd": "\\ud800"}'):
        response = await client.post(
            "/rttool", content=body, headers={"Content-Type": "application/json"}
        )
        assert 400 <= response.status_code < 500, response.text


async def test_a_deep_argument_string_is_not_a_500(client: httpx.AsyncClient) -> None:
    # The model's arguments hold JSON text nested far too deep for any parser, for a tool
    # whose schema declares an array there: decoding it must not fail the server.
    schema = {"type": "object", "properties": {"x": {"type": "array"}}}
    scenario = sc.Scenario(
        id="deep-argument",
        tools=(sc.Tool("t", input_schema=schema),),
        model=(sc.Reply(tool_calls=(sc.call("t", {"x": DEEP}, "c1"),)), sc.Reply(text="done")),
        steps=(sc.StartTurn("t1"),),
    )
    started = await client.post("/rttool", json={"cmd": "start", "scenario": to_json(scenario)})
    session = started.json()["session"]
    step = await client.post("/rttool", json={"cmd": "step", "session": session, "index": 0})
    assert step.status_code == 200, step.text
    await client.post("/rttool", json={"cmd": "finish", "session": session})


def _started(harness: ReferenceHarness, name: str) -> str:
    scenario = sc.Scenario(id=name, steps=(sc.StartTurn("t1"),))
    reply = harness.request({"cmd": "start", "scenario": to_json(scenario)})
    return str(reply["session"])


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_sessions_nobody_finishes_are_capped() -> None:
    harness = ReferenceHarness(max_sessions=3)
    try:
        first = [_started(harness, f"s{index}") for index in range(3)]
        before = _open_descriptors()
        later = [_started(harness, f"t{index}") for index in range(40)]
        assert _open_descriptors() <= before + 2
        assert harness.live_sessions() == tuple(later[-3:])
        reply = harness.request({"cmd": "step", "session": first[0], "index": 0})
        assert "error" in reply  # the evicted session is gone, said in the protocol
    finally:
        harness.request({"cmd": "bye"})


def test_idle_sessions_expire() -> None:
    now = [1000.0]
    harness = ReferenceHarness(idle_seconds=60.0, clock=lambda: now[0])
    try:
        old = _started(harness, "old")
        now[0] += 30
        kept = _started(harness, "kept")
        harness.request({"cmd": "step", "session": kept, "index": 0})
        now[0] += 45  # old: idle 75 s; kept: idle 45 s
        newest = _started(harness, "new")
        assert harness.live_sessions() == (kept, newest)
        assert old not in harness.live_sessions()
    finally:
        harness.request({"cmd": "bye"})


async def test_the_cap_holds_over_http(client: httpx.AsyncClient) -> None:
    from reference_impl.harness import MAX_SESSIONS

    scenario = to_json(sc.Scenario(id="never-finished", steps=(sc.StartTurn("t1"),)))
    sessions = []
    for _ in range(MAX_SESSIONS + 5):
        reply = await client.post("/rttool", json={"cmd": "start", "scenario": scenario})
        sessions.append(reply.json()["session"])
    gone = await client.get(f"/rttool/sessions/{sessions[0]}/api/conversations/c/turns/t")
    assert error_of(gone, 404, "unknown_session")
    alive = await client.get(f"/rttool/sessions/{sessions[-1]}/api/conversations/c/turns/t")
    assert error_of(alive, 404, "unknown_conversation")


def _kill_servers_on(db: Path) -> None:
    """SIGKILL any process still serving ``db`` (a server the test failed to end)."""
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and str(db) in (entry / "cmdline").read_text():
                os.kill(int(entry.name), signal.SIGKILL)
        except OSError:
            continue


@pytest.mark.slow
def test_killing_serve_reference_ends_its_server(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    command = [
        sys.executable,
        "-m",
        "conformance.cli",
        "serve-reference",
        "--port",
        "0",
        "--db",
        str(tmp_path / "rt.db"),
        "--log-level",
        "warning",
    ]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"listening on (\S+) ", log.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        url = found.group(1)
        assert httpx.post(f"{url}/api/conversations", timeout=30).status_code == 201
        process.send_signal(signal.SIGKILL)  # the command only, never its server directly
        process.wait(30)
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{url}/api/openapi.json", timeout=30)
            except httpx.ConnectError:
                break  # nothing listens: the server went with the command
            except httpx.TimeoutException:
                pass  # a busy machine: ask again
            except (httpx.RemoteProtocolError, httpx.ReadError):
                pass  # it took the request as it went down: ask again, it will be gone
            assert time.monotonic() < deadline, "the server outlived rttool serve-reference"
            time.sleep(0.1)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        _kill_servers_on(tmp_path / "rt.db")
