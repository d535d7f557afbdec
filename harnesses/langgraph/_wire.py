"""LangGraph's own objects, in the protocol's shapes: field for field, nothing added.

* A ``ToolMessage`` is a tool result: ``success`` is its ``status``, ``data`` its
  content (decoded when it is the JSON the ToolNode made of the tool's output), ``error``
  its content when it failed, and ``artifacts`` its ``artifact`` when it has one.
* A message of the thread's checkpointed state is a wire row: LangGraph's message
  ``type`` becomes the row's ``role`` and its own fields are kept; no field is invented,
  so a row carries ``toolArtifacts`` only if LangGraph put it there (it never does:
  artifacts stay on the ``ToolMessage`` that carried them).
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage, convert_to_openai_messages

__all__ = ["ROLES", "model_message", "result_of", "row_of"]

#: LangGraph message types -> the roles the wire names.
ROLES = {"human": "user", "ai": "assistant", "tool": "tool", "system": "system"}


def _decoded(content: object) -> object:
    if not isinstance(content, str):
        return content
    try:
        return json.loads(content)
    except ValueError:
        return content


def result_of(message: ToolMessage) -> dict[str, Any]:
    """The tool result a ToolMessage carries."""
    success = message.status == "success"
    result: dict[str, Any] = {
        "success": success,
        "data": _decoded(message.content) if success else None,
        "error": None if success else message.content,
    }
    if message.artifact is not None:
        result["artifacts"] = message.artifact
    return result


def model_message(message: BaseMessage) -> Any:
    """A message as the model is given it (the provider's shape)."""
    return convert_to_openai_messages(message)


def row_of(message: BaseMessage, conversation: str) -> dict[str, Any]:
    """One row of the thread's message list, as a LangGraph server would serve it."""
    row: dict[str, Any] = {
        "id": message.id,
        "sessionId": conversation,
        "role": ROLES.get(message.type, message.type),
        "content": message.content,
        "metadata": dict(message.response_metadata),
    }
    if isinstance(message, AIMessage) and message.tool_calls:
        row["tool_calls"] = [dict(call) for call in message.tool_calls]
    if isinstance(message, ToolMessage):
        row.update(tool_call_id=message.tool_call_id, name=message.name, status=message.status)
        if message.artifact is not None:
            row["artifact"] = message.artifact
    return row
