"""AutoGen's own objects, in the protocol's shapes: field for field, nothing added.

* A ``FunctionExecutionResult`` is a tool result: ``success`` is ``not is_error``, and
  its text is the ``data`` of a success or the ``error`` of a failure, as AutoGen holds
  it (AutoGen keeps a tool's return value only as the text it made of it).  The
  ``artifacts`` are the entries the call's tool streamed, when it streamed any.
* An entry of the team's message thread, as AutoGen saves it (``Team.save_state``), is
  a wire row: its ``type``, ``source``, ``content`` and ``metadata`` as AutoGen dumps
  them, a role read from its type and source, and the handoff target or call id where
  the entry has one.  AutoGen's random message ids and clock times are left out, so that
  the rows of one scenario are the same from run to run.
* A turn waits for the user when its last entry is the agent's handoff to the user:
  what it waits for is the question the model asked beside the handoff, the thought
  AutoGen recorded before the handoff's call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from autogen_core.models import FunctionExecutionResult

__all__ = [
    "USER",
    "pending_of",
    "result_of",
    "row_of",
    "thread_of",
    "tool_message",
    "waiting_handoff",
]

#: The name AutoGen's handoff and its messages give the human user.
USER = "user"
_TOOL_TYPES = ("ToolCallExecutionEvent", "ToolArtifactEvent")


def result_of(result: FunctionExecutionResult, artifacts: Sequence[object]) -> dict[str, Any]:
    """The tool result the agent received for one call."""
    failed = bool(result.is_error)
    out: dict[str, Any] = {
        "success": not failed,
        "data": None if failed else result.content,
        "error": result.content if failed else None,
    }
    if artifacts:
        out["artifacts"] = list(artifacts)
    return out


def tool_message(result: FunctionExecutionResult) -> dict[str, Any]:
    """What the agent fed back towards the model for one call (its model context holds
    the result; a provider is sent it as a tool message)."""
    return {"role": "tool", "tool_call_id": result.call_id, "content": result.content}


def thread_of(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The team's message thread, as ``Team.save_state`` dumped it."""
    for agent_state in state.get("agent_states", {}).values():
        if isinstance(agent_state, Mapping) and "message_thread" in agent_state:
            return list(agent_state["message_thread"])
    return []


def _role(entry: Mapping[str, Any]) -> str:
    if entry.get("source") == USER:
        return "user"
    return "tool" if entry.get("type") in _TOOL_TYPES else "assistant"


def row_of(entry: Mapping[str, Any], conversation: str, index: int) -> dict[str, Any]:
    """One entry of the thread as a row of the conversation's message list."""
    row: dict[str, Any] = {
        "id": f"{conversation}-{index}",
        "sessionId": conversation,
        "role": _role(entry),
        "content": entry.get("content"),
        "type": entry.get("type"),
        "source": entry.get("source"),
        "metadata": entry.get("metadata", {}),
    }
    for key in ("target", "tool_call_id"):
        if key in entry:
            row[key] = entry[key]
    return row


def waiting_handoff(entries: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the last of ``entries`` is the agent's handoff to the user."""
    if not entries:
        return False
    last = entries[-1]
    return last.get("type") == "HandoffMessage" and last.get("target") == USER


def pending_of(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """What a turn whose entries end in a handoff to the user waits for."""
    if not waiting_handoff(entries):
        return None
    thoughts = [entry for entry in entries if entry.get("type") == "ThoughtEvent"]
    question = thoughts[-1].get("content") if thoughts else None
    return {"question": question, "handoff": entries[-1].get("content")}
