"""Shared code for the HTTP API tests: checks of the wire and short-hands for requests."""

from __future__ import annotations

from functools import cache

import httpx
import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from reference_impl.server import openapi_document

BASE = "http://testserver"
PLAY4_BASE = (
    "id",
    "sessionId",
    "role",
    "content",
    "timestamp",
    "status",
    "sequenceNumber",
    "nodeId",
    "metadata",
)
PLAY3_KEYS = ["success", "data", "hasMore", "hasOlder", "sessionStatus"]
TURN_KEYS = ["id", "status", "continueOffered", "pending", "messages", "toolArtifacts"]
_DOC_URI = "urn:rttool:reference-openapi"


@cache
def _registry() -> Registry:
    resource = Resource.from_contents(openapi_document(), default_specification=DRAFT202012)
    return Registry().with_resource(_DOC_URI, resource)


def conforms(value: object, schema_name: str) -> None:
    """Assert ``value`` fits the OpenAPI document's component schema ``schema_name``."""
    ref = {"$ref": f"{_DOC_URI}#/components/schemas/{schema_name}"}
    jsonschema.Draft202012Validator(ref, registry=_registry()).validate(value)


def check_row(row: dict[str, object]) -> None:
    """A PLAY-4 row: base keys first and in order; toolArtifacts only when carried (never
    null, never empty, never in metadata); executionId last."""
    keys = list(row)
    assert keys[: len(PLAY4_BASE)] == list(PLAY4_BASE)
    extra = keys[len(PLAY4_BASE) :]
    assert extra in (["executionId"], ["toolArtifacts", "executionId"])
    if "toolArtifacts" in row:
        assert isinstance(row["toolArtifacts"], list) and row["toolArtifacts"]
    assert row["metadata"] == {}
    conforms(row, "Message")


def check_turn(view: dict[str, object]) -> None:
    """A turn read: its keys in order, every row a PLAY-4 row, the aggregate the
    concatenation of the rows' artifacts."""
    assert list(view) == TURN_KEYS
    messages = view["messages"]
    assert isinstance(messages, list)
    aggregate: list[object] = []
    for row in messages:
        check_row(row)
        aggregate.extend(row.get("toolArtifacts", []))
    assert view["toolArtifacts"] == aggregate
    conforms(view, "Turn")


def error_of(response: httpx.Response, status: int, code: str) -> dict[str, object]:
    """The error object of a refused request, after checking its status and code."""
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == ["error"]
    conforms(body, "Error")
    error = body["error"]
    assert error["code"] == code
    return dict(error)


async def new_conversation(client: httpx.AsyncClient, workflow: object = None) -> str:
    """A new conversation's id."""
    body = None if workflow is None else {"workflow": workflow}
    response = await client.post("/api/conversations", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def start(
    client: httpx.AsyncClient, conversation: str, message: str, **extra: object
) -> dict[str, object]:
    """Start a turn; its turn read (checked)."""
    response = await client.post(
        f"/api/conversations/{conversation}/turns", json={"message": message, **extra}
    )
    assert response.status_code == 201, response.text
    view = dict(response.json())
    check_turn(view)
    assert response.headers["location"].endswith(f"/turns/{view['id']}")
    return view


def turn_url(conversation: str, turn: object, action: str = "") -> str:
    """The path of a turn, or of one of its actions."""
    path = f"/api/conversations/{conversation}/turns/{turn}"
    return f"{path}/{action}" if action else path


async def act(
    client: httpx.AsyncClient, conversation: str, turn: object, action: str, body: object = None
) -> httpx.Response:
    """POST one turn action."""
    return await client.post(turn_url(conversation, turn, action), json=body)


async def read(client: httpx.AsyncClient, conversation: str, turn: object) -> dict[str, object]:
    """GET the turn read (checked)."""
    response = await client.get(turn_url(conversation, turn))
    assert response.status_code == 200, response.text
    view = dict(response.json())
    check_turn(view)
    return view


def urls(view: dict[str, object]) -> list[str]:
    """The note URLs of a turn's aggregate, in order."""
    artifacts = view["toolArtifacts"]
    assert isinstance(artifacts, list)
    return [str(a["payload"]["url"]) for a in artifacts]
