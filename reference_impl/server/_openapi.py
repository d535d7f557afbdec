"""The OpenAPI 3.1 document of the reference runtime's HTTP API.

Served at ``GET /api/openapi.json`` and kept in the repository as ``docs/openapi.json``
(regenerate with ``python -m reference_impl.server --print-openapi > docs/openapi.json``;
a test checks the two are equal).
"""

from __future__ import annotations

from reference_impl import __version__
from reference_impl.server._openapi_schemas import STR, component_schemas, ref

__all__ = ["openapi_document"]


def _json(schema: dict[str, object], description: str) -> dict[str, object]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _responses(ok: str, ok_schema: str, *errors: str, status: str = "200") -> dict[str, object]:
    out: dict[str, object] = {status: _json(ref(ok_schema), ok)}
    out.update({code: {"$ref": f"#/components/responses/{code}"} for code in errors})
    out["401"] = {"$ref": "#/components/responses/401"}
    return out


def _body(schema: str, *, required: bool) -> dict[str, object]:
    return {"required": required, "content": {"application/json": {"schema": ref(schema)}}}


def _params(*names: str) -> list[dict[str, object]]:
    return [{"$ref": f"#/components/parameters/{name}"} for name in names]


def _paths() -> dict[str, object]:
    turn = "/api/conversations/{conversation}/turns/{turn}"
    actions = {
        "answer": ("Answer the question the turn is paused on", "Answer", True),
        "approve": ("Approve the gated call the turn is paused on", "Empty", False),
        "decline": ("Decline the gated call; the model hears the reason", "Decline", False),
        "continue": ("Continue a stopped turn (when continueOffered)", "Empty", False),
        "stop": ("Stop a resuming or paused turn", "Empty", False),
    }
    paths: dict[str, object] = {
        "/api/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This document",
                "responses": {
                    "200": {
                        "description": "The OpenAPI document",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    },
                    "401": {"$ref": "#/components/responses/401"},
                },
            }
        },
        "/api/conversations": {
            "post": {
                "operationId": "createConversation",
                "summary": "Create a conversation (the demo workflow unless one is given)",
                "requestBody": _body("NewConversation", required=False),
                "responses": _responses(
                    "The new conversation", "Conversation", "400", "413", status="201"
                ),
            }
        },
        "/api/conversations/{conversation}/turns": {
            "post": {
                "operationId": "startTurn",
                "summary": "Send a user message; the new turn runs to its next resting state",
                "parameters": _params("conversation"),
                "requestBody": _body("NewTurn", required=True),
                "responses": _responses(
                    "The turn read", "Turn", "400", "404", "413", "503", status="201"
                ),
            }
        },
        turn: {
            "get": {
                "operationId": "readTurn",
                "summary": "Read a turn",
                "parameters": _params("conversation", "turn"),
                "responses": _responses("The turn read", "Turn", "404"),
            }
        },
        "/api/conversations/{conversation}/messages": {
            "get": {
                "operationId": "pollMessages",
                "summary": "Poll the conversation's messages",
                "parameters": _params("conversation", "limit", "after", "before"),
                "responses": _responses("The poll envelope", "Poll", "400", "404"),
            }
        },
        f"{turn}/ledger": {
            "get": {
                "operationId": "readLedger",
                "summary": "The turn's run-event ledger",
                "parameters": _params("conversation", "turn"),
                "responses": _responses("The ledger", "Ledger", "404"),
            }
        },
    }
    for name, (summary, schema, required) in actions.items():
        paths[f"{turn}/{name}"] = {
            "post": {
                "operationId": f"{name}Turn",
                "summary": summary,
                "parameters": _params("conversation", "turn"),
                "requestBody": _body(schema, required=required),
                "responses": _responses(
                    "The turn read after the action", "Turn", "400", "404", "409", "413", "503"
                ),
            }
        }
    paths["/rttool"] = {
        "post": {
            "operationId": "harness",
            "summary": "The adapter-protocol harness: one message in, the harness's reply out",
            "description": "A start reply adds turn_api: URL templates of the session's turn "
            "read and message poll under /rttool/sessions/{session}/api, readable "
            "until the session's finish.",
            "requestBody": _body("ProtocolMessage", required=True),
            "responses": _responses("The harness's reply", "ProtocolMessage", "400", "413"),
        }
    }
    session = "/rttool/sessions/{session}/api/conversations/{conversation}"
    for suffix, operation, schema, extra in (
        ("/turns/{turn}", "sessionReadTurn", "Turn", ("turn",)),
        ("/messages", "sessionPollMessages", "Poll", ("limit", "after", "before")),
        ("/turns/{turn}/ledger", "sessionReadLedger", "Ledger", ("turn",)),
    ):
        paths[session + suffix] = {
            "get": {
                "operationId": operation,
                "summary": f"{operation[7:]} in a harness session",
                "parameters": _params("session", "conversation", *extra),
                "responses": _responses("As on /api", schema, "400", "404"),
            }
        }
    return paths


def _components() -> dict[str, object]:
    def path(name: str, description: str) -> dict[str, object]:
        return {
            "name": name,
            "in": "path",
            "required": True,
            "schema": STR,
            "description": description,
        }

    def cursor(name: str, description: str) -> dict[str, object]:
        return {
            "name": name,
            "in": "query",
            "required": False,
            "schema": STR,
            "description": description + " Honoured only when it is a string of digits; "
            "anything else is ignored, not refused.",
        }

    def error(description: str) -> dict[str, object]:
        return _json(ref("Error"), description)

    return {
        "schemas": component_schemas(),
        "parameters": {
            "conversation": path("conversation", "A conversation id."),
            "turn": path("turn", "A turn id of that conversation."),
            "session": path("session", "A harness session id (from a start reply)."),
            "limit": {
                "name": "limit",
                "in": "query",
                "required": False,
                "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 50},
            },
            "after": cursor("after", "Messages with a sequenceNumber above this, oldest first."),
            "before": cursor("before", "Messages with a sequenceNumber below this."),
        },
        "responses": {
            "400": error("A malformed body or parameter; error.field names it"),
            "401": error("A bearer token is required and was missing or wrong"),
            "404": error("No such conversation, turn or session"),
            "409": error("The turn is not in a state that allows this; nothing changed"),
            "413": error("The body is too large"),
            "503": error(
                "The write-back failed (write_back_failed); the turn is back "
                "where the step found it and the same step can be retried"
            ),
        },
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    }


def openapi_document() -> dict[str, object]:
    """The OpenAPI 3.1 document, as a fresh JSON-ready value."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "rttool reference runtime",
            "version": __version__,
            "description": "The HTTP API of the reference runtime bundled with rttool: "
            "conversations, turns, the turn read (messages as PLAY-4 rows, artifacts as "
            "toolArtifacts), the PLAY-3 message poll, and the adapter-protocol harness. "
            "A bearer token is required on every request when the server was started with "
            "one (always on a non-loopback address).",
        },
        "security": [{}, {"bearer": []}],
        "paths": _paths(),
        "components": _components(),
    }
