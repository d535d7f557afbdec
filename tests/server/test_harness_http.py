"""The harness over HTTP: ``POST /rttool``, the handshake, and each session's turn API."""

from __future__ import annotations

import httpx
import pytest

from adapters import scenario as sc
from adapters.codec import to_json
from reference_impl.harness import handshake
from reference_impl.runtime import Runtime
from reference_impl.server import create_app
from tests.server._client import BASE, PLAY3_KEYS, check_turn, error_of

pytestmark = pytest.mark.anyio

LINK = {"type": "link", "payload": {"url": "https://example.com/held"}}
SCENARIO = sc.Scenario(
    id="held-over-http",
    tools=(sc.Tool("make", returns=(sc.Return(output={"ok": True, "artifacts": [LINK]}),)),),
    model=(sc.Reply(tool_calls=(sc.call("make", {}, "c1"),)), sc.Reply(question="Which?")),
    steps=(sc.StartTurn("t1"), sc.Restart(), sc.Answer("t1", "that one")),
)


async def _harness(client: httpx.AsyncClient, message: dict[str, object]) -> dict[str, object]:
    response = await client.post("/rttool", json=message)
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_the_handshake_offers_the_turn_api(client: httpx.AsyncClient) -> None:
    reply = await _harness(client, {"cmd": "hello", "protocol": "rttool-adapter/1"})
    assert reply["capabilities"]["turn_api"] is True
    expected = handshake()
    expected["capabilities"] = {**expected["capabilities"], "turn_api": True}
    assert reply == expected


async def test_a_session_is_read_on_the_real_wire_until_finish(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    started = await _harness(client, {"cmd": "start", "scenario": to_json(SCENARIO)})
    session = started["session"]
    api = started["turn_api"]
    root = f"{BASE}/rttool/sessions/{session}/api/conversations/{{conversation}}"
    assert api == {"turn": f"{root}/turns/{{turn}}", "messages": f"{root}/messages"}
    for index in range(len(SCENARIO.steps)):
        record = await _harness(client, {"cmd": "step", "session": session, "index": index})
        conversation = record["ids"]["conversations"]["main"]
        turn = record["ids"]["turns"]["t1"]
        response = await client.get(api["turn"].format(conversation=conversation, turn=turn))
        assert response.status_code == 200
        view = response.json()
        check_turn(view)
        assert view == record["wire"]["main"]["t1"]  # the harness reports the same wire
        poll = await client.get(api["messages"].format(conversation=conversation))
        assert list(poll.json()) == PLAY3_KEYS
    assert view["status"] == "completed"
    assert [a["payload"] for a in view["toolArtifacts"]] == [LINK["payload"]]
    # The server's own runtime never saw the session's conversation.
    assert runtime.store.read().execute("SELECT COUNT(*) FROM turns").fetchone()[0] == 0
    ledger = await client.get(api["turn"].format(conversation=conversation, turn=turn) + "/ledger")
    events = ledger.json()["events"]
    assert [e["event"] for e in events] == ["tool_start", "tool_done"]
    assert events[1]["input"] == events[0]["input"]  # a done carries its call's input
    finished = await _harness(client, {"cmd": "finish", "session": session})
    assert [e["event"] for e in finished["ledger"]] == ["tool_start", "tool_done"]
    assert [{k: v for k, v in e.items() if k != "turn"} for e in finished["ledger"]] == events
    gone = await client.get(api["turn"].format(conversation=conversation, turn=turn))
    error_of(gone, 404, "unknown_session")


async def test_session_routes_are_read_only(client: httpx.AsyncClient) -> None:
    started = await _harness(client, {"cmd": "start", "scenario": to_json(SCENARIO)})
    record = await _harness(client, {"cmd": "step", "session": started["session"], "index": 0})
    url = started["turn_api"]["turn"].format(
        conversation=record["ids"]["conversations"]["main"], turn=record["ids"]["turns"]["t1"]
    )
    error_of(await client.post(url + "/answer", json={"value": "x"}), 404, "not_found")
    await _harness(client, {"cmd": "bye"})
    error_of(await client.get(url), 404, "unknown_session")


async def test_the_turn_api_carries_the_token_when_one_is_set(runtime: Runtime) -> None:
    app = create_app(runtime, token="s3cret")
    headers = {"Authorization": "Bearer s3cret"}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://h:9", headers=headers) as c:
        started = (
            await c.post("/rttool", json={"cmd": "start", "scenario": to_json(SCENARIO)})
        ).json()
        assert started["turn_api"]["token"] == "s3cret"
        assert started["turn_api"]["turn"].startswith("http://h:9/rttool/sessions/")
        record = (
            await c.post("/rttool", json={"cmd": "step", "session": started["session"], "index": 0})
        ).json()
        url = started["turn_api"]["turn"].format(
            conversation=record["ids"]["conversations"]["main"], turn=record["ids"]["turns"]["t1"]
        )
        assert (await c.get(url)).status_code == 200
        error_of(await c.get(url, headers={"Authorization": ""}), 401, "unauthorized")


async def test_harness_errors(client: httpx.AsyncClient) -> None:
    error_of(await client.post("/rttool", content=b"[]"), 400, "invalid_body")
    error_of(await client.post("/rttool", content=b"{"), 400, "malformed_json")
    unknown = await _harness(client, {"cmd": "dance"})
    assert list(unknown) == ["error"] and "dance" in unknown["error"]["message"]
    missing = await _harness(client, {"cmd": "step", "session": "s404", "index": 0})
    assert list(missing) == ["error"]
    error_of(
        await client.get("/rttool/sessions/s404/api/conversations/c/messages"),
        404,
        "unknown_session",
    )


async def test_a_clients_bye_ends_only_its_own_sessions(
    client: httpx.AsyncClient, app: object
) -> None:
    """Two runs share the server: one's bye leaves the other's session running, and
    session ids tell nothing about one another."""
    from adapters.http import CLIENT_HEADER

    first, second = {CLIENT_HEADER: "run-one"}, {CLIENT_HEADER: "run-two"}
    start = {"cmd": "start", "scenario": to_json(SCENARIO)}
    mine = (await client.post("/rttool", json=start, headers=first)).json()["session"]
    theirs = (await client.post("/rttool", json=start, headers=second)).json()["session"]
    assert mine != theirs and len(theirs) > 16 and theirs not in ("s1", "s2")
    assert (await client.post("/rttool", json={"cmd": "bye"}, headers=first)).json() == {}
    step = {"cmd": "step", "session": theirs, "index": 0}
    reply = (await client.post("/rttool", json=step, headers=second)).json()
    assert "error" not in reply and reply["index"] == 0
    gone = (await client.post("/rttool", json={**step, "session": mine}, headers=first)).json()
    assert "error" in gone
