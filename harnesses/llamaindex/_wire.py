"""LlamaIndex's own objects, in the protocol's shapes: field for field, nothing added.

* A ``ToolOutput`` is a tool result: ``success`` is ``not is_error``, ``data`` the tool's
  ``raw_output`` (what the tool returned, kept beside the text the model reads), ``error``
  the output's text when it is an error (the exception's message, or LlamaIndex's "Tool
  ... not found").  LlamaIndex has no artifacts on a tool output, so no result carries
  ``artifacts``.
* The tool message is the one the agent appends for the model: role ``tool``, the
  output's text, and the call's id.
* A message of the agent's memory is a wire row: its role, its text, its blocks and
  ``additional_kwargs`` as LlamaIndex serialises them, and its tool calls.
* A turn waits for what its tool bodies announced: a gate or a question.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.agent.workflow import ToolCallResult
from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock
from llama_index.core.tools import ToolOutput

__all__ = ["dumped_result", "pending_of", "result_of", "row_of", "tool_message"]


def result_of(output: ToolOutput) -> dict[str, Any]:
    """The tool result a ``ToolOutput`` carries."""
    return {
        "success": not output.is_error,
        "data": None if output.is_error else output.raw_output,
        "error": output.content if output.is_error else None,
    }


def tool_message(event: ToolCallResult) -> dict[str, Any]:
    """The tool message the agent feeds back to the model for a call."""
    return {"role": "tool", "tool_call_id": event.tool_id, "content": event.tool_output.content}


def dumped_result(event: ToolCallResult) -> dict[str, Any]:
    """A ``ToolCallResult`` event as the stream carries it to an application."""
    output = event.tool_output
    return {
        "tool_name": event.tool_name,
        "tool_kwargs": event.tool_kwargs,
        "tool_id": event.tool_id,
        "tool_output": {
            "content": output.content,
            "raw_output": output.raw_output,
            "is_error": output.is_error,
        },
        "return_direct": event.return_direct,
    }


def row_of(message: ChatMessage, conversation: str, index: int) -> dict[str, Any]:
    """One message of the agent's memory as a row of the conversation's message list."""
    dumped = message.model_dump(mode="json")
    row: dict[str, Any] = {
        "id": f"{conversation}-{index}",
        "sessionId": conversation,
        "role": message.role.value,
        "content": message.content or "",
        "blocks": dumped.get("blocks", []),
        "additional_kwargs": dumped.get("additional_kwargs", {}),
    }
    calls = [block for block in message.blocks if isinstance(block, ToolCallBlock)]
    if calls:
        row["tool_calls"] = [
            {"name": c.tool_name, "args": c.tool_kwargs, "tool_call_id": c.tool_call_id}
            for c in calls
        ]
    return row


def pending_of(waits: Sequence[Any]) -> object:
    """What a turn waits for: one request, or the list when several are open."""
    found: list[dict[str, Any]] = []
    for wait in waits:
        if wait.kind == "gate":
            found.append({"gate": {"tool": wait.tool, "tool_call_id": wait.tool_call_id}})
        else:
            found.append({"question": wait.question})
    if not found:
        return None
    return found[0] if len(found) == 1 else found
