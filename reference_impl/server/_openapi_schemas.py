"""The component schemas of the OpenAPI document (see :mod:`._openapi`)."""

from __future__ import annotations

__all__ = ["BOOL", "STR", "component_schemas", "obj", "ref"]

_REF = "#/components/schemas/"
_TURN_STATUSES = ["running", "paused", "resuming", "stopped", "completed"]


def ref(name: str) -> dict[str, object]:
    """A reference to the component schema ``name``."""
    return {"$ref": _REF + name}


def obj(
    properties: dict[str, object], required: list[str] | None = None, description: str = ""
) -> dict[str, object]:
    """A closed object schema (no properties beyond ``properties``)."""
    schema: dict[str, object] = {"type": "object", "additionalProperties": False}
    if description:
        schema["description"] = description
    schema["properties"] = properties
    if required:
        schema["required"] = required
    return schema


STR: dict[str, object] = {"type": "string"}
BOOL: dict[str, object] = {"type": "boolean"}
_POSITIVE: dict[str, object] = {"type": "integer", "minimum": 1}


def component_schemas() -> dict[str, object]:
    """Every schema the paths refer to, by name."""
    artifact = obj(
        {"type": STR, "payload": {"type": "object"}, "tool_call_id": {"type": ["string", "null"]}},
        ["type", "payload", "tool_call_id"],
        "An artifact as a tool-invoking node emits it on its tool_artifacts port (RT-TOOL-3).",
    )
    message = obj(
        {
            "id": STR,
            "sessionId": STR,
            "role": {"enum": ["user", "assistant"]},
            "content": STR,
            "timestamp": {"type": "string", "format": "date-time"},
            "status": {"const": "complete"},
            "sequenceNumber": {"type": "integer"},
            "nodeId": {"type": ["string", "null"]},
            "metadata": {"type": "object"},
            "toolArtifacts": {"type": "array", "minItems": 1, "items": ref("Artifact")},
            "executionId": {"type": "string", "description": "The turn the message belongs to."},
        },
        [
            "id",
            "sessionId",
            "role",
            "content",
            "timestamp",
            "status",
            "sequenceNumber",
            "nodeId",
            "metadata",
        ],
        "A PLAY-4 message row. The base keys come first, in the order listed; toolArtifacts "
        "(RT-TOOL-4) is present only on a message that carries artifacts, never null, and "
        "never inside metadata; executionId comes last.",
    )
    pending = obj(
        {
            "kind": {"enum": ["question", "gate"]},
            "message": STR,
            "tool": STR,
            "toolCallId": {"type": ["string", "null"]},
        },
        ["kind", "message"],
        "What a paused turn waits for: an answer (question) or a decision (gate).",
    )
    turn = obj(
        {
            "id": STR,
            "status": {"enum": _TURN_STATUSES},
            "continueOffered": BOOL,
            "pending": {"oneOf": [{"type": "null"}, ref("Pending")]},
            "messages": {"type": "array", "items": ref("Message")},
            "toolArtifacts": {
                "type": "array",
                "items": ref("Artifact"),
                "description": "Every artifact persisted on the turn's messages, in order.",
            },
        },
        ["id", "status", "continueOffered", "pending", "messages", "toolArtifacts"],
        "The turn read. Held artifacts (a paused turn's) are never shown (RT-TOOL-7).",
    )
    poll = obj(
        {
            "success": {"const": True},
            "data": {"type": "array", "items": ref("Message")},
            "hasMore": BOOL,
            "hasOlder": BOOL,
            "sessionStatus": {"enum": [*_TURN_STATUSES, "idle"]},
        },
        ["success", "data", "hasMore", "hasOlder", "sessionStatus"],
        "The PLAY-3 poll envelope, keys in this order. hasMore: the page is full; hasOlder: "
        "older messages exist; sessionStatus: the newest turn's status.",
    )
    ledger_event = obj(
        {
            "event": {"enum": ["tool_start", "tool_done", "clear"]},
            "tool": STR,
            "input": {},
            "result": {},
        },
        ["event"],
        "One run-event of the turn's ledger (DR-1). A tool_start carries the tool's name and "
        "the input it runs with; a tool_done carries the name, the same input as its "
        "tool_start and the result; a clear carries neither.",
    )
    ledger_event["allOf"] = [
        {"if": {"properties": {"event": {"const": kind}}}, "then": {"required": needed}}
        for kind, needed in (
            ("tool_start", ["tool", "input"]),
            ("tool_done", ["tool", "input", "result"]),
        )
    ]
    tool = obj(
        {
            "name": {"type": "string", "minLength": 1},
            "read_only": BOOL,
            "input_schema": {"type": ["object", "boolean"]},
            "gate": BOOL,
            "expose_artifacts_port": BOOL,
        },
        ["name"],
    )
    ports = ["tool_artifacts", "executed_any", "executed", "skipped"]
    workflow = obj(
        {
            "tools": {"type": "array", "items": ref("Tool")},
            "expose": obj(dict.fromkeys(ports, BOOL)),
            "bounds": obj(
                dict.fromkeys(
                    ("payload_bytes", "run_artifacts", "run_bytes", "held_artifacts"), _POSITIVE
                )
            ),
        },
        None,
        "A workflow in the runtime's stored form. The demo model calls create_note, lookup "
        "and send_email; the demo world runs only those.",
    )
    error = obj(
        {
            "error": obj(
                {
                    "code": STR,
                    "message": STR,
                    "field": {"type": "string", "description": "The offending field (400 only)."},
                    "turn": {"type": "string", "description": "The turn (write_back_failed only)."},
                },
                ["code", "message"],
            )
        },
        ["error"],
    )
    return {
        "Error": error,
        "Artifact": artifact,
        "Message": message,
        "Pending": pending,
        "Turn": turn,
        "Poll": poll,
        "LedgerEvent": ledger_event,
        "Ledger": obj(
            {"turn": STR, "events": {"type": "array", "items": ref("LedgerEvent")}},
            ["turn", "events"],
        ),
        "Conversation": obj({"id": STR}, ["id"]),
        "Tool": tool,
        "Workflow": workflow,
        "NewConversation": obj({"workflow": ref("Workflow")}),
        "NewTurn": obj(
            {
                "message": STR,
                "entryPoint": {"enum": ["chat", "api", "trigger"], "default": "chat"},
            },
            ["message"],
        ),
        "Answer": obj({"value": STR}, ["value"]),
        "Decline": obj({"reason": {"type": "string", "default": "declined"}}),
        "Empty": obj({}),
        "ProtocolMessage": {
            "type": "object",
            "description": "One rttool-adapter/1 request (adapters/schemas/messages.json).",
        },
    }
