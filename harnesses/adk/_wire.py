"""ADK's own objects, in the protocol's shapes: field for field, nothing added.

* A ``FunctionResponse`` is a tool result: ``success`` says whether its response is a
  recoverable failure (ADK's shape for one: a truthy ``error``, as ADK's own tools and
  its telemetry read it), ``data`` is the response as ADK holds it, ``error`` its
  ``error``, and ``artifacts`` what the call saved as its artifacts, when ADK recorded
  one for it on the response event.
* A session event is a wire row: its author and content's role become the row's
  ``role`` (``model`` is the wire's ``assistant``), its text the row's ``content``, and its
  parts and non-empty actions are kept as ADK serialises them.  No field is invented:
  ADK keeps artifacts in its artifact service and names them on the event's
  ``artifact_delta``, so no row carries ``toolArtifacts``.
* An open interrupt (a long-running call no user response has answered yet) is what a
  turn waits for: a confirmation request is a gate, an ``adk_request_input`` call a
  question.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from google.adk.events import Event
from google.genai import types

from harnesses.adk._model import ASK

__all__ = [
    "CONFIRM",
    "dumped",
    "open_interrupts",
    "pending_of",
    "result_of",
    "row_of",
    "tool_message",
]

#: The name of the call ADK's confirmation gate asks the user through.
CONFIRM = "adk_request_confirmation"


def dumped(value: Any) -> Any:
    """An ADK object as ADK serialises it (JSON mode, unset fields left out)."""
    return value.model_dump(mode="json", exclude_none=True)


def result_of(response: types.FunctionResponse, artifacts: object = None) -> dict[str, Any]:
    """The tool result a function response carries (``artifacts``: what ADK recorded
    the call as having saved, ``None`` when it recorded nothing)."""
    body = response.response
    failed = isinstance(body, dict) and bool(body.get("error"))
    result: dict[str, Any] = {
        "success": not failed,
        "data": None if failed else body,
        "error": body["error"] if failed and isinstance(body, dict) else None,
    }
    if artifacts is not None:
        result["artifacts"] = artifacts
    return result


def tool_message(response: types.FunctionResponse) -> dict[str, Any]:
    """A function response as the model is given it, in the wire's names."""
    return {
        "role": "tool",
        "tool_call_id": response.id,
        "name": response.name,
        "content": response.response,
    }


def _role(event: Event) -> str:
    if event.author == "user":
        return "user"
    if event.get_function_responses():
        return "tool"
    role = event.content.role if event.content is not None else None
    return "assistant" if role == "model" else str(role)


def _actions(event: Event) -> dict[str, Any]:
    return {key: value for key, value in dumped(event.actions).items() if value not in ({}, [])}


def row_of(event: Event, conversation: str, index: int) -> dict[str, Any]:
    """One session event as a row of the conversation's message list."""
    parts = (event.content.parts or []) if event.content is not None else []
    row: dict[str, Any] = {
        "id": f"{conversation}-{index}",
        "sessionId": conversation,
        "role": _role(event),
        "content": "".join(part.text for part in parts if part.text),
        "author": event.author,
        "parts": [dumped(part) for part in parts],
    }
    actions = _actions(event)
    if actions:
        row["actions"] = actions
    if event.long_running_tool_ids:
        row["long_running_tool_ids"] = sorted(event.long_running_tool_ids)
    return row


def open_interrupts(events: Iterable[Event]) -> list[tuple[Event, types.FunctionCall]]:
    """The long-running calls among ``events`` that no user response has answered yet,
    in the order they were made, each with the event that made it."""
    waiting: dict[str, tuple[Event, types.FunctionCall]] = {}
    for event in events:
        if event.author == "user":
            for response in event.get_function_responses():
                waiting.pop(response.id or "", None)
            continue
        for call in event.get_function_calls():
            if call.id and call.id in (event.long_running_tool_ids or ()):
                waiting[call.id] = (event, call)
    return list(waiting.values())


def _pending_one(call: types.FunctionCall) -> dict[str, Any]:
    args = call.args or {}
    if call.name == CONFIRM:
        original = args.get("originalFunctionCall") or {}
        confirmation = args.get("toolConfirmation") or {}
        gate = {"tool": original.get("name"), "tool_call_id": original.get("id")}
        return {"gate": gate | {"hint": confirmation.get("hint")}}
    if call.name == ASK:
        return {"question": args.get("message")}
    return {"call": dumped(call)}


def pending_of(waiting: Sequence[tuple[Event, types.FunctionCall]]) -> object:
    """What a turn waits for: one request, or the list when several are open."""
    found = [_pending_one(call) for _, call in waiting]
    if not found:
        return None
    return found[0] if len(found) == 1 else found
