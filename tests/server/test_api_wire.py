"""The wire the API publishes: PLAY-4 rows and the PLAY-3 poll envelope, key by key."""

from __future__ import annotations

import httpx
import pytest

from tests.server._client import PLAY3_KEYS, act, check_row, conforms, new_conversation, start

pytestmark = pytest.mark.anyio


async def _poll(client: httpx.AsyncClient, conversation: str, query: str = "") -> dict:
    response = await client.get(f"/api/conversations/{conversation}/messages{query}")
    assert response.status_code == 200, response.text
    envelope = response.json()
    assert list(envelope) == PLAY3_KEYS
    conforms(envelope, "Poll")
    for row in envelope["data"]:
        check_row(row)
    return dict(envelope)


async def _five_messages(client: httpx.AsyncClient) -> str:
    conversation = await new_conversation(client)
    await start(client, conversation, "note one")  # user, assistant (with an artifact)
    paused = await start(client, conversation, "ask")  # user
    await act(client, conversation, paused["id"], "answer", {"value": "fine"})  # user, assistant
    return conversation


async def test_the_poll_envelope_and_rows(client: httpx.AsyncClient) -> None:
    conversation = await _five_messages(client)
    envelope = await _poll(client, conversation)
    assert envelope["success"] is True
    assert [row["sequenceNumber"] for row in envelope["data"]] == [1, 2, 3, 4, 5]
    assert envelope["hasMore"] is False and envelope["hasOlder"] is False
    assert envelope["sessionStatus"] == "completed"
    carrying = [row for row in envelope["data"] if "toolArtifacts" in row]
    assert [row["sequenceNumber"] for row in carrying] == [2]
    assert all(row["sessionId"] == conversation for row in envelope["data"])


async def test_limits_and_cursors(client: httpx.AsyncClient) -> None:
    conversation = await _five_messages(client)
    newest = await _poll(client, conversation, "?limit=2")
    assert [r["sequenceNumber"] for r in newest["data"]] == [4, 5]
    assert newest["hasMore"] is True and newest["hasOlder"] is True
    older = await _poll(client, conversation, "?limit=2&before=4")
    assert [r["sequenceNumber"] for r in older["data"]] == [2, 3]
    assert older["hasOlder"] is True
    oldest = await _poll(client, conversation, "?limit=2&before=2")
    assert [r["sequenceNumber"] for r in oldest["data"]] == [1]
    assert oldest["hasMore"] is False and oldest["hasOlder"] is False
    forward = await _poll(client, conversation, "?limit=3&after=1")
    assert [r["sequenceNumber"] for r in forward["data"]] == [2, 3, 4]


@pytest.mark.parametrize("cursor", ["after=abc", "before=-1", "after=1.5", "before=", "after=%20"])
async def test_a_cursor_that_is_not_digits_is_ignored_not_refused(
    client: httpx.AsyncClient, cursor: str
) -> None:
    conversation = await _five_messages(client)
    plain = await _poll(client, conversation, "?limit=3")
    assert await _poll(client, conversation, f"?limit=3&{cursor}") == plain


async def test_an_empty_conversation_polls_idle(client: httpx.AsyncClient) -> None:
    conversation = await new_conversation(client)
    envelope = await _poll(client, conversation)
    assert envelope == {
        "success": True,
        "data": [],
        "hasMore": False,
        "hasOlder": False,
        "sessionStatus": "idle",
    }


async def test_a_paused_turn_polls_paused_and_shows_no_held_artifact(
    client: httpx.AsyncClient,
) -> None:
    conversation = await new_conversation(client)
    await start(client, conversation, "note held; ask")
    envelope = await _poll(client, conversation)
    assert envelope["sessionStatus"] == "paused"
    assert all("toolArtifacts" not in row for row in envelope["data"])
    assert "held" not in str(envelope["data"][0]["metadata"])
