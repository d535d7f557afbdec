"""Every refusal of the turn API: its status, its stable code, the field it names, and
that a refused action changes nothing."""

from __future__ import annotations

import httpx
import pytest

from reference_impl.runtime import Runtime
from reference_impl.server import _bodies
from tests.server._client import act, error_of, new_conversation, read, start, turn_url

pytestmark = pytest.mark.anyio


async def _snapshot(client: httpx.AsyncClient, conversation: str, turn: object) -> object:
    poll = await client.get(f"/api/conversations/{conversation}/messages")
    ledger = await client.get(turn_url(conversation, turn, "ledger"))
    return (await read(client, conversation, turn), poll.json(), ledger.json())


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({}, "message", "missing_field"),
        ({"message": 3}, "message", "invalid_field"),
        ({"message": "hi", "entryPoint": "email"}, "entryPoint", "invalid_field"),
        ({"message": "hi", "entryPoint": None}, "entryPoint", "invalid_field"),
        ({"message": "hi", "entry_point": "chat"}, "entry_point", "unknown_field"),
    ],
)
async def test_a_bad_turn_body_is_400_naming_the_field(
    client: httpx.AsyncClient, body: object, field: str, code: str
) -> None:
    conversation = await new_conversation(client)
    response = await client.post(f"/api/conversations/{conversation}/turns", json=body)
    assert error_of(response, 400, code)["field"] == field
    poll = await client.get(f"/api/conversations/{conversation}/messages")
    assert poll.json()["data"] == []  # nothing was started


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"{not json", "malformed_json"),
        (b"[1, 2]", "invalid_body"),
        (b'"x"', "invalid_body"),
        (b'{"message": NaN}', "malformed_json"),
        (b"", "invalid_body"),
    ],
)
async def test_a_body_that_is_not_an_object_is_400_without_a_field(
    client: httpx.AsyncClient, content: bytes, code: str
) -> None:
    conversation = await new_conversation(client)
    response = await client.post(f"/api/conversations/{conversation}/turns", content=content)
    assert "field" not in error_of(response, 400, code)


@pytest.mark.parametrize(
    ("workflow", "field"),
    [
        ([], "workflow"),
        ({"tools": {}}, "workflow.tools"),
        ({"tools": [{}]}, "workflow.tools[0].name"),
        ({"tools": [{"name": " "}]}, "workflow.tools[0].name"),
        ({"tools": [{"name": "a", "gate": "yes"}]}, "workflow.tools[0].gate"),
        ({"tools": [{"name": "a", "colour": 1}]}, "workflow.tools[0].colour"),
        ({"tools": [{"name": "a", "input_schema": {"type": 7}}]}, "workflow.tools[0].input_schema"),
        ({"tools": [{"name": "a"}, {"name": "a"}]}, "workflow.tools[1].name"),
        ({"expose": {"nope": True}}, "workflow.expose.nope"),
        ({"expose": {"executed": 1}}, "workflow.expose.executed"),
        ({"bounds": {"held_artifacts": 0}}, "workflow.bounds.held_artifacts"),
        ({"bounds": {"run_bytes": True}}, "workflow.bounds.run_bytes"),
        ({"bounds": []}, "workflow.bounds"),
        ({"nodes": []}, "workflow.nodes"),
    ],
)
async def test_a_bad_workflow_is_400_naming_the_field(
    client: httpx.AsyncClient, workflow: object, field: str
) -> None:
    response = await client.post("/api/conversations", json={"workflow": workflow})
    assert error_of(response, 400, response.json()["error"]["code"])["field"] == field
    assert response.json()["error"]["code"] in ("invalid_field", "unknown_field")


async def test_unknown_ids_are_404(client: httpx.AsyncClient) -> None:
    conversation = await new_conversation(client)
    turn = (await start(client, conversation, "hello"))["id"]
    error_of(await client.get(turn_url("nope", turn)), 404, "unknown_conversation")
    error_of(await client.get(turn_url(conversation, "nope")), 404, "unknown_turn")
    error_of(await client.get(turn_url(conversation, "nope", "ledger")), 404, "unknown_turn")
    error_of(await client.get("/api/conversations/nope/messages"), 404, "unknown_conversation")
    error_of(await act(client, conversation, "nope", "answer", {"value": "x"}), 404, "unknown_turn")
    error_of(await act(client, "nope", turn, "stop"), 404, "unknown_conversation")
    response = await client.post("/api/conversations/nope/turns", json={"message": "hi"})
    error_of(response, 404, "unknown_conversation")


