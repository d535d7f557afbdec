"""The turn API's routes, driven through the ASGI app: the demo's flows end to end."""

from __future__ import annotations

import anyio
import httpx
import jsonschema
import pytest

from reference_impl.runtime import Runtime
from reference_impl.seams import Seams
from reference_impl.server import create_app
from reference_impl.server.demo import demo_workflow
from tests.server._client import (
    act,
    check_turn,
    conforms,
    error_of,
    new_conversation,
    read,
    start,
    turn_url,
    urls,
)

pytestmark = pytest.mark.anyio


async def test_create_conversation_answers_201_with_its_id(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/conversations")
    assert response.status_code == 201
    body = response.json()
    conforms(body, "Conversation")
    second = await client.post("/api/conversations", json={})
    assert second.status_code == 201 and second.json()["id"] != body["id"]


async def test_a_note_turn_completes_with_its_artifact_on_the_message(
    client: httpx.AsyncClient,
) -> None:
    conversation = await new_conversation(client)
    view = await start(client, conversation, "note buy milk", entryPoint="api")
    assert view["status"] == "completed" and view["pending"] is None
    assert view["continueOffered"] is False
    user, reply = view["messages"]
    assert user["role"] == "user" and user["content"] == "note buy milk"
    assert "toolArtifacts" not in user
    assert reply["role"] == "assistant" and reply["content"] == "Done. Created note 1."
    assert reply["toolArtifacts"] == [
        {
            "type": "link",
            "payload": {"url": "https://example.com/notes/1"},
            "tool_call_id": "call-1",
        }
    ]
    assert view["toolArtifacts"] == reply["toolArtifacts"]
    assert await read(client, conversation, view["id"]) == view


async def test_a_plain_message_is_answered_with_text_and_no_artifacts(
    client: httpx.AsyncClient,
) -> None:
    conversation = await new_conversation(client)
    view = await start(client, conversation, "hello")
    assert view["status"] == "completed" and view["toolArtifacts"] == []
    assert view["messages"][-1]["content"].startswith('You said "hello".')


async def test_artifacts_held_across_a_question_arrive_once_on_the_answer(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    conversation = await new_conversation(client)
    paused = await start(client, conversation, "note a; note b; ask")
    assert paused["status"] == "paused"
    assert paused["pending"] == {"kind": "question", "message": "Anything to add before I finish?"}
    assert paused["toolArtifacts"] == []  # held, never on the wire while held
    assert len(runtime.held(str(paused["id"]))) == 2
    response = await act(client, conversation, paused["id"], "answer", {"value": "eggs"})
    assert response.status_code == 200
    done = response.json()
    check_turn(done)
    assert done["status"] == "completed"
    assert [m["content"] for m in done["messages"]] == [
        "note a; note b; ask",
        "eggs",
        'Done. Created note 1. Created note 2. You added: "eggs".',
    ]
    assert urls(done) == ["https://example.com/notes/1", "https://example.com/notes/2"]
    assert runtime.held(str(done["id"])) == []


async def test_a_gated_email_approved_is_sent(client: httpx.AsyncClient) -> None:
    conversation = await new_conversation(client)
    paused = await start(client, conversation, "email bob@example.com Lunch at noon?")
    assert paused["status"] == "paused"
    assert paused["pending"]["kind"] == "gate"
    assert paused["pending"]["tool"] == "send_email"
    assert paused["pending"]["toolCallId"] == "call-1"
    response = await act(client, conversation, paused["id"], "approve")
    assert response.status_code == 200
    assert response.json()["messages"][-1]["content"] == "Done. Sent the email to bob@example.com."


async def test_a_gated_email_declined_tells_the_model_why(client: httpx.AsyncClient) -> None:
    conversation = await new_conversation(client)
    paused = await start(client, conversation, "email bob@example.com hi")
    response = await act(client, conversation, paused["id"], "decline", {"reason": "not now"})
    assert response.status_code == 200
    assert response.json()["messages"][-1]["content"] == (
        "Done. Not done: declined: the operator declined this call (not now)"
    )
    other = await start(client, conversation, "email eve@example.com hi")
    default = await act(client, conversation, other["id"], "decline")
    assert default.json()["messages"][-1]["content"].endswith("(declined)")


async def test_stop_then_continue_delivers_what_was_held(client: httpx.AsyncClient) -> None:
    conversation = await new_conversation(client)
    paused = await start(client, conversation, "note x; ask")
    stopped = (await act(client, conversation, paused["id"], "stop")).json()
    check_turn(stopped)
    assert stopped["status"] == "stopped" and stopped["continueOffered"] is True
    assert stopped["toolArtifacts"] == []
    resumed = await act(client, conversation, paused["id"], "continue", {})
    assert resumed.status_code == 200
    view = resumed.json()
    assert view["status"] == "completed" and view["continueOffered"] is False
    assert view["messages"][-1]["content"] == "Done. Created note 1."
    assert urls(view) == ["https://example.com/notes/1"]


async def test_lookup_reads_the_notes(client: httpx.AsyncClient) -> None:
    conversation = await new_conversation(client)
    await start(client, conversation, "note Buy milk")
    view = await start(client, conversation, "lookup MILK")
    assert view["messages"][-1]["content"] == 'Done. Found note 1: "Buy milk".'
    assert view["toolArtifacts"] == []


async def test_the_ledger_route_lists_tool_events(client: httpx.AsyncClient) -> None:
    conversation = await new_conversation(client)
    view = await start(client, conversation, "note hi")
    response = await client.get(turn_url(conversation, view["id"], "ledger"))
    assert response.status_code == 200
    body = response.json()
    conforms(body, "Ledger")
    assert body == {
        "turn": view["id"],
        "events": [
            {"event": "tool_start", "tool": "create_note", "input": {"text": "hi"}},
            {
                "event": "tool_done",
                "tool": "create_note",
                "input": {"text": "hi"},
                "result": {"success": True, "data": {"result": "Created note 1."}, "error": None},
            },
        ],
    }
    # The document holds a tool_done to its name, input and result (DR-1 ¶1).
    done = body["events"][1]
    for key in ("tool", "input", "result"):
        with pytest.raises(jsonschema.ValidationError, match=repr(key)):
            conforms({k: v for k, v in done.items() if k != key}, "LedgerEvent")


async def test_a_posted_workflow_is_used(client: httpx.AsyncClient) -> None:
    workflow = {"tools": [{"name": "create_note", "gate": True}], "bounds": {"held_artifacts": 5}}
    conversation = await new_conversation(client, workflow)
    paused = await start(client, conversation, "note gated")
    assert paused["pending"]["kind"] == "gate"  # this workflow gates create_note
    missing = await start(client, conversation, "email a@b.c hi")
    assert "not an available tool" in missing["messages"][-1]["content"]


async def test_a_turn_left_resuming_continues_on_its_own(
    client: httpx.AsyncClient, seams: Seams
) -> None:
    conversation = await new_conversation(client)
    seams.arm("during_model_call", "time_limit")
    response = await client.post(
        f"/api/conversations/{conversation}/turns", json={"message": "note auto"}
    )
    assert response.status_code == 201
    assert response.json()["status"] == "resuming"
    # The background continuation ran after the response; nobody asked for it.
    view = await read(client, conversation, response.json()["id"])
    assert view["status"] == "completed"
    assert urls(view) == ["https://example.com/notes/1"]


async def test_a_failed_write_back_is_503_and_the_answer_can_be_retried(
    client: httpx.AsyncClient, seams: Seams, runtime: Runtime
) -> None:
    conversation = await new_conversation(client)
    paused = await start(client, conversation, "note kept; ask")
    seams.fail_write_backs(1)
    failed = await act(client, conversation, paused["id"], "answer", {"value": "v"})
    error = error_of(failed, 503, "write_back_failed")
    assert error["turn"] == paused["id"]
    again = await read(client, conversation, paused["id"])
    assert again["status"] == "paused" and again["toolArtifacts"] == []
    assert len(runtime.held(str(paused["id"]))) == 1  # put back, not lost
    retried = await act(client, conversation, paused["id"], "answer", {"value": "v"})
    assert retried.status_code == 200
    assert urls(retried.json()) == ["https://example.com/notes/1"]


async def test_a_failed_write_back_on_a_new_turn_names_the_turn(
    client: httpx.AsyncClient, seams: Seams
) -> None:
    conversation = await new_conversation(client)
    seams.fail_write_backs(1)
    failed = await client.post(
        f"/api/conversations/{conversation}/turns", json={"message": "note later"}
    )
    turn = error_of(failed, 503, "write_back_failed")["turn"]
    stopped = await read(client, conversation, turn)
    assert stopped["status"] == "stopped" and stopped["continueOffered"] is True
    resumed = await act(client, conversation, turn, "continue")
    assert urls(resumed.json()) == ["https://example.com/notes/1"]


@pytest.mark.parametrize("auto_continue", [True, False])
async def test_at_startup_a_turn_left_resuming_continues(
    runtime: Runtime, seams: Seams, auto_continue: bool
) -> None:
    conversation = runtime.create_conversation(demo_workflow())
    seams.arm("during_model_call", "time_limit")
    turn = runtime.start_turn(conversation, "note boot")
    assert runtime.turn_view(turn)["status"] == "resuming"  # as a dead process left it
    closed: list[str] = []
    app = create_app(
        runtime, auto_continue=auto_continue, on_shutdown=[lambda: closed.append("done")]
    )
    async with app.router.lifespan_context(app):
        with anyio.fail_after(10):
            while auto_continue and runtime.turn_view(turn)["status"] != "completed":
                await anyio.sleep(0.01)
        view = runtime.turn_view(turn)
    assert view["status"] == ("completed" if auto_continue else "resuming")
    assert closed == ["done"]  # the shutdown ran its callbacks