async def test_a_turn_is_never_readable_through_another_conversation(
    client: httpx.AsyncClient,
) -> None:
    mine = await new_conversation(client)
    theirs = await new_conversation(client)
    turn = (await start(client, mine, "note secret; ask"))["id"]
    error_of(await client.get(turn_url(theirs, turn)), 404, "unknown_turn")
    error_of(await client.get(turn_url(theirs, turn, "ledger")), 404, "unknown_turn")
    error_of(await act(client, theirs, turn, "answer", {"value": "x"}), 404, "unknown_turn")
    error_of(await act(client, theirs, turn, "stop"), 404, "unknown_turn")
    assert (await read(client, mine, turn))["status"] == "paused"


async def test_answering_a_turn_that_is_not_paused_is_409_and_changes_nothing(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    conversation = await new_conversation(client)
    turn = (await start(client, conversation, "note once"))["id"]
    before = await _snapshot(client, conversation, turn)
    runs_before = runtime.store.read().execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    response = await act(client, conversation, turn, "answer", {"value": "late"})
    error = error_of(response, 409, "not_paused")
    assert "field" not in error
    assert await _snapshot(client, conversation, turn) == before
    assert runtime.store.read().execute("SELECT COUNT(*) FROM runs").fetchone()[0] == runs_before


async def test_actions_in_the_wrong_state_are_409(client: httpx.AsyncClient) -> None:
    conversation = await new_conversation(client)
    question = (await start(client, conversation, "note q; ask"))["id"]
    before = await _snapshot(client, conversation, question)
    error_of(await act(client, conversation, question, "approve"), 409, "not_paused")
    error_of(await act(client, conversation, question, "decline"), 409, "not_paused")
    error_of(await act(client, conversation, question, "continue"), 409, "continue_not_offered")
    assert await _snapshot(client, conversation, question) == before
    gate = (await start(client, conversation, "email a@example.com hi"))["id"]
    error_of(await act(client, conversation, gate, "answer", {"value": "x"}), 409, "not_paused")
    done = (await start(client, conversation, "hello"))["id"]
    error_of(await act(client, conversation, done, "stop"), 409, "not_stoppable")


@pytest.mark.parametrize(
    ("action", "body", "field", "code"),
    [
        ("answer", {}, "value", "missing_field"),
        ("answer", {"value": ["x"]}, "value", "invalid_field"),
        ("answer", {"value": "x", "extra": 1}, "extra", "unknown_field"),
        ("decline", {"reason": 5}, "reason", "invalid_field"),
        ("approve", {"really": True}, "really", "unknown_field"),
        ("continue", {"x": 1}, "x", "unknown_field"),
        ("stop", {"x": 1}, "x", "unknown_field"),
    ],
)
async def test_a_bad_action_body_is_400_and_changes_nothing(
    client: httpx.AsyncClient, action: str, body: object, field: str, code: str
) -> None:
    conversation = await new_conversation(client)
    turn = (await start(client, conversation, "note b; ask"))["id"]
    before = await _snapshot(client, conversation, turn)
    assert (
        error_of(await act(client, conversation, turn, action, body), 400, code)["field"] == field
    )
    assert await _snapshot(client, conversation, turn) == before


@pytest.mark.parametrize("limit", ["0", "-1", "abc", "1001", "2.5", ""])
async def test_a_bad_limit_is_400(client: httpx.AsyncClient, limit: str) -> None:
    conversation = await new_conversation(client)
    response = await client.get(f"/api/conversations/{conversation}/messages?limit={limit}")
    assert error_of(response, 400, "invalid_field")["field"] == "limit"


async def test_a_body_over_the_limit_is_413(client: httpx.AsyncClient) -> None:
    conversation = await new_conversation(client)
    oversized = {"message": "x" * (_bodies.API_BODY_LIMIT + 1)}
    response = await client.post(f"/api/conversations/{conversation}/turns", json=oversized)
    error_of(response, 413, "body_too_large")


async def test_unknown_routes_and_methods_answer_json_errors(client: httpx.AsyncClient) -> None:
    error_of(await client.get("/api/nothing-here"), 404, "not_found")
    response = await client.get("/api/conversations")
    error_of(response, 405, "method_not_allowed")
    assert "POST" in response.headers["allow"]
